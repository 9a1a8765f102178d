# xvfb-lib.sh — sourced by the Xvfb tests (gui/tests/test-xvfb*.sh): an Xvfb server on a free
# display (-displayfd, killed by PID at exit) and the helpers that play xscalegraph's named
# commands and check screenshots. Set B, OUT (created empty) and optionally XVFB_SCREEN
# (default 1600x1200x24) before sourcing; prints PASS/FAIL/SKIP lines (tests/run-tests.sh).
XSG=$B/bin/xscalegraph
FIX=gui/tests/fixture

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
skip() { echo "SKIP: $1: $2"; }

if [ ! -x "$XSG" ]; then fail xscalegraph "$XSG not built"; exit 0; fi
if ! command -v Xvfb >/dev/null; then skip xvfb "Xvfb not installed (package xvfb)"; exit 0; fi
if ! command -v identify >/dev/null; then skip xvfb "identify not installed (imagemagick)"; exit 0; fi
rm -rf "$OUT" && mkdir -p "$OUT"

# xvfb_start: starts the server and exports DISPLAY (exits the test with a FAIL if it cannot)
xvfb_start() {
	Xvfb -displayfd 3 -screen 0 "${XVFB_SCREEN:-1600x1200x24}" -nolisten tcp \
		3>"$OUT/display" 2>"$OUT/xvfb.log" &
	XPID=$!
	trap xvfb_cleanup EXIT INT TERM
	i=0
	while [ ! -s "$OUT/display" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ ! -s "$OUT/display" ]; then fail xvfb "Xvfb did not start: $(cat "$OUT/xvfb.log")"; exit 0; fi
	DISPLAY=:$(cat "$OUT/display")
	export DISPLAY
}
xvfb_cleanup() {
	kill "$XPID" 2>/dev/null; wait "$XPID" 2>/dev/null
	[ -n "$GPID" ] && kill "$GPID" 2>/dev/null
}

# gui_run NAME DIR ACTIONS: plays the command list on experiment DIR, status lines echoed to
# $OUT/NAME.out; passes when every command ran and no X error was reported
gui_run() {
	SG_GUI_ECHO_STATUS=1 timeout 120 "$XSG" --poll 0 --action "$3" "$2" >"$OUT/$1.out" 2>"$OUT/$1.err"
	rc=$?
	if [ $rc -eq 0 ] && ! grep -q "X error" "$OUT/$1.err"; then pass "$1: every command ran, no X error, exit 0"
	else fail "$1" "exit status $rc: $(grep -m1 'X error' "$OUT/$1.err" || tail -3 "$OUT/$1.err")"; fi
}
# gui_bg NAME POLL DIR ACTIONS: starts the GUI in the background on DIR (status lines echoed to
# $OUT/NAME.out, pid in GPID) and returns once ACTIONS reached their touch:$OUT/ready
gui_bg() {
	rm -f "$OUT/ready"
	SG_GUI_ECHO_STATUS=1 "$XSG" --poll "$2" --action "$4" "$3" >"$OUT/$1.out" 2>"$OUT/$1.err" &
	GPID=$!
	i=0
	while [ ! -e "$OUT/ready" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}

# shot_ok NAME MINW MINH: exists, at least MINW x MINH, not blank (>= 12 colours, the
# drawing's white plus the palette)
shot_ok() {
	f=$OUT/$1.png
	if [ ! -s "$f" ]; then fail "shot $1" "no screenshot"; return; fi
	set -- "$1" "$2" "$3" $(identify -format '%w %h %k' "$f")
	if [ "$4" -lt "$2" ] || [ "$5" -lt "$3" ]; then fail "shot $1" "size $4x$5 < $2x$3"
	elif [ "$6" -lt 12 ]; then fail "shot $1" "only $6 colours: blank"
	else pass "shot $1 (${4}x$5, $6 colours)"; fi
}
# differs A B NAME: screenshots that must differ (a toggle or a selection changed the picture)
differs() {
	if cmp -s "$OUT/$1.png" "$OUT/$2.png"; then fail "$3" "$1 and $2 identical"
	else pass "$3"; fi
}
