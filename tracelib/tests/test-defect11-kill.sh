#!/bin/bash
# test-defect11-kill.sh — defect 11 of issue 13, "the main thread's unflushed buffer is lost
# entirely at a kill": crashee in mode hold records N lock/unlock pairs in its main thread and
# N in a worker, flushes nothing, says "ready" and blocks; kill -9 it. Every one of those events
# must be read back (from each thread's slot of the open buffer file threads.sgo), the reader must say
# how many it recovered, and each thread's THREAD_BEGIN must be there. Prints PASS:/FAIL: lines.
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
crashee=$B/tests/tracelib/crashee
. "$(dirname "$0")/tlib.sh" defect11 "$dump" "$crashee"

n=5000   # 15,000 events per thread: well inside one 1 MiB buffer, so nothing is flushed
SG_EVENTS=none SG_TRACE_DIR="$work/trace" "$crashee" hold $n >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do
	grep -q '^ready$' "$work/out" 2>/dev/null && break
	sleep 0.1
done
{ kill -KILL $pid; wait $pid; } 2>/dev/null
"$dump" "$work/trace" >"$work/dump" 2>"$work/dump.err"
"$dump" --summary "$work/trace" >"$work/sum" 2>/dev/null
# the events lines: "t_ns thread kind ..."
locks0=$(grep -Ec '^[0-9]+ 0 lock_(request|acquired|release) ' "$work/dump")
locks1=$(grep -Ec '^[0-9]+ 1 lock_(request|acquired|release) ' "$work/dump")
begins=$(grep -Ec '^[0-9]+ [01] thread_begin ' "$work/dump")
[ "$locks0" -eq $((3 * n)) ] && [ "$locks1" -eq $((3 * n)) ] && [ "$begins" -eq 2 ]
ok defect11-kill-main-buffer $? "after kill -9: thread 0 has $locks0 lock events, thread 1 $locks1 (want $((3 * n)) each), $begins thread_begin (want 2); $(grep -m3 'thread\.' "$work/dump.err")"
# thread 0: THREAD_BEGIN, CREATE_BEGIN/END, the SYNC_SITE of its lock loop's call site (format
# 1.6: the plain wrapper's return address) and its 3n lock events, all from its open buffer
want0=$((3 * n + 4))
grep -q "thread\.0\.sgs: $want0 events recovered from an unsealed chunk (killed writer)\$" "$work/dump.err"
ok defect11-kill-main-buffer-says-recovered $? "no line '... thread.0.sgs: $want0 events recovered ...': $(grep recovered "$work/dump.err")"
grep -q "^  thread 0: $want0 records recovered from the killed writer's buffer\$" "$work/sum"
ok defect11-kill-main-buffer-summary $? "summary: $(grep -A1 '^thread 0:' "$work/sum")"
# time order kept: the merged dump is sorted by time
sed '/^# summary/,$d' "$work/dump" | awk '$1 < last { exit 1 } { last = $1 }'
ok defect11-kill-main-buffer-in-order $? "the recovered events are not in time order"
