#!/bin/bash
# test-defect20-ends.sh — items 1 and 2 of issue 20, "programs that end their own way":
#   1. a traced program whose main ends with pthread_exit() never exited (the library's drain
#      thread, never stopped, kept the process alive, and SIGTERM could not end it);
#   2. one ending with _exit()/_Exit() or replacing itself with an exec, or a forked child that
#      _exit()s, left its streams without trailers: every such run was marked incomplete.
# endee.c is built with `scalegraph cc` (its calls go through the wrappers) and run in each of
# its modes, under `timeout`, with SG_EVENTS=none so that every stream's records can be counted
# by hand (main and the workers are probed — from outside their bodies since issue 21: main's
# entry by the library's constructor, its exit at exit() on its thread, a worker's in the
# pthread_create trampoline, so the counts are those of the probes in the bodies before;
# lock_once, a tiny helper, is not, nor is forkee: no loop and no sync call of its own — its
# _exit/exec calls are renamed, but they are ordinary calls to the probe rule):
#   main that returns (plain): thread_begin, func_enter main, sync_site, lock_request,
#     lock_acquired, lock_release, func_exit main, thread_end = 8 records;
#   main ending in _exit/_Exit/exec after one lock: the same without func_exit = 7;
#   pexit-join: main thread_begin, func_enter, create_begin, create_end, sync_site, join_begin,
#     join_end, thread_end = 8; the worker thread_begin, func_enter worker, sync_site, 3 lock
#     events, func_exit, thread_end = 8;
#   pexit-nojoin N: main 2 + 2 N + 1 (no join), each worker 8;
#   pexit-sleep, killed by SIGTERM while its worker sleeps: main 5 (begin, func_enter,
#     create_begin, create_end, end), the worker 6 (begin, func_enter sleeper, site, 3 lock
#     events; no end: the signal's flush writes its chunk and trailer);
#   fork-exit: the parent 11 (begin, main entered and left, site, 2 locks of 3 events, end),
#     the child 9 (begin, site, 2 locks, end: its stream starts anew);
#   fork-quiet: the parent 8 (one lock); the child records nothing and creates nothing.
# Every stream must end with its trailer, the reader must report no problem — except for a
# failed exec, where it must say that tracing stopped there, and nothing after it may pass for
# recorded — and `scalegraph run` must store each run `ok` (the failed exec: `incomplete`, with
# that reason). Prints PASS:/FAIL: lines.
set -u
B=${B:-build}
dump=$PWD/$B/libexec/scalegraph/scalegraph-dump
sgcc=$PWD/$B/libexec/scalegraph/scalegraph-cc
sg=$PWD/$B/bin/scalegraph
src=$PWD/tracelib/tests/endee.c
. "$(dirname "$0")/tlib.sh" defect20-ends "$dump" "$sgcc" "$sg"
cd "$work" || exit 1
export SG_EVENTS=none XDG_CACHE_HOME=$work/cache
unset SG_TRACE_DIR SG_TRACE_ROOT SG_TRACE_PARENT SG_SCHED SG_TRACE
cp "$src" endee.c
if ! "$sgcc" -O2 -Wall -Werror endee.c -o endee 2>cc.err; then
	echo "FAIL: defect20-ends: building endee.c: $(head -3 cc.err | tr '\n' '|')"
	exit 1
fi

# run NAME ARGS...: runs endee with its trace in NAME/, under timeout; sets $rc and $ms (wall
# time in ms); output in NAME.out, errors in NAME.err
run() {
	local name=$1 t0
	shift
	t0=$(date +%s%N)
	SG_TRACE_DIR="$work/$name" timeout -k 1 10 ./endee "$@" >"$name.out" 2>"$name.err"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
}
# procs NAME: the process directories of trace NAME, oldest first (by pid order of creation)
procs() { ls -d "$1"/proc.* 2>/dev/null | sort -V; }
# streams DIR: "index:records:complete|cut" of each thread stream, then "problems N"
streams() {
	"$dump" --summary "$1" 2>/dev/null | awk '
		/^thread [0-9]+:/ { sub(":", "", $2); c = /complete$/ ? "complete" : "cut"
				    printf "%s:%s:%s ", $2, $7, c }
		/^problems:/ { printf "problems %s", $2 }'
}
# check NAME WANT DIR: the streams of DIR are WANT
check() {
	local got
	got=$(streams "$3")
	[ "$got" = "$2" ]
	ok "$1" $? "${4:-}streams of $3: '$got', want '$2'; exit $rc in $ms ms; stderr: $(head -c 300 "${1#defect20-}.err" 2>/dev/null | tr '\n' '|')"
}

# --- item 1: main ends with pthread_exit ---------------------------------------------------
run pj pexit-join
[ $rc -eq 0 ] && [ "$(cat pj.out)" = "$(printf 'done\natexit')" ] && [ $ms -lt 5000 ]
ok defect20-pthread-exit-ends $? "exit $rc after $ms ms (timeout 10 s), stdout '$(tr '\n' '|' <pj.out)', want 'done|atexit|' (the atexit handler ran, stdio flushed)"
d=$(procs pj)
check defect20-pthread-exit-trace-complete "0:8:complete 1:8:complete problems 0" "$d"
[ -e "$d/threads.sgo" ] || [ -e "$d/sched.sgo" ]
ok defect20-pthread-exit-open-buffers-removed $((!$?)) "open buffer files left in $d: $(ls "$d")"

run pn pexit-nojoin 4
n_hello=$(grep -c '^hello from worker [1-4]$' pn.out)
[ $rc -eq 0 ] && [ "$n_hello" -eq 4 ] && [ "$(tail -1 pn.out)" = atexit ] && [ $ms -lt 5000 ]
ok defect20-pthread-exit-nojoin-ends $? "exit $rc after $ms ms, $n_hello hello lines (want 4), last line '$(tail -1 pn.out)' (want atexit)"
check defect20-pthread-exit-nojoin-trace-complete \
	"0:11:complete 1:8:complete 2:8:complete 3:8:complete 4:8:complete problems 0" "$(procs pn)"

# SIGTERM while main has gone and a worker sleeps: the process ends at once, by SIGTERM, and
# the fatal-signal flush writes every stream (the worker's has no THREAD_END: it was killed)
SG_TRACE_DIR="$work/ps" ./endee pexit-sleep >ps.out 2>ps.err &
pid=$!
for _ in $(seq 100); do grep -q '^ready$' ps.out 2>/dev/null && break; sleep 0.05; done
sleep 0.2
t0=$(date +%s%N)
kill -TERM $pid
for _ in $(seq 60); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
kill -KILL $pid 2>/dev/null
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 143 ] && [ $ms -lt 2000 ]
ok defect20-pthread-exit-sigterm $? "exit status $rc $ms ms after SIGTERM (want 143, killed by SIGTERM, within 2 s)"
check defect20-pthread-exit-sigterm-flushed "0:5:complete 1:6:complete problems 0" "$(procs ps)"

# SG_SCHED=0 (no drain thread) and SG_TRACE=0 end as before
SG_SCHED=0 run p0 pexit-join
[ $rc -eq 0 ] && [ "$(cat p0.out)" = "$(printf 'done\natexit')" ] &&
	[ "$(streams "$(procs p0)")" = "0:8:complete 1:8:complete problems 0" ]
ok defect20-pthread-exit-sched-off $? "SG_SCHED=0: exit $rc after $ms ms, stdout '$(tr '\n' '|' <p0.out)', streams '$(streams "$(procs p0)")'"
SG_TRACE=0 run pt pexit-join
[ $rc -eq 0 ] && [ "$(cat pt.out)" = "$(printf 'done\natexit')" ] && [ ! -e pt ]
ok defect20-pthread-exit-trace-off $? "SG_TRACE=0: exit $rc, stdout '$(tr '\n' '|' <pt.out)', trace dir made: $([ -e pt ] && echo yes || echo no)"

# --- item 2: _exit, _Exit, exec, a forked child's _exit ------------------------------------
run ex _exit 3
[ $rc -eq 3 ] && [ "$(cat ex.out)" = bye ]
ok defect20-_exit-status $? "exit $rc (want 3), stdout '$(cat ex.out)'"
check defect20-_exit-trace-complete "0:7:complete problems 0" "$(procs ex)"
run eX _Exit 4
[ $rc -eq 4 ] && [ "$(cat eX.out)" = bye ]
ok defect20-_Exit-status $? "exit $rc (want 4), stdout '$(cat eX.out)'"
check defect20-_Exit-trace-complete "0:7:complete problems 0" "$(procs eX)"

run ev exec /bin/true
[ $rc -eq 0 ] && [ "$(procs ev | wc -l)" -eq 1 ]
ok defect20-execve-runs $? "exit $rc, process directories: $(procs ev | tr '\n' ' ')"
check defect20-execve-trace-complete "0:7:complete problems 0" "$(procs ev)"
run el execl /bin/echo hi
[ $rc -eq 0 ] && [ "$(cat el.out)" = hi ]
ok defect20-execl-runs $? "exit $rc, stdout '$(cat el.out)' (want hi: the argument list built from execl's)"
check defect20-execl-trace-complete "0:7:complete problems 0" "$(procs el)"

# an exec of a traced program: the same pid writes proc.<pid>/ then proc.<pid>.2/, linked to it
run et exec ./endee plain
set -- $(procs et)
pid=${1##*/proc.}
[ $rc -eq 0 ] && [ $# -eq 2 ] && [ "${2##*/}" = "proc.$pid.2" ] &&
	"$dump" --summary "$2" 2>/dev/null | grep -q "^pid $pid (executed by the traced image before it)"
ok defect20-execve-traced-program $? "exit $rc, process directories: $* (want proc.P and proc.P.2, the second linked to P)"
check defect20-execve-traced-program-complete "0:7:complete problems 0" "$1"
check defect20-execve-traced-program-new-image "0:8:complete problems 0" "${2:-none}"
"$dump" --summary et 2>/dev/null | grep -q "^pid $pid, clock"
ok defect20-execve-main-process $? "the trace root reads as the process before the exec: $("$dump" --summary et 2>/dev/null | head -2 | tr '\n' '|')"

run fe fork-exit
set -- $(procs fe)
[ $rc -eq 0 ] && [ $# -eq 2 ] && [ "$(cat fe.out)" = "$(printf 'child ok\natexit')" ]
ok defect20-fork-child-_exit-runs $? "exit $rc, stdout '$(tr '\n' '|' <fe.out)', process directories: $*"
check defect20-fork-child-_exit-parent "0:11:complete problems 0" "$1"
check defect20-fork-child-_exit-child "0:9:complete problems 0" "${2:-none}"
# a fork microseconds after the program starts, 40 times: the library's drain thread was still
# being born, and under AddressSanitizer (the sanitizer stage of make check) it held the
# allocator's lock at the fork; the child's own drain thread waited on it for ever, and the
# child's exit on that thread (1 run in 20-40 hung; sgc_sched_start now waits until the drain
# thread runs its own code)
hung=0
for i in $(seq 1 40); do
	run fe-many fork-exit
	[ $rc -eq 0 ] || hung=$((hung + 1))
	rm -rf fe-many
done
ok defect20-fork-at-start-40-times $([ $hung -eq 0 ]; echo $?) "$hung of 40 runs did not end within 10 s (exit 124: timed out)"
run fq fork-quiet
[ $rc -eq 0 ] && [ "$(procs fq | wc -l)" -eq 1 ]
ok defect20-fork-quiet-child-creates-nothing $? "exit $rc, process directories: $(procs fq | tr '\n' ' ') (the child recorded nothing: none of its own)"
check defect20-fork-quiet-parent "0:8:complete problems 0" "$(procs fq)"

# a failed exec: the program runs on as untraced (its worker and output are there), the trace
# of what came before is whole, and the reader says that tracing stopped at the exec
run ef exec-fail
d=$(procs ef)
[ $rc -eq 0 ] && [ "$(cat ef.out)" = "$(printf 'survived\natexit')" ] && [ ! -s ef.err ]
ok defect20-exec-failed-program-runs-on $? "exit $rc, stdout '$(tr '\n' '|' <ef.out)', stderr '$(head -c 200 ef.err)'"
check defect20-exec-failed-trace "0:7:complete problems 1" "$d"
"$dump" --summary "$d" >ef.sum 2>/dev/null
grep -q "^tracing stopped at [0-9.]* ms, before the process ended: execve /nonexistent/endee-no-such-program failed (No such file or directory)$" ef.sum &&
	grep -q "^  $d/defs.sgd: tracing stopped at [0-9.]* ms, before the process ended: execve /nonexistent/endee-no-such-program failed (No such file or directory); what the process did afterwards is not in the trace$" ef.sum
ok defect20-exec-failed-said $? "summary: $(grep -i stopped ef.sum | tr '\n' '|')"

# --- the same programs under `scalegraph run`: stored ok (the failed exec: incomplete) --------
runst() {
	rm -rf r.exp
	"$sg" run --threads 1 --timeout 10s --no-analyze -o r.exp -- ./endee "$@" >r.out 2>&1
	sqlite3 r.exp/experiment.db "select status || '|' || coalesce(reason, '') from runs" 2>&1
}
for m in "pexit-join" "pexit-nojoin 4" "_exit 0" "_Exit 0" "exec /bin/true" "fork-exit" \
	"exec ./endee plain"; do
	# shellcheck disable=SC2086
	st=$(runst $m)
	[ "$st" = "ok|" ]
	r=$?
	ok "defect20-run-$(echo "$m" | tr ' /.' '---')-stored-ok" $r "scalegraph run -- endee $m: stored '$st'; $(tail -2 r.out | tr '\n' '|')"
done
st=$(runst exec-fail)
case $st in
"incomplete|1 problem(s) reading the trace, first: defs.sgd: tracing stopped at "*" ms, before the process ended: execve /nonexistent/endee-no-such-program failed (No such file or directory); what the process did afterwards is not in the trace") r=0 ;;
*) r=1 ;;
esac
ok defect20-run-exec-failed-stored-incomplete $r "stored '$st'"
