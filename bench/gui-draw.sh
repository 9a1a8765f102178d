#!/bin/bash
# gui-draw.sh — xscalegraph's drawing speed under Xvfb (DESIGN.md: an experiment of 64 runs
# opened and drawn in <= 300 ms; redraw on resize <= 50 ms). Two experiments: the CSV fixture
# cut to 64 runs, and a real store made by `scalegraph run` on the small billiards spec (opened
# through the analyzer). Each figure is the median of 5 starts; for the store, the first start
# (which analyses every trace and fills the store's metrics cache: the store is made with
# --no-analyze, since `scalegraph run` otherwise fills that cache itself) is also reported alone.
set -u
B=${B:-build}
XSG=$B/bin/xscalegraph
work=$(mktemp -d "${TMPDIR:-/tmp}/sgguibench.XXXXXX")
XPID=
trap '[ -n "$XPID" ] && kill "$XPID" 2>/dev/null; rm -rf "$work"' EXIT
command -v Xvfb >/dev/null || { echo "gui: skipped: Xvfb not installed"; exit 0; }
Xvfb -displayfd 3 -screen 0 1600x1200x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
XPID=$!
for i in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$work/display")

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "nan") }'; }

# bench_exp LABEL DIR: start-to-browser, start-to-time-window, resize redraw
bench_exp() {
	local label=$1 dir=$2 k
	: >"$work/t"
	for k in 1 2 3 4 5; do
		"$XSG" --timing --poll 0 --action "open:time;resize:800x600;resize:1000x760;resize:700x500;resize:1000x760;quit" \
			"$dir" >>"$work/t" 2>&1
	done
	load=$(sed -n 's/^load: \([0-9.]*\) ms.*/\1/p' "$work/t" | median)
	runs=$(sed -n 's/^first-draw: .* ms (start to complete browser draw, \([0-9]*\) runs)/\1/p' "$work/t" | head -1)
	first=$(sed -n 's/^first-draw: \([0-9.]*\) ms.*/\1/p' "$work/t" | median)
	cold=$(sed -n 's/^first-draw: \([0-9.]*\) ms.*/\1/p' "$work/t" | head -1)
	cold_load=$(sed -n 's/^load: \([0-9.]*\) ms.*/\1/p' "$work/t" | head -1)
	timewin=$(grep '^draw time 1000x760' "$work/t" | sed -n 's/.*done \([0-9.]*\) ms after start.*/\1/p' |
		awk 'NR % 3 == 1' | median)
	resize=$(sed -n 's/^resize [0-9x]*: \([0-9.]*\) ms.*/\1/p' "$work/t" | median)
	redraw=$(sed -n 's/^resize [0-9x]*: .*(draw \([0-9.]*\) ms)/\1/p' "$work/t" | median)
	echo "gui first draw, $label ($runs runs): $first ms (target <= 300 ms)"
	echo "gui first draw of the very first start, $label: $cold ms (loading $cold_load ms)"
	echo "gui of which loading the experiment (analyzer, store tables), $label: $load ms"
	echo "gui start to time window drawn, $label: $timewin ms (target <= 300 ms)"
	echo "gui resize to redrawn, $label: $resize ms (target <= 50 ms)"
	echo "gui redraw of the time window alone, $label: $redraw ms (target <= 50 ms)"
}

mkdir -p "$work/csv64"
cp gui/tests/fixture/* "$work/csv64/"
head -65 gui/tests/fixture/runs.csv >"$work/csv64/runs.csv"
bench_exp "CSV fixture" "$work/csv64"

if [ -x "$B/bin/scalegraph" ] && [ -x "$B/bin/billiards" ]; then
	PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run examples/billiards/billiards-small.sgx \
		-o "$work/store.exp" --threads 1,2 --repeat 3 --no-analyze >"$work/run.log" 2>&1
	bench_exp "billiards store" "$work/store.exp"
else
	echo "gui store bench: skipped: scalegraph/billiards not built"
fi
