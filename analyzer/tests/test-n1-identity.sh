#!/bin/bash
# test-n1-identity.sh — the experiment's figures on the "N = 1 runs as T_seq" basis (issue 20,
# item 7; docs/analyzer.md "Checks" and "p_x"): a synthetic store (an_mkn1.c says how every
# number is made by hand) whose point N=2 has T_para (1 - E) = 210 ns = L + U/N - L(W,1)/N =
# 97.5 + 167.5 - 55 ns. The p_x line states that identity with its terms, which add up and are
# the median repetition's own report's; checks (3) and (10) hold there and at the point (they
# read 1e-16 at the point and -0.077 / 0.26 in the run's own report before), also from the
# store's cache.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
MK="$B/tests/analyzer/an_mkn1"
T=$(mktemp -d /tmp/sg-test-n1.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
check() { local n=$1 why=$2; shift 2; if "$@"; then pass "$n"; else fail "$n" "$why"; fi; }

if [ ! -x "$MK" ] || [ ! -x "$SG" ]; then
	echo "SKIP: n1-identity: an_mkn1 or scalegraph is not built"
	exit 0
fi
"$MK" "$T/exp" || { fail defect20-n1-store "an_mkn1 failed"; exit 0; }

# the text: the p_x line with its terms, by hand
"$SG" report --no-store-write "$T/exp" >"$T/r.txt" 2>&1
want="  fixed      p_x = 2   T_para = 710 ns   L = 97.5 ns   (T_para (1 - E) = 210 ns: L + U/N - L(W,1)/N = 97.5 ns + 168 ns - 55.0 ns, run 2's, the repetition of the median T_para; (3) holds to 0.00 %)"
check defect20-n1-identity-text "$(grep 'p_x = ' "$T/r.txt")" grep -qxF -- "$want" "$T/r.txt"

# the JSON: the terms add up, and are run 2's own report's; every check holds
"$SG" report --no-store-write --json "$T/exp" >"$T/r.json" 2>/dev/null
for id in 1 2 3 4; do
	"$SG" report --no-store-write --json "$T/exp/runs/$id" >"$T/run$id.json" 2>/dev/null
	"$SG" report --no-store-write "$T/exp/runs/$id" >"$T/run$id.txt" 2>/dev/null
done
python3 - "$T" >"$T/j.check" 2>&1 <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/r.json"))
run = {i: {k: v["value"] for k, v in json.load(open("%s/run%d.json" % (t, i)))["figures"].items()}
       for i in (1, 2, 3, 4)}
near = lambda a, b: abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-9)
px = d["p_x"][0]
x = px["terms"]
assert px["identity"] == "L + U/N - L(W,1)/N", px
assert x["runs"] == [2], x
# by hand (an_mkn1.c)
for k, v in (("T_para_1_minus_E", 210e-9), ("L", 97.5e-9), ("U_over_N", 167.5e-9),
             ("L_W1_over_N", 55e-9)):
    assert near(x[k], v), (k, x[k], v)
assert near(x["L"] + x["U_over_N"] - x["L_W1_over_N"], x["T_para_1_minus_E"]), x
assert near(px["L_from_E"]["value"], x["T_para_1_minus_E"]), px
# the median repetition's own report says the same
r = run[2]
assert near(r["L_from_E"], x["T_para_1_minus_E"]) and near(r["L"], x["L"]), r
assert near(r["U"] / r["N"], x["U_over_N"]) and near(r["L_W1"] / r["N"], x["L_W1_over_N"]), r
# (3) and (10) hold in every run's own report and at the points
for i, f in run.items():
    assert abs(f["check3"]) < 1e-9 and abs(f["check10"]) < 1e-9, (i, f["check3"], f["check10"])
for p in d["points"]:
    f = p["figures"]
    for c in ("check3", "check10"):
        assert abs(f[c]["median"]) < 1e-9 and abs(f[c]["max"]) < 1e-9, (p["N"], c, f[c])
    assert near(f["L_W1"]["median"], 110e-9), (p["N"], f["L_W1"])
PY
check defect20-n1-identity-json "$(tail -3 "$T/j.check" | tr '\n' ' ')" test ! -s "$T/j.check"

# the run's own text report states the identity beside L_from_E
check defect20-n1-run-text "$(grep -E '^(L_from_E|L_W1|check3) ' "$T/run2.txt" | tr '\n' '|')" \
	sh -c "grep -q '^L_from_E  *210 ns  (= L + U/N - L(W,1)/N: T_seq is the N=1 runs' \"$T/run2.txt\" &&
	       grep -q '^L_W1  *110 ns$' \"$T/run2.txt\""

# from the store's cache: the same line, the same checks
"$SG" report "$T/exp" >/dev/null 2>&1
"$SG" report --no-store-write "$T/exp" >"$T/c.txt" 2>&1
"$SG" report --no-store-write --json "$T/exp" >"$T/c.json" 2>/dev/null
check defect20-n1-identity-from-cache "$(grep 'p_x = ' "$T/c.txt")" \
	sh -c "grep -qxF -- \"\$1\" \"$T/c.txt\" && python3 -c \"
import json, sys
for p in json.load(open(sys.argv[1]))['points']:
    for c in ('check3', 'check10'):
        assert abs(p['figures'][c]['median']) < 1e-9, (p['N'], c, p['figures'][c])
\" \"$T/c.json\"" _ "$want"
