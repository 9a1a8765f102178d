#!/bin/bash
# fuzz-run.sh NAME SEEDS SECONDS [CORPUS] [LIBFUZZER FLAGS...] — what every fuzz target's test
# script shares: runs $B/fuzz/fuzz-NAME for SECONDS on CORPUS (a fresh one when empty) seeded
# from the directory SEEDS (existing corpus files are kept), keeps artifacts in $B/fuzz/NAME-*,
# and prints one PASS/FAIL line, then the execs per second and the corpus size reached.
# SG_FUZZ_ARTIFACT_HINT is appended to each kept artifact's line (how to read it).
# A harness that writes scratch files under TMPDIR writes them in this run's own directory.
set -u
B=${B:-build}
name=$1 seeds=$2 secs=$3 corpus=${4:-}
shift 4 2>/dev/null || shift $#
FUZZ=$B/fuzz/fuzz-$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$corpus" ] || corpus=$work/corpus
[ -x "$FUZZ" ] || { echo "SKIP: fuzz-$name: $FUZZ not built (needs clang and libclang-rt-14-dev)"; exit 0; }
mkdir -p "$corpus"
cp -n "$seeds"/* "$corpus"/ 2>/dev/null
TMPDIR=$work "$FUZZ" -seed=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$work/" "$@" "$corpus" >"$work/fuzz.log" 2>&1
rc=$?
artifacts='^(crash|leak|timeout|oom|slow-unit)-'
runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/fuzz.log")
rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$work/fuzz.log")
size=$(ls "$corpus" | wc -l)
if [ $rc -eq 0 ] && [ -z "$(ls "$work" | grep -E "$artifacts")" ]; then
	echo "PASS: fuzz-$name: ${runs:-?} inputs in ${secs} s (${rate:-?} execs/s), corpus $size files, no crash, no sanitizer report, no hang"
else
	echo "FAIL: fuzz-$name: exit $rc: $(grep -m1 -E 'ERROR|runtime error|invariant|empty|deadly|abort' "$work/fuzz.log")"
	ls "$work" | grep -E "$artifacts" | while read -r a; do
		mkdir -p "$B/fuzz" && cp "$work/$a" "$B/fuzz/$name-$a" &&
			echo "     artifact kept: $B/fuzz/$name-$a${SG_FUZZ_ARTIFACT_HINT:+ ($SG_FUZZ_ARTIFACT_HINT)}"
	done
	grep -B2 -A14 -m1 -E 'ERROR|runtime error|invariant|empty' "$work/fuzz.log" | head -30
fi
echo "fuzz-$name: execs/s ${rate:-?}, corpus size $size ($(du -sh "$corpus" | cut -f1), $corpus)"
