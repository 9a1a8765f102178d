#!/bin/sh
# test-xvfb-chrome.sh — issue 15's Help, export, teaching and timeline behaviour under Xvfb:
# Help closed by its button, Escape and Ctrl+W (real key presses, xdotool) and searched
# (help-find); exports that refuse to replace a file unless forced or confirmed; the teaching
# window inside a 1366x768 screen with W^beta in its formula; the timeline's deep-zoom range
# and the mouse wheel on a real run. Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb-chrome
XVFB_SCREEN=1366x768x24
. gui/tests/xvfb-lib.sh
xvfb_start

# --- menu paths named in user-visible strings exist in the menus (xsg_app.c) ----------------
if python3 - gui/xsg_app.c gui/*.c <<'EOP' >"$OUT/menu-paths.txt"; then
import re, sys
app = open(sys.argv[1]).read()
menus = {}
for name, body in re.findall(r'static const struct menu_item (\w+)_menu\[\] = \{(.*?)\n\};', app, re.S):
	# "9 Run timeline (selected run)" is referred to as "9 Run timeline", "Export window..."
	# as "Export window"
	menus[name.capitalize()] = [re.sub(r'( \(.*|\.\.\.)$', '', l) for l in re.findall(r'\{ "([^"]+)"', body)]
bad = []
for f in sys.argv[2:]:
	for n, line in enumerate(open(f), 1):
		for menu, ref in re.findall(r'\b(File|View|Run|Help) > ([^"()\\;,]+)', line):
			ref = ref.strip()
			if not any(ref.startswith(l) or l.startswith(ref) for l in menus.get(menu, [])):
				bad.append("%s:%d: %s > %s" % (f, n, menu, ref))
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOP
	pass "defect15-help-menu-paths-exist"
else fail "defect15-help-menu-paths-exist" "$(head -3 "$OUT/menu-paths.txt" | tr '\n' ' ')"; fi

# --- Help: search, then closed by each of its ways -------------------------------------------
gui_run help "$FIX" "open:help;help-find:g(1) = 0;help-find:IT_sched;help-find:it_SCHED;shot:help=$OUT/help-found.png;quit"
if grep -q '^status: help: "g(1) = 0" at line [0-9]*: .*g(N) = 1, log2 N, N - 1' "$OUT/help.out" &&
   [ "$(grep -c '^status: help: "it_\?[Ii][Tt]_\?sched" at line\|^status: help: "IT_sched" at line\|^status: help: "it_SCHED" at line' "$OUT/help.out")" -eq 2 ] &&
   [ "$(grep '^status: help: "I[tT]_sched\|^status: help: "it_SCHED' "$OUT/help.out" | sed 's/.* at line \([0-9]*\):.*/\1/' | sort -u | wc -l)" -eq 2 ]; then
	pass "defect15-help-search: $(grep '^status: help: "g(1)' "$OUT/help.out" | cut -c9-60)..., next match on another line"
else fail "defect15-help-search" "$(grep '^status: help' "$OUT/help.out" | head -3 | tr '\n' ' ')"; fi
shot_ok help-found 600 400
# the teaching window and Help say the same g(N)
if grep -q 'N - 1' gui/win_help.c && grep -q 'g(N) = N \\xe2\\x88\\x92 1' gui/tests/test_teach.c; then
	pass "help and teaching window: g(N) = N - 1 for linear growth"
else fail "help g(N)" "help text or teaching name of linear growth changed"; fi

# find_window NAME: the id of the visible window whose title matches NAME, waiting up to 3 s
# for it to be mapped (a loaded machine may map it after the command list went on)
find_window() {
	i=0
	while [ $i -lt 30 ]; do
		id=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -1)
		if [ -n "$id" ]; then echo "$id"; return; fi
		sleep 0.1; i=$((i + 1))
	done
}

if command -v xdotool >/dev/null; then
	for how in Escape ctrl+w button; do
		gui_bg "help-$how" 0 "$FIX" "open:help;touch:$OUT/ready;wait:20000;quit"
		WID=$(find_window "metrics and formulas")
		if [ -z "$WID" ]; then
			fail "defect15-help-close-$how" "help window not found"
		else
			if [ "$how" = button ]; then
				# the Close button sits at the right end of the search row
				W=$(xwininfo -id "$WID" | awk '/Width:/ {print $2}')
				xdotool mousemove --window "$WID" $((W - 40)) 16 click 1 >/dev/null 2>&1
			else
				xdotool mousemove --window "$WID" 200 200 >/dev/null 2>&1
				xdotool windowfocus --sync "$WID" key --window "$WID" "$how" >/dev/null 2>&1 ||
					xdotool key --window "$WID" "$how" >/dev/null 2>&1
			fi
			i=0
			while xwininfo -id "$WID" 2>/dev/null | grep -q IsViewable && [ $i -lt 50 ]; do
				sleep 0.1; i=$((i + 1))
			done
			if xwininfo -id "$WID" 2>/dev/null | grep -q IsViewable; then
				fail "defect15-help-close-$how" "help still shown after $how"
			else pass "defect15-help-close-$how"; fi
		fi
		kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
	done
else skip "help close keys" "xdotool not installed"; fi

# --- exports never silently replace a file ------------------------------------------------------
EX=$OUT/export
mkdir -p "$EX/cwd"
echo keep >"$EX/matrix.svg"
echo keep >"$EX/data.csv"
echo keep >"$EX/cwd/matrix.png"
mkdir -p "$EX/all" && echo keep >"$EX/all/time.png"
# the command forms: refused, with the path named, and the files kept
(cd "$EX/cwd" && SG_GUI_ECHO_STATUS=1 timeout 60 "$OLDPWD/$XSG" --poll 0 \
	--action "open:matrix;export-window:png;quit" "$OLDPWD/$FIX" >../refuse1.out 2>../refuse1.err)
rc1=$?
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "open:matrix;export-window:$EX/matrix.svg;quit" "$FIX" >"$EX/refuse2.out" 2>&1
rc2=$?
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "export-csv:$EX/data.csv;quit" "$FIX" >"$EX/refuse3.out" 2>&1
rc3=$?
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "export:$EX/all;quit" "$FIX" >"$EX/refuse4.out" 2>&1
rc4=$?
if [ $rc1 -ne 0 ] && [ $rc2 -ne 0 ] && [ $rc3 -ne 0 ] && [ $rc4 -ne 0 ] &&
   [ "$(cat "$EX/cwd/matrix.png")" = keep ] && [ "$(cat "$EX/matrix.svg")" = keep ] &&
   [ "$(cat "$EX/data.csv")" = keep ] && [ "$(cat "$EX/all/time.png")" = keep ] &&
   grep -q "^status: matrix.png: error: the file exists, not replaced (export-window!:matrix.png replaces it; File > Export window... asks)" "$EX/refuse1.out" &&
   grep -q "^status: $EX/matrix.svg: error: the file exists, not replaced" "$EX/refuse2.out" &&
   grep -q "^status: $EX/data.csv: error: the file exists" "$EX/refuse3.out" &&
   grep -q "^status: $EX/all/time.png: error: the file exists" "$EX/refuse4.out"; then
	pass "defect15-export-no-silent-overwrite: 4 command forms refused (exit $rc1), files kept, path named"
else fail "defect15-export-no-silent-overwrite" "exit $rc1 $rc2 $rc3 $rc4: $(grep -h 'status: .*error' "$EX"/refuse*.out | head -2 | tr '\n' ' ')$(head -c 20 "$EX/cwd/matrix.png")"; fi
# forced, and through the dialog's question: no keeps the file, Replace replaces it
echo keep >"$EX/time.pdf"
A="open:matrix;export-window!:$EX/matrix.svg;export-csv!:$EX/data.csv"
A="$A;open:time;export-ask:window:$EX/time.pdf;shot:$OUT/export-question.png;export-replace:no"
A="$A;export-ask:window:$EX/time.pdf;export-replace:yes;export-ask:window:$EX/new.svg"
A="$A;export-dialog;shot:$OUT/export-dialog.png;quit"
gui_run export "$FIX" "$A"
if grep -q "Scalability matrix" "$EX/matrix.svg" && [ "$(head -1 "$EX/data.csv")" = "$(head -1 "$FIX/report.csv")" ] &&
   grep -q "^status: $EX/time.pdf exists: replace it?" "$OUT/export.out" &&
   grep -q "^status: export: nothing written ($EX/time.pdf kept)" "$OUT/export.out" &&
   head -c 5 "$EX/time.pdf" | grep -q '%PDF' && grep -q "Execution time" "$EX/new.svg"; then
	pass "export: ! forms replace; the question keeps the file on Cancel and replaces it on Replace; a new file is written without asking"
else fail "export question" "$(grep '^status: .*\(export\|exists\|wrote\)' "$OUT/export.out" | head -4 | tr '\n' ' ')"; fi
shot_ok export-question 250 100
shot_ok export-dialog 300 300

# --- the teaching window on a 1366x768 screen; W^beta in its formula ---------------------------
gui_run teach "$FIX" "open:teach;shot:teach=$OUT/teach.png;teach-set:beta=0.5;export-window!:$OUT/teach-beta.svg;teach-set:beta=0;export-window!:$OUT/teach-nobeta.svg;quit"
set -- $(identify -format '%w %h' "$OUT/teach.png" 2>/dev/null)
if [ -n "$1" ] && [ "$1" -le 1229 ] && [ "$2" -le 691 ]; then
	pass "defect15-teach-fits-1366: teaching window ${1}x$2 on a 1366x768 screen (<= 90 %)"
else fail "defect15-teach-fits-1366" "teaching window ${1:-?}x${2:-?} on 1366x768"; fi
shot_ok teach 900 600
if grep -q "W^0.5" "$OUT/teach-beta.svg" && ! grep -A3 "T_para(W,N) = t_serial" "$OUT/teach-nobeta.svg" | sed -n 2p | grep -q "W^"; then
	pass "defect15-teach-formula-beta: the formula shows W^0.5 at beta = 0.5, no W^ term at beta = 0"
else fail "defect15-teach-formula-beta" "$(grep -m2 'T_para\|= 0' "$OUT/teach-beta.svg")"; fi

# --- the timeline on a real run: deep zoom range and the wheel ----------------------------------
SPEC=examples/billiards/billiards-small.sgx
if [ ! -x "$B/bin/scalegraph" ] || [ ! -x "$B/bin/billiards" ]; then
	skip timeline "scalegraph or billiards not built"
	exit 0
fi
EXP=$OUT/tl.exp
PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run "$SPEC" -o "$EXP" --threads 2 --repeat 1 >"$OUT/run.log" 2>&1
RID=$(sqlite3 "$EXP/experiment.db" "select id from runs where kind = 'par' and n_threads = 2 and status = 'ok' order by id limit 1" 2>/dev/null)
if [ -z "$RID" ]; then fail timeline "no traced N=2 run: $(tail -2 "$OUT/run.log")"; exit 0; fi
# 100 ns around the middle of the run: the two ends of the range must differ
DUR=$(sqlite3 "$EXP/experiment.db" "select t_para_s from runs where id = $RID")
T0=$(awk -v d="$DUR" 'BEGIN { printf "%.9f", d / 2 }')
T1=$(awk -v d="$DUR" 'BEGIN { printf "%.9f", d / 2 + 1e-7 }')
gui_run tl "$EXP" "run-select:$RID;open:timeline;timeline-zoom:$T0,$T1;export-window!:$OUT/tl-deep.svg;resize:1100x640;shot:timeline=$OUT/tl-tall.png;quit"
range=$(grep -o 'showing [^)]* of' "$OUT/tl-deep.svg" | head -1)
a=$(echo "$range" | sed 's/showing \(.*\) \.\. .*/\1/')
b=$(echo "$range" | sed 's/.* \.\. \(.*\) of/\1/')
if [ -n "$range" ] && [ "$a" != "$b" ]; then pass "defect15-timeline-deep-zoom-labels: $range ..."
else fail "defect15-timeline-deep-zoom-labels" "title range '$range'"; fi
shot_ok tl-tall 1000 640
if command -v xdotool >/dev/null; then
	gui_bg wheel 0 "$EXP" "run-select:$RID;open:timeline;resize:1100x640;touch:$OUT/ready;wait:20000;quit"
	WID=$(find_window "^Run timeline")
	xdotool mousemove --window "$WID" 600 300 click 4 click 4 click 5 >/dev/null 2>&1
	i=0
	while [ "$(grep -c '^status: timeline: showing ' "$OUT/wheel.out")" -lt 3 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill "$GPID" 2>/dev/null; wait "$GPID" 2>/dev/null; GPID=
	if [ "$(grep -c '^status: timeline: showing ' "$OUT/wheel.out")" -eq 3 ]; then
		pass "timeline wheel in a 640 px tall window: $(grep '^status: timeline: showing ' "$OUT/wheel.out" | tail -1 | cut -c19-)"
	else fail "timeline wheel" "$(grep -c '^status: timeline: showing ' "$OUT/wheel.out") range lines after 3 wheel steps"; fi
else skip "timeline wheel" "xdotool not installed"; fi
