/*
 * view_teach.c — window 11, the teaching model drawn: speedup, efficiency and L(W,N) vs N for
 * the four scaling models of teach.h, the measured curve of the matching method of the open
 * experiment beside them (dashed), and the t/E/m matrix the model predicts.
 */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEACH_MAX_NS 16

/* The experiment's method that follows a teaching model, by the names `scalegraph run` uses. */
static const char *const measured_name[] = { "fixed", "memory-bound", "time-bound", "e-conserved" };

enum tq { TQ_SPEEDUP, TQ_EFF, TQ_LAT };

static double teach_value(const struct teach_params *tp, enum teach_model md, int n, enum tq q)
{
	double w;

	if (teach_size(tp, md, n, &w) < 0)
		return NAN;
	switch (q) {
	case TQ_SPEEDUP: return teach_speedup(tp, w, n);
	case TQ_EFF: return teach_efficiency(tp, w, n);
	case TQ_LAT: return teach_latency(tp, w, n);
	}
	return NAN;
}

/* The chart of quantity q: the four models' curves and the measured one, into pool p (the
 * caller frees it). The legend is shared (drawn once in the panel), so the chart keeps its
 * whole width for the plot. */
static int teach_chart_make(struct plot_chart *c, struct view_pool *p, const struct view_ctx *v,
			    enum tq q, int narrow)
{
	static const char *const titles[] = { "Speedup (model)", "Efficiency (model)", "Latency L(W,N) (model)" };
	static const char *const short_titles[] = { "Speedup", "Efficiency", "Latency L(W,N)" };
	static const enum model_metric measured_metric[] = { MODEL_S, MODEL_E, MODEL_L };
	const struct teach_params *tp = v->tp;
	int ns[TEACH_MAX_NS], md, rc;
	size_t n = teach_ns(tp, ns, TEACH_MAX_NS), k;
	const struct model_method *me = NULL;

	if (v->m) {
		int i = model_method_find(v->m, measured_name[tp->model]);
		me = i >= 0 ? &v->m->methods[i] : NULL;
	}
	if ((rc = view_pool_init(p, 5, 4 * n + (me ? me->n_pts : 0))) < 0)
		return rc;
	for (md = 0; md < 4; md++) {
		struct plot_series *s = view_pool_series(p, teach_model_name((enum teach_model)md), n);
		for (k = 0; s && k < n; k++) {
			((double *)s->x)[k] = ns[k];
			((double *)s->y)[k] = teach_value(tp, (enum teach_model)md, ns[k], q);
		}
	}
	if (me) {
		char label[96];
		struct plot_series *s;
		snprintf(label, sizeof(label), "measured: %s", me->name);
		if ((s = view_pool_series(p, label, me->n_pts))) {
			view_series_style(s, (size_t)tp->model);
			s->dashed = 1;
			s->marker = PLOT_MARK_CROSS;
			for (k = 0; k < me->n_pts; k++) {
				const struct model_fig *f = &me->pts[k].fig[measured_metric[q]];
				((double *)s->x)[k] = me->pts[k].n;
				((double *)s->y)[k] = f->why ? NAN : f->v;
			}
		}
	}
	memset(c, 0, sizeof(*c));
	c->title = narrow ? short_titles[q] : titles[q];
	c->x = (struct plot_axis){ "threads N", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	if (q == TQ_SPEEDUP)
		c->y = (struct plot_axis){ "speedup S", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	else if (q == TQ_EFF)
		c->y = (struct plot_axis){ "efficiency E", PLOT_LINEAR, PLOT_UNIT_PERCENT, NAN, NAN, 1 };
	else
		c->y = (struct plot_axis){ "L(W,N)", PLOT_LOG10, PLOT_UNIT_SECONDS, NAN, NAN, 0 };
	c->ideal = q == TQ_SPEEDUP ? PLOT_IDEAL_SPEEDUP : q == TQ_EFF ? PLOT_IDEAL_EFFICIENCY : PLOT_IDEAL_NONE;
	c->series = p->s;
	c->n_series = p->n_s;
	c->mark_x = c->mark_y = NAN;
	c->legend_off = 1;
	return 0;
}

static struct plot_rect rect(struct teach_rect r)
{
	return (struct plot_rect){ r.x, r.y, r.w, r.h };
}

static int teach_chart(cairo_t *cr, struct teach_rect r, const struct view_ctx *v, enum tq q,
		       int narrow)
{
	struct view_pool p;
	struct plot_chart c;
	int rc;

	if ((rc = teach_chart_make(&c, &p, v, q, narrow)) < 0)
		return rc;
	rc = plot_chart_draw(cr, rect(r), &c);
	view_pool_free(&p);
	return rc;
}

static int teach_matrix_draw(cairo_t *cr, struct teach_rect r, const struct teach_params *tp)
{
	static const enum teach_model order[3] = { TEACH_TIME, TEACH_EFF, TEACH_MEMORY };
	struct plot_mcell cells[TEACH_MAX_NS * TEACH_MAX_NS];
	struct plot_matrix pm;
	int all[TEACH_MAX_NS], *ns = all + 1;
	size_t n = teach_ns(tp, all, TEACH_MAX_NS), i, j;
	int k;

	if (n < 3)
		return 0;
	n--; /* from N = 2: L(W,1) = 0 makes every ratio from N = 1 zero */
	memset(cells, 0, sizeof(cells));   /* no caveat, no missed search: the model is exact */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			struct plot_mcell *c = &cells[i * n + j];
			for (k = 0; k < 3; k++)
				if (teach_scale(tp, order[k], ns[i], ns[j], &c->v[k]) < 0)
					c->v[k] = NAN;
			c->caveat = teach_caveat(tp, ns[i], ns[j]);
		}
	memset(&pm, 0, sizeof(pm));
	pm.title = "Scalability matrix (model)";
	pm.ns = ns;
	pm.n_ns = n;
	pm.cells = cells;
	pm.value_names[0] = "time-bound";
	pm.value_names[1] = "E-conserved";
	pm.value_names[2] = "memory-bound";
	pm.note = "* time-bound suspect (E, E' both low: near 1 whatever L does);  n/a: size unreachable";
	pm.sel_i = pm.sel_j = -1;
	return plot_matrix_draw(cr, rect(r), &pm);
}

/* The legend of the three charts (the speedup chart's series and its ideal line) into r;
 * returns its height. */
static int teach_legend(cairo_t *cr, struct teach_rect r, const struct view_ctx *v, int narrow,
			double *height)
{
	struct view_pool p;
	struct plot_chart c;
	int rc;

	if ((rc = teach_chart_make(&c, &p, v, TQ_SPEEDUP, narrow)) < 0)
		return rc;
	*height = plot_legend_height(cr, r.w, &c);
	plot_legend_draw(cr, (struct plot_rect){ r.x, r.y, r.w, *height }, &c);
	view_pool_free(&p);
	return 0;
}

/* The panel: the formula with every term the sliders set; in the wide layout also the
 * charts' legend and the sizes the scaling models pick. */
static int teach_panel(cairo_t *cr, struct teach_rect r, const struct view_ctx *v, int narrow)
{
	const struct teach_params *tp = v->tp;
	char formula[512], line[160];
	double y = r.y + 20, lh;
	int rc;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	teach_formula(tp, formula, sizeof(formula));
	if (narrow) {
		/* the general form and the values side by side, g(N) under them */
		char *nl = strchr(formula, '\n'), *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
		if (nl && nl2) {
			*nl = *nl2 = '\0';
			plot_text(cr, r.x + 10, r.y + 18, PLOT_LEFT, formula);
			plot_set_font(cr, PLOT_FONT_SMALL);
			plot_text_wrapped(cr, r.x + 10, r.y + 36, r.w - 20, 15, nl + 1);
			/* the sizes the models pick, after g(N): the other sliders' values */
			snprintf(line, sizeof(line), "%s;  E = %.2f, T = %.3g s, m = %.3g", nl2 + 1,
				 tp->e_target, tp->t_bound_s, tp->mem_per_thread);
			plot_text(cr, r.x + 10, r.y + 54, PLOT_LEFT, line);
		}
		return 0;
	}
	plot_set_font(cr, PLOT_FONT_TITLE);
	plot_text(cr, r.x + 10, y, PLOT_LEFT, "The model");
	plot_set_font(cr, PLOT_FONT_LABEL);
	y = plot_text_wrapped(cr, r.x + 10, y + 22, r.w - 20, 17, formula);
	y = plot_text_wrapped(cr, r.x + 10, y, r.w - 20, 17,
			      "L(W,N) = T_para \xe2\x88\x92 T_seq/N = T_para (1 \xe2\x88\x92 E)");
	if ((rc = teach_legend(cr, (struct teach_rect){ r.x, y - 8, r.w, 0 }, v, narrow, &lh)) < 0)
		return rc;
	y += lh + 6;
	plot_set_font(cr, PLOT_FONT_SMALL);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
#define LINE(...) do { if (y > r.y + r.h - 4) break; snprintf(line, sizeof(line), __VA_ARGS__); \
		       y = plot_text_wrapped(cr, r.x + 10, y, r.w - 20, 15, line); } while (0)
	LINE("sizes: E-conserved E = %.2f, time-bound T = %.3g s, memory-bound W = N\xc2\xb7%.3g",
	     tp->e_target, tp->t_bound_s, tp->mem_per_thread);
	LINE("measured curve: method \"%s\"", measured_name[tp->model]);
#undef LINE
	return 0;
}

int view_teach_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	struct teach_layout l;
	double lh;
	int rc, k;

	if (!v->tp)
		return -EINVAL;
	teach_layout(w, h, &l);
	for (k = 0; k < 3; k++)
		if ((rc = teach_chart(cr, l.chart[k], v, (enum tq)k, l.narrow)) < 0)
			return rc;
	if (l.legend.h > 0 && (rc = teach_legend(cr, l.legend, v, l.narrow, &lh)) < 0)
		return rc;
	if ((rc = teach_panel(cr, l.panel, v, l.narrow)) < 0)
		return rc;
	return teach_matrix_draw(cr, l.matrix, v->tp);
}
