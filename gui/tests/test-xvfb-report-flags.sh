#!/bin/sh
# test-xvfb-report-flags.sh — issue 20, "the GUI says what the report says": on the synthetic
# store of gui/tests/rf_mkstore.c (2 CPUs; method fixed at N = 1, 2, 4, no scaling-model series;
# the N = 2 point's tracing cost 10 % of N·T_para, N = 4 oversubscribed; a failed run and a run in
# progress) every figure is read from `scalegraph report` of the same store and the GUI is held
# to it: the report's `!` and `oversub yes` in the windows' point readouts, the browser and the
# run list's detail pane (defect20-flags-points, defect20-flags-runs); the matrix window's reason
# for having no matrix is the report's (defect20-matrix-no-series); a run in progress is listed
# as such, on a neutral ground, not among the failures (defect20-running-not-failed). The store's
# runner lock is held (flock) throughout, so that the unfinished run is in progress, not
# interrupted. Screenshots at 800x600, 1366x768 and 1920x1080 stay in $OUT/SIZE/ to be looked at.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb-report-flags
TOP=$OUT
. gui/tests/xvfb-lib.sh
MK=$B/tests/gui/rf_mkstore
SG=$B/bin/scalegraph
if [ ! -x "$MK" ] || [ ! -x "$SG" ]; then fail report-flags "$MK or $SG not built"; exit 0; fi
if ! command -v flock >/dev/null; then skip report-flags "flock not installed (util-linux): the store's runner lock cannot be held"; exit 0; fi
EXP=$TOP/rf.exp
"$MK" "$EXP" || { fail report-flags "rf_mkstore failed"; exit 0; }

# the runner's lock, held as a runner holds it, until $TOP/release exists
flock -x "$EXP/lock" sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done' sh "$TOP/release" &
LPID=$!
release() { touch "$TOP/release"; wait "$LPID" 2>/dev/null; xvfb_cleanup; }
trap release EXIT INT TERM
i=0
while flock -n -s "$EXP/lock" true 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done

# --- what the report says --------------------------------------------------------------------
"$SG" report --no-store-write "$EXP" >"$TOP/report.txt" 2>&1
"$SG" report --matrix --no-store-write "$EXP" >"$TOP/report-matrix.txt" 2>&1
# the points' rows: N of those with a "!" and of those with oversub yes
awk '/^Points/ { p = 1; next } p && /^method / { if (index($0, "!")) printf "%s ", $3 } p && /^$/ { p = 0 }' \
	"$TOP/report.txt" >"$TOP/r-mark"
awk '/^Points/ { p = 1; next } p && /^method / { if ($NF == "yes") printf "%s ", $3 } p && /^$/ { p = 0 }' \
	"$TOP/report.txt" >"$TOP/r-over"
R_MARK=$(cat "$TOP/r-mark") R_OVER=$(cat "$TOP/r-over")
if [ "$R_MARK" != "2 " ] || [ "$R_OVER" != "4 " ]; then
	fail report-flags "the store is not what rf_mkstore.c says: report marks '!' at N = '$R_MARK', oversub at N = '$R_OVER' (want 2 and 4): $(head -8 "$TOP/report.txt" | tr '\n' '|')"
	exit 0
fi
share() { sed -n "s|^  method/fixed/N=$1: tracing cost: \([0-9.]*\) % of N·T_para.*|\1|p" "$TOP/report.txt"; }

# --- the GUI, at three screen sizes, and its export ----------------------------------------------
"$XSG" --export "$TOP/export" "$EXP" >"$TOP/export.out" 2>&1
for SIZE in 800x600 1366x768 1920x1080; do
	mkdir -p "$OUT/$SIZE"
	XVFB_SCREEN=${SIZE}x24
	rm -f "$OUT/display"   # xvfb_start waits for the new server's number in it
	xvfb_start
	A="run-select:2;run-select:3;run-select:4;run-select:6;shot:main=$OUT/$SIZE/main.png"
	A="$A;open:latency;hover:0;hover:1;shot:latency=$OUT/$SIZE/latency.png"
	A="$A;open:time;hover:0;hover:1;hover:2;shot:time=$OUT/$SIZE/time.png"
	A="$A;open:sources;shot:sources=$OUT/$SIZE/sources.png"
	A="$A;open:parallelism;shot:parallelism=$OUT/$SIZE/parallelism.png"
	A="$A;open:matrix;shot:matrix=$OUT/$SIZE/matrix.png;quit"
	gui_run "gui-$SIZE" "$EXP" "$A"
	xvfb_cleanup
	trap release EXIT INT TERM
done
G=$OUT/gui-1366x768.out
desc() { python3 -c 'import html, re, sys; s = open(sys.argv[1]).read(); m = re.search(r"<desc>(.*?)</desc>", s, re.S); print(" ".join(html.unescape(m.group(1) if m else "").split()))' "$1"; }
desc "$TOP/export/latency.svg" >"$TOP/latency-desc.txt"
desc "$TOP/export/browser.svg" >"$TOP/browser-desc.txt"
desc "$TOP/export/matrix.svg" >"$TOP/matrix-desc.txt"

# --- defect20-flags-points: each point's readout carries the report's flags, and only those ----
why=
for n in 1 2 4; do
	for win in latency time; do
		line=$(grep "^status: $win: fixed: threads N = $n," "$G" | head -1)
		[ -z "$line" ] && continue
		case " $R_MARK" in
		*" $n "*) echo "$line" | grep -q "! tracing cost $(share $n) % of N·T_para, above 5 %" ||
				why="$why; $win N=$n: no '! tracing cost $(share $n) %' in '$line'" ;;
		*) echo "$line" | grep -q "tracing cost" && why="$why; $win N=$n: a mark the report has not: '$line'" ;;
		esac
		case " $R_OVER" in
		*" $n "*) echo "$line" | grep -q "oversubscribed: N = $n > 2 CPUs" ||
				why="$why; $win N=$n: no 'oversubscribed' in '$line'" ;;
		*) echo "$line" | grep -q "oversubscribed" && why="$why; $win N=$n: oversubscribed where the report says no" ;;
		esac
	done
done
[ "$(grep -c '^status: latency: fixed: threads N = ' "$G")" -ge 2 ] || why="$why; no readout of the latency window's points"
grep -q "! N=2; oversub N=4" "$TOP/browser-desc.txt" || why="$why; the browser's methods table has no '! N=2; oversub N=4'"
grep -q "oversubscribed: N > 2 CPUs" "$TOP/latency-desc.txt" || why="$why; the latency chart has no oversubscribed band"
grep -q "! tracing cost above 5 % of N·T_para at fixed N=2 ($(share 2) %)" "$TOP/latency-desc.txt" ||
	why="$why; the latency chart's note does not name the marked point"
if [ -z "$why" ]; then pass "defect20-flags-points: the report's ! (N = $R_MARK) and oversub yes (N = $R_OVER) in the readouts of the latency and time windows, the latency chart and the browser"
else fail "defect20-flags-points" "${why#; }"; fi

# --- defect20-flags-runs: the run detail pane says the run report's tracing cost and oversub -----
why=
for id in 2 3 4; do
	"$SG" report --no-store-write "$EXP/runs/$id" >"$TOP/run$id.txt" 2>&1
	want=$(sed -n 's|^  tracing cost: \([0-9.]* % of N·T_para\).*|\1|p' "$TOP/run$id.txt")
	above=$(grep -c '^  tracing cost: .*: above 5 %' "$TOP/run$id.txt")
	over=$(awk '$1 == "oversubscribed" { print $2 }' "$TOP/run$id.txt")
	det=$(awk -v id="$id" '/^details: run / { p = ($3 == id ":") } /^(status|action): / { p = 0 } p' "$G")
	[ -n "$want" ] || why="$why; run $id: the run report has no tracing cost line"
	echo "$det" | grep -q "^tracing cost: $want" || why="$why; run $id: no 'tracing cost: $want' in the detail pane: $(echo "$det" | tr '\n' '|')"
	[ "$(echo "$det" | grep -c '^tracing cost: .*: above 5 %')" = "$above" ] || why="$why; run $id: 'above 5 %' $above times in the report, not in the pane"
	if [ "$over" = 1 ]; then echo "$det" | grep -q "^oversubscribed: N = 4 threads on 2 CPUs" || why="$why; run $id: oversubscribed in its report, not in the pane"
	else echo "$det" | grep -q "^oversubscribed" && why="$why; run $id: oversubscribed in the pane, not in its report"; fi
done
if [ -z "$why" ]; then pass "defect20-flags-runs: runs 2, 3, 4: the detail pane's tracing cost (run 3 above 5 %) and oversubscription (run 4) are their run reports'"
else fail "defect20-flags-runs" "${why#; }"; fi

# --- defect20-matrix-no-series: the matrix window says why there is none, as the report does ----
rwhy=$(sed -n 's/^  no matrix: //p' "$TOP/report-matrix.txt")
if [ -n "$rwhy" ] && grep -qF "$rwhy" "$TOP/matrix-desc.txt" && ! grep -q "two N or more" "$TOP/matrix-desc.txt" &&
   echo "$rwhy" | grep -q "fixed-size runs of fixed at N = 1, 2, 4"; then
	pass "defect20-matrix-no-series: window 8 and report --matrix: '$rwhy'"
else
	fail "defect20-matrix-no-series" "report --matrix: '$(grep -A1 '^Scalability' "$TOP/report-matrix.txt" | tail -1)'; window 8: '$(cut -c1-300 "$TOP/matrix-desc.txt")'"
fi

# --- defect20-running-not-failed: a run in progress, neither ok nor failed -----------------------
# the runs table's grounds in the browser's picture: the failed run on the warning colour
# (255,230,204), the running one on the neutral blue-grey (220,232,248); counted in pixels
hist=$(convert "$TOP/export/browser.png" -format %c histogram:info:- 2>/dev/null)
warn=$(echo "$hist" | awk '/\(255,230,204\)/ { sub(":", "", $1); print $1 }')
neutral=$(echo "$hist" | awk '/\((219|220),(231|232|233),(247|248)\)/ { sub(":", "", $1); s += $1 } END { print s + 0 }')
if [ "${neutral:-0}" -gt 2000 ] && [ "${warn:-0}" -gt 2000 ] && [ "$warn" -lt $((neutral * 3 / 2)) ] &&
   grep -q "Runs not ok, and runs in progress" "$TOP/browser-desc.txt" &&
   grep -q "^status: .*: 1 methods, 6 runs (1 running, 1 failed, 0 interrupted)" "$G" &&
   awk '/^details: run 6:/' "$G" | grep -q ": running"; then
	pass "defect20-running-not-failed: the running run on a neutral ground ($neutral px), the failed one on the warning colour ($warn px), the table 'Runs not ok, and runs in progress'"
else
	fail "defect20-running-not-failed" "warning-colour px $warn, neutral px $neutral, browser text: $(grep -o 'Runs [a-z ,]*' "$TOP/browser-desc.txt" | head -2 | tr '\n' '|'), $(grep -m1 '^status: .* runs (' "$G")"
fi

# --- the screenshots: each window fits its screen and is not blank -----------------------------
for SIZE in 800x600 1366x768 1920x1080; do
	for w in main latency time sources parallelism matrix; do
		f=$OUT/$SIZE/$w.png
		if [ ! -s "$f" ]; then fail "report-flags shot $SIZE $w" "no screenshot"; continue; fi
		set -- $(identify -format '%w %h %k' "$f")
		if [ "$1" -gt "${SIZE%x*}" ] || [ "$2" -gt "${SIZE#*x}" ] || [ "$3" -lt 12 ]; then
			fail "report-flags shot $SIZE $w" "${1}x$2 with $3 colours on a $SIZE screen"
		else pass "report-flags shot $SIZE $w: ${1}x$2, $3 colours"; fi
	done
done
