#!/bin/bash
# test-demo.sh — `make run`'s script end to end, headless, on the reduced billiards series:
# the series runs, the report has the matrix and the unavailable sources, the CSVs have their
# headers, every window is rendered to PNG and SVG, and a second run resumes instead of redoing.
set -u
B=${B:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1: $3"; fi; }
demo() { env -u DISPLAY B="$B" SG_DEMO_SPEC=examples/billiards/billiards-small.sgx \
	SG_DEMO_DIR="$tmp/demo" ./scripts/run-demo.sh; }

demo >"$tmp/out1" 2>&1
rc=$?
check "demo exits 0" "[ $rc -eq 0 ]" "status $rc: $(tail -3 "$tmp/out1")"
check "report has the matrix" "grep -q '^Scalability matrix' '$tmp/demo/report.txt'" "no matrix"
check "report says what is unavailable" "grep -q '^Unavailable' '$tmp/demo/report.txt'" \
	"no Unavailable section"
check "csv header" "head -1 '$tmp/demo/report.csv' | grep -q '^method,N,W,reps,T_para,T_seq,E,S,L,'" \
	"$(head -1 "$tmp/demo/report.csv")"
check "matrix csv header" "head -1 '$tmp/demo/matrix.csv' | grep -q '^N,N2,time_bound,e_conserved,memory_bound'" \
	"$(head -1 "$tmp/demo/matrix.csv")"
for w in browser time latency sources parallelism matrix; do
	check "plot $w.png" "[ -s '$tmp/demo/plots/$w.png' ] && [ -s '$tmp/demo/plots/$w.svg' ]" "missing"
done
check "says where the plots are" "grep -q 'plots are in $tmp/demo/plots' '$tmp/out1'" "no pointer"

demo >"$tmp/out2" 2>&1
rc=$?
check "second run exits 0" "[ $rc -eq 0 ]" "status $rc"
check "second run resumes" "grep -q ' 0 runs made' '$tmp/out2'" "$(grep 'runs made' "$tmp/out2")"
