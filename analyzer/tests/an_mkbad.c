/*
 * an_mkbad.c — writes the damaged traces of the analyzer's defect tests (test-defects.sh):
 * checksum-valid files whose records carry values no real run records, each the exact case of
 * an issue. The writer (sgtrace_write.h) checks only what would make a file unreadable, so
 * every case below reads back without a checksum problem: the analyzer alone must cope.
 *
 * usage: an_mkbad CASE DIR
 *   huge-function-id     one FUNC_ENTER of function id 0x10000000, never defined (issue 13,
 *                        defect 5: `report` took 39 s and 10.5 GB)
 *   id-fffffff0          the same with id 0xfffffff0 (defect 5: "error: " and nothing else)
 *   huge-object-ids      lock, barrier and semaphore records of object ids near 2^32, and a
 *                        barrier episode of 0xfffffff0
 *   counter-extremes     a run-delay counter sampled INT64_MAX then INT64_MIN (defect 8,
 *                        an_source.c: last - first overflowed, to a run delay of 1 ns)
 *   span-overflow        160 threads each spanning the whole 56-bit clock (defect 8, an_run.c:
 *                        the processors' summed times overflowed int64)
 *   sched-extremes       CPU-time and run-delay samples of INT64_MIN and INT64_MAX in the
 *                        sched stream (defect 8: the budget's differences overflowed)
 *   sched-cpu-65535      1024 threads switched in and out on CPU 65535 (the CPU number sized
 *                        each thread's per-CPU tables: 1 GB)
 * DIR must not exist.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sgtrace_write.h"

#define MAX_T (((uint64_t)1 << 56) - 1)   /* SG_TICKS_MAX */

static int check(int rc, const char *what)
{
	if (rc < 0)
		fprintf(stderr, "an_mkbad: %s: %s\n", what, strerror(-rc));
	return rc < 0;
}

/* Two threads calling the defined functions 1 and 2; thread 0 also enters `bad_func` once. */
static int calls(struct sgw_trace *w, uint32_t bad_func)
{
	int bad = check(sgw_function(w, 1, "f1", "a.c", 1), "function");
	bad |= check(sgw_function(w, 2, "f2", "a.c", 2), "function");
	for (uint32_t th = 0; th < 2 && !bad; th++) {
		struct sgw_stream *s;
		bad |= check(sgw_thread(w, th, th ? 0 : SG_NO_ID, 0, &s), "thread");
		if (bad)
			break;
		uint64_t t = 100;
		bad |= check(sgw_event(s, t, SG_EV_THREAD_BEGIN, th, SG_NO_ID), "event");
		for (int k = 0; k < 50; k++) {
			bad |= check(sgw_event(s, t += 10, SG_EV_FUNC_ENTER, 1, 0), "event");
			bad |= check(sgw_event(s, t += 5, SG_EV_FUNC_ENTER, 2, 0), "event");
			bad |= check(sgw_event(s, t += 20, SG_EV_FUNC_EXIT, 2, 0), "event");
			if (th == 0 && k == 25 && bad_func)
				bad |= check(sgw_event(s, t += 1, SG_EV_FUNC_ENTER, bad_func, 0),
					     "event");
			bad |= check(sgw_event(s, t += 5, SG_EV_FUNC_EXIT, 1, 0), "event");
		}
		bad |= check(sgw_event(s, t + 10, SG_EV_THREAD_END, th, 0), "event");
	}
	return bad;
}

/* Waits on objects of absurd ids (none defined but the barrier 1 and the mutex 2). */
static int huge_objects(struct sgw_trace *w)
{
	struct sgw_stream *s;
	int bad = check(sgw_object(w, 1, SG_OBJ_BARRIER, 0x10), "object");
	bad |= check(sgw_object(w, 2, SG_OBJ_MUTEX, 0x20), "object");
	bad |= check(sgw_thread(w, 0, SG_NO_ID, 0, &s), "thread");
	if (bad)
		return bad;
	uint64_t t = 100;
	static const uint32_t ids[] = { 0x10000000u, 0xfffffff0u, 0xfffffffeu };
	bad |= check(sgw_event(s, t, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), "event");
	for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
		uint32_t id = ids[k];
		bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_REQUEST, id, SG_LOCK_MUTEX), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_ACQUIRED, id, SG_LOCK_MUTEX), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_RELEASE, id, SG_LOCK_MUTEX), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_BARRIER_ARRIVE, id, 1), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_BARRIER_LEAVE, id, 1), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_SEM_WAIT_BEGIN, id, 0), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_SEM_WAIT_END, id, 0), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_SEM_POST, id, 0), "event");
		bad |= check(sgw_event(s, t += 10, SG_EV_COND_SIGNAL, id, 0), "event");
	}
	/* a defined barrier with an episode no thread could reach, and a defined mutex */
	bad |= check(sgw_event(s, t += 10, SG_EV_BARRIER_ARRIVE, 1, 0xfffffff0u), "event");
	bad |= check(sgw_event(s, t += 10, SG_EV_BARRIER_LEAVE, 1, 0xfffffff0u), "event");
	bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX), "event");
	bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX), "event");
	bad |= check(sgw_event(s, t += 10, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX), "event");
	bad |= check(sgw_event(s, t + 10, SG_EV_THREAD_END, 0, 0), "event");
	return bad;
}

/* The run-delay counter (read when there is no sched stream) sampled at both extremes. */
static int counter_extremes(struct sgw_trace *w)
{
	struct sgw_stream *s;
	int bad = check(sgw_counter(w, 1, "sched-run-delay", "ns", SG_COUNTER_SCHED, NULL),
			"counter");
	bad |= check(sgw_counter(w, 2, "task-clock", "ns", SG_COUNTER_SOFTWARE, NULL), "counter");
	bad |= check(sgw_thread(w, 0, SG_NO_ID, 0, &s), "thread");
	if (bad)
		return bad;
	bad |= check(sgw_event(s, 100, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), "event");
	/* INT64_MIN - INT64_MAX wrapped to 1: a run delay of 1 ns */
	bad |= check(sgw_counter_value(s, 110, 1, INT64_MAX), "counter value");
	bad |= check(sgw_counter_value(s, 110, 2, INT64_MIN), "counter value");
	bad |= check(sgw_counter_value(s, 900, 1, INT64_MIN), "counter value");
	bad |= check(sgw_counter_value(s, 900, 2, INT64_MAX), "counter value");
	bad |= check(sgw_event(s, 1000, SG_EV_THREAD_END, 0, 0), "event");
	return bad;
}

/* 160 threads from tick 0 to the last tick of the 56-bit clock: their summed T_i is beyond
 * int64 ns. */
static int span_overflow(struct sgw_trace *w)
{
	int bad = 0;
	for (uint32_t th = 0; th < 160 && !bad; th++) {
		struct sgw_stream *s;
		bad |= check(sgw_thread(w, th, SG_NO_ID, 0, &s), "thread");
		if (bad)
			break;
		bad |= check(sgw_event(s, 0, SG_EV_THREAD_BEGIN, th, SG_NO_ID), "event");
		bad |= check(sgw_event(s, MAX_T, SG_EV_THREAD_END, th, 0), "event");
	}
	return bad;
}

/* A thread with switch records and CPU-time / run-delay samples at the extremes. */
static int sched_extremes(struct sgw_trace *w)
{
	struct sgw_stream *s, *sc;
	int bad = check(sgw_thread(w, 0, SG_NO_ID, 4242, &s), "thread");
	bad |= check(sgw_sched(w, 2, "synthetic", 0, &sc), "sched");
	if (bad)
		return bad;
	bad |= check(sgw_event(s, 100, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), "event");
	bad |= check(sgw_event(s, 5000, SG_EV_THREAD_END, 0, 0), "event");
	/* samples inside the thread's span: the kernel's CPU time over [200, 4000] is corrected
	 * by the records' on-CPU time outside it, added to INT64_MAX */
	bad |= check(sgw_event(sc, 95, SG_EV_SWITCH_IN, 4242, 0), "switch");
	bad |= check(sgw_value(sc, 200, SG_EV_TASK_CPU, 4242, 0), "sample");
	bad |= check(sgw_value(sc, 200, SG_EV_TASK_DELAY, 4242, INT64_MIN), "sample");
	bad |= check(sgw_event(sc, 2000, SG_EV_SWITCH_OUT, 4242, 0), "switch");
	bad |= check(sgw_event(sc, 3000, SG_EV_SWITCH_IN, 4242, 1), "switch");
	bad |= check(sgw_value(sc, 4000, SG_EV_TASK_CPU, 4242, INT64_MAX), "sample");
	bad |= check(sgw_value(sc, 4000, SG_EV_TASK_DELAY, 4242, INT64_MAX), "sample");
	return bad;
}

/* 1024 threads, each switched out and in on CPU 65535. */
static int sched_cpu(struct sgw_trace *w)
{
	struct sgw_stream *sc;
	int bad = check(sgw_sched(w, 2, "synthetic", 0, &sc), "sched");
	for (uint32_t th = 0; th < 1024 && !bad; th++) {
		struct sgw_stream *s;
		int32_t tid = 10000 + (int32_t)th;
		bad |= check(sgw_thread(w, th, SG_NO_ID, tid, &s), "thread");
		if (bad)
			break;
		bad |= check(sgw_event(s, 100, SG_EV_THREAD_BEGIN, th, SG_NO_ID), "event");
		bad |= check(sgw_event(s, 5000, SG_EV_THREAD_END, th, 0), "event");
		bad |= check(sgw_event(sc, 1000 + th, SG_EV_SWITCH_OUT, (uint32_t)tid, 0xffff),
			     "switch");
		bad |= check(sgw_event(sc, 3000 + th, SG_EV_SWITCH_IN, (uint32_t)tid, 0xffff),
			     "switch");
	}
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: an_mkbad CASE DIR\n");
		return 2;
	}
	const char *c = argv[1];
	struct sgw_trace *w;
	if (check(sgw_create(argv[2], NULL, &w), argv[2]))
		return 1;
	int bad;
	if (!strcmp(c, "huge-function-id"))
		bad = calls(w, 0x10000000u);
	else if (!strcmp(c, "id-fffffff0"))
		bad = calls(w, 0xfffffff0u);
	else if (!strcmp(c, "huge-object-ids"))
		bad = huge_objects(w);
	else if (!strcmp(c, "counter-extremes"))
		bad = counter_extremes(w);
	else if (!strcmp(c, "span-overflow"))
		bad = span_overflow(w);
	else if (!strcmp(c, "sched-extremes"))
		bad = sched_extremes(w);
	else if (!strcmp(c, "sched-cpu-65535"))
		bad = sched_cpu(w);
	else {
		fprintf(stderr, "an_mkbad: unknown case \"%s\"\n", c);
		bad = 1;
	}
	bad |= check(sgw_close(w, 0), "close");
	return bad;
}
