#!/bin/sh
# test-xvfb.sh — xscalegraph under Xvfb: opens every window through its named command on the
# fixture experiment, screenshots each as the X server shows it, and checks size and content
# (not blank, several colours), no X error, no crash; resizes, the matrix click, teaching
# sliders and export through commands; and the live monitor: a run appended to a CSV
# experiment, then runs added to a real experiment store by `scalegraph run`, appear in the
# open GUI. Xvfb picks a free display itself (-displayfd) and is killed by PID.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb
. gui/tests/xvfb-lib.sh

# --- --export without a display ----------------------------------------------------------
if env -u DISPLAY "$XSG" --export "$OUT/export" --pdf "$FIX" >"$OUT/export.log" 2>&1 &&
   [ "$(ls "$OUT/export"/*.png "$OUT/export"/*.svg "$OUT/export"/*.pdf 2>/dev/null | wc -l)" -eq 30 ] &&
   grep -q "Execution time vs N" "$OUT/export/time.svg"; then pass "--export: 10 windows x png/svg/pdf, no display"
else fail "--export" "$(tail -2 "$OUT/export.log")"; fi

xvfb_start

# --- every window through its command, screenshotted --------------------------------------
WINDOWS="profile patterns time latency sources parallelism matrix teach help"
ACTIONS="shot:main=$OUT/main.png"
for w in $WINDOWS; do ACTIONS="$ACTIONS;open:$w;shot:$OUT/$w.png"; done
ACTIONS="$ACTIONS;matrix-select:4,32;shot:matrix=$OUT/matrix-selected.png"
ACTIONS="$ACTIONS;open:time;resize:640x420;shot:$OUT/time-small.png;resize:1000x760"
ACTIONS="$ACTIONS;method-only:fixed;shot:$OUT/time-fixed.png;methods-all"
ACTIONS="$ACTIONS;open:sources;source-hide:U;source-hide:PT_lock;shot:$OUT/sources-toggled.png"
ACTIONS="$ACTIONS;open:teach;teach-set:growth=n;teach-set:model=eff;teach-set:e_target=0.5;shot:$OUT/teach-set.png"
ACTIONS="$ACTIONS;open:matrix;export-window:$OUT/matrix-window.svg;export-csv:$OUT/data.csv;quit"
gui_run gui "$FIX" "$ACTIONS"
shot_ok main 1000 650
shot_ok profile 900 520
shot_ok patterns 1000 720
shot_ok time 1000 760
shot_ok latency 900 560
shot_ok sources 1100 620
shot_ok parallelism 900 560
shot_ok matrix 1000 720
shot_ok teach 1200 820
shot_ok help 500 400
shot_ok time-small 640 420
shot_ok sources-toggled 1100 620
shot_ok teach-set 1200 820

# the resize really redrew at the new size: the small shot is smaller than the large one
ws=$(identify -format '%w' "$OUT/time-small.png" 2>/dev/null)
if [ -n "$ws" ] && [ "$ws" -lt 1000 ]; then pass "resize redraws at ${ws} px"
else fail resize "window width ${ws:-?} after resize:640x420"; fi
differs sources sources-toggled "source toggles redraw"
differs teach teach-set "teaching parameters redraw"
differs matrix matrix-selected "matrix cell selection redraws"
if grep -q "status: cell 4 -> 32: time-bound: [0-9.]*.*; E-conserved: .*; memory-bound: " "$OUT/gui.out"; then pass "matrix cell shows its values"
else fail "matrix cell" "no status line with the values of cell 4 -> 32 (test-xvfb-matrix.sh checks operands and runs on a store)"; fi
if grep -q "<desc>.*Scalability matrix" "$OUT/matrix-window.svg" 2>/dev/null ||
   grep -q "Scalability matrix" "$OUT/matrix-window.svg" 2>/dev/null; then pass "export-window svg"
else fail "export-window" "no matrix SVG with its title"; fi
if [ "$(head -1 "$OUT/data.csv" 2>/dev/null)" = "$(head -1 "$FIX/report.csv")" ] &&
   [ "$(wc -l <"$OUT/data.csv")" -eq "$(wc -l <"$FIX/report.csv")" ]; then pass "export-csv"
else fail export-csv "header or row count differs from report.csv"; fi

# --- live monitor on a CSV experiment: a run appended while the GUI is open ----------------
LIVE=$OUT/live-csv
mkdir -p "$LIVE" && cp "$FIX"/* "$LIVE"/
n0=$(($(wc -l <"$LIVE/runs.csv") - 1))
n1=$((n0 + 1))
gui_bg live-csv 100 "$LIVE" "expect:runs=$n0;touch:$OUT/ready;expect:runs=$n1,10000;shot:main=$OUT/live-csv.png;quit"
echo "fixed,64,4000000,3,balls=40000 steps=100,running," >>"$LIVE/runs.csv"
wait "$GPID"; rc=$?; GPID=
if [ $rc -eq 0 ]; then pass "live monitor: CSV run appended while open is shown"
else fail "live csv" "exit $rc: $(tail -2 "$OUT/live-csv.err")"; fi

# --- live monitor on a real store: scalegraph run adds runs while the GUI watches -----------
SPEC=examples/billiards/billiards-small.sgx
if [ ! -x "$B/bin/scalegraph" ] || [ ! -x "$B/bin/billiards" ]; then
	skip "live store" "scalegraph or billiards not built"
	exit 0
fi
EXP=$OUT/live.exp
PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run "$SPEC" -o "$EXP" --threads 1 --repeat 1 >"$OUT/run1.log" 2>&1
r1=$(sqlite3 "$EXP/experiment.db" "select count(*) from runs" 2>/dev/null)
if [ -z "$r1" ] || [ "$r1" -eq 0 ]; then fail "live store" "first scalegraph run made no runs: $(tail -2 "$OUT/run1.log")"; exit 0; fi
gui_bg live-store 200 "$EXP" "expect:runs=$r1;open:time;touch:$OUT/ready;wait:100000;quit"
PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run "$SPEC" -o "$EXP" --threads 1,2 --repeat 1 >"$OUT/run2.log" 2>&1
r2=$(sqlite3 "$EXP/experiment.db" "select count(*) from runs")
# the GUI polls every 200 ms: give it up to 5 s to show the final count
i=0
while ! grep -q "status: .*: .* $r2 runs (0 running" "$OUT/live-store.out" && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
# the GUI's second instance checks the count the first one should have reached
"$XSG" --poll 0 --action "expect:runs=$r2;open:time;shot:$OUT/live-store-time.png;quit" "$EXP" \
	>/dev/null 2>"$OUT/live-store2.err"
if [ "$r2" -gt "$r1" ] && grep -q "status: .*: .* $r2 runs (0 running" "$OUT/live-store.out" 2>/dev/null; then
	pass "live monitor: store grew from $r1 to $r2 runs while open ($(grep -c 'status: .* runs (' "$OUT/live-store.out") reloads)"
elif [ "$r2" -gt "$r1" ]; then
	fail "live store" "store has $r2 runs (was $r1) but the open GUI never showed them"
else
	fail "live store" "second scalegraph run added no runs: $(tail -2 "$OUT/run2.log")"
fi
shot_ok live-store-time 1000 760

# --- the CSV contract: `scalegraph report --csv` of the real store reads back as a CSV experiment
CSVX=$OUT/csv-from-report
mkdir -p "$CSVX"
if "$B/bin/scalegraph" report --csv --no-store-write "$EXP" >"$CSVX/report.csv" 2>"$OUT/report-csv.err" &&
   "$B/bin/scalegraph" report --matrix --csv --no-store-write "$EXP" >"$CSVX/matrix.csv" 2>>"$OUT/report-csv.err" &&
   env -u DISPLAY "$XSG" --export "$OUT/export-csvx" "$CSVX" >"$OUT/export-csvx.log" 2>&1 &&
   head -1 "$CSVX/report.csv" | tr ',' '\n' | grep -qx IT_sched &&
   # drawn with its legend entry, or named as zero at every N (a quiet machine gives no run
   # any CPU contention: then there is nothing to draw, and the window says so)
   python3 - "$OUT/export-csvx/sources.svg" <<'EOP'; then
import re, sys
t = open(sys.argv[1]).read()
zero = re.search(r"zero at every N:\n((?:[^\n]*,\n)*[^\n]*)", t)
ok = "IT_sched runnable (CPU contention)" in t or \
	(zero and "IT_sched" in re.split(r"[,\s]+", zero.group(1)))
sys.exit(0 if ok else 1)
EOP
	pass "report --csv of a real store reads back ($(head -1 "$CSVX/report.csv" | tr ',' '\n' | wc -l) columns)"
else fail "report --csv contract" "$(cat "$OUT/report-csv.err" "$OUT/export-csvx.log" | tail -2)"; fi

# --- window 9 (run timeline) and window 10 (compare experiments) on the real store ----------
RID=$(sqlite3 "$EXP/experiment.db" "select id from runs where kind = 'par' and n_threads = 2 and status = 'ok' order by id limit 1")
if [ -z "$RID" ] || [ ! -d "$EXP/runs/$RID/trace" ]; then
	fail timeline "no traced N=2 run in $EXP"
	exit 0
fi
TL="run-select:$RID;open:timeline;shot:timeline=$OUT/timeline.png"
TL="$TL;timeline-zoom:in;timeline-zoom:in;timeline-pan:0.5;shot:timeline=$OUT/timeline-zoom.png"
TL="$TL;timeline-pan:-0.25;timeline-select:1,0;timeline-click:600,90;timeline-zoom:full"
TL="$TL;export-window:$OUT/timeline-window.svg"
TL="$TL;compare-add:$FIX;open:time;shot:$OUT/compare-time.png;export-window:$OUT/compare-time.svg"
TL="$TL;open:parallelism;export-window:$OUT/compare-par.svg;quit"
gui_run timeline "$EXP" "$TL"
if grep -q "^status: run $RID selected" "$OUT/timeline.out" &&
   grep -q "^status: timeline: run $RID: .* N=2 .*, 3 threads" "$OUT/timeline.out"; then
	pass "window 9 opens the browser's selected run $RID"
else fail "timeline open" "$(grep -m2 'status: .*\(selected\|timeline\)' "$OUT/timeline.out")"; fi
# the readout: thread, state, object, start, duration (by lane and time, and by a click)
RO='^status: timeline: thread [0-9]\+[^:]*: [a-zA-Z/ (),]\+, object: [a-z]\+[ 0-9]*, start [0-9.]\+ [mµn]\?s, duration [0-9.]\+ [mµn]\?s$'
if [ "$(grep -c "$RO" "$OUT/timeline.out")" -ge 2 ] && grep -q '^status: timeline: thread 1: ' "$OUT/timeline.out"; then
	pass "timeline readout: $(grep "$RO" "$OUT/timeline.out" | tail -1 | cut -c19-)"
else fail "timeline readout" "$(grep 'status: timeline' "$OUT/timeline.out" | tail -2)"; fi
shot_ok timeline 1100 440
differs timeline timeline-zoom "timeline zoom and pan redraw"
if grep -q "showing 0 s \.\." "$OUT/timeline-window.svg" && grep -q "thread 2" "$OUT/timeline-window.svg" &&
   grep -q "barrier overhead" "$OUT/timeline-window.svg"; then pass "timeline export: whole run, lanes, legend"
else fail "timeline export" "title, lanes or legend missing from timeline-window.svg"; fi
LIVE_NAME=$(basename "$EXP")
if grep -q "$LIVE_NAME:fixed" "$OUT/compare-time.svg" && grep -q "fixture:fixed" "$OUT/compare-time.svg" &&
   grep -q "vs fixture" "$OUT/compare-time.svg" && grep -q "fixture N = 32" "$OUT/compare-par.svg"; then
	pass "window 10: two experiments overlaid, legend names experiment and method"
else fail compare "legend or title of the compared experiments missing"; fi
shot_ok compare-time 1000 760
# headless: --run picks the timeline's run, several experiments compare in the export too
if env -u DISPLAY "$XSG" --export "$OUT/export-cmp" --run "$RID" "$EXP" "$FIX" >"$OUT/export-cmp.log" 2>&1 &&
   grep -q "run $RID: " "$OUT/export-cmp/timeline.svg" && grep -q "fixture:fixed" "$OUT/export-cmp/latency.svg"; then
	pass "--export --run $RID with two experiments"
else fail "--export --run" "$(tail -2 "$OUT/export-cmp.log")"; fi

# --- window 9 with the real mouse (xdotool): wheel zooms, a drag pans, a click reads out -------
if ! command -v xdotool >/dev/null; then skip "timeline mouse" "xdotool not installed"; exit 0; fi
gui_bg mouse 0 "$EXP" "run-select:$RID;open:timeline;touch:$OUT/ready;wait:30000;quit"
WID=$(xdotool search --name "^Run timeline" 2>/dev/null | head -1)
if [ -z "$WID" ]; then fail "timeline mouse" "no timeline window found"; kill "$GPID"; wait "$GPID"; GPID=; exit 0; fi
xdotool mousemove --window "$WID" 600 150 click 4 click 4 >/dev/null 2>&1      # wheel up: zoom in at x
sleep 0.3
xdotool mousemove --window "$WID" 600 150 mousedown 1 mousemove --window "$WID" 400 150 mouseup 1 >/dev/null 2>&1
sleep 0.3
xdotool mousemove --window "$WID" 500 215 click 1 >/dev/null 2>&1             # thread 1's lane (lanes share the height: 87 px each)
i=0
while ! grep -q '^status: timeline: thread 1: ' "$OUT/mouse.out" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
xwd -silent -id "$WID" 2>/dev/null | convert xwd:- "$OUT/timeline-mouse.png" 2>/dev/null
kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
if grep -q '^status: timeline: thread 1: .*, object: .*, start .*, duration ' "$OUT/mouse.out"; then
	pass "timeline mouse: wheel, drag and click ($(grep '^status: timeline: thread 1' "$OUT/mouse.out" | tail -1 | cut -c19-))"
else fail "timeline mouse" "no readout after a click on thread 1's lane: $(tail -2 "$OUT/mouse.out")"; fi
if grep -q "X error" "$OUT/mouse.err"; then fail "timeline mouse" "$(grep -m1 'X error' "$OUT/mouse.err")"
else pass "timeline mouse: no X error"; fi
# two wheel steps zoom in 1.5x each (the range starts after 0 s), the drag pans to later times
ranges=$(grep -c '^status: timeline: showing ' "$OUT/mouse.out")
first=$(grep -m1 '^status: timeline: showing ' "$OUT/mouse.out" | cut -c27-)
last=$(grep '^status: timeline: showing ' "$OUT/mouse.out" | tail -1 | cut -c27-)
if [ "$ranges" -eq 3 ] && [ "$first" != "$last" ] && ! echo "$last" | grep -q '^0 s '; then
	pass "timeline mouse: wheel zoomed to $first, drag panned to $last"
else fail "timeline mouse" "$ranges range lines, first '$first', last '$last'"; fi
shot_ok timeline-mouse 1100 440
