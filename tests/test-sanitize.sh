#!/bin/bash
# test-sanitize.sh — the whole suite once more, built with AddressSanitizer and UBSan
# (`make check-sanitize`: its own build tree, any sanitizer report fails the test it occurs in).
# Each test program of that run becomes one case here: "PASS: sanitize: PROGRAM" when all its
# cases passed under the sanitizers. Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
cd "$(dirname "$0")/.." || exit 1
if [ -n "${SG_SAN_FLAGS:-}" ]; then
	echo "SKIP: sanitize: this is the sanitizer run itself"
	exit 0
fi
B=${B:-build}
log=$B/test-logs/sanitize-run.log
mkdir -p "$B/test-logs"
make --no-print-directory B="$B" check-sanitize >"$log" 2>&1
rc=$?
n=0
while read -r status prog rest; do
	n=$((n + 1))
	if [ "$status" = ok ]; then
		echo "PASS: sanitize: $prog: $(echo "$rest" | awk '{ print $1 " passed" }')"
	else
		echo "FAIL: sanitize: $prog: $rest (log: $B-san/test-logs/)"
	fi
done < <(grep -E '^(ok|FAIL) ' "$log")
if [ $n -eq 0 ]; then
	echo "FAIL: sanitize: the sanitizer build or run failed before any test: $(grep -m1 -E 'error|Error' "$log")"
elif [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
	echo "FAIL: sanitize: make check-sanitize exited $rc: $(tail -1 "$log")"
fi
