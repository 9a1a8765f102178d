#!/bin/bash
# test-dump.sh — `scalegraph dump`: the exact lines of a synthetic trace written with the writer
# API (mktrace.c, every time and name known by hand), its summary counts, a damaged and a
# cut-short copy (reported as FILE: chunk K: reason, the rest still printed), the trace of a
# real traced run (crashee.c), --help, and the exit codes and messages for a missing or
# corrupt directory. Prints PASS:/FAIL: lines (tests/run-tests.sh).
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
sg=$B/bin/scalegraph
mktrace=$B/tests/tracelib/mktrace
crashee=$B/tests/tracelib/crashee
. "$(dirname "$0")/tlib.sh" dump "$dump" "$mktrace" "$crashee"

# --- help and usage --------------------------------------------------------------------------
out=$("$dump" --help); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q '^usage: scalegraph dump' && echo "$out" | grep -q -- '--summary'
ok help $? "exit $rc, output: $(echo "$out" | head -2)"
if [ -x "$sg" ]; then
	out=$("$sg" dump --help); rc=$?
	[ $rc -eq 0 ] && echo "$out" | grep -q '^usage: scalegraph dump'
	ok help-through-dispatcher $? "exit $rc"
fi
"$dump" >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'scalegraph-dump: error: no trace directory given' "$work/err"
ok usage-no-argument $? "exit $rc, stderr: $(head -1 "$work/err")"
"$dump" --bogus "$work" >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unexpected argument '--bogus'" "$work/err"
ok usage-bad-option $? "exit $rc, stderr: $(head -1 "$work/err")"

# --- a synthetic trace with hand-known lines -------------------------------------------------
"$mktrace" "$work/syn" || { echo "FAIL: synthetic: mktrace failed"; exit 1; }
"$dump" "$work/syn" >"$work/syn.out" 2>"$work/syn.err"; rc=$?
ok synthetic-exit-0 $rc "exit $rc: $(cat "$work/syn.err")"
cat >"$work/syn.expected" <<'EOF'
0 0 thread_begin thread 0 parent -
10 0 region_begin measured
20 0 create_begin -
40 0 create_end thread 1 rc=0
50 1 thread_begin thread 1 parent 0
60 0 func_enter solve (prog.c:42)
100 0 barrier_arrive barrier#1 episode 1
300 1 lock_request mutex#2 mutex
310 1 lock_acquired mutex#2 mutex
320 1 cond_wait_begin cond#3 mutex#2
321 1 lock_release mutex#2 mutex
380 1 lock_acquired mutex#2 mutex
381 1 cond_wait_end cond#3 rc=0
390 1 lock_release mutex#2 mutex
400 1 barrier_arrive barrier#1 episode 1
450 0 barrier_leave barrier#1 episode 1
450 1 barrier_leave barrier#1 episode 1
455 0 lock_request mutex#2 mutex try
456 0 lock_failed mutex#2 mutex try
460 0 counter items=12
470 0 func_exit solve (prog.c:42)
480 0 join_begin thread 1
590 1 thread_end thread 1
600 0 join_end thread 1 rc=0
610 0 region_end measured
700 0 thread_end thread 0
EOF
sed '/^# summary/,$d' "$work/syn.out" >"$work/syn.events"
diff -u "$work/syn.expected" "$work/syn.events" >"$work/syn.diff"
ok synthetic-event-lines $? "$(head -12 "$work/syn.diff" | tr '\n' '|')"

# summary: "LINE" must appear exactly
expect_line() {
	grep -qxF -- "$2" "$3"
	ok "$1" $? "no line '$2' in $(basename "$3")"
}
expect_line synthetic-summary-totals \
	"threads 2, events 26, lost 0, damaged chunks 0, streams cut short 0" "$work/syn.out"
expect_line synthetic-summary-thread0 \
	"thread 0: parent -, tid 100, 16 records in 2 chunks, 0 lost, 0 damaged chunks, complete" \
	"$work/syn.out"
expect_line synthetic-summary-thread1 \
	"thread 1: parent 0, tid 101, 11 records in 2 chunks, 0 lost, 0 damaged chunks, complete" \
	"$work/syn.out"
kinds=$(sed -n '/^events per kind:/,/^problems:/p' "$work/syn.out" | awk 'NF == 2 && $1 != "problems:" { printf "%s=%s ", $1, $2 }')
want="thread_begin=2 thread_end=2 func_enter=1 func_exit=1 region_begin=1 region_end=1 barrier_arrive=2 barrier_leave=2 lock_request=2 lock_acquired=2 lock_failed=1 lock_release=2 cond_wait_begin=1 cond_wait_end=1 create_begin=1 create_end=1 join_begin=1 join_end=1 counter=1 "
[ "$kinds" = "$want" ]
ok synthetic-summary-per-kind $? "got '$kinds'"
expect_line synthetic-unavailable-counter \
	"counter 2: cycles [events] unavailable: no hardware PMU (ENOENT)" "$work/syn.out"
expect_line synthetic-no-problems "problems: 0" "$work/syn.out"
"$dump" --summary "$work/syn" >"$work/sum.out" 2>&1
[ "$(head -1 "$work/sum.out")" = "# summary of $work/syn" ] && cmp -s <(sed -n '/^# summary/,$p' "$work/syn.out") "$work/sum.out"
ok summary-only $? "--summary output differs from the summary of the full dump"

# --- damage: a flipped byte in chunk 1 of thread 0 -------------------------------------------
"$mktrace" "$work/dmg" damage || { echo "FAIL: damaged: mktrace failed"; exit 1; }
"$dump" "$work/dmg" >"$work/dmg.out" 2>"$work/dmg.err"; rc=$?
ok damaged-exit-0 $rc "exit $rc"
grep -qxF "$work/dmg/thread.0.sgs: chunk 1: bad checksum" "$work/dmg.err"
ok damaged-reported-on-stderr $? "stderr: $(cat "$work/dmg.err")"
expect_line damaged-reported-in-summary "  $work/dmg/thread.0.sgs: chunk 1: bad checksum" \
	"$work/dmg.out"
# Chunk 0 of thread 0 (its first 8 records, up to t=455) and all of thread 1 are still printed;
# chunk 1 (from t=456 on) is not.
sed '/^# summary/,$d' "$work/dmg.out" >"$work/dmg.events"
grep -vF -f "$work/dmg.events" "$work/syn.expected" >"$work/dmg.missing"
missing=$(awk '{ print $2 }' "$work/dmg.missing" | sort -u | tr -d '\n')
[ "$(wc -l <"$work/dmg.events")" -eq 19 ] && [ "$missing" = 0 ] &&
	grep -qxF "455 0 lock_request mutex#2 mutex try" "$work/dmg.events" &&
	! grep -qF "456 0 lock_failed" "$work/dmg.events"
ok damaged-rest-is-read $? "$(wc -l <"$work/dmg.events") lines, missing threads '$missing'"
expect_line damaged-summary \
	"threads 2, events 19, lost 0, damaged chunks 1, streams cut short 0" "$work/dmg.out"
"$dump" --strict --summary "$work/dmg" >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ]
ok damaged-strict-exit-3 $? "exit $rc"
"$dump" --strict --summary "$work/syn" >/dev/null 2>&1; rc=$?
ok intact-strict-exit-0 $rc "exit $rc"

# --- cut short: thread 1's stream ends inside its second chunk -------------------------------
cp -r "$work/syn" "$work/cut"
truncate -s $((64 + 64 + 8 * 16 + 64 + 16)) "$work/cut/thread.1.sgs"
"$dump" "$work/cut" >"$work/cut.out" 2>"$work/cut.err"; rc=$?
[ $rc -eq 0 ] && grep -q "^$work/cut/thread.1.sgs: chunk 1: cut short" "$work/cut.err" &&
	grep -q "thread.1.sgs: no trailer" "$work/cut.err" &&
	grep -q "^thread 1: .* 8 records in 1 chunks, lost: unknown (no trailer: the writer was killed), 0 damaged chunks, cut short$" "$work/cut.out"
ok cut-short-reads-whole-chunks $? "exit $rc: $(head -3 "$work/cut.err" | tr '\n' '|')"
expect_line cut-short-summary \
	"threads 2, events 23, lost unknown (0 counted; 1 stream without a trailer), damaged chunks 0, streams cut short 1" "$work/cut.out"

# --- missing and corrupt directories ---------------------------------------------------------
# fails NAME DIR MESSAGE: dump exits 1 and says MESSAGE on stderr
fails() {
	"$dump" "$2" >"$work/f.out" 2>"$work/f.err"; local rc=$?
	[ $rc -eq 1 ] && grep -qxF "scalegraph-dump: error: $3" "$work/f.err" && [ ! -s "$work/f.out" ]
	ok "$1" $? "exit $rc, stderr '$(cat "$work/f.err")'"
}
fails missing-dir "$work/nonexistent" "$work/nonexistent: No such file or directory"
fails not-a-dir "$work/syn.out" "$work/syn.out: Not a directory"
mkdir "$work/empty"
fails empty-dir "$work/empty" "$work/empty/defs.sgd: no definitions file: not a trace directory"
cp -r "$work/syn" "$work/badmagic"
printf 'XXXX' | dd of="$work/badmagic/defs.sgd" conv=notrunc status=none
fails corrupt-defs-magic "$work/badmagic" \
	"$work/badmagic/defs.sgd: not a scalegraph trace file (bad magic)"
cp -r "$work/syn" "$work/badhdr"
printf '\x07' | dd of="$work/badhdr/defs.sgd" bs=1 seek=20 conv=notrunc status=none
fails corrupt-defs-header "$work/badhdr" "$work/badhdr/defs.sgd: file header: bad checksum"
cp -r "$work/syn" "$work/shortdefs"
truncate -s 30 "$work/shortdefs/defs.sgd"
fails corrupt-defs-cut "$work/shortdefs" "$work/shortdefs/defs.sgd: file header cut short"

# --- a real traced run -----------------------------------------------------------------------
n=2000
SG_TRACE_DIR="$work/real" SG_TRACE_BUFFER=16K "$crashee" ok $n >/dev/null 2>"$work/real.run"; rc=$?
ok real-run $rc "crashee exit $rc: $(cat "$work/real.run")"
"$dump" "$work/real" >"$work/real.out" 2>"$work/real.err"; rc=$?
ok real-exit-0 $rc "exit $rc: $(head -3 "$work/real.err")"
[ ! -s "$work/real.err" ]
ok real-no-problems-on-stderr $? "$(head -3 "$work/real.err")"
expect_line real-problems-0 "problems: 0" "$work/real.out"
sed '/^# summary/,$d' "$work/real.out" >"$work/real.events"
total=$(sed -n 's/^threads 2, events \([0-9]*\), lost 0, damaged chunks 0, streams cut short 0$/\1/p' "$work/real.out")
[ -n "$total" ] && [ "$(wc -l <"$work/real.events")" -eq "$total" ]
ok real-summary-counts-every-line $? "summary says '$total' events, $(wc -l <"$work/real.events") lines"
# Each of the two threads locked and unlocked its own mutex n times.
for k in lock_request lock_acquired lock_release; do
	for th in 0 1; do
		c=$(awk -v th=$th -v k=$k '$2 == th && $3 == k' "$work/real.events" | wc -l)
		[ "$c" -eq $n ] || { echo "FAIL: real-lock-events: thread $th has $c $k, expected $n"; continue 2; }
	done
	echo "PASS: real-lock-events-$k"
done
expect_line real-per-kind "  lock_request         $((2 * n))" "$work/real.out"
awk 'BEGIN { bad = 0 } { if ($1 < last) bad = NR; last = $1 } END { exit bad != 0 }' "$work/real.events"
ok real-time-order $? "times go backwards"
grep -q "^[0-9]* 0 create_end thread 1 rc=0$" "$work/real.events" &&
	grep -q "^[0-9]* 1 thread_begin thread 1 parent 0$" "$work/real.events" &&
	grep -q "^[0-9]* 0 join_end thread 1 rc=0$" "$work/real.events"
ok real-create-join $? "create/join lines missing"
grep -Eq '^[0-9]+ 0 lock_request mutex#[0-9]+ mutex$' "$work/real.events"
ok real-lock-line-format $? "$(grep -m1 lock_request "$work/real.events")"
grep -q "^pid [0-9]*, clock \(tsc ([0-9.]* ns/tick from [0-9]* clock pairs)\|ns\)$" "$work/real.out"
ok real-clock-line $? "$(grep '^pid' "$work/real.out")"
