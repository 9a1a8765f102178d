/*
 * test_stress.c — 64 threads x 1,000,000 sync events through the wrappers (each thread
 * locks and unlocks its own mutex 333,333 times: 999,999 lock events plus its thread begin),
 * then every event is read back: the right count and order per thread, time never going
 * backwards, no chunk damaged, 0 lost. Uncontended per-thread mutexes keep it fast on 2 CPUs.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sgtrace.h"
#include "sgtrace_read.h"
#include "tutil.h"

#define N_THREADS 64
#define N_PAIRS 333333L   /* 3 events each: 999,999 + THREAD_BEGIN = 1,000,000 */

static void *worker(void *p)
{
	pthread_mutex_t *m = p;
	for (long i = 0; i < N_PAIRS; i++) {
		sg_pthread_mutex_lock(m);
		sg_pthread_mutex_unlock(m);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_stress(void **state)
{
	(void)state;
	static pthread_mutex_t m[N_THREADS];
	pthread_t th[N_THREADS];
	uint32_t index[N_THREADS];
	double t0 = now_s();
	for (int i = 0; i < N_THREADS; i++) {
		pthread_mutex_init(&m[i], NULL);
		assert_int_equal(sg_pthread_create(&th[i], NULL, worker, &m[i]), 0);
	}
	for (int i = 0; i < N_THREADS; i++)
		assert_int_equal(sg_pthread_join(th[i], NULL), 0);
	double t1 = now_s();
	sg_trace_flush();   /* the CREATE_END events of this thread */

	struct sgr_trace *t;
	char err[512];
	if (sgr_open(sg_trace_dir(), 0, &t, err, sizeof err) < 0)
		fail_msg("%s", err);
	/* The creating thread's CREATE_END events name the workers' indices. */
	struct sgr_event *e;
	size_t n = tu_events(t, 0, 1, &e);
	int k = 0;
	for (size_t i = 0; i < n && k < N_THREADS; i++)
		if (e[i].kind == SG_EV_CREATE_END)
			index[k++] = e[i].id;
	free(e);
	assert_int_equal(k, N_THREADS);
	uint64_t total = 0;
	for (int w = 0; w < N_THREADS; w++) {
		long pos = sgr_thread_pos(t, index[w]);
		assert_true(pos >= 0);
		const struct sgr_thread *st = sgr_thread(t, (size_t)pos);
		assert_true(st->complete);
		assert_int_equal(st->lost, 0);
		assert_int_equal(st->n_damaged, 0);
		/* Walk the raw records: the lock pattern in order, time monotonic. */
		struct sgr_cursor c;
		struct sgr_span sp;
		uint64_t last = 0, locks = 0, begins = 0, ends = 0;
		static const enum sg_ev_kind cycle[3] = { SG_EV_LOCK_REQUEST, SG_EV_LOCK_ACQUIRED,
							  SG_EV_LOCK_RELEASE };
		sgr_cursor_init(&c, t, (size_t)pos);
		while (sgr_cursor_next(&c, &sp)) {
			for (size_t i = 0; i < sp.n; i++) {
				const struct sg_event_rec *r = &sp.recs[i];
				enum sg_ev_kind kind = sg_rec_kind(r);
				uint64_t ticks = sg_rec_ticks(r);
				if (ticks < last)
					fail_msg("thread %u: time goes backwards", index[w]);
				last = ticks;
				if (kind == SG_EV_THREAD_BEGIN)
					begins++;
				else if (kind == SG_EV_THREAD_END)
					ends++;
				else if (kind == SG_EV_LOCK_REQUEST || kind == SG_EV_LOCK_ACQUIRED ||
					 kind == SG_EV_LOCK_RELEASE) {
					if (kind != cycle[locks % 3])
						fail_msg("thread %u: lock event %llu out of order",
							 index[w], (unsigned long long)locks);
					locks++;
				}
			}
		}
		assert_int_equal(begins, 1);
		assert_int_equal(ends, 1);
		assert_int_equal(locks, 3 * N_PAIRS);
		total += locks + begins;
	}
	assert_int_equal(total, (uint64_t)N_THREADS * 1000000u);
	assert_int_equal(sgr_verify(t), 0);
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		if (!tu_problem_live(sgr_problem(t, i)))   /* main still runs */
			fail_msg("%s", sgr_problem(t, i));
	sgr_close(t);
	double t2 = now_s();
	printf("stress: %d threads x 1,000,000 events recorded in %.2f s (%.1f ns/event "
	       "wall), read back and checked in %.2f s\n", N_THREADS, t1 - t0,
	       (t1 - t0) * 1e9 / ((double)N_THREADS * 1e6), t2 - t1);
}

int main(int argc, char **argv)
{
	tu_reexec_traced(argc, argv, "stress", sg_trace_dir());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stress),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_reexec_cleanup("stress");
	return rc;
}
