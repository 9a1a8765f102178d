/*
 * test_model.c — the GUI model filled from the fixture: counts, the METRICS.md identities on
 * every point (so the fixture is consistent and the loader keeps every column in its place),
 * unavailable figures with their reasons, p_x, matrix cells, listeners, and CSV errors with
 * file:line:col locations.
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

static double sum_sources(const struct model_point *p)
{
	double s = 0;
	int k;

	for (k = MODEL_IT_EDGE; k <= MODEL_ML; k++)
		if (!p->fig[k].why)
			s += p->fig[k].v;
	return s;
}

/* E = T_seq/(N T_para), S = T_seq/T_para, L = T_para(1-E), U = N T_para - T_seq - (IT+PT+ML). */
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
			rel_near(p->fig[MODEL_L].v, tp * (1 - p->fig[MODEL_E].v), 1e-6, "L", name, p->n);
			rel_near(p->fig[MODEL_U].v, p->n * tp - ts - sum_sources(p), 1e-5, "U", name, p->n);
			assert_int_equal(p->oversubscribed, p->n > m.n_cpus);
			assert_null(p->fig[MODEL_ML].why);
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
	assert_non_null(p->fig[MODEL_IT_SCHED].why);
	assert_non_null(strstr(p->fig[MODEL_IT_SCHED].why, "CONFIG_SCHEDSTATS"));
	assert_null(p->fig[MODEL_IT_COND].why);      /* zero is a value, not unavailable */
	assert_true(p->fig[MODEL_IT_COND].v == 0);
	k = model_method_px(&m.methods[0]);
	assert_int_equal(m.methods[0].pts[k].n, 32);
	assert_true(model_method_fixed_size(&m.methods[0]));
	assert_false(model_method_fixed_size(&m.methods[1]));
	/* matrix: 4 -> 32 as in the fixture, and a cell whose model has no run at N' */
	for (k = 0; k < (int)m.n_cells; k++) {
		const struct model_cell *c = &m.cells[k];
		if (c->n == 4 && c->n2 == 32) {
			assert_true(fabs(c->e_conserved.v - 0.4160) < 1e-9);
			assert_null(c->e_conserved.why);
		}
		if (c->n2 == 64)
			assert_non_null(c->e_conserved.why);
	}
	assert_string_equal(model_metric_name(MODEL_PT_THREAD), "PT_thread");
	model_clear(&m);
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
				  "IT_sched,PT_barrier,PT_lock,PT_thread,ML,U,parallelism,oversubscribed\n";
	char text[1024];

	(void)state;
	expect_error("method,N\n", "report.csv:1:1: error: header");
	snprintf(text, sizeof(text), "%sfixed,2,100,3,1,1.5,0.75,1.5,0.25,0,0,0,0,,0,0,0,,0.5,0.9,0\n"
		 "fixed,4,100,3,abc,1.5,0.75,1.5,0.25,0,0,0,0,,0,0,0,,0.5,0.9,0\n", hdr);
	expect_error(text, "report.csv:3:");
	expect_error(text, "\"abc\" is not a number");
	snprintf(text, sizeof(text), "%sfixed,2,100\n", hdr);
	expect_error(text, "3 fields, expected 21");
	/* a good file with quoted method name and unavailable ML */
	{
		struct model m;
		char err[512];
		snprintf(text, sizeof(text), "%s\"fixed, small\",2,100,3,1,1.5,0.75,1.5,0.25,0,0,0,0,,0,0,0,,0.5,0.9,0\n", hdr);
		write_file(tmpdir, "report.csv", text);
		model_init(&m);
		if (model_load_csv_dir(&m, tmpdir, err, sizeof(err)) < 0)
			fail_msg("%s", err);
		assert_string_equal(m.methods[0].name, "fixed, small");
		assert_non_null(m.methods[0].pts[0].fig[MODEL_ML].why);
		assert_string_equal(m.methods[0].pts[0].fig[MODEL_ML].why, "not reported by the analyzer");
		model_clear(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_identities),
		cmocka_unit_test(test_unavailable_and_px),
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
