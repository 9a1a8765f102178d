#!/bin/bash
# test-golden.sh — the reports of the traces committed under analyzer/tests/golden/ (small real
# traces of the bundled examples, a lock-heavy synthetic one of bench/load_trace.c, a trace with
# call sites) compared byte for byte with the outputs committed beside them (NAME.out: text with
# the compensated figures, JSON, CSV; written by analyzer/tests/an_golden.c as if on 2 CPUs).
# A change to the analysis that moves a figure fails here; one that is meant must say so and
# refresh the outputs: `analyzer/tests/test-golden.sh --update`.
set -u
B=${B:-build}
G=$(cd "$(dirname "$0")" && pwd)/golden
P=$(cd "$B" && pwd)/tests/analyzer/an_golden
update=0
[ "${1:-}" = --update ] && update=1
if [ ! -x "$P" ]; then
	echo "SKIP: golden_reports: $P is not built"
	exit 0
fi
T=$(mktemp -d /tmp/sg-test-golden.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
cd "$G" || exit 1
for d in */; do
	n=${d%/}
	args=()
	[ -f "$n.args" ] && read -r -a args < "$n.args"
	"$P" "$n" "${args[@]}" > "$T/$n.out" 2>&1
	if [ $update = 1 ]; then
		cp "$T/$n.out" "$G/$n.out"
		echo "updated: $n.out"
	elif cmp -s "$T/$n.out" "$G/$n.out"; then
		echo "PASS: golden_$n"
	else
		echo "FAIL: golden_$n: the report differs from $n.out:"
		diff "$G/$n.out" "$T/$n.out" | head -20
		fails=$((fails + 1))
	fi
done
exit 0
