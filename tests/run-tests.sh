#!/bin/bash
# Runs every test program named on the command line and sums their results into the one
# closing line CI reads: "N passed, N failed, N skipped".
#
# A test program is a cmocka binary or a script. Results are read from its output:
#   cmocka:  "[  PASSED  ] N test(s)."  "[  FAILED  ] N test(s)"  "[  SKIPPED ] N test(s)"
#   scripts: one line per case, "PASS: name", "FAIL: name: why", "SKIP: name: why"
# A program that prints none of these counts as one case, passed iff it exits 0. A program
# that exits non-zero (or is killed) with no failure reported counts one more failure.
# Each program's output is kept in build/test-logs/<name>.log; failures show its tail.
set -u
logdir=${B:-build}/test-logs
mkdir -p "$logdir"
timeout_s=${SG_TEST_TIMEOUT:-900}
tp=0 tf=0 ts=0
for t in "$@"; do
	name=$(echo "$t" | sed 's|^build/||; s|/|_|g')
	log="$logdir/$name.log"
	start=$(date +%s.%N)
	tmo=$timeout_s
	# the sanitizer stage is the whole suite again, rebuilt: it gets the time of a whole run
	case $t in */test-sanitize.sh) tmo=${SG_SANITIZE_TIMEOUT:-1800} ;; esac
	timeout -k 10 "$tmo" "$t" >"$log" 2>&1 </dev/null
	rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
	p=$(grep -E '^\[  PASSED  \] [0-9]+ test' "$log" | awk '{s+=$4} END{print s+0}')
	f=$(grep -E '^\[  FAILED  \] [0-9]+ test' "$log" | awk '{s+=$4} END{print s+0}')
	s=$(grep -E '^\[  SKIPPED \] [0-9]+ test' "$log" | awk '{s+=$4} END{print s+0}')
	p=$((p + $(grep -c '^PASS: ' "$log")))
	f=$((f + $(grep -c '^FAIL: ' "$log")))
	s=$((s + $(grep -c '^SKIP: ' "$log")))
	if [ $((p + f + s)) -eq 0 ]; then
		if [ $rc -eq 0 ]; then p=1; else f=1; fi
	elif [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL: $t exited with status $rc" >>"$log"
	fi
	if [ "$f" -gt 0 ]; then status=FAIL; else status=ok; fi
	printf '%-4s %-50s %4d passed %3d failed %3d skipped  %6.1fs\n' "$status" "$t" "$p" "$f" "$s" "$secs"
	if [ "$f" -gt 0 ]; then
		grep -E '^(FAIL: |\[  FAILED  \]|\[  ERROR   \])' "$log" | head -20 | sed 's/^/     | /'
		tail -15 "$log" | sed 's/^/     > /'
	fi
	grep '^SKIP: ' "$log" | sed 's/^/     | /'
	tp=$((tp + p)); tf=$((tf + f)); ts=$((ts + s))
done
echo "$tp passed, $tf failed, $ts skipped"
[ "$tf" -eq 0 ]
