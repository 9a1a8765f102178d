#!/bin/bash
# test-n-choice.sh — the run's N on real programs built with scalegraph cc (issue 20, item 6;
# docs/analyzer.md "Processors"): a main thread with a serial phase as long as the parallel one,
# then 4 identical workers it joins (LLNL's dotprod_mutex in shape, programs/serial_main.c) is
# no processor: N = 4, the workers, bare and with --threads 4; and a program whose 3 other
# threads the trace does not record (programs/untraced_main.c + untraced_lib.c built with plain
# cc, as OpenMP's workers) reports N = 1 and says beside it that 3 more threads ran.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
src=analyzer/tests/programs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

[ -x "$sg" ] || { echo "SKIP: n-choice: scalegraph is not built"; exit 0; }

# json FILE EXPR: EXPR over d (the report), f (figures' values), threads
json() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = {k: v.get("value") for k, v in d["figures"].items()}
threads = d["threads"]
ok = eval(sys.argv[2])
if not ok:
    sys.exit("N %s, processors %s, N_unsure %r" % (f["N"], [t["index"] for t in threads if t["processor"]],
             d.get("N_unsure")))
PY
}

if ! SG_CC=${CC:-cc} "$sg" cc -O2 -pthread -I"$src" "$src/serial_main.c" -o "$tmp/serial_main" \
		>"$tmp/build.txt" 2>&1; then
	fail defect20-serial-main "build: $(head -5 "$tmp/build.txt")"
elif ! SG_TRACE_DIR="$tmp/sm.trace" "$tmp/serial_main" >"$tmp/sm.out" 2>&1; then
	fail defect20-serial-main "run: $(tail -3 "$tmp/sm.out")"
else
	workers='f["N"] == 4 and [t["index"] for t in threads if t["processor"]] == [1, 2, 3, 4]'
	"$sg" report --json "$tmp/sm.trace" >"$tmp/sm.json" 2>"$tmp/sm.err"
	if out=$(json "$tmp/sm.json" "$workers" 2>&1); then pass defect20-serial-main-N
	else fail defect20-serial-main-N "$out"; fi
	"$sg" report --json --threads 4 "$tmp/sm.trace" >"$tmp/sm4.json" 2>"$tmp/sm4.err"
	if out=$(json "$tmp/sm4.json" "$workers" 2>&1); then pass defect20-serial-main-threads4
	else fail defect20-serial-main-threads4 "$out"; fi
	"$sg" report "$tmp/sm.trace" >"$tmp/sm.txt" 2>&1
	if grep -q "^thread 0: not a processor\|note: thread 0: not a processor (worked .*joining them" "$tmp/sm.txt"; then
		pass defect20-serial-main-why
	else
		fail defect20-serial-main-why "$(grep 'thread 0' "$tmp/sm.txt" | head -3 | tr '\n' '|')"
	fi
fi

if ! ${CC:-cc} -O2 -c -I"$src" "$src/untraced_lib.c" -o "$tmp/untraced_lib.o" 2>"$tmp/b2.txt" ||
   ! SG_CC=${CC:-cc} "$sg" cc -O2 -pthread -I"$src" "$src/untraced_main.c" "$tmp/untraced_lib.o" \
		-o "$tmp/untraced" >>"$tmp/b2.txt" 2>&1; then
	fail defect20-untraced-threads "build: $(head -5 "$tmp/b2.txt")"
elif ! SG_TRACE_DIR="$tmp/ut.trace" "$tmp/untraced" >"$tmp/ut.out" 2>&1; then
	fail defect20-untraced-threads "run: $(tail -3 "$tmp/ut.out")"
else
	"$sg" report --json "$tmp/ut.trace" >"$tmp/ut.json" 2>"$tmp/ut.err"
	"$sg" report "$tmp/ut.trace" >"$tmp/ut.txt" 2>&1
	"$sg" dump --summary "$tmp/ut.trace" >"$tmp/ut.sum" 2>&1
	if grep -q "^sched: switch records unavailable" "$tmp/ut.sum"; then
		echo "SKIP: defect20-untraced-threads: $(grep '^sched:' "$tmp/ut.sum")"
	elif out=$(json "$tmp/ut.json" 'f["N"] == 1 and "3 more threads ran that the trace does not record" in (d["N_unsure"] or "")' 2>&1) &&
	     grep -q "^N  *1  (not certain: 3 more threads ran that the trace does not record" "$tmp/ut.txt"; then
		pass defect20-untraced-threads
	else
		fail defect20-untraced-threads "$out; $(grep -E '^N |ran in the interval' "$tmp/ut.txt" | tr '\n' '|')"
	fi
fi
