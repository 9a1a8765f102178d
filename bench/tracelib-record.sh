#!/bin/bash
# tracelib-record.sh — runs bench/tracelib_record.c with a temporary trace directory (the
# events it records are written, as in a real run) and removes it afterwards. The recorded
# figures are taken with SG_THROTTLE=0 (every call recorded); the program adds the cost of a
# throttled probe itself.
#
# Before/after: with SG_BENCH_BEFORE=PATH (a tracelib_record built against an older
# libsgtrace), both are run alternately, ROUNDS times each (default 3), in the same minutes,
# their lines prefixed "before " and "after ", so that a change of the hot path is measured
# against the same machine load:
#   SG_BENCH_BEFORE=/tmp/old/build/bench/tracelib_record bench/tracelib-record.sh
# Unset, SG_BENCH_BEFORE is the tracelib_record of the tree before issue 14's throttling
# (bench/bench-lib.sh builds it once); set it empty to measure this library alone.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sgbench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
if [ -z "${SG_BENCH_BEFORE+set}" ]; then
	work=$dir
	. bench/bench-lib.sh
	SG_BENCH_BEFORE=
	if bench_before_tree && make -C "$before" -j2 build/bench/tracelib_record >>"$before.log" 2>&1
	then
		SG_BENCH_BEFORE=$before/build/bench/tracelib_record
	fi
fi
if [ -z "${SG_BENCH_BEFORE:-}" ]; then
	SG_THROTTLE=0 SG_TRACE_DIR="$dir/trace" "$B/bench/tracelib_record" "$@"
	exit 0
fi
for ((i = 0; i < ${ROUNDS:-3}; i++)); do
	rm -rf "$dir/b" "$dir/a"
	SG_THROTTLE=0 SG_TRACE_DIR="$dir/b" "$SG_BENCH_BEFORE" "$@" | sed 's/^/before /'
	SG_THROTTLE=0 SG_TRACE_DIR="$dir/a" "$B/bench/tracelib_record" "$@" | sed 's/^/after /'
done
