#!/bin/bash
# test-run-edges.sh — the rough edges of `scalegraph run` a new user met (issue 14), each named
# after its defect and reproducing the reported case: the program lookup's message said `.` was
# searched when it was not; a command without {N} ran the same command at every N without a
# word; spec expressions had no log2 (FFT's size needed a polynomial).
set -u
B=${B:-build}
SG="$(cd "$B/bin" && pwd)/scalegraph"
SYNTH="$(cd "$B/collector-tests" && pwd)/synth"
. "$(dirname "$0")/tlib.sh" edges

q() { sqlite3 "$1/experiment.db" "$2"; }

# --- defect: spec expressions have no log2 -----------------------------------------------------
# FFT takes log2 of its size (-m M for 2^M points): the exponent follows the size that doubles
# with N, and W = size * log2(size).
cat >"$T/fft.sgx" <<EOS
program $SYNTH --size {m} --threads {N} --base 0.01 --per 0.0001
threads 1 2 4
param size 1024
param m 10
method fft size=1024*N m=log2(1024*N)
work size*log2(size)
EOS
"$SG" run --no-analyze "$T/fft.sgx" -o "$T/fft.exp" >"$T/fft.out" 2>&1
rc=$?
got="" want=""
for n in 1 2 4; do
	s=$((1024 * n))
	m=$(awk -v s=$s 'BEGIN { printf "%d", log(s) / log(2) }')
	w=$(awk -v s=$s -v m=$m 'BEGIN { printf "%d", s * m }')
	got="$got${got:+;}$(q "$T/fft.exp" "select n_threads || ':' || argv || ':' || cast(work as int) from runs where kind = 'par' and n_threads = $n and sizes = 'size=$s m=$m'")"
	want="$want${want:+;}$n:$SYNTH --size $m --threads $n --base 0.01 --per 0.0001:$w"
done
check defect14-spec-no-log2 "rc=$rc: $(tail -2 "$T/fft.out"); runs '$got', want '$want'" \
	test $rc -eq 0 -a "$got" = "$want"
# a domain error is located at the function, at the thread count where it happens, and leaves
# no store behind
sed 's/m=log2(1024\*N)/m=log2(N-1)/' "$T/fft.sgx" >"$T/fft-dom.sgx"
msg=$("$SG" run "$T/fft-dom.sgx" -o "$T/fft-dom.exp" 2>&1)
rc=$?
check defect14-spec-log2-domain-located "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/fft-dom.exp" -a \
	"$msg" = "$T/fft-dom.sgx:5:26: error: method fft at N = 1: log2(0) is not defined (the argument must be > 0)"
