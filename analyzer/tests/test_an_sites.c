/*
 * test_an_sites.c — the latency sources per call site (an_sites.c, trace format 1.4) on
 * synthetic traces with hand-computed answers: seconds, shares and threads per site, the books
 * closed per source (the sites add up to the source's figure to the ns, and per thread to the
 * thread's figure), the wake-up tails of the time budget placed per site, a trace without any
 * SYNC_SITE (the unknown site holds everything), a timeline window, and a point's median
 * repetition.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "an_int.h"
#include "an_synth.h"
#include "store.h"

#define E(t, k, id, aux) { (t), SG_EV_##k, (id), (aux) }
#define END { 0, SG_EV_NONE, 0, 0 }
#define MS 1000000u
#define SITE(t, id) E(t, SYNC_SITE, id, 0)
#define SAMPLE(t, tid, cpu, delay) E(t, TASK_CPU, tid, cpu), E(t, TASK_DELAY, tid, delay)

enum { SITE_A = 10, SITE_B = 11, SITE_C = 12 };

/* Two threads (indexes 1 and 2) over [0, 10 ms]; objects: barrier 1, locks 2 and 3; sites
 * A = lu.c:412 in daxpy_sweep, B = lu.c:500 in update, C = solve.c:77 (a macro body: no
 * function). With `sites` 0 the same events without any SYNC_SITE or SITE definition.
 *
 *   thread 1: at B requests lock 2 at 1 ms, gets it at 2 ms (thread 2 holds it 0.5..2 ms: it
 *             waited 1 ms, IT_lock at B), releases it at 2.5 ms; at the unknown site takes
 *             lock 3 at once at 2.6 ms, holds it until 5 ms; at A arrives at the barrier at
 *             5 ms, leaves at 8.5 ms.
 *   thread 2: at C takes lock 2 at once at 0.5 ms, releases it at 2 ms; still at C requests
 *             lock 3 at 3 ms, gets it at 5 ms when thread 1 lets it go (waited 2 ms, IT_lock
 *             at C), releases it at 5.5 ms; at A arrives at the barrier at 8 ms (the last
 *             arrival), leaves at 8.5 ms.
 *
 * By hand: IT_barrier = 8 - 5 = 3 ms, all at A (thread 1). PT_barrier = 0.5 + 0.5 = 1 ms, at A
 * (threads 1 and 2, 0.5 ms each). IT_lock = 1 + 2 = 3 ms: C 2 ms (66.7 %, thread 2), B 1 ms
 * (33.3 %, thread 1). PT_lock: no acquire part (every wait was covered by a hold), the release
 * part 100 ns a release (opts.unlock_ns) by the site of each hold's acquire: thread 1's lock 2
 * (B) and lock 3 (unknown), thread 2's lock 2 and lock 3 (both C): 400 ns, C 200 (50 %), B 100
 * (25 %), unknown 100 (25 %). */
static const char *sites_trace(int sites)
{
	const struct syn_ev t1[] = {
		E(0, THREAD_BEGIN, 1, SG_NO_ID),
		SITE(1 * MS, SITE_B), E(1 * MS, LOCK_REQUEST, 2, SG_LOCK_MUTEX),
		E(2 * MS, LOCK_ACQUIRED, 2, SG_LOCK_MUTEX), E(2500000, LOCK_RELEASE, 2, 0),
		SITE(2600000, SG_NO_ID), E(2600000, LOCK_REQUEST, 3, SG_LOCK_MUTEX),
		E(2600000, LOCK_ACQUIRED, 3, SG_LOCK_MUTEX), E(5 * MS, LOCK_RELEASE, 3, 0),
		SITE(5 * MS, SITE_A), E(5 * MS, BARRIER_ARRIVE, 1, 1),
		E(8500000, BARRIER_LEAVE, 1, 1),
		E(10 * MS, THREAD_END, 1, 0), END
	};
	const struct syn_ev t2[] = {
		E(0, THREAD_BEGIN, 2, SG_NO_ID),
		SITE(500000, SITE_C), E(500000, LOCK_REQUEST, 2, SG_LOCK_MUTEX),
		E(500000, LOCK_ACQUIRED, 2, SG_LOCK_MUTEX), E(2 * MS, LOCK_RELEASE, 2, 0),
		E(3 * MS, LOCK_REQUEST, 3, SG_LOCK_MUTEX), E(5 * MS, LOCK_ACQUIRED, 3, SG_LOCK_MUTEX),
		E(5500000, LOCK_RELEASE, 3, 0),
		SITE(8 * MS, SITE_A), E(8 * MS, BARRIER_ARRIVE, 1, 1),
		E(8500000, BARRIER_LEAVE, 1, 1),
		E(10 * MS, THREAD_END, 2, 0), END
	};
	struct syn_ev v1[sizeof t1 / sizeof t1[0]], v2[sizeof t2 / sizeof t2[0]];
	size_t n1 = 0, n2 = 0;
	for (size_t k = 0; k < sizeof t1 / sizeof t1[0]; k++)
		if (sites || t1[k].kind != SG_EV_SYNC_SITE)
			v1[n1++] = t1[k];
	for (size_t k = 0; k < sizeof t2 / sizeof t2[0]; k++)
		if (sites || t2[k].kind != SG_EV_SYNC_SITE)
			v2[n2++] = t2[k];
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	assert_int_equal(sgw_object(w, 2, SG_OBJ_MUTEX, 0x2000), 0);
	assert_int_equal(sgw_object(w, 3, SG_OBJ_MUTEX, 0x3000), 0);
	if (sites) {
		assert_int_equal(sgw_site(w, SITE_A, "lu.c", 412, "daxpy_sweep"), 0);
		assert_int_equal(sgw_site(w, SITE_B, "lu.c", 500, "update"), 0);
		assert_int_equal(sgw_site(w, SITE_C, "solve.c", 77, NULL), 0);
	}
	assert_int_equal(syn_thread(w, 1, v1), 0);
	assert_int_equal(syn_thread(w, 2, v2), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	return dir;
}

/* The per-thread figure of source m (struct an_thread). */
static int64_t thread_fig(const struct an_thread *t, enum an_metric m)
{
	switch (m) {
	case AN_IT_BARRIER: return t->barrier_wait_ns;
	case AN_PT_BARRIER: return t->barrier_ovh_ns;
	case AN_IT_LOCK: return t->lock_wait_ns;
	case AN_PT_LOCK: return t->lock_ovh_ns;
	case AN_IT_COND: return t->cond_ns;
	case AN_IT_SEM: return t->sem_wait_ns;
	case AN_PT_SEM: return t->sem_ovh_ns;
	case AN_IT_JOIN: return t->join_wait_ns;
	case AN_PT_THREAD: return t->thread_ns;
	default: fail_msg("not a site source: %d", (int)m);
	}
	return 0;
}

/* The books per source: for every source, the sites add up to the run's figure to the ns, the
 * shares to 1 (when there is any time), and each processor's time over the sites to its own
 * figure. */
static void assert_sites_close(const struct an_run *r)
{
	for (size_t k = 0; k < an_site_n_sources(); k++) {
		enum an_metric m = an_site_source_at(k);
		struct an_sites s;
		assert_int_equal(an_run_sites(r, m, &s), 0);
		struct an_fig f = an_run_fig(r, m);
		assert_null(f.unavailable);
		int64_t sum = 0;
		double share = 0;
		for (size_t i = 0; i < s.n; i++) {
			int64_t ts = 0;
			sum += s.v[i].ns;
			share += s.v[i].share;
			for (size_t j = 0; j < s.v[i].n_threads; j++)
				ts += s.v[i].threads[j].ns;
			if (ts != s.v[i].ns)
				fail_msg("%s: site %zu's threads add up to %lld ns, it has %lld",
					 an_metric_name(m), i, (long long)ts, (long long)s.v[i].ns);
		}
		if (sum != s.total_ns || sum != llround(f.value * 1e9))
			fail_msg("%s: the sites add up to %lld ns, the figure is %.0f ns",
				 an_metric_name(m), (long long)sum, f.value * 1e9);
		if (sum > 0 && fabs(share - 1) > 1e-12)
			fail_msg("%s: the shares add up to %.15f", an_metric_name(m), share);
		for (size_t pos = 0; pos < an_run_n_threads(r); pos++) {
			const struct an_thread *t = an_run_thread(r, pos);
			if (!t->processor)
				continue;
			int64_t ts = 0;
			for (size_t i = 0; i < s.n; i++)
				for (size_t j = 0; j < s.v[i].n_threads; j++)
					if (s.v[i].threads[j].index == t->index)
						ts += s.v[i].threads[j].ns;
			if (ts != thread_fig(t, m))
				fail_msg("%s: thread %u has %lld ns at its sites, %lld in its figure",
					 an_metric_name(m), t->index, (long long)ts,
					 (long long)thread_fig(t, m));
		}
		an_sites_free(&s);
	}
}

static void assert_site(const struct an_sites *s, size_t i, uint32_t id, const char *label,
			int64_t ns, double share)
{
	char buf[128];
	if (i >= s->n)
		fail_msg("%s: %zu sites, no site %zu", an_metric_name(s->source), s->n, i);
	assert_int_equal(s->v[i].id, id);
	assert_string_equal(an_site_label(&s->v[i], buf, sizeof buf), label);
	assert_int_equal(s->v[i].ns, ns);
	if (fabs(s->v[i].share - share) > 1e-12)
		fail_msg("%s at %s: share %.15f, expected %.15f", an_metric_name(s->source), label,
			 s->v[i].share, share);
}

static void assert_thread(const struct an_site *x, size_t j, uint32_t index, int64_t ns)
{
	assert_true(j < x->n_threads);
	assert_int_equal(x->threads[j].index, index);
	assert_int_equal(x->threads[j].ns, ns);
}

static void test_sites_by_hand(void **state)
{
	const char *dir = sites_trace(1);
	struct an_run_opts o = { .n_threads = 2, .unlock_ns = 100 };
	struct an_run *r = syn_open_run(dir, &o);
	struct an_sites s;
	assert_true(an_run_sites_recorded(r));
	syn_assert_fig(r, AN_N, 2);
	/* IT_barrier: 3 ms, all at A, thread 1 */
	assert_int_equal(an_run_sites(r, AN_IT_BARRIER, &s), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.recorded);
	assert_site(&s, 0, SITE_A, "lu.c:412 in daxpy_sweep", 3 * MS, 1.0);
	assert_int_equal(s.v[0].n_threads, 1);
	assert_thread(&s.v[0], 0, 1, 3 * MS);
	an_sites_free(&s);
	/* PT_barrier: 1 ms at A, 0.5 ms each (the lower index first at equal times) */
	assert_int_equal(an_run_sites(r, AN_PT_BARRIER, &s), 0);
	assert_int_equal(s.n, 1);
	assert_site(&s, 0, SITE_A, "lu.c:412 in daxpy_sweep", 1 * MS, 1.0);
	assert_thread(&s.v[0], 0, 1, 500000);
	assert_thread(&s.v[0], 1, 2, 500000);
	an_sites_free(&s);
	/* IT_lock: C 2 ms (2/3, thread 2), B 1 ms (1/3, thread 1) */
	assert_int_equal(an_run_sites(r, AN_IT_LOCK, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.total_ns, 3 * MS);
	assert_site(&s, 0, SITE_C, "solve.c:77", 2 * MS, 2.0 / 3);
	assert_thread(&s.v[0], 0, 2, 2 * MS);
	assert_site(&s, 1, SITE_B, "lu.c:500 in update", 1 * MS, 1.0 / 3);
	assert_thread(&s.v[1], 0, 1, 1 * MS);
	an_sites_free(&s);
	/* PT_lock: the releases by the site of their acquire: C 200, B 100, unknown 100 (id
	 * order breaks the tie: B's 11 before the unknown's UINT32_MAX) */
	assert_int_equal(an_run_sites(r, AN_PT_LOCK, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.total_ns, 400);
	assert_site(&s, 0, SITE_C, "solve.c:77", 200, 0.5);
	assert_site(&s, 1, SITE_B, "lu.c:500 in update", 100, 0.25);
	assert_site(&s, 2, SG_NO_ID, "(unknown site)", 100, 0.25);
	an_sites_free(&s);
	/* nothing at the other sources; not a site source */
	assert_int_equal(an_run_sites(r, AN_IT_COND, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.total_ns, 0);
	an_sites_free(&s);
	assert_int_equal(an_run_sites(r, AN_IT_SCHED, &s), -EINVAL);
	assert_sites_close(r);
	/* a window of the timeline, [4 ms, 6 ms]: thread 2's lock wait 4..5 ms at C, thread 1's
	 * barrier wait 5..6 ms at A */
	assert_int_equal(an_run_sites_window(r, AN_IT_LOCK, 4 * MS, 6 * MS, &s), 0);
	assert_true(s.window);
	assert_int_equal(s.n, 1);
	assert_site(&s, 0, SITE_C, "solve.c:77", 1 * MS, 1.0);
	an_sites_free(&s);
	assert_int_equal(an_run_sites_window(r, AN_IT_BARRIER, 4 * MS, 6 * MS, &s), 0);
	assert_site(&s, 0, SITE_A, "lu.c:412 in daxpy_sweep", 1 * MS, 1.0);
	an_sites_free(&s);
	assert_int_equal(an_run_n_problems(r), 0);
	an_run_free(r);
	syn_rmtree(dir);
}

/* The same events without any SYNC_SITE (a program built before format 1.4): the unknown site
 * holds every source, all of it. */
static void test_sites_unknown(void **state)
{
	const char *dir = sites_trace(0);
	struct an_run_opts o = { .n_threads = 2, .unlock_ns = 100 };
	struct an_run *r = syn_open_run(dir, &o);
	struct an_sites s;
	assert_false(an_run_sites_recorded(r));
	static const struct { enum an_metric m; int64_t ns; } want[] = {
		{ AN_IT_BARRIER, 3 * MS }, { AN_PT_BARRIER, 1 * MS }, { AN_IT_LOCK, 3 * MS },
		{ AN_PT_LOCK, 400 },
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
		assert_int_equal(an_run_sites(r, want[k].m, &s), 0);
		assert_false(s.recorded);
		assert_int_equal(s.n, 1);
		assert_site(&s, 0, SG_NO_ID, "(unknown site)", want[k].ns, 1.0);
		an_sites_free(&s);
	}
	assert_sites_close(r);
	an_run_free(r);
	syn_rmtree(dir);
}

/* The time budget's split by site: test_an_budget's barrier trace with its two episodes at two
 * sites, thread 0 asleep in both waits (woken 30 ns after the first release, 15 ns after the
 * second) and the kernel's run delay saying 20 ns of those 45 ns of wake-up were runnable: the
 * runnable part goes to IT_sched, placed on the two sites' tails with the thread's one share
 * (30 x 20/45 = 13.3 -> 13 at A, the rest of round(45 x 20/45) = 20, 7, at B), so that
 * PT_barrier per site adds up to the figure to the ns. */
static void test_sites_budget_tails(void **state)
{
	static const struct syn_ev t0[] = {
		E(0, THREAD_BEGIN, 0, SG_NO_ID), SITE(100, SITE_A), E(100, BARRIER_ARRIVE, 1, 1),
		E(450, BARRIER_LEAVE, 1, 1), SITE(600, SITE_B), E(600, BARRIER_ARRIVE, 1, 2),
		E(700, BARRIER_LEAVE, 1, 2), E(1000, THREAD_END, 0, 0), END
	};
	static const struct syn_ev t1[] = {
		E(0, THREAD_BEGIN, 1, SG_NO_ID), SITE(400, SITE_A), E(400, BARRIER_ARRIVE, 1, 1),
		E(420, BARRIER_LEAVE, 1, 1), SITE(650, SITE_B), E(650, BARRIER_ARRIVE, 1, 2),
		E(690, BARRIER_LEAVE, 1, 2), E(1000, THREAD_END, 1, 0), END
	};
	static const struct syn_ev sched[] = {
		SAMPLE(0, 100, 0, 0), SAMPLE(0, 101, 0, 0),
		E(110, SWITCH_OUT, 100, 0), E(430, SWITCH_IN, 100, 0),
		E(610, SWITCH_OUT, 100, 0), E(665, SWITCH_IN, 100, 0),
		E(800, SWITCH_OUT, 100, SG_SWITCH_PREEMPTED), E(900, SWITCH_IN, 100, 1),
		SAMPLE(1000, 100, 525, 120), SAMPLE(1000, 101, 1000, 0), END
	};
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	assert_int_equal(sgw_site(w, SITE_A, "jacobi.c", 40, "sweep"), 0);
	assert_int_equal(sgw_site(w, SITE_B, "jacobi.c", 52, "residual"), 0);
	assert_int_equal(syn_thread_tid(w, 0, 100, t0), 0);
	assert_int_equal(syn_thread_tid(w, 1, 101, t1), 0);
	assert_int_equal(syn_sched(w, sched), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	struct an_run_opts o = { .n_cpus = 2 };
	struct an_run *r = syn_open_run(dir, &o);
	syn_assert_fig(r, AN_N, 2);
	/* IT_barrier: thread 0 waits 300 ns at A (100..400), 50 at B (600..650). PT_barrier:
	 * thread 0 at A 450 - 400 = 50 less 13 runnable = 37, thread 1 20: 57; at B thread 0
	 * 700 - 650 = 50 less 7 = 43, thread 1 40: 83; 140 in all (thread 0: 100 less its 20) */
	syn_assert_fig_ns(r, AN_IT_BARRIER, 350);
	syn_assert_fig_ns(r, AN_PT_BARRIER, 140);
	struct an_sites s;
	assert_int_equal(an_run_sites(r, AN_PT_BARRIER, &s), 0);
	assert_int_equal(s.n, 2);
	assert_site(&s, 0, SITE_B, "jacobi.c:52 in residual", 83, 83.0 / 140);
	assert_thread(&s.v[0], 0, 0, 43);
	assert_thread(&s.v[0], 1, 1, 40);
	assert_site(&s, 1, SITE_A, "jacobi.c:40 in sweep", 57, 57.0 / 140);
	assert_thread(&s.v[1], 0, 0, 37);
	assert_thread(&s.v[1], 1, 1, 20);
	an_sites_free(&s);
	assert_int_equal(an_run_sites(r, AN_IT_BARRIER, &s), 0);
	assert_site(&s, 0, SITE_A, "jacobi.c:40 in sweep", 300, 300.0 / 350);
	assert_site(&s, 1, SITE_B, "jacobi.c:52 in residual", 50, 50.0 / 350);
	an_sites_free(&s);
	assert_sites_close(r);
	an_run_free(r);
	syn_rmtree(dir);
}

/* A point's sites are its median repetition's: three repetitions whose IT_barrier is 1, 3 and
 * 2 ms (thread 1 waits at A that long) give the 2 ms one's sites (run ids kept); with a fourth
 * of 4 ms the mean of the 2 and 3 ms ones, 2.5 ms, still all at A. */
static int64_t add_rep(struct store *st, const char *dir, int rep, uint64_t wait)
{
	struct store_run x;
	memset(&x, 0, sizeof x);
	snprintf(x.kind, sizeof x.kind, "par");
	x.n_threads = 2;
	snprintf(x.sizes, sizeof x.sizes, "w=1");
	x.rep = rep;
	assert_int_equal(store_run_begin(st, &x), 0);
	snprintf(x.status, sizeof x.status, "ok");
	x.t_wall_s = x.t_para_s = 10e-3;
	snprintf(x.t_para_source, sizeof x.t_para_source, "threads");
	assert_int_equal(store_run_finish(st, &x, 0, NULL, NULL, 0, NULL), 0);
	char tdir[512];
	snprintf(tdir, sizeof tdir, "%s/runs/%lld/trace", dir, (long long)x.id);
	const struct syn_ev t1[] = {
		E(0, THREAD_BEGIN, 1, SG_NO_ID), SITE(1 * MS, SITE_A),
		E(1 * MS, BARRIER_ARRIVE, 1, 1), E(1 * MS + wait, BARRIER_LEAVE, 1, 1),
		E(10 * MS, THREAD_END, 1, 0), END
	};
	const struct syn_ev t2[] = {
		E(0, THREAD_BEGIN, 2, SG_NO_ID), SITE(1 * MS + wait, SITE_A),
		E(1 * MS + wait, BARRIER_ARRIVE, 1, 1), E(1 * MS + wait, BARRIER_LEAVE, 1, 1),
		E(10 * MS, THREAD_END, 2, 0), END
	};
	struct sgw_trace *w;
	assert_int_equal(sgw_create(tdir, NULL, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	/* each run numbers its sites as it meets them: the same site under another id */
	assert_int_equal(sgw_site(w, SITE_A + (uint32_t)rep, "lu.c", 412, "daxpy_sweep"), 0);
	struct syn_ev v1[6], v2[6];
	memcpy(v1, t1, sizeof v1);
	memcpy(v2, t2, sizeof v2);
	v1[1].id = v2[1].id = SITE_A + (uint32_t)rep;
	assert_int_equal(syn_thread(w, 1, v1), 0);
	assert_int_equal(syn_thread(w, 2, v2), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	return x.id;
}

static void point_store(const char *dir, int n_reps)
{
	static const uint64_t waits[] = { 1 * MS, 3 * MS, 2 * MS, 4 * MS };
	struct store *st;
	int64_t ids[4];
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	assert_int_equal(store_machine_set(st, "test cpu", 2, "test", 1e9, "{\"n_cpus\": 2}"), 0);
	assert_int_equal(store_method_add(st, "fixed", "w=1", 0), 0);
	for (int k = 0; k < n_reps; k++)
		ids[k] = add_rep(st, dir, k, waits[k]);
	struct store_point p;
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "method");
	snprintf(p.method, sizeof p.method, "fixed");
	p.n_threads = 2;
	p.scale = 2;
	p.work = 1;
	p.target = NAN;
	p.t_para_s = 10e-3;
	p.t_seq_s = 15e-3;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "sequential");
	p.converged = 1;
	const char *roles[4] = { "rep", "rep", "rep", "rep" };
	assert_int_equal(store_point_put(st, &p, n_reps, ids, roles), 0);
	store_close(st);
}

static void test_point_median_rep(void **state)
{
	for (int n_reps = 3; n_reps <= 4; n_reps++) {
		const char *dir = syn_tmpdir();
		point_store(dir, n_reps);
		struct an_exp *e = NULL;
		char err[512] = "";
		if (an_exp_open(dir, AN_EXP_NO_STORE_WRITE, &e, err, sizeof err) < 0)
			fail_msg("an_exp_open: %s", err);
		const struct an_point *p = an_exp_point_find(e, "method", "fixed", 2);
		assert_non_null(p);
		struct an_sites s;
		assert_int_equal(an_exp_point_sites(e, p, AN_IT_BARRIER, &s), 0);
		double want = n_reps == 3 ? 2e-3 : 2.5e-3;
		assert_null(p->med[AN_IT_BARRIER].unavailable);
		assert_true(fabs(p->med[AN_IT_BARRIER].value - want) < 1e-12);
		assert_true(fabs(s.total - want) < 1e-12);
		assert_int_equal(s.n, 1);
		assert_true(fabs(s.v[0].s - want) < 1e-12);
		assert_true(fabs(s.v[0].share - 1) < 1e-12);
		assert_int_equal(s.v[0].line, 412);
		assert_int_equal(s.v[0].n_threads, 1);
		assert_int_equal(s.v[0].threads[0].index, 1);
		assert_int_equal(s.n_runs, n_reps == 3 ? 1 : 2);
		/* the repetition(s) whose wait is the median: run ids 3 (2 ms), or 3 and 2 */
		assert_int_equal(s.run_ids[0], 3);
		if (n_reps == 4)
			assert_int_equal(s.run_ids[1], 2);
		an_sites_free(&s);
		an_exp_free(e);
		syn_rmtree(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites_by_hand),
		cmocka_unit_test(test_sites_unknown),
		cmocka_unit_test(test_sites_budget_tails),
		cmocka_unit_test(test_point_median_rep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
