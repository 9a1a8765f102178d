/*
 * test_teach.c — the teaching model's numbers against values computed by hand from METRICS.md
 * (E = T_seq/(N T_para), L = T_para - T_seq/N = T_para (1 - E), scale = L/L' or (1-E)/(1-E')).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>

#include "../teach.h"

static void near(double a, double b, int line)
{
	if (fabs(a - b) > 1e-9 * fmax(1, fabs(b)))
		fail_msg("line %d: %.12g, expected %.12g", line, a, b);
}
#define NEAR(a, b) near((a), (b), __LINE__)

/* t_serial = 1 s, t_work = 99 s, o(N) = 0.5 s * g(N), overhead independent of W. */
static void base(struct teach_params *p)
{
	teach_defaults(p);
	p->t_serial_s = 1;
	p->t_work_s = 99;
	p->c_s = 0.5;
	p->beta = 0;
	p->growth = TEACH_CONST;
	p->e_target = 0.5;
	p->t_bound_s = 10;
	p->mem_per_thread = 0.25;
}

static void test_curves(void **state)
{
	struct teach_params p;

	(void)state;
	base(&p);
	/* N = 2, W = 1: T_seq = 100, T_para = 1 + 49.5 + 0.5 = 51 */
	NEAR(teach_t_seq(&p, 1), 100);
	NEAR(teach_t_para(&p, 1, 2), 51);
	NEAR(teach_efficiency(&p, 1, 2), 100.0 / 102);
	NEAR(teach_speedup(&p, 1, 2), 100.0 / 51);
	NEAR(teach_latency(&p, 1, 2), 1.0);          /* t_s (1 - 1/2) + o = 0.5 + 0.5 */
	/* identity (10): L = T_para (1 - E) */
	NEAR(teach_latency(&p, 1, 2), teach_t_para(&p, 1, 2) * (1 - teach_efficiency(&p, 1, 2)));
	NEAR(teach_latency(&p, 1, 1), 0);            /* one thread: no overhead */
	NEAR(teach_efficiency(&p, 1, 1), 1);
	/* the four growths at N = 4 (and 8) */
	NEAR(teach_overhead(&p, 1, 4), 0.5);
	p.growth = TEACH_LOGN;
	NEAR(teach_overhead(&p, 1, 4), 1.0);
	NEAR(teach_overhead(&p, 1, 8), 1.5);
	p.growth = TEACH_N;
	NEAR(teach_overhead(&p, 1, 4), 1.5);
	p.growth = TEACH_NLOGN;
	NEAR(teach_overhead(&p, 1, 4), 4.0);
	NEAR(teach_overhead(&p, 1, 1), 0);
}

static void test_sizes_closed_form(void **state)
{
	struct teach_params p;
	double w;

	(void)state;
	base(&p);
	assert_int_equal(teach_size(&p, TEACH_FIXED, 8, &w), 0);
	NEAR(w, 1);
	assert_int_equal(teach_size(&p, TEACH_MEMORY, 8, &w), 0);
	NEAR(w, 2);                                   /* W = N m = 8 * 0.25 */
	assert_int_equal(teach_size(&p, TEACH_TIME, 4, &w), 0);
	NEAR(w, 34.0 / 99);                           /* (10 - 1 - 0.5) * 4 / 99 */
	NEAR(teach_t_para(&p, w, 4), 10);
	assert_int_equal(teach_size(&p, TEACH_EFF, 4, &w), 0);
	NEAR(w, 2.0 / 49.5);                          /* (0.5*4*1.5 - 1) / (99 * 0.5) */
	NEAR(teach_efficiency(&p, w, 4), 0.5);
	/* unreachable: E target at N = 1, a time bound below the serial part */
	assert_int_equal(teach_size(&p, TEACH_EFF, 1, &w), -ERANGE);
	p.t_bound_s = 0.4;
	assert_int_equal(teach_size(&p, TEACH_TIME, 2, &w), -ERANGE);
	p.e_target = 1.0;
	assert_int_equal(teach_size(&p, TEACH_EFF, 2, &w), -ERANGE);
}

static void test_scale_closed_form(void **state)
{
	struct teach_params p;
	double v;

	(void)state;
	base(&p);
	/* time-bound T = 10: N=2 W=17/99, T_seq=18, E=0.9; N=4 W=34/99, T_seq=35, E=0.875 */
	assert_int_equal(teach_scale(&p, TEACH_TIME, 2, 4, &v), 0);
	NEAR(v, 0.1 / 0.125);
	/* E-conserved E = 0.5: L = T_para / 2 = 1 at N=2, 1.25 at N=4 */
	assert_int_equal(teach_scale(&p, TEACH_EFF, 2, 4, &v), 0);
	NEAR(v, 0.8);
	/* overhead independent of W: memory-bound gives the same L ratio */
	assert_int_equal(teach_scale(&p, TEACH_MEMORY, 2, 4, &v), 0);
	NEAR(v, 1.0 / 1.25);
	assert_int_equal(teach_scale(&p, TEACH_EFF, 1, 4, &v), -ERANGE);
	assert_false(teach_caveat(&p, 2, 4));
}

/* beta = 0.5 (overhead ~ sqrt W), t_s = 0, t_w = 1, c = 1, constant growth:
 * T_para = W/N + sqrt W for N > 1. */
static void test_sizes_bisection(void **state)
{
	struct teach_params p;
	double w, v;

	(void)state;
	base(&p);
	p.t_serial_s = 0;
	p.t_work_s = 1;
	p.c_s = 1;
	p.beta = 0.5;
	p.t_bound_s = 8;
	p.mem_per_thread = 4;
	/* E = sqrtW / (sqrtW + N): E = 0.5 at W = N^2 */
	assert_int_equal(teach_size(&p, TEACH_EFF, 4, &w), 0);
	assert_true(fabs(w - 16) < 1e-6);
	assert_int_equal(teach_size(&p, TEACH_EFF, 2, &w), 0);
	assert_true(fabs(w - 4) < 1e-6);
	/* W/4 + sqrtW = 8 at W = 16; W/2 + sqrtW = 8 at sqrtW = sqrt(17) - 1 */
	assert_int_equal(teach_size(&p, TEACH_TIME, 4, &w), 0);
	assert_true(fabs(w - 16) < 1e-6);
	assert_int_equal(teach_size(&p, TEACH_TIME, 2, &w), 0);
	assert_true(fabs(w - pow(sqrt(17) - 1, 2)) < 1e-6);
	/* E-conserved: L = T_para/2: 2 at N=2 (W=4), 4 at N=4 (W=16) */
	assert_int_equal(teach_scale(&p, TEACH_EFF, 2, 4, &v), 0);
	assert_true(fabs(v - 0.5) < 1e-6);
	/* memory-bound W = 4N: L = sqrt(8) at N=2, sqrt(16) = 4 at N=4 */
	assert_int_equal(teach_scale(&p, TEACH_MEMORY, 2, 4, &v), 0);
	assert_true(fabs(v - sqrt(8) / 4) < 1e-9);
	/* time-bound: E = W/(N T): 1 - E = 1 - (sqrt17-1)^2/16 at N=2, 0.5 at N=4 */
	assert_int_equal(teach_scale(&p, TEACH_TIME, 2, 4, &v), 0);
	assert_true(fabs(v - (1 - pow(sqrt(17) - 1, 2) / 16) / 0.5) < 1e-6);
}

static void test_ns_and_names(void **state)
{
	struct teach_params p;
	int ns[16];

	(void)state;
	teach_defaults(&p);
	p.n_max = 32;
	assert_int_equal(teach_ns(&p, ns, 16), 6);
	assert_int_equal(ns[5], 32);
	assert_string_equal(teach_growth_name(TEACH_NLOGN), "N log N");
	assert_string_equal(teach_model_name(TEACH_EFF), "E-conserved");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curves),
		cmocka_unit_test(test_sizes_closed_form),
		cmocka_unit_test(test_scale_closed_form),
		cmocka_unit_test(test_sizes_bisection),
		cmocka_unit_test(test_ns_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
