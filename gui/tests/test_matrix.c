/*
 * test_matrix.c — window 8 without X: how each kind of value is painted (a flagged value never
 * in a clean value's colour, above 1 apart from 1), how a value is written, hit testing back to
 * the value drawn at a point and cells that grow with the drawing, compared experiments' cells
 * kept apart and still readable once the compared model is freed, and the drawing of two
 * experiments side by side with each p_x (its text, as the SVG writer collects it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../view_matrix.h"

static void paint(double v, const char *marks, const char *want)
{
	char buf[160];

	view_matrix_paint_name(v, marks, buf, sizeof(buf));
	if (strncmp(buf, want, strlen(want)) != 0)
		fail_msg("%g%s painted \"%s\", wanted \"%s...\"", v, marks, buf, want);
}

/* defect15-matrix-colours, the drawing's side: the paint of each kind of value */
static void test_defect15_matrix_paint(void **state)
{
	(void)state;
	paint(0.86, "*", "hatched, muted: suspect (* the paper's caveat)");
	paint(1.0, "*~", "hatched, muted: suspect (* the paper's caveat, ~ off target)");
	paint(0.20, "~", "hatched, muted: suspect (~ off target)");
	paint(1.82, "~", "hatched, muted");        /* flagged wins over above 1 */
	paint(0.92, "", "purple: latency grows little");
	paint(1.0, "", "purple: latency grows little");
	paint(1.08, "", "green: above 1");          /* 1.82 was painted like 1 */
	paint(1.82, "", "green: above 1");
	paint(0.5, "", "pale: latency grows");
	paint(0.16, "", "orange: latency grows much");
	paint(NAN, "", "grey: n/a");
	paint(-0.1, "", "hatched grey: below 0");
}

static void test_format(void **state)
{
	char buf[32];

	(void)state;
	view_matrix_format(buf, sizeof(buf), 1.003, "*");
	assert_string_equal(buf, ">1.00*");        /* above 1 never reads as 1 */
	view_matrix_format(buf, sizeof(buf), 0.996976, "*");
	assert_string_equal(buf, "1.00*");
	view_matrix_format(buf, sizeof(buf), 1.08, "");
	assert_string_equal(buf, "1.08");
	view_matrix_format(buf, sizeof(buf), NAN, "");
	assert_string_equal(buf, "n/a");
}

/* A model with cells over N = 1, 2, 4 (experiment exp), values v0 + k / 10. */
static void add_cells(struct model *m, int exp, double v0, const char *explain)
{
	static const int ns[3] = { 1, 2, 4 };
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = i + 1; j < 3; j++) {
			struct model_cell c;
			memset(&c, 0, sizeof(c));
			c.n = ns[i];
			c.n2 = ns[j];
			c.time_bound.v = v0;
			c.e_conserved.v = v0 + 0.1;
			c.memory_bound.v = v0 + 0.2;
			c.caveat = 1;
			c.exp = exp;
			if (explain)
				c.explain[0] = c.explain[1] = c.explain[2] = model_intern(m, explain);
			assert_int_equal(model_add_cell(m, &c), 0);
		}
}

/* The pixel of value k of cell (n, n2) of experiment exp in a w x h drawing: its centre, found
 * by scanning as xsg's matrix-where does; 0 when it is not drawn. */
static int where(const struct view_ctx *v, double w, double h, int exp, int n, int n2, int k,
		 double *cx, double *cy)
{
	double x, y, x0 = -1, x1 = 0, y0 = -1, y1 = 0;
	struct view_matrix_hit hit;

	for (y = 1; y < h; y += 5)   /* cells are tens of pixels: every 5th is enough */
		for (x = 1; x < w; x += 5)
			if (view_matrix_hit_value(v, w, h, x, y, &hit) && hit.exp == exp &&
			    hit.n == n && hit.n2 == n2 && hit.k == k) {
				if (x0 < 0 || x < x0)
					x0 = x;
				if (y0 < 0 || y < y0)
					y0 = y;
				x1 = fmax(x1, x);
				y1 = fmax(y1, y);
			}
	if (x0 < 0)
		return 0;
	*cx = (x0 + x1) / 2;
	*cy = (y0 + y1) / 2;
	return 1;
}

static void test_hit_and_scale(void **state)
{
	struct model m;
	struct view_ctx v = { &m, NULL, -1, -1, NULL };
	struct view_matrix_hit hit;
	double x800, x1600, y, x, yy;

	(void)state;
	model_init(&m);
	add_cells(&m, 0, 0.5, NULL);
	/* every value of every cell is hit where it is drawn, and nothing below the diagonal */
	assert_true(where(&v, 800, 500, 0, 1, 2, 0, &x, &y));
	assert_true(view_matrix_hit_value(&v, 800, 500, x, y, &hit));
	assert_int_equal(hit.i, 0);
	assert_int_equal(hit.j, 1);
	assert_true(where(&v, 800, 500, 0, 2, 4, 2, &x800, &y));
	assert_true(where(&v, 800, 500, 0, 1, 4, 1, &x, &yy));
	assert_true(yy < y);                         /* row N=1 above row N=2 */
	assert_false(where(&v, 800, 500, 0, 2, 2, 0, &x, &y));
	/* the cells take the space of a wider drawing */
	assert_true(where(&v, 1600, 900, 0, 2, 4, 2, &x1600, &y));
	assert_true(x1600 > x800 + 300);
	model_clear(&m);
}

/* Compare: cells of a compared experiment are its own, copied with their strings. */
static void test_merge_and_draw(void **state)
{
	struct model m, other;
	struct view_ctx v = { &m, NULL, -1, -1, NULL };
	struct plot_text_sink sink = { NULL, 0, 0 };
	cairo_surface_t *s;
	cairo_t *cr;
	const struct model_cell *c;
	double x, y;
	char explain[64];

	(void)state;
	model_init(&m);
	model_set_name(&m, "a.exp");
	add_cells(&m, 0, 0.5, NULL);
	model_init(&other);
	model_set_name(&other, "b.exp");
	snprintf(explain, sizeof(explain), "time-bound  L(W,N) / L(W',N') = 2 s / 4 s = 0.5");
	add_cells(&other, 0, 0.3, explain);
	assert_int_equal(model_merge(&m, &other), 0);
	model_clear(&other);   /* the merged cells must not point into it */
	assert_non_null(c = model_cell_find(&m, 1, 2, 4));
	assert_int_equal(c->exp, 1);
	assert_string_equal(c->explain[0], explain);
	assert_true(fabs(c->time_bound.v - 0.3) < 1e-12);
	assert_true(fabs(model_cell_find(&m, 0, 2, 4)->time_bound.v - 0.5) < 1e-12);
	assert_int_equal(view_matrix_n_exps(&m), 2);
	assert_string_equal(view_matrix_exp_name(&m, 1), "b.exp");
	/* side by side: experiment 1's cell right of experiment 0's */
	{
		double x0;
		assert_true(where(&v, 1200, 600, 0, 1, 2, 0, &x0, &y));
		assert_true(where(&v, 1200, 600, 1, 1, 2, 0, &x, &y));
		assert_true(x > x0 + 400);
	}
	/* the drawing says what it shows: title with both, each panel's header, the marks */
	s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1200, 600);
	cr = cairo_create(s);
	plot_text_sink_attach(cr, &sink);
	assert_int_equal(view_matrix_draw(cr, 1200, 600, &v), 0);
	assert_non_null(strstr(sink.buf, "Scalability matrix \xe2\x80\x94 a.exp vs b.exp"));
	assert_non_null(strstr(sink.buf, "a.exp: p_x"));
	assert_non_null(strstr(sink.buf, "b.exp: p_x"));
	assert_non_null(strstr(sink.buf, "0.30*"));
	assert_non_null(strstr(sink.buf, "0.50*"));
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	plot_text_sink_free(&sink);
	model_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defect15_matrix_paint),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_hit_and_scale),
		cmocka_unit_test(test_merge_and_draw),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
