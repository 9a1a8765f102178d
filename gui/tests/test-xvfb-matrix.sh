#!/bin/sh
# test-xvfb-matrix.sh — window 8, the scalability matrix, under Xvfb (issue 15):
#  - defect15-matrix-cell-from-readout: on a real series (scalegraph run on the bundled billiards
#    example), every value of every cell is recomputed from the operands its readout shows
#    (L(W,N) / L(W',N')) and equals the cell (the status line's value), the readout's result and
#    `scalegraph report --matrix --csv`; the runs the readout names exist in the store;
#  - matrix-run:K opens the K-th run of the readout's list in the timeline;
#  - defect15-matrix-colours: on a synthetic store whose cells are computed by hand
#    (gui/tests/mx_mkstore.c: E <= 0.011 at N >= 2, as the billiards demo of the issue), no value
#    the analyzer flags is painted in a clean value's colour, the time-bound values with E and E'
#    both below 0.2 are flagged (the caveat's rule missed them), 1.08 is painted apart from 1;
#  - the value under the pointer (matrix-hover), compare mode (both matrices, each with its p_x),
#    and the window at 800x600, 1366x768 and 1920x1080 (fits the screen, cells grow with it).
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb-matrix
XVFB_SCREEN=1366x768x24
. gui/tests/xvfb-lib.sh

MK=$B/tests/gui/mx_mkstore
if [ ! -x "$MK" ]; then fail mx_mkstore "$MK not built (make $MK)"; exit 0; fi
SYN=$OUT/syn.exp
if ! "$MK" "$SYN" 2>"$OUT/mkstore.err"; then fail mx_mkstore "$(cat "$OUT/mkstore.err")"; exit 0; fi
xvfb_start

# --- defect15-matrix-colours: the synthetic store ----------------------------------------
# By hand (mx_mkstore.c): time-bound 1->2 0.859 (E 0.15 and 0.011), 1->4 0.857, 2->4 0.997, all
# starred by the caveat (E and E' both below 0.2: the value cannot fall below 1 - E whatever the
# latency does); e-conserved 0.20, 0.05, 0.25 all off target (~); memory-bound 0.16, 0.15, 0.92
# clean; 4->8: memory-bound 1.08 (the latency fell), the other two n/a.
ACT="open:matrix;resize:1000x520"
for c in 1,2 1,4 2,4 4,8; do ACT="$ACT;matrix-select:$c"; done
ACT="$ACT;matrix-where:2,4,0;matrix-where:2,4,1;shot:matrix=$OUT/colours.png;quit"
gui_run colours "$SYN" "$ACT"
st() { grep "^status: cell $1 -> $2:" "$OUT/colours.out" | tail -1; }
name=defect15-matrix-colours
bad=
for want in \
	"1 2 time-bound: 0.86\* .*\[hatched, muted: suspect (\* the paper's caveat)\]" \
	"1 4 time-bound: 0.86\* .*\[hatched, muted: suspect (\* the paper's caveat)\]" \
	"2 4 time-bound: 1.00\* .*\[hatched, muted: suspect (\* the paper's caveat)\]" \
	"1 2 E-conserved: 0.20~ .*\[hatched, muted: suspect (~ off target)\]" \
	"2 4 E-conserved: 0.25~ .*\[hatched, muted: suspect (~ off target)\]" \
	"1 2 memory-bound: 0.16 .*\[orange: latency grows much\]" \
	"2 4 memory-bound: 0.92 .*\[purple: latency grows little\]" \
	"4 8 memory-bound: 1.08 .*\[green: above 1, the latency fell from N to N'\]" \
	"4 8 time-bound: n/a \[grey: n/a\]"; do
	set -- $want
	n=$1 n2=$2
	shift 2
	if ! st "$n" "$n2" | grep -q "$*"; then bad="$bad; $n -> $n2: no \"$*\" in: $(st "$n" "$n2")"; fi
done
# nothing flagged in a clean value's colour, anywhere
if grep "^status: cell " "$OUT/colours.out" | tr ';' '\n' | grep -E '[0-9][*~]+ ' |
	grep -vq "hatched, muted"; then
	bad="$bad; a flagged value not hatched: $(grep '^status: cell ' "$OUT/colours.out" |
		tr ';' '\n' | grep -E '[0-9][*~]+ ' | grep -v 'hatched, muted' | head -1)"
fi
# the report stars the same values (it did not star 1 -> 2 and 1 -> 4 before)
"$B/bin/scalegraph" report --matrix --no-store-write "$SYN" >"$OUT/syn-report.txt" 2>&1
grep -q "0.86\*/0.20~/0.16 " "$OUT/syn-report.txt" || bad="$bad; report: no 0.86*/0.20~/0.16"
grep -q "1.00\*/0.25~/0.92 " "$OUT/syn-report.txt" || bad="$bad; report: no 1.00*/0.25~/0.92"
if [ -z "$bad" ]; then pass "$name: flagged values hatched and muted, 1.08 green, clean values by their value"
else fail $name "${bad#; }"; fi
shot_ok colours 600 400

# the value under the pointer: a tip in the drawing and the status line
xy=$(sed -n 's/^status: matrix-where: 2 -> 4 value 0 at \([0-9]*,[0-9]*\)$/\1/p' "$OUT/colours.out")
if [ -z "$xy" ]; then fail matrix-hover "matrix-where found no value 0 of 2 -> 4"
else
	gui_run hover "$SYN" "open:matrix;resize:1000x520;shot:matrix=$OUT/hover-before.png;matrix-hover:$xy;shot:matrix=$OUT/hover.png;matrix-hover:3,3;quit"
	if grep -q "^status: hover 2 -> 4 time-bound 0.997\*, drawn hatched, muted: suspect (\* the paper's caveat): time-bound  L(W,N) / L(W',N') = 0.000989 s / 0.000992 s = 0.996976" "$OUT/hover.out" &&
	   grep -q "^status: matrix: no value at 3,3" "$OUT/hover.out"; then
		pass "matrix-hover: the value at $xy, its operands and how it is drawn"
	else fail matrix-hover "$(grep '^status: .*\(hover\|no value\)' "$OUT/hover.out" | head -2)"; fi
	differs hover-before hover "hover draws a tip"
fi

# the mouse, through the X server: the pointer over 2 -> 4's E-conserved value, then a click there
xy1=$(sed -n 's/^status: matrix-where: 2 -> 4 value 1 at \([0-9]*,[0-9]*\)$/\1/p' "$OUT/colours.out")
if ! command -v xdotool >/dev/null; then skip "matrix mouse" "xdotool not installed"
elif [ -z "$xy1" ]; then fail "matrix mouse" "matrix-where found no value 1 of 2 -> 4"
else
	gui_bg mouse 0 "$SYN" "open:matrix;resize:1000x520;touch:$OUT/ready;wait:2500;matrix-readout:$OUT/mouse-readout.txt;quit"
	# no window manager: the shell is at the screen's origin and its drawing at the shell's
	xdotool mousemove "${xy1%,*}" "${xy1#*,}" && sleep 0.4 && xdotool click 1
	wait "$GPID"; rc=$?; GPID=
	if [ $rc -eq 0 ] && grep -q "^status: hover 2 -> 4 E-conserved 0.2481~, drawn hatched" "$OUT/mouse.out" &&
	   grep -q "^status: cell 2 -> 4: time-bound: 1.00\*" "$OUT/mouse.out" &&
	   grep -q "^Cell N = 2 -> N' = 4" "$OUT/mouse-readout.txt"; then
		pass "matrix mouse: the pointer shows the value under it, a click selects its cell"
	else fail "matrix mouse" "exit $rc: $(grep '^status: \(hover\|cell\)' "$OUT/mouse.out" | head -2)"; fi
fi

# --- a real series: scalegraph run on the bundled example --------------------------------
SPEC=examples/billiards/billiards-small.sgx
if [ ! -x "$B/bin/scalegraph" ] || [ ! -x "$B/bin/billiards-traced" ]; then
	skip defect15-matrix-cell-from-readout "scalegraph or billiards-traced not built"
	exit 0
fi
EXP=$OUT/real.exp
PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run "$SPEC" -o "$EXP" --threads 1,2,4 --repeat 1 \
	>"$OUT/run.log" 2>&1
"$B/bin/scalegraph" report --matrix --csv --no-store-write "$EXP" >"$OUT/matrix.csv" 2>"$OUT/matrix.err"
"$B/bin/scalegraph" report --matrix --no-store-write "$EXP" >"$OUT/report.txt" 2>>"$OUT/matrix.err"
cells=$(tail -n +2 "$OUT/matrix.csv" | cut -d, -f1,2)
name=defect15-matrix-cell-from-readout
if [ -z "$cells" ]; then fail $name "no matrix cells: $(tail -2 "$OUT/run.log") $(cat "$OUT/matrix.err")"; exit 0; fi
ACT="open:matrix"
for c in $cells; do ACT="$ACT;matrix-select:$c;matrix-readout:$OUT/readout-${c%,*}-${c#*,}.txt"; done
ACT="$ACT;matrix-select:${c};reload;matrix-readout:$OUT/reloaded.txt;matrix-run:1;quit"
gui_run readout "$EXP" "$ACT"
bad= checked=0
for c in $cells; do
	n=${c%,*} n2=${c#*,}
	f=$OUT/readout-$n-$n2.txt
	csv=$(grep "^$n,$n2," "$OUT/matrix.csv")
	status=$(grep "^status: cell $n -> $n2:" "$OUT/readout.out" | head -1)
	k=0
	for model in time-bound e-conserved memory-bound; do
		k=$((k + 1))
		want=$(echo "$csv" | cut -d, -f$((k + 2)))
		line=$(grep "^$model  " "$f" 2>/dev/null | head -1)
		label=$model
		[ $model = e-conserved ] && label=E-conserved
		shown=$(echo "$status" | tr ';' '\n' | sed -n "s#.*$label: >*\([-0-9.n/a]*\).*#\1#p")
		if [ -z "$line" ]; then bad="$bad; $n -> $n2 $model: no readout line"; continue; fi
		if [ -z "$want" ]; then
			echo "$line" | grep -q "n/a: " && [ "$shown" = n/a ] ||
				bad="$bad; $n -> $n2 $model: n/a in the report, readout \"$line\", cell \"$shown\""
			continue
		fi
		# "MODEL  L(W,N) / L(W',N') = A s / B s = V ...": A / B = V = report = cell. A, B
		# and V carry 6 significant digits: each is within 5e-6 of its value relatively, so
		# A / B is within 1e-5 of V (and of the report's 9 digits), plus 1e-6 of slack
		r=$(echo "$line" | awk -v want="$want" -v shown="$shown" '{
			s = $0; sub(/^[^=]*= /, "", s); split(s, a, " ")
			A = a[1]; B = a[4]; V = a[7]; tol = 1.6e-5
			if (a[2] != "s" || a[5] != "s" || a[6] != "=" || B == 0) { print "unparsed"; exit }
			q = A / B
			if (q - V > tol * (V < 0 ? -V : V) || V - q > tol * (V < 0 ? -V : V)) { printf "A/B %.7g != %s", q, V; exit }
			if (q - want > tol * (want < 0 ? -want : want) || want - q > tol * (want < 0 ? -want : want)) { printf "A/B %.7g != report %s", q, want; exit }
			if (sprintf("%.2f", q) != sprintf("%.2f", shown) && (q - shown > 0.0051 || shown - q > 0.0051)) { printf "A/B %.7g != cell %s", q, shown; exit }
			print "ok" }')
		if [ "$r" != ok ]; then bad="$bad; $n -> $n2 $model: $r (readout: $line)"; continue; fi
		checked=$((checked + 1))
	done
	# the runs behind each operand exist in the store
	for id in $(sed -n 's/^run-list [0-9]*: run \([0-9]*\):.*/\1/p' "$f"); do
		[ -d "$EXP/runs/$id" ] || bad="$bad; $n -> $n2: run $id of the readout is not in the store"
	done
	grep -q "^run-list 1: run " "$f" || bad="$bad; $n -> $n2: the readout lists no run"
	grep -q "^  N=$n: W .*; runs* [0-9]" "$f" || bad="$bad; $n -> $n2: no side N=$n with its runs"
done
# the report's text matrix shows the same values as the cells (2 decimals)
for c in $cells; do
	n=${c%,*} n2=${c#*,}
	status=$(grep "^status: cell $n -> $n2:" "$OUT/readout.out" | head -1)
	vals=$(echo "$status" | tr ';' '\n' | sed -n 's#^.*\(time-bound\|E-conserved\|memory-bound\): \(n/a\|>*[-0-9.]*[*~]*\).*#\2#p' |
		sed 's#^n/a$#-#' | tr '\n' '/' | sed 's#/$##')
	grep -qF " $vals" "$OUT/report.txt" || bad="$bad; $n -> $n2: cell $vals not in the report's matrix"
done
if [ -z "$bad" ] && [ $checked -gt 0 ]; then
	pass "$name: $checked values of $(echo $cells | wc -w) cells recomputed from their readouts = cell = report"
else fail $name "${bad#; }"; fi

# a reload keeps the selected cell and its readout (the live monitor reloads on a new run)
if cmp -s "$OUT/reloaded.txt" "$OUT/readout-${c%,*}-${c#*,}.txt" && grep -q "^Cell N = ${c%,*} -> " "$OUT/reloaded.txt"; then
	pass "a reload keeps the selected cell ${c%,*} -> ${c#*,} and its readout"
else fail "matrix reload" "readout after reload: $(head -1 "$OUT/reloaded.txt" 2>/dev/null)"; fi

# matrix-run:1 opens the first run of the readout's list in the timeline
last=$OUT/readout-${c%,*}-${c#*,}.txt
id=$(sed -n 's/^run-list 1: run \([0-9]*\):.*/\1/p' "$last")
if [ -n "$id" ] && grep -q "^status: timeline: run $id: " "$OUT/readout.out"; then
	pass "matrix-run:1 opens run $id in the timeline"
else fail matrix-run "run ${id:-?}: $(grep '^status: timeline\|matrix-run' "$OUT/readout.out" | head -2)"; fi

# --- compare: both matrices side by side, each with its p_x ------------------------------
gui_run compare "$EXP" "compare-add:$SYN;open:matrix;matrix-select:1,2,1;shot:matrix=$OUT/compare.png;export-window:$OUT/compare.svg;quit"
if grep -q "^status: cell 1 -> 2 of syn.exp: time-bound: 0.86\*" "$OUT/compare.out" &&
   grep -q "syn.exp: p_x = 2 (fixed)" "$OUT/compare.svg" &&
   grep -q "real.exp: p_x = [0-9]* (fixed)" "$OUT/compare.svg"; then
	pass "compare: both experiments' matrices, each with its p_x; the compared one's cell selectable"
else fail compare "$(grep '^status: cell' "$OUT/compare.out" | head -1); p_x: $(grep -o '[a-z.]*: p_x = [^<]*' "$OUT/compare.svg" | head -2)"; fi
shot_ok compare 600 400
# a run of the compared store is not opened in the timeline (run ids are per store): refused
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "compare-add:$SYN;open:matrix;matrix-select:1,2,1;matrix-run:1;quit" "$EXP" >"$OUT/compare-run.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "^status: matrix-run: run [0-9]* is of syn.exp; the timeline shows runs of real.exp" "$OUT/compare-run.out" &&
   ! grep -q "^status: timeline: run" "$OUT/compare-run.out"; then
	pass "matrix-run refuses a compared experiment's run (exit $rc), says why"
else fail "compare matrix-run" "exit $rc: $(grep '^status: \(matrix-run\|timeline\)' "$OUT/compare-run.out" | head -1)"; fi

# --- three screens: the window fits, the cells take the space ----------------------------
for size in 800x600 1366x768 1920x1080; do
	xvfb_cleanup
	rm -f "$OUT/display"   # xvfb_start waits for the new server to write it
	XVFB_SCREEN=${size}x24
	xvfb_start
	gui_run "screen-$size" "$EXP" "compare-clear;open:matrix;matrix-select:2,4;matrix-where:2,4,2;shot:matrix=$OUT/matrix-$size.png;quit"
	set -- $(identify -format '%w %h' "$OUT/matrix-$size.png" 2>/dev/null) 0 0
	if [ "$1" -gt 0 ] && [ "$1" -le "${size%x*}" ] && [ "$2" -le "${size#*x}" ]; then
		pass "matrix window fits $size (${1}x$2)"
	else fail "fits $size" "window ${1}x$2"; fi
	x=$(sed -n 's/^status: matrix-where: 2 -> 4 value 2 at \([0-9]*\),.*/\1/p' "$OUT/screen-$size.out")
	eval "x_$(echo "$size" | tr x _)=${x:-0}"
done
if [ "$x_800_600" -gt 0 ] && [ "$x_1366_768" -gt "$x_800_600" ] && [ "$x_1920_1080" -gt "$x_1366_768" ]; then
	pass "cells grow with the window (the last value's centre at x = $x_800_600, $x_1366_768, $x_1920_1080)"
else fail "cells scale" "x = $x_800_600, $x_1366_768, $x_1920_1080"; fi
