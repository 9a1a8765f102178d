#!/bin/bash
# test-counters.sh — the counter code for real, inside libsgtrace (billiards-traced links it):
# on a machine without a PMU the hardware events are defined "unavailable" with the kernel's
# reason and reported once on stderr (with SG_VERBOSE=1: the library is quiet otherwise), never
# recorded as zero; software events and the scheduler run-delay are sampled; task-clock,
# context switches and page faults come from the kernel's per-thread accounting (their perf
# names from perf); SG_EVENTS=none turns counters off silently and says so in the trace; a
# bad SG_EVENTS turns them off with a located message.
set -u
B=${B:-build}
PROG="$B/bin/billiards-traced"
DUMP="$B/libexec/scalegraph/scalegraph-dump"
. "$(dirname "$0")/tlib.sh" counters
if [ ! -x "$PROG" ] || [ ! -x "$DUMP" ]; then
	echo "SKIP: counters_in_libsgtrace: $PROG or $DUMP not built"
	exit 0
fi
# Does this machine have a hardware PMU? The kernel registers its "cpu" event source if so.
has_pmu=0
for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
	 /sys/bus/event_source/devices/armv8_pmuv3_0; do
	[ -e "$d" ] && has_pmu=1
done

SG_VERBOSE=1 SG_TRACE_DIR="$T/tr" "$PROG" --balls 300 --steps 10 --threads 2 >"$T/out" 2>"$T/err"
rc=$?
check traced_program_runs "exit $rc: $(cat "$T/err")" test $rc -eq 0
"$DUMP" "$T/tr" >"$T/dump" 2>&1
if [ $has_pmu -eq 0 ]; then
	n=$(grep -c '^sgtrace: counters unavailable: cycles: no hardware PMU (ENOENT); ' "$T/err")
	check unavailable_reported_once "stderr: $(cat "$T/err")" test "$n" -eq 1
	check unavailable_defined_with_reason "dump: $(grep '^counter' "$T/dump")" \
		grep -q '^counter [0-9]*: cycles \[events\] unavailable: no hardware PMU (ENOENT)' "$T/dump"
	n=$(grep -c ' counter cycles=' "$T/dump")
	check unavailable_never_zero "$n cycles samples recorded" test "$n" -eq 0
else
	echo "SKIP: unavailable_reported_once: this machine has a PMU"
	n=$(grep -c ' counter cycles=' "$T/dump")
	check hardware_counters_sampled "$n cycles samples" test "$n" -ge 3
fi
# every thread gets begin and end samples of the software events
threads=$(grep -c ' thread_begin ' "$T/dump")
n=$(grep -c ' counter task-clock=' "$T/dump")
check software_counters_sampled "$n task-clock samples for $threads threads" test "$n" -ge $((2 * threads))
last=$(grep ' counter task-clock=' "$T/dump" | tail -1 | sed 's/.*task-clock=\([0-9]*\).*/\1/')
check task_clock_counts "last task-clock $last ns" test "$last" -gt 0
if [ -r /proc/self/schedstat ] || [ -r "/proc/$$/task/$$/schedstat" ]; then
	n=$(grep -c ' counter sched-run-delay=' "$T/dump")
	check schedstat_run_delay_sampled "$n samples" test "$n" -ge "$threads"
else
	echo "SKIP: schedstat_run_delay_sampled: no schedstat in this kernel"
fi

SG_EVENTS='task-clock,,cycles' SG_TRACE_DIR="$T/tr2" "$PROG" --balls 300 --steps 10 --threads 2 \
	>"$T/out2" 2>"$T/err2"
rc=$?
check bad_sg_events_located "rc $rc stderr: $(cat "$T/err2")" test $rc -eq 0 -a \
	"$(cat "$T/err2")" = "sgtrace: SG_EVENTS:12: empty event name; counters are off"
SG_EVENTS='task-clock,page-faults' SG_TRACE_DIR="$T/tr3" "$PROG" --balls 300 --steps 10 \
	--threads 2 >"$T/out3" 2>"$T/err3"
check chosen_events_only "stderr: $(cat "$T/err3")" test ! -s "$T/err3"
"$DUMP" "$T/tr3" >"$T/dump3" 2>&1
n=$(grep -c ' counter context-switches=' "$T/dump3")
check chosen_events_recorded "$n context-switch samples" test "$n" -eq 0 -a \
	"$(grep -c ' counter page-faults=' "$T/dump3")" -gt 0

# The default list opens no perf event where no perf event is available (here: no PMU, and the
# software figures come from the kernel's accounting): /proc/PID/fdinfo shows none while the
# traced program runs. Its context switches are counted all the same.
n=$(grep ' counter context-switches=' "$T/dump" | sed 's/.*context-switches=\([0-9]*\).*/\1/' | sort -n | tail -1)
check context_switches_counted "largest per-thread total ${n:-none}" test "${n:-0}" -gt 0
# perf_fds SG_EVENTS|default: the most perf event descriptors a traced billiards held at once
# while its workers ran (-1 when it ended before they were seen). The most, over looks 10 ms
# apart, not one look: a worker seen in /proc may not have opened its counters yet (on a loaded
# machine one look found none of them).
perf_fds() {
	local ev=(env -u SG_EVENTS SG_SCHED=0)
	[ "$1" = default ] || ev=(env SG_EVENTS="$1" SG_SCHED=0)
	[ "$1" = sched ] && ev=(env -u SG_EVENTS -u SG_SCHED)
	"${ev[@]}" SG_TRACE_DIR="$T/tr5" "$PROG" --balls 20000 --steps 100 --threads 2 >/dev/null 2>&1 &
	local pid=$! n=-1 seen=0 c
	for _ in $(seq 300); do
		if [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 3 ]; then
			c=$(for f in /proc/$pid/fd/*; do readlink "$f"; done 2>/dev/null | grep -c 'perf_event' || true)
			[ "$c" -gt "$n" ] && n=$c
			seen=$((seen + 1))
			[ $seen -ge 30 ] && break
		elif [ $seen -gt 0 ]; then
			break   # the workers are gone
		fi
		sleep 0.01
	done
	wait $pid
	rm -rf "$T/tr5"
	echo "$n"
}
if [ $has_pmu -eq 0 ]; then
	# counters open no perf event by default; the off-CPU record (docs/tracelib.md) opens one
	# context-switch event per CPU, whatever the counters
	n=$(perf_fds default)
	m=$(perf_fds PERF_COUNT_SW_PAGE_FAULTS)
	k=$(perf_fds sched)
	if [ "$n" -ge 0 ] && [ "$m" -ge 0 ] && [ "$k" -ge 0 ]; then
		check default_opens_no_perf_event "$n perf descriptors (a perf-named event: $m; the off-CPU record: $k on $(getconf _NPROCESSORS_ONLN) CPUs)" \
			test "$n" -eq 0 -a "$m" -ge 1 -a "$k" -eq "$(getconf _NPROCESSORS_ONLN)"
	else
		echo "SKIP: default_opens_no_perf_event: the program ended before it was looked at"
	fi
fi

# SG_EVENTS=none: valid, silent, and the trace says why there are no counters.
SG_EVENTS=none SG_TRACE_DIR="$T/tr4" "$PROG" --balls 300 --steps 10 --threads 2 >/dev/null 2>"$T/err4"
rc=$?
check sg_events_none_silent "rc $rc stderr: $(cat "$T/err4")" test $rc -eq 0 -a ! -s "$T/err4"
"$DUMP" --summary "$T/tr4" >"$T/dump4" 2>&1
check sg_events_none_recorded "$(grep -i counter "$T/dump4")" \
	grep -q 'counters: unavailable: turned off (SG_EVENTS=none)' "$T/dump4"
check sg_events_none_no_samples "$(grep -c ' counter ' "$T/dump4") samples" \
	test "$("$DUMP" "$T/tr4" 2>/dev/null | grep -c ' counter ')" -eq 0
# The perf software event under its perf name still goes through perf_event_open.
SG_EVENTS=PERF_COUNT_SW_PAGE_FAULTS SG_TRACE_DIR="$T/tr6" "$PROG" --balls 300 --steps 10 \
	--threads 2 >/dev/null 2>"$T/err6"
n=$("$DUMP" "$T/tr6" 2>/dev/null | grep -c ' counter PERF_COUNT_SW_PAGE_FAULTS=')
check perf_software_event_by_name "$n samples; stderr: $(cat "$T/err6")" test "$n" -ge 2
