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
SGCC="$B/libexec/scalegraph/scalegraph-cc"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
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

# export_both NAME RUN TRACE: both formats of a real run, each checked against dump's counts.
export_both() {
	if "$SG" export --chrome "$2" "$tmp/real.json" 2>"$tmp/err.txt"; then
		check_chrome "chrome: $1, counts per kind equal dump's" "$3" "$tmp/real.json"
	else
		fail "chrome: $1" "$(cat "$tmp/err.txt")"
	fi
	rm -rf "$tmp/real.json" "$tmp/real-otf2"
	if [ $have_otf2_print = 0 ]; then
		echo "SKIP: otf2: $1: otf2-print missing"
	elif "$SG" export --otf2 "$2" "$tmp/real-otf2" 2>"$tmp/err.txt"; then
		check_otf2 "otf2: $1, counts per kind equal dump's" "$3" "$tmp/real-otf2"
	else
		fail "otf2: $1" "$(cat "$tmp/err.txt")"
	fi
	rm -rf "$tmp/real-otf2"
}

# --- real runs: billiards-traced as a bare trace directory, and as a run of an experiment
# store made by `scalegraph run`; taskfarm built with `scalegraph cc --sg-all-functions`
# (functions, condition waits) ---
if [ ! -x "$TRACED" ]; then
	echo "SKIP: real runs: $TRACED not built"
elif ! SG_TRACE_DIR="$tmp/bt" "$TRACED" --balls 300 --steps 20 --threads 2 \
		>/dev/null 2>"$tmp/bt.err"; then
	fail "real run" "billiards-traced failed: $(tail -1 "$tmp/bt.err")"
else
	export_both "billiards-traced N=2" "$tmp/bt" "$tmp/bt"
	cat >"$tmp/bil.sgx" <<-EOF
	program     $(abs "$TRACED") --balls {balls} --steps 10 --threads {N}
	sequential  $(abs "$B/bin/billiards-seq") --balls {balls} --steps 10
	threads     2
	repeat      1
	param balls 200
	method fixed balls=200
	EOF
	XDG_CACHE_HOME="$tmp/cache" "$SG" run "$tmp/bil.sgx" -o "$tmp/exp" >"$tmp/run.out" 2>&1
	par=$(ls -d "$tmp"/exp/runs/*/trace 2>/dev/null | head -1)
	seq=$(for d in "$tmp"/exp/runs/*; do [ -d "$d/trace" ] || echo "$d"; done | head -1)
	if [ -z "$par" ] || [ -z "$seq" ]; then
		fail "experiment store run" "scalegraph run made no traced and untraced run: $(tail -2 "$tmp/run.out")"
	else
		export_both "run directory of an experiment store" "${par%/trace}" "$par"
		"$SG" export --chrome "$seq" "$tmp/seq.json" 2>"$tmp/err.txt"
		rc=$?
		if [ $rc -eq 2 ] && grep -q "no trace here" "$tmp/err.txt"; then
			pass "untraced run of an experiment store: exit 2, says there is no trace"
		else
			fail "untraced run of an experiment store" "exit $rc: $(cat "$tmp/err.txt")"
		fi
	fi
fi
if [ ! -x "$SGCC" ] || [ ! -f examples/taskfarm/taskfarm_par.c ]; then
	echo "SKIP: taskfarm: scalegraph cc or the taskfarm sources missing"
elif ! SG_CC="${CC:-cc}" "$SGCC" --sg-static --sg-all-functions -O2 -Iexamples/common \
		examples/taskfarm/taskfarm_par.c examples/taskfarm/farm_task.c \
		examples/taskfarm/farm_cli.c examples/common/ex_cli.c examples/common/ex_threads.c \
		-pthread -o "$tmp/taskfarm" >"$tmp/cc.err" 2>&1; then
	fail "taskfarm" "scalegraph cc failed: $(tail -3 "$tmp/cc.err")"
elif ! SG_TRACE_DIR="$tmp/tf" "$tmp/taskfarm" --tasks 200 --size 200 --threads 3 --queue 2 \
		>/dev/null 2>"$tmp/tf.err"; then
	fail "taskfarm" "traced taskfarm failed: $(tail -1 "$tmp/tf.err")"
else
	export_both "taskfarm N=3, all functions" "$tmp/tf" "$tmp/tf"
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
