#!/bin/bash
# offcpu-cost.sh — what the time budget costs, side by side in one run (docs/tracelib.md,
# docs/analyzer.md):
#   1. per context switch: bench/switch_cost.c (two threads ping-ponging through pipes, pinned
#      to one CPU, then to two) with the off-CPU record on (default) and off (SG_SCHED=0), and
#      without libsgtrace recording at all (SG_TRACE=0); 7 interleaved runs each, medians;
#   2. the hot path: the wrapped mutex's extra cost per event (bench/tracelib_record.c) with
#      the record on and off, 3 interleaved runs each;
#   3. the analysis: a real billiards trace (about 12 M events) analyzed with and without the
#      budget (bench/analyzer_bench.c's analyzer_budget_cost).
set -eu
B=${B:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cd "$tmp"
for layout in 1cpu 2cpus; do
	if [ "$layout" = 2cpus ] && [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
		echo "switch_cost_2cpus: skipped (one CPU)"
		continue
	fi
	: >on; : >off; : >none
	for _ in 1 2 3 4 5 6 7; do
		SG_TRACE_DIR=tr SG_EVENTS=none "$OLDPWD/$B/bench/switch_cost" 50000 $layout >>on
		SG_TRACE_DIR=tr SG_EVENTS=none SG_SCHED=0 "$OLDPWD/$B/bench/switch_cost" 50000 $layout >>off
		SG_TRACE=0 "$OLDPWD/$B/bench/switch_cost" 50000 $layout >>none
		rm -rf tr
	done
	a=$(median <on); b=$(median <off); c=$(median <none)
	echo "switch_cost_$layout: $a ns per switch with the off-CPU record, $b without (SG_SCHED=0), $c without recording (SG_TRACE=0): +$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", a - b }') ns per switch ($(awk -v a="$a" -v b="$b" 'BEGIN { printf "%+.1f", 100 * (a - b) / b }') %)"
done
cd "$OLDPWD"
for v in 1 0 1 0 1 0; do
	SG_SCHED=$v SG_TRACE_DIR="$tmp/rec" "$B/bench/tracelib_record" 2>/dev/null |
		sed -n "s/^mutex_wrapper_enabled_overhead: \([0-9.]*\).*/\1/p" >>"$tmp/mutex.$v"
	rm -rf "$tmp/rec"
done
echo "mutex_wrapper_overhead_with_record: $(median <"$tmp/mutex.1") ns per event (median of 3; record off: $(median <"$tmp/mutex.0") ns): the hot path does not change"
PATH="$PWD/$B/bin:$PATH" SG_TRACE_DIR="$tmp/bil" SG_EVENTS=none \
	"$B/bin/billiards-traced" --balls 24000 --steps 720 --threads 2 >/dev/null
"$B/bench/analyzer_bench" "$tmp/bil" | grep -E "^analyzer_(events|end_to_end|budget_cost)"
