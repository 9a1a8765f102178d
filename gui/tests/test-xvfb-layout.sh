#!/bin/sh
# test-xvfb-layout.sh — every window at three screen sizes (issue 15 part 6): on Xvfb screens of
# 800x600, 1366x768 and 1920x1080 the main window and every window (profile patterns time
# latency sources parallelism matrix timeline teach help) is opened on a real experiment store
# (made here by `scalegraph run`, so the timeline has a traced run), screenshotted as the X
# server shows it, and checked: the window fits the screen (the shot's size; Help and the
# teaching window within 90 %), and is not blank. The shots stay in $B/test-out/gui-layout/SIZE/
# to be looked at; `make docs-pictures` copies the 1366x768 set into docs/pictures/.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh protocol).
B=${B:-build}
TOP=$B/test-out/gui-layout
OUT=$TOP
. gui/tests/xvfb-lib.sh
SPEC=examples/billiards/billiards-small.sgx
WINDOWS="profile patterns time latency sources parallelism matrix timeline teach help"

# the experiment: a real store with traced runs at N = 1, 2, 4 (the fixture has no traces)
EXP=$TOP/layout.exp
if [ -x "$B/bin/scalegraph" ] && [ -x "$B/bin/billiards" ]; then
	PATH=$PWD/$B/bin:$PATH "$B/bin/scalegraph" run "$SPEC" -o "$EXP" --threads 1,2,4 --repeat 1 \
		>"$TOP/run.log" 2>&1
fi
RID=$(sqlite3 "$EXP/experiment.db" "select id from runs where kind = 'par' and status = 'ok' order by n_threads desc, id limit 1" 2>/dev/null)
if [ -z "$RID" ]; then
	skip layout "no experiment store with a traced run (scalegraph run: $(tail -1 "$TOP/run.log" 2>/dev/null))"
	exit 0
fi

# LAYOUT_SIZES: the screens to check (make docs-pictures asks for 1366x768 only)
for SIZE in ${LAYOUT_SIZES:-800x600 1366x768 1920x1080}; do
	SW=${SIZE%x*}
	SH=${SIZE#*x}
	OUT=$TOP/$SIZE
	mkdir -p "$OUT"
	rm -f "$OUT"/*.png
	XVFB_SCREEN=${SIZE}x24
	xvfb_start
	A="run-select:$RID;shot:main=$OUT/main.png"
	for w in $WINDOWS; do A="$A;open:$w;shot:$w=$OUT/$w.png"; done
	gui_run "layout-$SIZE" "$EXP" "$A;quit"
	xvfb_cleanup
	trap - EXIT INT TERM
	for w in main $WINDOWS; do
		f=$OUT/$w.png
		if [ ! -s "$f" ]; then fail "layout $SIZE $w" "no screenshot (a window beyond the screen cannot be read back)"; continue; fi
		set -- $(identify -format '%w %h %k' "$f")
		mw=$SW mh=$SH
		case $w in teach|help) mw=$((SW * 9 / 10)) mh=$((SH * 9 / 10)) ;; esac
		if [ "$1" -gt "$mw" ] || [ "$2" -gt "$mh" ]; then
			fail "layout $SIZE $w" "${1}x$2 does not fit ${mw}x$mh"
		elif [ "$3" -lt 12 ]; then
			fail "layout $SIZE $w" "only $3 colours: blank"
		else
			pass "layout $SIZE $w: ${1}x$2 fits ${mw}x$mh, $3 colours"
		fi
	done
done
