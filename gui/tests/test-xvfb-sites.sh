#!/bin/sh
# test-xvfb-sites.sh — the call sites window (gui/win_sites.c, gui/sites.c) under Xvfb on a
# synthetic store whose waits are known per site (analyzer/tests/an_mksites.c: the N=2 point's
# median repetition is run 3; IT_lock 3 ms, C = solve.c:77 2 ms (67 %, thread 2), B = lu.c:500
# in update 1 ms (33 %, thread 1); IT_barrier 3 ms at A = lu.c:412 in daxpy_sweep (thread 1);
# PT_lock 20 ns: C 10, B 5, unknown 5). Driven by named commands: the list exported as text and
# the status lines are checked against those figures; the links from the matrix cell and the
# timeline's interval; a store without sites; screenshots at 800x600, 1366x768, 1920x1080.
B=${B:-build}
OUT=$B/test-out/gui-xvfb-sites
XVFB_SCREEN=2000x1200x24   # room for the 1920x1080 screenshot
. gui/tests/xvfb-lib.sh
MK=$B/tests/analyzer/an_mksites
if [ ! -x "$MK" ]; then fail sites "$MK not built"; exit 0; fi
"$MK" "$OUT/exp" || { fail sites "an_mksites failed"; exit 0; }
"$MK" "$OUT/old" --no-sites || { fail sites "an_mksites --no-sites failed"; exit 0; }

# has FILE TEXT: FILE has the line TEXT (runs of spaces squeezed to one)
has() { tr -s ' ' < "$1" | grep -Fxq -- "$2"; }
# expect NAME FILE TEXT...: every TEXT is a line of FILE
expect() {
	n=$1 f=$2
	shift 2
	for l in "$@"; do
		if ! has "$f" "$l"; then fail "$n" "no line '$l' in $(basename "$f"): $(tr '\n' '|' < "$f" | head -c 600)"; return; fi
	done
	pass "$n"
}

xvfb_start

A="open:sites;shot:$OUT/sites-empty.png"
A="$A;sites-source:IT_lock;sites-point:fixed,2;sites-export:$OUT/point.txt;shot:$OUT/sites-point.png"
A="$A;sites-point:fixed;sites-export:$OUT/largest.txt"
A="$A;sites-source:PT_lock;sites-export:$OUT/ptlock.txt"
A="$A;sites-source:IT_barrier;matrix-select:1,2;sites-export:$OUT/cell.txt"
A="$A;open:matrix;matrix-select:1,2;sites-export:$OUT/cell.txt"
A="$A;timeline-run:3;sites-run;sites-export:$OUT/run.txt"
A="$A;timeline-select:0,0.0055;sites-export:$OUT/interval.txt"
A="$A;sites-source:IT_lock;sites-export:$OUT/interval-lock.txt"
A="$A;sites-source:PT_barrier;timeline-select:1,0.004;sites-export:$OUT/interval-auto.txt"
A="$A;sites-point:fixed,2;sites-resize:800x600;shot:$OUT/sites-800x600.png"
A="$A;sites-resize:1366x768;shot:$OUT/sites-1366x768.png"
A="$A;sites-resize:1920x1080;shot:$OUT/sites-1920x1080.png"
A="$A;quit"
gui_run sites "$OUT/exp" "$A"

# the point: IT_lock at fixed N=2, by hand
expect sites_point "$OUT/point.txt" \
	"IT_lock (lock waiting) at fixed N=2" \
	"fixed N=2: IT_lock 3 ms, run 3 (the median repetition)" \
	" 66.7 % 2 ms solve.c:77" \
	" 2 ms thread 2 (100 % of the site)" \
	" 33.3 % 1 ms lu.c:500 in update" \
	" 1 ms thread 1 (100 % of the site)"
if grep -q "status: sites: IT_lock at fixed N=2: top solve.c:77 (66.7 %)" "$OUT/sites.out"; then
	pass "sites_status"
else fail sites_status "no status line naming the top site: $(grep 'sites:' "$OUT/sites.out" | head -3)"; fi
# the order: C before B (most time first)
if [ "$(grep -n 'solve.c:77' "$OUT/point.txt" | cut -d: -f1)" -lt "$(grep -n 'lu.c:500' "$OUT/point.txt" | cut -d: -f1)" ]; then
	pass sites_sorted
else fail sites_sorted "C (2 ms) not above B (1 ms)"; fi
# the method alone: its largest N (2)
expect sites_largest_n "$OUT/largest.txt" "fixed N=2: IT_lock 3 ms, run 3 (the median repetition)"
# PT_lock: the release part by the site of each hold's acquire
expect sites_pt_lock "$OUT/ptlock.txt" \
	" 50.0 % 10 ns solve.c:77" " 25.0 % 5 ns lu.c:500 in update" " 25.0 % 5 ns (unknown site)"
# the matrix cell 1 -> 2: the time-bound points at N=1 (no synchronization) and N=2
expect sites_matrix_cell "$OUT/cell.txt" \
	"IT_barrier (barrier waiting) at matrix cell 1 -> 2" \
	"time-bound N=1: IT_barrier 0 s, run 1 (the median repetition)" \
	" no time at this source" \
	"time-bound N=2: IT_barrier 3 ms, run 3 (the median repetition)" \
	" 100.0 % 3 ms lu.c:412 in daxpy_sweep"
# the timeline's run 3, whole, then the interval selected on thread 1 at 5.5 ms (its barrier
# wait 5..8 ms): every processor's time inside it
expect sites_timeline_run "$OUT/run.txt" \
	"IT_barrier (barrier waiting) in run 3" "run 3: IT_barrier 3 ms" \
	" 100.0 % 3 ms lu.c:412 in daxpy_sweep"
expect sites_timeline_interval "$OUT/interval.txt" \
	"run 3 5 ms..8 ms: IT_barrier 3 ms in the selected interval" \
	" 100.0 % 3 ms lu.c:412 in daxpy_sweep"
# IT_lock in 5..8 ms: none (thread 2's wait ended at 5 ms)
expect sites_interval_lock "$OUT/interval-lock.txt" \
	"run 3 5 ms..8 ms: IT_lock 0 s in the selected interval" " no time at this source"
# selecting thread 2's lock wait (3..5 ms) shows that wait's source, IT_lock, in its interval
expect sites_interval_follows_state "$OUT/interval-auto.txt" \
	"IT_lock (lock waiting) in run 3" \
	"run 3 3 ms..5 ms: IT_lock 2 ms in the selected interval" " 100.0 % 2 ms solve.c:77"
# a source not made at a call site is refused (the command fails), the pane keeps its own
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "open:sites;sites-source:U;quit" "$OUT/exp" \
	>"$OUT/refuse.out" 2>"$OUT/refuse.err"
if grep -q 'sites-source: "U" is not a synchronization source' "$OUT/refuse.out"; then pass sites_not_a_sync_source
else fail sites_not_a_sync_source "no status line refusing U: $(tail -2 "$OUT/refuse.out")"; fi

# a click on a point of the latency sources window (the real pointer, xdotool): the call sites
# of that source at that point. Point 2 of the drawing is PT_barrier at N=2 (hover:2 says where
# it is on the screen); the sites window was showing IT_barrier at the largest N.
if command -v xdotool >/dev/null; then
	gui_bg click 0 "$OUT/exp" "open:sites;open:sources;hover:2;touch:$OUT/ready;wait:3000;sites-export:$OUT/click.txt;quit"
	xy=$(grep -m1 '^status: hover: point 2 at ' "$OUT/click.out" | sed 's/.*(screen \([0-9]*,[0-9]*\))/\1/')
	[ -n "$xy" ] && xdotool mousemove "${xy%,*}" "${xy#*,}" sleep 0.2 click 1 >/dev/null 2>&1
	wait "$GPID" 2>/dev/null; GPID=
	expect sites_sources_click "$OUT/click.txt" \
		"PT_barrier (barrier overhead) at fixed N=2" \
		"fixed N=2: PT_barrier 1 ms, run 3 (the median repetition)" \
		" 100.0 % 1 ms lu.c:412 in daxpy_sweep"
else skip sites_sources_click "xdotool not installed"; fi

# defect20-sites-point-chooser: the Point chooser shows what the list shows after a matrix cell
# or a timeline interval moved the focus (it kept the point chosen before: "fixed N=2")
A="open:sites;sites-point:fixed,2;sites-chooser;open:matrix;matrix-select:1,2;sites-chooser"
A="$A;timeline-run:3;sites-run;sites-chooser;timeline-select:0,0.0055;sites-chooser"
A="$A;sites-point:fixed,1;sites-chooser;quit"
gui_run sites_chooser "$OUT/exp" "$A"
grep '^status: sites: the Point chooser shows' "$OUT/sites_chooser.out" >"$OUT/chooser.txt"
if [ "$(cut -d'"' -f2 "$OUT/chooser.txt" | tr '\n' '|')" = "fixed N=2|matrix cell 1 -> 2|run 3 (timeline)|run 3, selected interval|fixed N=1|" ] &&
   grep -q '"matrix cell 1 -> 2"; the list: IT_barrier (barrier waiting) at matrix cell 1 -> 2$' "$OUT/chooser.txt" &&
   grep -q '"run 3, selected interval"; the list: IT_barrier (barrier waiting) in run 3' "$OUT/chooser.txt"; then
	pass "defect20-sites-point-chooser: the chooser follows the list: $(cut -d'"' -f2 "$OUT/chooser.txt" | tr '\n' '|')"
else
	fail "defect20-sites-point-chooser" "the chooser showed: $(cut -c9-200 "$OUT/chooser.txt" | tr '\n' '|')"
fi

# a store without sites: said once, no table
gui_run sites_old "$OUT/old" "open:sites;sites-point:fixed,2;sites-export:$OUT/old.txt;quit"
expect sites_not_recorded "$OUT/old.txt" \
	"fixed N=2: IT_barrier 3 ms, run 3 (the median repetition)" \
	" call sites: not recorded (program built before format 1.4)"
if ! grep -q "unknown site" "$OUT/old.txt"; then pass sites_not_recorded_no_table
else fail sites_not_recorded_no_table "a table on a store without sites"; fi

# compare: the second experiment's method (NAME:fixed) is looked up in its own store
gui_run sites_compare "$OUT/exp" "compare-add:$OUT/old;open:sites;sites-point:old:fixed,2;sites-export:$OUT/cmp.txt;quit"
expect sites_compare_second "$OUT/cmp.txt" \
	"IT_barrier (barrier waiting) at old:fixed N=2" \
	"old:fixed N=2: IT_barrier 3 ms, run 3 (the median repetition)" \
	" call sites: not recorded (program built before format 1.4)"

# a CSV experiment (the fixture): no store behind it, said so
gui_run sites_csv "$FIX" "open:sites;sites-point:fixed,4;sites-export:$OUT/csv.txt;quit"
if grep -q "call sites need an experiment store" "$OUT/csv.txt"; then pass sites_csv_said
else fail sites_csv_said "$(cat "$OUT/csv.txt")"; fi

shot_ok sites-empty 600 300
shot_ok sites-point 600 300
shot_ok sites-800x600 800 600
shot_ok sites-1366x768 1366 768
shot_ok sites-1920x1080 1920 1080
