#!/bin/bash
# hotpath.sh — overhead control must cost nothing where it does not act (issue 14): the bundled
# billiards example and a barrier-bound program (bench/barrier_loop.c), each instrumented once by
# `scalegraph cc` (default probes) and linked twice — against this libsgtrace and against the
# one of $BENCH_BEFORE (before throttling and the trace budget existed) — run interleaved with
# the plain build. Neither program reaches the throttle rule on a hot function, so "after" must
# equal "before": the figure is after/before of the median wall times (target 1.00, within
# noise), with each one's overhead against plain beside it. BENCH_REPS (default 9) overrides.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
SG=$PWD/$B/bin/scalegraph
reps=${BENCH_REPS:-9}
work=$(mktemp -d "${TMPDIR:-/tmp}/sgbench-hotpath.XXXXXX")
trap 'rm -rf "$work"' EXIT
. bench/bench-lib.sh
bench_before_tree || exit 0

BIL_CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -Iexamples/common -Iexamples/billiards"
BIL_SRCS="examples/billiards/billiards_par.c examples/billiards/bil_sim.c
	examples/billiards/bil_queue.c examples/billiards/bil_coarse.c examples/billiards/bil_cli.c
	examples/common/ex_cli.c
	examples/common/ex_threads.c"
bil_args="--balls 20000 --steps 150 --threads 2"
bar_args="2 20000 2000"

# build NAME SOURCES...: plain, after (this library) and before (the old one), same objects
build() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	cc $BIL_CFLAGS -I"$B/include" "$@" -o "$work/$name-plain" -pthread -lm || exit 1
	# shellcheck disable=SC2086
	"$SG" cc --sg-static $BIL_CFLAGS "$@" -o "$work/$name-after" -lm || exit 1
	# the old tree's own instrumenter: this one's output calls wrappers the old library lacks
	# shellcheck disable=SC2086
	SG_LIB_DIR="$before/build/lib" SG_INCLUDE_DIR="$before/build/include" \
		"$before/build/bin/scalegraph" cc --sg-static $BIL_CFLAGS "$@" -o "$work/$name-before" \
		-lm || exit 1
}
# shellcheck disable=SC2086
build billiards $BIL_SRCS
build barrier bench/barrier_loop.c

for r in $(seq 1 "$reps"); do
	for v in plain after before; do
		rm -rf "$work/trace"
		# shellcheck disable=SC2086
		bench_time "billiards-$v" env SG_TRACE_DIR="$work/trace" "$work/billiards-$v" $bil_args
		rm -rf "$work/trace"
		# shellcheck disable=SC2086
		bench_time "barrier-$v" env SG_TRACE_DIR="$work/trace" "$work/barrier-$v" $bar_args
	done
done
for p in billiards barrier; do
	echo "hotpath-$p: after/before $(bench_ratio "$p-after" "$p-before")x wall time (target 1.00;" \
		"medians of $reps interleaved runs: plain $(bench_median "$p-plain") s, before" \
		"$(bench_median "$p-before") s = $(bench_ratio "$p-before" "$p-plain")x plain, after" \
		"$(bench_median "$p-after") s = $(bench_ratio "$p-after" "$p-plain")x plain)"
done
