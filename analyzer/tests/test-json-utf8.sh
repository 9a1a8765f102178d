#!/bin/bash
# test-json-utf8.sh — every JSON string the tools write is valid UTF-8 (issue 20, item 11;
# docs/report-json.md "Strings"): a trace in a directory named with bytes that are not UTF-8,
# whose function, region, counter and call site carry such bytes too (an_mkname), and an
# experiment store under such a name (an_mksites), through `report --json` and `export
# --chrome`, each parsed by python3 from the raw bytes with a strict UTF-8 decode and strict
# json.loads; each byte that is not part of valid UTF-8 reads back as U+FFFD, valid UTF-8 (é)
# as itself.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
MKN="$B/tests/analyzer/an_mkname"
MKS="$B/tests/analyzer/an_mksites"
T=$(mktemp -d /tmp/sg-test-utf8.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

for x in "$SG" "$MKN" "$MKS"; do
	[ -x "$x" ] || { echo "SKIP: defect20-json-utf8: $x is not built"; exit 0; }
done
command -v python3 >/dev/null || { echo "SKIP: defect20-json-utf8: python3 missing"; exit 0; }

# strict JSON FILE WANT...: FILE decodes as UTF-8 (errors=strict), json.loads(strict=True)
# takes it, and each WANT (a Python literal) occurs among its strings
strict() {
	python3 - "$@" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8")
except UnicodeDecodeError as e:
    at = max(e.start - 40, 0)
    sys.exit("not UTF-8 at byte %d: %r" % (e.start, raw[at:e.start + 20]))
doc = json.loads(text, strict=True)
strings = []
def walk(x):
    if isinstance(x, str):
        strings.append(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            strings.append(k)
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(doc)
for want in sys.argv[2:]:
    w = eval(want)
    if not any(w in s for s in strings):
        sys.exit("no string holds %r" % w)
PY
}

# the bytes: 0xff 0xfe (never UTF-8), a truncated sequence (0xe2 0x82 then 'x'), a valid é
name=$'f\xff\xfe_\xe2\x82x_\xc3\xa9'
want='"f\ufffd\ufffd_\ufffd\ufffdx_\u00e9"'
dir="$T/tr"$'\xff\xfe'
if ! "$MKN" "$dir" "$name" 2> "$T/mk.err"; then
	fail defect20-json-utf8-setup "an_mkname: $(cat "$T/mk.err")"
	exit 0
fi

"$SG" report --json "$dir" > "$T/run.json" 2> "$T/run.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail defect20-json-utf8-report-run "report --json exit $rc: $(tail -2 "$T/run.err")"
elif out=$(strict "$T/run.json" "$want" '"tr\ufffd\ufffd"' 2>&1); then
	pass defect20-json-utf8-report-run
else
	fail defect20-json-utf8-report-run "$out"
fi

"$SG" export --chrome "$dir" "$T/chrome.json" 2> "$T/ex.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail defect20-json-utf8-export-chrome "export --chrome exit $rc: $(tail -2 "$T/ex.err")"
elif out=$(strict "$T/chrome.json" "$want" '"tr\ufffd\ufffd"' 2>&1) &&
     out=$(python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' \
		"$T/chrome.json" 2>&1); then
	pass defect20-json-utf8-export-chrome
else
	fail defect20-json-utf8-export-chrome "$out"
fi

# an experiment store under such a name: the experiment's report names its directory and runs
exp="$T/ex"$'\xfe\x80'
if ! "$MKS" "$exp" 2> "$T/mks.err"; then
	fail defect20-json-utf8-report-exp "an_mksites: $(cat "$T/mks.err")"
else
	"$SG" report --no-store-write --json "$exp" > "$T/exp.json" 2> "$T/exp.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail defect20-json-utf8-report-exp "report --json exit $rc: $(tail -2 "$T/exp.err")"
	elif out=$(strict "$T/exp.json" '"ex\ufffd\ufffd"' 2>&1); then
		pass defect20-json-utf8-report-exp
	else
		fail defect20-json-utf8-report-exp "$out"
	fi
fi
