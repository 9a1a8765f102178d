/*
 * an_exp.c — an experiment store (collector/store.h, docs/store-schema.md) seen by the analyzer:
 * the machine description (CPUs, calibrated miss latency and lock cost), the points of every
 * (model, method, N) with their repetitions, each repetition's trace analyzed once (runs are
 * shared between points), the repetition statistics (median, min, max of every figure), and the
 * metrics written back into the store's metrics table so that the GUI only queries.
 *
 * T_seq of a point and the options of its runs are chosen in an_exp_runs.c (T_seq measured
 * like T_para); per-run figures come from the store's cache when current (an_cache.c).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_int.h"
#include "store.h"

void an_exp_problem_add(struct an_exp *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	an_strlist_add(&e->problems, &e->n_problems, &e->cap_problems, fmt, ap);
	va_end(ap);
}

const char *an_exp_str(struct an_exp *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t before = e->n_strs;
	an_strlist_add(&e->strs, &e->n_strs, &e->cap_strs, fmt, ap);
	va_end(ap);
	return e->n_strs > before ? e->strs[before] : "";
}

static void copy_col(char *dst, size_t len, sqlite3_stmt *s, int col)
{
	const unsigned char *t = sqlite3_column_text(s, col);
	snprintf(dst, len, "%s", t ? (const char *)t : "");
}

static double col_num(sqlite3_stmt *s, int col)
{
	return sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
}

/* A number after "key": in calibrate's JSON, or NAN. */
static double json_num(const char *json, const char *key)
{
	char pat[64];
	snprintf(pat, sizeof pat, "\"%s\":", key);
	const char *p = json ? strstr(json, pat) : NULL;
	return p ? strtod(p + strlen(pat), NULL) : NAN;
}

static int read_machine(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	e->n_cpus = 0;
	e->miss_ns = e->unlock_ns = e->record_ns = e->unrec_ns = 0;
	if (sqlite3_prepare_v2(db, "SELECT n_cpus, json FROM machine", -1, &s, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(s) == SQLITE_ROW) {
		e->n_cpus = sqlite3_column_int(s, 0);
		const char *json = (const char *)sqlite3_column_text(s, 1);
		double miss = json_num(json, "miss_latency_ns");
		double lk = json_num(json, "mutex_lock_unlock_ns");
		double rec = json_num(json, "record_ns");
		double unr = json_num(json, "unrecorded_call_ns");
		e->miss_ns = isnan(miss) ? 0 : miss;
		/* the cost of one record and of one counted call (tracing cost, docs/analyzer.md):
		 * calibrations before issue 14 have neither */
		e->record_ns = isnan(rec) || rec < 0 ? 0 : rec;
		e->unrec_ns = isnan(unr) || unr < 0 ? 0 : unr;
		/* a lock+unlock pair: half of it is the release estimate (docs/analyzer.md) */
		e->unlock_ns = isnan(lk) ? 0 : lk / 2;
	} else {
		an_exp_problem_add(e, "%s: no machine description (scalegraph calibrate): CPU count "
				   "from this machine, no miss latency", e->dir);
	}
	sqlite3_finalize(s);
	sqlite3_stmt *m = NULL;
	if (sqlite3_prepare_v2(db, "SELECT along FROM models WHERE kind = 'memory-bound'", -1, &m,
			       NULL) == SQLITE_OK && sqlite3_step(m) == SQLITE_ROW)
		copy_col(e->mem_along, sizeof e->mem_along, m, 0);
	sqlite3_finalize(m);
	return 0;
}

static int read_methods(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT name FROM methods ORDER BY position", -1, &s, NULL) !=
	    SQLITE_OK)
		return -EIO;
	size_t cap = 0;
	int src;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if (an_grow(&e->methods, &cap, e->n_methods, sizeof *e->methods) < 0)
			break;
		const unsigned char *name = sqlite3_column_text(s, 0);   /* NULL in a damaged row */
		e->methods[e->n_methods] = strdup(name ? (const char *)name : "?");
		if (e->methods[e->n_methods])
			e->n_methods++;
	}
	sqlite3_finalize(s);
	return src == SQLITE_DONE || src == SQLITE_ROW ? 0 : -EIO;
}

static int read_points(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL, *q = NULL;
	int rc = -EIO;
	if (sqlite3_prepare_v2(db, "SELECT id, model, method, n_threads, scale, sizes, work, "
			       "target, t_para_s, t_seq_s, t_seq_source, efficiency, "
			       "oversubscribed, note, converged FROM points ORDER BY "
			       "CASE model WHEN 'method' THEN 0 ELSE 1 END, model, (SELECT position FROM "
			       "methods m WHERE m.name = points.method), method, n_threads",
			       -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT pr.run_id, pr.role FROM point_runs pr JOIN runs r ON "
			       "r.id = pr.run_id WHERE pr.point_id = ? AND r.status = 'ok' AND "
			       "pr.role IN ('rep', 'seq') ORDER BY pr.role, r.rep", -1, &q,
			       NULL) != SQLITE_OK)
		goto out;
	int src, qrc = SQLITE_DONE;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if (an_grow(&e->pts, &e->cap_pts, e->n_pts, sizeof *e->pts) < 0) {
			rc = -ENOMEM;
			goto out;
		}
		struct an_pt *p = &e->pts[e->n_pts++];
		memset(p, 0, sizeof *p);
		struct an_point *o = &p->pub;
		o->id = sqlite3_column_int64(s, 0);
		copy_col(p->model, sizeof p->model, s, 1);
		copy_col(p->method, sizeof p->method, s, 2);
		o->n_threads = sqlite3_column_int(s, 3);
		o->scale = col_num(s, 4);
		copy_col(p->sizes, sizeof p->sizes, s, 5);
		o->work = col_num(s, 6);
		o->target = col_num(s, 7);
		o->t_para_s = col_num(s, 8);
		o->t_seq_s = col_num(s, 9);
		copy_col(p->t_seq_source, sizeof p->t_seq_source, s, 10);
		o->efficiency = col_num(s, 11);
		o->oversubscribed = sqlite3_column_int(s, 12);
		copy_col(p->note, sizeof p->note, s, 13);
		o->converged = sqlite3_column_type(s, 14) == SQLITE_NULL || sqlite3_column_int(s, 14);
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, o->id);
		size_t cap = 0, n = 0;
		while ((qrc = sqlite3_step(q)) == SQLITE_ROW) {
			int64_t id = sqlite3_column_int64(q, 0);
			const char *role = (const char *)sqlite3_column_text(q, 1);
			if (role && strcmp(role, "seq") == 0) {
				if (!o->seq_id)
					o->seq_id = id;
				continue;
			}
			if (an_grow(&p->reps, &cap, n, sizeof *p->reps) < 0) {
				rc = -ENOMEM;
				goto out;
			}
			p->reps[n++] = id;
		}
		o->n_reps = (int)n;
		if (qrc != SQLITE_DONE)
			break;
	}
	/* a damaged page ends the rows early: an error, not an experiment without points */
	rc = src == SQLITE_DONE && qrc == SQLITE_DONE ? 0 : -EIO;
out:
	sqlite3_finalize(s);
	sqlite3_finalize(q);
	return rc;
}

/* The last `max` lines of the file at path (at most its last 4 KiB), "" when empty or absent;
 * owned by the experiment. */
static const char *tail_lines(struct an_exp *e, const char *path, int max)
{
	char buf[4097];
	FILE *f = fopen(path, "r");
	if (!f)
		return "";
	size_t n = 0;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		if (size > 4096 && fseek(f, size - 4096, SEEK_SET) == 0)
			;
		else
			rewind(f);
		n = fread(buf, 1, sizeof buf - 1, f);
	}
	fclose(f);
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = 0;
	for (size_t i = 0; i < n; i++)
		if (buf[i] == 0 || (buf[i] < 0x20 && buf[i] != '\n' && buf[i] != '\t'))
			buf[i] = '?';   /* binary output: printable, one line per line */
	const char *p = buf + n;
	int lines = 0;
	while (p > buf && !(p[-1] == '\n' && ++lines == max))
		p--;
	return an_exp_str(e, "%s", p);
}

/* Runs that gave no measurement (docs/store-schema.md: failed, timeout, incomplete,
 * interrupted), with their reason and the end of their stderr, for the reports: they are out of
 * every point (read_points links only ok runs). Incomplete ones are also problem lines (what
 * their trace lacks). */
static void read_failures(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT id, kind, n_threads, sizes, status, reason FROM runs "
			       "WHERE status IN ('failed', 'timeout', 'incomplete', 'interrupted') "
			       "ORDER BY id", -1, &s, NULL) != SQLITE_OK)
		return;
	int src;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if (an_grow(&e->fail, &e->cap_fail, e->n_fail, sizeof *e->fail) < 0)
			break;
		struct an_run_failure *x = &e->fail[e->n_fail++];
		const char *t;
		x->id = sqlite3_column_int64(s, 0);
		x->kind = an_exp_str(e, "%s", (t = (const char *)sqlite3_column_text(s, 1)) ? t : "?");
		x->n_threads = sqlite3_column_int(s, 2);
		x->sizes = an_exp_str(e, "%s", (t = (const char *)sqlite3_column_text(s, 3)) ? t : "");
		x->status = an_exp_str(e, "%s", (t = (const char *)sqlite3_column_text(s, 4)) ? t : "?");
		t = (const char *)sqlite3_column_text(s, 5);
		x->reason = an_exp_str(e, "%s", t && t[0] ? t : "no reason recorded");
		char path[4096];
		snprintf(path, sizeof path, "%s/runs/%lld/stderr", e->dir, (long long)x->id);
		x->stderr_tail = tail_lines(e, path, 5);
		if (!strcmp(x->status, "incomplete"))
			an_exp_problem_add(e, "run %lld (%s N=%d %s) is incomplete, left out of the "
					   "means: %s", (long long)x->id, x->kind, x->n_threads,
					   x->sizes, x->reason);
	}
	if (src != SQLITE_DONE && src != SQLITE_ROW)
		an_exp_problem_add(e, "%s/experiment.db: the failed runs were not all read: %s",
				   e->dir, sqlite3_errmsg(db));
	sqlite3_finalize(s);
}

size_t an_exp_n_failures(const struct an_exp *e) { return e->n_fail; }
const struct an_run_failure *an_exp_failure(const struct an_exp *e, size_t i)
{
	return i < e->n_fail ? &e->fail[i] : NULL;
}

/* Why point p has no readable repetition: the runs at its N and sizes that failed, timed out or
 * were incomplete, with their reasons (the first three), else that none was linked. (Its public
 * view's strings are not set yet: p->sizes.) */
static const char *no_rep_why(struct an_exp *e, const struct an_pt *p, int linked)
{
	char buf[1024];
	int n = 0, len = 0;
	for (size_t i = 0; i < e->n_fail; i++) {
		const struct an_run_failure *x = &e->fail[i];
		if (strcmp(x->kind, "par") || x->n_threads != p->pub.n_threads ||
		    strcmp(x->sizes, p->sizes))
			continue;
		if (n++ < 3 && len < (int)sizeof buf)
			len += snprintf(buf + len, sizeof buf - (size_t)len, "%srun %lld %s",
					n > 1 ? "; " : "", (long long)x->id, x->reason);
	}
	if (!n)
		return an_exp_str(e, "no repetition with a readable trace (%d run(s) linked)", linked);
	if (n > 3 && len < (int)sizeof buf)
		snprintf(buf + len, sizeof buf - (size_t)len, "; %d more", n - 3);
	return an_exp_str(e, "no repetition with a readable trace: %d run(s) gave no measurement: "
			  "%s", n, buf);
}

/* Median, min and max over the point's analyzed repetitions; figures unavailable in every
 * repetition keep the first reason. */
/* E and S of a point from the median of the T_para they divide (T_seq is the point's), not the
 * median of the repetitions' ratios: for two repetitions that is the mean of T_seq/T_a and
 * T_seq/T_b, above 1 at N=1 whenever they differ. Same for L_from_E = T_para (1 - E). */
static void ratio_from_medians(struct an_point *o, const struct an_fig *const *rs, int n,
			       double *te)
{
	double ts = NAN, nn = NAN;
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		const struct an_fig *f = rs[i];
		if (f[AN_E].unavailable || f[AN_T_SEQ].unavailable || f[AN_N].unavailable ||
		    f[AN_E].value <= 0)
			continue;
		ts = f[AN_T_SEQ].value;
		nn = f[AN_N].value;
		te[k++] = ts / (nn * f[AN_E].value);   /* the T_para this E used */
	}
	if (!k)
		return;
	double md, mn, mx;
	an_stats(te, k, &md, &mn, &mx);
	o->med[AN_E] = an_fig_val(ts / (nn * md));
	o->min[AN_E] = an_fig_val(ts / (nn * mx));
	o->max[AN_E] = an_fig_val(ts / (nn * mn));
	o->med[AN_S] = an_fig_val(ts / md);
	o->min[AN_S] = an_fig_val(ts / mx);
	o->max[AN_S] = an_fig_val(ts / mn);
	o->med[AN_L_E] = an_fig_val(md - ts / nn);
	o->min[AN_L_E] = an_fig_val(mn - ts / nn);
	o->max[AN_L_E] = an_fig_val(mx - ts / nn);
}

/* E_comp of a point the same way, from the median T_para_comp and the compensated T_seq. */
static void comp_ratio_from_medians(struct an_point *o, const struct an_fig *const *rs, int n,
				    double *te, double tsc)
{
	size_t k = 0;
	double nn = NAN;
	for (int i = 0; i < n; i++) {
		const struct an_fig *f = rs[i];
		if (f[AN_E_C].unavailable || f[AN_T_PARA_C].unavailable || f[AN_N].unavailable ||
		    !(f[AN_T_PARA_C].value > 0))
			continue;
		nn = f[AN_N].value;
		te[k++] = f[AN_T_PARA_C].value;
	}
	if (!k)
		return;
	double md, mn, mx;
	an_stats(te, k, &md, &mn, &mx);
	o->med[AN_E_C] = an_fig_val(tsc / (nn * md));
	o->min[AN_E_C] = an_fig_val(tsc / (nn * mx));
	o->max[AN_E_C] = an_fig_val(tsc / (nn * mn));
}

/* Figure m of point o from the runner alone: one value, so median, min and max alike. */
static void point_runner_fig(struct an_point *o, enum an_metric m, double v)
{
	o->med[m] = o->min[m] = o->max[m] = an_fig_val(v);
}

static void point_stats(struct an_exp *e, struct an_pt *p)
{
	struct an_point *o = &p->pub;
	int n = 0, linked = o->n_reps;
	/* every linked repetition counts: no cap (a point of 1000 repetitions is a point of 1000) */
	const struct an_fig **rs = malloc((size_t)(linked ? linked : 1) * sizeof *rs);
	double *v = malloc((size_t)(linked ? linked : 1) * sizeof *v);
	if (!rs || !v) {
		an_exp_problem_add(e, "point %lld: out of memory for its statistics", (long long)o->id);
		linked = 0;
	}
	for (int k = 0; k < linked; k++) {
		struct an_exp_run *x = an_exp_run_find(e, p->reps[k]);
		if (x && !x->have_fig)
			an_exp_run_analyze(e, x);
		if (x && x->have_fig)
			rs[n++] = x->fig;
	}
	o->n_reps = n;
	for (int m = 0; m < AN_N_METRICS; m++) {
		int k = 0;
		const char *why = n ? NULL : m == 0 ? no_rep_why(e, p, linked) : o->med[0].unavailable;
		for (int i = 0; i < n; i++) {
			struct an_fig f = rs[i][m];
			if (f.unavailable) {
				if (!why)
					why = f.unavailable;
			} else {
				v[k++] = f.value;
			}
		}
		if (!k) {
			o->med[m] = o->min[m] = o->max[m] = an_fig_na(why);
			continue;
		}
		double md, mn, mx;
		an_stats(v, (size_t)k, &md, &mn, &mx);
		o->med[m] = an_fig_val(md);
		o->min[m] = an_fig_val(mn);
		o->max[m] = an_fig_val(mx);
	}
	if (n)
		ratio_from_medians(o, rs, n, v);
	if (n && p->t_seq_comp > 0)
		comp_ratio_from_medians(o, rs, n, v, p->t_seq_comp);
	if (!n && !isnan(o->t_para_s)) {
		/* no trace: the runner's own figures (means of the linked repetitions), so curves,
		 * speedup and the matrix still have a value */
		o->n_reps = linked;
		point_runner_fig(o, AN_T_PARA, o->t_para_s);
		if (!isnan(o->t_seq_s) && o->t_seq_s > 0)
			point_runner_fig(o, AN_T_SEQ, o->t_seq_s);
		if (!isnan(o->efficiency)) {
			point_runner_fig(o, AN_E, o->efficiency);
			point_runner_fig(o, AN_S, o->efficiency * o->n_threads);
			point_runner_fig(o, AN_L_E, o->t_para_s * (1 - o->efficiency));
		}
	}
	o->med[AN_OVERSUB] = an_fig_val(o->oversubscribed ||
					(e->n_cpus > 0 && o->n_threads > e->n_cpus));
	free(rs);
	free(v);
}

/* The text of the last SQLite error of the store, never empty. */
static const char *db_errmsg(struct store *st, int rc)
{
	if (store_errmsg(st)[0])
		return store_errmsg(st);
	const char *m = sqlite3_errmsg(store_db(st));
	if (m && m[0] && sqlite3_errcode(store_db(st)) != SQLITE_OK)
		return m;
	return rc < 0 ? strerror(-rc) : "unknown SQLite error";
}

/* How many points have figures in the store's metrics table; -1 when it cannot be read. */
static long metric_points(sqlite3 *db)
{
	sqlite3_stmt *q;
	long n = -1;
	if (sqlite3_prepare_v2(db, "SELECT count(DISTINCT point_id) FROM metrics WHERE point_id > 0 "
			       "AND (point2_id IS NULL OR point2_id = 0)", -1, &q, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

/* Replaces the metrics table. On failure `why` gets SQLite's reason, taken before the
 * rollback (which would leave "not an error" behind). */
static int fill_store(struct an_exp *e, struct store *st, char *why, size_t why_len)
{
	int rc = store_begin(st);
	why[0] = '\0';
	if (rc < 0) {
		snprintf(why, why_len, "%s", db_errmsg(st, rc));
		return rc;
	}
	if (sqlite3_exec(store_db(st), "DELETE FROM metrics", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(why, why_len, "%s", db_errmsg(st, -EIO));
		store_rollback(st);
		return -EIO;
	}
	an_cache_store(e, st);
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		for (int m = 0; m < AN_N_METRICS; m++)
			store_metric_put(st, 0, o->id, 0, an_metric_name((enum an_metric)m),
					 o->med[m].value, an_metric_unit((enum an_metric)m),
					 o->med[m].unavailable);
	}
	if ((rc = an_matrix_store(e, st)) < 0) {
		snprintf(why, why_len, "%s", db_errmsg(st, rc));
		store_rollback(st);
		return rc;
	}
	if ((rc = store_commit(st)) < 0)
		snprintf(why, why_len, "%s", db_errmsg(st, rc));
	return rc;
}

int an_exp_read_store(struct an_exp *e, struct store *st, unsigned flags, int writable,
		      char *err, size_t errlen)
{
	const char *dir = e->dir;
	sqlite3 *db = store_db(st);
	int rc;
	/* runs left "running" by a runner that is gone are interrupted (not in progress): said
	 * so in the store for every reader; only a reader that may write can */
	if (writable && (rc = store_runs_interrupt(st)) > 0)
		an_exp_problem_add(e, "%s: %d run(s) interrupted: their runner ended before they "
				   "finished (the next scalegraph run makes them again)", dir, rc);
	if ((rc = read_machine(e, db)) < 0 || (rc = read_methods(e, db)) < 0 ||
	    (rc = an_exp_runs_read(e, db)) < 0 || (rc = read_points(e, db)) < 0) {
		snprintf(err, errlen, "%s/experiment.db: %s", dir, db_errmsg(st, rc));
		return rc;
	}
	read_failures(e, db);
	if (!e->n_pts)
		an_exp_problem_add(e, "%s: the experiment has no points yet (scalegraph run)", dir);
	for (size_t i = 0; i < e->n_pts; i++)
		an_exp_point_opts(e, &e->pts[i]);
	an_cache_keys(e);
	if (!(flags & AN_EXP_REANALYZE) && (rc = an_cache_load(e, db)) < 0)
		an_exp_problem_add(e, "%s/experiment.db: cached figures not read: %s", dir,
				   db_errmsg(st, rc));
	return 0;
}

int an_exp_open(const char *dir, unsigned flags, struct an_exp **out, char *err, size_t errlen)
{
	char dummy[8];
	if (!err || !errlen)
		err = dummy, errlen = sizeof dummy;
	struct store *st = NULL;
	struct an_exp *e = calloc(1, sizeof *e);
	int rc = -ENOMEM;
	if (!e || !(e->dir = strdup(dir))) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto out;
	}
	int writable = !(flags & AN_EXP_NO_STORE_WRITE);
	rc = store_open_msg(dir, writable ? STORE_UPDATE : STORE_READ, &st, err, errlen);
	if (rc < 0 && writable && rc != -EPROTO && rc != -ENOENT && rc != -ENAMETOOLONG) {
		writable = 0;
		rc = store_open_msg(dir, STORE_READ, &st, err, errlen);
	}
	if (rc < 0)
		goto out;
	sqlite3 *db = store_db(st);
	if ((rc = an_exp_read_store(e, st, flags, writable, err, errlen)) < 0)
		goto out;
	for (size_t i = 0; i < e->n_pts; i++)
		an_exp_n1_baseline(e, &e->pts[i]);
	for (size_t i = 0; i < e->n_pts; i++)
		an_exp_comp_t_seq(e, &e->pts[i]);
	an_exp_overhead_read(e, db);
	for (size_t i = 0; i < e->n_pts; i++)
		point_stats(e, &e->pts[i]);
	an_exp_overhead_finish(e);
	size_t n_keyed = 0;
	for (size_t i = 0; i < e->n_runs; i++)
		n_keyed += e->runs[i].have_fig && e->runs[i].key;
	/* nothing new: the store's metrics are current, leave them (points of untraced runs have
	 * no cache key: their metrics are current when every point has its rows) */
	if (!e->n_analyzed && n_keyed == e->n_cache_keys && metric_points(db) == (long)e->n_pts)
		writable = 0;
	if (e->n_untraced)
		an_exp_problem_add(e, "%zu run(s) have no trace (a build without scalegraph cc, "
				   "or --no-trace): their points carry the runner's wall-clock T_para, "
				   "T_seq, E and S only", e->n_untraced);
	for (size_t i = 0; i < e->n_pts; i++) {
		struct an_pt *p = &e->pts[i];
		p->pub.model = p->model;
		p->pub.method = p->method;
		p->pub.sizes = p->sizes;
		p->pub.t_seq_source = p->t_seq_source;
		p->pub.note = p->note;
		p->pub.rep_ids = p->reps;
		p->pub.t_basis = p->t_basis;
		p->pub.t_seq_how = p->t_seq_how;
		/* T_seq is this point's own N=1 runs: its median T_para is T_seq, so E = 1 and
		 * T_para (1 - E) = 0 by construction; rebuilt from a stored E they came out as
		 * 0.5 ns or -1 ns, which the windows printed as if measured */
		if (p->pub.n_threads == 1 && !strcmp(p->t_seq_source, "n1") &&
		    !p->pub.med[AN_L_E].unavailable && !p->pub.med[AN_E].unavailable) {
			p->pub.med[AN_L_E] = an_fig_val(0);
			p->pub.med[AN_E] = p->pub.med[AN_S] = an_fig_val(1);
		}
	}
	char why[512];
	if (writable && (rc = fill_store(e, st, why, sizeof why)) < 0)
		an_exp_problem_add(e, "%s/experiment.db: metrics not written: %s", dir,
				   why[0] ? why : strerror(-rc));
	*out = e;
	e = NULL;
	rc = 0;
out:
	if (st)
		store_close(st);
	an_exp_free(e);
	return rc;
}

void an_exp_free(struct an_exp *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->n_pts; i++)
		free(e->pts[i].reps);
	for (size_t i = 0; i < e->n_runs; i++)
		an_run_free(e->runs[i].run);
	for (size_t i = 0; i < e->n_methods; i++)
		free(e->methods[i]);
	for (size_t i = 0; i < e->n_problems; i++)
		free(e->problems[i]);
	for (size_t i = 0; i < e->n_strs; i++)
		free(e->strs[i]);
	free(e->pts);
	free(e->runs);
	free(e->fail);
	free(e->methods);
	free(e->problems);
	free(e->strs);
	free(e->dir);
	free(e);
}

const char *an_exp_dir(const struct an_exp *e) { return e->dir; }
size_t an_exp_n_points(const struct an_exp *e) { return e->n_pts; }
const struct an_point *an_exp_point(const struct an_exp *e, size_t i)
{
	return i < e->n_pts ? &e->pts[i].pub : NULL;
}
size_t an_exp_n_problems(const struct an_exp *e) { return e->n_problems; }
const char *an_exp_problem(const struct an_exp *e, size_t i)
{
	return i < e->n_problems ? e->problems[i] : NULL;
}
int an_exp_n_cpus(const struct an_exp *e) { return e->n_cpus; }
size_t an_exp_n_methods(const struct an_exp *e) { return e->n_methods; }
const char *an_exp_method(const struct an_exp *e, size_t i)
{
	return i < e->n_methods ? e->methods[i] : NULL;
}

const struct an_point *an_exp_point_find(const struct an_exp *e, const char *model,
					 const char *method, int n)
{
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (o->n_threads == n && strcmp(o->model, model) == 0 &&
		    (!method || strcmp(o->method, method) == 0))
			return o;
	}
	return NULL;
}

/* ---- (10) at a point, with its terms (issue 20) ---- */

struct rep_te {
	const struct an_exp_run *x;
	double te;                 /* the T_para its E used */
};

static int rep_te_cmp(const void *a, const void *b)
{
	const struct rep_te *x = a, *y = b;
	if (x->te != y->te)
		return x->te < y->te ? -1 : 1;
	return (x->x->id > y->x->id) - (x->x->id < y->x->id);
}

int an_point_identity(const struct an_exp *e, const struct an_point *o, struct an_identity *out)
{
	memset(out, 0, sizeof *out);
	struct rep_te *v = calloc(o->n_reps ? (size_t)o->n_reps : 1, sizeof *v);
	size_t n = 0;
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < o->n_reps; i++) {
		const struct an_exp_run *x = an_exp_run_find(e, o->rep_ids[i]);
		if (!x || !x->have_fig)
			continue;
		const struct an_fig *f = x->fig;
		if (f[AN_E].unavailable || f[AN_T_SEQ].unavailable || f[AN_L].unavailable ||
		    f[AN_U].unavailable || f[AN_L_W1].unavailable || f[AN_CHECK3].unavailable ||
		    !(f[AN_E].value > 0) || !(f[AN_N].value > 0))
			continue;
		v[n++] = (struct rep_te){ x, f[AN_T_SEQ].value / (f[AN_N].value * f[AN_E].value) };
	}
	if (!n) {
		free(v);
		return -ENOENT;
	}
	/* the repetition of the median T_para, as the point's E and L_from_E take it: the middle
	 * one, or the mean of the middle two (every term is linear in the runs' figures) */
	qsort(v, n, sizeof *v, rep_te_cmp);
	size_t a = (n - 1) / 2, b = n / 2;
	double w = a == b ? 1.0 : 0.5;
	for (size_t k = a; k <= b; k++) {
		const struct an_fig *f = v[k].x->fig;
		double N = f[AN_N].value;
		out->l_e += w * (v[k].te - f[AN_T_SEQ].value / N);
		out->l += w * f[AN_L].value;
		out->u_n += w * f[AN_U].value / N;
		out->l_w1_n += w * f[AN_L_W1].value / N;
		out->check3 += w * f[AN_CHECK3].value;
		out->run_ids[out->n_runs++] = v[k].x->id;
	}
	free(v);
	return 0;
}
