#!/bin/bash
# test-export.sh — `scalegraph export` end to end: a synthetic trace with every event kind and a
# real traced billiards run, exported to OTF2 (read back with otf2-print) and to Chrome JSON
# (validated with python3's json module); the counts per kind must equal what
# `scalegraph dump --summary` counts. Then damage, an empty trace, a missing run, usage.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh).
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
MK="$B/tests/export/test_export_mktrace"
TRACED="$B/bin/billiards-traced"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# check_chrome NAME TRACE JSON: valid JSON whose counts per kind equal dump's, nesting right.
check_chrome() {
	local out
	"$SG" dump --summary "$2" >"$tmp/summary.txt" 2>/dev/null
	if ! python3 -m json.tool "$3" >/dev/null 2>"$tmp/json.err"; then
		fail "$1" "invalid JSON: $(head -c 300 "$tmp/json.err")"
		return
	fi
	if out=$(python3 "$here/test_export_check.py" chrome "$tmp/summary.txt" "$3" 2>&1); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}

# check_otf2 NAME TRACE DIR [EXTRA-PYTHON-ARGS]: otf2-print reads it; counts equal dump's.
check_otf2() {
	local out
	"$SG" dump --summary "$2" >"$tmp/summary.txt" 2>/dev/null
	if ! otf2-print -G "$3/traces.otf2" >"$tmp/defs.txt" 2>"$tmp/otf2.err" ||
	   ! otf2-print "$3/traces.otf2" >"$tmp/events.txt" 2>>"$tmp/otf2.err"; then
		fail "$1" "otf2-print failed: $(head -c 300 "$tmp/otf2.err")"
		return
	fi
	if out=$(python3 "$here/test_export_check.py" otf2 "$tmp/summary.txt" "$tmp/defs.txt" \
			"$tmp/events.txt" "${@:4}" 2>&1); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}

command -v python3 >/dev/null || { echo "SKIP: export: python3 missing"; exit 0; }
have_otf2_print=1
command -v otf2-print >/dev/null || have_otf2_print=0

# --- synthetic trace, given as a run directory (RUN/trace) ---
mkdir -p "$tmp/run"
if ! "$MK" "$tmp/run/trace" 2>"$tmp/mk.err"; then
	fail "synthetic trace" "$(cat "$tmp/mk.err")"
	exit 0
fi
if "$SG" export --chrome "$tmp/run" "$tmp/syn.json" 2>"$tmp/err.txt"; then
	check_chrome "chrome: synthetic trace, counts per kind equal dump's" "$tmp/run/trace" \
		"$tmp/syn.json"
	if out=$(python3 "$here/test_export_check.py" chrome-synthetic "$tmp/syn.json" 2>&1); then
		pass "chrome: synthetic trace, names, timestamps, args"
	else
		fail "chrome: synthetic trace, names, timestamps, args" "$out"
	fi
else
	fail "chrome: synthetic trace" "exit $?: $(cat "$tmp/err.txt")"
fi
if [ $have_otf2_print = 0 ]; then
	echo "SKIP: otf2: otf2-print missing (package otf2-tools)"
elif "$SG" export --otf2 "$tmp/run" "$tmp/syn-otf2" 2>"$tmp/err.txt"; then
	check_otf2 "otf2: synthetic trace, counts, locations, lock order, clock" \
		"$tmp/run/trace" "$tmp/syn-otf2" synthetic
	if "$SG" export --otf2 "$tmp/run" "$tmp/syn-otf2" 2>"$tmp/err.txt"; then
		fail "otf2: existing archive kept" "a second export into the same DIR succeeded"
	elif grep -q "traces.otf2: exists" "$tmp/err.txt"; then
		pass "otf2: existing archive kept"
	else
		fail "otf2: existing archive kept" "$(cat "$tmp/err.txt")"
	fi
else
	fail "otf2: synthetic trace" "exit $?: $(cat "$tmp/err.txt")"
fi

# --- a real traced run (bare trace directory) ---
if [ ! -x "$TRACED" ]; then
	echo "SKIP: real run: $TRACED not built"
elif ! SG_TRACE_DIR="$tmp/bt" "$TRACED" --balls 300 --steps 20 --threads 2 \
		>/dev/null 2>"$tmp/bt.err"; then
	fail "real run" "billiards-traced failed: $(tail -1 "$tmp/bt.err")"
else
	if "$SG" export --chrome "$tmp/bt" "$tmp/bt.json" 2>"$tmp/err.txt"; then
		check_chrome "chrome: billiards-traced N=2, counts per kind equal dump's" "$tmp/bt" \
			"$tmp/bt.json"
	else
		fail "chrome: billiards-traced" "$(cat "$tmp/err.txt")"
	fi
	if [ $have_otf2_print = 0 ]; then
		echo "SKIP: otf2: billiards-traced: otf2-print missing"
	elif "$SG" export --otf2 "$tmp/bt" "$tmp/bt-otf2" 2>"$tmp/err.txt"; then
		check_otf2 "otf2: billiards-traced N=2, counts per kind equal dump's" "$tmp/bt" \
			"$tmp/bt-otf2"
	else
		fail "otf2: billiards-traced" "$(cat "$tmp/err.txt")"
	fi
fi

# --- damage: what is readable is exported, the chunk is named ---
"$MK" "$tmp/damaged" damage 2>/dev/null
"$SG" export --chrome "$tmp/damaged" "$tmp/damaged.json" 2>"$tmp/err.txt"
rc=$?
if [ $rc -ne 0 ]; then
	fail "damaged trace: partial export" "exit $rc: $(cat "$tmp/err.txt")"
elif ! grep -q "thread.0.sgs: chunk 1: " "$tmp/err.txt"; then
	fail "damaged trace: partial export" "no 'thread.0.sgs: chunk 1: reason' line: $(cat "$tmp/err.txt")"
elif ! python3 "$here/test_export_check.py" chrome-nested "$tmp/damaged.json" >"$tmp/py.txt" 2>&1
then
	fail "damaged trace: partial export" "$(cat "$tmp/py.txt")"
else
	pass "damaged trace: partial export, chunk reported, slices still nested"
fi
if [ $have_otf2_print = 1 ]; then
	if "$SG" export --otf2 "$tmp/damaged" "$tmp/damaged-otf2" 2>/dev/null &&
	   otf2-print "$tmp/damaged-otf2/traces.otf2" >/dev/null 2>&1; then
		pass "damaged trace: OTF2 readable"
	else
		fail "damaged trace: OTF2 readable" "export or otf2-print failed"
	fi
fi

# --- nothing readable, missing run, run without a trace, usage ---
# expect_exit NAME RC PATTERN ARGS...: `scalegraph export ARGS` exits RC, stderr has PATTERN.
expect_exit() {
	local name=$1 want=$2 pattern=$3 rc
	shift 3
	"$SG" export "$@" 2>"$tmp/err.txt"
	rc=$?
	if [ $rc -eq "$want" ] && grep -q "$pattern" "$tmp/err.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(cat "$tmp/err.txt")"
	fi
}
"$MK" "$tmp/empty" empty 2>/dev/null
expect_exit "empty trace: exit 1, says nothing is readable" 1 "no readable event" \
	--chrome "$tmp/empty" "$tmp/empty.json"
expect_exit "missing run: exit 2, clear message" 2 "no-such-run: No such file or directory" \
	--otf2 "$tmp/no-such-run" "$tmp/x"
mkdir -p "$tmp/untraced"
expect_exit "run without a trace: exit 2, clear message" 2 "no trace here" \
	--chrome "$tmp/untraced" "$tmp/x.json"
if "$SG" export --help | grep -q -- "--otf2 RUN DIR" &&
   ! "$SG" export "$tmp/run" 2>/dev/null && ! "$SG" export --chrome --otf2 a b 2>/dev/null; then
	pass "usage: --help, missing format, two formats"
else
	fail "usage" "--help text or usage errors wrong"
fi
exit 0
