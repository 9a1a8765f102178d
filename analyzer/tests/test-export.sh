#!/bin/bash
# test-export.sh — `scalegraph export` end to end: a synthetic trace with every event kind and
# its sched stream, real traced billiards and taskfarm runs, and a tiny semaphore program built
# with `scalegraph cc` whose forked child makes a trace root of two processes; all exported to
# OTF2 (read back with otf2-print) and to Chrome JSON (validated with python3's json module).
# The counts per kind must equal what `scalegraph dump --summary` counts; the synthetic trace's
# semaphore slices and off-CPU spans are checked one by one, semprog's semaphore events against
# counts made by hand. Then damage, an empty trace, a missing run, usage.
# Prints PASS/FAIL/SKIP lines (tests/run-tests.sh).
#
# test_export_check.py checks the event kinds of format 1.1. The parts format 1.2 added
# (semaphores, the sched stream) are checked by test_export_check_12.py, which also runs
# test_export_check's checks on copies of the files without those parts.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
MK="$B/tests/export/test_export_mktrace"
TRACED="$B/bin/billiards-traced"
SGCC="$B/libexec/scalegraph/scalegraph-cc"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
fail() { echo "FAIL: $1: $2"; }

# check_chrome NAME TRACE JSON [synthetic|semprog]: valid JSON whose counts per kind equal
# dump's, nesting right, off-CPU slices leaves. Sets off_cpu to its number of off-CPU slices.
off_cpu=-
check_chrome() {
	local out
	off_cpu=-
	"$SG" dump --summary "$2" >"$tmp/summary.txt" 2>/dev/null
	if ! python3 -m json.tool "$3" >/dev/null 2>"$tmp/json.err"; then
		fail "$1" "invalid JSON: $(head -c 300 "$tmp/json.err")"
		return
	fi
	if out=$(python3 "$here/test_export_check_12.py" chrome "$here" "$tmp" "$tmp/summary.txt" "$3" \
			"${4:-}" 2>"$tmp/py.err"); then
		off_cpu=$out
		pass "$1"
	else
		fail "$1" "$(cat "$tmp/py.err" | tr '\n' ';')"
	fi
}

# check_otf2 NAME TRACE DIR [synthetic|semprog]: otf2-print reads it without a warning; counts
# equal dump's; as many off-CPU regions as check_chrome found slices ($off_cpu).
check_otf2() {
	"$SG" dump --summary "$2" >"$tmp/summary.txt" 2>/dev/null
	if ! otf2-print -G "$3/traces.otf2" >"$tmp/defs.txt" 2>"$tmp/otf2.err" ||
	   ! otf2-print "$3/traces.otf2" >"$tmp/events.txt" 2>>"$tmp/otf2.err"; then
		fail "$1" "otf2-print failed: $(head -c 300 "$tmp/otf2.err")"
		return
	fi
	if [ -s "$tmp/otf2.err" ]; then
		fail "$1" "otf2-print warns: $(head -c 300 "$tmp/otf2.err")"
	elif python3 "$here/test_export_check_12.py" otf2 "$here" "$tmp" "$tmp/summary.txt" "$tmp/defs.txt" \
			"$tmp/events.txt" "$off_cpu" "${4:-}" >/dev/null 2>"$tmp/py.err"; then
		pass "$1"
	else
		fail "$1" "$(cat "$tmp/py.err" | tr '\n' ';')"
	fi
}

command -v python3 >/dev/null || { echo "SKIP: export: python3 missing"; exit 0; }
have_otf2_print=1
command -v otf2-print >/dev/null || have_otf2_print=0

# --- synthetic trace, given as a run directory (RUN/trace) ---
mkdir -p "$tmp/run"
if ! "$MK" "$tmp/run/trace" 2>"$tmp/mk.err"; then
	fail "synthetic trace" "$(cat "$tmp/mk.err")"
	exit 0
fi
if "$SG" export --chrome "$tmp/run" "$tmp/syn.json" 2>"$tmp/err.txt"; then
	check_chrome "chrome: synthetic trace, counts per kind equal dump's; semaphore slices, \
CPU samples and the 8 off-CPU slices one by one" "$tmp/run/trace" "$tmp/syn.json" synthetic
	if out=$(python3 "$here/test_export_check_12.py" chrome-synthetic "$here" "$tmp" "$tmp/syn.json" 2>&1)
	then
		pass "chrome: synthetic trace, names, timestamps, args"
	else
		fail "chrome: synthetic trace, names, timestamps, args" "$out"
	fi
else
	fail "chrome: synthetic trace" "exit $?: $(cat "$tmp/err.txt")"
fi
if [ $have_otf2_print = 0 ]; then
	echo "SKIP: otf2: otf2-print missing (package otf2-tools)"
elif "$SG" export --otf2 "$tmp/run" "$tmp/syn-otf2" 2>"$tmp/err.txt"; then
	check_otf2 "otf2: synthetic trace, counts, locations, lock order, clock; semaphore regions \
and results, the 8 off-CPU regions, CPU metrics" "$tmp/run/trace" "$tmp/syn-otf2" synthetic
	if "$SG" export --otf2 "$tmp/run" "$tmp/syn-otf2" 2>"$tmp/err.txt"; then
		fail "otf2: existing archive kept" "a second export into the same DIR succeeded"
	elif grep -q "traces.otf2: exists" "$tmp/err.txt"; then
		pass "otf2: existing archive kept"
	else
		fail "otf2: existing archive kept" "$(cat "$tmp/err.txt")"
	fi
else
	fail "otf2: synthetic trace" "exit $?: $(cat "$tmp/err.txt")"
fi

# export_both NAME RUN TRACE [semprog]: both formats of a real run, each checked against dump's
# counts (and each other's off-CPU count). The Chrome export's stderr stays in
# $tmp/chrome-err.txt.
export_both() {
	if "$SG" export --chrome "$2" "$tmp/real.json" 2>"$tmp/chrome-err.txt"; then
		check_chrome "chrome: $1, counts per kind equal dump's" "$3" "$tmp/real.json" "${4:-}"
	else
		off_cpu=-
		fail "chrome: $1" "$(cat "$tmp/chrome-err.txt")"
	fi
	rm -rf "$tmp/real.json" "$tmp/real-otf2"
	if [ $have_otf2_print = 0 ]; then
		echo "SKIP: otf2: $1: otf2-print missing"
	elif "$SG" export --otf2 "$2" "$tmp/real-otf2" 2>"$tmp/err.txt"; then
		check_otf2 "otf2: $1, counts per kind equal dump's" "$3" "$tmp/real-otf2" "${4:-}"
	else
		fail "otf2: $1" "$(cat "$tmp/err.txt")"
	fi
	rm -rf "$tmp/real-otf2"
}

# --- real runs: billiards-traced with SG_TRACE_DIR (a trace root), and as a run of an
# experiment store made by `scalegraph run` (and a run of one made with --no-trace); taskfarm
# built with `scalegraph cc --sg-all-functions` (functions, condition waits) ---
if [ ! -x "$TRACED" ]; then
	echo "SKIP: real runs: $TRACED not built"
elif ! SG_TRACE_DIR="$tmp/bt" "$TRACED" --balls 300 --steps 20 --threads 2 \
		>/dev/null 2>"$tmp/bt.err"; then
	fail "real run" "billiards-traced failed: $(tail -1 "$tmp/bt.err")"
else
	export_both "billiards-traced N=2" "$tmp/bt" "$tmp/bt"
	# the kernel's switch times and the thread's own events on one clock: none of a thread's
	# events between its switch out and its switch in (a loose clock pair once put 57 % of
	# a 140 ms run's spans 2-4 us off)
	SG_TRACE_DIR="$tmp/clk" "$TRACED" --balls 1500 --steps 150 --threads 2 >/dev/null 2>&1
	"$SG" export --chrome "$tmp/clk" "$tmp/clk.json" 2>/dev/null
	if python3 - "$tmp/clk.json" <<-'PY'
	import json, sys
	s = json.load(open(sys.argv[1]))["otherData"]["sched"]
	ok = s["off_cpu"] > 100 and s["off_cpu_fitted"] == 0 and s["off_cpu_cut"] == 0
	print("%d spans, %d fitted, %d cut" % (s["off_cpu"], s["off_cpu_fitted"], s["off_cpu_cut"]),
	      file=sys.stderr)
	sys.exit(0 if ok else 1)
	PY
	then
		pass "billiards-traced: switch records and thread events agree on time (no span fitted)"
	else
		fail "billiards-traced: clocks" "switches and thread events disagree (see above)"
	fi
	rm -rf "$tmp/clk" "$tmp/clk.json"
	cat >"$tmp/bil.sgx" <<-EOF
	program     $(abs "$TRACED") --balls {balls} --steps 10 --threads {N}
	sequential  $(abs "$B/bin/billiards-seq") --balls {balls} --steps 10
	threads     2
	repeat      1
	param balls 200
	method fixed balls=200
	EOF
	XDG_CACHE_HOME="$tmp/cache" "$SG" run "$tmp/bil.sgx" -o "$tmp/exp" >"$tmp/run.out" 2>&1
	par=$(ls -d "$tmp"/exp/runs/*/trace 2>/dev/null | head -1)
	if [ -z "$par" ]; then
		fail "experiment store run" "scalegraph run made no traced run: $(tail -2 "$tmp/run.out")"
	else
		export_both "run directory of an experiment store" "${par%/trace}" "$par"
	fi
	XDG_CACHE_HOME="$tmp/cache" "$SG" run "$tmp/bil.sgx" -o "$tmp/exp-plain" --no-trace \
		>"$tmp/run.out" 2>&1
	seq=$(ls -d "$tmp"/exp-plain/runs/* 2>/dev/null | head -1)
	if [ -z "$seq" ]; then
		fail "untraced run of an experiment store" "scalegraph run --no-trace made no run: $(tail -2 "$tmp/run.out")"
	else
		"$SG" export --chrome "$seq" "$tmp/seq.json" 2>"$tmp/err.txt"
		rc=$?
		if [ $rc -eq 2 ] && grep -q "no trace here" "$tmp/err.txt"; then
			pass "untraced run of an experiment store: exit 2, says there is no trace"
		else
			fail "untraced run of an experiment store" "exit $rc: $(cat "$tmp/err.txt")"
		fi
	fi
fi
if [ ! -x "$SGCC" ] || [ ! -f examples/taskfarm/taskfarm_par.c ]; then
	echo "SKIP: taskfarm: scalegraph cc or the taskfarm sources missing"
elif ! SG_CC="${CC:-cc}" "$SGCC" --sg-static --sg-all-functions -O2 -Iexamples/common \
		examples/taskfarm/taskfarm_par.c examples/taskfarm/farm_task.c \
		examples/taskfarm/farm_cli.c examples/common/ex_cli.c examples/common/ex_threads.c \
		-pthread -o "$tmp/taskfarm" >"$tmp/cc.err" 2>&1; then
	fail "taskfarm" "scalegraph cc failed: $(tail -3 "$tmp/cc.err")"
elif ! SG_TRACE_DIR="$tmp/tf" "$tmp/taskfarm" --tasks 200 --size 200 --threads 3 --queue 2 \
		>/dev/null 2>"$tmp/tf.err"; then
	fail "taskfarm" "traced taskfarm failed: $(tail -1 "$tmp/tf.err")"
else
	export_both "taskfarm N=3, all functions" "$tmp/tf" "$tmp/tf"
fi

# --- semprog: a consumer (thread 1) waits on a semaphore the producer (thread 2) posts every
# 500 us, 20 items; a sem_trywait finds it busy, a sem_timedwait times out; three threads spin
# 60 ms each (5 threads busy on the machine's CPUs: some are preempted, runnable); first of all
# a forked child (one sem_init, one sem_wait) makes the trace root hold two processes. By hand,
# in the main process: sem_init 2, sem_wait_begin/end 22 (20 taken, 1 busy, 1 timed out),
# sem_post 20; off CPU: the producer blocked at least 20 times (usleep), the consumer at least
# once, some thread runnable at least once ---
cat >"$tmp/semprog.c" <<'EOF'
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#define N_ITEMS 20
static sem_t items, never;
static volatile unsigned long sink;

static void *consumer(void *arg)
{
	for (int i = 0; i < N_ITEMS; i++)
		while (sem_wait(&items) != 0)
			;
	return arg;
}

static void *producer(void *arg)
{
	for (int i = 0; i < N_ITEMS; i++) {
		usleep(500);
		sem_post(&items);
	}
	return arg;
}

static void *spinner(void *arg)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int k = 0; k < 1000; k++)
			sink += (unsigned long)k;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 60000000L);
	return arg;
}

int main(void)
{
	pid_t child = fork();
	if (child == 0) {
		sem_t s;
		sem_init(&s, 0, 1);
		sem_wait(&s);
		return 0;
	}
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 1;
	sem_init(&items, 0, 0);
	sem_init(&never, 0, 0);
	if (sem_trywait(&items) == 0 || errno != EAGAIN)
		return 1;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 2000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	if (sem_timedwait(&never, &ts) == 0 || errno != ETIMEDOUT)
		return 1;
	pthread_t c, p, s[3];
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&s[i], NULL, spinner, NULL);
	pthread_join(c, NULL);
	pthread_join(p, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(s[i], NULL);
	printf("%lu\n", sink & 1);
	return 0;
}
EOF
if [ ! -x "$SGCC" ]; then
	echo "SKIP: semprog: scalegraph cc missing"
elif ! SG_CC="${CC:-cc}" "$SGCC" --sg-static -O2 "$tmp/semprog.c" -pthread -o "$tmp/semprog" \
		>"$tmp/cc.err" 2>&1; then
	fail "semprog" "scalegraph cc failed: $(tail -3 "$tmp/cc.err")"
elif ! SG_TRACE_DIR="$tmp/sp" "$tmp/semprog" >/dev/null 2>"$tmp/sp.err"; then
	fail "semprog" "traced semprog failed: $(tail -1 "$tmp/sp.err")"
else
	sched=$("$SG" dump --summary "$tmp/sp" 2>/dev/null | grep "^sched:")
	case $sched in
	*unavailable*|*"not recorded"*) echo "SKIP: semprog: no off-CPU spans to check: $sched" ;;
	esac
	export_both "semprog: semaphores (counts by hand), off-CPU spans of the consumer, the \
producer and the spinners" "$tmp/sp" "$tmp/sp" semprog
	main="" kid=""
	for d in "$tmp"/sp/proc.*; do
		if "$SG" dump --summary "$d" 2>/dev/null | grep -q "^pid [0-9]* (child of"; then
			kid=${d##*.}
		else
			main=${d##*.}
		fi
	done
	if grep -q "holds 2 processes; exporting pid $main " "$tmp/chrome-err.txt" &&
	   grep -q "not exported: pid $kid (child of $main): $tmp/sp/proc.$kid\$" \
			"$tmp/chrome-err.txt"; then
		pass "trace root of two processes: the main one exported, the child named on stderr"
	else
		fail "trace root of two processes" "main $main, child $kid: $(cat "$tmp/chrome-err.txt")"
	fi
	if "$SG" export --chrome "$tmp/sp/proc.$kid" "$tmp/kid.json" 2>"$tmp/err.txt" &&
	   python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(1 for e in d["traceEvents"] if e.get("cat") == "sem" and e["ph"] in "BE")
sys.exit(0 if n == 2 and all(e["pid"] == int(sys.argv[2]) for e in d["traceEvents"]) else 1)
' "$tmp/kid.json" "$kid"; then
		pass "the forked child exported by naming its directory (its one sem wait)"
	else
		fail "the forked child exported by naming its directory" "$(cat "$tmp/err.txt")"
	fi
	"$SG" export --chrome --no-sched "$tmp/sp" "$tmp/nosched.json" 2>/dev/null
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["otherData"]["sched"]
sys.exit(0 if s["exported"] is False and s["off_cpu"] == 0 and
         not any(e.get("cat") == "sched" for e in d["traceEvents"]) else 1)
' "$tmp/nosched.json"; then
		pass "--no-sched: no off-CPU slices, no CPU samples"
	else
		fail "--no-sched" "sched events left in the JSON"
	fi
fi

# --- damage: what is readable is exported, the chunk is named ---
"$MK" "$tmp/damaged" damage 2>/dev/null
"$SG" export --chrome "$tmp/damaged" "$tmp/damaged.json" 2>"$tmp/err.txt"
rc=$?
if [ $rc -ne 0 ]; then
	fail "damaged trace: partial export" "exit $rc: $(cat "$tmp/err.txt")"
elif ! grep -q "thread.0.sgs: chunk 1: " "$tmp/err.txt"; then
	fail "damaged trace: partial export" "no 'thread.0.sgs: chunk 1: reason' line: $(cat "$tmp/err.txt")"
elif ! python3 "$here/test_export_check.py" chrome-nested "$tmp/damaged.json" >"$tmp/py.txt" 2>&1
then
	fail "damaged trace: partial export" "$(cat "$tmp/py.txt")"
else
	pass "damaged trace: partial export, chunk reported, slices still nested"
fi
if [ $have_otf2_print = 1 ]; then
	if "$SG" export --otf2 "$tmp/damaged" "$tmp/damaged-otf2" 2>/dev/null &&
	   otf2-print "$tmp/damaged-otf2/traces.otf2" >/dev/null 2>&1; then
		pass "damaged trace: OTF2 readable"
	else
		fail "damaged trace: OTF2 readable" "export or otf2-print failed"
	fi
fi

# --- nothing readable, missing run, run without a trace, usage ---
# expect_exit NAME RC PATTERN ARGS...: `scalegraph export ARGS` exits RC, stderr has PATTERN.
expect_exit() {
	local name=$1 want=$2 pattern=$3 rc
	shift 3
	"$SG" export "$@" 2>"$tmp/err.txt"
	rc=$?
	if [ $rc -eq "$want" ] && grep -q "$pattern" "$tmp/err.txt"; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(cat "$tmp/err.txt")"
	fi
}
"$MK" "$tmp/empty" empty 2>/dev/null
expect_exit "empty trace: exit 1, says nothing is readable" 1 "no readable event" \
	--chrome "$tmp/empty" "$tmp/empty.json"
expect_exit "missing run: exit 2, clear message" 2 "no-such-run: No such file or directory" \
	--otf2 "$tmp/no-such-run" "$tmp/x"
mkdir -p "$tmp/untraced"
expect_exit "run without a trace: exit 2, clear message" 2 "no trace here" \
	--chrome "$tmp/untraced" "$tmp/x.json"
if "$SG" export --help | grep -q -- "--otf2 RUN DIR" &&
   ! "$SG" export "$tmp/run" 2>/dev/null && ! "$SG" export --chrome --otf2 a b 2>/dev/null; then
	pass "usage: --help, missing format, two formats"
else
	fail "usage" "--help text or usage errors wrong"
fi
exit 0
