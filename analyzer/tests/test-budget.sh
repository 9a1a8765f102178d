#!/bin/bash
# test-budget.sh — the time budget on real programs whose budgets are known in advance
# (analyzer/tests/programs/): each is built with `scalegraph cc`, run, and its report checked
# within a stated tolerance. A semaphore pool (IT_sem), a main thread that works (a processor),
# a barrier program with a CPU hog pinned beside it (the lost time is IT_sched, not barrier
# overhead; parallelism at most the CPUs), its two workers pinned to one CPU (the report says
# they shared it), a read() on a pipe (IT_blocked), a recursive mutex and
# a try-lock (IT_lock), and a parent running traced children with the same SG_TRACE_DIR (one
# directory per process, linked). Every run's books must close within 0.5 %, but what the report
# names as the kernel's own figures beyond the records (issue 20).
# Timings are loose on purpose (a loaded CI machine): the budget's structure is what is tested.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
src=analyzer/tests/programs
tmp=$(mktemp -d)
hog_pid=
trap '[ -n "$hog_pid" ] && kill "$hog_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
check=analyzer/tests/budget_check.py

build() {
	if ! SG_CC=${CC:-cc} "$sg" cc -O2 -pthread -I"$src" "$src/$1.c" -o "$tmp/$1" \
		>"$tmp/$1.build" 2>&1; then
		echo "FAIL: $1 builds: $(head -5 "$tmp/$1.build")"
		return 1
	fi
}

# run NAME [ARGS...]: runs the program with its own trace root, then reports it as JSON
run() {
	local name=$1
	shift
	rm -rf "$tmp/$name.trace"   # a fresh root: a second run would be another process in it
	if ! SG_TRACE_DIR="$tmp/$name.trace" "$tmp/$name" "$@" >"$tmp/$name.out" 2>&1; then
		echo "FAIL: $name runs: $(tail -3 "$tmp/$name.out")"
		return 1
	fi
	"$sg" report --json "$tmp/$name.trace" >"$tmp/$name.json" 2>"$tmp/$name.err" ||
		{ echo "FAIL: $name report: $(cat "$tmp/$name.err")"; return 1; }
}

# the closure within 0.5 % but what the report names as the kernel's own figures beyond the
# records (its clock lags and catches up by milliseconds at once on this VM), that under 5 %
books='abs(f["closure"]) <= 0.05 and abs(f["closure"] - kernel_beyond(notes) / (f["N"] * f["T_para"])) <= 0.005 and abs(f["N"] * f["T_para"] - (f["IT"] + f["PT"] + f["compute"])) <= 0.02 * f["N"] * f["T_para"]'

# a semaphore pool: the worker waits 200 ms for the post
if build sem_pool && run sem_pool; then
	python3 "$check" "$tmp/sem_pool.json" \
		sem-N 'f["N"] == 2' \
		sem-it-sem '0.15 <= f["IT_sem"] <= 0.30' \
		sem-it-join '0.05 <= f["IT_join"] <= 0.2' \
		sem-table 'len(sems) == 1 and sems[0]["blocked"] == 1 and sems[0]["posts"] == 1' \
		sem-not-busy 'f["parallelism"] <= 1.5' \
		sem-books "$books"
fi

# a main thread that works is a processor
if build main_works && run main_works; then
	python3 "$check" "$tmp/main_works.json" \
		main-N 'f["N"] == 2 and threads[0]["processor"]' \
		main-parallelism 'f["parallelism"] <= 2.0 + 1e-9' \
		main-books "$books"
fi

# a barrier program beside a CPU hog on CPU 0
if [ "$(nproc)" -lt 2 ]; then
	echo "SKIP: hog: needs 2 CPUs, this machine has $(nproc)"
elif build hog_barrier && ${CC:-cc} -O2 -I"$src" "$src/hog.c" -o "$tmp/hog"; then
	taskset -c 0 "$tmp/hog" 30 & hog_pid=$!
	sleep 0.2
	run hog_barrier
	kill "$hog_pid" 2>/dev/null
	wait "$hog_pid" 2>/dev/null
	hog_pid=
	python3 "$check" "$tmp/hog_barrier.json" \
		hog-N 'f["N"] == 2' \
		hog-sched 'f["IT_sched"] >= 0.25 * f["T_para"]' \
		hog-not-barrier-overhead 'f["PT_barrier"] < f["IT_sched"] / 2' \
		hog-parallelism 'f["parallelism"] <= 2.0 + 1e-9 and f["parallelism"] <= 1.6' \
		hog-busy-note 'any(n.startswith("the CPUs were busy") for n in notes)' \
		hog-books "$books"
fi

# both workers pinned to one CPU: they share it, and the report says the processors shared CPUs
if [ "$(nproc)" -ge 2 ] && build hog_barrier && run hog_barrier --one-cpu; then
	python3 "$check" "$tmp/hog_barrier.json" \
		one-cpu-sched 'f["IT_sched"] >= 0.25 * f["T_para"]' \
		one-cpu-parallelism 'f["parallelism"] <= 1.1' \
		one-cpu-note 'any(n.startswith("the processors shared CPUs: they ran on CPU 0 only") for n in notes)' \
		one-cpu-books "$books"
fi

# asleep in read() on a pipe: blocked outside any traced primitive
if build pipe_read && run pipe_read; then
	python3 "$check" "$tmp/pipe_read.json" \
		read-N 'f["N"] == 2' \
		read-blocked '0.15 <= f["IT_blocked"] <= 0.30' \
		read-books "$books"
fi

# a recursive mutex held twice, a try-lock that finds it busy, a wait for it
if build locks && run locks; then
	python3 "$check" "$tmp/locks.json" \
		locks-N 'f["N"] == 2' \
		locks-wait '0.07 <= f["IT_lock"] <= 0.15' \
		locks-books "$books"
	n=$(python3 -c 'import json,sys; print(sum(l["failed_trylocks"] for l in json.load(open(sys.argv[1]))["locks"]))' "$tmp/locks.json")
	[ "$n" = 1 ] && echo "PASS: locks-failed-trylock" || echo "FAIL: locks-failed-trylock: $n"
fi

# a parent running traced children (system(), fork+exec) with the same SG_TRACE_DIR
if build parent_child && run parent_child; then
	root=$tmp/parent_child.trace
	n=$(ls -d "$root"/proc.* 2>/dev/null | wc -l)
	[ "$n" = 3 ] && echo "PASS: processes-own-directories" ||
		echo "FAIL: processes-own-directories: $n: $(ls "$root")"
	"$sg" dump --summary "$root" >"$tmp/pc.sum" 2>&1
	grep -q "^processes: 3" "$tmp/pc.sum" && echo "PASS: dump-lists-processes" ||
		echo "FAIL: dump-lists-processes: $(cat "$tmp/pc.sum")"
	parent=$(sed -n 's/^pid \([0-9]*\).*/\1/p' "$tmp/pc.sum")
	children=$(grep -c "parent $parent: " "$tmp/pc.sum")
	[ "$children" = 2 ] && echo "PASS: children-linked-to-parent" ||
		echo "FAIL: children-linked-to-parent: parent $parent: $(grep '  pid' "$tmp/pc.sum")"
	grep -q "process $parent of the 3 in this trace" "$tmp/parent_child.json" &&
		echo "PASS: report-says-which-process" ||
		echo "FAIL: report-says-which-process: $(grep -o '"notes": .*' "$tmp/parent_child.json" | head -c 400)"
	bad=0
	for d in "$root"/proc.*; do
		"$sg" dump --summary --strict "$d" >"$tmp/one.sum" 2>&1 || bad=$((bad + 1))
		[ "$(grep -c '^thread [0-9]*:' "$tmp/one.sum")" = 1 ] || bad=$((bad + 1))
	done
	[ $bad = 0 ] && echo "PASS: each-process-trace-whole" ||
		echo "FAIL: each-process-trace-whole: $bad problem(s)"
fi
