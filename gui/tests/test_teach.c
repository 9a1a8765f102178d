/*
 * test_teach.c — the teaching model's numbers against values computed by hand from METRICS.md
 * (E = T_seq/(N T_para), L = T_para - T_seq/N = T_para (1 - E), scale = L/L' or (1-E)/(1-E')),
 * and window 11's layout without X (issue 15): the window fits the screen, the drawing at the
 * size a 800x600 screen gives keeps its charts apart with thinned N ticks, and the formula
 * names every term the sliders change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../teach.h"
#include "../view.h"

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
	assert_string_equal(teach_growth_name(TEACH_NLOGN), "N log\xe2\x82\x82 N");
	/* METRICS.md: g = N - 1 for linear growth (g(1) = 0); the window says so too */
	assert_string_equal(teach_growth_name(TEACH_N), "N \xe2\x88\x92 1");
	assert_string_equal(teach_model_name(TEACH_EFF), "E-conserved");
}

/* Renders window 11's drawing at w x h; returns the strings drawn, one per line (free). */
static char *render(double w, double h, const struct teach_params *tp)
{
	struct view_ctx v = { .m = NULL, .tp = (struct teach_params *)tp, .mat_sel_i = -1,
				.mat_sel_j = -1, .tl = NULL };
	struct plot_text_sink sink = { NULL, 0, 0 };
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
	cairo_t *cr = cairo_create(s);
	char *text;

	plot_text_sink_attach(cr, &sink);
	assert_int_equal(view_draw(VIEW_TEACH, cr, w, h, &v), 0);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	text = sink.buf ? sink.buf : strdup("");
	return text;
}

/* The N labels drawn under the speedup chart: the lines between its title and its x axis
 * title. */
static int n_labels(const char *text, const char *title, char labels[][8], int max)
{
	const char *p = strstr(text, title), *end;
	int n = 0;

	assert_non_null(p);
	p = strchr(p, '\n') + 1;
	end = strstr(p, "threads N");
	assert_non_null(end);
	while (p < end && n < max) {
		size_t len = strcspn(p, "\n");
		snprintf(labels[n++], 8, "%.*s", (int)len, p);
		p += len + 1;
	}
	return n;
}

static int overlap(struct teach_rect a, struct teach_rect b)
{
	return a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 &&
	       b.y < a.y + a.h - 0.5;
}

/* defect15-teach-ticks-800: on a 800x600 screen the drawing's charts overlapped their titles
 * and ran the N ticks together ("8163264"). Now: the narrow layout, rectangles apart and
 * inside the drawing, each chart's title narrower than the chart, the N labels thinned to
 * what fits (and all seven drawn when there is room). */
static void defect15_teach_ticks_800(void **state)
{
	struct teach_params p;
	struct teach_layout l;
	struct teach_rect all[6];
	static const char *const titles[] = { "Speedup", "Efficiency", "Latency L(W,N)" };
	char labels[16][8], *text;
	int w, h, col, i, j, n;
	cairo_surface_t *s;
	cairo_t *cr;

	(void)state;
	teach_defaults(&p);
	teach_window_size(800, 600, &w, &h, &col);
	teach_layout(w, h, &l);
	assert_true(l.narrow);
	memcpy(all, l.chart, sizeof(l.chart));
	all[3] = l.matrix;
	all[4] = l.panel;
	all[5] = l.legend;
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
	cr = cairo_create(s);
	plot_set_font(cr, PLOT_FONT_TITLE);
	for (i = 0; i < 6; i++) {
		assert_true(all[i].x >= 0 && all[i].y >= 0);
		assert_true(all[i].x + all[i].w <= w + 0.5 && all[i].y + all[i].h <= h + 0.5);
		for (j = i + 1; j < 6; j++)
			if (overlap(all[i], all[j]))
				fail_msg("rectangles %d and %d overlap at %dx%d", i, j, w, h);
		if (i < 3) {
			assert_true(all[i].w >= TEACH_MIN_CHART_W);
			if (plot_text_width(cr, titles[i]) > all[i].w - 20)
				fail_msg("title \"%s\" wider than its chart (%.0f px)", titles[i], all[i].w);
		}
	}
	assert_true(l.matrix.h >= 200);
	cairo_destroy(cr);
	cairo_surface_destroy(s);

	text = render(w, h, &p);
	n = n_labels(text, "Speedup\n", labels, 16);
	if (n >= 7)
		fail_msg("%dx%d: all %d N labels drawn under a %.0f px chart", w, h, n, l.chart[0].w);
	assert_true(n >= 2);
	assert_string_equal(labels[0], "1");
	free(text);
	/* wide: nothing to thin */
	text = render(1200, 820, &p);
	n = n_labels(text, "Speedup (model)\n", labels, 16);
	assert_int_equal(n, 7);
	assert_string_equal(labels[3], "8");
	assert_string_equal(labels[6], "64");
	free(text);
}

/* defect15-teach-fits-1366: the window was 1527x820, larger than a 1366x768 laptop. */
static void defect15_teach_fits_1366(void **state)
{
	static const int screens[][2] = { { 800, 600 }, { 1366, 768 }, { 1920, 1080 } };
	size_t k;
	int w, h, col;

	(void)state;
	for (k = 0; k < 3; k++) {
		int sw = screens[k][0], sh = screens[k][1];
		teach_window_size(sw, sh, &w, &h, &col);
		if (col + w > sw * 0.9 || h > sh * 0.9)
			fail_msg("%dx%d screen: window %dx%d", sw, sh, col + w, h);
	}
	teach_window_size(1920, 1080, &w, &h, &col);
	assert_int_equal(w, 1200);   /* a big screen gets the full drawing */
	assert_int_equal(h, 820);
}

/* defect15-teach-formula-beta: beta at 0.5 while the formula said "c g(N)". Every term a
 * slider changes is in the formula with its value; W^beta only when beta != 0. */
static void defect15_teach_formula_beta(void **state)
{
	struct teach_params p;
	char f[512], *text;

	(void)state;
	teach_defaults(&p);
	p.beta = 0.5;
	p.t_serial_s = 0.03;
	p.t_work_s = 12;
	p.c_s = 0.002;
	p.growth = TEACH_N;
	teach_formula(&p, f, sizeof(f));
	assert_non_null(strstr(f, "W^0.5"));
	assert_non_null(strstr(f, "0.03 s"));
	assert_non_null(strstr(f, "12 s"));
	assert_non_null(strstr(f, "0.002 s"));
	assert_non_null(strstr(f, "g(N) = N \xe2\x88\x92 1"));
	/* the drawing shows it (both layouts) */
	text = render(1200, 820, &p);
	assert_non_null(strstr(text, "W^0.5"));
	free(text);
	text = render(480, 510, &p);
	assert_non_null(strstr(text, "W^0.5"));
	free(text);
	p.beta = 0;
	teach_formula(&p, f, sizeof(f));
	assert_null(strstr(strchr(f, '\n'), "W^"));   /* the values line: no W^beta term */
	p.beta = 0.25;
	teach_formula(&p, f, sizeof(f));
	assert_non_null(strstr(f, "W^0.25"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curves),
		cmocka_unit_test(test_sizes_closed_form),
		cmocka_unit_test(test_scale_closed_form),
		cmocka_unit_test(test_sizes_bisection),
		cmocka_unit_test(test_ns_and_names),
		{ "defect15-teach-ticks-800", defect15_teach_ticks_800, NULL, NULL, NULL },
		{ "defect15-teach-fits-1366", defect15_teach_fits_1366, NULL, NULL, NULL },
		{ "defect15-teach-formula-beta", defect15_teach_formula_beta, NULL, NULL, NULL },
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
