#!/bin/bash
# test-env.sh — libsgtrace's environment, end to end, on a real traced program (crashee.c): a
# bad value is reported once on stderr, tracing is off and the program runs on unchanged; the
# default and given trace directories; an unwritable directory; SG_TRACE=0; and the clock
# choice (SG_TRACE_CLOCK=ns forces the clock_gettime fallback, tsc the TSC). The parser's cases
# one by one are in test_env.c. Prints PASS:/FAIL: lines (tests/run-tests.sh).
set -u
B=${B:-build}
crashee=$PWD/$B/tests/tracelib/crashee
dump=$PWD/$B/libexec/scalegraph/scalegraph-dump
. "$(dirname "$0")/tlib.sh" env "$crashee" "$dump"
n=500

# bad NAME MESSAGE VAR=VALUE...: the program exits 0, says MESSAGE once, and writes no trace
bad() {
	local name=$1 msg=$2
	shift 2
	rm -rf "$work/run" && mkdir "$work/run"
	(cd "$work/run" && env SG_TRACE_DIR="$work/run/trace" "$@" "$crashee" ok $n \
		>/dev/null 2>"$work/err"); local rc=$?
	local count
	count=$(grep -cF "$msg" "$work/err")
	[ $rc -eq 0 ] && [ "$count" -eq 1 ] && [ -z "$(ls "$work/run")" ]
	ok "$name" $? "exit $rc, message seen $count times, stderr '$(head -2 "$work/err")', files: $(ls "$work/run")"
}
bad bad-SG_TRACE "sgtrace: error: SG_TRACE='yes': expected 0 or 1; tracing is off" SG_TRACE=yes
bad bad-SG_TRACE_BUFFER \
	"sgtrace: error: SG_TRACE_BUFFER='1G': expected a size in bytes with an optional K or M suffix, e.g. 1M; tracing is off" \
	SG_TRACE_BUFFER=1G
bad small-SG_TRACE_BUFFER "sgtrace: error: SG_TRACE_BUFFER='1K': size out of range (4K..1024M); tracing is off" \
	SG_TRACE_BUFFER=1K
bad bad-SG_TRACE_CLOCK "sgtrace: error: SG_TRACE_CLOCK='cycles': expected auto, tsc or ns; tracing is off" \
	SG_TRACE_CLOCK=cycles
bad empty-SG_TRACE_DIR "sgtrace: error: SG_TRACE_DIR is empty: expected a directory; tracing is off" \
	SG_TRACE_DIR=

# SG_TRACE=0: silent, nothing written.
rm -rf "$work/run" && mkdir "$work/run"
(cd "$work/run" && SG_TRACE=0 "$crashee" ok $n >/dev/null 2>"$work/err"); rc=$?
[ $rc -eq 0 ] && [ ! -s "$work/err" ] && [ -z "$(ls "$work/run")" ]
ok disabled-writes-nothing $? "exit $rc, stderr '$(head -1 "$work/err")', files: $(ls "$work/run")"

# Unwritable directory: one message naming it, the program runs on.
(cd "$work" && SG_TRACE_DIR=/proc/sgtrace-cannot-be-here "$crashee" ok $n >/dev/null 2>"$work/err"); rc=$?
[ $rc -eq 0 ] && grep -q "^sgtrace: error: /proc/sgtrace-cannot-be-here: cannot create the trace directory: .*; tracing is off$" "$work/err"
ok unwritable-dir $? "exit $rc, stderr '$(head -2 "$work/err")'"

# Default directory ./sgtrace-<program>-<time>-<pid> (test-quiet.sh checks the name), with
# nested SG_TRACE_DIR parents created.
rm -rf "$work/run" && mkdir "$work/run"
(cd "$work/run" && env -u SG_TRACE_DIR "$crashee" ok $n >/dev/null 2>/dev/null); rc=$?
d=$(ls -d "$work"/run/sgtrace-crashee-* 2>/dev/null)
[ $rc -eq 0 ] && [ -n "$d" ] && "$dump" --strict --summary "$d" >/dev/null 2>&1
ok default-dir $? "exit $rc, found '$d'"
SG_TRACE_DIR="$work/a/b/c" "$crashee" ok $n >/dev/null 2>&1 && "$dump" --strict --summary "$work/a/b/c" >/dev/null 2>&1
ok nested-dir-created $? "no readable trace in $work/a/b/c"

# Clocks: forced ns (the fallback), forced tsc, and auto (tsc here when invariant).
for c in ns tsc auto; do
	if [ $c = tsc ] && ! grep -qw tsc /proc/cpuinfo; then
		echo "SKIP: clock-$c: this CPU has no TSC"
		continue
	fi
	SG_TRACE_CLOCK=$c SG_TRACE_DIR="$work/clock-$c" "$crashee" ok $n >/dev/null 2>&1
	"$dump" --strict "$work/clock-$c" >"$work/clock-$c.out" 2>&1; rc=$?
	want=$c
	if [ $c = auto ]; then
		want=ns
		grep -qw constant_tsc /proc/cpuinfo && grep -qw nonstop_tsc /proc/cpuinfo && want=tsc
	fi
	locks=$(grep -Ec '^[0-9]+ [0-9]+ lock_acquired ' "$work/clock-$c.out")
	# Times in ns, in order, and the run (a few thousand lock pairs) lasting under 10 s.
	span=$(sed '/^# summary/,$d' "$work/clock-$c.out" | awk 'BEGIN { bad = 0 } { if ($1 < last) bad = 1; last = $1 } END { print bad ? -1 : last }')
	[ $rc -eq 0 ] && grep -q "^pid [0-9]*, clock $want" "$work/clock-$c.out" && [ "$locks" -eq $((2 * n)) ] &&
		[ "$span" -gt 0 ] && [ "$span" -lt 10000000000 ]
	ok clock-$c $? "exit $rc, $(grep '^pid' "$work/clock-$c.out"), $locks lock_acquired, span '$span' ns"
done
