#!/bin/bash
# test-quiet.sh — issue 14, "a quiet, tidy library": a traced program writes nothing to stdout
# or stderr but its own output (on this machine, where hardware counters are unavailable: that
# goes into the trace, said on stderr only with SG_VERBOSE=1), and without SG_TRACE_DIR its
# trace root is ./sgtrace-<program>-<YYYYmmdd_HHMMSS>-<pid>, findable by the program's name,
# the program name sanitised, a taken name replaced by .2 without a word.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
B=${B:-build}
prog=$PWD/$B/tests/tracelib/throttlee
dump=$PWD/$B/libexec/scalegraph/scalegraph-dump
. "$(dirname "$0")/tlib.sh" quiet "$prog" "$dump"
unset SG_TRACE_DIR SG_TRACE_ROOT SG_TRACE_PARENT SG_VERBOSE SG_EVENTS
has_pmu=0
for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
	 /sys/bus/event_source/devices/armv8_pmuv3_0; do
	[ -e "$d" ] && has_pmu=1
done

# 1. stderr empty, stdout the program's own line, with the default counters
SG_TRACE_DIR="$work/t1" "$prog" flat 200000 2 >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$work/err" ] && [ "$(cat "$work/out")" = "flat: 400000 calls, 25000 locks" ]
ok issue14-quiet-stderr $? "exit $rc, stdout '$(head -3 "$work/out")', stderr '$(head -3 "$work/err")'"
"$dump" --summary "$work/t1" >"$work/t1.sum" 2>&1
if [ $has_pmu -eq 0 ]; then
	grep -q '^counter [0-9]*: cycles \[events\] unavailable: no hardware PMU (ENOENT)' "$work/t1.sum"
	ok issue14-quiet-counters-unavailable-in-trace $? "$(grep '^counter' "$work/t1.sum" | head -3)"
	SG_VERBOSE=1 SG_TRACE_DIR="$work/t2" "$prog" flat 2000 1 >"$work/out2" 2>"$work/err2"
	n=$(grep -c '^sgtrace: counters unavailable: cycles: no hardware PMU (ENOENT)' "$work/err2")
	[ "$n" -eq 1 ] && [ "$(cat "$work/out2")" = "flat: 2000 calls, 125 locks" ]
	ok issue14-verbose-says-counters-unavailable $? "said $n times; stderr '$(head -2 "$work/err2")'"
else
	echo "SKIP: issue14-quiet-counters-unavailable-in-trace: this machine has a PMU"
	echo "SKIP: issue14-verbose-says-counters-unavailable: this machine has a PMU"
fi

# 2. the default root: one new directory named after the program, the time and the pid
mkdir "$work/cwd"
t0=$(date +%Y%m%d_%H%M%S)
(cd "$work/cwd" && "$prog" flat 2000 1 >"$work/out3" 2>"$work/err3"); rc=$?
t1=$(date +%Y%m%d_%H%M%S)
d=$(ls "$work/cwd")
pid=$("$dump" --summary "$work/cwd/$d" 2>/dev/null | sed -n 's/^pid \([0-9]*\).*/\1/p')
stamp=$(echo "$d" | sed -n 's/^sgtrace-throttlee-\([0-9]\{8\}_[0-9]\{6\}\)-[0-9]*$/\1/p')
[ $rc -eq 0 ] && [ ! -s "$work/err3" ] && [ "$(ls "$work/cwd" | wc -l)" -eq 1 ] && [ -n "$pid" ] &&
	[ "$d" = "sgtrace-throttlee-$stamp-$pid" ] && [[ ! "$stamp" < "$t0" ]] && [[ ! "$stamp" > "$t1" ]]
ok issue14-default-dir-name $? "exit $rc, made '$(ls "$work/cwd" | tr '\n' ' ')' (pid '$pid', run from $t0 to $t1), stderr '$(head -2 "$work/err3")'"

# 3. a program name with characters outside [A-Za-z0-9._-]
mkdir "$work/cwd2"
cp "$prog" "$work/my prog+1"
(cd "$work/cwd2" && "$work/my prog+1" flat 2000 1 >/dev/null 2>"$work/err4"); rc=$?
d=$(ls "$work/cwd2")
[ $rc -eq 0 ] && [[ "$d" =~ ^sgtrace-my_prog_1-[0-9]{8}_[0-9]{6}-[0-9]+$ ]] && [ ! -s "$work/err4" ]
ok issue14-default-dir-name-sanitised $? "exit $rc, made '$d', stderr '$(head -2 "$work/err4")'"

# 4. the name taken already (planted for the next seconds): .2, without a word on stderr
mkdir "$work/cwd3"
(cd "$work/cwd3" && sh -c 'for i in -1 0 1 2 3 4 5 6 7 8 9; do
		mkdir sgtrace-throttlee-$(date -d "+$i sec" +%Y%m%d_%H%M%S)-$$ || exit 9
	done; exec "$1" flat 2000 1' sh "$prog" >/dev/null 2>"$work/err5"); rc=$?
taken=$(ls -d "$work"/cwd3/sgtrace-throttlee-*.2 2>/dev/null)
[ $rc -eq 0 ] && [ -n "$taken" ] && [ ! -s "$work/err5" ] && "$dump" --strict --summary "$taken" >/dev/null 2>&1
ok issue14-default-dir-taken-quietly $? "exit $rc, taken '$taken', stderr '$(head -2 "$work/err5")', made: $(ls "$work/cwd3" | tr '\n' ' ')"
