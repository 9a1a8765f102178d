/*
 * test_bil_sim.c — unit tests of the billiards core (cmocka): the time-division-bin queue
 * against a plain sorted list, the whole simulation against a reference that finds each next
 * collision by scanning every pair (no queue at all), the physics invariants of the final state,
 * the §5.2 data-dependence test on hand-made collisions, and the known-answer check of the
 * coarse decomposition (bil_coarse.h): every ball's state bit for bit that of the sequential
 * procedure, and the same collisions, at every thread count.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bil_coarse.h"
#include "bil_queue.h"
#include "bil_sim.h"

/* (t, pair) order used by the queue. */
static int key_cmp(double ta, long pa, double tb, long pb)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return (pa > pb) - (pa < pb);
}

/* The n earliest events < t_end by brute force over q->t. */
static long naive_peek(const struct bil_queue *q, double t_end, long *out, long n)
{
	long got = 0;
	double last_t = -1;
	long last_p = -1;

	while (got < n) {
		long best = -1;

		for (long p = 0; p < q->n_pairs; p++) {
			if (q->t[p] == HUGE_VAL || q->t[p] >= t_end)
				continue;
			if (got && key_cmp(q->t[p], p, last_t, last_p) <= 0)
				continue;
			if (best < 0 || key_cmp(q->t[p], p, q->t[best], best) < 0)
				best = p;
		}
		if (best < 0)
			break;
		out[got++] = best;
		last_t = q->t[best];
		last_p = best;
	}
	return got;
}

/* Random sets, removals, equal times and far-future times; peek must match brute force, and
 * must keep matching as the scan position moves forward like the simulation's does. */
static void test_queue_matches_sorted_list(void **state)
{
	struct bil_queue q;
	uint64_t cur = 0;
	unsigned seed = 12345;
	double now = 0;
	long got[16], want[16];

	assert_int_equal(bil_queue_init(&q, 300, 64, 0.05, 4), 0);
	for (int round = 0; round < 2000; round++) {
		for (int k = 0; k < 5; k++) {
			long p = rand_r(&seed) % 300;
			int kind = rand_r(&seed) % 10;
			double t;

			if (kind == 0)
				t = HUGE_VAL;
			else if (kind == 1)
				t = now + 1e6 * (rand_r(&seed) % 100);	/* far future */
			else if (kind == 2)
				t = now;				/* ties */
			else
				t = now + (rand_r(&seed) % 1000) * 0.003;
			bil_queue_set(&q, p, t);
		}
		long n = naive_peek(&q, 1e300, want, 16);
		long m = bil_queue_peek(&q, &cur, 1e300, got, 16);

		assert_int_equal(m, n);
		for (long i = 0; i < n; i++)
			assert_int_equal(got[i], want[i]);
		if (n > 0) {	/* "execute" the earliest: time moves on to it */
			now = q.t[want[0]];
			bil_queue_set(&q, want[0], HUGE_VAL);
		}
	}
	/* t_end cuts the list */
	long n = naive_peek(&q, now + 0.5, want, 16);
	assert_int_equal(bil_queue_peek(&q, &cur, now + 0.5, got, 16), n);
	bil_queue_free(&q);
}

/* Runs the sequential simulation to t_end choosing each next collision by scanning all pairs
 * (the queue is still updated by bil_apply but never asked). */
static long long run_reference(struct bil_world *w, double t_end)
{
	struct bil_result r;
	long long n = 0;
	long p;

	while (naive_peek(&w->q, t_end, &p, 1) == 1) {
		bil_collide(w, p, &r);
		bil_apply(w, &r);
		n++;
	}
	return n;
}

static long long run_queue(struct bil_world *w, double t_end)
{
	struct bil_result r;
	uint64_t cur = 0;
	long long n = 0;
	long p;

	while (bil_queue_peek(&w->q, &cur, t_end, &p, 1) == 1) {
		bil_collide(w, p, &r);
		bil_apply(w, &r);
		n++;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorted |v| of every ball: collisions only exchange or reverse velocities. */
static double *speeds(const struct bil_world *w)
{
	double *s = malloc((size_t)w->n_balls * sizeof *s);

	for (long i = 0; i < w->n_balls; i++)
		s[i] = fabs(w->ball[i].v);
	qsort(s, (size_t)w->n_balls, sizeof *s, cmp_double);
	return s;
}

static void check_sim_against_reference(long balls, double t_end)
{
	struct bil_world a, b, c;
	double *s0, *s1;
	long long na, nb, nc;

	assert_int_equal(bil_world_init(&a, balls, 0, 0), 0);
	assert_int_equal(bil_world_init(&b, balls, 3, 0), 0);
	assert_int_equal(bil_world_init(&c, balls, 5, 0), 0);	/* few bins: long lists */
	s0 = speeds(&a);
	na = run_queue(&a, t_end);
	nb = run_reference(&b, t_end);
	nc = run_queue(&c, t_end);
	assert_true(na > 0);
	assert_int_equal(na, nb);
	assert_int_equal(na, nc);
	assert_int_equal(bil_world_checksum(&a, t_end), bil_world_checksum(&b, t_end));
	assert_int_equal(bil_world_checksum(&a, t_end), bil_world_checksum(&c, t_end));
	/* physics: balls stay in order, apart and inside the walls; speeds are conserved */
	for (long i = 0; i < balls; i++) {
		const struct bil_ball *x = &a.ball[i];
		double pos = x->x + x->v * (t_end - x->t);

		assert_true(pos >= a.diameter / 2 - 1e-9);
		assert_true(pos <= a.length - a.diameter / 2 + 1e-9);
		if (i + 1 < balls) {
			const struct bil_ball *y = &a.ball[i + 1];
			double pos2 = y->x + y->v * (t_end - y->t);

			assert_true(pos2 - pos >= a.diameter - 1e-9);
		}
	}
	s1 = speeds(&a);
	assert_memory_equal(s0, s1, (size_t)balls * sizeof *s0);
	free(s0);
	free(s1);
	bil_world_free(&a);
	bil_world_free(&b);
	bil_world_free(&c);
}

static void test_sim_one_ball(void **state)
{
	check_sim_against_reference(1, 40.0);
}

static void test_sim_small(void **state)
{
	check_sim_against_reference(7, 25.0);
}

static void test_sim_medium(void **state)
{
	check_sim_against_reference(400, 4.0);
}

static struct bil_result mk(long pair, double t, long ev_pair, double ev_t)
{
	struct bil_result r;

	memset(&r, 0, sizeof r);
	r.pair = pair;
	r.t = t;
	r.n_events = 1;
	r.ev_pair[0] = ev_pair;
	r.ev_t[0] = ev_t;
	return r;
}

static void test_dependence(void **state)
{
	struct bil_result r[4];

	/* far apart, new events late: all independent */
	r[0] = mk(10, 1.0, 11, 9.0);
	r[1] = mk(20, 1.1, 21, 9.0);
	r[2] = mk(30, 1.2, 31, 9.0);
	assert_int_equal(bil_independent_prefix(r, 3), 3);
	/* a shared ball (pairs 20 and 21) */
	r[2] = mk(21, 1.2, 22, 9.0);
	assert_int_equal(bil_independent_prefix(r, 3), 2);
	/* pairs two apart share the pair between them */
	r[2] = mk(22, 1.2, 23, 9.0);
	assert_int_equal(bil_independent_prefix(r, 3), 2);
	/* three apart: independent */
	r[2] = mk(23, 1.2, 24, 9.0);
	assert_int_equal(bil_independent_prefix(r, 3), 3);
	/* early recollision: the first creates an event before the third (after the second) */
	r[0] = mk(10, 1.0, 11, 1.15);
	assert_int_equal(bil_independent_prefix(r, 3), 2);
	/* ... and before the second */
	r[0] = mk(10, 1.0, 11, 1.05);
	assert_int_equal(bil_independent_prefix(r, 3), 1);
	/* equal time, smaller pair index first: also early */
	r[0] = mk(10, 1.0, 11, 1.1);
	assert_int_equal(bil_independent_prefix(r, 3), 1);
	r[0] = mk(30, 1.0, 31, 1.1);
	r[1] = mk(20, 1.1, 21, 9.0);
	assert_int_equal(bil_independent_prefix(r, 2), 2);
	assert_int_equal(bil_independent_prefix(r, 1), 1);
}

/* The coarse decomposition against the sequential procedure: the same collisions and every
 * ball's (x, v, t) bit for bit, for N = 1, 2, 3, 4, 7 and 16 threads. */
static void check_coarse(long balls, double t_end)
{
	static const long threads[] = { 1, 2, 3, 4, 7, 16 };
	struct bil_world ref;
	long long n_ref;

	assert_int_equal(bil_world_init(&ref, balls, 0, 0), 0);
	n_ref = run_queue(&ref, t_end);
	assert_true(n_ref > 0);
	for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
		struct bil_world w;
		struct bil_coarse *c;
		long long n = 0, windows = 0;

		if (threads[i] > 1 && balls < threads[i] * BIL_COARSE_MIN_BALLS)
			continue;
		assert_int_equal(bil_world_init(&w, balls, 0, 0), 0);
		assert_int_equal(bil_coarse_init(&c, &w, threads[i]), 0);
		assert_int_equal(bil_coarse_run(c, t_end, &n, &windows), 0);
		assert_int_equal(n, n_ref);
		assert_true(windows >= 1);
		if (threads[i] == 1)
			assert_int_equal(windows, 1);	/* no boundary: one window to the end */
		assert_memory_equal(w.ball, ref.ball, (size_t)balls * sizeof *w.ball);
		assert_int_equal(bil_world_checksum(&w, t_end), bil_world_checksum(&ref, t_end));
		bil_coarse_free(c);
		bil_world_free(&w);
	}
	bil_world_free(&ref);
}

static void test_coarse_small(void **state)
{
	check_coarse(8, 30.0);		/* N = 1 and 2 only: a zone of one pair */
	check_coarse(30, 30.0);
}

static void test_coarse_medium(void **state)
{
	check_coarse(3000, 12.0);	/* a few dozen windows at N >= 2 */
}

static void test_coarse_too_few_balls(void **state)
{
	struct bil_world w;
	struct bil_coarse *c = (struct bil_coarse *)&w;

	assert_int_equal(bil_world_init(&w, 7, 0, 0), 0);
	assert_int_equal(bil_coarse_init(&c, &w, 2), -EINVAL);
	assert_null(c);
	assert_int_equal(bil_coarse_init(&c, &w, 1), 0);
	bil_coarse_free(c);
	bil_world_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_matches_sorted_list),
		cmocka_unit_test(test_sim_one_ball),
		cmocka_unit_test(test_sim_small),
		cmocka_unit_test(test_sim_medium),
		cmocka_unit_test(test_dependence),
		cmocka_unit_test(test_coarse_small),
		cmocka_unit_test(test_coarse_medium),
		cmocka_unit_test(test_coarse_too_few_balls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
