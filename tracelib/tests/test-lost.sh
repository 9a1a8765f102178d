#!/bin/bash
# test-lost.sh — threads that cannot start recording are counted, not dropped silently: failee.c
# starts workers under a real resource limit (no file descriptor for their stream files; an
# address-space limit below their buffer size), and the trace must carry their probe calls as
# lost events of thread 0 (K * (1 + 2M)), stderr must say so once with SG_VERBOSE=1 (and
# nothing without: the count is in the trace), and thread 0's own events must be intact. Prints PASS:/FAIL: lines (tests/run-tests.sh).
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
failee=$B/tests/tracelib/failee
. "$(dirname "$0")/tlib.sh" lost "$dump" "$failee"

k=3 m=100
want=$((k * (1 + 2 * m)))
for mode in nofile memory; do
	buf=1M
	[ $mode = memory ] && buf=256M
	SG_VERBOSE=1 SG_EVENTS=none SG_TRACE_BUFFER=$buf SG_TRACE_DIR="$work/$mode" "$failee" \
		$mode $k $m >"$work/$mode.out" 2>"$work/$mode.err"
	rc=$?
	ok "${mode}_program_runs" $((rc != 0)) "exit $rc: $(cat "$work/$mode.err")"
	SG_EVENTS=none SG_TRACE_BUFFER=$buf SG_TRACE_DIR="$work/$mode.quiet" "$failee" $mode $k $m \
		>/dev/null 2>"$work/$mode.qerr"
	rc=$?
	[ $rc -eq 0 ] && [ ! -s "$work/$mode.qerr" ]
	ok "${mode}_quiet_without_verbose" $? "exit $rc, stderr: $(cat "$work/$mode.qerr")"
	n=$(grep -c "^sgtrace: warning: $k thread(s) could not be traced (out of memory or file descriptors); their $want probe calls are counted as lost events of thread 0\$" "$work/$mode.err")
	ok "${mode}_reported_once" $((n != 1)) "stderr: $(cat "$work/$mode.err")"
	"$dump" --summary "$work/$mode" >"$work/$mode.sum" 2>&1
	"$dump" "$work/$mode" >"$work/$mode.dump" 2>/dev/null
	# the summary's line of thread 0 ("thread 0: ..., 603 lost, ...") carries the lost count
	lost=$(sed -n 's/^thread 0: .*, \([0-9]*\) lost,.*/\1/p' "$work/$mode.sum")
	ok "${mode}_lost_counted" $(( ${lost:-0} != want )) "thread 0 lost '${lost:-}', want $want: $(cat "$work/$mode.sum")"
	n=$(ls "$work/$mode"/proc.*/thread.*.sgs | wc -l)
	ok "${mode}_no_worker_streams" $((n != 1)) "$n stream files"
	n=$(grep -c ' 0 lock_acquired ' "$work/$mode.dump")
	ok "${mode}_thread0_intact" $((n != 1)) "$n lock_acquired events of thread 0"
done
