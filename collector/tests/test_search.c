/*
 * test_search.c — the size search on synthetic functions whose answer is known: a time
 * T(s) = a + b s / N (the shape of a program with a serial start-up), an efficiency that
 * saturates, an unreachable target and integer-only sizes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "search.h"

struct model {
	double a, b, n;
	int integral; /* s rounded like integral sizes of 100 * s */
};

static double t_of(const struct model *m, double s)
{
	if (m->integral)
		s = round(100 * s) / 100;
	return m->a + m->b * s / m->n;
}

static double e_of(const struct model *m, double s)
{
	double seq = m->a + m->b * s, par = m->a + m->b * s / m->n;
	return seq / (m->n * par);
}

/* What the program measures at scale s: y(s) of a model, or of a shape given by a test. */
struct probe_fn {
	const struct model *m;
	int eff;                            /* e_of instead of t_of */
	double (*shape)(double s, double n); /* when set, y = shape(s, n) */
	double n;
};

static double measure(const struct probe_fn *f, double s)
{
	if (f->shape)
		return f->shape(s, f->n);
	return f->eff ? e_of(f->m, s) : t_of(f->m, s);
}

/* Runs a search from s0 to its end, measuring with f. */
static int drive(struct search *sr, const struct probe_fn *f, double s0, int *best, char *why)
{
	double s = s0;
	for (;;) {
		search_add(sr, s, measure(f, s));
		enum search_state st = search_next(sr, &s, best, why, 256, NULL, NULL);
		if (st != SEARCH_CONTINUE)
			return st;
	}
}

static int run_search(struct search *sr, const struct model *m, int eff, double s0, int *best,
		      char *why)
{
	struct probe_fn f = { m, eff, NULL, 0 };
	return drive(sr, &f, s0, best, why);
}

/* Replays probes recorded from real runs (s, y) at N = n and returns the search's next step. */
static enum search_state replay(struct search *sr, enum search_kind kind, double target, double n,
				int k, const double probe[][2], double *s_next, int *best, char *why)
{
	search_init(sr, kind, target, 0.02, n * 1e-4, n * 1e4, 2.0, 6);
	for (int i = 0; i < k; i++)
		search_add(sr, probe[i][0], probe[i][1]);
	return search_next(sr, s_next, best, why, 256, NULL, NULL);
}

/* An E search from s0 that must end "target unreachable at this N" within max_runs probes. */
static void assert_unreachable(const struct probe_fn *f, double target, double s0, int max_runs)
{
	struct search sr;
	int best;
	char why[256];
	search_init(&sr, SEARCH_EFFICIENCY, target, 0.02, s0 * 1e-4, s0 * 1e4, 1.0, 6);
	assert_int_equal(drive(&sr, f, s0, &best, why), SEARCH_GAVE_UP);
	assert_non_null(strstr(why, "target unreachable at this N"));
	assert_true(best >= 0);
	assert_true(sr.n <= max_runs);
}

static void time_bound_converges_within_six(void **state)
{
	(void)state;
	for (int n = 1; n <= 8; n *= 2) {
		struct model m = { 0.05, 0.1, n, 0 };
		struct search sr;
		int best;
		char why[256];
		search_init(&sr, SEARCH_TIME, 2.0, 0.02, n * 1e-4, n * 1e4, 1.0, 6);
		assert_int_equal(run_search(&sr, &m, 0, n, &best, why), SEARCH_CONVERGED);
		double want = (2.0 - 0.05) / 0.1 * n; /* s with T = 2 */
		assert_true(fabs(sr.probe[best].s - want) / want < 0.03);
		assert_true(sr.n <= 6);
	}
}

static void e_conserved_converges(void **state)
{
	(void)state;
	/* E(s) = (a + b s) / (N a + b s): E = 0.8 at N = 2 when b s = 3 a */
	struct model m = { 0.05, 0.001, 2, 0 };
	struct search sr;
	int best;
	char why[256];
	search_init(&sr, SEARCH_EFFICIENCY, 0.8, 0.02, 2e-4, 2e4, 1.0, 6);
	assert_int_equal(run_search(&sr, &m, 1, 2, &best, why), SEARCH_CONVERGED);
	assert_true(fabs(e_of(&m, sr.probe[best].s) - 0.8) <= 0.02);
	assert_true(sr.n <= 6);
}

static void unreachable_is_reported(void **state)
{
	(void)state;
	/* at N = 1 the efficiency is 1 whatever the size */
	struct model m = { 0.05, 0.001, 1, 0 };
	struct probe_fn f = { &m, 1, NULL, 0 };
	assert_unreachable(&f, 0.5, 1, 3);
}

/* A deterministic +-amp wobble, the scatter of real run times. */
static double wobble(double s, double amp)
{
	double x = sin(s * 12.9898) * 43758.5453;
	return amp * (2 * (x - floor(x)) - 1);
}

static double flat_noisy_e(double s, double n)
{
	(void)n;
	return 1 + wobble(s, 0.02);
}

static void flat_noisy_efficiency_is_unreachable(void **state)
{
	(void)state;
	/* N = 1 measured: E = 1 +- 0.02 whatever the size (T_seq and T_1 both scatter) */
	struct probe_fn f = { NULL, 0, flat_noisy_e, 1 };
	assert_unreachable(&f, 0.8, 1, 3);
}

static double falling_e(double s, double n)
{
	(void)n;
	return 0.4 / (1 + s);
}

static void efficiency_falling_with_size_is_unreachable(void **state)
{
	(void)state;
	/* a barrier-bound program: E falls as the size grows (billiards here) */
	struct probe_fn f = { NULL, 0, falling_e, 2 };
	assert_unreachable(&f, 0.5, 2, 3);
}

static void efficiency_far_below_and_falling_is_unreachable(void **state)
{
	(void)state;
	/* recorded here: billiards N = 2, E = 0.043 at s = 2 and 0.040 at s = 4, target 0.5; the
	 * fall is within the tolerance but the gap is a hundred times larger */
	static const double probe[][2] = { { 2, 0.04315 }, { 4, 0.03983 } };
	struct search sr;
	int best;
	double s;
	char why[256];
	assert_int_equal(replay(&sr, SEARCH_EFFICIENCY, 0.5, 2, 2, probe, &s, &best, why),
			 SEARCH_GAVE_UP);
	assert_non_null(strstr(why, "target unreachable at this N"));
	assert_int_equal(best, 0);
}

static double noisy_t(double s, double n)
{
	return (0.01 + 0.05 * s / n) * (1 + wobble(s, 0.01));
}

static void noisy_time_bound_converges(void **state)
{
	(void)state;
	/* T = 0.01 + 0.05 s / N, +-1 % scatter: bound 0.3 s within 2 % in <= 6 probes */
	for (int n = 1; n <= 4; n *= 2) {
		struct search sr;
		struct probe_fn f = { NULL, 0, noisy_t, n };
		int best;
		char why[256];
		search_init(&sr, SEARCH_TIME, 0.3, 0.02, n * 1e-4, n * 1e4, 1.0, 6);
		assert_int_equal(drive(&sr, &f, n, &best, why), SEARCH_CONVERGED);
		assert_true(sr.n <= 6);
	}
}

static void time_scatter_is_not_a_verdict(void **state)
{
	(void)state;
	/* recorded here (billiards N = 4, loaded machine): T fell between two nearby sizes */
	static const double probe[][2] = { { 4, 1.297 }, { 4.968, 1.163 } };
	struct search sr;
	int best;
	double s;
	char why[256];
	assert_int_equal(replay(&sr, SEARCH_TIME, 2.0, 4, 2, probe, &s, &best, why), SEARCH_CONTINUE);
	assert_true(s > 4.968 * 1.1);
	/* ... but a fall over a full step (x8) is believed */
	search_add(&sr, 40, 1.0);
	assert_int_equal(search_next(&sr, &s, &best, why, sizeof why, NULL, NULL), SEARCH_GAVE_UP);
	assert_non_null(strstr(why, "target unreachable at this N"));
}

static void fall_between_nearby_sizes_after_a_long_step(void **state)
{
	(void)state;
	/* recorded here: jacobi N = 1 along n = 512 s^0.5, T = 0.043 at s = 1, 0.467 at s = 8 and
	 * 0.410 at s = 8.5: the probes span x8, but T grew over it; the fall is scatter */
	static const double probe[][2] = { { 1, 0.04344 }, { 8, 0.4667 }, { 8.497, 0.4104 } };
	struct search sr;
	int best;
	double s;
	char why[256];
	assert_int_equal(replay(&sr, SEARCH_TIME, 0.5, 1, 3, probe, &s, &best, why), SEARCH_CONTINUE);
	assert_true(s > 8.497);
}

static double cache_bound_e(double s, double n)
{
	(void)n;
	return 1.0 / (1 + 0.4 * s); /* E falls as the data outgrow the caches */
}

static void efficiency_falling_with_size_turns_the_search_around(void **state)
{
	(void)state;
	/* recorded shape (jacobi N = 1 here: E = 0.995 at s = 0.125, 0.686 at s = 1): E = 0.5
	 * lies at larger sizes; here at s = 2.5 */
	struct search sr;
	struct probe_fn f = { NULL, 0, cache_bound_e, 1 };
	int best;
	char why[256];
	search_init(&sr, SEARCH_EFFICIENCY, 0.5, 0.02, 1e-4, 1e4, 1.0, 6);
	assert_int_equal(drive(&sr, &f, 1, &best, why), SEARCH_CONVERGED);
	assert_int_equal(sr.sign, -1);
	assert_true(fabs(cache_bound_e(sr.probe[best].s, 1) - 0.5) <= 0.02);
	assert_true(sr.n <= 6);
}

static void sizes_closer_than_the_scatter_are_not_probed(void **state)
{
	(void)state;
	/* recorded: bracket 37612..38074 balls, the secant proposes one ball more */
	static const double probe[][2] = { { 7.5224, 1.9522 * 0.95 }, { 7.6148, 2.6489 },
					   { 7.5316, 2.2993 } };
	struct search sr;
	int best;
	double s;
	char why[256];
	assert_int_equal(replay(&sr, SEARCH_TIME, 2.0, 2, 3, probe, &s, &best, why), SEARCH_GAVE_UP);
	assert_non_null(strstr(why, "sizes cannot be resolved finer"));
	assert_true(fabs(sr.probe[best].s - 7.5224) < 1e-9);
}

static void size_limit_is_reported(void **state)
{
	(void)state;
	struct model m = { 0.05, 0.1, 1, 0 };
	struct search sr;
	int best;
	char why[256];
	search_init(&sr, SEARCH_TIME, 100.0, 0.02, 1e-4, 20, 1.0, 6);
	assert_int_equal(run_search(&sr, &m, 0, 1, &best, why), SEARCH_GAVE_UP);
	assert_non_null(strstr(why, "target unreachable within the size limits"));
	assert_true(fabs(sr.probe[best].s - 20) < 1e-9);
}

/* An efficiency creeping toward an unreachable 0.3 while each run's time caps the size: the
 * runner narrows s_max after every probe to what keeps a run under 5 s by the work exponent
 * (2), but T grows a little faster (s^2.05), so the cap moves down after each probe near it.
 * One probe at the cap, then the verdict, not probe after probe just under a moving cap (the
 * demo's N=4 E search made five 5 s runs there). */
static double creeping_e(double s, double n)
{
	(void)n;
	return 0.0046 * log(s) - 0.002;
}

static void moving_size_cap_is_a_limit(void **state)
{
	(void)state;
	struct probe_fn f = { NULL, 1, creeping_e, 4 };
	struct search sr;
	int best;
	char why[256];
	double s = 4;
	search_init(&sr, SEARCH_EFFICIENCY, 0.3, 0.02, 4e-4, 4e4, 2.0, 6);
	for (;;) {
		search_add(&sr, s, measure(&f, s));
		double t = 0.02 * pow(s, 2.05);
		double cap = s * sqrt(5.0 / t);
		if (cap < sr.s_max)
			sr.s_max = cap;
		if (search_next(&sr, &s, &best, why, sizeof why, NULL, NULL) != SEARCH_CONTINUE)
			break;
	}
	assert_non_null(strstr(why, "target unreachable within the size limits"));
	int at_cap = 0;
	for (int i = 0; i < sr.n; i++)
		at_cap += sr.probe[i].s > 0.8 * sr.s_max;
	assert_int_equal(at_cap, 1);
}

static void gives_up_after_max_probes(void **state)
{
	(void)state;
	struct model m = { 0.05, 0.1, 1, 0 };
	struct search sr;
	int best;
	char why[256];
	search_init(&sr, SEARCH_TIME, 2.0, 1e-9, 1e-4, 1e4, 1.0, 3);
	assert_int_equal(run_search(&sr, &m, 0, 1, &best, why), SEARCH_GAVE_UP);
	assert_int_equal(sr.n, 3);
	assert_non_null(strstr(why, "not within tolerance after 3 runs"));
}

static void failed_runs_give_up_clearly(void **state)
{
	struct search sr;
	int best;
	double s;
	char why[256];
	(void)state;
	search_init(&sr, SEARCH_TIME, 2.0, 0.02, 1e-4, 1e4, 1.0, 6);
	search_add(&sr, 1, NAN);
	assert_int_equal(search_next(&sr, &s, &best, why, sizeof why, NULL, NULL), SEARCH_GAVE_UP);
	assert_int_equal(best, -1);
	assert_string_equal(why, "every run of the search failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(time_bound_converges_within_six),
		cmocka_unit_test(e_conserved_converges),
		cmocka_unit_test(unreachable_is_reported),
		cmocka_unit_test(flat_noisy_efficiency_is_unreachable),
		cmocka_unit_test(efficiency_falling_with_size_is_unreachable),
		cmocka_unit_test(efficiency_far_below_and_falling_is_unreachable),
		cmocka_unit_test(noisy_time_bound_converges),
		cmocka_unit_test(time_scatter_is_not_a_verdict),
		cmocka_unit_test(fall_between_nearby_sizes_after_a_long_step),
		cmocka_unit_test(efficiency_falling_with_size_turns_the_search_around),
		cmocka_unit_test(sizes_closer_than_the_scatter_are_not_probed),
		cmocka_unit_test(size_limit_is_reported),
		cmocka_unit_test(moving_size_cap_is_a_limit),
		cmocka_unit_test(gives_up_after_max_probes),
		cmocka_unit_test(failed_runs_give_up_clearly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
