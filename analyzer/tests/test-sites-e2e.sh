#!/bin/bash
# test-sites-e2e.sh — call sites end to end (issue 15 part 4): analyzer/tests/programs/
# sites_prog.c, whose waits per site are known by construction, built with `scalegraph cc`, run
# as a series with `scalegraph run` (N=3, 5 rounds, 2 repetitions), and the report's call-site
# table checked: the sites are the program's own file:line in function (found in the source by
# their SITE_ markers), each source's time sits at the right site, within tolerances:
#   IT_barrier: expected 5 rounds x 2 waiting workers x 20 ms = 200 ms, all at SITE_A. A sleep
#     never ends early, so worker 0 arrives >= 20 ms after the others left the lock phase; they
#     can only arrive later on a loaded machine (shorter waits) or worker 0 oversleep (longer):
#     accepted 0.5x .. 2x, and SITE_A >= 95 % of the barrier waiting (nothing else waits there).
#   IT_lock: expected 5 x 2 x ~8 ms = 80 ms at SITE_B (the 10 ms hold minus the 2 ms nap), the
#     waiters' short holds on each other adding little: 0.4x .. 2.5x, SITE_B >= 80 % of lock
#     waiting (worker 0's requests at SITE_H find the mutex free but for a waiter's few-µs hold).
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
src=analyzer/tests/programs
T=$(mktemp -d /tmp/sg-test-sites-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

if [ ! -x "$SG" ] || [ ! -x "$B/libexec/scalegraph/scalegraph-cc" ] ||
   [ ! -x "$B/libexec/scalegraph/scalegraph-run" ]; then
	echo "SKIP: sites_e2e: scalegraph cc, run or report is not built"
	exit 0
fi
cp "$src/sites_prog.c" "$T/" || exit 1
if ! (cd "$T" && SG_CC=${CC:-cc} "$OLDPWD/$SG" cc -O2 -pthread sites_prog.c -o sites_prog) \
	>"$T/build.out" 2>&1; then
	fail sites_e2e_build "$(head -5 "$T/build.out")"
	exit 0
fi
pass sites_e2e_build
cat > "$T/s.sgx" <<SPEC
program     $T/sites_prog {N} {rounds}
threads     3
repeat      2
timeout     60s
param rounds 5
method fixed rounds=5
SPEC
"$SG" run "$T/s.sgx" -o "$T/exp" >"$T/run.out" 2>&1 ||
	{ fail sites_e2e_run "$(tail -3 "$T/run.out")"; exit 0; }
pass sites_e2e_run
"$SG" report --no-store-write "$T/exp" >"$T/r.txt" 2>"$T/r.err" ||
	{ fail sites_e2e_report "$(tail -3 "$T/r.err")"; exit 0; }
"$SG" report --no-store-write --json "$T/exp" >"$T/r.json" 2>/dev/null
line_of() { grep -n "$1" "$src/sites_prog.c" | head -1 | cut -d: -f1; }
A=$(line_of SITE_A) H=$(line_of SITE_H) Bl=$(line_of SITE_B)
# the text table names the sites as the user wrote them
sed -n '/^Call sites/,/^$/p' "$T/r.txt" > "$T/sec.txt"
if tr -s ' ' < "$T/sec.txt" | grep -Eq "^ IT_barrier sites_prog\.c:$A in phase_sync [0-9]+ % of barrier waiting \(.*; threads( [0-9]+){2}\)$"; then
	pass sites_e2e_text_barrier
else fail sites_e2e_text_barrier "no IT_barrier line at sites_prog.c:$A in phase_sync: $(tr '\n' '|' < "$T/sec.txt")"; fi
if tr -s ' ' < "$T/sec.txt" | grep -Eq "^ IT_lock sites_prog\.c:$Bl in wait_lock [0-9]+ % of lock waiting"; then
	pass sites_e2e_text_lock
else fail sites_e2e_text_lock "no IT_lock line at sites_prog.c:$Bl in wait_lock: $(tr '\n' '|' < "$T/sec.txt")"; fi
# the figures, from --json (full precision)
python3 - "$T/r.json" "$A" "$Bl" "$H" > "$T/check.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
A, B, H = (int(x) for x in sys.argv[2:5])
cs = d["call_sites"]
assert cs["recorded"], "call sites not recorded"
p = cs["points"][0]
assert p["N"] == 3, p["N"]
src = {s["source"]: s for s in p["sources"]}
def at(s, line):
    return sum(x["seconds"] for x in src[s]["sites"] if x["file"].endswith("sites_prog.c") and x["line"] == line)
bar, lock = src["IT_barrier"], src["IT_lock"]
print("IT_barrier %.1f ms, at A %.1f ms (%.0f %%); IT_lock %.1f ms, at B %.1f ms (%.0f %%), at H %.3f ms" % (
    bar["seconds"] * 1e3, at("IT_barrier", A) * 1e3, 100 * at("IT_barrier", A) / bar["seconds"],
    lock["seconds"] * 1e3, at("IT_lock", B) * 1e3, 100 * at("IT_lock", B) / lock["seconds"],
    at("IT_lock", H) * 1e3))
assert 0.5 * 0.200 <= bar["seconds"] <= 2 * 0.200, ("IT_barrier", bar["seconds"])
assert at("IT_barrier", A) >= 0.95 * bar["seconds"], "IT_barrier not at SITE_A"
a_site = [x for x in bar["sites"] if x["line"] == A][0]
assert a_site["function"] == "phase_sync", a_site["function"]
# the waiting workers, not worker 0 (it arrives last every round): N - 1 = 2 threads at A and B
assert len(a_site["threads"]) == 2, a_site["threads"]
assert 0.4 * 0.080 <= lock["seconds"] <= 2.5 * 0.080, ("IT_lock", lock["seconds"])
assert at("IT_lock", B) >= 0.8 * lock["seconds"], "IT_lock not at SITE_B"
b_site = [x for x in lock["sites"] if x["line"] == B][0]
assert b_site["function"] == "wait_lock", b_site["function"]
assert len(b_site["threads"]) == 2, b_site["threads"]
assert {t["thread"] for t in b_site["threads"]} == {t["thread"] for t in a_site["threads"]}, \
    (a_site["threads"], b_site["threads"])
PY
if [ $? -eq 0 ]; then pass "sites_e2e_figures ($(head -1 "$T/check.out"))"
else fail sites_e2e_figures "$(tr '\n' ' ' < "$T/check.out")"; fi
