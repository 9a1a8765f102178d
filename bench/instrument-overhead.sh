#!/bin/bash
# instrument-overhead.sh — what tracing costs billiards, side by side in one run: the plain
# build against `scalegraph cc` builds of the same sources with the default filter (the
# DESIGN.md target: <= 2 % wall time at N = 2), sync calls only (--sg-no-functions), and every
# function (--sg-all-functions). Every variant is compiled here with the same flags; runs are
# interleaved (plain, default, sync, all, counters, plain, ...) so that load changes hit all
# variants alike, and the median wall time of each is compared. Traces are written (to a
# temporary directory) as in a real run. Then one traced run per variant is dumped to count which
# probes fire how often, the figure that explains the overhead.
#
# The instrumentation variants run with libsgtrace's per-thread counters off (SG_EVENTS=none):
# they are the collector's, not the instrumenter's. The "counters" variant is the default build
# with them on, as a user gets it, reported beside it against the plain build and against the
# same build with counters off (what the counters themselves cost: an open perf event makes
# every context switch dearer, which a program that waits at a barrier every few microseconds
# pays in full, so the default reads the kernel's per-thread accounting instead where it can).
# Prints `name: value unit (target ...)` lines (bench/run-bench.sh). BENCH_REPS, BENCH_ARGS
# override the repetitions (default 7) and the billiards arguments.
set -eu
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
SG=$B/bin/scalegraph
reps=${BENCH_REPS:-7}
args=${BENCH_ARGS:---balls 20000 --steps 300 --threads 2}
work=$(mktemp -d "${TMPDIR:-/tmp}/sgbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -g -Iexamples/common -Iexamples/billiards"
SRCS="examples/billiards/billiards_par.c examples/billiards/bil_sim.c examples/billiards/bil_queue.c
      examples/billiards/bil_cli.c examples/common/ex_cli.c examples/common/ex_threads.c"
variants="plain default sync all counters perfsw"
TIMEFORMAT='%3R %3U %3S'   # for bash's time keyword below

# The plain build sees sgtrace.h's markers as no-ops, exactly like $B/bin/billiards.
# shellcheck disable=SC2086
cc $CFLAGS -I"$B/include" $SRCS -o "$work/plain" -pthread -lm
for v in default sync all; do
	case $v in default) o= ;; sync) o=--sg-no-functions ;; all) o=--sg-all-functions ;; esac
	# shellcheck disable=SC2086
	"$SG" cc --sg-static $o $CFLAGS $SRCS -o "$work/$v" -lm
done

# The software events the default takes from the kernel's accounting, as perf events instead
# (what the default cost before): the price of an open perf event at every context switch.
perf_sw=PERF_COUNT_SW_TASK_CLOCK,PERF_COUNT_SW_CONTEXT_SWITCHES,PERF_COUNT_SW_PAGE_FAULTS
want=$("$work/plain" $args | grep checksum)
for r in $(seq 1 "$reps"); do
	for v in $variants; do
		rm -rf "$work/trace"
		# bash's time keyword: wall, user and system seconds of the run
		case $v in
		counters) run=(env "$work/default") ;;           # SG_EVENTS as the caller has it
		perfsw) run=(env "SG_EVENTS=$perf_sw" "$work/default") ;;
		*) run=(env SG_EVENTS=none "$work/$v") ;;
		esac
		{ time SG_TRACE_DIR="$work/trace" "${run[@]}" $args >"$work/out" 2>/dev/null; } 2>"$work/t"
		got=$(grep checksum "$work/out")
		[ "$got" = "$want" ] || { echo "instrument-overhead: $v printed '$got', plain '$want'"; exit 1; }
		echo "$v $(cat "$work/t") $r" >>"$work/times"
	done
done
# stat VARIANT COLUMN [min]: the median (or the minimum) of column 2 (wall seconds) or 5 (CPU
# seconds, user + system). On a shared machine the minimum is the least disturbed run.
stat() {
	awk -v v="$1" '$1 == v { print $2, $2, $3, $4, $3 + $4 }' "$work/times" |
		awk -v c="$2" '{ print $c }' | sort -n |
		awk -v m="${3:-med}" '{ a[NR] = $1 } END { print m == "min" ? a[1] : a[int((NR + 1) / 2)] }'
}
pct() { awk -v m="$1" -v b="$2" 'BEGIN { printf "%+.1f", (m / b - 1) * 100 }'; }
# paired VARIANT BASE: the median over repetitions of VARIANT's wall time over BASE's in the same
# repetition, in %. Billiards at N=2 is bimodal on these VMs (runs of ~0.4 s and of ~2.3 s,
# by how the barrier wake-ups are scheduled) and neighbouring runs mostly share the mode, so
# the paired ratio is steadier than a ratio of medians.
paired() {
	awk -v v="$1" -v b="$2" '$1 == v { x[$5] = $2 } $1 == b { y[$5] = $2 }
		END { for (r in x) if (r in y) print x[r] / y[r] }' "$work/times" | sort -g |
		awk '{ a[NR] = $1 } END { printf "%+.1f", (a[int((NR + 1) / 2)] - 1) * 100 }'
}
echo "instrument-overhead-plain: $(stat plain 2) s wall, $(stat plain 5) s CPU (billiards $args, median of $reps; fastest $(stat plain 2 min) s)"
for v in default sync all counters; do
	case $v in
	default) name=default-filter; target="target <= 2 %" ;;
	sync) name=sync-only; target="no function probes; reported" ;;
	all) name=all-functions; target="reported, no target" ;;
	counters) name=default-filter-with-counters; target="libsgtrace's default per-thread counters on; reported" ;;
	esac
	echo "instrument-overhead-$name: $(pct "$(stat $v 2)" "$(stat plain 2)") % wall time ($target; N=2, median of $reps interleaved runs; paired runs $(paired $v plain) %, fastest runs $(pct "$(stat $v 2 min)" "$(stat plain 2 min)") %, CPU time $(pct "$(stat $v 5)" "$(stat plain 5)") %)"
done
echo "counters-overhead-default: $(paired counters default) % wall time (target <= 2 %; libsgtrace's default counters on against SG_EVENTS=none, same build, N=2, median of $reps paired runs; medians $(pct "$(stat counters 2)" "$(stat default 2)") %, fastest runs $(pct "$(stat counters 2 min)" "$(stat default 2 min)") %, CPU time $(pct "$(stat counters 5)" "$(stat default 5)") %)"
echo "counters-overhead-perf-software-events: $(paired perfsw default) % wall time (reported: task-clock, context switches and page faults as perf events instead of the kernel's accounting, against SG_EVENTS=none; median of $reps paired runs; fastest runs $(pct "$(stat perfsw 2 min)" "$(stat default 2 min)") %, CPU time $(pct "$(stat perfsw 5)" "$(stat default 5)") %)"

# Which probes fire how often (one run each).
for v in default all; do
	rm -rf "$work/trace"
	SG_EVENTS=none SG_TRACE_DIR="$work/trace" "$work/$v" $args >/dev/null 2>&1
	"$SG" dump "$work/trace" >"$work/dump" 2>/dev/null
	awk -v v="$v" '
		$3 == "func_enter" { f[$4]++; nf++ }
		$3 ~ /^(barrier|lock|cond)_/ { s++ }
		END {
			n = 0; for (k in f) n++
			printf "instrument-events-%s: %d function entries (%d functions), %d sync events per run;", v, nf, n, s
			for (i = 0; i < 4; i++) { best = ""; for (k in f) if (best == "" || f[k] > f[best]) best = k
				if (best == "") break; printf " %s %d", best, f[best]; delete f[best] }
			printf "\n" }' "$work/dump"
done
