#!/bin/bash
# gui-live.sh — xscalegraph as a live monitor (issue 15), before and after: the first open of a
# store nobody analysed yet (made with --no-analyze: about 60 runs of the small billiards spec)
# — time to the window, time to every figure loaded, peak RSS —, the CPU an open GUI burns
# while the store is idle (utime + stime from /proc/PID/stat over 10 s, polling every second as
# by default), and the first full draw of the analysed store (target <= 300 ms). "Before" is the
# tree of git ref $BENCH_BEFORE (default a3cde19, main before issue 15's live work), built once
# into $B/bench/before-REF; the store is made by that tree's runner (schema 2, which both read).
# Medians of 3 starts.
set -u
B=${B:-build}
XSG=$B/bin/xscalegraph
work=$(mktemp -d "${TMPDIR:-/tmp}/sgguilive.XXXXXX")
XPID=
GPID=
trap '[ -n "$GPID" ] && kill "$GPID" 2>/dev/null; [ -n "$XPID" ] && kill "$XPID" 2>/dev/null; rm -rf "$work"' EXIT
. bench/bench-lib.sh
command -v Xvfb >/dev/null || { echo "gui-live: skipped: Xvfb not installed"; exit 0; }
[ -x /usr/bin/time ] || { echo "gui-live: skipped: /usr/bin/time (package time) not installed"; exit 0; }
BENCH_BEFORE=${BENCH_BEFORE:-a3cde19}
bench_before_tree || exit 0
if ! make -C "$before" -j2 build/bin/xscalegraph build/libexec/scalegraph/scalegraph-run \
	build/libexec/scalegraph/scalegraph-report build/libexec/scalegraph/sg-calib-probe \
	build/libexec/scalegraph/scalegraph-calibrate build/bin/billiards build/bin/billiards-seq \
	build/bin/billiards-traced >>"$before.log" 2>&1; then
	echo "gui-live: skipped: building the GUI of $BENCH_BEFORE failed (see $before.log)"
	exit 0
fi
OLD=$before/build

Xvfb -displayfd 3 -screen 0 1600x1200x24 -nolisten tcp 3>"$work/display" 2>/dev/null &
XPID=$!
for i in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$work/display")

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "nan") }'; }

PATH=$OLD/bin:$PATH "$OLD/bin/scalegraph" run examples/billiards/billiards-small.sgx \
	-o "$work/store.exp" --threads 1,2 --repeat 4 --no-analyze >"$work/run.log" 2>&1
runs=$(sqlite3 "$work/store.exp/experiment.db" "select count(*) from runs")
traces=$(du -sm "$work/store.exp/runs" | cut -f1)

# first_open LABEL XSG: three first opens, each of a fresh copy of the unanalysed store
first_open() {
	local label=$1 xsg=$2 k
	: >"$work/first-$label"
	for k in 1 2 3; do
		rm -rf "$work/copy.exp" && cp -r "$work/store.exp" "$work/copy.exp"
		/usr/bin/time -f "rss %M" "$xsg" --timing --poll 0 --action "expect:runs=$runs,120000;quit" \
			"$work/copy.exp" >>"$work/first-$label" 2>&1
	done
	# the main window drawn ("window:"; the before tree drew it only with the experiment)
	window=$(sed -n 's/^window: \([0-9.]*\) ms.*/\1/p' "$work/first-$label" | median)
	[ "$window" = nan ] && window=$(sed -n 's/^first-draw: \([0-9.]*\) ms.*/\1/p' "$work/first-$label" | median)
	# the load that has every run (the after tree's comes after the first analysis)
	done_ms=$(grep "^load: .* $runs runs)" "$work/first-$label" |
		sed -n 's/.*done \([0-9.]*\) ms after start.*/\1/p' | median)
	# the before tree prints no time for its load: it drew only once everything was loaded
	[ -z "$done_ms" ] || [ "$done_ms" = nan ] && done_ms=$window
	rss=$(sed -n 's/^rss \([0-9]*\)/\1/p' "$work/first-$label" | median)
	echo "gui-live first open of an unanalysed store ($runs runs, $traces MB of traces), $label: window $window ms, all figures $done_ms ms, peak RSS $((rss / 1024)) MB"
}

# idle_cpu LABEL XSG: CPU time of an open GUI over 10 s of an idle (analysed) store
idle_cpu() {
	local label=$1 xsg=$2 a b
	"$xsg" --timing --action "expect:runs=$runs,120000;touch:$work/ready;wait:600000;quit" \
		"$work/idle.exp" >"$work/idle-$label" 2>&1 &
	GPID=$!
	for i in $(seq 600); do [ -e "$work/ready" ] && break; sleep 0.1; done
	sleep 2
	a=$(awk '{ print $14 + $15 }' "/proc/$GPID/stat")
	sleep 10
	b=$(awk '{ print $14 + $15 }' "/proc/$GPID/stat")
	kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
	rm -f "$work/ready"
	reloads=$(grep -c -E '^(re)?load: ' "$work/idle-$label")
	echo "gui-live idle CPU of an open GUI over 10 s, $label: $(( (b - a) * 1000 / $(getconf CLK_TCK) )) ms ($((reloads - 1)) reloads; target ~0)"
}

# first_draw LABEL XSG: first complete draw of the analysed store, median of 3 starts
first_draw() {
	local label=$1 xsg=$2 k
	: >"$work/draw-$label"
	for k in 1 2 3; do
		"$xsg" --timing --poll 0 --action "quit" "$work/idle.exp" >>"$work/draw-$label" 2>&1
	done
	echo "gui-live first full draw of the analysed store, $label: $(sed -n 's/^first-draw: \([0-9.]*\) ms.*/\1/p' "$work/draw-$label" | median) ms (target <= 300 ms)"
}

first_open before "$OLD/bin/xscalegraph"
first_open after "$XSG"
rm -rf "$work/idle.exp" && cp -r "$work/store.exp" "$work/idle.exp"
"$OLD/bin/scalegraph" report "$work/idle.exp" >/dev/null 2>&1   # analysed: both read the cache
first_draw before "$OLD/bin/xscalegraph"
first_draw after "$XSG"
idle_cpu before "$OLD/bin/xscalegraph"
idle_cpu after "$XSG"
