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

# --- defect: the lookup message says `.` was searched when it was not ----------------------------
# `scalegraph run -- FFT -p{N}` with FFT in the current directory: the quick form does not
# search it (a bare name is a shell's: bin/, then PATH); the message says exactly where it
# looked and points at ./FFT, which runs.
mkdir -p "$T/cwd/sub"
cp "$SYNTH" "$T/cwd/FFT"
BIN=$(cd "$B/bin" && pwd)
msg=$(cd "$T/cwd" && PATH=/usr/bin:/bin "$SG" run --threads 1,2 --no-trace -o q.exp -- FFT -p{N} 2>&1)
rc=$?
check defect14-lookup-says-dot-searched "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/cwd/q.exp" -a \
	"$msg" = "scalegraph run: error: program 'FFT' not found in $BIN or PATH (/usr/bin:/bin); did you mean ./FFT? (the current directory is not searched, as in a shell)"
(cd "$T/cwd" && "$SG" run --threads 1,2 --no-trace --no-analyze -o q.exp -- ./FFT --size 1 --threads {N} --base 0.01 >/dev/null 2>&1)
rc=$?
got=$(q "$T/cwd/q.exp" "select group_concat(status || ' ' || argv, ';') from runs" 2>&1)
check defect14-lookup-dot-slash-runs "rc=$rc runs '$got'" \
	test $rc -eq 0 -a "$got" = "ok ./FFT --size 1 --threads 1 --base 0.01;ok ./FFT --size 1 --threads 2 --base 0.01"
# PATH unset: the default path is named as such
msg=$(cd "$T/cwd" && env -u PATH "$SG" run --threads 1,2 --dry-run -- nosuchprog {N} 2>&1)
check defect14-lookup-path-unset "got: $msg" test "$msg" = \
	"scalegraph run: error: program 'nosuchprog' not found in $BIN or PATH (/usr/local/bin:/usr/bin:/bin, the default: PATH is unset)"
# not executable: said, not "not found" alone
chmod -x "$T/cwd/FFT"
msg=$(cd "$T/cwd" && "$SG" run --threads 1,2 --dry-run -- ./FFT {N} 2>&1)
check defect14-lookup-not-executable "got: $msg" test "$msg" = \
	"scalegraph run: error: program './FFT' cannot be run: ./FFT is not executable"
chmod +x "$T/cwd/FFT"
# in a spec, a path is taken from the spec's directory (not the current one, which it used to
# fall back to) and a bare name is searched there first; the message is located at the word
printf 'program ./FFT --size 1 --threads {N}\nthreads 1 2\n' >"$T/cwd/sub/path.sgx"
msg=$(cd "$T/cwd" && "$SG" run --dry-run sub/path.sgx 2>&1)
check defect14-lookup-spec-path-from-spec-dir "got: $msg" test "$msg" = \
	"sub/path.sgx:1:9: error: program './FFT' not found: sub/./FFT does not exist; a path in a spec is taken from the spec's directory (sub): did you mean $T/cwd/FFT, in the current directory?"
printf 'program FFT --size 1 --threads {N}\nsequential nosuchseq --size 1\nthreads 1 2\n' >"$T/cwd/sub/seq.sgx"
cp "$SYNTH" "$T/cwd/sub/FFT"
msg=$(cd "$T/cwd" && PATH=/usr/bin:/bin "$SG" run --dry-run sub/seq.sgx 2>&1)
check defect14-lookup-sequential-located "got: $msg" test "$msg" = \
	"sub/seq.sgx:2:12: error: sequential program 'nosuchseq' not found in sub, $BIN or PATH (/usr/bin:/bin)"

# --- defect: a command without {N} runs the same command at every N without a word -------------
# The runner passes the thread count only through {N}: without it every N ran `FFT -p4`.
fix="put {N} where it takes its thread count (e.g. --threads {N}, -p{N}, or a launcher: env OMP_NUM_THREADS={N} PROGRAM), or give --same-command if the program chooses its threads itself"
msg=$(cd "$T/cwd" && "$SG" run --threads 1,2,4 -o same.exp -- ./FFT -p4 2>&1)
rc=$?
check defect14-same-command-at-every-n "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/cwd/same.exp" -a \
	"$msg" = "scalegraph run: error: the command after -- has no {N}: it would run the same at every thread count (1, 2, 4); $fix"
printf 'program ./FFT --size 1 --base 0.01\nthreads 1 2\n' >"$T/cwd/same.sgx"
msg=$(cd "$T/cwd" && "$SG" run same.sgx 2>&1)
rc=$?
check defect14-same-command-spec-located "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/cwd/same.exp" -a \
	"$msg" = "same.sgx:1:9: error: the program's command has no {N}: it would run the same at every thread count (1, 2); $fix"
# --same-command says it is meant: the runs are made and the store keeps the flag
(cd "$T/cwd" && "$SG" run --same-command --no-trace --no-analyze same.sgx >/dev/null 2>&1)
rc=$?
got=$(q "$T/cwd/same.exp" "select (select group_concat(n_threads || ' ' || status || ' ' || argv, ';') from runs where kind = 'par'), overrides from spec" 2>&1)
check defect14-same-command-flag "rc=$rc: $got" test $rc -eq 0 -a \
	"$got" = "1 ok ./FFT --size 1 --base 0.01;2 ok ./FFT --size 1 --base 0.01|--same-command"
# one thread count compares nothing: no {N} is fine there
(cd "$T/cwd" && "$SG" run --threads 4 --no-trace --no-analyze -o one.exp -- ./FFT --size 1 --base 0.01 >/dev/null 2>&1)
rc=$?
check same_command_one_thread_count_allowed "rc=$rc" test $rc -eq 0

# --- defect: a run measured without a trace left a default trace directory behind --------------
# A program built by `scalegraph cc`, run with --no-trace, traced itself into the working
# directory at every run (sgtrace-PROGRAM-TIME-PID/: nine in zlib's tree after its tests). The
# runner now gives it SG_TRACE=0.
mkdir -p "$T/notrace"
(cd "$T/notrace" && "$SG" run --threads 1,2 --no-trace --no-analyze -o nt.exp -- \
	"$BIN/billiards-traced" --balls 50 --steps 5 --threads {N} >nt.out 2>&1)
rc=$?
left=$(cd "$T/notrace" && ls -d sgtrace* 2>/dev/null | tr '\n' ' ')
got=$(q "$T/notrace/nt.exp" "select group_concat(status, ' ') from runs" 2>&1)
check defect14-untraced-run-leaves-no-trace "rc=$rc runs '$got', left behind: '$left'" \
	test $rc -eq 0 -a "$got" = "ok ok" -a -z "$left"
