#!/bin/bash
# test-xvfb-live.sh — xscalegraph's live monitor and main window under Xvfb (issue 15 parts 1
# and 5): no reload while the store is idle, the user's selection and scroll position kept
# across a reload caused by a real `scalegraph run`, one dialog (with SQLite's reason) for a
# damaged store and `scalegraph report`'s reason for the same store, runs of a killed runner
# shown "interrupted", the empty window without an argument, File > Open / Open Recent, the run
# list's sort, wheel and detail pane (a failed run's stderr), Run > New series' failure kept.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
OUT=$B/test-out/gui-xvfb-live
. gui/tests/xvfb-lib.sh
SG=$B/bin/scalegraph
SPEC=examples/billiards/billiards-small.sgx
case $B in /*) export PATH=$B/bin:$PATH ;; *) export PATH=$PWD/$B/bin:$PATH ;; esac
case $OUT in /*) AOUT=$OUT ;; *) AOUT=$PWD/$OUT ;; esac
export XDG_CONFIG_HOME=$AOUT/config   # File > Open Recent of this test only

check() { # NAME DETAIL TEST...
	local name=$1 detail=$2
	shift 2
	if "$@"; then pass "$name"; else fail "$name" "$detail"; fi
}
q() { sqlite3 "$1/experiment.db" "$2" 2>/dev/null; }

if [ ! -x "$SG" ] || [ ! -x "$B/bin/billiards" ]; then skip live "scalegraph or billiards not built"; exit 0; fi
xvfb_start

EXP=$AOUT/live.exp
"$SG" run "$SPEC" -o "$EXP" --threads 1,2 --repeat 1 >"$OUT/run1.log" 2>&1
r1=$(q "$EXP" "select count(*) from runs")
if [ -z "$r1" ] || [ "$r1" -lt 10 ]; then fail live "first scalegraph run made ${r1:-no} runs: $(tail -2 "$OUT/run1.log")"; exit 0; fi

# --- defect15-no-reload-when-idle: 5 s open on an idle store, polled every 200 ms ------------
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --timing --poll 200 --action "wait:5000;quit" "$EXP" \
	>"$OUT/idle.out" 2>"$OUT/idle.err"
loads=$(grep -c -E '^(re)?load: ' "$OUT/idle.out")
check defect15-no-reload-when-idle "$loads loads in 5 s idle (1 wanted: the first): $(grep -E '^(re)?load: ' "$OUT/idle.out" | head -3 | tr '\n' '|')" \
	test "$loads" -eq 1

# --- defect15-selection-kept-across-reload -------------------------------------------------
# select a run, scroll the list, then a real `scalegraph run` adds runs: after the reloads the
# same run (by id) is selected and the same run is at the top of the list
sel=$(q "$EXP" "select id from runs order by id limit 1 offset 14")
tl=$(q "$EXP" "select id from runs where kind = 'par' and n_threads = 2 and status = 'ok' order by id limit 1")
rm -f "$OUT/done"
gui_bg keep 200 "$EXP" "open:matrix;matrix-select:1,2;run-select:$tl;open:timeline;timeline-zoom:in;timeline-zoom:in;shot:timeline=$OUT/keep-tl-before.png;run-select:$sel;runs-scroll:12;runs-scroll:0;touch:$OUT/ready;wait-file:$OUT/done,120000;wait:1500;expect-reloads:1;runs-scroll:0;shot:main=$OUT/keep.png;shot:matrix=$OUT/keep-matrix.png;shot:timeline=$OUT/keep-tl-after.png;quit"
"$SG" run "$SPEC" -o "$EXP" --threads 1,2 --repeat 2 >"$OUT/run2.log" 2>&1
touch "$OUT/done"
wait "$GPID"; rc=$?; GPID=
r2=$(q "$EXP" "select count(*) from runs")
before=$(grep '^status: run list: ' "$OUT/keep.out" | sed -n 2p)
after=$(grep '^status: run list: ' "$OUT/keep.out" | tail -1)
top=$(sed -n 's/.*top run \([0-9]*\),.*/\1/p' <<<"$before")
reloads=$(grep -c '^reload: ' "$OUT/keep.out")
check defect15-selection-kept-across-reload "rc=$rc runs $r1 -> $r2; before: '$before'; after: '$after'" \
	test $rc -eq 0 -a "$r2" -gt "$r1" -a -n "$before" -a "${before#*top run }" = "${after#*top run }" \
	-a "${after#*selected run $sel}" != "$after" -a "${top:-1}" -gt 1
# the matrix cell selected before is selected again after each reload (its readout redone)
cells=$(awk '/^action: touch:/{r=1} r && /^status: cell 1 -> 2:/{n++} END{print n+0}' "$OUT/keep.out")
check defect15-matrix-cell-kept-across-reload "$cells readouts of cell 1 -> 2 while the runs arrived" \
	test "$cells" -ge 1
# the timeline shows the same run at the same zoom as before the runs arrived
check defect15-timeline-kept-across-reload "timeline screenshots before and after the reloads $(cmp -s "$OUT/keep-tl-before.png" "$OUT/keep-tl-after.png" && echo equal || echo differ)" \
	cmp -s "$OUT/keep-tl-before.png" "$OUT/keep-tl-after.png"
# the user's status message was not replaced by the reloads' summaries: the status line before
# the final scroll is the one shown before the runs arrived
st_before=$(awk '/^action: touch:/{exit} /^status: /{l=$0} END{print l}' "$OUT/keep.out")
st_after=$(awk '/^action: expect-reloads/{exit} /^status: /{l=$0} END{print l}' "$OUT/keep.out")
check defect15-status-kept-across-reload "before the runs: '$st_before'; after them: '$st_after'" \
	test -n "$st_before" -a "$st_before" = "$st_after"

# --- defect15-damaged-store-one-dialog -----------------------------------------------------
# a page of the runs table overwritten: SQLite reports "database disk image is malformed"
damage() { # TABLE DIR: a copy of EXP with the first page of TABLE overwritten
	rm -rf "$2" && cp -r "$EXP" "$2"
	q "$2" "pragma wal_checkpoint(truncate)" >/dev/null
	local pg=$(q "$2" "select min(pageno) from dbstat where name = '$1'")
	rm -f "$2"/experiment.db-*
	python3 -c "
import sys
f = open(sys.argv[1] + '/experiment.db', 'r+b'); f.seek((int(sys.argv[2]) - 1) * 4096)
f.write(b'\x5a' * 4096); f.close()" "$2" "$pg"
}
DMG=$AOUT/damaged.exp
damage runs "$DMG"
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 200 --action "wait:5000;shot:main=$OUT/damaged.png;quit" "$DMG" \
	>"$OUT/damaged.out" 2>"$OUT/damaged.err"
dialogs=$(grep -c 'experiment.db' "$OUT/damaged.err")
reason=$(grep -m1 'experiment.db' "$OUT/damaged.err")
check defect15-damaged-store-one-dialog "$dialogs dialogs in 5 s (first: '$reason')" \
	test "$dialogs" -eq 1 -a "${reason#*$DMG/experiment.db: }" != "$reason" \
	-a "${reason#*malformed}" != "$reason"
# ... retried quietly until it opens: the store repaired while the GUI is open is shown
damage runs "$AOUT/repaired.exp"
gui_bg repaired 200 "$AOUT/repaired.exp" "touch:$OUT/ready;wait-file:$OUT/repaired,30000;expect:runs=$r2,20000;quit"
sleep 1.5
q "$EXP" "pragma wal_checkpoint(truncate)" >/dev/null
rm -f "$AOUT/repaired.exp"/experiment.db-*
cp "$EXP/experiment.db" "$AOUT/repaired.exp/experiment.db.new" &&
	mv "$AOUT/repaired.exp/experiment.db.new" "$AOUT/repaired.exp/experiment.db"
touch "$OUT/repaired"
wait "$GPID"; rc=$?; GPID=
check defect15-damaged-store-retried "rc=$rc, $(grep -c 'experiment.db' "$OUT/repaired.err") dialogs; last status: $(grep '^status: ' "$OUT/repaired.out" | tail -1)" \
	test $rc -eq 0 -a "$(grep -c 'experiment.db' "$OUT/repaired.err")" -eq 1 -a \
	"$(grep -c "^status: .*repaired.exp: 7 methods, $r2 runs" "$OUT/repaired.out")" -ge 1
# `scalegraph report` names the same reason (it printed the report of an empty experiment); a
# damaged metrics page is refused as a damaged store (issue 20, item 13), no longer read around
msg=$("$SG" report "$DMG" 2>&1 >/dev/null)
rc=$?
damage metrics "$OUT/damaged-metrics.exp"
msg2=$("$SG" report "$OUT/damaged-metrics.exp" 2>&1 | grep 'experiment.db')
check defect15-report-damaged-store-reason "rc=$rc: '$msg'; metrics page: '$msg2'" \
	test $rc -ne 0 -a "${msg#*$DMG/experiment.db: database disk image is malformed}" != "$msg" \
	-a "${msg2#*damaged-metrics.exp/experiment.db: database disk image is malformed}" != "$msg2"

# --- defect15-interrupted-runs: kill -9 of the runner mid-series ---------------------------
INT=$AOUT/interrupted.exp
# Kill it while a run is in progress, after a few runs finished. A run of this spec can take
# well under a millisecond, so the run seen "running" may end before the kill lands (the
# sanitizer stage met that): then the series is resumed and killed again, up to 5 times.
stale= attempt=0
while [ -z "$stale" ] && [ $attempt -lt 5 ]; do
	attempt=$((attempt + 1))
	"$SG" run "$SPEC" -o "$INT" --threads 1,2 --repeat 3 >>"$OUT/run-int.log" 2>&1 &
	runner=$!
	i=0
	while [ "$(q "$INT" "select count(*) >= 3 from runs where status = 'ok'")" != 1 ] && [ $i -lt 2400 ]; do
		sleep 0.05; i=$((i + 1))
	done
	i=0
	while [ "$(q "$INT" "select count(*) from runs where status = 'running'")" != 1 ] && [ $i -lt 6000 ]; do
		sleep 0.005; i=$((i + 1))
	done
	{ kill -9 $runner; wait $runner; } 2>/dev/null
	sleep 0.3
	stale=$(q "$INT" "select group_concat(id) from runs where status = 'running'")
done
"$SG" report "$INT" >"$OUT/int-report.txt" 2>&1
st=$(q "$INT" "select group_concat(id) from runs where status = 'interrupted'")
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "run-select:${stale:-1};shot:main=$OUT/interrupted.png;quit" "$INT" \
	>"$OUT/int-gui.out" 2>"$OUT/int-gui.err"
check defect15-interrupted-runs "running before: '$stale', interrupted after report: '$st'; report: $(grep -m1 'interrupted' "$OUT/int-report.txt"); gui: $(grep -m1 '^details: ' "$OUT/int-gui.out")" \
	test -n "$stale" -a "$st" = "$stale" \
	-a "$(grep -c "run ${stale%%,*} .*: interrupted: the runner (pid $runner" "$OUT/int-report.txt")" -ge 1 \
	-a "$(grep -c "^status: .* 1 interrupted" "$OUT/int-gui.out")" -ge 1 \
	-a "$(grep -c "^details: run ${stale%%,*}: .*: interrupted" "$OUT/int-gui.out")" -ge 1
# a resumed series makes them again
ident=$(q "$INT" "select kind || ' ' || n_threads || ' ' || sizes || ' ' || rep from runs where id = ${stale%%,*}")
"$SG" run "$SPEC" -o "$INT" --threads 1,2 --repeat 3 >"$OUT/run-int2.log" 2>&1
left=$(q "$INT" "select count(*) from runs where status in ('running', 'interrupted')")
redone=$(q "$INT" "select count(*) from runs where status = 'ok' and kind || ' ' || n_threads || ' ' || sizes || ' ' || rep = '$ident'")
check defect15-interrupted-runs-resumed "left: $left, the interrupted run's identity made again: $redone" \
	test "$left" -eq 0 -a "$redone" -eq 1

# --- defect15-no-fixture-without-argument: an empty window, File > Open, Open Recent --------
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "shot:main=$OUT/empty.png;open-experiment:$EXP;open-experiment:$OUT/nonexistent.exp;open-recent:1;shot:main=$OUT/opened.png;quit" \
	>"$OUT/empty.out" 2>"$OUT/empty.err"
rc=$?
n_empty=$(grep -m1 '^status: No experiment open' "$OUT/empty.out")
opened=$(grep -c "^status: $EXP: 7 methods" "$OUT/empty.out")
missing=$(grep -m1 "nonexistent.exp" "$OUT/empty.err")
check defect15-no-fixture-without-argument "rc=$rc '$n_empty', opened $opened times, missing: '$missing', recent: $(head -1 "$OUT/config/scalegraph/recent" 2>/dev/null)" \
	test -n "$n_empty" -a "$opened" -eq 2 -a "${missing#*$OUT/nonexistent.exp: }" != "$missing" \
	-a "$(head -1 "$OUT/config/scalegraph/recent" 2>/dev/null)" = "$EXP"
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "shot:main=$OUT/demo.png;quit" --demo >"$OUT/demo.out" 2>&1
check defect15-demo-flag "$(grep -m1 status "$OUT/demo.out")" grep -q "^status: .*fixture: .* methods" "$OUT/demo.out"
shot_ok empty 600 400
shot_ok opened 600 400
shot_ok demo 600 400

# --- defect15-first-open-progress: an unanalysed store opens with the window first ---------
# (made with --no-analyze): the window is drawn before the analysis, which counts the runs in
# the status line, and the figures are those of a full analysis
FIRST=$AOUT/first.exp
"$SG" run "$SPEC" -o "$FIRST" --threads 1,2 --repeat 1 --no-analyze >"$OUT/run-first.log" 2>&1
cp -r "$FIRST" "$AOUT/first-ref.exp"
rf=$(q "$FIRST" "select count(*) from runs")
SG_GUI_ECHO_STATUS=1 timeout 120 "$XSG" --timing --poll 0 --action "expect:runs=$rf,120000;quit" "$FIRST" \
	>"$OUT/first.out" 2>"$OUT/first.err"
rc=$?
drawn=$(grep -n -m1 '^window: ' "$OUT/first.out" | cut -d: -f1)
analysed=$(grep -n -m1 '^analysis: .* runs analysed' "$OUT/first.out" | cut -d: -f1)
steps=$(grep -c '^status: .*: first analysis of this store: [0-9]* of [0-9]* runs' "$OUT/first.out")
"$SG" report --csv --no-store-write "$AOUT/first-ref.exp" >"$OUT/first-ref.csv" 2>/dev/null
"$SG" report --csv --no-store-write "$FIRST" >"$OUT/first-after.csv" 2>/dev/null
check defect15-first-open-progress "rc=$rc, first draw at line ${drawn:-none}, analysis done at line ${analysed:-none}, $steps progress lines, report of the analysed store $(cmp -s "$OUT/first-ref.csv" "$OUT/first-after.csv" && echo equals || echo differs from) a full analysis" \
	test $rc -eq 0 -a -n "$drawn" -a -n "$analysed" -a "${drawn:-0}" -lt "${analysed:-0}" -a "$steps" -ge 2 \
	-a -s "$OUT/first-ref.csv"
cmp -s "$OUT/first-ref.csv" "$OUT/first-after.csv" && pass "first open: figures equal a full analysis's" ||
	fail "first open figures" "$(diff "$OUT/first-ref.csv" "$OUT/first-after.csv" | head -3)"

# --- the run list: sort, wheel, detail pane of a failed run --------------------------------
FAILX=$AOUT/failed.exp
printf 'program sh -c "echo line one >&2; echo the reason it failed >&2; exit 3" {N}\nthreads 1 2\n' >"$OUT/failing.sgx"
"$SG" run "$OUT/failing.sgx" -o "$FAILX" --no-analyze >"$OUT/run-fail.log" 2>&1
fid=$(q "$FAILX" "select max(id) from runs")
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "run-select:$fid;shot:main=$OUT/failed.png;quit" "$FAILX" \
	>"$OUT/failed.out" 2>"$OUT/failed.err"
check defect15-failed-run-stderr "$(grep -m1 '^details: ' "$OUT/failed.out"); $(grep -m1 '^status: .*runs (' "$OUT/failed.out")" \
	test "$(grep -c 'the reason it failed' "$OUT/failed.out")" -ge 1 -a \
	"$(grep -c '^status: .*no run gave a measurement' "$OUT/failed.out")" -ge 1
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 0 --action "runs-sort:n-;runs-scroll:0;runs-sort:id;runs-scroll:5;runs-scroll:-2;runs-sort:bogus;quit" "$EXP" \
	>"$OUT/sort.out" 2>"$OUT/sort.err"
maxn_id=$(q "$EXP" "select id from runs order by n_threads desc, id limit 1")
check defect15-run-list-sort-scroll "$(grep '^status: run list' "$OUT/sort.out" | tr '\n' '|')" \
	test "$(grep -c "^status: run list: rows 1-.*top run $maxn_id," "$OUT/sort.out")" -ge 1 -a \
	"$(grep -c '^status: run list: rows 6-' "$OUT/sort.out")" -ge 1 -a \
	"$(grep -c '^status: run list: rows 4-' "$OUT/sort.out")" -ge 1 -a \
	"$(grep -c '^status: runs-sort: no key "bogus"' "$OUT/sort.out")" -eq 1

# the real mouse wheel over the run list (xdotool): two notches down scroll six rows
if command -v xdotool >/dev/null; then
	rm -f "$OUT/wheeled"
	gui_bg wheel 0 "$EXP" "touch:$OUT/ready;wait-file:$OUT/wheeled,30000;runs-scroll:0;quit"
	WID=$(xdotool search --name "live.exp\$" 2>/dev/null | head -1)
	if [ -n "$WID" ]; then
		eval "$(xdotool getwindowgeometry --shell "$WID")"
		xdotool mousemove --window "$WID" 300 $((HEIGHT - 170)) click 5 click 5 >/dev/null 2>&1
		sleep 0.3
	fi
	touch "$OUT/wheeled"
	wait "$GPID"; GPID=
	check defect15-run-list-wheel "window '${WID:-none}': $(grep '^status: run list' "$OUT/wheel.out" | tail -1)" \
		grep -q '^status: run list: rows 7-' "$OUT/wheel.out"
else
	skip defect15-run-list-wheel "xdotool not installed"
fi

# --- Run > New series: the runner's failure stays in the detail pane -----------------------
printf 'program\nthreads x\n' >"$OUT/bad.sgx"
SG_GUI_ECHO_STATUS=1 timeout 60 "$XSG" --poll 200 --action "run:$OUT/bad.sgx -o $OUT/bad.exp;wait:3000;shot:main=$OUT/runfail.png;quit" "$EXP" \
	>"$OUT/runfail.out" 2>"$OUT/runfail.err"
spec_err=$("$SG" run "$OUT/bad.sgx" -o "$OUT/bad2.exp" 2>&1 | head -1)
check defect15-runner-failure-kept "runner says '$spec_err'; gui: $(grep -m1 '^details: ' "$OUT/runfail.out")" \
	test -n "$spec_err" -a "$(grep -cF "$spec_err" "$OUT/runfail.out")" -ge 1 -a \
	"$(grep -c '^details: scalegraph run failed with exit status' "$OUT/runfail.out")" -eq 1
shot_ok keep 600 400
shot_ok failed 600 400
