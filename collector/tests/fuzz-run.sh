#!/bin/bash
# fuzz-run.sh NAME SECONDS [CORPUS] [LIBFUZZER FLAGS...] — the common part of the collector's
# fuzz scripts: runs $B/fuzz/fuzz-NAME on CORPUS (a fresh one when empty), seeded from
# collector/tests/fuzz-corpus/NAME, keeps artifacts in $B/fuzz/, and prints one PASS/FAIL line
# with the execs per second and the corpus size reached.
set -u
B=${B:-build}
name=$1 secs=$2 corpus=${3:-}
shift 3 2>/dev/null || shift $#
FUZZ=$B/fuzz/fuzz-$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$corpus" ] || corpus=$work/corpus
[ -x "$FUZZ" ] || { echo "SKIP: fuzz-$name: $FUZZ not built (needs clang and libclang-rt-14-dev)"; exit 0; }
mkdir -p "$corpus"
cp -n collector/tests/fuzz-corpus/"$name"/* "$corpus"/ 2>/dev/null
"$FUZZ" -seed=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$work/" "$@" "$corpus" >"$work/fuzz.log" 2>&1
rc=$?
runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/fuzz.log")
rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$work/fuzz.log")
size=$(ls "$corpus" | wc -l)
if [ $rc -eq 0 ] && [ -z "$(ls "$work" | grep -E '^(crash|leak|timeout|oom)-')" ]; then
	echo "PASS: fuzz-$name: ${runs:-?} inputs in ${secs} s (${rate:-?} execs/s), corpus $size files, no crash, no sanitizer report"
else
	echo "FAIL: fuzz-$name: exit $rc: $(grep -m1 -E 'ERROR|empty|deadly' "$work/fuzz.log")"
	ls "$work" | grep -E '^(crash|leak|timeout|oom)-' | while read -r a; do
		mkdir -p "$B/fuzz" && cp "$work/$a" "$B/fuzz/$name-$a" && echo "     artifact kept: $B/fuzz/$name-$a"
	done
	grep -B2 -A14 -m1 -E 'ERROR|empty' "$work/fuzz.log" | head -30
fi
echo "fuzz-$name: execs/s ${rate:-?}, corpus size $size ($corpus)"
