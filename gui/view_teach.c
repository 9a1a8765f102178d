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

static int teach_chart(cairo_t *cr, struct plot_rect r, const struct view_ctx *v, enum tq q)
{
	static const char *const titles[] = { "Speedup (model)", "Efficiency (model)", "Latency L(W,N) (model)" };
	static const enum model_metric measured_metric[] = { MODEL_S, MODEL_E, MODEL_L };
	const struct teach_params *tp = v->tp;
	struct view_pool p;
	struct plot_chart c;
	int ns[TEACH_MAX_NS], md, rc;
	size_t n = teach_ns(tp, ns, TEACH_MAX_NS), k;
	const struct model_method *me = NULL;

	if (v->m) {
		int i = model_method_find(v->m, measured_name[tp->model]);
		me = i >= 0 ? &v->m->methods[i] : NULL;
	}
	if ((rc = view_pool_init(&p, 5, 4 * n + (me ? me->n_pts : 0))) < 0)
		return rc;
	for (md = 0; md < 4; md++) {
		struct plot_series *s = view_pool_series(&p, teach_model_name((enum teach_model)md), n);
		for (k = 0; s && k < n; k++) {
			((double *)s->x)[k] = ns[k];
			((double *)s->y)[k] = teach_value(tp, (enum teach_model)md, ns[k], q);
		}
	}
	if (me) {
		char label[96];
		struct plot_series *s;
		snprintf(label, sizeof(label), "measured: %s", me->name);
		if ((s = view_pool_series(&p, label, me->n_pts))) {
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
	memset(&c, 0, sizeof(c));
	c.title = titles[q];
	c.x = (struct plot_axis){ "threads N", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	if (q == TQ_SPEEDUP)
		c.y = (struct plot_axis){ "speedup S", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
	else if (q == TQ_EFF)
		c.y = (struct plot_axis){ "efficiency E", PLOT_LINEAR, PLOT_UNIT_PERCENT, NAN, NAN, 1 };
	else
		c.y = (struct plot_axis){ "L(W,N)", PLOT_LOG10, PLOT_UNIT_SECONDS, NAN, NAN, 0 };
	c.ideal = q == TQ_SPEEDUP ? PLOT_IDEAL_SPEEDUP : q == TQ_EFF ? PLOT_IDEAL_EFFICIENCY : PLOT_IDEAL_NONE;
	c.series = p.s;
	c.n_series = p.n_s;
	c.mark_x = c.mark_y = NAN;
	rc = plot_chart_draw(cr, r, &c);
	view_pool_free(&p);
	return rc;
}

static int teach_matrix_draw(cairo_t *cr, struct plot_rect r, const struct teach_params *tp)
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
	pm.note = "* time-bound suspect (E, E' low and close);  n/a: size unreachable";
	pm.sel_i = pm.sel_j = -1;
	return plot_matrix_draw(cr, r, &pm);
}

static void teach_legend(cairo_t *cr, struct plot_rect r, const struct teach_params *tp)
{
	char line[160];
	double y = r.y + 50;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_TITLE);
	plot_text(cr, r.x + 10, r.y + 20, PLOT_LEFT, "The model");
	plot_set_font(cr, PLOT_FONT_LABEL);
	plot_text(cr, r.x + 10, y, PLOT_LEFT, "T_para(W,N) = t_serial + W t_work / N + c g(N)");
	y += 20;
	plot_text(cr, r.x + 10, y, PLOT_LEFT, "L(W,N) = T_para - T_seq / N = T_para (1 - E)");
	y += 30;
	plot_set_font(cr, PLOT_FONT_SMALL);
#define LINE(...) do { snprintf(line, sizeof(line), __VA_ARGS__); plot_text(cr, r.x + 10, y, PLOT_LEFT, line); y += 17; } while (0)
	LINE("serial time t_serial = %.3g s", tp->t_serial_s);
	LINE("parallel work t_work = %.3g s (W = 1)", tp->t_work_s);
	LINE("overhead c g(N): c = %.3g s, g = %s", tp->c_s, teach_growth_name(tp->growth));
	LINE("target E = %.2f,  time bound T = %.3g s", tp->e_target, tp->t_bound_s);
	LINE("memory per thread m = %.3g (memory-bound W = N m)", tp->mem_per_thread);
	LINE("measured curve: method \"%s\"", measured_name[tp->model]);
#undef LINE
}

int view_teach_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	int rc;

	if (!v->tp)
		return -EINVAL;
	if ((rc = teach_chart(cr, (struct plot_rect){ 0, 0, w / 3, h * 0.48 }, v, TQ_SPEEDUP)) < 0 ||
	    (rc = teach_chart(cr, (struct plot_rect){ w / 3, 0, w / 3, h * 0.48 }, v, TQ_EFF)) < 0 ||
	    (rc = teach_chart(cr, (struct plot_rect){ 2 * w / 3, 0, w / 3, h * 0.48 }, v, TQ_LAT)) < 0)
		return rc;
	if ((rc = teach_matrix_draw(cr, (struct plot_rect){ 0, h * 0.5, w * 0.66, h * 0.5 }, v->tp)) < 0)
		return rc;
	teach_legend(cr, (struct plot_rect){ w * 0.66, h * 0.5, w * 0.34, h * 0.5 }, v->tp);
	return 0;
}
