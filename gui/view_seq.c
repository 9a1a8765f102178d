/*
 * view_seq.c — the experiment browser drawn as a page (window 1's export: machine, methods with
 * their runs, failed runs with reasons) and the execution profile of the sequential program
 * (window 2, Fig. 5: share of time per function).
 */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CELL 96

/* A table of strings built row by row. */
struct tbuf {
	char (*c)[CELL];
	const char **p;
	size_t n_cols, n_rows, cap_rows;
};

static int tbuf_init(struct tbuf *t, size_t n_cols, size_t cap_rows)
{
	t->n_cols = n_cols;
	t->n_rows = 0;
	t->cap_rows = cap_rows;
	t->c = calloc(n_cols * (cap_rows ? cap_rows : 1), CELL);
	t->p = calloc(n_cols * (cap_rows ? cap_rows : 1), sizeof(*t->p));
	if (!t->c || !t->p) {
		free(t->c);
		free(t->p);
		return -ENOMEM;
	}
	return 0;
}

static void tbuf_free(struct tbuf *t)
{
	free(t->c);
	free(t->p);
}

/* Sets cell (row, col) with printf formatting; rows past the capacity are dropped. */
static void tbuf_set(struct tbuf *t, size_t row, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void tbuf_set(struct tbuf *t, size_t row, size_t col, const char *fmt, ...)
{
	va_list ap;
	size_t i = row * t->n_cols + col;

	if (row >= t->cap_rows)
		return;
	va_start(ap, fmt);
	vsnprintf(t->c[i], CELL, fmt, ap);
	va_end(ap);
	t->p[i] = t->c[i];
	if (row + 1 > t->n_rows)
		t->n_rows = row + 1;
}

static void format_w(char *buf, size_t len, double w)
{
	plot_format_si(buf, len, w);
}

/* Height of the browser page with every row: three tables (a title, a header line and their
 * rows, then a gap) as the export draws them. */
static double browser_natural_h(size_t machine, size_t methods, size_t fails)
{
	return 3 * (60 + 19.0) + 19.0 * (double)(machine + methods + fails);
}

/* Compact tables: a table of k row slots advances the page by this much. */
static double compact_advance(size_t k)
{
	return PLOT_TABLE_HEAD_COMPACT + PLOT_TABLE_ROW_COMPACT * (double)k + 8;
}

/* Shares the row slots a page of height h has among three compact tables of rows[t] rows: each
 * gets up to 2 first (the last of them "... N more rows" when it has more), then the others go
 * round, the failed runs first. A truncated table's last slot is its "more" line. */
static void browser_share_rows(double h, const size_t rows[3], size_t slots[3])
{
	static const int order[3] = { 2, 1, 0 };
	long left = (long)floor((h - 3 * compact_advance(0)) / PLOT_TABLE_ROW_COMPACT);
	int t, k, more = 1;

	for (t = 0; t < 3; t++) {
		slots[t] = rows[t] < 2 ? rows[t] : 2;
		left -= (long)slots[t];
	}
	while (left > 0 && more)
		for (k = 0, more = 0; k < 3 && left > 0; k++) {
			t = order[k];
			if (slots[t] < rows[t]) {
				slots[t]++;
				left--;
				more = 1;
			}
		}
}

/* Draws compact table t at y with `slots` row slots; returns how far the page advances. */
static double compact_table(cairo_t *cr, double w, double y, const struct plot_table *t, size_t slots)
{
	/* plot_table_draw draws row k when head + (k + 1) rows fit: all rows with room for one
	 * more, or slots - 1 rows and the "more" line in the last slot */
	double rh = slots >= t->n_rows ?
		PLOT_TABLE_HEAD_COMPACT + PLOT_TABLE_ROW_COMPACT * (double)(t->n_rows + 1) + 1 :
		PLOT_TABLE_HEAD_COMPACT + PLOT_TABLE_ROW_COMPACT * (double)slots + 4;

	plot_table_draw(cr, (struct plot_rect){ 0, y, w, rh }, t);
	return compact_advance(slots >= t->n_rows ? t->n_rows : slots);
}

/* The points of method me that `scalegraph report` flags: "! N=2; oversub N=4,8; ≠ N=2" ("!":
 * the tracing cost above the report's mark; "oversub": N above the CPUs; "≠": measured and
 * estimated overhead differ by more than 5 points), "-" for none. */
static void report_marks(char *buf, size_t len, const struct model *m,
			 const struct model_method *me)
{
	char ns[CELL];
	size_t j, n = 0, k;
	int f, last;

	buf[0] = '\0';
	for (f = 0; f < 3; f++) {
		for (j = 0, k = 0, last = 0, ns[0] = '\0'; j < me->n_pts && k < sizeof(ns); j++) {
			const struct model_point *p = &me->pts[j];
			if (f == 0 ? !(p->cost_marked && m->cost_mark > 0) : f == 1 ? !p->oversubscribed
			    : !p->ovh_marked)
				continue;
			if (p->n == last)
				continue;   /* one N once (several W at one N) */
			k += (size_t)snprintf(ns + k, sizeof(ns) - k, "%s%d", k ? "," : "", p->n);
			last = p->n;
		}
		if (ns[0] && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s", n ? "; " : "",
					      f == 0 ? "! N=" : f == 1 ? "oversub N=" : "\xe2\x89\xa0 N=", ns);
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

int view_browser_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	static const char *const mh[] = { "key", "value" };
	static const char *const th[] = { "method", "points", "N", "W", "runs ok", "not ok",
					  "in progress", "report marks" };
	/* "runs ok": the repetitions behind the method's points; a run shared by two methods (a
	 * memory-bound point at N=1 is the plain method's run) counts for both. "not ok": failed
	 * or interrupted; "in progress": running or pending (neither ok nor failed). "report
	 * marks": the points `scalegraph report` flags, "!" (tracing cost above its mark) and
	 * "oversub" (N above the CPUs) */
	static const char *const fh[] = { "method", "N", "rep", "sizes", "status", "reason" };
	const struct model *m = v->m;
	struct tbuf mt = { 0 }, tt = { 0 }, ft = { 0 };
	struct plot_table pt;
	char title[256], a[32], b[32], runs_title[64];
	size_t i, j, r, drawn, n_going = 0;
	double y;
	int rc, pass;

	if ((rc = tbuf_init(&mt, 2, m->n_machine + 1)) < 0 || (rc = tbuf_init(&tt, 8, m->n_methods + 1)) < 0 ||
	    (rc = tbuf_init(&ft, 6, m->n_runs + 1)) < 0)
		goto out;
	for (i = 0; i < m->n_machine; i++) {
		tbuf_set(&mt, i, 0, "%s", m->machine[i].key);
		tbuf_set(&mt, i, 1, "%s", m->machine[i].value);
	}
	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		size_t ok = 0, failed = 0, other = 0;
		char marks[CELL];
		for (r = 0; r < m->n_runs; r++) {
			if (strcmp(m->runs[r].method, me->name) != 0)
				continue;
			ok += m->runs[r].status == MODEL_RUN_OK;
			failed += m->runs[r].status == MODEL_RUN_FAILED ||
				  m->runs[r].status == MODEL_RUN_INTERRUPTED;
			other += m->runs[r].status == MODEL_RUN_RUNNING ||
				 m->runs[r].status == MODEL_RUN_PENDING;
		}
		report_marks(marks, sizeof(marks), m, me);
		tbuf_set(&tt, i, 0, "%s%s", me->name, me->shown ? "" : " (hidden)");
		tbuf_set(&tt, i, 1, "%zu", me->n_pts);
		if (me->n_pts) {
			tbuf_set(&tt, i, 2, "%d .. %d", me->pts[0].n, me->pts[me->n_pts - 1].n);
			double wlo = me->pts[0].w, whi = me->pts[0].w;
			for (j = 1; j < me->n_pts; j++) {
				wlo = fmin(wlo, me->pts[j].w);
				whi = fmax(whi, me->pts[j].w);
			}
			format_w(a, sizeof(a), wlo);
			format_w(b, sizeof(b), whi);
			tbuf_set(&tt, i, 3, wlo == whi ? "%s" : "%s .. %s", a, b);
		} else {
			tbuf_set(&tt, i, 2, "-");
			tbuf_set(&tt, i, 3, "-");
		}
		for (j = 0, r = 0; j < me->n_pts; j++)
			r += (size_t)(me->pts[j].reps > 0 ? me->pts[j].reps : 0);
		tbuf_set(&tt, i, 4, "%zu", r > ok ? r : ok);
		tbuf_set(&tt, i, 5, "%zu", failed);
		tbuf_set(&tt, i, 6, "%zu", other);
		tbuf_set(&tt, i, 7, "%s", marks);
	}
	/* the runs not ok (failed, interrupted) first, then those in progress (running, pending) */
	for (pass = 0, j = 0; pass < 2; pass++) {
		for (r = 0; r < m->n_runs; r++) {
			const struct model_run *ru = &m->runs[r];
			int going = ru->status == MODEL_RUN_RUNNING || ru->status == MODEL_RUN_PENDING;
			if (ru->status == MODEL_RUN_OK || going != pass)
				continue;
			n_going += (size_t)going;
			tbuf_set(&ft, j, 0, "%s", ru->method);
			tbuf_set(&ft, j, 1, "%d", ru->n);
			tbuf_set(&ft, j, 2, "%d", ru->rep);
			tbuf_set(&ft, j, 3, "%s", ru->sizes[0] ? ru->sizes : "-");
			tbuf_set(&ft, j, 4, "%s", model_run_status_name(ru->status));
			tbuf_set(&ft, j, 5, "%s", ru->reason[0] ? ru->reason : "-");
			j++;
		}
	}
	/* a run in progress is neither ok nor failed: the table says which it holds */
	snprintf(runs_title, sizeof(runs_title), "%s", n_going == 0 ? "Runs not ok" :
		 n_going == j ? "Runs in progress" : "Runs not ok, and runs in progress");
	if (ft.n_rows == 0) {
		/* only a list that has runs can say they all finished */
		static const char *const none[] = { "-", "", "", "", "ok", "every run finished" };
		static const char *const empty[] = { "-", "", "", "", "-", "no runs (no experiment "
						     "loaded, or none run yet)" };
		for (i = 0; i < 6; i++)
			tbuf_set(&ft, 0, i, "%s", m->n_runs ? none[i] : empty[i]);
	}
	view_title(title, sizeof(title), v, "Machine");
	if (browser_natural_h(mt.n_rows, tt.n_rows, ft.n_rows) <= h) {
		pt = (struct plot_table){ title, mh, 2, mt.p, mt.n_rows, -1, 0 };
		drawn = plot_table_draw(cr, (struct plot_rect){ 0, 0, w, 60 + 19.0 * (double)(mt.n_rows + 1) }, &pt);
		y = 60 + 19.0 * (double)(drawn + 1);
		pt = (struct plot_table){ "Scaling methods and their runs", th, 8, tt.p, tt.n_rows, -1, 0 };
		drawn = plot_table_draw(cr, (struct plot_rect){ 0, y, w, 60 + 19.0 * (double)(tt.n_rows + 1) }, &pt);
		y += 60 + 19.0 * (double)(drawn + 1);
		pt = (struct plot_table){ runs_title, fh, 6, ft.p, ft.n_rows, 4, 0 };
		plot_table_draw(cr, (struct plot_rect){ 0, y, w, h - y }, &pt);
	} else {
		/* a short window (the main window at 800x600 and 1366x768): the machine's keys in
		 * pairs, tables closer together, and rows shared out so that each table, the
		 * failed runs' above all, shows its first rows and says how many more there are */
		static const char *const mh2[] = { "key", "value", "key", "value" };
		struct tbuf m2 = { 0 };
		size_t slots[3];
		if ((rc = tbuf_init(&m2, 4, (mt.n_rows + 1) / 2 + 1)) < 0)
			goto out;
		for (i = 0; i < mt.n_rows; i++) {
			tbuf_set(&m2, i / 2, (i % 2) * 2, "%s", mt.p[i * 2]);
			tbuf_set(&m2, i / 2, (i % 2) * 2 + 1, "%s", mt.p[i * 2 + 1]);
		}
		for (i = 0; i < m2.n_rows * 4; i++)
			m2.p[i] = m2.p[i] ? m2.p[i] : "";
		browser_share_rows(h, (size_t[3]){ m2.n_rows, tt.n_rows, ft.n_rows }, slots);
		y = 0;
		pt = (struct plot_table){ title, mh2, 4, m2.p, m2.n_rows, -1, 1 };
		y += compact_table(cr, w, y, &pt, slots[0]);
		pt = (struct plot_table){ "Scaling methods and their runs", th, 8, tt.p, tt.n_rows, -1, 1 };
		y += compact_table(cr, w, y, &pt, slots[1]);
		pt = (struct plot_table){ runs_title, fh, 6, ft.p, ft.n_rows, 4, 1 };
		compact_table(cr, w, y, &pt, slots[2]);
		tbuf_free(&m2);
	}
out:
	tbuf_free(&mt);
	tbuf_free(&tt);
	tbuf_free(&ft);
	return rc;
}

/* A function too small to show as a bar of its own: its share is under 0.05 % (it would read
 * "0.00 %  0 s") and it carries no throttle label (a throttled function's short bar is
 * information: its time is in its callers). */
#define PROFILE_FOLD_SHARE 0.0005
#define PROFILE_MAX_BARS 20

static int profile_folded(const struct model_func *f, double share)
{
	return !(share >= PROFILE_FOLD_SHARE) && !strstr(f->name, "[throttled");
}

int view_profile_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct plot_bar *bars;
	char (*text)[96];
	struct plot_hbars hb;
	char title[256], t[32], axis[400], fold_label[64];
	double total = 0, fold_share = 0, fold_s = 0;
	size_t i, n = 0, n_fold = 0, n_small = 0;
	long fold_calls = 0;
	int rc, own = 0;

	/* an N=1 run stands in for the sequential program only when none was traced: the title
	 * says so instead of passing it for the sequential program */
	view_title(title, sizeof(title), v, m->seq_is_n1 ?
		   "Profile of the N=1 run (no traced sequential run; join waits left out)" :
		   "Execution profile of the sequential program");
	if (m->n_funcs == 0) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, w / 2, 20, PLOT_CENTER, title);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no function profile in this experiment");
		if (m->seq_why)
			plot_text(cr, w / 2, h / 2 + 22, PLOT_CENTER, m->seq_why);
		return 0;
	}
	bars = calloc(PROFILE_MAX_BARS, sizeof(*bars));
	text = calloc(PROFILE_MAX_BARS, sizeof(*text));
	if (!bars || !text) {
		rc = -ENOMEM;
		goto out;
	}
	/* the shares are the analyzer's (report --profile's excl %: of the profiled threads'
	 * summed time); only a CSV profile, which has no denominator, is divided here, by the
	 * summed exclusive time, and the axis says which */
	for (i = 0; i < m->n_funcs; i++) {
		total += m->funcs[i].excl_s;
		own |= isnan(m->funcs[i].excl_share);
	}
	/* a bar each for the functions that show (largest first, as the model sorts them), the
	 * rest — those under 0.05 %, and any past the 19th — folded into one last line, so six
	 * functions at "0.00 %  0 s" do not take half the window */
	for (i = 0; i < m->n_funcs; i++) {
		const struct model_func *f = &m->funcs[i];
		double share = !own ? f->excl_share : total > 0 ? f->excl_s / total : NAN;
		if (!profile_folded(f, share) && n < PROFILE_MAX_BARS - 1) {
			plot_format_seconds(t, sizeof(t), f->excl_s);
			bars[n].label = f->name;
			bars[n].value = share;
			snprintf(text[n], sizeof(text[n]), "%.2f %%  %s  %ld call%s", 100 * share,
				 t, f->calls, f->calls == 1 ? "" : "s");
			bars[n].text = text[n];
			n++;
			continue;
		}
		n_fold++;
		n_small += profile_folded(f, share);
		fold_share += isfinite(share) ? share : 0;
		fold_s += f->excl_s;
		fold_calls += f->calls;
	}
	if (n_fold) {
		if (n_small == n_fold)
			snprintf(fold_label, sizeof(fold_label), "%zu function%s under %.2g %%", n_fold,
				 n_fold == 1 ? "" : "s", 100 * PROFILE_FOLD_SHARE);
		else
			snprintf(fold_label, sizeof(fold_label), "%zu more function%s", n_fold,
				 n_fold == 1 ? "" : "s");
		plot_format_seconds(t, sizeof(t), fold_s);
		bars[n].label = fold_label;
		bars[n].value = fold_share;
		snprintf(text[n], sizeof(text[n]), "%.2f %%  %s  %ld call%s together", 100 * fold_share,
			 t, fold_calls, fold_calls == 1 ? "" : "s");
		bars[n].text = text[n];
		n++;
	}
	snprintf(axis, sizeof(axis), "exclusive time, share %s%s%s%s",
		 own ? "of the functions' summed exclusive time" :
		 "of the threads' time (as report --profile)", m->seq_source ? " (" : "",
		 m->seq_source ? m->seq_source : "", m->seq_source ? ")" : "");
	hb = (struct plot_hbars){ title, axis, PLOT_UNIT_PERCENT, bars, n, 0 };
	rc = plot_hbars_draw(cr, (struct plot_rect){ 0, 0, w, h }, &hb);
out:
	free(bars);
	free(text);
	return rc;
}
