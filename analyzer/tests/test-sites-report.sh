#!/bin/bash
# test-sites-report.sh — the call-site section of `scalegraph report` (docs/analyzer.md "Call
# sites in the report") on a synthetic experiment whose waits are known per site
# (analyzer/tests/an_mksites.c says how each figure below is made by hand): the text lines of
# the N=2 point (its median repetition, run 3), the same in --json adding up to the point's
# figures, the report of one run, and a store without sites saying so once — and why there are
# none (issue 20, item 8): no wrapped call, no time in synchronization, waits without a site, a
# program built before format 1.4, no readable trace, each its own line (an_sites_state_text).
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
MK="$B/tests/analyzer/an_mksites"
T=$(mktemp -d /tmp/sg-test-sites.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
check() { local n=$1 why=$2; shift 2; if "$@"; then pass "$n"; else fail "$n" "$why"; fi; }
# line FILE TEXT: FILE has the line TEXT, runs of spaces squeezed to one
line() { tr -s ' ' < "$1" | grep -Fxq -- "$2"; }

if [ ! -x "$MK" ] || [ ! -x "$SG" ]; then
	echo "SKIP: sites_report: an_mksites or scalegraph is not built"
	exit 0
fi
"$MK" "$T/exp" || { fail sites_store "an_mksites failed"; exit 0; }
"$SG" report --no-store-write "$T/exp" > "$T/r.txt" 2> "$T/r.err"
rc=$?
check sites_report_exit "exit $rc: $(tail -3 "$T/r.err")" test $rc -eq 0
sed -n '/^Call sites/,/^$/p' "$T/r.txt" > "$T/sec.txt"
check sites_header "no call-site section: $(head -3 "$T/sec.txt")" \
	grep -q "^Call sites (each method at its largest N" "$T/sec.txt"
check sites_point "the N=2 point is not listed" line "$T/sec.txt" " fixed N=2"
# by hand (an_mksites.c), in the order of the sources and, within one, most time first
cat > "$T/want.txt" <<'W'
 IT_barrier lu.c:412 in daxpy_sweep 100 % of barrier waiting (3.00 ms; thread 1)
 PT_barrier lu.c:412 in daxpy_sweep 100 % of barrier overhead (1.00 ms; threads 1 2)
 IT_lock solve.c:77 67 % of lock waiting (2.00 ms; thread 2)
 IT_lock lu.c:500 in update 33 % of lock waiting (1.00 ms; thread 1)
 PT_lock solve.c:77 50 % of lock overhead (10.0 ns; thread 2)
 PT_lock lu.c:500 in update 25 % of lock overhead (5.00 ns; thread 1)
 PT_lock (unknown site) 25 % of lock overhead (5.00 ns; thread 1)
W
tr -s ' ' < "$T/sec.txt" | sed -n '3,$p' | grep -v '^$' > "$T/got.txt"
check sites_lines "$(diff "$T/want.txt" "$T/got.txt" | head -8 | tr '\n' '|')" \
	diff -q "$T/want.txt" "$T/got.txt"
check sites_recorded "a 'call sites:' line printed on a store with sites" \
	sh -c "! grep -q '^call sites: ' '$T/r.txt'"

# --json: the same sites, adding up to the point's medians, the run behind them
"$SG" report --no-store-write --json "$T/exp" > "$T/r.json" 2> "$T/j.err"
# (JSON numbers have 9 significant digits: sums and shares agree to 1e-8 relative)
python3 - "$T/r.json" > "$T/j.check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cs = d["call_sites"]
assert cs["recorded"] is True, cs
pts = cs["points"]
assert [(p["method"], p["N"]) for p in pts] == [("fixed", 2)], pts
point = [p for p in d["points"] if p["method"] == "fixed" and p["N"] == 2][0]
src = {s["source"]: s for s in pts[0]["sources"]}
assert sorted(src) == ["IT_barrier", "IT_lock", "PT_barrier", "PT_lock"], sorted(src)
for name, s in src.items():
    med = point["figures"][name]["median"]
    tot = sum(x["seconds"] for x in s["sites"])
    assert abs(tot - med) <= 1e-8 * med, (name, tot, med)
    assert abs(sum(x["share"] for x in s["sites"]) - 1) < 1e-8, name
    assert s["runs"] == [3], (name, s["runs"])
    for x in s["sites"]:
        assert abs(sum(t["seconds"] for t in x["threads"]) - x["seconds"]) <= 1e-8 * x["seconds"], x
lock = src["IT_lock"]["sites"]
assert [(x["file"], x["line"], x["function"]) for x in lock] == \
       [("solve.c", 77, ""), ("lu.c", 500, "update")], lock
assert abs(lock[0]["share"] - 2 / 3) < 1e-8, lock[0]
assert lock[0]["threads"] == [{"thread": 2, "seconds": 0.002}], lock[0]["threads"]
unk = [x for x in src["PT_lock"]["sites"] if x["id"] is None]
assert len(unk) == 1 and abs(unk[0]["seconds"] - 5e-9) < 1e-18, unk
PY
check sites_json "$(tail -2 "$T/j.check" | tr '\n' ' ')" test ! -s "$T/j.check"

# one run: its own table (run 3 is the scale-1 repetition)
"$SG" report --no-store-write "$T/exp/runs/3" > "$T/run.txt" 2>&1
check sites_run "$(grep -A3 '^Call sites' "$T/run.txt" | tr '\n' '|')" \
	line "$T/run.txt" " IT_lock solve.c:77 67 % of lock waiting (2.00 ms; thread 2)"

# a store whose program was built before format 1.4 (its traces are format 1.3): one line, no
# tables
"$MK" "$T/old" --no-sites || fail sites_store_old "an_mksites --no-sites failed"
"$SG" report --no-store-write "$T/old" > "$T/old.txt" 2>&1
check sites_not_recorded "$(grep -c 'not recorded (program built' "$T/old.txt") line(s); $(grep -A2 '^Call sites' "$T/old.txt" | tr '\n' '|')" \
	sh -c "[ \$(grep -c '^call sites: not recorded (program built before format 1.4)$' '$T/old.txt') -eq 1 ] &&
	       ! grep -q '^Call sites' '$T/old.txt' && ! grep -q 'unknown site' '$T/old.txt'"
"$SG" report --no-store-write --json "$T/old" > "$T/old.json" 2>/dev/null
check sites_json_not_recorded "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['call_sites'])" "$T/old.json" 2>&1 | head -c 300)" \
	python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['call_sites']; p=c['points'][0]; assert c['recorded'] is False and not p['recorded'] and p['state'] == 'old_format' and p['why'] == 'call sites: not recorded (program built before format 1.4)'" "$T/old.json"

# from the store's cache (a report that wrote the metrics first): the repetitions' figures are
# loaded, not analyzed; the median repetition's trace is read for its sites (the same section),
# and a store without sites is told from the traces' definitions alone (the same line)
"$SG" report "$T/exp" > /dev/null 2>&1
"$SG" report --no-store-write "$T/exp" > "$T/c.txt" 2>&1
sed -n '/^Call sites/,/^$/p' "$T/c.txt" > "$T/csec.txt"
check sites_from_cache "$(diff "$T/sec.txt" "$T/csec.txt" | head -5 | tr '\n' '|')" \
	cmp -s "$T/sec.txt" "$T/csec.txt"
"$SG" report "$T/old" > /dev/null 2>&1
"$SG" report --no-store-write "$T/old" > "$T/oc.txt" 2>&1
check sites_not_recorded_from_cache "$(grep -c 'not recorded (program built' "$T/oc.txt") line(s)" \
	sh -c "[ \$(grep -c '^call sites: not recorded (program built before format 1.4)$' '$T/oc.txt') -eq 1 ]"

# --- issue 20, item 8: say what is true where there is no table ---
# one_line NAME FILE TEXT: FILE has the line TEXT exactly once, no call-site table, no other
# "call sites:" line
one_line() {
	local n=$1 f=$2 want=$3
	check "$n" "$(grep -n 'call sites\|Call sites\|unknown site' "$f" | head -4 | tr '\n' '|')" \
		sh -c '[ "$(grep -c "^call sites: " "$1")" -eq 1 ] && grep -Fxq -- "$2" "$1" &&
		       ! grep -q "^Call sites" "$1" && ! grep -q "unknown site" "$1"' _ "$f" "$want"
}
# json_state NAME FILE STATE TEXT [run]: the JSON's call_sites (the run's, or each point's) say so
json_state() {
	check "$1" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['call_sites'])" "$2" 2>&1 | head -c 300)" \
		python3 - "$2" "$3" "$4" "${5:-exp}" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["call_sites"]
want = {"state": sys.argv[2], "why": sys.argv[3], "recorded": False}
for x in ([c] if sys.argv[4] == "run" else c["points"]):
    got = {k: x[k] for k in want}
    assert got == want, got
PY
}
NO_CALL="call sites: no wrapped call was made (one thread, and no lock, barrier, condition variable or semaphore in the trace)"
NO_WAIT="call sites: no time in synchronization (wrapped calls were made; none took time in the processors' waits or primitives)"
NO_SITE="call sites: none known (every wait went through a wrapper without a site: a call through a function pointer, or code built against an older sgtrace.h)"
OLD="call sites: not recorded (program built before format 1.4)"
UNREAD="call sites: not recorded (no readable trace)"

# a format 1.4 run of one thread without synchronization (the N=1 run, run 1)
"$SG" report --no-store-write "$T/exp/runs/1" > "$T/n1.txt" 2>&1
one_line defect20-sites-no-call "$T/n1.txt" "$NO_CALL"
"$SG" report --no-store-write --json "$T/exp/runs/1" > "$T/n1.json" 2>/dev/null
json_state defect20-sites-no-call-json "$T/n1.json" no_call "$NO_CALL" run

# format 1.4, two threads that only compute: no time at any source
"$MK" "$T/nosync" --no-sync || fail defect20-sites-no-wait "an_mksites --no-sync failed"
"$SG" report --no-store-write "$T/nosync" > "$T/ns.txt" 2>&1
one_line defect20-sites-no-wait "$T/ns.txt" "$NO_WAIT"
"$SG" report --no-store-write --json "$T/nosync" > "$T/ns.json" 2>/dev/null
json_state defect20-sites-no-wait-json "$T/ns.json" no_wait "$NO_WAIT"
"$SG" report "$T/nosync" > /dev/null 2>&1   # the same from the store's cache
"$SG" report --no-store-write "$T/nosync" > "$T/nsc.txt" 2>&1
one_line defect20-sites-no-wait-from-cache "$T/nsc.txt" "$NO_WAIT"

# format 1.4, the waits of the first store made through wrappers without a site
"$MK" "$T/plain" --plain || fail defect20-sites-no-site "an_mksites --plain failed"
"$SG" report --no-store-write "$T/plain" > "$T/pl.txt" 2>&1
one_line defect20-sites-no-site "$T/pl.txt" "$NO_SITE"
"$SG" report --no-store-write --json "$T/plain" > "$T/pl.json" 2>/dev/null
json_state defect20-sites-no-site-json "$T/pl.json" no_site "$NO_SITE"

# format 1.3 (the old store above), and a store whose N=2 traces are gone
one_line defect20-sites-old-format "$T/old.txt" "$OLD"
"$MK" "$T/gone" || fail defect20-sites-unreadable "an_mksites failed"
rm -rf "$T/gone/runs/2/trace" "$T/gone/runs/3/trace" "$T/gone/runs/4/trace"
"$SG" report --no-store-write "$T/gone" > "$T/gone.txt" 2>&1
one_line defect20-sites-unreadable "$T/gone.txt" "$UNREAD"
