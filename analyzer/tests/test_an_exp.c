/*
 * test_an_exp.c — the experiment level on a small store built through store.h, with synthetic
 * traces in runs/<id>/trace: repetition medians, the t/E/m matrix with hand-computed cells and
 * the paper's caveat, p_x, the metrics written back into the store, the CSV columns, a run
 * whose trace is missing (a problem line, the runner's figures kept), and the first analysis
 * run by run (an_prewarm_*).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "an_int.h"
#include "an_synth.h"
#include "store.h"

/* Inserts a finished run row: wall time wall_ns, T_para t_ns from its trace ("threads"), or
 * the wall time when t_ns is 0 (an untraced program, "wall"). */
static void run_row(struct store *st, struct store_run *r, const char *kind, int n,
		    const char *sizes, int rep, uint64_t wall_ns, uint64_t t_ns)
{
	memset(r, 0, sizeof *r);
	snprintf(r->kind, sizeof r->kind, "%s", kind);
	r->n_threads = n;
	snprintf(r->sizes, sizeof r->sizes, "%s", sizes);
	r->rep = rep;
	assert_int_equal(store_run_begin(st, r), 0);
	snprintf(r->status, sizeof r->status, "ok");
	r->t_wall_s = (double)wall_ns * 1e-9;
	r->t_para_s = (double)(t_ns ? t_ns : wall_ns) * 1e-9;
	snprintf(r->t_para_source, sizeof r->t_para_source, "%s", t_ns ? "threads" : "wall");
	assert_int_equal(store_run_finish(st, r, 0, NULL, NULL, 0, NULL), 0);
}

/* A finished run of `kind` with n threads, each spanning [0, t_ns] in its trace (none when
 * no_trace; a sequential run is then timed by its wall time only, as an untraced program is);
 * wall_ns is the process's wall time (0: t_ns). */
static int64_t add_run_kind(struct store *st, const char *dir, const char *kind, int n,
			    const char *sizes, int rep, uint64_t t_ns, uint64_t wall_ns, int no_trace)
{
	struct store_run r;
	run_row(st, &r, kind, n, sizes, rep, wall_ns ? wall_ns : t_ns, no_trace ? 0 : t_ns);
	if (!no_trace) {
		char tdir[512];
		snprintf(tdir, sizeof tdir, "%s/runs/%lld/trace", dir, (long long)r.id);
		struct sgw_trace *w;
		assert_int_equal(sgw_create(tdir, NULL, &w), 0);
		for (uint32_t i = 0; i < (uint32_t)n; i++) {
			struct syn_ev ev[] = { { 0, SG_EV_THREAD_BEGIN, i, SG_NO_ID, },
					       { t_ns, SG_EV_THREAD_END, i, 0 },
					       { 0, SG_EV_NONE, 0, 0 } };
			assert_int_equal(syn_thread(w, i, ev), 0);
		}
		assert_int_equal(sgw_close(w, 0), 0);
	}
	return r.id;
}

/* A finished parallel run of n threads, each spanning [0, t_ns]; its trace unless no_trace. */
static int64_t add_run(struct store *st, const char *dir, int n, const char *sizes, int rep,
		       uint64_t t_ns, int no_trace)
{
	return add_run_kind(st, dir, "par", n, sizes, rep, t_ns, 0, no_trace);
}

static void add_point(struct store *st, const char *model, const char *method, int n,
		      double work, double t_seq_ns, int n_runs, const int64_t *ids, double t_para_ns)
{
	struct store_point p;
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "%s", model);
	snprintf(p.method, sizeof p.method, "%s", method);
	p.n_threads = n;
	p.scale = n;
	p.work = work;
	p.target = NAN;
	p.t_para_s = t_para_ns * 1e-9;
	p.t_seq_s = t_seq_ns * 1e-9;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "sequential");
	p.efficiency = t_seq_ns / (n * t_para_ns);
	p.converged = 1;
	p.oversubscribed = n > 2;
	const char *roles[8] = { "rep", "rep", "rep", "rep", "rep", "rep", "rep", "rep" };
	assert_int_equal(store_point_put(st, &p, n_runs, ids, roles), 0);
}

static const char *build_store(void)
{
	const char *dir = syn_tmpdir();
	struct store *st;
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	assert_int_equal(store_machine_set(st, "test cpu", 2, "test", 1e9,
		"{\"n_cpus\": 2, \"miss_latency_ns\": 100.0, \"mutex_lock_unlock_ns\": 10.0}"), 0);
	assert_int_equal(store_method_add(st, "fixed", "w=1", 0), 0);
	/* method fixed: N=1 T=1000; N=2 three repetitions 1000, 3000, 2000 (median 2000) */
	int64_t id[3];
	id[0] = add_run(st, dir, 1, "w=1", 0, 1000, 0);
	add_point(st, "method", "fixed", 1, 100, 800, 1, id, 1000);
	id[0] = add_run(st, dir, 2, "w=1", 0, 1000, 0);
	id[1] = add_run(st, dir, 2, "w=1", 1, 3000, 0);
	id[2] = add_run(st, dir, 2, "w=1", 2, 2000, 0);
	add_point(st, "method", "fixed", 2, 100, 800, 3, id, 2000);
	/* time-bound: E = 0.8, 0.6, 0.3, 0.25 at N = 1, 2, 4, 8 (T_para 1000 each) */
	static const int tn[] = { 1, 2, 4, 8 };
	static const double te[] = { 0.8, 0.6, 0.3, 0.25 };
	for (int k = 0; k < 4; k++) {
		char sz[32];
		snprintf(sz, sizeof sz, "w=t%d", tn[k]);
		id[0] = add_run(st, dir, tn[k], sz, 0, 1000, 0);
		add_point(st, "time-bound", "fixed", tn[k], 100, te[k] * tn[k] * 1000, 1, id, 1000);
	}
	/* e-conserved: E = 0.5 with T_para 1000 at N=1 and 2000 at N=2: L = 500 and 1000 */
	id[0] = add_run(st, dir, 1, "w=e1", 0, 1000, 0);
	add_point(st, "e-conserved", "fixed", 1, 100, 500, 1, id, 1000);
	id[0] = add_run(st, dir, 2, "w=e2", 0, 2000, 0);
	add_point(st, "e-conserved", "fixed", 2, 200, 2000, 1, id, 2000);
	/* e-conserved at N=4: its run's trace is missing */
	id[0] = add_run(st, dir, 4, "w=e4", 0, 4000, 1);
	add_point(st, "e-conserved", "fixed", 4, 400, 8000, 1, id, 4000);
	store_close(st);
	return dir;
}

/* The experiment at dir, analyzed (flags 0), or the test fails with the analyzer's message. */
static struct an_exp *open_exp(const char *dir)
{
	struct an_exp *e;
	char err[512] = "";
	if (an_exp_open(dir, 0, &e, err, sizeof err) < 0)
		fail_msg("an_exp_open: %s", err);
	return e;
}

/* The report `fn` writes of e with flags, as a malloc'd string. */
static char *report(int (*fn)(FILE *, const struct an_exp *, unsigned), const struct an_exp *e,
		    unsigned flags)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(fn(f, e, flags), 0);
	fclose(f);
	return buf;
}

static void assert_near(double v, double want)
{
	if (fabs(v - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("%.12g, expected %.12g", v, want);
}

static void test_experiment(void **state)
{
	const char *dir = build_store();
	struct an_exp *e = open_exp(dir);
	/* repetitions: median, min, max of T_para */
	const struct an_point *p = an_exp_point_find(e, "method", "fixed", 2);
	assert_non_null(p);
	assert_int_equal(p->n_reps, 3);
	assert_near(p->med[AN_T_PARA].value, 2000e-9);
	assert_near(p->min[AN_T_PARA].value, 1000e-9);
	assert_near(p->max[AN_T_PARA].value, 3000e-9);
	/* E of the repetitions: 800 / (2 * T): 0.4, 0.1333, 0.2 -> median 0.2 */
	assert_near(p->med[AN_E].value, 0.2);
	/* p_x of "fixed": N=1 (T_para 1000 < 2000) */
	int px;
	struct an_fig tp, lat;
	assert_int_equal(an_exp_px(e, "fixed", &px, &tp, &lat), 0);
	assert_int_equal(px, 1);
	assert_near(lat.value, 0);   /* the point's L: no idle time, no primitive in its trace */
	/* the matrix */
	int ns[8];
	assert_int_equal(an_exp_matrix_n(e, ns, 8), 4);
	assert_int_equal(ns[3], 8);
	struct an_cell c;
	assert_int_equal(an_exp_matrix_cell(e, 1, 2, &c), 0);
	assert_near(c.scale[AN_TIME_BOUND].value, (1 - 0.8) / (1 - 0.6));
	assert_near(c.isospeed.value, 0.8 / 0.6);
	assert_near(c.scale[AN_E_CONSERVED].value, 500.0 / 1000.0);
	assert_non_null(c.scale[AN_MEMORY_BOUND].unavailable);
	assert_string_equal(c.scale[AN_MEMORY_BOUND].unavailable, "no memory-bound runs");
	assert_int_equal(c.caveat, 0);
	assert_int_equal(an_exp_matrix_cell(e, 4, 8, &c), 0);
	assert_near(c.scale[AN_TIME_BOUND].value, 0.7 / 0.75);
	assert_int_equal(c.caveat, 1);
	assert_string_equal(c.scale[AN_E_CONSERVED].unavailable, "no e-conserved point at N=8");
	/* the untraced run: one line for all such runs, the runner's T_para, T_seq, E and S kept
	 * (T_seq 8000 ns, E = 8000 / (4 * 4000) = 0.5, S = 2), its repetition counted */
	assert_int_equal(an_exp_matrix_cell(e, 2, 4, &c), 0);
	assert_near(c.scale[AN_E_CONSERVED].value, 1000.0 / (4000 * (1 - 0.5)));
	int saw = 0;
	for (size_t i = 0; i < an_exp_n_problems(e); i++) {
		assert_null(strstr(an_exp_problem(e, i), "runs/"));
		saw += strstr(an_exp_problem(e, i), "1 run(s) have no trace") != NULL;
	}
	assert_int_equal(saw, 1);
	p = an_exp_point_find(e, "e-conserved", NULL, 4);
	assert_int_equal(p->n_reps, 1);
	assert_near(p->med[AN_T_PARA].value, 4000e-9);
	assert_near(p->med[AN_T_SEQ].value, 8000e-9);
	assert_near(p->med[AN_E].value, 0.5);
	assert_near(p->med[AN_S].value, 2.0);
	/* oversubscribed: N=4 on 2 CPUs */
	assert_int_equal(an_exp_point_find(e, "time-bound", NULL, 4)->med[AN_OVERSUB].value, 1);
	/* the CSV: header and a row */
	char *buf = report(an_report_exp_csv, e, 0);
	assert_non_null(strstr(buf, "method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,"
				    "IT_lock,IT_cond,IT_sem,IT_join,IT_sched,IT_blocked,PT_barrier,"
				    "PT_lock,PT_sem,PT_thread,ML,U,parallelism,closure,"
				    "oversubscribed,T_plain,T_traced_wall,overhead_measured,"
				    "overhead_estimated,overhead_marked\n"));
	assert_non_null(strstr(buf, "\nfixed,2,100,3,2e-06,8e-07,0.2,"));
	assert_non_null(strstr(buf, "\ntime-bound,4,100,1,"));
	free(buf);
	buf = report(an_report_exp_csv, e, AN_REPORT_MATRIX_ONLY);
	assert_non_null(strstr(buf, "N,N2,time_bound,e_conserved,memory_bound\n1,2,0.5,0.5,\n"));
	free(buf);
	/* the paper's caveat beside the starred time-bound value of (4, 8): E 0.3 and 0.25 */
	buf = report(an_report_exp_text, e, AN_REPORT_MATRIX_ONLY);
	assert_non_null(strstr(buf, "0.93*/"));
	assert_non_null(strstr(buf, "the paper's caveat"));
	free(buf);
	/* the terminal table: times with their unit (T_para 2000 ns, T_seq 800 ns), E with 3
	 * decimals, p_x's T_para and L as in the table, beside T_para (1 - E) = 1000 ns (1 - 0.8)
	 * stated with its terms, which add up (issue 20) */
	buf = report(an_report_exp_text, e, 0);
	assert_non_null(strstr(buf, "\nmethod       fixed         2        100    3   2.00 us    800 ns     0.200"));
	assert_non_null(strstr(buf, "p_x = 1   T_para = 1.00 us   L = 0   (T_para (1 - E) = 200 ns: "
				    "L + U/N = 0 + 200 ns, run 1's, the repetition of the median "
				    "T_para; (3) holds to 0.00 %)"));
	free(buf);
	an_exp_free(e);

	/* the metrics the analyzer wrote into the store */
	struct store *st;
	assert_int_equal(store_open(dir, STORE_READ, &st), 0);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT value FROM metrics WHERE name = "
		"'scale_time_bound' AND point_id = (SELECT id FROM points WHERE model = "
		"'time-bound' AND n_threads = 1) AND point2_id = (SELECT id FROM points WHERE "
		"model = 'time-bound' AND n_threads = 2)", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_near(sqlite3_column_double(s, 0), 0.5);
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT COUNT(*) FROM metrics WHERE "
		"name = 'ML' AND run_id > 0 AND value IS NULL AND unavailable IS NOT NULL", -1, &s,
		NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_true(sqlite3_column_int(s, 0) > 0);
	sqlite3_finalize(s);
	store_close(st);

	/* metrics lost (or never written: a series of untraced runs has no analysis to cache) are
	 * written again by the next open, though every run's figures come from the cache */
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	assert_int_equal(sqlite3_exec(store_db(st), "DELETE FROM metrics WHERE point_id > 0", NULL,
				      NULL, NULL), SQLITE_OK);
	store_close(st);
	an_exp_free(open_exp(dir));
	assert_int_equal(store_open(dir, STORE_READ, &st), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT COUNT(*) FROM metrics WHERE "
		"name = 'S' AND point_id > 0", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 9);   /* every point */
	sqlite3_finalize(s);
	store_close(st);
	syn_rmtree(dir);
}

/* A point of method m at N linked to n runs ids with their roles; the runner's T_seq and E as
 * it stores them: from wall times. */
static void add_point_runs(struct store *st, const char *m, int n, const char *sizes, int n_ids,
			   const int64_t *ids, const char *const *roles, double t_para_ns,
			   double t_seq_ns)
{
	struct store_point p;
	memset(&p, 0, sizeof p);
	snprintf(p.sizes, sizeof p.sizes, "%s", sizes);
	snprintf(p.model, sizeof p.model, "method");
	snprintf(p.method, sizeof p.method, "%s", m);
	p.n_threads = n;
	p.scale = n;
	p.work = 100;
	p.target = NAN;
	p.t_para_s = t_para_ns * 1e-9;
	p.t_seq_s = t_seq_ns * 1e-9;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "sequential");
	p.efficiency = t_seq_ns / (n * t_para_ns);
	p.converged = 1;
	assert_int_equal(store_point_put(st, &p, n_ids, ids, roles), 0);
}

/* The same with one repetition and its sequential run (0: none). */
static void add_point_seq(struct store *st, const char *m, int n, const char *sizes, int64_t rep,
			  int64_t seq, double t_para_ns, double t_seq_ns)
{
	int64_t ids[2] = { rep, seq };
	const char *roles[2] = { "rep", "seq" };
	add_point_runs(st, m, n, sizes, seq ? 2 : 1, ids, roles, t_para_ns, t_seq_ns);
}

/* A new store on 2 CPUs without a calibration, open for writing. */
static const char *new_store(struct store **st)
{
	const char *dir = syn_tmpdir();
	assert_int_equal(store_open(dir, STORE_WRITE, st), 0);
	assert_int_equal(store_machine_set(*st, "test cpu", 2, "test", 1e9, "{\"n_cpus\": 2}"), 0);
	return dir;
}

/* The store of the T_seq tests: the sequential program is untraced (wall 1500 ns at w=1, 3000
 * ns at w=2, start-up included); the traced program's region takes 1000 ns at N=1 (wall 5000),
 * 600 ns at N=2 (wall 4000) on w=1 and 600 ns at N=2 (wall 4000) on w=2. */
static const char *build_seq_store(int64_t *seq2)
{
	struct store *st;
	const char *dir = new_store(&st);
	assert_int_equal(store_method_add(st, "fixed", "w=1", 0), 0);
	assert_int_equal(store_method_add(st, "grow", "w=N", 1), 0);
	int64_t s1 = add_run_kind(st, dir, "seq", 1, "w=1", 0, 1500, 0, 1);
	*seq2 = add_run_kind(st, dir, "seq", 1, "w=2", 0, 3000, 0, 1);
	int64_t r1 = add_run_kind(st, dir, "par", 1, "w=1", 0, 1000, 5000, 0);
	int64_t r2 = add_run_kind(st, dir, "par", 2, "w=1", 0, 600, 4000, 0);
	int64_t r3 = add_run_kind(st, dir, "par", 2, "w=2", 0, 600, 4000, 0);
	add_point_seq(st, "fixed", 1, "w=1", r1, s1, 1000, 1500);
	add_point_seq(st, "fixed", 2, "w=1", r2, s1, 600, 1500);
	add_point_seq(st, "grow", 1, "w=1", r1, s1, 1000, 1500);
	add_point_seq(st, "grow", 2, "w=2", r3, *seq2, 600, 3000);
	store_close(st);
	return dir;
}

/* A time-bound point at N on one repetition and an untraced sequential run; converged or not. */
static void add_time_bound(struct store *st, int n, const char *sizes, int64_t rep, int64_t seq,
			   int converged)
{
	int64_t ids[2] = { rep, seq };
	const char *roles[2] = { "rep", "seq" };
	struct store_point p;
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "time-bound");
	snprintf(p.method, sizeof p.method, "fixed");
	snprintf(p.sizes, sizeof p.sizes, "%s", sizes);
	p.n_threads = n;
	p.scale = n;
	p.work = 100;
	p.target = 1e-6;
	p.t_para_s = p.t_seq_s = p.efficiency = NAN;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "sequential");
	p.converged = converged;
	if (!converged)
		snprintf(p.note, sizeof p.note, "closest T_para = 0.9 us");
	assert_int_equal(store_point_put(st, &p, 2, ids, roles), 0);
}

/* Matrix marks: a point whose search missed its target marks every value it enters with '~' and
 * the report lists its note. The sequential program is untraced, so E is wall against wall:
 * time-bound at N=1 on w=1: 1500 / 5000 = 0.3; at N=2 and N=4 on w=2: 3000 / (2 * 4000) = 0.375
 * and 3000 / (4 * 4000) = 0.1875; scale = L(W,N) / L(W',N') with L = T (1 - E) on those wall
 * times: scale(1, 2) = 5000 * 0.7 / (4000 * 0.625) = 1.4 (the N=2 search missed its T: (12),
 * 0.7 / 0.625 = 1.12, would pretend the same T), scale(2, 4) = 0.625 / 0.8125 = 0.769 (same T
 * 4000 on both sides, where (12) is the ratio). E 0.3 and 0.375 are low and close: (1, 2) has
 * the caveat's star; 0.375 and 0.1875 are neither. */
static void test_matrix_marks(void **state)
{
	int64_t seq2;
	const char *dir = build_seq_store(&seq2);
	struct store *st;
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	int64_t s1 = add_run_kind(st, dir, "seq", 1, "w=1", 1, 1500, 0, 1);
	int64_t r1 = add_run_kind(st, dir, "par", 1, "w=1", 1, 1000, 5000, 0);
	int64_t r2 = add_run_kind(st, dir, "par", 2, "w=2", 1, 600, 4000, 0);
	int64_t r4 = add_run_kind(st, dir, "par", 4, "w=2", 0, 600, 4000, 0);
	add_time_bound(st, 1, "w=1", r1, s1, 1);
	add_time_bound(st, 2, "w=2", r2, seq2, 0);
	add_time_bound(st, 4, "w=2", r4, seq2, 1);
	store_close(st);
	struct an_exp *e = open_exp(dir);
	struct an_cell c;
	assert_int_equal(an_exp_matrix_cell(e, 1, 2, &c), 0);
	assert_near(c.scale[AN_TIME_BOUND].value, 5000 * 0.7 / (4000 * 0.625));
	assert_int_equal(c.caveat, 1);
	assert_int_equal(an_exp_matrix_cell(e, 2, 4, &c), 0);
	assert_int_equal(c.caveat, 0);
	assert_near(c.scale[AN_TIME_BOUND].value, (1 - 0.375) / (1 - 0.1875));
	assert_int_equal(c.off_target[AN_TIME_BOUND], 1);
	assert_int_equal(c.off_target[AN_E_CONSERVED], 0);
	char *buf = report(an_report_exp_text, e, AN_REPORT_MATRIX_ONLY);
	assert_non_null(strstr(buf, "1.40*~/-/-"));
	assert_non_null(strstr(buf, "0.77~/-/-"));
	assert_non_null(strstr(buf, "time-bound N=2: closest T_para = 0.9 us"));
	/* the readout of (1, 2) under the matrix: what the GUI shows for the cell */
	assert_non_null(strstr(buf, "\ncell 1 -> 2\n  time-bound  L(W,N) / L(W',N') = 3.5e-06 s / "
				    "2.5e-06 s = 1.4 * ~ (above 1: the latency fell from N to N'), "
				    "L = T (1 - E), T the wall time (T_seq is a wall time)\n"));
	free(buf);
	/* the operands of (1, 2): L = T (1 - E) on wall times on both sides; the repetition, and
	 * the two untraced sequential runs at w=1 (build_seq_store's and this test's) for T_seq */
	assert_int_equal(an_exp_matrix_cell(e, 1, 2, &c), 0);
	assert_int_equal(c.l_metric[AN_TIME_BOUND], AN_L_E);
	assert_near(c.side[AN_TIME_BOUND][0].l.value, 3500e-9);
	assert_near(c.side[AN_TIME_BOUND][1].l.value, 2500e-9);
	assert_near(c.scale[AN_TIME_BOUND].value,
		    c.side[AN_TIME_BOUND][0].l.value / c.side[AN_TIME_BOUND][1].l.value);
	assert_int_equal(c.side[AN_TIME_BOUND][0].point->rep_ids[0], r1);
	assert_int_equal(c.side[AN_TIME_BOUND][1].point->rep_ids[0], r2);
	assert_int_equal(c.side[AN_TIME_BOUND][0].n_t_seq_runs, 2);
	assert_true(c.side[AN_TIME_BOUND][0].t_seq_runs[0] == s1 ||
		    c.side[AN_TIME_BOUND][0].t_seq_runs[1] == s1);
	assert_int_equal(c.side[AN_TIME_BOUND][1].n_t_seq_runs, 1);
	assert_int_equal(c.side[AN_TIME_BOUND][1].t_seq_runs[0], seq2);
	char text[4096], want[256];
	an_cell_explain(&c, AN_TIME_BOUND, text, sizeof text);
	snprintf(want, sizeof want, "\n  N'=2: W' 100 (w=2 along fixed), T_para 6e-07 s (wall time "
		 "4e-06 s), E 0.375, L' 2.5e-06 s; run %lld, T_seq from run %lld (sequential, wall "
		 "time); ~ closest T_para = 0.9 us\n", (long long)r2, (long long)seq2);
	if (!strstr(text, want))
		fail_msg("readout:\n%s\nwanted:%s", text, want);
	assert_non_null(strstr(text, "\n  (12) (1 - E) / (1 - E') = 1.12; (13) E / E' = 0.8; (12) "
				     "holds for T' = T, here T' / T = 0.8\n"));   /* wall 4000 / 5000 */
	assert_non_null(strstr(text, "\n  * the paper's caveat"));
	assert_non_null(strstr(text, "\n  ~ off target: the size search missed the model's target "
				     "at N'"));
	an_exp_free(e);
	syn_rmtree(dir);
}

/* The caveat's rule (§6.4): both E below 0.5 and within 0.1, or both below 0.2 (then the
 * time-bound value lies in [1 - E, 1 / (1 - E')], inside [0.8, 1.25], whatever the latency
 * does: the demo of issue 15 had E 0.15 at N=1 against 0.009 at N=2, unstarred before). */
static void test_matrix_caveat_rule(void **state)
{
	assert_int_equal(an_matrix_caveat(0.3, 0.25), 1);     /* low and close */
	assert_int_equal(an_matrix_caveat(0.15, 0.009), 1);   /* both below 0.2 */
	assert_int_equal(an_matrix_caveat(0.011, 0.0033), 1);
	assert_int_equal(an_matrix_caveat(0.375, 0.1875), 0); /* low, 0.19 apart, not both < 0.2 */
	assert_int_equal(an_matrix_caveat(0.8, 0.6), 0);      /* not low */
	assert_int_equal(an_matrix_caveat(0.55, 0.49), 0);
}

/* T_seq is measured like T_para: the sequential program has wall times only, so the parallel
 * program's wall times go with them, never its traced region (that pair gave E(N=1) = 1500 /
 * 1000 = 1.5), and never the N=1 run in its place (which hid the overhead at one thread). */
static void test_t_seq_measured_like_t_para(void **state)
{
	int64_t seq2;
	const char *dir = build_seq_store(&seq2);
	struct an_exp *e = open_exp(dir);
	/* w=1: T_seq 1500 against the N=1 run's wall 5000: E = 0.3 */
	const struct an_point *p = an_exp_point_find(e, "method", "fixed", 1);
	assert_near(p->med[AN_T_SEQ].value, 1500e-9);
	assert_near(p->med[AN_E].value, 0.3);
	assert_string_equal(p->t_seq_source, "sequential");
	assert_string_equal(p->t_basis, "wall");
	/* N=2: E = 1500 / (2 * 4000), S = 1500 / 4000, U = 2*4000 - 1500 (on wall times the
	 * residual of (3): no budget of that wall time), L_from_E = 4000 (1 - E) */
	p = an_exp_point_find(e, "method", "fixed", 2);
	assert_near(p->med[AN_E].value, 0.1875);
	assert_near(p->med[AN_S].value, 0.375);
	assert_near(p->med[AN_U].value, 6500e-9);
	assert_near(p->med[AN_L_E].value, 3250e-9);
	assert_near(p->med[AN_CHECK3].value, 0);
	assert_non_null(p->med[AN_CHECK10].unavailable);
	/* w=2 the same way: E = 3000 / (2 * 4000), S = 3000 / 4000, U = 2*4000 - 3000; T_para
	 * stays the trace's */
	p = an_exp_point_find(e, "method", "grow", 2);
	assert_string_equal(p->t_basis, "wall");
	assert_near(p->med[AN_T_PARA].value, 600e-9);
	assert_near(p->med[AN_T_SEQ].value, 3000e-9);
	assert_near(p->med[AN_E].value, 0.375);
	assert_near(p->med[AN_S].value, 0.75);
	assert_near(p->med[AN_U].value, 5000e-9);
	assert_near(p->med[AN_CHECK3].value, 0);
	assert_non_null(p->med[AN_CHECK10].unavailable);
	assert_non_null(strstr(p->t_seq_how, "wall"));
	an_exp_free(e);
	syn_rmtree(dir);
}

/* Without a sequential program T_seq is the N=1 runs' T_para ("n1", measured like T_para):
 * E(N=1) = 1 by construction, so L(W,1) = T_para (1 - E) = 0 and the matrix row N=1 is n/a with
 * that reason (not a row of zeros). N=1 at w=1: 1000 ns; N=2: 600 ns, E = 1000 / 1200. */
static void test_t_seq_n1(void **state)
{
	struct store *st;
	const char *dir = new_store(&st);
	assert_int_equal(store_method_add(st, "fixed", "w=1", 0), 0);
	int64_t r1 = add_run_kind(st, dir, "par", 1, "w=1", 0, 1000, 5000, 0);
	int64_t r2 = add_run_kind(st, dir, "par", 2, "w=1", 0, 600, 4000, 0);
	int64_t ids[1] = { r1 };
	const char *roles[1] = { "rep" };
	for (int m = 0; m < 2; m++) {
		struct store_point p;
		for (int n = 1; n <= 2; n++) {
			memset(&p, 0, sizeof p);
			snprintf(p.model, sizeof p.model, "%s", m ? "time-bound" : "method");
			snprintf(p.method, sizeof p.method, "fixed");
			snprintf(p.sizes, sizeof p.sizes, "w=1");
			p.n_threads = n;
			p.scale = n;
			p.work = 100;
			p.target = NAN;
			p.t_para_s = p.t_seq_s = p.efficiency = NAN;
			snprintf(p.t_seq_source, sizeof p.t_seq_source, "n1");
			p.converged = 1;
			ids[0] = n == 1 ? r1 : r2;
			assert_int_equal(store_point_put(st, &p, 1, ids, roles), 0);
		}
	}
	store_close(st);
	struct an_exp *e = open_exp(dir);
	const struct an_point *p = an_exp_point_find(e, "method", "fixed", 1);
	assert_near(p->med[AN_T_SEQ].value, 1000e-9);
	assert_near(p->med[AN_E].value, 1.0);
	assert_string_equal(p->t_seq_source, "n1");
	assert_string_equal(p->t_basis, "trace");
	p = an_exp_point_find(e, "method", "fixed", 2);
	assert_near(p->med[AN_E].value, 1000.0 / 1200.0);
	assert_near(p->med[AN_S].value, 1000.0 / 600.0);
	assert_near(p->med[AN_L_E].value, 100e-9);
	assert_near(p->med[AN_CHECK3].value, 0);
	assert_near(p->med[AN_CHECK10].value, 0);
	struct an_cell c;
	assert_int_equal(an_exp_matrix_cell(e, 1, 2, &c), 0);
	assert_non_null(c.scale[AN_TIME_BOUND].unavailable);
	assert_non_null(strstr(c.scale[AN_TIME_BOUND].unavailable, "L(W,1) = 0"));
	char *buf = report(an_report_exp_text, e, AN_REPORT_MATRIX_ONLY);
	assert_non_null(strstr(buf, "L(W,1) = 0: T_seq is the N=1 run itself"));
	free(buf);
	an_exp_free(e);
	syn_rmtree(dir);
}

/* Two N=1 repetitions of 1000 and 3000 ns and no sequential program: T_seq = their median
 * 2000, E = T_seq / median T_para
 * = 1 (the median of the two ratios would be (2 + 2/3) / 2 = 1.33); min and max E from the
 * slowest and the fastest repetition. */
static void test_e_from_median_t_para(void **state)
{
	struct store *st;
	const char *dir = new_store(&st);
	assert_int_equal(store_method_add(st, "fixed", "w=1", 0), 0);
	int64_t ids[2] = { add_run_kind(st, dir, "par", 1, "w=1", 0, 1000, 0, 0),
			   add_run_kind(st, dir, "par", 1, "w=1", 1, 3000, 0, 0) };
	const char *roles[2] = { "rep", "rep" };
	add_point_runs(st, "fixed", 1, "w=1", 2, ids, roles, 2000, 2000);
	store_close(st);
	struct an_exp *e;
	char err[512] = "";
	assert_int_equal(an_exp_open(dir, 0, &e, err, sizeof err), 0);
	const struct an_point *o = an_exp_point_find(e, "method", "fixed", 1);
	assert_near(o->med[AN_T_SEQ].value, 2000e-9);
	assert_near(o->med[AN_E].value, 1.0);
	assert_near(o->med[AN_S].value, 1.0);
	assert_near(o->min[AN_E].value, 2000.0 / 3000.0);
	assert_near(o->max[AN_E].value, 2.0);
	assert_near(o->med[AN_L_E].value, 0);
	an_exp_free(e);
	syn_rmtree(dir);
}

/* Reopening reads no trace; a changed run and one whose T_seq changed are read again, only
 * they; AN_EXP_REANALYZE reads all. */
static void test_cached_open(void **state)
{
	int64_t seq2;
	const char *dir = build_seq_store(&seq2);
	struct an_exp *e;
	char err[512] = "";
	assert_int_equal(an_exp_open(dir, 0, &e, err, sizeof err), 0);
	assert_int_equal(e->n_analyzed, 3);
	double e2 = an_exp_point_find(e, "method", "fixed", 2)->med[AN_E].value;
	an_exp_free(e);
	assert_int_equal(an_exp_open(dir, AN_EXP_NO_STORE_WRITE, &e, err, sizeof err), 0);
	assert_int_equal(e->n_analyzed, 0);
	const struct an_point *p = an_exp_point_find(e, "method", "fixed", 2);
	assert_near(p->med[AN_E].value, e2);
	assert_near(p->med[AN_U].value, 6500e-9);
	assert_near(an_exp_point_find(e, "method", "grow", 2)->med[AN_E].value, 0.375);
	/* a cached run is analyzed when asked for */
	struct an_run *r = an_exp_run(e, p->rep_ids[0]);
	assert_non_null(r);
	assert_int_equal(an_run_n_threads(r), 2);
	an_exp_free(e);
	/* a new N=1 run at w=2 gives grow N=2 its ML(1) run: that run is read again, and the new
	 * run; the runs at w=1 come from the cache (T_seq stays the sequential program's wall
	 * time: a traced N=1 run does not replace it) */
	struct store *st;
	assert_int_equal(store_open(dir, STORE_UPDATE, &st), 0);
	add_run_kind(st, dir, "par", 1, "w=2", 0, 2000, 6000, 0);
	store_close(st);
	assert_int_equal(an_exp_open(dir, 0, &e, err, sizeof err), 0);
	assert_int_equal(e->n_analyzed, 2);
	p = an_exp_point_find(e, "method", "fixed", 2);
	assert_true(an_exp_run_find(e, p->rep_ids[0])->from_cache);
	assert_null(an_exp_run_find(e, p->rep_ids[0])->run);
	p = an_exp_point_find(e, "method", "grow", 2);
	assert_false(an_exp_run_find(e, p->rep_ids[0])->from_cache);
	assert_string_equal(p->t_basis, "wall");
	assert_near(p->med[AN_E].value, 0.375);
	an_exp_free(e);
	assert_int_equal(an_exp_open(dir, AN_EXP_REANALYZE | AN_EXP_NO_STORE_WRITE, &e, err,
				     sizeof err), 0);
	assert_int_equal(e->n_analyzed, 4);   /* the three repetitions, the N=1 run for ML(1) */
	an_exp_free(e);
	syn_rmtree(dir);
}

/* The first analysis run by run (an_prewarm_*, issue 15): every uncached run once, then an
 * an_exp_open that reads no trace and gives the figures of a full analysis. */
static void test_prewarm(void **state)
{
	int64_t seq2;
	const char *dir = build_seq_store(&seq2);
	struct an_prewarm *pw;
	struct an_exp *e;
	char err[512] = "";
	int rc, steps = 0;
	assert_int_equal(an_prewarm_open(dir, &pw, err, sizeof err), 0);
	assert_int_equal(an_prewarm_total(pw), 3);   /* as test_cached_open's first open */
	while ((rc = an_prewarm_step(pw)) > 0)
		assert_int_equal(an_prewarm_done(pw), (size_t)++steps);
	assert_int_equal(rc, 0);
	assert_int_equal(an_prewarm_done(pw), 3);
	an_prewarm_close(pw);
	/* nothing left to do */
	assert_int_equal(an_prewarm_open(dir, &pw, err, sizeof err), 0);
	assert_int_equal(an_prewarm_total(pw), 0);
	assert_int_equal(an_prewarm_step(pw), 0);
	an_prewarm_close(pw);
	assert_int_equal(an_exp_open(dir, AN_EXP_NO_STORE_WRITE, &e, err, sizeof err), 0);
	assert_int_equal(e->n_analyzed, 0);
	double e2 = an_exp_point_find(e, "method", "fixed", 2)->med[AN_E].value;
	double u2 = an_exp_point_find(e, "method", "fixed", 2)->med[AN_U].value;
	double eg = an_exp_point_find(e, "method", "grow", 2)->med[AN_E].value;
	an_exp_free(e);
	assert_int_equal(an_exp_open(dir, AN_EXP_REANALYZE | AN_EXP_NO_STORE_WRITE, &e, err,
				     sizeof err), 0);
	assert_near(an_exp_point_find(e, "method", "fixed", 2)->med[AN_E].value, e2);
	assert_near(an_exp_point_find(e, "method", "fixed", 2)->med[AN_U].value, u2);
	assert_near(an_exp_point_find(e, "method", "grow", 2)->med[AN_E].value, eg);
	an_exp_free(e);
	/* a store that does not exist: the reason, never an empty one */
	assert_int_equal(an_prewarm_open("/nonexistent/x.exp", &pw, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.exp"));
	syn_rmtree(dir);
}

/* A finished one-thread run of `kind` whose trace has the events ev and functions f1, f2. */
static int64_t add_run_funcs(struct store *st, const char *dir, const char *kind,
			     const char *sizes, const struct syn_ev *ev, uint64_t t_ns)
{
	struct store_run r;
	run_row(st, &r, kind, 1, sizes, 0, t_ns, t_ns);
	char tdir[512];
	snprintf(tdir, sizeof tdir, "%s/runs/%lld/trace", dir, (long long)r.id);
	struct sgw_trace *w;
	assert_int_equal(sgw_create(tdir, NULL, &w), 0);
	assert_int_equal(sgw_function(w, 1, "f1", "a.c", 1), 0);
	assert_int_equal(sgw_function(w, 2, "f2", "a.c", 2), 0);
	assert_int_equal(syn_thread(w, 0, ev), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	return r.id;
}

/* Sequential patterns: the traced sequential run's profile at w=1 (f1 excl 600 of 1000 ns,
 * f2 300), the N=1 run's at w=2 (the sequential run there has no trace: f2 400 of 500), none at
 * w=4; text, --profile and JSON say so. */
static void test_sequential_patterns(void **state)
{
	struct store *st;
	const char *dir = new_store(&st);
	assert_int_equal(store_method_add(st, "grow", "w=N", 0), 0);
	static const struct syn_ev seq_ev[] = {
		{ 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID }, { 100, SG_EV_FUNC_ENTER, 1, 0 },
		{ 200, SG_EV_FUNC_ENTER, 2, 0 }, { 500, SG_EV_FUNC_EXIT, 2, 0 },
		{ 1000, SG_EV_FUNC_EXIT, 1, 0 }, { 1000, SG_EV_THREAD_END, 0, 0 },
		{ 0, SG_EV_NONE, 0, 0 } };
	static const struct syn_ev n1_ev[] = {
		{ 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID }, { 0, SG_EV_FUNC_ENTER, 2, 0 },
		{ 400, SG_EV_FUNC_EXIT, 2, 0 }, { 500, SG_EV_THREAD_END, 0, 0 },
		{ 0, SG_EV_NONE, 0, 0 } };
	int64_t s1 = add_run_funcs(st, dir, "seq", "w=1", seq_ev, 1000);
	int64_t r1 = add_run_kind(st, dir, "par", 1, "w=1", 0, 1200, 0, 0);
	add_run_kind(st, dir, "seq", 1, "w=2", 0, 900, 0, 1);
	int64_t n2 = add_run_funcs(st, dir, "par", "w=2", n1_ev, 500);
	int64_t r2 = add_run_kind(st, dir, "par", 2, "w=2", 0, 400, 0, 0);
	int64_t r4 = add_run_kind(st, dir, "par", 4, "w=4", 0, 400, 0, 0);
	add_point_seq(st, "grow", 1, "w=1", r1, s1, 1200, 1000);
	add_point_seq(st, "grow", 2, "w=2", r2, 0, 400, 900);
	add_point_seq(st, "grow", 4, "w=4", r4, 0, 400, 1800);
	store_close(st);
	struct an_exp *e;
	char err[512] = "";
	assert_int_equal(an_exp_open(dir, 0, &e, err, sizeof err), 0);
	const char *src;
	int64_t id;
	struct an_run *r = an_exp_seq_profile(e, an_exp_point_find(e, "method", "grow", 1), &src,
					      &id);
	assert_non_null(r);
	assert_string_equal(src, "sequential");
	assert_int_equal(id, s1);
	assert_int_equal(an_run_n_funcs(r), 2);
	assert_string_equal(an_run_func(r, 0)->name, "f1");
	assert_int_equal(an_run_func(r, 0)->excl_ns, 600);
	assert_int_equal(an_run_func(r, 0)->incl_ns, 900);
	assert_near(an_run_func(r, 0)->excl_pct, 60.0);
	assert_int_equal(an_run_func(r, 1)->excl_ns, 300);
	r = an_exp_seq_profile(e, an_exp_point_find(e, "method", "grow", 2), &src, &id);
	assert_non_null(r);
	assert_string_equal(src, "n1");
	assert_int_equal(id, n2);
	assert_near(an_run_func(r, 0)->excl_pct, 80.0);
	assert_null(an_exp_seq_profile(e, an_exp_point_find(e, "method", "grow", 4), &src, &id));
	assert_null(src);
	char *buf = report(an_report_exp_text, e, AN_REPORT_PROFILE);
	assert_non_null(strstr(buf, "top: f1 60.0%"));
	assert_non_null(strstr(buf, "top: f2 80.0%"));
	assert_non_null(strstr(buf, "no traced sequential or N=1 run at w=4"));
	assert_non_null(strstr(buf, "    f1                                        1     900 ns     600 ns   90.00   60.00\n"));
	free(buf);
	buf = report(an_report_exp_json, e, 0);
	assert_non_null(strstr(buf, "\"patterns\": [\n  {\"method\": \"grow\", \"W\": 100, "
				    "\"sizes\": \"w=1\", \"source\": \"sequential\""));
	assert_non_null(strstr(buf, "\"name\": \"f2\", \"file\": \"a.c\", \"line\": 2, "
				    "\"calls\": 1, \"incl_ns\": 400, \"excl_ns\": 400"));
	free(buf);
	an_exp_free(e);
	syn_rmtree(dir);
}

static void test_missing_store(void **state)
{
	struct an_exp *e = NULL;
	char err[512] = "";
	const char *dir = syn_tmpdir();
	assert_true(an_exp_open(dir, 0, &e, err, sizeof err) < 0);
	assert_non_null(strstr(err, dir));
	syn_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_experiment),
		cmocka_unit_test(test_t_seq_measured_like_t_para),
		cmocka_unit_test(test_t_seq_n1),
		cmocka_unit_test(test_matrix_marks),
		cmocka_unit_test(test_matrix_caveat_rule),
		cmocka_unit_test(test_e_from_median_t_para),
		cmocka_unit_test(test_cached_open),
		cmocka_unit_test(test_prewarm),
		cmocka_unit_test(test_sequential_patterns),
		cmocka_unit_test(test_missing_store),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
