#!/bin/bash
# test-help-env.sh — `scalegraph --help env` lists every environment variable (issue 14: they
# were documented piecemeal, the library's nowhere a user would look). Kept complete against
# the two places a variable is born: docs/tracelib.md's "Environment" table (every `NAME` in
# the first cell of its rows) and the sources' getenv calls (getenv("X"), the library's
# parser's get("X"), the tool-directory lookups' tool_dir("X"/exe_path_join("X"), outside the
# tests and benches), so that none is added in one place only.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

out=$("$SG" --help env 2>&1)
rc=$?
out2=$("$SG" help env 2>&1)
if [ $rc -eq 0 ] && [ "$out" = "$out2" ] && [ -n "$out" ]; then
	pass "help-env-both-forms"
else
	fail "help-env-both-forms" "rc=$rc, '--help env' and 'help env' differ or are empty"
fi
# the table's rows: "  NAME   text"
rows=$(sed -n 's/^  \([A-Z][A-Z0-9_]*\)\( .*\)\{0,1\}$/\1/p' <<<"$out" | sort -u)

# docs/tracelib.md: the rows of the table under "## Environment", up to the first line that is
# not a table row
doc=$(awk '/^## Environment/ { sec = 1; next } sec && /^## / { exit }
	sec && /^\|/ { tab = 1; split($0, c, "|"); print c[2]; next } tab { exit }' \
	"$ROOT/docs/tracelib.md" | grep -o '`[A-Z][A-Z0-9_]*`' | tr -d '`' | sort -u)
# tests/ directories are left out (their variables are the tests' own)
src=$(cd "$ROOT" && for d in tracelib instrument collector analyzer gui cli; do
	find "$d" -path '*/tests' -prune -o \( -name '*.c' -o -name '*.h' -o -name '*.l' -o -name '*.y' \) -print
	done | xargs grep -hoE '\b(getenv|secure_getenv|get|tool_dir|exe_path_join)\("[A-Z][A-Z0-9_]*"' |
	sed 's/.*("\(.*\)"/\1/' | sort -u)
n_doc=$(wc -w <<<"$doc")
n_src=$(wc -w <<<"$src")
missing_doc=$(comm -23 <(echo "$doc") <(echo "$rows") | tr '\n' ' ')
missing_src=$(comm -23 <(echo "$src") <(echo "$rows") | tr '\n' ' ')
# a table that shrank to nothing, or a grep that found nothing, proves nothing
if [ "$n_doc" -ge 8 ] && [ "$n_src" -ge 10 ] && [ -z "$missing_doc" ] && [ -z "$missing_src" ]; then
	pass "defect14-help-env-complete"
else
	fail "defect14-help-env-complete" "$n_doc names in docs/tracelib.md, $n_src read by the sources; missing from 'scalegraph --help env': docs: '$missing_doc' sources: '$missing_src'"
fi
# the variables the issue named, with the meanings given to the library's new ones
ok=1
for v in SG_THROTTLE SG_TRACE_MAX SG_VERBOSE SG_TRACE SG_CC SG_INCLUDE_DIR SG_LIB_DIR; do
	grep -q "^  $v " <<<"$out" || { ok=0; fail "help-env-lists-$v" "no row"; }
done
grep -q 'Default 100000,5' <<<"$out" && grep -q 'Default 1G' <<<"$out" || ok=0
[ $ok = 1 ] && pass "help-env-issue-variables" || fail "help-env-issue-variables" "$(grep -A3 SG_THROTTLE <<<"$out")"
# no row wider than a terminal
wide=$(awk 'length > 79' <<<"$out" | head -1)
[ -z "$wide" ] && pass "help-env-fits-79-columns" || fail "help-env-fits-79-columns" "$wide"
# `scalegraph help CMD` is CMD's --help
h=$("$SG" help run 2>&1)
[ "$h" = "$("$SG" run --help 2>&1)" ] && [ "${h#usage: scalegraph run}" != "$h" ] &&
	pass "help-command" || fail "help-command" "$(head -2 <<<"$h")"
