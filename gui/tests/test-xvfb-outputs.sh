#!/bin/sh
# test-xvfb-outputs.sh — issue 20 item 9: no file xscalegraph writes can be redirected by a link
# planted where it goes. `--export DIR` (no display) with links at every final name and at every
# temporary name (the old DIR/<window>.svg.tmp and today's DIR/.<window>.svg.tmp) pointing at a
# file outside DIR; DIR itself a link; then under Xvfb every other writer of the GUI (export:DIR,
# export-window, export-csv, sites-export, matrix-readout, shot, the recent-experiments list
# under XDG_CONFIG_HOME) with links planted the same way. After each: the outside file is
# unchanged, the outputs are real files, and the command succeeded or said why not.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
TOP=$B/test-out/gui-outputs
XSG=$B/bin/xscalegraph
FIX=gui/tests/fixture
WINDOWS="browser profile patterns time latency sources parallelism matrix timeline teach"

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

if [ ! -x "$XSG" ]; then fail xscalegraph "$XSG not built"; exit 0; fi
rm -rf "$TOP" && mkdir -p "$TOP/outside"
VICTIM=$TOP/outside/victim
printf 'precious, outside every output directory\n' >"$VICTIM"
cp "$VICTIM" "$TOP/victim.orig"
VICTIM_ABS=$(cd "$TOP/outside" && pwd)/victim

# plant NAME...: in each named file's place a link to the victim, and at its temporary names
plant() {
	for f in "$@"; do
		d=$(dirname "$f") b=$(basename "$f")
		ln -sf "$VICTIM_ABS" "$f"
		ln -sf "$VICTIM_ABS" "$f.tmp"
		ln -sf "$VICTIM_ABS" "$d/.$b.tmp"
	done
}
# real FILE...: every one a regular file, not a link, not empty; prints the first that is not
real() {
	for f in "$@"; do
		if [ -L "$f" ] || [ ! -f "$f" ] || [ ! -s "$f" ]; then echo "$f"; return 1; fi
	done
	return 0
}
victim_ok() { cmp -s "$VICTIM" "$TOP/victim.orig"; }

# --- defect20-export-links: xscalegraph --export DIR with links planted in DIR ----------------
DIR=$TOP/export
mkdir -p "$DIR"
for w in $WINDOWS; do plant "$DIR/$w.png" "$DIR/$w.svg" "$DIR/$w.pdf"; done
"$XSG" --export "$DIR" --pdf "$FIX" >"$TOP/export.out" 2>"$TOP/export.err"
rc=$?
files=
for w in $WINDOWS; do files="$files $DIR/$w.png $DIR/$w.svg $DIR/$w.pdf"; done
bad=$(real $files)
if [ $rc -eq 0 ] && victim_ok && [ -z "$bad" ] && grep -q '<desc>' "$DIR/time.svg" &&
   [ "$(head -c 4 "$DIR/time.png" | tail -c 3)" = PNG ] && [ "$(head -c 5 "$DIR/time.pdf")" = %PDF- ]; then
	pass "defect20-export-links: 30 files written as real files over 90 planted links, the outside file unchanged"
else
	fail "defect20-export-links" "exit $rc, outside file $(victim_ok && echo unchanged || echo OVERWRITTEN: $(head -c 60 "$VICTIM" | tr -d '\0' | tr '\n' ' ')), first not a real file: ${bad:-none}; $(tail -2 "$TOP/export.err")"
fi
cp "$TOP/victim.orig" "$VICTIM"

# --- defect20-export-dir-link: DIR itself a link to a directory elsewhere: refused, said why ---
mkdir -p "$TOP/elsewhere"
ln -s "$(cd "$TOP/elsewhere" && pwd)" "$TOP/dirlink"
"$XSG" --export "$TOP/dirlink" "$FIX" >"$TOP/dirlink.out" 2>"$TOP/dirlink.err"
rc=$?
if [ $rc -ne 0 ] && [ -z "$(ls -A "$TOP/elsewhere")" ] &&
   grep -q "dirlink: error: a symbolic link, not a directory" "$TOP/dirlink.err"; then
	pass "defect20-export-dir-link: refused ($(head -1 "$TOP/dirlink.err" | cut -c1-120)), nothing written through it"
else
	fail "defect20-export-dir-link" "exit $rc, in the link's target: $(ls -A "$TOP/elsewhere" | head -3 | tr '\n' ' '), stderr: $(head -2 "$TOP/dirlink.err")"
fi

# --- the GUI's own writers under Xvfb ---------------------------------------------------------
OUT=$TOP/x
XVFB_SCREEN=1366x768x24
. gui/tests/xvfb-lib.sh
xvfb_start
W=$TOP/gui-writes
CFG=$TOP/config
mkdir -p "$W" "$W/all" "$CFG/scalegraph"
for w in $WINDOWS; do plant "$W/all/$w.png" "$W/all/$w.svg" "$W/all/$w.pdf"; done
plant "$W/time.svg" "$W/data.csv" "$W/sites.txt" "$W/readout.txt" "$W/shot.png" \
	"$CFG/scalegraph/recent"
ln -s "$VICTIM_ABS" "$W/dangling-kept.png"   # the non-replacing form must refuse it
XDG_CONFIG_HOME=$(cd "$CFG" && pwd) SG_GUI_ECHO_STATUS=1 timeout 120 "$XSG" --poll 0 --action \
"open-experiment:$FIX;export-window:$W/dangling-kept.png;open:time;export-window!:$W/time.svg;export-csv!:$W/data.csv;export!:$W/all;open:matrix;matrix-select:1,2;matrix-readout:$W/readout.txt;open:sites;sites-export:$W/sites.txt;shot:main=$W/shot.png;quit" \
	>"$OUT/writes.out" 2>"$OUT/writes.err"
rc=$?
files="$W/time.svg $W/data.csv $W/sites.txt $W/readout.txt $W/shot.png $CFG/scalegraph/recent"
for w in $WINDOWS; do files="$files $W/all/$w.png $W/all/$w.svg $W/all/$w.pdf"; done
bad=$(real $files)
# the refused export makes the exit status 3 (the other commands still run)
if [ $rc -eq 3 ] && victim_ok && [ -z "$bad" ] && [ -L "$W/dangling-kept.png" ] &&
   grep -q "dangling-kept.png: error: a link exists, not replaced" "$OUT/writes.out" &&
   grep -q "^$(cd "$FIX" && pwd)\$" "$CFG/scalegraph/recent" &&
   [ "$(stat -c %a "$CFG/scalegraph/recent")" = 600 ]; then
	pass "defect20-gui-writes-links: export, export-window, export-csv, matrix-readout, sites-export, shot and the recent list written as real files over planted links; a link at a non-replacing export refused; the outside file unchanged"
else
	fail "defect20-gui-writes-links" "exit $rc, outside file $(victim_ok && echo unchanged || echo OVERWRITTEN), first not a real file: ${bad:-none}, refused: $(grep -c 'dangling-kept.png: error' "$OUT/writes.out"), recent: $(head -1 "$CFG/scalegraph/recent" 2>/dev/null) mode $(stat -c %a "$CFG/scalegraph/recent" 2>/dev/null); $(grep -m2 'error' "$OUT/writes.err")"
fi
