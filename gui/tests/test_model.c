/*
 * test_model.c — the GUI model filled from the fixture: counts, the time budget's identities on
 * every point (so the fixture is consistent and the loader keeps every column in its place),
 * the metric names against the analyzer's, unavailable figures with their reasons, p_x, matrix
 * cells, listeners, and CSV errors with file:line:col locations.
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
#include <unistd.h>

#include "../model.h"
#include "analyzer.h"

static char fixture[4096];
static char tmpdir[4096];

static void load(struct model *m)
{
	char err[512];

	model_init(m);
	if (model_load_csv_dir(m, fixture, err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

static void rel_near(double a, double b, double tol, const char *what, const char *method, int n)
{
	if (fabs(a - b) > tol * fmax(fabs(b), 1e-12))
		fail_msg("%s N=%d: %s: %.9g vs %.9g", method, n, what, a, b);
}

static void test_counts(void **state)
{
	struct model m;

	(void)state;
	load(&m);
	assert_int_equal(m.n_methods, 4);
	assert_string_equal(m.methods[0].name, "fixed");
	assert_int_equal(m.methods[0].n_pts, 7);
	assert_int_equal(m.methods[model_method_find(&m, "e-conserved")].n_pts, 5);
	assert_int_equal(m.n_runs, 81);
	assert_int_equal(m.n_cells, 15);
	assert_int_equal(m.n_funcs, 6);
	assert_string_equal(m.funcs[0].name, "add_time_to_queue"); /* sorted by exclusive time */
	assert_int_equal(m.n_cpus, 32);
	assert_int_equal(m.cur_method, 0);
	assert_string_equal(m.name, "fixture");
	model_clear(&m);
}

/* IT + PT + ML: every source but U (extra work). */
static double sum_sources(const struct model_point *p)
{
	double s = 0;
	int k;

	for (k = MODEL_IT_EDGE; k <= MODEL_ML; k++)
		if (!p->fig[k].why)
			s += p->fig[k].v;
	return s;
}

/* E = T_seq/(N T_para), S = T_seq/T_para, L = (IT + PT + ML)/N, and the books of the budget:
 * N T_para (1 - closure) = T_seq + IT + PT + ML + U; parallelism at most min(N, CPUs). */
static void test_identities(void **state)
{
	struct model m;
	size_t i, j;

	(void)state;
	load(&m);
	for (i = 0; i < m.n_methods; i++)
		for (j = 0; j < m.methods[i].n_pts; j++) {
			const struct model_point *p = &m.methods[i].pts[j];
			const char *name = m.methods[i].name;
			double tp = p->fig[MODEL_T_PARA].v, ts = p->fig[MODEL_T_SEQ].v;
			rel_near(p->fig[MODEL_E].v, ts / (p->n * tp), 1e-6, "E", name, p->n);
			rel_near(p->fig[MODEL_S].v, ts / tp, 1e-6, "S", name, p->n);
			rel_near(p->fig[MODEL_L].v, sum_sources(p) / p->n, 1e-6, "L", name, p->n);
			rel_near(p->n * tp * (1 - p->fig[MODEL_CLOSURE].v),
				 ts + sum_sources(p) + p->fig[MODEL_U].v, 1e-6, "books", name, p->n);
			assert_true(fabs(p->fig[MODEL_CLOSURE].v) < 0.01);
			assert_true(p->fig[MODEL_PARALLELISM].v <= fmin(p->n, m.n_cpus) + 1e-9);
			assert_int_equal(p->oversubscribed, p->n > m.n_cpus);
			assert_null(p->fig[MODEL_ML].why);
			assert_null(p->fig[MODEL_IT_BLOCKED].why);
		}
	model_clear(&m);
}

static void test_unavailable_and_px(void **state)
{
	struct model m;
	const struct model_point *p;
	int k;

	(void)state;
	load(&m);
	p = model_point_at(&m, "fixed", 8);
	assert_non_null(p);
	assert_null(p->fig[MODEL_IT_COND].why);      /* zero is a value, not unavailable */
	assert_true(p->fig[MODEL_IT_COND].v == 0);
	assert_true(p->fig[MODEL_IT_SEM].v == 0 && p->fig[MODEL_PT_SEM].v == 0);
	/* oversubscribed (64 threads on 32 CPUs): runnable time is the largest source */
	p = model_point_at(&m, "fixed", 64);
	for (k = MODEL_FIRST_SOURCE; k <= MODEL_LAST_SOURCE; k++)
		assert_true(p->fig[k].v <= p->fig[MODEL_IT_SCHED].v);
	k = model_method_px(&m.methods[0]);
	assert_int_equal(m.methods[0].pts[k].n, 32);
	assert_true(model_method_fixed_size(&m.methods[0]));
	assert_false(model_method_fixed_size(&m.methods[1]));
	/* matrix: 4 -> 32 as in the fixture, and a cell whose model has no run at N' */
	for (k = 0; k < (int)m.n_cells; k++) {
		const struct model_cell *c = &m.cells[k];
		if (c->n == 4 && c->n2 == 32) {
			assert_true(fabs(c->e_conserved.v - 0.4125) < 1e-9);
			assert_null(c->e_conserved.why);
		}
		if (c->n2 == 64)
			assert_non_null(c->e_conserved.why);
	}
	assert_string_equal(model_metric_name(MODEL_PT_THREAD), "PT_thread");
	model_clear(&m);
}

/* The model's metrics are the analyzer's, by name; the sources' display order lists every
 * source once and keeps closure out. */
static void test_names_and_sources(void **state)
{
	int k, seen[MODEL_N_METRICS] = { 0 };
	size_t i;

	(void)state;
	for (k = 0; k < MODEL_N_METRICS; k++) {
		int a = an_metric_find(model_metric_name((enum model_metric)k));
		if (a < 0)
			fail_msg("%s: no analyzer metric of that name", model_metric_name((enum model_metric)k));
		assert_non_null(model_metric_title((enum model_metric)k));
	}
	for (i = 0; i < MODEL_N_SOURCES; i++) {
		enum model_metric s = model_source_order[i];
		assert_true(s >= MODEL_FIRST_SOURCE && s <= MODEL_LAST_SOURCE);
		assert_int_equal(seen[s]++, 0);
	}
	assert_int_equal(MODEL_N_SOURCES, 14);
	assert_string_equal(model_metric_name(MODEL_CLOSURE), "closure");
	assert_true(MODEL_CLOSURE > MODEL_LAST_SOURCE);
	assert_string_equal(model_metric_title(MODEL_IT_SCHED), "runnable (CPU contention)");
	assert_string_equal(model_metric_title(MODEL_U), "extra work");
}

static int calls;
static unsigned last_what;

static void listener(struct model *m, unsigned what, void *arg)
{
	(void)m;
	calls++;
	last_what = what;
	*(int *)arg += 1;
}

static void test_listeners(void **state)
{
	struct model m;
	int mine = 0;

	(void)state;
	load(&m);
	calls = 0;
	assert_int_equal(model_add_listener(&m, listener, &mine), 0);
	model_set_shown(&m, 1, 0);
	assert_int_equal(calls, 1);
	assert_int_equal(last_what, MODEL_CHANGED_SHOWN);
	assert_false(m.methods[1].shown);
	model_set_shown(&m, 1, 0);                   /* no change, no call */
	assert_int_equal(calls, 1);
	model_set_source_shown(&m, MODEL_IT_LOCK, 0);
	assert_int_equal(last_what, MODEL_CHANGED_SOURCES);
	assert_false(model_source_shown(&m, MODEL_IT_LOCK));
	assert_true(model_source_shown(&m, MODEL_IT_BARRIER));
	model_select_run(&m, 3);
	assert_int_equal(last_what, MODEL_CHANGED_RUN);
	model_select_run(&m, 9999);                  /* out of range: ignored */
	assert_int_equal(m.sel_run, 3);
	model_remove_listener(&m, listener, &mine);
	model_set_current(&m, 2);
	assert_int_equal(calls, 3);
	assert_int_equal(mine, 3);
	model_clear(&m);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void expect_error(const char *report, const char *want)
{
	struct model m;
	char err[512];

	write_file(tmpdir, "report.csv", report);
	model_init(&m);
	assert_true(model_load_csv_dir(&m, tmpdir, err, sizeof(err)) < 0);
	if (!strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
	model_clear(&m);
}

static void test_csv_errors(void **state)
{
	static const char hdr[] = "method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,IT_lock,IT_cond,"
				  "IT_sem,IT_join,IT_sched,IT_blocked,PT_barrier,PT_lock,PT_sem,PT_thread,"
				  "ML,U,parallelism,closure,oversubscribed\n";
	/* the header of the analyzer before the time budget */
	static const char old_hdr[] = "method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,IT_lock,"
				      "IT_cond,IT_sched,PT_barrier,PT_lock,PT_thread,ML,U,parallelism,"
				      "oversubscribed\n";
	char text[1024];

	(void)state;
	expect_error("method,N\n", "report.csv:1:1: error: header");
	expect_error(old_hdr, "columns of another scalegraph version");
	snprintf(text, sizeof(text), "%sfixed,2,100,3,1,1.5,0.75,1.5,0.25,0,0,0,0,0,0,0,0,0,0,0,0,,0.5,0.9,0.001,0\n"
		 "fixed,4,100,3,abc,1.5,0.75,1.5,0.25,0,0,0,0,0,0,0,0,0,0,0,0,,0.5,0.9,0.001,0\n", hdr);
	expect_error(text, "report.csv:3:");
	expect_error(text, "\"abc\" is not a number");
	snprintf(text, sizeof(text), "%sfixed,2,100\n", hdr);
	expect_error(text, "3 fields, expected 26");
	/* a good file with quoted method name, unavailable ML and no budget (no IT_blocked) */
	{
		struct model m;
		char err[512];
		snprintf(text, sizeof(text), "%s\"fixed, small\",2,100,3,1,1.5,0.75,1.5,0.25,0,0,0,0,0,0,0.1,,0,0,0,0,,0.5,0.9,,0\n", hdr);
		write_file(tmpdir, "report.csv", text);
		model_init(&m);
		if (model_load_csv_dir(&m, tmpdir, err, sizeof(err)) < 0)
			fail_msg("%s", err);
		assert_string_equal(m.methods[0].name, "fixed, small");
		assert_non_null(m.methods[0].pts[0].fig[MODEL_ML].why);
		assert_string_equal(m.methods[0].pts[0].fig[MODEL_ML].why, "not reported by the analyzer");
		assert_null(m.methods[0].pts[0].fig[MODEL_IT_SCHED].why);
		assert_true(m.methods[0].pts[0].fig[MODEL_IT_SCHED].v == 0.1);
		assert_non_null(m.methods[0].pts[0].fig[MODEL_IT_BLOCKED].why);
		assert_non_null(m.methods[0].pts[0].fig[MODEL_CLOSURE].why);
		assert_true(m.methods[0].pts[0].fig[MODEL_PARALLELISM].v == 0.9);
		assert_int_equal(m.methods[0].pts[0].oversubscribed, 0);
		/* an older report.csv: no measured overhead, and nothing said of it (no number) */
		assert_null(m.methods[0].pts[0].ovh_text);
		assert_true(isnan(m.methods[0].pts[0].ovh_measured.v));
		assert_true(isnan(m.methods[0].pts[0].t_plain.v));
		model_clear(&m);
	}
	/* issue 21: the measured overhead's columns (T_plain, T_traced_wall, overhead_measured,
	 * overhead_estimated, overhead_marked); an empty one is "not measured" */
	{
		static const char hdr2[] = "method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,"
			"IT_lock,IT_cond,IT_sem,IT_join,IT_sched,IT_blocked,PT_barrier,PT_lock,PT_sem,"
			"PT_thread,ML,U,parallelism,closure,oversubscribed,T_plain,T_traced_wall,"
			"overhead_measured,overhead_estimated,overhead_marked\n";
		struct model m;
		char err[512];
		snprintf(text, sizeof(text), "%sfixed,1,100,3,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,,0,1,0,0,"
			 "0.5,1.1,1.2,0.01,1\nfixed,2,100,3,1,1,0.5,1,0,0,0,0,0,0,0,0,0,0,0,0,0,,0,1,0,0,"
			 ",,,,0\n", hdr2);
		write_file(tmpdir, "report.csv", text);
		model_init(&m);
		if (model_load_csv_dir(&m, tmpdir, err, sizeof(err)) < 0)
			fail_msg("%s", err);
		assert_null(m.methods[0].pts[0].ovh_measured.why);
		assert_true(m.methods[0].pts[0].ovh_measured.v == 1.2);
		assert_true(m.methods[0].pts[0].ovh_estimated.v == 0.01);
		assert_true(m.methods[0].pts[0].t_plain.v == 0.5);
		assert_int_equal(m.methods[0].pts[0].ovh_marked, 1);
		assert_non_null(m.methods[0].pts[1].ovh_measured.why);
		assert_non_null(strstr(m.methods[0].pts[1].ovh_measured.why, "not measured"));
		assert_int_equal(m.methods[0].pts[1].ovh_marked, 0);
		model_clear(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_unavailable_and_px),
		cmocka_unit_test(test_names_and_sources),
		cmocka_unit_test(test_listeners),
		cmocka_unit_test(test_csv_errors),
	};
	const char *src = getenv("SG_GUI_FIXTURE");
	const char *b = getenv("B");
	char cmd[8300];

	snprintf(fixture, sizeof(fixture), "%s", src ? src : "gui/tests/fixture");
	snprintf(tmpdir, sizeof(tmpdir), "%s/test-out/gui-model", b ? b : "build");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", tmpdir, tmpdir);
	if (system(cmd) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
