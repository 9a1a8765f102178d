/*
 * test_an_procs.c — which threads are the processors (an_procs.c, docs/analyzer.md
 * "Processors"), on synthetic traces with hand-computed answers (ticks are ns): a main thread
 * with a serial phase as long as its workers' parallel one (issue 20, item 6: LLNL's
 * dotprod_mutex), with and without the run's N; a tie at the N-th place; a main thread doing part
 * work; threads the trace does not record, seen in the sched stream only (OpenMP's workers).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "an_synth.h"

#define E(t, k, id, aux) { (t), SG_EV_##k, (id), (aux) }
#define END { 0, SG_EV_NONE, 0, 0 }
#define SAMPLE(t, tid, cpu, delay) E(t, TASK_CPU, tid, cpu), E(t, TASK_DELAY, tid, delay)

/* main (thread 0) computes alone over [0, 5000], creates workers 1..4 (10 ns each, from 5000 to
 * 5040), joins them from 5040 to 9990 and ends at 10000. Worker k runs from 5000 + 10k - 5 to
 * 9945 + 5k, computing throughout.
 *
 * The parallel phase (two threads or more alive) is [5005, 9965). Main's time there is its
 * creates from 5005 (5 + 10 + 10 + 10 ns) and joins (4920 + 5): 4960 ns, all of it: its work
 * there is 0. The workers' is their whole time: 4945, 4940, 4935, 4930 ns. So N = 4, the
 * workers. (The rule before it counted main's 5010 ns of compute over the whole run: N = 5, and
 * with N = 4 given main and workers 1..3.) T_para 10000; IT_edge = 4 x 10000 - 19750. */
static const char *serial_main_trace(void)
{
	static const struct syn_ev m[] = {
		E(0, THREAD_BEGIN, 0, SG_NO_ID),
		E(5000, CREATE_BEGIN, SG_NO_ID, 0), E(5010, CREATE_END, 1, 0),
		E(5010, CREATE_BEGIN, SG_NO_ID, 0), E(5020, CREATE_END, 2, 0),
		E(5020, CREATE_BEGIN, SG_NO_ID, 0), E(5030, CREATE_END, 3, 0),
		E(5030, CREATE_BEGIN, SG_NO_ID, 0), E(5040, CREATE_END, 4, 0),
		E(5040, JOIN_BEGIN, 1, 0), E(9960, JOIN_END, 1, 0),
		E(9960, JOIN_BEGIN, 2, 0), E(9970, JOIN_END, 2, 0),
		E(9970, JOIN_BEGIN, 3, 0), E(9980, JOIN_END, 3, 0),
		E(9980, JOIN_BEGIN, 4, 0), E(9990, JOIN_END, 4, 0),
		E(10000, THREAD_END, 0, 0), END
	};
	static const struct syn_ev w1[] = { E(5005, THREAD_BEGIN, 1, 0), E(9950, THREAD_END, 1, 0),
					    END };
	static const struct syn_ev w2[] = { E(5015, THREAD_BEGIN, 2, 0), E(9955, THREAD_END, 2, 0),
					    END };
	static const struct syn_ev w3[] = { E(5025, THREAD_BEGIN, 3, 0), E(9960, THREAD_END, 3, 0),
					    END };
	static const struct syn_ev w4[] = { E(5035, THREAD_BEGIN, 4, 0), E(9965, THREAD_END, 4, 0),
					    END };
	static const struct syn_ev *const threads[] = { m, w1, w2, w3, w4 };
	return syn_trace(0, 0, 0, threads, 5, NULL);
}

static void assert_workers_only(const struct an_run *r)
{
	syn_assert_fig(r, AN_N, 4);
	assert_false(an_run_thread(r, 0)->processor);
	for (size_t i = 1; i <= 4; i++)
		assert_true(an_run_thread(r, i)->processor);
	assert_non_null(strstr(an_run_thread(r, 0)->why, "joining them"));
	syn_assert_fig_ns(r, AN_T_PARA, 10000);
	syn_assert_fig_ns(r, AN_IT_EDGE, 40000 - (4945 + 4940 + 4935 + 4930));
	syn_assert_fig_ns(r, AN_PT_THREAD, 0);   /* main's creates and joins: not a processor's */
	assert_null(an_run_n_unsure(r));
}

static void defect20_serial_main_bare(void **state)
{
	const char *dir = serial_main_trace();
	struct an_run *r = syn_open_run(dir, NULL);
	assert_workers_only(r);
	an_run_free(r);
	syn_rmtree(dir);
}

static void defect20_serial_main_threads4(void **state)
{
	const char *dir = serial_main_trace();
	struct an_run_opts o = { .n_threads = 4 };
	struct an_run *r = syn_open_run(dir, &o);
	assert_workers_only(r);
	an_run_free(r);
	syn_rmtree(dir);
}

/* Two threads over [0, 1000] computing alike, N = 1 given: thread 0 is taken (the lower
 * position), and N is not certain: a tie. */
static void defect20_n_tie(void **state)
{
	static const struct syn_ev t0[] = { E(0, THREAD_BEGIN, 0, SG_NO_ID),
					    E(1000, THREAD_END, 0, 0), END };
	static const struct syn_ev t1[] = { E(0, THREAD_BEGIN, 1, SG_NO_ID),
					    E(1000, THREAD_END, 1, 0), END };
	static const struct syn_ev *const threads[] = { t0, t1 };
	const char *dir = syn_trace(0, 0, 0, threads, 2, NULL);
	struct an_run_opts o = { .n_threads = 1 };
	struct an_run *r = syn_open_run(dir, &o);
	syn_assert_fig(r, AN_N, 1);
	assert_true(an_run_thread(r, 0)->processor);
	assert_false(an_run_thread(r, 1)->processor);
	assert_non_null(an_run_n_unsure(r));
	assert_non_null(strstr(an_run_n_unsure(r), "a tie: threads 0 and 1 worked as long in the "
					       "parallel phase; 0 is counted"));
	an_run_free(r);
	syn_rmtree(dir);
}

/* main creates its worker over [0, 10], computes 300 ns, joins it from 310 to 1000; the worker
 * computes over [5, 1000]. Phase [5, 1000): main's work there 995 - 5 - 690 = 300 ns, the
 * worker's 995: main is a processor (30 % of the busiest: above a tenth), doing part work. */
static void defect20_part_work(void **state)
{
	static const struct syn_ev m[] = {
		E(0, THREAD_BEGIN, 0, SG_NO_ID), E(0, CREATE_BEGIN, SG_NO_ID, 0),
		E(10, CREATE_END, 1, 0), E(310, JOIN_BEGIN, 1, 0), E(1000, JOIN_END, 1, 0),
		E(1000, THREAD_END, 0, 0), END
	};
	static const struct syn_ev w[] = { E(5, THREAD_BEGIN, 1, 0), E(1000, THREAD_END, 1, 0),
					   END };
	static const struct syn_ev *const threads[] = { m, w };
	const char *dir = syn_trace(0, 0, 0, threads, 2, NULL);
	struct an_run *r = syn_open_run(dir, NULL);
	syn_assert_fig(r, AN_N, 2);
	assert_true(an_run_thread(r, 0)->processor && an_run_thread(r, 1)->processor);
	assert_non_null(an_run_n_unsure(r));
	assert_non_null(strstr(an_run_n_unsure(r), "thread 0 did part work in the parallel phase "
					       "(30 % of the busiest thread's; counted)"));
	an_run_free(r);
	syn_rmtree(dir);
}

/* One traced thread (tid 700) on CPU over [0, 10000]; the sched stream has three more threads
 * of the process that the trace does not record, on CPU 8000, 7000 and 3000 + 3500 ns inside
 * the interval (tid 703 on two CPUs), and one (799, a drain thread) for 20 ns: below a tenth of
 * the busiest thread's work, not counted. N = 1, not certain: 3 more threads ran. */
static void defect20_untraced_threads(void **state)
{
	static const struct syn_ev t0[] = { E(0, THREAD_BEGIN, 0, SG_NO_ID),
					    E(10000, THREAD_END, 0, 0), END };
	static const struct syn_ev sched[] = {
		SAMPLE(0, 700, 0, 0),
		E(1000, SWITCH_IN, 701, 1), E(1500, SWITCH_IN, 702, 2), E(2000, SWITCH_IN, 703, 3),
		E(4000, SWITCH_IN, 799, 1), E(4020, SWITCH_OUT, 799, 1),
		E(5000, SWITCH_OUT, 703, 3), E(5500, SWITCH_IN, 703, 0), E(8500, SWITCH_OUT, 702, 2),
		E(9000, SWITCH_OUT, 701, 1), E(9000, SWITCH_OUT, 703, 0),
		SAMPLE(10000, 700, 10000, 0), END
	};
	static const struct syn_ev *const threads[] = { t0 };
	const char *dir = syn_trace(0, 0, 700, threads, 1, sched);
	struct an_run *r = syn_open_run(dir, NULL);
	syn_assert_fig(r, AN_N, 1);
	assert_true(an_run_thread(r, 0)->processor);
	assert_non_null(an_run_n_unsure(r));
	assert_non_null(strstr(an_run_n_unsure(r), "3 more threads ran that the trace does not "
					       "record"));
	int found = 0;
	for (size_t i = 0; i < an_run_n_notes(r); i++)
		found |= strstr(an_run_note(r, i), "3 thread(s) of the process that the trace does "
				"not record ran in the interval (tid 701 8e-06 s, tid 702 7e-06 s, "
				"tid 703 6.5e-06 s on CPU") != NULL;
	assert_true(found);
	an_run_free(r);
	syn_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defect20_serial_main_bare),
		cmocka_unit_test(defect20_serial_main_threads4),
		cmocka_unit_test(defect20_n_tie),
		cmocka_unit_test(defect20_part_work),
		cmocka_unit_test(defect20_untraced_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
