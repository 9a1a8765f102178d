/*
 * an_overhead.c — the distortion measured, beside the one estimated (issue 21, part 2). The
 * tracing cost of docs/analyzer.md is an estimate from record counts: it cannot see a cost that
 * writes no record, such as the instrumented build's code moving a hot loop onto a worse
 * alignment (SPLASH-3 LU: +25 % with recording off, estimated 0.5 %). A spec with `plain
 * COMMAND` has `scalegraph run` make untraced runs of the program built with the ordinary
 * compiler beside the traced repetitions (the store's plain_runs table), and each point gets
 *
 *     measured overhead  = T_wall(traced) / T_wall(plain) - 1
 *     estimated overhead = trace_cost_share / (1 - trace_cost_share)
 *
 * with T_wall the median wall time of whole processes (a plain run has no trace, hence no T_para
 * of its own; the traced run's wall time holds its start and its trace's last write too). The
 * estimate is put in the same form — a slowdown over the untraced time: if the cost D spreads
 * over the N processors, T_traced = T + D/N and D/(N T_traced) = share, so T_traced/T - 1 =
 * share/(1 - share). A point where the two differ by more than AN_OVERHEAD_GAP_MARK is marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "an_int.h"

#define NO_PLAIN "not measured (no plain build in the spec)"

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of v[0..n) (mean of the middle two for an even n), sorting v. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, dbl_cmp);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Does the store hold a plain build: a `plain` meta key (schema 4 runners record it) or plain
 * runs? A store of schema < 4 has neither (no table: the prepare fails). */
static int has_plain(sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM meta WHERE key = 'plain') + "
			       "(SELECT count(*) FROM plain_runs)", -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		yes = sqlite3_column_int(s, 0) > 0;
	sqlite3_finalize(s);
	return yes;
}

static void point_none(struct an_point *o, const char *why)
{
	o->t_plain = o->ovh_measured = an_fig_na(why);
	o->n_plain = 0;
}

void an_exp_overhead_read(struct an_exp *e, struct sqlite3 *db)
{
	int plain = has_plain(db);
	sqlite3_stmt *q = NULL;
	if (plain && sqlite3_prepare_v2(db, "SELECT t_wall_s, status, reason FROM plain_runs WHERE "
					"n_threads = ? AND sizes = ? ORDER BY rep", -1, &q,
					NULL) != SQLITE_OK) {
		an_exp_problem_add(e, "%s/experiment.db: the plain runs were not read: %s", e->dir,
				   sqlite3_errmsg(db));
		plain = 0;
	}
	for (size_t i = 0; i < e->n_pts; i++) {
		struct an_pt *p = &e->pts[i];
		struct an_point *o = &p->pub;
		double *v = malloc((size_t)(o->n_reps > 0 ? o->n_reps : 1) * sizeof *v);
		size_t k = 0;
		/* the traced repetitions linked to the point (ok runs), by their wall time */
		for (int r = 0; v && r < o->n_reps; r++) {
			const struct an_exp_run *x = an_exp_run_find(e, p->reps[r]);
			if (x && x->ok && isfinite(x->t_wall_s))
				v[k++] = x->t_wall_s;
		}
		o->n_traced = (int)k;
		o->t_traced_wall = k ? an_fig_val(median(v, k)) :
			an_fig_na("no traced repetition with a wall time");
		free(v);
		o->ovh_estimated = an_fig_na(NO_PLAIN);   /* set in an_exp_overhead_finish */
		o->ovh_marked = 0;
		o->ovh_why = NULL;
		if (!plain) {
			point_none(o, NO_PLAIN);
			continue;
		}
		double w[256];
		size_t n_ok = 0, n_bad = 0;
		char first[300] = "";
		sqlite3_reset(q);
		sqlite3_bind_int(q, 1, o->n_threads);
		sqlite3_bind_text(q, 2, p->sizes, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(q) == SQLITE_ROW) {
			const char *st = (const char *)sqlite3_column_text(q, 1);
			if (st && !strcmp(st, "ok") && sqlite3_column_type(q, 0) != SQLITE_NULL) {
				if (n_ok < sizeof w / sizeof w[0])
					w[n_ok++] = sqlite3_column_double(q, 0);
				continue;
			}
			if (!n_bad++) {
				const char *why = (const char *)sqlite3_column_text(q, 2);
				snprintf(first, sizeof first, "%s: %s", st ? st : "?",
					 why && *why ? why : "no reason recorded");
			}
		}
		if (!n_ok) {
			point_none(o, n_bad ? an_exp_str(e, "not measured: the plain build's %zu run(s) "
							 "here gave no time (first: %s)", n_bad, first)
				   : "not measured: no plain run at this point (the series was "
				     "stopped before it, or ran before the spec had `plain`: run it "
				     "again to make them)");
			continue;
		}
		o->n_plain = (int)n_ok;
		o->t_plain = an_fig_val(median(w, n_ok));
		if (o->t_traced_wall.unavailable)
			o->ovh_measured = an_fig_na(o->t_traced_wall.unavailable);
		else if (!(o->t_plain.value > 0))
			o->ovh_measured = an_fig_na("the plain runs' wall time is 0");
		else
			o->ovh_measured = an_fig_val(o->t_traced_wall.value / o->t_plain.value - 1);
	}
	sqlite3_finalize(q);
}

void an_exp_overhead_finish(struct an_exp *e)
{
	for (size_t i = 0; i < e->n_pts; i++) {
		struct an_point *o = &e->pts[i].pub;
		struct an_fig sh = o->med[AN_TRACE_SHARE];
		if (sh.unavailable)
			o->ovh_estimated = an_fig_na(sh.unavailable);
		else if (!(sh.value < 1))
			o->ovh_estimated = an_fig_na("the estimated tracing cost is all of N·T_para");
		else
			o->ovh_estimated = an_fig_val(sh.value / (1 - sh.value));
		if (o->ovh_measured.unavailable || o->ovh_estimated.unavailable)
			continue;
		double m = o->ovh_measured.value, est = o->ovh_estimated.value, gap = m - est;
		if (fabs(gap) <= AN_OVERHEAD_GAP_MARK)
			continue;
		o->ovh_marked = 1;
		if (gap > 0)
			o->ovh_why = an_exp_str(e, "measured overhead %+.1f %% against %+.1f %% estimated "
						"from the records: the instrumented build costs %.1f "
						"points more than its records explain (its code layout, "
						"the library's start and exit, or run-to-run scatter); "
						"what of it falls inside T_para, this point's figures "
						"hold", 100 * m, 100 * est, 100 * gap);
		else
			o->ovh_why = an_exp_str(e, "measured overhead %+.1f %% against %+.1f %% estimated "
						"from the records: the estimate is %.1f points above what "
						"was measured (the calibrated record cost overstates this "
						"program's, or the runs scattered): the compensated "
						"figures take out too much", 100 * m, 100 * est, -100 * gap);
	}
}

void an_point_overhead_text(const struct an_point *o, char *buf, size_t len)
{
	char est[160];
	if (o->ovh_estimated.unavailable)
		snprintf(est, sizeof est, "estimated: unavailable (%s)", o->ovh_estimated.unavailable);
	else
		snprintf(est, sizeof est, "estimated from the records %+.1f %%",
			 100 * o->ovh_estimated.value);
	if (o->ovh_measured.unavailable) {
		snprintf(buf, len, "measured overhead: %s; %s", o->ovh_measured.unavailable, est);
		return;
	}
	/* the traced runs' T_para beside their wall time: what of the overhead fell outside the
	 * measured interval (the process's start and exit, the trace's last writes) shows */
	char tp[48] = "";
	if (!o->med[AN_T_PARA].unavailable)
		snprintf(tp, sizeof tp, " (T_para %.4g s)", o->med[AN_T_PARA].value);
	snprintf(buf, len, "measured overhead: %+.1f %% (traced %.4g s wall%s / plain %.4g s wall, "
		 "medians of %d and %d run%s); %s%s", 100 * o->ovh_measured.value,
		 o->t_traced_wall.value, tp, o->t_plain.value, o->n_traced, o->n_plain,
		 o->n_plain == 1 ? "" : "s", est, o->ovh_marked ? "  \xe2\x89\xa0" : "");
}
