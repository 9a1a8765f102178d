#!/bin/bash
# test-fuzz-trace.sh [SECONDS [CORPUS]] — runs the libFuzzer target "trace" (fuzz_trace.c: the
# trace reader and the analyzer of `scalegraph report DIR` on archives of a trace directory's
# files; no crash, no sanitizer report, no hang, no empty message) for SECONDS (default 15,
# what `make check` uses; `make fuzz` passes FUZZ_SECONDS and a corpus it keeps). The corpus is
# seeded from analyzer/tests/fuzz-corpus/trace/ (small real and crafted traces packed with
# fuzz_trace_pack.py). Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh), then the execs per
# second and the corpus size reached.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
FUZZ=$B/fuzz/fuzz-trace
secs=${1:-15}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=${2:-$work/corpus}
[ -x "$FUZZ" ] || { echo "SKIP: fuzz-trace: $FUZZ not built (needs clang and libclang-rt-14-dev)"; exit 0; }

mkdir -p "$corpus"
cp analyzer/tests/fuzz-corpus/trace/* "$corpus/"
# the harness writes its files under TMPDIR when /dev/shm is not writable; keep them in $work
TMPDIR=$work "$FUZZ" -seed=1 -max_total_time="$secs" -max_len=24576 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$work/" "$corpus" >"$work/fuzz.log" 2>&1
rc=$?
runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/fuzz.log")
rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$work/fuzz.log")
if [ $rc -eq 0 ] && [ -z "$(ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-')" ]; then
	echo "PASS: fuzz-trace: ${runs:-?} inputs in ${secs} s, no crash, no sanitizer report, no hang"
else
	echo "FAIL: fuzz-trace: exit $rc: $(grep -m1 -E 'ERROR|runtime error|deadly|abort' "$work/fuzz.log")"
	ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | while read -r a; do
		mkdir -p "$B/fuzz" && cp "$work/$a" "$B/fuzz/trace-$a" &&
			echo "     artifact kept: $B/fuzz/trace-$a (unpack: analyzer/tests/fuzz_trace_pack.py unpack FILE DIR)"
	done
	grep -B2 -A14 -m1 -E 'ERROR|runtime error' "$work/fuzz.log" | head -30
fi
echo "fuzz-trace: ${rate:-?} execs/s, corpus $(ls "$corpus" | wc -l) inputs ($(du -sh "$corpus" | cut -f1))"
