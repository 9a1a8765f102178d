#!/bin/bash
# callheavy.sh — what tracing costs a call-heavy program (issue 14): tests/callheavy.c (a
# recursive tree walk calling a tiny helper millions of times, a mutex every 64 visits) built
# plain, with `scalegraph cc`'s default probes and with --sg-all-functions; the same two built
# by the tree before overhead control (the instrumenter and libsgtrace of $BENCH_BEFORE) beside
# them. Runs are interleaved (plain, default, all, before-default, before-all, plain, ...) and
# each variant's median wall time is compared with the plain build's. Every traced run writes
# its trace, as a user's would; the trace's size is reported per second of plain run time.
# Targets: default <= 1.3x and <= 100 MB of trace per second; all functions <= 2x.
# BENCH_REPS (default 7) and BENCH_ARGS (default -t 2 -d 19 -r 6) override.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
SG=$PWD/$B/bin/scalegraph
reps=${BENCH_REPS:-7}
args=${BENCH_ARGS:--t 2 -d 19 -r 6}
work=$(mktemp -d "${TMPDIR:-/tmp}/sgbench-callheavy.XXXXXX")
trap 'rm -rf "$work"' EXIT
. bench/bench-lib.sh

cc -O2 -o "$work/plain" tests/callheavy.c -pthread -lm || exit 1
"$SG" cc --sg-static -O2 -o "$work/default" tests/callheavy.c -lm || exit 1
"$SG" cc --sg-static --sg-all-functions -O2 -o "$work/all" tests/callheavy.c -lm || exit 1
variants="plain default all"
if bench_before_tree; then
	"$before/build/bin/scalegraph" cc --sg-static -O2 -o "$work/before-default" \
		tests/callheavy.c -lm && variants="$variants before-default"
	"$before/build/bin/scalegraph" cc --sg-static --sg-all-functions -O2 \
		-o "$work/before-all" tests/callheavy.c -lm && variants="$variants before-all"
fi

want=$("$work/plain" $args | grep checksum)
for r in $(seq 1 "$reps"); do
	for v in $variants; do
		rm -rf "$work/trace"
		# shellcheck disable=SC2086
		bench_time "$v" env SG_TRACE_DIR="$work/trace" "$work/$v" $args
		if [ "$v" != plain ]; then
			du -sb "$work/trace" | awk -v v="$v" '{ print v, $1 }' >>"$work/sizes"
			# shellcheck disable=SC2086
			got=$(SG_TRACE=0 "$work/$v" $args | grep checksum)
			[ "$got" = "$want" ] || { echo "callheavy: $v printed '$got', plain '$want'"; exit 1; }
		fi
	done
done

plain=$(bench_median plain)
echo "callheavy-plain: $plain s wall (callheavy $args, median of $reps interleaved runs)"
for v in $variants; do
	[ "$v" = plain ] && continue
	case $v in
	default) target="target <= 1.3x, <= 100 MB/s" ;;
	all) target="target <= 2x" ;;
	*) target="before issue 14, reported" ;;
	esac
	mb=$(awk -v v="$v" '$1 == v { s = $2 } END { printf "%.1f", s / 1e6 }' "$work/sizes")
	echo "callheavy-$v: $(bench_ratio "$v" plain)x plain wall time, trace $mb MB =" \
		"$(awk -v m="$mb" -v p="$plain" 'BEGIN { printf "%.0f", m / p }') MB per plain second ($target)"
done
