#!/bin/bash
# instrument-overhead-grain.sh — what tracing costs as a function of how often a program
# synchronizes, in regimes where the figure can be resolved. instrument-overhead.sh measures
# billiards at N = 2 on two vCPUs, where the plain build alone spreads 1.0-2.9 s (each barrier
# episode across the two vCPUs costs ~20 us, over ten times the work between two barriers, and
# whether a run lands in the fast or the slow mode decides its time). Here, the default-filter
# build against the plain one, interleaved, as the median of the per-pair ratios, for:
#   billiards pinned to one CPU   both threads on CPU 0: no cross-vCPU wake-ups, a stable
#                                 3 us iteration, every record on the critical path
#   jacobi 256 x 2000, N = 2      a barrier episode every ~20 us per thread
#   jacobi 1024 x 200, N = 2      a barrier episode every ~0.5 ms per thread
# and the records per second of each traced run, the figure that decides the cost: overhead ~
# records/s x cost per record (docs/tracelib.md). Prints `name: value` lines (run-bench.sh).
# BENCH_REPS overrides the pairs per case (default 9).
set -eu
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
SG=$B/bin/scalegraph
reps=${BENCH_REPS:-9}
work=$(mktemp -d "${TMPDIR:-/tmp}/sgbench-grain.XXXXXX")
trap 'rm -rf "$work"' EXIT
TIMEFORMAT='%3R'
common="examples/common/ex_cli.c examples/common/ex_threads.c"

# build NAME EXAMPLE SOURCES...: NAME-plain and NAME-default, same flags.
build() {
	local name=$1 ex=$2
	shift 2
	local cflags="-std=c11 -D_GNU_SOURCE -O2 -g -Iexamples/common -Iexamples/$ex"
	# shellcheck disable=SC2086
	cc $cflags -I"$B/include" "$@" $common -o "$work/$name-plain" -pthread -lm
	# shellcheck disable=SC2086
	"$SG" cc --sg-static $cflags "$@" $common -o "$work/$name-default" -lm
}

# measure LABEL NAME PIN ARGS...: interleaved pairs, then one traced run counted.
measure() {
	local label=$1 name=$2 pin=$3
	shift 3
	local run=()
	[ "$pin" = none ] || run=(taskset -c "$pin")
	: >"$work/pairs"
	for ((r = 0; r < reps; r++)); do
		local t=()
		for v in plain default; do
			rm -rf "$work/trace"
			{ time SG_EVENTS=none SG_TRACE_DIR="$work/trace" "${run[@]}" "$work/$name-$v" "$@" \
				>/dev/null 2>&1; } 2>"$work/t"
			t+=("$(cat "$work/t")")
		done
		echo "${t[0]} ${t[1]}" >>"$work/pairs"
	done
	local recs
	recs=$("$SG" dump --summary "$work/trace" 2>/dev/null |
		awk '$1 == "threads" && $3 == "events" { sub(",", "", $4); print $4; exit }')
	# med FILE COLUMN-EXPR [q1|q3]: the median (or a quartile) of a column of the pairs file
	med() {
		awk "{ print $1 }" "$work/pairs" | sort -g |
			awk -v q="${2:-med}" '{ a[NR] = $1 } END { k = int((NR + 3) / 4)
				print q == "q1" ? a[k] : q == "q3" ? a[NR + 1 - k] : a[int((NR + 1) / 2)] }'
	}
	local ratio='($2 / $1 - 1) * 100'
	awk -v label="$label" -v recs="${recs:-0}" -v m="$(med "$ratio")" -v q1="$(med "$ratio" q1)" \
		-v q3="$(med "$ratio" q3)" -v tp="$(med '$1')" -v td="$(med '$2')" -v n="$reps" 'BEGIN {
		printf "%s: %+.1f %% wall time (median of %d paired ratios, quartiles %+.1f..%+.1f %%; plain %.3f s, traced %.3f s median", \
			label, m, n, q1, q3, tp, td
		if (recs > 0)
			printf "; %.2f M records/s", recs / td / 1e6
		if (recs > 0 && q1 > 0)   # slower in three pairs of four: a cost to share out
			printf ", %.1f ns per record on the critical path", (td - tp) / recs * 1e9
		printf ")\n" }'
}

build billiards billiards examples/billiards/billiards_par.c examples/billiards/bil_sim.c \
	examples/billiards/bil_queue.c examples/billiards/bil_coarse.c examples/billiards/bil_cli.c
build jacobi jacobi examples/jacobi/jacobi_par.c examples/jacobi/jac_grid.c examples/jacobi/jac_cli.c

measure "overhead-billiards-one-cpu" billiards 0 --balls 20000 --steps 300 --threads 2
measure "overhead-jacobi-fine-grain (target <= 2 %)" jacobi none --n 256 --iters 2000 --threads 2
measure "overhead-jacobi-coarse-grain (target <= 2 %)" jacobi none --n 1024 --iters 200 --threads 2
