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

int view_browser_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	static const char *const mh[] = { "key", "value" };
	static const char *const th[] = { "method", "points", "N", "W", "runs ok", "failed", "other" };
	/* "runs ok": the repetitions behind the method's points; a run shared by two methods (a
	 * memory-bound point at N=1 is the plain method's run) counts for both */
	static const char *const fh[] = { "method", "N", "rep", "sizes", "status", "reason" };
	const struct model *m = v->m;
	struct tbuf mt = { 0 }, tt = { 0 }, ft = { 0 };
	struct plot_table pt;
	char title[256], a[32], b[32];
	size_t i, j, r, drawn;
	double y;
	int rc;

	if ((rc = tbuf_init(&mt, 2, m->n_machine + 1)) < 0 || (rc = tbuf_init(&tt, 7, m->n_methods + 1)) < 0 ||
	    (rc = tbuf_init(&ft, 6, m->n_runs + 1)) < 0)
		goto out;
	for (i = 0; i < m->n_machine; i++) {
		tbuf_set(&mt, i, 0, "%s", m->machine[i].key);
		tbuf_set(&mt, i, 1, "%s", m->machine[i].value);
	}
	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		size_t ok = 0, failed = 0, other = 0;
		for (r = 0; r < m->n_runs; r++) {
			if (strcmp(m->runs[r].method, me->name) != 0)
				continue;
			ok += m->runs[r].status == MODEL_RUN_OK;
			failed += m->runs[r].status == MODEL_RUN_FAILED;
			other += m->runs[r].status > MODEL_RUN_FAILED;
		}
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
	}
	for (r = 0, j = 0; r < m->n_runs; r++) {
		const struct model_run *ru = &m->runs[r];
		if (ru->status == MODEL_RUN_OK)
			continue;
		tbuf_set(&ft, j, 0, "%s", ru->method);
		tbuf_set(&ft, j, 1, "%d", ru->n);
		tbuf_set(&ft, j, 2, "%d", ru->rep);
		tbuf_set(&ft, j, 3, "%s", ru->sizes[0] ? ru->sizes : "-");
		tbuf_set(&ft, j, 4, "%s", model_run_status_name(ru->status));
		tbuf_set(&ft, j, 5, "%s", ru->reason[0] ? ru->reason : "-");
		j++;
	}
	view_title(title, sizeof(title), v, "Machine");
	pt = (struct plot_table){ title, mh, 2, mt.p, mt.n_rows, -1 };
	drawn = plot_table_draw(cr, (struct plot_rect){ 0, 0, w, 60 + 19.0 * (double)(mt.n_rows + 1) }, &pt);
	y = 60 + 19.0 * (double)(drawn + 1);
	pt = (struct plot_table){ "Scaling methods and their runs", th, 7, tt.p, tt.n_rows, -1 };
	drawn = plot_table_draw(cr, (struct plot_rect){ 0, y, w, 60 + 19.0 * (double)(tt.n_rows + 1) }, &pt);
	y += 60 + 19.0 * (double)(drawn + 1);
	pt = (struct plot_table){ "Runs not ok", fh, 6, ft.p, ft.n_rows, 4 };
	if (ft.n_rows == 0) {
		static const char *const none[] = { "-", "", "", "", "ok", "every run finished" };
		pt.cells = none;
		pt.n_rows = 1;
	}
	plot_table_draw(cr, (struct plot_rect){ 0, y, w, h - y }, &pt);
out:
	tbuf_free(&mt);
	tbuf_free(&tt);
	tbuf_free(&ft);
	return rc;
}

int view_profile_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct plot_bar *bars;
	char (*text)[96];
	struct plot_hbars hb;
	char title[256], t[32], axis[400];
	double total = 0;
	size_t i, n = m->n_funcs < 20 ? m->n_funcs : 20;
	int rc, own = 0;

	/* an N=1 run stands in for the sequential program only when none was traced: the title
	 * says so instead of passing it for the sequential program */
	view_title(title, sizeof(title), v, m->seq_is_n1 ?
		   "Profile of the N=1 run (no traced sequential run; join waits left out)" :
		   "Execution profile of the sequential program");
	if (n == 0) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, w / 2, 20, PLOT_CENTER, title);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no function profile in this experiment");
		if (m->seq_why)
			plot_text(cr, w / 2, h / 2 + 22, PLOT_CENTER, m->seq_why);
		return 0;
	}
	bars = calloc(n, sizeof(*bars));
	text = calloc(n, sizeof(*text));
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
	for (i = 0; i < n; i++) {
		const struct model_func *f = &m->funcs[i];
		plot_format_seconds(t, sizeof(t), f->excl_s);
		bars[i].label = f->name;
		bars[i].value = !own ? f->excl_share : total > 0 ? f->excl_s / total : NAN;
		snprintf(text[i], sizeof(text[i]), "%.2f %%  %s  %ld call%s", 100 * bars[i].value,
			 t, f->calls, f->calls == 1 ? "" : "s");
		bars[i].text = text[i];
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
