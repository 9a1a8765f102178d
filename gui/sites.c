/*
 * sites.c — the call-sites pane's content (sites.h): asks the analyzer for the sites of the
 * selected source at the focus and lays them out as rows, a heading per point or run, a row per
 * site (share of the source, time, file:line in function) and under it a row per thread.
 */
#include "sites.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer.h"
#include "plot.h"
#include "timeline.h"

static const struct {
	enum model_metric k;
	enum an_metric m;
} src_map[] = {
	{ MODEL_IT_BARRIER, AN_IT_BARRIER }, { MODEL_PT_BARRIER, AN_PT_BARRIER },
	{ MODEL_IT_LOCK, AN_IT_LOCK },       { MODEL_PT_LOCK, AN_PT_LOCK },
	{ MODEL_IT_COND, AN_IT_COND },       { MODEL_IT_SEM, AN_IT_SEM },
	{ MODEL_PT_SEM, AN_PT_SEM },         { MODEL_IT_JOIN, AN_IT_JOIN },
	{ MODEL_PT_THREAD, AN_PT_THREAD },
};
#define N_SRC (sizeof(src_map) / sizeof(src_map[0]))

static const char *const model_names[] = { "time-bound", "e-conserved", "memory-bound" };

static int an_of(enum model_metric k)
{
	size_t i;

	for (i = 0; i < N_SRC; i++)
		if (src_map[i].k == k)
			return (int)src_map[i].m;
	return -1;
}

int sites_source_ok(enum model_metric k)
{
	return an_of(k) >= 0;
}

int sites_source_find(const char *name)
{
	size_t i, len = strcspn(name, " ");   /* a chart's series: "IT_lock lock waiting" */

	for (i = 0; i < N_SRC; i++)
		if (strlen(model_metric_name(src_map[i].k)) == len &&
		    strncmp(model_metric_name(src_map[i].k), name, len) == 0)
			return (int)src_map[i].k;
	return -1;
}

void sites_view_init(struct sites_view *v)
{
	memset(v, 0, sizeof(*v));
	v->source = MODEL_IT_BARRIER;
	v->run_id = 0;
}

void sites_view_forget(struct sites_view *v)
{
	an_exp_free(v->exp);
	v->exp = NULL;
	v->exp_dir[0] = '\0';
}

static void rows_reset(struct sites_view *v)
{
	v->n_rows = 0;
	v->n_sites = 0;
	v->title[0] = v->note[0] = v->status[0] = '\0';
}

void sites_view_clear(struct sites_view *v)
{
	sites_view_forget(v);
	free(v->rows);
	sites_view_init(v);
}

static void row_add(struct sites_view *v, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void row_add(struct sites_view *v, int kind, const char *fmt, ...)
{
	va_list ap;

	if (v->n_rows == v->cap_rows) {
		size_t cap = v->cap_rows ? 2 * v->cap_rows : 32;
		struct sites_row *r = realloc(v->rows, cap * sizeof(*r));
		if (!r)
			return;   /* the list is shorter; the note still says what it is */
		v->rows = r;
		v->cap_rows = cap;
	}
	v->rows[v->n_rows].kind = kind;
	va_start(ap, fmt);
	vsnprintf(v->rows[v->n_rows].text, sizeof(v->rows[v->n_rows].text), fmt, ap);
	va_end(ap);
	v->n_rows++;
	v->n_sites += kind == 1;
}

/* The sites of one point or run under a heading; the first site goes into the status. */
static void rows_of(struct sites_view *v, const char *head, const struct an_sites *s)
{
	char t[32], lab[256], runs[96] = "";
	size_t i, j;

	plot_format_seconds(t, sizeof(t), s->total);
	if (s->n_runs == 1 && v->focus != SITES_RUN)
		snprintf(runs, sizeof(runs), ", run %lld (the median repetition)",
			 (long long)s->run_ids[0]);
	else if (s->n_runs == 2)
		snprintf(runs, sizeof(runs), ", runs %lld and %lld (the mean of the middle two)",
			 (long long)s->run_ids[0], (long long)s->run_ids[1]);
	row_add(v, 0, "%s: %s %s%s%s", head, model_metric_name(v->source), t,
		s->window ? " in the selected interval" : "", runs);
	if (!s->recorded && s->total > 0) {
		/* the analyzer's one sentence for why there is no table (the report's too) */
		const char *why = an_sites_state_text(s->state);
		row_add(v, 0, "  %s", why);
		if (!v->status[0])
			snprintf(v->status, sizeof(v->status), "sites: %s at %s: %s",
				 model_metric_name(v->source), head, why);
		return;
	}
	if (!s->n) {
		row_add(v, 0, "  no time at this source");
		return;
	}
	row_add(v, 0, "   share       time  call site / thread");
	for (i = 0; i < s->n; i++) {
		const struct an_site *x = &s->v[i];
		plot_format_seconds(t, sizeof(t), x->s);
		an_site_label(x, lab, sizeof(lab));
		row_add(v, 1, "  %5.1f %%  %9s  %s", 100 * x->share, t, lab);
		if (!v->status[0] || v->n_sites == 1)
			snprintf(v->status, sizeof(v->status), "sites: %s at %s: top %s (%.1f %%)",
				 model_metric_name(v->source), head, lab, 100 * x->share);
		for (j = 0; j < x->n_threads; j++) {
			plot_format_seconds(t, sizeof(t), x->threads[j].s);
			row_add(v, 2, "           %9s    thread %u (%.0f %% of the site)", t,
				x->threads[j].index, x->s > 0 ? 100 * x->threads[j].s / x->s : 0);
		}
	}
}

/* The experiment of directory dir, opened once (the figures cached by report or run). */
static int exp_get(struct sites_view *v, const char *dir)
{
	char err[1000];
	int rc;

	if (v->exp && strcmp(v->exp_dir, dir) == 0)
		return 0;
	sites_view_forget(v);
	if ((rc = an_exp_open(dir, AN_EXP_NO_STORE_WRITE, &v->exp, err, sizeof(err))) < 0) {
		snprintf(v->note, sizeof(v->note), "%s", err);
		v->exp = NULL;
		return rc;
	}
	snprintf(v->exp_dir, sizeof(v->exp_dir), "%s", dir);
	return 0;
}

/* The analyzer's point for the model's method name (a scaling method or a model) at N; N 0:
 * its largest N with a repetition. */
static const struct an_point *point_find(const struct an_exp *e, const char *name, int n)
{
	const struct an_point *best = NULL;
	int is_model = 0;
	size_t i;

	for (i = 0; i < 3; i++)
		is_model |= strcmp(name, model_names[i]) == 0;
	for (i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (is_model ? strcmp(o->model, name) != 0
			     : strcmp(o->model, "method") != 0 || strcmp(o->method, name) != 0)
			continue;
		if (n ? o->n_threads != n : o->n_reps == 0)
			continue;
		if (!best || (!n && o->n_threads > best->n_threads))
			best = o;
	}
	return best;
}

/* The directory and the method name inside it of the model's method `name`. */
static const char *method_dir(const struct model *m, char *const *dirs, size_t n_dirs,
			      const char *name, const char **inner)
{
	int k = model_method_find(m, name);
	const char *colon;

	*inner = name;
	if (k < 0 || m->methods[k].exp <= 0)
		return n_dirs ? dirs[0] : NULL;
	if ((size_t)m->methods[k].exp >= n_dirs)
		return NULL;
	if ((colon = strchr(name, ':')))
		*inner = colon + 1;
	return dirs[m->methods[k].exp];
}

/* The rows of point (name, n) of the experiment in dir; `shown` is the name the model gives the
 * method ("a.exp:fixed" when compared). */
static int point_rows(struct sites_view *v, const char *dir, const char *name, const char *shown,
		      int n)
{
	const struct an_point *o;
	struct an_sites s;
	char head[160];
	int rc;

	if ((rc = exp_get(v, dir)) < 0)
		return rc;
	if (!(o = point_find(v->exp, name, n))) {
		if (n)
			snprintf(v->note, sizeof(v->note), "%s has no point of %s at N=%d", dir, name,
				 n);
		else
			snprintf(v->note, sizeof(v->note), "%s has no point of %s with a repetition",
				 dir, name);
		return -ENOENT;
	}
	snprintf(head, sizeof(head), "%s N=%d", shown, o->n_threads);
	if (v->focus == SITES_POINT && !n)   /* the largest N, found: name it */
		snprintf(v->title, sizeof(v->title), "%s (%s) at %s N=%d (its largest)",
			 model_metric_name(v->source), model_metric_title(v->source), shown,
			 o->n_threads);
	if ((rc = an_exp_point_sites(v->exp, o, (enum an_metric)an_of(v->source), &s)) < 0) {
		snprintf(v->note, sizeof(v->note), "%s: no repetition with a readable trace", head);
		return rc;
	}
	rows_of(v, head, &s);
	an_sites_free(&s);
	return 0;
}

static int dir_is_store(const char *dir)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/experiment.db", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	fclose(f);
	return 1;
}

int sites_view_refresh(struct sites_view *v, const struct model *m, char *const *dirs,
		       size_t n_dirs, struct an_run *run, int64_t run_t0_ns)
{
	const char *dir = n_dirs ? dirs[0] : NULL, *inner;
	int rc = 0, any = 0;
	size_t k;

	rows_reset(v);
	if (!sites_source_ok(v->source)) {
		snprintf(v->note, sizeof(v->note), "%s is not made at a call site: choose a "
			 "synchronization source (IT_barrier ... PT_thread)",
			 model_metric_name(v->source));
		snprintf(v->status, sizeof(v->status), "sites: %s", v->note);
		return -EINVAL;
	}
	switch (v->focus) {
	case SITES_NONE:
		snprintf(v->title, sizeof(v->title), "%s (%s)", model_metric_name(v->source),
			 model_metric_title(v->source));
		snprintf(v->note, sizeof(v->note), "choose a point: click the latency sources "
			 "window, a matrix cell or an interval of the run timeline");
		snprintf(v->status, sizeof(v->status), "sites: %s: nothing selected",
			 model_metric_name(v->source));
		return 0;
	case SITES_POINT:
		dir = method_dir(m, dirs, n_dirs, v->method, &inner);
		if (v->n)
			snprintf(v->title, sizeof(v->title), "%s (%s) at %s N=%d",
				 model_metric_name(v->source), model_metric_title(v->source),
				 v->method, v->n);
		else
			snprintf(v->title, sizeof(v->title), "%s (%s) at %s, its largest N",
				 model_metric_name(v->source), model_metric_title(v->source),
				 v->method);
		if (!dir || !dir_is_store(dir)) {
			snprintf(v->note, sizeof(v->note), "%s: call sites need an experiment store "
				 "(experiment.db); this is a CSV experiment", dir ? dir : "?");
			rc = -ENOENT;
			break;
		}
		rc = point_rows(v, dir, inner, v->method, v->n);
		if (rc == 0)
			snprintf(v->note, sizeof(v->note), "each site's share of the point's %s; the "
				 "sites of the repetition whose figure is the median (docs/analyzer.md)",
				 model_metric_name(v->source));
		break;
	case SITES_CELL:
		snprintf(v->title, sizeof(v->title), "%s (%s) at matrix cell %d -> %d",
			 model_metric_name(v->source), model_metric_title(v->source), v->n, v->n2);
		if (!dir || !dir_is_store(dir)) {
			snprintf(v->note, sizeof(v->note), "%s: call sites need an experiment store "
				 "(experiment.db); this is a CSV experiment", dir ? dir : "?");
			rc = -ENOENT;
			break;
		}
		for (k = 0; k < 3; k++) {
			if (!model_point_at(m, model_names[k], v->n) ||
			    !model_point_at(m, model_names[k], v->n2))
				continue;
			if (point_rows(v, dir, model_names[k], model_names[k], v->n) == 0 &&
			    point_rows(v, dir, model_names[k], model_names[k], v->n2) == 0)
				any = 1;
		}
		if (!any) {
			if (!v->note[0])
				snprintf(v->note, sizeof(v->note), "no scaling model has points at both "
					 "N=%d and N=%d", v->n, v->n2);
			rc = -ENOENT;
		} else {
			snprintf(v->note, sizeof(v->note), "the points the cell's values come from, "
				 "each model at N and N'");
		}
		break;
	case SITES_RUN: {
		struct an_sites s;
		char head[96];
		int64_t from = INT64_MIN, to = INT64_MAX;
		if (v->run_id > 0)
			snprintf(head, sizeof(head), "run %lld", v->run_id);
		else
			snprintf(head, sizeof(head), "the timeline's trace");
		snprintf(v->title, sizeof(v->title), "%s (%s) in %s", model_metric_name(v->source),
			 model_metric_title(v->source), head);
		if (!run) {
			snprintf(v->note, sizeof(v->note), "no run open in the timeline");
			rc = -ENOENT;
			break;
		}
		if (v->window) {
			from = run_t0_ns + (int64_t)llround(v->w0 * 1e9);
			to = run_t0_ns + (int64_t)llround(v->w1 * 1e9);
		}
		if ((rc = an_run_sites_window(run, (enum an_metric)an_of(v->source), from, to,
					      &s)) < 0) {
			snprintf(v->note, sizeof(v->note), "%s: %s", head, strerror(-rc));
			break;
		}
		if (s.window) {
			char a[32], b[32];
			plot_format_seconds(a, sizeof(a), v->w0);
			plot_format_seconds(b, sizeof(b), v->w1);
			snprintf(head + strlen(head), sizeof(head) - strlen(head), " %s..%s", a, b);
			snprintf(v->note, sizeof(v->note), "the time of every processor inside the "
				 "selected interval (no release part of PT_lock: releases are counted, "
				 "not timed)");
		} else {
			snprintf(v->note, sizeof(v->note), "each site's share of the run's %s",
				 model_metric_name(v->source));
		}
		rows_of(v, head, &s);
		an_sites_free(&s);
		break;
	}
	}
	if (rc < 0)
		snprintf(v->status, sizeof(v->status), "sites: %s: %s", v->title, v->note);
	else if (!v->status[0])
		snprintf(v->status, sizeof(v->status), "sites: %s: no call site with time there",
			 v->title);
	return rc;
}

int sites_view_write(const struct sites_view *v, FILE *f)
{
	size_t i;

	fprintf(f, "%s\n", v->title);
	for (i = 0; i < v->n_rows; i++)
		fprintf(f, "%s\n", v->rows[i].text);
	if (v->note[0])
		fprintf(f, "note: %s\n", v->note);
	return ferror(f) ? -EIO : 0;
}
