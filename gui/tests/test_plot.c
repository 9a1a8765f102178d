/*
 * test_plot.c — headless rendering tests: every xscalegraph window drawn from the fixture to PNG
 * and SVG (non-blank, expected size, titles and axis labels present in the SVG <desc>), PDF
 * output reproducible byte for byte, tick and unit formatting, and unavailable figures never
 * drawn as zero.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model.h"
#include "../plot.h"
#include "../teach.h"
#include "../view.h"

static char fixture[4096];
static char outdir[4096];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static int load(struct model *m)
{
	char err[512];
	int rc;

	model_init(m);
	rc = model_load_csv_dir(m, fixture, err, sizeof(err));
	if (rc < 0)
		print_error("%s\n", err);
	return rc;
}

/* Count of pixels that differ from white, and of distinct colours (sampled). */
static void png_stats(const char *path, int *w, int *h, long *ink, int *colours)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(path);
	unsigned seen[64] = { 0 };
	int x, y, n = 0;

	*ink = 0;
	assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
	*w = cairo_image_surface_get_width(s);
	*h = cairo_image_surface_get_height(s);
	for (y = 0; y < *h; y++) {
		const uint32_t *row = (const uint32_t *)(cairo_image_surface_get_data(s) +
							 (size_t)y * (size_t)cairo_image_surface_get_stride(s));
		for (x = 0; x < *w; x++) {
			uint32_t p = row[x] & 0xffffff;
			int k;
			if (p == 0xffffff)
				continue;
			(*ink)++;
			for (k = 0; k < n && seen[k] != p; k++)
				;
			if (k == n && n < 64)
				seen[n++] = p;
		}
	}
	*colours = n;
	cairo_surface_destroy(s);
}

/* Every window to PNG + SVG from the fixture; checks each file. */
static void test_export_all_views(void **state)
{
	/* labels each window must show (title words and axis labels) */
	static const char *const want[VIEW_COUNT][4] = {
		[VIEW_BROWSER] = { "Machine", "Scaling methods and their runs", "Runs not ok", "SIGSEGV" },
		[VIEW_PROFILE] = { "Execution profile", "add_time_to_queue", "exclusive time, share of the functions' summed exclusive time", "95.2" },
		[VIEW_PATTERNS] = { "CPU utilization", "memory access rate", "memory access miss rate", "problem size W (log)" },
		[VIEW_TIME] = { "Execution time vs N", "threads N (log", "parallel time T_para (log)", "p_x = 32 (fixed)" },
		[VIEW_LATENCY] = { "Average latency L(W,N) vs N", "threads N (log", "upper bound L at p_x = 32", "e-conserved" },
		[VIEW_SOURCES] = { "Latency sources vs N", "IT_sched runnable (CPU contention)", "zero at every N:", "closure (N T_para in no part):" },
		[VIEW_PARALLELISM] = { "Parallelism vs problem size", "problem size W (log)", "N = 32", "average parallelism (threads on CPU)" },
		[VIEW_MATRIX] = { "Scalability matrix", "N' (to)", "0.42", "n/a" },
		/* the fixture is a CSV experiment: no traces, the window says how to get a run */
		[VIEW_TIMELINE] = { "Run timeline", "no run open: select a run in the browser" },
		[VIEW_TEACH] = { "Speedup (model)", "Efficiency (model)", "Scalability matrix (model)", "measured: fixed" },
	};
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	char err[512], path[4200];
	int i, k;

	(void)state;
	assert_int_equal(load(&m), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	if (view_export_all(outdir, &v, 0, 1, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	for (i = 0; i < VIEW_COUNT; i++) {
		const struct view_desc *d = view_get((enum view_id)i);
		int w, h, colours;
		long ink;
		char *svg;

		snprintf(path, sizeof(path), "%s/%s.png", outdir, d->name);
		png_stats(path, &w, &h, &ink, &colours);
		assert_int_equal(w, d->w);
		assert_int_equal(h, d->h);
		if (i != VIEW_TIMELINE && (ink < (long)w * h / 100 || colours < 3))
			fail_msg("%s: looks blank (%ld ink pixels, %d colours)", path, ink, colours);
		snprintf(path, sizeof(path), "%s/%s.svg", outdir, d->name);
		svg = slurp(path, NULL);
		assert_non_null(svg);
		assert_non_null(strstr(svg, "<title>"));
		assert_non_null(strstr(svg, "<path"));
		for (k = 0; k < 4 && want[i][k]; k++)
			if (!strstr(svg, want[i][k]))
				fail_msg("%s: label \"%s\" missing from <desc>", path, want[i][k]);
		/* the teaching model's matrix is exact: no value is marked as a missed search */
		if (i == VIEW_TEACH && strchr(svg, '~'))
			fail_msg("%s: a model value is marked '~'", path);
		free(svg);
	}
	model_clear(&m);
}

static int draw_time(cairo_t *cr, double w, double h, void *arg)
{
	return view_draw(VIEW_TIME, cr, w, h, arg);
}

static int draw_sources(cairo_t *cr, double w, double h, void *arg)
{
	return view_draw(VIEW_SOURCES, cr, w, h, arg);
}

/* The sources window of method `fixed` as SVG text at w x h (caller frees); a PNG beside it
 * to look at. */
static char *sources_svg(struct view_ctx *v, int w, int h, const char *name)
{
	char err[512], path[4200];

	snprintf(path, sizeof(path), "%s/%s.png", outdir, name);
	if (plot_render_file(path, PLOT_PNG, w, h, "sources", draw_sources, v, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	snprintf(path, sizeof(path), "%s/%s.svg", outdir, name);
	if (plot_render_file(path, PLOT_SVG, w, h, "sources", draw_sources, v, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	return slurp(path, NULL);
}

static void want_text(const char *svg, const char *text, int present)
{
	if ((strstr(svg, text) != NULL) != present)
		fail_msg("\"%s\" %s the sources window", text, present ? "missing from" : "drawn in");
}

/* The sources window's notes: every source has its legend entry; closure is a note, never a
 * source; a source unavailable at every N is listed with its reason; without switch records
 * (IT_blocked unavailable) IT_sched overlaps the waits and is not stacked; extra work below 0
 * at every N is said; a source far below the others is named, not drawn. */
static void test_sources_notes(void **state)
{
	static const char *const legend[] = {
		"IT_edge idle at the edges", "IT_barrier barrier waiting",
		"PT_barrier barrier overhead", "IT_lock lock waiting", "PT_lock lock overhead",
		"PT_thread thread create/join", "IT_sched runnable (CPU contention)",
		"IT_blocked blocked outside primitives", "ML miss stall", "U extra work",
		"L average",
	};
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct model_method *me;
	char *svg;
	size_t i, j;

	(void)state;
	assert_int_equal(load(&m), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	svg = sources_svg(&v, 1100, 620, "sources-budget");
	for (i = 0; i < sizeof(legend) / sizeof(legend[0]); i++)
		want_text(svg, legend[i], 1);
	want_text(svg, "zero at every N:\nIT_cond, IT_sem, PT_sem, IT_join", 1);
	want_text(svg, "closure (N T_para in no part):\n+0.14 % at N=64 (the largest)", 1);
	want_text(svg, "unaccounted share", 0);   /* closure is no source: no legend entry */
	want_text(svg, "unavailable", 0);
	want_text(svg, "IT_sched\n", 1);       /* a layer of the stacked columns */
	free(svg);

	/* no switch records: IT_blocked unavailable, IT_sched from the run-delay counter; U
	 * negative at every N; IT_edge a million times below the rest */
	me = &m.methods[model_method_find(&m, "fixed")];
	for (j = 0; j < me->n_pts; j++) {
		me->pts[j].fig[MODEL_IT_BLOCKED].why = "context-switch records unavailable: EACCES";
		me->pts[j].fig[MODEL_CLOSURE].why = "context-switch records unavailable: EACCES";
		me->pts[j].fig[MODEL_U].v = -0.01;
		me->pts[j].fig[MODEL_IT_EDGE].v = 1e-12 * me->pts[j].n;
	}
	svg = sources_svg(&v, 1100, 620, "sources-no-switches");
	want_text(svg, "unavailable:\nIT_blocked (blocked outside primitives):", 1);
	want_text(svg, "context-switch records unavailable: EACCES", 1);
	want_text(svg, "IT_sched from the run-delay counter", 1);
	want_text(svg, "IT_sched\n", 0);       /* a line, not a layer */
	want_text(svg, "IT_sched runnable (CPU contention)", 1);
	want_text(svg, "at or below 0 at every N", 1);
	want_text(svg, "(below the axis):\nIT_edge", 1);
	want_text(svg, "closure (N T_para", 0);
	free(svg);

	/* narrow: the legend goes into a strip under both charts, the columns keep no legend of
	 * their own, the notes stay */
	svg = sources_svg(&v, 700, 520, "sources-narrow");
	want_text(svg, "U extra work", 1);
	want_text(svg, "IT_lock\n", 0);
	want_text(svg, "IT_sched from the run-delay counter", 1);
	free(svg);
	model_clear(&m);
}

/* The same PDF twice gives the same bytes (fixed creation date). */
static void test_pdf_reproducible(void **state)
{
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	char err[512], a[4200], b[4200];
	size_t la, lb;
	char *x, *y;

	(void)state;
	assert_int_equal(load(&m), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	snprintf(a, sizeof(a), "%s/a.pdf", outdir);
	snprintf(b, sizeof(b), "%s/b.pdf", outdir);
	assert_int_equal(plot_render_file(a, PLOT_PDF, 800, 600, "t", draw_time, &v, err, sizeof(err)), 0);
	sleep(1);
	assert_int_equal(plot_render_file(b, PLOT_PDF, 800, 600, "t", draw_time, &v, err, sizeof(err)), 0);
	x = slurp(a, &la);
	y = slurp(b, &lb);
	assert_non_null(x);
	assert_non_null(y);
	assert_true(la > 1000);
	assert_int_equal(la, lb);
	assert_memory_equal(x, y, la);
	assert_non_null(memmem(x, la, "20000101000000Z", 15));
	free(x);
	free(y);
	model_clear(&m);
}

static void test_ticks_and_units(void **state)
{
	struct plot_axis a = { "t", PLOT_LINEAR, PLOT_UNIT_SECONDS, NAN, NAN, 1 };
	struct plot_ticks t;
	char buf[32];

	(void)state;
	plot_ticks_make(&t, &a, 0.0013, 0.0087);
	assert_string_equal(t.unit, "ms");
	assert_true(t.lo == 0);
	assert_true(t.hi >= 0.0087);
	assert_string_equal(t.text[1], "2");      /* 0, 2, 4, 6, 8, 10 ms */
	plot_ticks_make(&t, &a, 2e-6, 9e-6);
	assert_string_equal(t.unit, "\xc2\xb5s");
	a.scale = PLOT_LOG2;
	a.unit = PLOT_UNIT_NONE;
	plot_ticks_make(&t, &a, 1, 64);
	assert_int_equal(t.n, 7);
	assert_string_equal(t.text[6], "64");
	a.scale = PLOT_LOG10;
	plot_ticks_make(&t, &a, 3e3, 2e6);
	assert_string_equal(t.text[0], "1k");
	assert_string_equal(t.text[t.n - 1], "10M");
	a.scale = PLOT_LINEAR;
	a.unit = PLOT_UNIT_PERCENT;
	plot_ticks_make(&t, &a, 0.2, 0.93);
	assert_string_equal(t.unit, "%");
	assert_string_equal(t.text[t.n - 1], "100");
	plot_format_seconds(buf, sizeof(buf), 0.0334);
	assert_string_equal(buf, "33.4 ms");
	plot_format_seconds(buf, sizeof(buf), 12.5);
	assert_string_equal(buf, "12.5 s");
	plot_format_seconds(buf, sizeof(buf), 340e-9);
	assert_string_equal(buf, "340 ns");
}

/* A series whose middle point is unavailable draws two pieces, nothing at the gap: the pixel
 * column where y = 0 would be stays white. */
static void test_unavailable_is_a_gap(void **state)
{
	static const double x[] = { 1, 2, 3 }, y[] = { 5, NAN, 5 };
	struct plot_series s = { "s", x, y, 3, 0, PLOT_MARK_NONE, 0, 0, 0, NULL, NULL };
	struct plot_chart c;
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(surf);
	struct plot_text_sink sink = { NULL, 0, 0 };
	int blue = 0, row;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.title = "gap";
	c.x = (struct plot_axis){ "x", PLOT_LINEAR, PLOT_UNIT_NONE, NAN, NAN, 0 };
	c.y = (struct plot_axis){ "y", PLOT_LINEAR, PLOT_UNIT_NONE, 0, 10, 0 };
	c.series = &s;
	c.n_series = 1;
	c.mark_x = c.mark_y = NAN;
	plot_text_sink_attach(cr, &sink);
	plot_background(cr, (struct plot_rect){ 0, 0, 400, 300 });
	assert_int_equal(plot_chart_draw(cr, (struct plot_rect){ 0, 0, 400, 300 }, &c), 0);
	cairo_surface_flush(surf);
	/* palette colour 0 is (0, 114, 178): count it anywhere near the bottom axis (y = 0) */
	for (row = 200; row < 250; row++) {
		const uint32_t *p = (const uint32_t *)(cairo_image_surface_get_data(surf) +
						       (size_t)row * (size_t)cairo_image_surface_get_stride(surf));
		int col;
		for (col = 0; col < 300; col++)
			blue += (p[col] & 0xffffff) == 0x0072b2;
	}
	assert_int_equal(blue, 0);
	assert_non_null(strstr(sink.buf, "gap\n"));
	plot_text_sink_free(&sink);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

/* The ideal speedup S = N stays in view however far below it the data lie: with S at most 0.5
 * over N = 1..4 the y axis still reaches 4 (a tick "4" on each axis). */
static void test_ideal_speedup_in_view(void **state)
{
	static const double x[] = { 1, 2, 4 }, y[] = { 0.5, 0.1, 0.02 };
	struct plot_series s = { "s", x, y, 3, 0, PLOT_MARK_NONE, 0, 0, 0, NULL, NULL };
	struct plot_chart c;
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 400, 300);
	cairo_t *cr = cairo_create(surf);
	struct plot_text_sink sink = { NULL, 0, 0 };
	const char *at;
	int fours = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.title = "speedup";
	c.x = (struct plot_axis){ "threads N", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	c.y = (struct plot_axis){ "speedup S", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	c.series = &s;
	c.n_series = 1;
	c.ideal = PLOT_IDEAL_SPEEDUP;
	c.mark_x = c.mark_y = NAN;
	plot_text_sink_attach(cr, &sink);
	assert_int_equal(plot_chart_draw(cr, (struct plot_rect){ 0, 0, 400, 300 }, &c), 0);
	for (at = sink.buf; (at = strstr(at, "\n4\n")) != NULL; at += 2)
		fours++;
	assert_int_equal(fours, 2);
	plot_text_sink_free(&sink);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

static void test_timeline_draws(void **state)
{
	static const struct plot_segment a[] = { { 0, 0.4, 0 }, { 0.4, 0.5, 1 }, { 0.5, 1.0, 0 } };
	static const struct plot_segment b[] = { { 0.1, 0.45, 0 }, { 0.45, 0.5, 2 }, { 0.5, 0.9, 0 } };
	static const struct plot_lane lanes[] = { { "thread 0", a, 3 }, { "thread 1", b, 3 } };
	static const char *const names[] = { "busy", "barrier wait", "barrier overhead" };
	struct plot_timeline t = { .title = "timeline", .lanes = lanes, .n_lanes = 2,
				   .state_names = names, .n_states = 3, .t_min = 0, .t_max = 1.0,
				   .sel_lane = -1 };
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 600, 240);
	cairo_t *cr = cairo_create(surf);
	struct plot_text_sink sink = { NULL, 0, 0 };

	(void)state;
	plot_text_sink_attach(cr, &sink);
	plot_background(cr, (struct plot_rect){ 0, 0, 600, 240 });
	assert_int_equal(plot_timeline_draw(cr, (struct plot_rect){ 0, 0, 600, 240 }, &t), 0);
	assert_non_null(strstr(sink.buf, "thread 1\n"));
	assert_non_null(strstr(sink.buf, "time since the run's start [s]\n"));
	assert_non_null(strstr(sink.buf, "barrier wait\n"));
	t.t_min = 0.4; /* zoomed in */
	t.t_max = 0.5;
	assert_int_equal(plot_timeline_draw(cr, (struct plot_rect){ 0, 0, 600, 240 }, &t), 0);
	plot_text_sink_free(&sink);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}


/* --- issue 15: windows that agree, colours that stay ------------------------------------- */

/* A point at N with T_para t, L l, the rest unavailable; basis: which T_seq it says it uses. */
static void add_pt(struct model *m, const char *method, int n, double w, double t, double l,
		   const char *basis)
{
	struct model_point p;
	int k;

	memset(&p, 0, sizeof(p));
	p.n = n;
	p.w = w;
	p.reps = 1;
	for (k = 0; k < MODEL_N_METRICS; k++)
		p.fig[k] = (struct model_fig){ NAN, "not measured here" };
	p.fig[MODEL_T_PARA] = (struct model_fig){ t, NULL };
	p.fig[MODEL_L] = (struct model_fig){ l, NULL };
	p.fig[MODEL_PARALLELISM] = (struct model_fig){ 0.5 * n, NULL };
	p.t_seq_basis = basis ? model_intern(m, basis) : NULL;
	assert_int_equal(model_add_point(m, method, &p), 0);
}

/* defect15-method-colours-fixed: a method's colour and marker come from its name, not its
 * place: two stores listing "fixed" and "time-bound" in other orders, and a live series adding
 * a method before them, give each the same style (before: the k-th method had the k-th colour,
 * so both changed). */
static void defect15_method_colours_fixed(void **state)
{
	static const char *const a_names[] = { "time-bound", "fixed" };
	static const char *const b_names[] = { "zeta", "fixed", "omega", "time-bound" };
	struct model a, b;
	struct plot_series sa, sb;
	size_t i;
	int k, j;

	(void)state;
	model_init(&a);
	model_init(&b);
	for (i = 0; i < 2; i++)
		add_pt(&a, a_names[i], 1, 100, 1, 0.1, NULL);
	for (i = 0; i < 4; i++)
		add_pt(&b, b_names[i], 1, 100, 1, 0.1, NULL);
	model_finish(&a);
	model_finish(&b);
	for (i = 0; i < 2; i++) {
		k = model_method_find(&a, a_names[i]);
		j = model_method_find(&b, a_names[i]);
		view_method_style(&a, &sa, (size_t)k);
		view_method_style(&b, &sb, (size_t)j);
		if (sa.color != sb.color || sa.marker != sb.marker || sa.dashed != sb.dashed)
			fail_msg("%s: colour %d marker %d in one store, %d %d in the other", a_names[i],
				 sa.color, sa.marker, sb.color, sb.marker);
	}
	/* two names new to the table keep the style they got first, in either model */
	view_method_style(&b, &sa, (size_t)model_method_find(&b, "omega"));
	add_pt(&a, "omega", 1, 100, 1, 0.1, NULL);
	view_method_style(&a, &sb, (size_t)model_method_find(&a, "omega"));
	assert_int_equal(sa.color, sb.color);
	assert_int_equal(sa.marker, sb.marker);
	/* and the paper's methods differ from each other */
	view_method_style(&a, &sa, (size_t)model_method_find(&a, "fixed"));
	view_method_style(&a, &sb, (size_t)model_method_find(&a, "time-bound"));
	assert_true(sa.color != sb.color || sa.marker != sb.marker);
	model_clear(&a);
	model_clear(&b);
}

/* Draws view id of v to a 900x560 image with the text and hit sinks attached. */
static void draw_with_sinks(enum view_id id, struct view_ctx *v, struct plot_text_sink *sink,
			    struct plot_hits *hits)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 900, 560);
	cairo_t *cr = cairo_create(surf);

	plot_text_sink_attach(cr, sink);
	plot_hits_attach(cr, hits);
	assert_int_equal(view_draw(id, cr, 900, 560, v), 0);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

/* defect15-compare-lines-and-px: in compare mode windows 5 and 7 draw the second experiment's
 * points (recorded where drawn: the hit sink), and window 5 marks both experiments' p_x; the
 * value on hover of a point is the model's figure. */
static void defect15_compare_lines_and_px(void **state)
{
	struct model a, b;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 };
	struct plot_hits hits = { NULL, 0, 0 };
	const struct plot_hit *h;
	size_t i, from_b = 0;
	char text[400];

	(void)state;
	model_init(&a);
	model_init(&b);
	assert_int_equal(model_set_name(&a, "a"), 0);
	assert_int_equal(model_set_name(&b, "b"), 0);
	add_pt(&a, "fixed", 1, 100, 4e-3, 1e-3, NULL);
	add_pt(&a, "fixed", 2, 100, 3e-3, 2e-3, NULL);
	add_pt(&b, "fixed", 1, 100, 5e-3, 3e-3, NULL);
	add_pt(&b, "fixed", 2, 100, 6e-3, 4e-3, NULL);
	add_pt(&b, "fixed", 4, 100, 7e-3, 5e-3, NULL);
	model_finish(&a);
	model_finish(&b);
	assert_int_equal(model_merge(&a, &b), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &a, &tp, -1, -1, NULL };
	draw_with_sinks(VIEW_LATENCY, &v, &sink, &hits);
	for (i = 0; i < hits.n; i++)
		from_b += strcmp(hits.v[i].series, "b:fixed") == 0;
	if (from_b != 3)
		fail_msg("window 5 drew %zu points of the compared experiment, not 3", from_b);
	/* p_x of a at N = 2 (T_para 3 ms), of b at N = 1 (5 ms), each with its L */
	if (!strstr(sink.buf, "upper bound L at p_x = 2 (a:fixed): 2 ms"))
		fail_msg("%s", sink.buf);
	assert_non_null(strstr(sink.buf, "upper bound L at p_x = 1 (b:fixed): 3 ms"));
	/* a CSV-like model has no T_para (1 - E): not made up from T_para and E */
	assert_null(strstr(sink.buf, "T_para (1 - E) ="));
	/* hover: the point drawn for b at N = 4 reads its L */
	for (i = 0; i < hits.n && !(hits.v[i].x == 4 && !strcmp(hits.v[i].series, "b:fixed")); i++)
		;
	assert_true(i < hits.n);
	h = plot_hits_nearest(&hits, hits.v[i].px + 3, hits.v[i].py - 2, 10);
	assert_non_null(h);
	plot_hit_text(h, text, sizeof(text));
	assert_string_equal(text, "b:fixed: threads N = 4, average latency L(W,N) = 5 ms");
	assert_null(plot_hits_nearest(&hits, 1, 1, 10));
	plot_hits_reset(&hits);
	plot_text_sink_free(&sink);
	sink = (struct plot_text_sink){ NULL, 0, 0 };
	/* window 7: the chosen method of both experiments, one line per (experiment, N) */
	assert_int_equal(view_set_method(VIEW_PARALLELISM, "fixed"), 0);
	draw_with_sinks(VIEW_PARALLELISM, &v, &sink, &hits);
	assert_non_null(strstr(sink.buf, "Parallelism vs problem size (fixed)"));
	assert_non_null(strstr(sink.buf, "a N = 2"));
	assert_non_null(strstr(sink.buf, "b N = 2"));
	assert_non_null(strstr(sink.buf, "b N = 4"));
	view_set_method(VIEW_PARALLELISM, "");
	plot_hits_free(&hits);
	plot_text_sink_free(&sink);
	model_clear(&a);
	model_clear(&b);
}

/* defect15-tseq-basis-noted (model side): points of one method on two T_seq bases are named
 * with their N in windows 4 and 5; a model that does not say (CSV) says that. */
static void defect15_tseq_basis_mixed(void **state)
{
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 };
	struct plot_hits hits = { NULL, 0, 0 };
	enum view_id ids[2] = { VIEW_TIME, VIEW_LATENCY };
	int i;

	(void)state;
	model_init(&m);
	add_pt(&m, "fixed", 1, 100, 4e-3, 1e-3, "N=1 run (no sequential program)");
	add_pt(&m, "fixed", 2, 100, 3e-3, 2e-3, "untraced sequential run (wall times)");
	add_pt(&m, "fixed", 4, 100, 3e-3, 2e-3, "untraced sequential run (wall times)");
	add_pt(&m, "balls", 2, 200, 3e-3, 2e-3, "untraced sequential run (wall times)");
	model_finish(&m);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	for (i = 0; i < 2; i++) {
		draw_with_sinks(ids[i], &v, &sink, &hits);
		if (!strstr(sink.buf, "T_seq: N=1 run (no sequential program): fixed N=1;") ||
		    !strstr(sink.buf, "T_seq: untraced sequential run (wall times): fixed N=2,4; balls;"))
			fail_msg("window %s: the T_seq bases are not named per point:\n%s",
				 view_get(ids[i])->name, sink.buf);
		plot_text_sink_free(&sink);
		sink = (struct plot_text_sink){ NULL, 0, 0 };
	}
	plot_hits_free(&hits);
	model_clear(&m);
	assert_int_equal(load(&m), 0);
	v.m = &m;
	draw_with_sinks(VIEW_TIME, &v, &sink, &hits);
	assert_non_null(strstr(sink.buf, "T_seq at every point: not said (report --csv has no T_seq basis)"));
	plot_text_sink_free(&sink);
	plot_hits_free(&hits);
	model_clear(&m);
}

/* Draws view id of v at w x h with the text and cut-off sinks attached; the cut sink gets every
 * string that is not wholly inside the picture. */
static void draw_cut(enum view_id id, struct view_ctx *v, int w, int h, struct plot_text_sink *sink,
		     struct plot_text_sink *cut)
{
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	cairo_t *cr = cairo_create(surf);

	plot_text_sink_attach(cr, sink);
	plot_cut_sink_attach(cr, cut);
	assert_int_equal(view_draw(id, cr, w, h, v), 0);
	{
		/* kept to be looked at: build/test-out/gui-plot/cut-NAME-WxH.png */
		char path[4200];
		snprintf(path, sizeof(path), "%s/cut-%s-%dx%d.png", outdir, view_get(id)->name, w, h);
		cairo_surface_write_to_png(surf, path);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
}

/* defect15-sources-axis-title-800: at 800x600 the sources window's drawing is 720x390 (90 % of
 * the screen less its two toggle rows); its y axis title "per-thread latency (source / N) (log)"
 * was centred on a 110 px plot and ran off the top. Now no string of the window is cut, and the
 * title keeps its words (its aside goes when it is too long). */
static void defect15_sources_axis_title_800(void **state)
{
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 }, cut = { NULL, 0, 0 };
	static const int sizes[][2] = { { 720, 390 }, { 1100, 541 }, { 1100, 620 } };
	size_t i;

	(void)state;
	assert_int_equal(load(&m), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		draw_cut(VIEW_SOURCES, &v, sizes[i][0], sizes[i][1], &sink, &cut);
		if (cut.buf)
			fail_msg("sources at %dx%d: cut off: %s", sizes[i][0], sizes[i][1], cut.buf);
		assert_non_null(strstr(sink.buf, "per-thread latency"));
		plot_text_sink_free(&sink);
		plot_text_sink_free(&cut);
	}
	model_clear(&m);
}

/* defect15-browser-runs-not-ok-fits: the main window's browser drawing is 720x300 at 800x600 and
 * 1000x451 at 1366x768; the "Runs not ok" table (the failed runs' reasons) was drawn below its
 * bottom edge. Now the page fits: every table's title and at least one row of failed runs (or a
 * "... more rows" line) inside the picture, nothing cut. */
static void defect15_browser_runs_not_ok_fits(void **state)
{
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 }, cut = { NULL, 0, 0 };
	static const int sizes[][2] = { { 720, 300 }, { 1000, 451 }, { 1000, 520 }, { 1000, 760 } };
	size_t i, r, n_bad = 0;

	(void)state;
	assert_int_equal(load(&m), 0);
	for (r = 0; r < m.n_runs; r++)
		n_bad += m.runs[r].status != MODEL_RUN_OK;
	assert_true(n_bad > 0);   /* the fixture has failed runs to list */
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		draw_cut(VIEW_BROWSER, &v, sizes[i][0], sizes[i][1], &sink, &cut);
		if (cut.buf)
			fail_msg("browser at %dx%d: cut off: %s", sizes[i][0], sizes[i][1], cut.buf);
		if (!strstr(sink.buf, "Runs not ok\n") || !strstr(sink.buf, "Scaling methods and their runs\n") ||
		    !strstr(sink.buf, "reason\n") || !strstr(sink.buf, "failed\n"))
			fail_msg("browser at %dx%d: a table or the failed runs missing:\n%s", sizes[i][0],
				 sizes[i][1], sink.buf);
		plot_text_sink_free(&sink);
		plot_text_sink_free(&cut);
	}
	model_clear(&m);
}

/* defect15-profile-zero-functions-folded: the profile window listed six functions at
 * "0.00 %  0 s" (their share rounds to 0); they fold into one "N functions under 0.05 %" line
 * with their summed share, time and calls, while a throttled function keeps its bar and
 * label however small its recorded share. */
static void defect15_profile_zero_functions_folded(void **state)
{
	static const struct { const char *name; long calls; double s, share; } fs[] = {
		{ "main", 1, 19.6e-6, 0.285 }, { "bil_apply", 250, 18.6e-6, 0.2707 },
		{ "queue_add", 659, 11.7e-6, 0.1704 }, { "ex_cli_parse", 1, 0, 0 },
		{ "bil_world_init", 1, 0, 0 }, { "ex_hash_bytes", 1000, 1e-9, 0.0001 },
		{ "bil_queue_free", 1, 0, 0 },
		{ "walk [throttled: ~1.2 ms more in its callers]", 5000, 0, 0 },
	};
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 }, cut = { NULL, 0, 0 };
	size_t i;

	(void)state;
	model_init(&m);
	for (i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		struct model_func f = { (char *)fs[i].name, fs[i].calls, fs[i].s, fs[i].s, fs[i].share };
		assert_int_equal(model_add_func(&m, &f), 0);
	}
	model_finish(&m);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	draw_cut(VIEW_PROFILE, &v, 720, 520, &sink, &cut);
	if (!strstr(sink.buf, "\n4 functions under 0.05 %\n0.01 %  1 ns  1003 calls together\n"))
		fail_msg("no folded line for the four functions under 0.05 %%:\n%s", sink.buf);
	assert_null(strstr(sink.buf, "ex_cli_parse"));
	assert_null(strstr(sink.buf, "bil_queue_free"));
	assert_null(strstr(sink.buf, "0.00 %  0 s  1 call\n"));
	assert_non_null(strstr(sink.buf, "walk [throttled: ~1.2 ms more in its callers]\n"));
	assert_non_null(strstr(sink.buf, "queue_add\n17.04 %"));
	if (cut.buf)
		fail_msg("profile at 720x520: cut off: %s", cut.buf);
	plot_text_sink_free(&sink);
	model_clear(&m);
}

/* defect15-hover-stacked-columns: the stacked columns of window 6 answered no hover (only the
 * chart's points were recorded). Every layer drawn is recorded as a rectangle: a position in it
 * reads its source, its column's N and its value, the model's figure per thread. */
static void defect15_hover_stacked_columns(void **state)
{
	struct model m;
	struct teach_params tp;
	struct view_ctx v;
	struct plot_text_sink sink = { NULL, 0, 0 };
	struct plot_hits hits = { NULL, 0, 0 };
	const struct plot_hit *h;
	const struct model_point *pt;
	char text[400], want[400], val[32];
	size_t i, rects = 0;
	int k, mi;

	(void)state;
	assert_int_equal(load(&m), 0);
	teach_defaults(&tp);
	v = (struct view_ctx){ &m, &tp, -1, -1, NULL };
	assert_int_equal(view_set_method(VIEW_SOURCES, "fixed"), 0);
	mi = view_chosen_method(&m, VIEW_SOURCES);
	draw_with_sinks(VIEW_SOURCES, &v, &sink, &hits);
	for (i = 0; i < hits.n; i++) {
		if (hits.v[i].pw <= 0)
			continue;
		rects++;
		/* the middle of the layer answers with that layer */
		h = plot_hits_nearest(&hits, hits.v[i].px + hits.v[i].pw / 2,
				      hits.v[i].py + hits.v[i].ph / 2, 10);
		assert_non_null(h);
		if (h->pw * h->ph > hits.v[i].pw * hits.v[i].ph)
			fail_msg("layer %s at N=%s: a larger rectangle answered", hits.v[i].series,
				 hits.v[i].x_text);
		if (h != &hits.v[i])
			continue;   /* a smaller layer (or a marker) drawn over it */
		for (k = MODEL_FIRST_SOURCE; k <= MODEL_LAST_SOURCE; k++)
			if (strcmp(model_metric_name(k), h->series) == 0)
				break;
		assert_true(k <= MODEL_LAST_SOURCE);
		pt = model_point_at(&m, m.methods[mi].name, atoi(h->x_text));
		assert_non_null(pt);
		assert_true(h->x == pt->n);   /* a click there focuses that N, as on a point */
		plot_format_seconds(val, sizeof(val), pt->fig[k].v / pt->n);
		snprintf(want, sizeof(want), "%s: threads N = %d, latency = %s", h->series, pt->n, val);
		plot_hit_text(h, text, sizeof(text));
		assert_string_equal(text, want);
	}
	if (rects < 2 * m.methods[mi].n_pts)
		fail_msg("%zu column layers recorded for %zu columns", rects, m.methods[mi].n_pts);
	view_set_method(VIEW_SOURCES, "");
	plot_hits_free(&hits);
	plot_text_sink_free(&sink);
	model_clear(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_and_units),
		cmocka_unit_test(test_unavailable_is_a_gap),
		cmocka_unit_test(test_ideal_speedup_in_view),
		cmocka_unit_test(test_timeline_draws),
		cmocka_unit_test(test_export_all_views),
		cmocka_unit_test(test_sources_notes),
		cmocka_unit_test(test_pdf_reproducible),
		cmocka_unit_test(defect15_method_colours_fixed),
		cmocka_unit_test(defect15_compare_lines_and_px),
		cmocka_unit_test(defect15_tseq_basis_mixed),
		cmocka_unit_test(defect15_sources_axis_title_800),
		cmocka_unit_test(defect15_browser_runs_not_ok_fits),
		cmocka_unit_test(defect15_profile_zero_functions_folded),
		cmocka_unit_test(defect15_hover_stacked_columns),
	};
	const char *src = getenv("SG_GUI_FIXTURE");
	const char *b = getenv("B");

	snprintf(fixture, sizeof(fixture), "%s", src ? src : "gui/tests/fixture");
	snprintf(outdir, sizeof(outdir), "%s/test-out/gui-plot", b ? b : "build");
	{
		char cmd[4300];
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", outdir);
		if (system(cmd) != 0)
			return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
