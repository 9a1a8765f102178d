/*
 * counters_none.c — the counter hooks of sg_counters_int.h for a libsgtrace built without
 * counter support (SGTRACE_COUNTER_SRCS unset). It defines no counter and records, once per
 * process, that counters were not built, so that reports say "unavailable: counters not built"
 * rather than show zeros.
 */
#include "sg_counters_int.h"

int sgc_process_init(void)
{
	trace_counters_unavailable("counters not built into libsgtrace");
	return 0;
}

void sgc_thread_begin(void)
{
}

void sgc_sample(void)
{
}

void sgc_thread_end(void)
{
}

int sgc_sched_start(void)
{
	trace_sched_define(SGF_SCHED_UNAVAILABLE, 0, "off-CPU records not built into libsgtrace");
	return 0;
}

void sgc_sched_sample_all(void)
{
}

void sgc_sched_stop(int in_signal)
{
	(void)in_signal;
}

void sgc_sched_fork_child(void)
{
}

void sgc_sched_wake(void)
{
}
