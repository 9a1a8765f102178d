/*
 * view_curves.c — the curve windows: execution time/speedup/efficiency vs N (window 4, Fig. 9),
 * average latency vs N (5, Fig. 10), latency sources vs N (6, Figs. 11 and 13), parallelism vs
 * problem size (7, Fig. 12) and the sequential patterns vs problem size (3, Figs. 6-8).
 * Unavailable figures are gaps; a source unavailable at every N is listed with its reason.
 */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static size_t total_points(const struct model *m)
{
	size_t i, n = m->n_patterns + 1;

	for (i = 0; i < m->n_methods; i++)
		n += m->methods[i].n_pts;
	return n;
}

static double fig_value(const struct model_fig *f)
{
	return f->why ? NAN : f->v;
}

/* The report's flags of point pt (of method me) on point k of series s: the readout (value on
 * hover) says when the tracing cost is above the report's mark and when N is above the CPUs
 * (`oversub yes`), with the report's figures; with `tag` the mark "!" is drawn beside the
 * marker too (the charts of L, which the report marks with it). */
/* Does the experiment say anything of point pt's measured overhead (a store's adapter sets the
 * report's line, a CSV with the columns a plain time or the reason), and has it a value? A
 * point built without it (a test's, an older model) says nothing. */
static int ovh_said(const struct model_point *pt)
{
	return pt->ovh_measured.why || pt->ovh_text || (!pt->t_plain.why && pt->t_plain.v > 0);
}

static int ovh_has(const struct model_point *pt)
{
	return ovh_said(pt) && !pt->ovh_measured.why;
}

static void point_flags(struct view_pool *p, struct plot_series *s, size_t k, const struct model *m,
			const struct model_method *me, const struct model_point *pt, int tag)
{
	char note[600] = "";
	int n = 0;
	const char *mark;

	if (pt->cost_marked && m->cost_mark > 0)
		n = snprintf(note, sizeof(note), "! tracing cost %.1f %% of N\xc2\xb7T_para, above %.0f %%",
			     100 * pt->trace_share.v, 100 * m->cost_mark);
	if (pt->oversubscribed && n >= 0 && (size_t)n < sizeof(note)) {
		if (me->exp == 0 && m->n_cpus > 0)
			n += snprintf(note + n, sizeof(note) - (size_t)n, "%soversubscribed: N = %d > %d CPUs",
				      n ? "; " : "", pt->n, m->n_cpus);
		else
			n += snprintf(note + n, sizeof(note) - (size_t)n, "%soversubscribed: N above the CPUs",
				      n ? "; " : "");
	}
	/* the distortion measured against the plain build, or why it is not (issue 21) */
	if (ovh_said(pt) && n >= 0 && (size_t)n < sizeof(note)) {
		if (ovh_has(pt))
			snprintf(note + n, sizeof(note) - (size_t)n, "%s%smeasured overhead %+.1f %%%s",
				 n ? "; " : "", pt->ovh_marked ? "\xe2\x89\xa0 " : "",
				 100 * pt->ovh_measured.v, "");
		else if (pt->ovh_measured.why && strcmp(pt->ovh_measured.why,
						     "not measured (no plain build in the spec)"))
			/* a plain build whose runs gave nothing here; without any plain build
			 * the chart's note says so once, not every readout */
			snprintf(note + n, sizeof(note) - (size_t)n, "%smeasured overhead: %s",
				 n ? "; " : "", pt->ovh_measured.why);
		if (!pt->ovh_measured.why && !pt->ovh_estimated.why) {
			size_t u = strlen(note);
			snprintf(note + u, sizeof(note) - u, " (estimated %+.1f %%)",
				 100 * pt->ovh_estimated.v);
		}
	}
	mark = tag && pt->cost_marked && m->cost_mark > 0 ? (pt->ovh_marked ? "! \xe2\x89\xa0" : "!")
	       : pt->ovh_marked ? "\xe2\x89\xa0" : NULL;
	view_pool_point_text(p, s, k, mark, note[0] ? note : NULL);
}

/* The measured overhead of the points (method `only`, else the shown ones) as note lines:
 * "measured overhead (traced / plain - 1, wall): fixed N=1 +6.7 %, N=2 +40.9 %", the report's
 * ≠ legend naming the points where the estimate does not hold, or "not measured (no plain build
 * in the spec)" (issue 21). */
static void ovh_note(char *buf, size_t len, const struct model *m, int only)
{
	char item[800], ml[160], why[400] = "";
	size_t i, j;
	int n = 0, nw = 0, any = 0;
	const char *none = NULL;

	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		int first = 1;
		if (only >= 0 ? (int)i != only : !me->shown)
			continue;
		model_method_label(m, i, ml, sizeof(ml));
		for (j = 0; j < me->n_pts; j++) {
			const struct model_point *pt = &me->pts[j];
			if (!ovh_said(pt))
				continue;
			any = 1;
			if (!ovh_has(pt)) {
				none = none ? none : pt->ovh_measured.why;
				continue;
			}
			if (n == 0)
				n = snprintf(item, sizeof(item), "measured overhead (traced / plain - 1, wall):");
			if (n > 0 && (size_t)n < sizeof(item))
				n += snprintf(item + n, sizeof(item) - (size_t)n, "%s%s N=%d %+.1f %%",
					      first ? (n > 45 ? "; " : " ") : ",", first ? ml : "", pt->n,
					      100 * pt->ovh_measured.v);
			first = 0;
			if (pt->ovh_marked && nw >= 0 && (size_t)nw < sizeof(why))
				nw += snprintf(why + nw, sizeof(why) - (size_t)nw, "%s %s N=%d (%+.1f %% vs %+.1f %%)",
					       nw ? "," : "\xe2\x89\xa0 measured and estimated differ by more than 5 points at",
					       ml, pt->n, 100 * pt->ovh_measured.v, 100 * pt->ovh_estimated.v);
		}
	}
	if (!any)
		return;
	if (n > 0)
		plot_note_add(buf, len, "", "\n", item);
	else if (none)
		plot_note_add(buf, len, "", "\n", !strcmp(none, "not measured (no plain build in the spec)")
			      ? "measured overhead: not measured (no plain build in the spec)" : none);
	if (nw > 0) {
		plot_note_add(buf, len, "", "\n", why);
		plot_note_add(buf, len, "", "\n", "  the estimate from record counts does not hold there");
	}
}

/* One series per shown method: y = metric k at each point, x = N; the report's flags in each
 * point's readout, the "!" beside the markers with `tag`. */
static int method_series(struct view_pool *p, const struct model *m, enum model_metric k, int tag)
{
	size_t i, j;
	char label[256];

	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		struct plot_series *s;
		if (!me->shown)
			continue;
		model_method_label(m, i, label, sizeof(label));
		if (!(s = view_pool_series(p, label, me->n_pts)))
			return -ENOMEM;
		view_method_style(m, s, i);
		for (j = 0; j < me->n_pts; j++) {
			((double *)s->x)[j] = me->pts[j].n;
			((double *)s->y)[j] = fig_value(&me->pts[j].fig[k]);
			point_flags(p, s, j, m, me, &me->pts[j], tag);
		}
	}
	return 0;
}

/* The band over the N above the machine's CPUs on a chart vs N, when a point drawn there is
 * oversubscribed (the report's `oversub yes`; method `only`, else the shown ones, of the
 * experiment opened: a compared one may have another CPU count, its points say it on hover). */
static void oversub_band(struct plot_chart *c, const struct model *m, int only, char *label,
			 size_t len)
{
	size_t i, j;

	if (m->n_cpus <= 0)
		return;
	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		if (me->exp != 0 || (only >= 0 ? (int)i != only : !me->shown))
			continue;
		for (j = 0; j < me->n_pts; j++)
			if (me->pts[j].oversubscribed && me->pts[j].n > m->n_cpus) {
				snprintf(label, len, "oversubscribed: N > %d CPUs", m->n_cpus);
				c->band_x = m->n_cpus;
				c->band_label = label;
				return;
			}
	}
}

/* The report's legend of its "!" as a note line, naming the points it marks and their share:
 * "! tracing cost above 5 % of N·T_para at fixed N=2 (10.0 %): ...". Method `only`, else the
 * shown ones. */
static void cost_note(char *buf, size_t len, const struct model *m, int only)
{
	char item[600], ml[160];
	size_t i, j;
	int n = 0;

	if (m->cost_mark <= 0)
		return;
	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		if (only >= 0 ? (int)i != only : !me->shown)
			continue;
		for (j = 0; j < me->n_pts; j++) {
			if (!me->pts[j].cost_marked)
				continue;
			model_method_label(m, i, ml, sizeof(ml));
			if (n == 0)
				n = snprintf(item, sizeof(item), "! tracing cost above %.0f %% of N\xc2\xb7T_para at",
					     100 * m->cost_mark);
			if (n > 0 && (size_t)n < sizeof(item))
				n += snprintf(item + n, sizeof(item) - (size_t)n, " %s N=%d (%.1f %%)", ml,
					      me->pts[j].n, 100 * me->pts[j].trace_share.v);
		}
	}
	if (n <= 0)
		return;
	plot_note_add(buf, len, "", "\n", item);
	plot_note_add(buf, len, "", "\n",
		      "  its latency sources hold that much of the library's own time");
}

/* The method whose p_x is marked in experiment `exp` (0: the one opened, k: the k-th compared):
 * among its shown methods with a p_x (the analyzer's, model_method.px_n), the one named like
 * the current method, else the first problem-size-bound one, else the first; -1 if none. The
 * same choice in every window, so the mark of window 4 and window 5 is the same point. */
static int px_method_of(const struct model *m, int exp)
{
	const char *cur = m->cur_method >= 0 ? view_method_base(m, (size_t)m->cur_method) : NULL;
	int first = -1, fixed = -1;
	size_t i;

	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		if (me->exp != exp || !me->shown || me->px_n <= 0)
			continue;
		if (cur && strcmp(view_method_base(m, i), cur) == 0)
			return (int)i;
		if (first < 0)
			first = (int)i;
		if (fixed < 0 && model_method_fixed_size(me))
			fixed = (int)i;
	}
	return fixed >= 0 ? fixed : first;
}

/* p_x marks on a chart of metric k (MODEL_T_PARA or MODEL_L) for every experiment shown: the
 * analyzer's p_x and its figure there, labelled as the report's p_x line. */
#define MAX_MARKS 8
struct px_marks {
	struct plot_mark mk[MAX_MARKS];
	char label[MAX_MARKS][400];
	size_t n;
};

static void px_marks_make(struct px_marks *pm, const struct model *m, enum model_metric k,
			  char *note, size_t note_len)
{
	size_t e;
	char a[32], b[32], ml[160];

	pm->n = 0;
	for (e = 0; e <= m->n_exps && pm->n < MAX_MARKS; e++) {
		int i = px_method_of(m, (int)e);
		const struct model_method *me;
		const struct model_fig *f;
		if (i < 0)
			continue;
		me = &m->methods[i];
		f = k == MODEL_L ? &me->px_l : &me->px_t_para;
		if (f->why)
			continue;
		model_method_label(m, (size_t)i, ml, sizeof(ml));
		plot_format_seconds(a, sizeof(a), f->v);
		if (k == MODEL_L) {
			snprintf(pm->label[pm->n], sizeof(pm->label[0]),
				 "upper bound L at p_x = %d (%s): %s", me->px_n, ml, a);
			/* beside it, in the note, the report's other latency there: T_para (1 - E)
			 * of (10), with the analyzer's word on how it relates to L */
			if (!me->px_l_e.why) {
				char item[400];
				plot_format_seconds(b, sizeof(b), me->px_l_e.v);
				snprintf(item, sizeof(item), "at p_x = %d (%s): T_para (1 - E) = %s (%s)",
					 me->px_n, ml, b, me->px_l_e_note ? me->px_l_e_note : "L + U/N");
				plot_note_add(note, note_len, "", "\n", item);
			}
		} else
			snprintf(pm->label[pm->n], sizeof(pm->label[0]), "p_x = %d (%s)", me->px_n, ml);
		pm->mk[pm->n] = (struct plot_mark){ me->px_n, f->v, pm->label[pm->n] };
		pm->n++;
	}
}

/* Which T_seq each point of the shown methods uses (the analyzer's basis per point), as note
 * lines: "T_seq (S, E): traced sequential run: fixed, balls; N=1 run (no sequential program):
 * steps N=1". A CSV experiment does not say: the note says that instead. */
static void t_seq_note(char *buf, size_t len, const struct model *m, int only)
{
	const char *bases[8];
	size_t nb = 0, i, j, b;
	char item[600], ml[160];

	for (i = 0; i < m->n_methods; i++)
		for (j = 0; (m->methods[i].shown || (int)i == only) && j < m->methods[i].n_pts; j++) {
			const char *t = m->methods[i].pts[j].t_seq_basis;
			if (only >= 0 && (int)i != only)
				break;
			t = t ? t : "not said (report --csv has no T_seq basis)";
			for (b = 0; b < nb && strcmp(bases[b], t) != 0; b++)
				;
			if (b == nb && nb < 8)
				bases[nb++] = t;
		}
	if (nb == 1) {
		snprintf(item, sizeof(item), "T_seq at every point: %s", bases[0]);
		plot_note_add(buf, len, "", "\n", item);
		return;
	}
	for (b = 0; b < nb; b++) {
		/* the methods (and N, where a method mixes bases) on this basis */
		size_t n = (size_t)snprintf(item, sizeof(item), "T_seq: %s:", bases[b]);
		for (i = 0; i < m->n_methods && n < sizeof(item); i++) {
			const struct model_method *me = &m->methods[i];
			size_t on = 0, all = 0;
			if (!(me->shown || (int)i == only) || (only >= 0 && (int)i != only))
				continue;
			for (j = 0; j < me->n_pts; j++) {
				const char *t = me->pts[j].t_seq_basis;
				t = t ? t : "not said (report --csv has no T_seq basis)";
				all++;
				on += strcmp(t, bases[b]) == 0;
			}
			if (!on)
				continue;
			model_method_label(m, i, ml, sizeof(ml));
			n += (size_t)snprintf(item + n, sizeof(item) - n, " %s", ml);
			if (on < all) {
				const char *sep = " N=";
				for (j = 0; j < me->n_pts && n < sizeof(item); j++) {
					const char *t = me->pts[j].t_seq_basis;
					t = t ? t : "not said (report --csv has no T_seq basis)";
					if (strcmp(t, bases[b]) != 0)
						continue;
					n += (size_t)snprintf(item + n, sizeof(item) - n, "%s%d", sep,
							      me->pts[j].n);
					sep = ",";
				}
			}
			n += n < sizeof(item) ? (size_t)snprintf(item + n, sizeof(item) - n, ";") : 0;
		}
		plot_note_add(buf, len, "", "\n", item);
	}
}

/* Why S(1) is not 1 (when it is not, by more than 5 %): T_seq is the sequential program's time,
 * T_para(1) the parallel program's on one thread, which also synchronises, starts and joins its
 * threads and is traced — its latency L(W,1) says how much. Not a mixed baseline: each point's
 * T_seq is named by t_seq_note. One line per distinct (T_seq, T_para) pair of the shown methods
 * (the methods sharing the N=1 run together), at most three. */
static void s1_note(char *buf, size_t len, const struct model *m)
{
	struct { double s, ts, tp, l; char who[160]; } e[3];
	size_t ne = 0, i, j, k, more = 0;
	char item[400], a[32], b[32], c[32], ml[160];

	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		for (j = 0; me->shown && j < me->n_pts; j++) {
			const struct model_point *p = &me->pts[j];
			double sv = fig_value(&p->fig[MODEL_S]), ts = fig_value(&p->fig[MODEL_T_SEQ]);
			double tp = fig_value(&p->fig[MODEL_T_PARA]);
			if (p->n != 1 || !isfinite(sv) || fabs(sv - 1) <= 0.05)
				continue;
			model_method_label(m, i, ml, sizeof(ml));
			for (k = 0; k < ne && !(e[k].ts == ts && e[k].tp == tp); k++)
				;
			if (k == ne && ne == 3) {
				more++;
				continue;
			}
			if (k == ne) {
				e[ne].s = sv;
				e[ne].ts = ts;
				e[ne].tp = tp;
				e[ne].l = fig_value(&p->fig[MODEL_L]);
				snprintf(e[ne++].who, sizeof(e[0].who), "%s", ml);
			} else {
				size_t n = strlen(e[k].who);
				snprintf(e[k].who + n, sizeof(e[k].who) - n, ", %s", ml);
			}
		}
	}
	if (ne == 0)
		return;
	plot_note_add(buf, len, "", "\n", "Why S(1) is not 1: T_seq is the sequential program's time, "
		      "T_para(1) the parallel program's on one thread, which also waits, synchronises, "
		      "starts its threads and is traced (its latency L(W,1)):");
	for (k = 0; k < ne; k++) {
		plot_format_seconds(a, sizeof(a), e[k].ts);
		plot_format_seconds(b, sizeof(b), e[k].tp);
		if (isfinite(e[k].l))
			plot_format_seconds(c, sizeof(c), e[k].l);
		else
			snprintf(c, sizeof(c), "n/a");
		snprintf(item, sizeof(item), "  %s: S(1) = %.3g = %s / %s, L(W,1) = %s", e[k].who, e[k].s,
			 a, b, c);
		plot_note_add(buf, len, "", "\n", item);
	}
	if (more) {
		snprintf(item, sizeof(item), "  (and %zu more N=1 point%s)", more, more == 1 ? "" : "s");
		plot_note_add(buf, len, "", "\n", item);
	}
}

static struct plot_axis axis_n(void)
{
	return (struct plot_axis){ "threads N", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 };
}

/* A chart vs N over the series of p from `first` on, y as given, no mark, no ideal line. */
static void chart_vs_n(struct plot_chart *c, const char *title, const struct view_pool *p,
		       size_t first, struct plot_axis y)
{
	memset(c, 0, sizeof(*c));
	c->title = title;
	c->x = axis_n();
	c->y = y;
	c->series = p->s + first;
	c->n_series = p->n_s - first;
	c->mark_x = c->mark_y = NAN;
}

static int chart_or_message(cairo_t *cr, struct plot_rect r, const struct plot_chart *c)
{
	size_t i;

	for (i = 0; i < c->n_series; i++)
		if (!c->series[i].hidden)
			break;
	if (c->n_series == 0) {
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, r.x + r.w / 2, r.y + 20, PLOT_CENTER, c->title);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, r.x + r.w / 2, r.y + r.h / 2, PLOT_CENTER, "no method shown (View > Show all methods)");
		return 0;
	}
	return plot_chart_draw(cr, r, c);
}

/* A patterns chart with patterns but no value of figure f (0 CPU utilization, 1 memory access
 * rate, 2 miss rate) says why, e.g. "unavailable: no hardware PMU (ENOENT)", never a blank. */
static void pattern_unavailable(cairo_t *cr, struct plot_rect r, const struct model *m, int f)
{
	const char *why = NULL;
	char text[400];
	size_t q;

	for (q = 0; q < m->n_patterns; q++) {
		const struct model_pattern *pt = &m->patterns[q];
		const struct model_fig *fg = f == 0 ? &pt->cpu_util : f == 1 ? &pt->mem_rate : &pt->miss_rate;
		if (!isnan(fig_value(fg)))
			return;
		if (!why)
			why = fg->why;
	}
	if (m->n_patterns == 0)
		return;
	snprintf(text, sizeof(text), "unavailable: %s", why ? why : "not measured");
	cairo_set_source_rgb(cr, 0.6, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	plot_text_wrapped(cr, r.x + 70, r.y + r.h * 0.4, r.w - 100, 16, text);
}

/* The legend the charts of a window share (they draw the same series), with c's note: a strip
 * of height shared_legend_height at the bottom; the charts are drawn with legend_off. */
static void shared_legend(cairo_t *cr, double w, double h, const struct plot_chart *c,
			  enum plot_ideal ideal, double leg_h)
{
	struct plot_chart k = *c;

	k.ideal = ideal;
	if (c->n_series > 0)
		plot_legend_draw(cr, (struct plot_rect){ 0, h - leg_h, w, leg_h }, &k);
}

static double shared_legend_height(cairo_t *cr, double w, const struct plot_chart *c,
				   enum plot_ideal ideal)
{
	struct plot_chart k = *c;

	k.ideal = ideal;
	return c->n_series > 0 ? plot_legend_height(cr, w, &k) + 12 : 0;
}

int view_time_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct view_pool p;
	struct plot_chart c, first;
	struct px_marks pm;
	char title[256], note[2048] = "", band[64];
	size_t base;
	double lh, ch;
	int rc;

	if ((rc = view_pool_init(&p, 3 * m->n_methods + 1, 3 * total_points(m))) < 0)
		return rc;
	view_title(title, sizeof(title), v, "Execution time vs N");
	if ((rc = method_series(&p, m, MODEL_T_PARA, 0)) < 0)
		goto out;
	chart_vs_n(&c, title, &p, 0,
		   (struct plot_axis){ "parallel time T_para", PLOT_LOG10, PLOT_UNIT_SECONDS, NAN, NAN, 0 });
	oversub_band(&c, m, -1, band, sizeof(band));
	px_marks_make(&pm, m, MODEL_T_PARA, NULL, 0);
	c.marks = pm.mk;
	c.n_marks = pm.n;
	/* S and E divide by T_seq: say which, per point (a traced N=1 run at one size, an
	 * untraced sequential wall time at another must not pass for one baseline) */
	t_seq_note(note, sizeof(note), m, -1);
	s1_note(note, sizeof(note), m);
	ovh_note(note, sizeof(note), m, -1);
	c.note = note;
	/* one legend for the three charts (same methods), at the bottom: small windows keep
	 * their plots readable */
	lh = shared_legend_height(cr, w, &c, PLOT_IDEAL_SPEEDUP);
	ch = (h - lh) * 0.5;
	first = c;
	c.legend_off = 1;
	if ((rc = chart_or_message(cr, (struct plot_rect){ 0, 0, w, ch }, &c)) < 0)
		goto out;

	base = p.n_s;
	if ((rc = method_series(&p, m, MODEL_S, 0)) < 0)
		goto out;
	chart_vs_n(&c, "Speedup S = T_seq / T_para", &p, base,
		   (struct plot_axis){ "speedup S", PLOT_LOG2, PLOT_UNIT_NONE, NAN, NAN, 0 });
	oversub_band(&c, m, -1, band, sizeof(band));
	c.ideal = PLOT_IDEAL_SPEEDUP;
	c.legend_off = 1;
	if ((rc = chart_or_message(cr, (struct plot_rect){ 0, ch, w * 0.5, ch }, &c)) < 0)
		goto out;

	base = p.n_s;
	if ((rc = method_series(&p, m, MODEL_E, 0)) < 0)
		goto out;
	chart_vs_n(&c, "Efficiency E = T_seq / (N T_para)", &p, base,
		   (struct plot_axis){ "efficiency E", PLOT_LINEAR, PLOT_UNIT_PERCENT, NAN, NAN, 1 });
	oversub_band(&c, m, -1, band, sizeof(band));
	c.ideal = PLOT_IDEAL_EFFICIENCY;
	c.legend_off = 1;
	if ((rc = chart_or_message(cr, (struct plot_rect){ w * 0.5, ch, w * 0.5, ch }, &c)) < 0)
		goto out;
	shared_legend(cr, w, h, &first, PLOT_IDEAL_SPEEDUP, lh);
out:
	view_pool_free(&p);
	return rc;
}

int view_latency_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct view_pool p;
	struct plot_chart c;
	struct px_marks pm;
	char title[256], note[2000] = "", band[64];
	int rc;

	if ((rc = view_pool_init(&p, m->n_methods + 1, total_points(m))) < 0)
		return rc;
	view_title(title, sizeof(title), v, "Average latency L(W,N) vs N");
	if ((rc = method_series(&p, m, MODEL_L, 1)) < 0)
		goto out;
	chart_vs_n(&c, title, &p, 0,
		   (struct plot_axis){ "average latency L(W,N)", PLOT_LOG10, PLOT_UNIT_SECONDS, NAN, NAN, 0 });
	oversub_band(&c, m, -1, band, sizeof(band));
	/* the analyzer's L (the report's L column) leaves U (extra work) out: it equals
	 * T_para (1 - E) only where U = 0 and the books close; at N = 1 with T_seq from that run
	 * E = 1 but L is the N=1 run's own waits. The mark gives both, as the report's p_x line. */
	plot_note_add(note, sizeof(note), "", "\n", "L = (IT + PT + ML) / N per thread\n"
		      "= T_para (1 - E) - U / N\n(U: extra work; up to the closure)");
	px_marks_make(&pm, m, MODEL_L, note, sizeof(note));
	t_seq_note(note, sizeof(note), m, -1);
	cost_note(note, sizeof(note), m, -1);
	ovh_note(note, sizeof(note), m, -1);
	c.note = note;
	c.marks = pm.mk;
	c.n_marks = pm.n;
	rc = chart_or_message(cr, (struct plot_rect){ 0, 0, w, h }, &c);
out:
	view_pool_free(&p);
	return rc;
}

/* Line colour/marker/dash per source, so the same source looks the same in every chart. The
 * colours are window 9's states (timeline.c): a wait in full colour, the overhead of the same
 * primitive in its tint (dashed as a line), condition waits olive; off CPU in greys: runnable
 * (CPU contention) black, blocked dark grey, edge idle mid grey; the memory stall and the extra
 * work, both inside compute, in busy's green. */
static void source_style(struct plot_series *s, enum model_metric k)
{
	static const struct { int color; enum plot_marker mk; int dashed; } st[MODEL_N_METRICS] = {
		[MODEL_IT_EDGE] = { PLOT_GREY_MID, PLOT_MARK_DOWN, 0 },
		[MODEL_IT_BARRIER] = { 0, PLOT_MARK_CIRCLE, 0 },
		[MODEL_PT_BARRIER] = { PLOT_N_COLORS + 0, PLOT_MARK_CIRCLE, 1 },
		[MODEL_IT_LOCK] = { 1, PLOT_MARK_SQUARE, 0 },
		[MODEL_PT_LOCK] = { PLOT_N_COLORS + 1, PLOT_MARK_SQUARE, 1 },
		[MODEL_IT_COND] = { 7, PLOT_MARK_TRIANGLE, 0 },
		[MODEL_IT_SEM] = { 3, PLOT_MARK_DIAMOND, 0 },
		[MODEL_PT_SEM] = { PLOT_N_COLORS + 3, PLOT_MARK_DIAMOND, 1 },
		[MODEL_IT_JOIN] = { 4, PLOT_MARK_PLUS, 0 },
		[MODEL_PT_THREAD] = { PLOT_N_COLORS + 4, PLOT_MARK_PLUS, 1 },
		[MODEL_IT_SCHED] = { 6, PLOT_MARK_STAR, 0 },
		[MODEL_IT_BLOCKED] = { PLOT_GREY_DARK, PLOT_MARK_SQUARE, 0 },
		[MODEL_ML] = { 2, PLOT_MARK_DIAMOND, 0 },
		[MODEL_U] = { PLOT_N_COLORS + 2, PLOT_MARK_CROSS, 1 },
	};

	s->color = st[k].color;
	s->marker = st[k].mk;
	s->dashed = st[k].dashed;
}

/* IT_sched is a part of IT where the time budget is measured (context-switch records: then
 * IT_blocked is available too); where only the run-delay counter gave it, it overlaps the waits
 * and is not in IT or L, so it is drawn as a line but not stacked there. */
static int sched_is_part(const struct model_point *p)
{
	return p->fig[MODEL_IT_BLOCKED].why == NULL;
}

/* The closure of the books at the points of me: the largest |closure| and its N, as a note. */
static void closure_note(char *buf, size_t len, const struct model_method *me)
{
	double worst = 0;
	int at = 0;
	size_t j;
	char item[160];

	for (j = 0; j < me->n_pts; j++) {
		const struct model_fig *f = &me->pts[j].fig[MODEL_CLOSURE];
		if (!f->why && (at == 0 || fabs(f->v) > fabs(worst))) {
			worst = f->v;
			at = me->pts[j].n;
		}
	}
	if (at == 0)
		return;   /* without the budget: IT_blocked's note says why */
	snprintf(item, sizeof(item), "closure (N T_para in no part):\n%+.2f %% at N=%d%s",
		 100 * worst, at, fabs(worst) > 0.05 ? ": the parts miss time" : " (the largest)");
	plot_note_add(buf, len, "", "\n", item);
}

/* The log axis of the sources spans at most this many decades below the largest value: a source
 * of a few ns beside milliseconds would squeeze every line into the top of the plot. Sources
 * wholly below are named in the note (their stacked layers are too thin to see anyway). */
#define DECADES 5

/* When some value lies DECADES below the largest, sets *y_min to the smallest value above that
 * floor (else leaves it NAN) and names the sources below the floor at every N in note. */
static void y_floor(const struct view_pool *p, const enum model_metric *metric, char *note,
		    size_t len, double *y_min)
{
	double hi = 0, lo = INFINITY, floor_v;
	size_t i, k;
	char head[96], bound[32];

	for (i = 0; i < p->n_s; i++)
		for (k = 0; !p->s[i].hidden && k < p->s[i].n; k++)
			if (isfinite(p->s[i].y[k]) && p->s[i].y[k] > 0) {
				hi = fmax(hi, p->s[i].y[k]);
				lo = fmin(lo, p->s[i].y[k]);
			}
	if (!(hi > 0))
		return;
	floor_v = pow(10, floor(log10(hi)) - DECADES);
	if (lo >= floor_v)
		return;
	/* the axis starts at the smallest value drawn */
	*y_min = hi;
	for (i = 0; i < p->n_s; i++)
		for (k = 0; !p->s[i].hidden && k < p->s[i].n; k++)
			if (isfinite(p->s[i].y[k]) && p->s[i].y[k] >= floor_v)
				*y_min = fmin(*y_min, p->s[i].y[k]);
	plot_format_seconds(bound, sizeof(bound), floor_v);
	snprintf(head, sizeof(head), "under %s at every N (below the axis):\n", bound);
	for (i = 0; i + 1 < p->n_s; i++) {   /* the last series is L */
		int any = 0, above = 0;
		for (k = 0; k < p->s[i].n; k++)
			if (isfinite(p->s[i].y[k]) && p->s[i].y[k] > 0) {
				any = 1;
				above |= p->s[i].y[k] >= floor_v;
			}
		if (any && !above && !p->s[i].hidden)
			plot_note_add(note, len, head, ", ", model_metric_name(metric[i]));
	}
}

/* The lines take this share of the width, the stacked columns the rest. */
#define SPLIT 0.68

int view_sources_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	const struct model_method *me;
	struct view_pool p;
	struct plot_chart c;
	struct plot_stack st;
	char title[256], note[1600] = "", zero_note[256] = "", neg_note[256] = "", band[64];
	char line_note[256] = "", low_note[256] = "", label[160];
	enum model_metric line_metric[MODEL_N_SOURCES + 1];
	const char *glabels_p[64], *llabels[MODEL_N_SOURCES];
	char glabels[64][16];
	double vals[64 * MODEL_N_SOURCES];
	int lcolors[MODEL_N_SOURCES];
	size_t j, ng, nl = 0, q;
	double lh, y_min = NAN;
	int rc, mi;

	if ((mi = view_chosen_method(m, VIEW_SOURCES)) < 0) {
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no data");
		return 0;
	}
	me = &m->methods[mi];
	ng = me->n_pts < 64 ? me->n_pts : 64;
	if ((rc = view_pool_init(&p, MODEL_N_SOURCES + 1, (MODEL_N_SOURCES + 1) * me->n_pts)) < 0)
		return rc;
	{
		char ml[64];
		model_method_label(m, (size_t)mi, ml, sizeof(ml));
		snprintf(label, sizeof(label), "Latency sources vs N (%s)", ml);
	}
	view_title(title, sizeof(title), v, label);
	for (q = 0; q < MODEL_N_SOURCES; q++) {
		enum model_metric k = model_source_order[q];
		struct plot_series *s;
		size_t avail = 0, zero = 0, neg = 0, part = 0;
		for (j = 0; j < me->n_pts; j++) {
			avail += me->pts[j].fig[k].why == NULL;
			zero += me->pts[j].fig[k].why == NULL && me->pts[j].fig[k].v == 0;
			neg += me->pts[j].fig[k].why == NULL && me->pts[j].fig[k].v < 0;
			part += me->pts[j].fig[k].why == NULL && sched_is_part(&me->pts[j]);
		}
		if (avail > 0 && zero == avail) {
			/* measured and zero: a log axis cannot show it, so say it (no legend entry
			 * and no layer either: nothing to see) */
			plot_note_add(zero_note, sizeof(zero_note), "zero at every N:\n", ", ",
				      model_metric_name(k));
			continue;
		} else if (avail > 0 && zero + neg == avail) {
			/* extra work below zero at every N (the parallel program did less work than
			 * the sequential one): no line on the log axis either, only its part of the
			 * stacked columns, so say it */
			plot_note_add(neg_note, sizeof(neg_note),
				      "at or below 0 at every N\n(stacked columns only): ", ", ",
				      model_metric_name(k));
		}
		if (avail == 0) {
			/* listed with its reason, never drawn as zero */
			size_t n = strlen(note);
			const char *why = me->n_pts ? me->pts[0].fig[k].why : "no points";
			snprintf(note + n, sizeof(note) - n, "%s%s (%s):\n  %s\n", n ? "" : "unavailable:\n",
				 model_metric_name(k), model_metric_title(k), why);
			continue;
		}
		snprintf(label, sizeof(label), "%s %s", model_metric_name(k), model_metric_title(k));
		if (!(s = view_pool_series(&p, label, me->n_pts))) {
			rc = -ENOMEM;
			goto out;
		}
		source_style(s, k);
		s->hidden = !model_source_shown(m, k);
		line_metric[p.n_s - 1] = k;
		for (j = 0; j < me->n_pts; j++) {
			((double *)s->x)[j] = me->pts[j].n;
			((double *)s->y)[j] = fig_value(&me->pts[j].fig[k]) / me->pts[j].n;
			point_flags(&p, s, j, m, me, &me->pts[j], 0);
		}
		if (k == MODEL_IT_SCHED && part < avail)
			plot_note_add(line_note, sizeof(line_note), "", "\n", part ?
				      "IT_sched from the run-delay counter\nat some N (no switch records):\n"
				      "stacked only where it is a part" :
				      "IT_sched from the run-delay counter\n(no switch records): overlaps\n"
				      "the waits, a line only, not stacked");
		/* toggled off: not a layer of the stack either */
		if (s->hidden || (k == MODEL_IT_SCHED && part == 0))
			continue;
		llabels[nl] = model_metric_name(k);
		lcolors[nl] = s->color;
		for (j = 0; j < ng; j++)
			vals[j * MODEL_N_SOURCES + nl] =
				k == MODEL_IT_SCHED && !sched_is_part(&me->pts[j]) ? NAN : s->y[j];
		nl++;
	}
	{
		struct plot_series *s = view_pool_series(&p, "L average (IT + PT + ML) / N", me->n_pts);
		if (!s) {
			rc = -ENOMEM;
			goto out;
		}
		/* the total beside its parts: a wide grey band behind the lines */
		s->color = PLOT_GREY;
		s->marker = PLOT_MARK_NONE;
		s->dashed = 0;
		s->thick = 1;
		for (j = 0; j < me->n_pts; j++) {
			((double *)s->x)[j] = me->pts[j].n;
			((double *)s->y)[j] = fig_value(&me->pts[j].fig[MODEL_L]);
			/* the report's "!" on the total, not on each of the lines */
			point_flags(&p, s, j, m, me, &me->pts[j], 1);
		}
	}
	y_floor(&p, line_metric, low_note, sizeof(low_note), &y_min);
	if (zero_note[0])
		plot_note_add(note, sizeof(note), "", "\n", zero_note);
	if (low_note[0])
		plot_note_add(note, sizeof(note), "", "\n", low_note);
	if (neg_note[0])
		plot_note_add(note, sizeof(note), "", "\n", neg_note);
	if (line_note[0])
		plot_note_add(note, sizeof(note), "", "\n", line_note);
	closure_note(note, sizeof(note), me);
	t_seq_note(note, sizeof(note), m, mi);   /* U is compute - T_seq - ML */
	cost_note(note, sizeof(note), m, mi);
	ovh_note(note, sizeof(note), m, mi);
	chart_vs_n(&c, title, &p, 0,
		   (struct plot_axis){ "per-thread latency (source / N)", PLOT_LOG10, PLOT_UNIT_SECONDS, y_min, NAN, 0 });
	oversub_band(&c, m, mi, band, sizeof(band));
	c.note = note;
	/* a narrow window: the legend and notes go into a strip across the whole width */
	lh = w < 900 ? shared_legend_height(cr, w, &c, PLOT_IDEAL_NONE) : 0;
	c.legend_off = lh > 0;
	if ((rc = plot_chart_draw(cr, (struct plot_rect){ 0, 0, w * SPLIT, h - lh }, &c)) < 0)
		goto out;
	if (lh > 0)
		shared_legend(cr, w, h, &c, PLOT_IDEAL_NONE, lh);

	/* the same sources stacked per N: what each thread's latency is made of */
	for (j = 0; j < ng; j++) {
		/* a column whose sources the report marks "!" says so under it */
		snprintf(glabels[j], sizeof(glabels[j]), "%d%s", me->pts[j].n,
			 me->pts[j].cost_marked && m->cost_mark > 0 ? " !" : "");
		glabels_p[j] = glabels[j];
		/* compact the row stride from the full source count to nl */
		memmove(&vals[j * nl], &vals[j * MODEL_N_SOURCES], nl * sizeof(double));
	}
	memset(&st, 0, sizeof(st));
	st.title = "Composition per thread";
	st.x_label = "threads N";
	st.y_label = "latency";
	st.unit = PLOT_UNIT_SECONDS;
	st.group_labels = glabels_p;
	st.n_groups = ng;
	st.layer_labels = llabels;
	st.layer_colors = lcolors;
	st.n_layers = nl;
	st.values = vals;
	st.legend_off = lh > 0;   /* narrow: the strip's legend names the colours */
	rc = plot_stack_draw(cr, (struct plot_rect){ w * SPLIT, 0, w * (1 - SPLIT), h - lh }, &st);
out:
	view_pool_free(&p);
	return rc;
}

/* The methods window 7 draws: the chosen one and, in compare mode, the method of the same name
 * in each compared experiment (Fig. 12 is one method: points of different methods are never
 * joined into one line). Returns how many indices went to out. */
static size_t par_methods(const struct model *m, int chosen, int *out, size_t max)
{
	const char *base = view_method_base(m, (size_t)chosen);
	size_t i, n = 0;

	for (i = 0; i < m->n_methods && n < max; i++)
		if ((int)i == chosen || (m->methods[i].exp != m->methods[chosen].exp &&
					 strcmp(view_method_base(m, i), base) == 0))
			out[n++] = (int)i;
	return n;
}

int view_parallelism_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	const struct model *m = v->m;
	struct view_pool p;
	struct plot_chart c;
	char title[256], label[200], what[200];
	int ns[64], meth[16], mi;
	size_t n_ns = 0, n_meth, j, k, q;
	int rc;

	if ((mi = view_chosen_method(m, VIEW_PARALLELISM)) < 0) {
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no data");
		return 0;
	}
	n_meth = par_methods(m, mi, meth, 16);
	/* the distinct N above 1 (parallelism of one thread says nothing) of the chosen method */
	for (q = 0; q < n_meth; q++)
		for (j = 0; j < m->methods[meth[q]].n_pts; j++) {
			int n = m->methods[meth[q]].pts[j].n;
			for (k = 0; k < n_ns && ns[k] < n; k++)
				;
			if (n > 1 && n_ns < 64 && (k == n_ns || ns[k] != n)) {
				memmove(ns + k + 1, ns + k, (n_ns - k) * sizeof(ns[0]));
				ns[k] = n;
				n_ns++;
			}
		}
	if ((rc = view_pool_init(&p, n_ns * n_meth + 1, total_points(m))) < 0)
		return rc;
	/* one line per (experiment, N): colour and marker by N, dashed for a compared
	 * experiment, points in W order */
	for (q = 0; q < n_meth; q++)
		for (k = 0; k < n_ns; k++) {
			const struct model_method *me = &m->methods[meth[q]];
			struct plot_series *s;
			size_t cnt = 0;
			for (j = 0; j < me->n_pts; j++)
				cnt += me->pts[j].n == ns[k];
			if (cnt == 0)
				continue;
			{
				/* N above the CPUs: the report's oversub yes, in the legend */
				int over = 0;
				for (j = 0; j < me->n_pts; j++)
					over |= me->pts[j].n == ns[k] && me->pts[j].oversubscribed;
				if (m->n_exps > 0)   /* the experiment's name: the title names the method */
					snprintf(label, sizeof(label), "%s N = %d%s", me->exp > 0 ?
						 m->exps[me->exp - 1] : m->name ? m->name : "", ns[k],
						 over ? " (oversubscribed)" : "");
				else
					snprintf(label, sizeof(label), "N = %d%s", ns[k],
						 over ? " (oversubscribed)" : "");
			}
			if (!(s = view_pool_series(&p, label, cnt))) {
				rc = -ENOMEM;
				goto out;
			}
			view_series_style(s, k);
			s->dashed = me->exp > 0;
			cnt = 0;
			for (j = 0; j < me->n_pts; j++) {
				const struct model_point *pt = &me->pts[j];
				size_t pos = cnt;
				if (pt->n != ns[k])
					continue;
				/* insertion by W so the line runs left to right */
				while (pos > 0 && s->x[pos - 1] > pt->w) {
					((double *)s->x)[pos] = s->x[pos - 1];
					((double *)s->y)[pos] = s->y[pos - 1];
					pos--;
				}
				((double *)s->x)[pos] = pt->w;
				((double *)s->y)[pos] = fig_value(&pt->fig[MODEL_PARALLELISM]);
				cnt++;
			}
		}
	snprintf(what, sizeof(what), "Parallelism vs problem size (%s)", view_method_base(m, (size_t)mi));
	view_title(title, sizeof(title), v, what);
	memset(&c, 0, sizeof(c));
	c.title = title;
	c.x = (struct plot_axis){ "problem size W", PLOT_LOG10, PLOT_UNIT_NONE, NAN, NAN, 0 };
	/* the model's parallelism is the analyzer's average parallelism, the processors' CPU time
	 * / T_para: a number of threads, 0 .. min(N, CPUs), not a share */
	c.y = (struct plot_axis){ "average parallelism (threads on CPU)", PLOT_LINEAR, PLOT_UNIT_NONE, NAN, NAN, 1 };
	c.series = p.s;
	c.n_series = p.n_s;
	c.mark_x = c.mark_y = NAN;
	c.note = "CPU time of the threads / T_para:\nhow many are on a CPU at once,\n"
		 "at most min(N, CPUs)\n(one method: the chooser above)";
	if (p.n_s == 0) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, w / 2, 20, PLOT_CENTER, title);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no point with N > 1 for this method");
		goto out;
	}
	rc = chart_or_message(cr, (struct plot_rect){ 0, 0, w, h }, &c);
out:
	view_pool_free(&p);
	return rc;
}

int view_patterns_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	static const char *const names[3] = { "CPU utilization", "memory access rate", "memory access miss rate" };
	const struct model *m = v->m;
	struct view_pool p;
	struct plot_chart c;
	char title[256], none[512] = "";
	size_t i, j, q;
	double lh = 0, ch = h * 0.5;
	int rc = 0, f;

	if ((rc = view_pool_init(&p, 3 * m->n_methods + 1, 3 * total_points(m))) < 0)
		return rc;
	for (f = 0; f < 3; f++) {
		size_t base = p.n_s;
		for (i = 0; i < m->n_methods; i++) {
			struct plot_series *s;
			size_t cnt = 0;
			if (!m->methods[i].shown)
				continue;
			for (q = 0; q < m->n_patterns; q++)
				cnt += strcmp(m->patterns[q].method, m->methods[i].name) == 0;
			if (cnt == 0 && m->n_patterns > 0) {
				/* no pattern at any size of this method (the analyzer measures them on
				 * the points of the scaling methods): named under the legend, not a
				 * legend entry without a line */
				size_t n = strlen(none);
				if (f == 0)
					snprintf(none + n, sizeof(none) - n, "%s%s", n ? ", " : "no patterns: ",
						 m->methods[i].name);
				continue;
			}
			if (!(s = view_pool_series(&p, m->methods[i].name, cnt))) {
				rc = -ENOMEM;
				goto out;
			}
			view_method_style(m, s, i);
			for (q = 0, j = 0; q < m->n_patterns; q++) {
				const struct model_pattern *pt = &m->patterns[q];
				const struct model_fig *fg = f == 0 ? &pt->cpu_util : f == 1 ? &pt->mem_rate : &pt->miss_rate;
				if (strcmp(pt->method, m->methods[i].name) != 0)
					continue;
				((double *)s->x)[j] = pt->w;
				((double *)s->y)[j++] = fig_value(fg);
			}
		}
		if (f == 0)
			view_title(title, sizeof(title), v, names[0]);
		memset(&c, 0, sizeof(c));
		c.title = f == 0 ? title : names[f];
		c.x = (struct plot_axis){ "problem size W", PLOT_LOG10, PLOT_UNIT_NONE, NAN, NAN, 0 };
		c.y = (struct plot_axis){ names[f], PLOT_LINEAR, PLOT_UNIT_PERCENT, NAN, NAN, 0 };
		c.series = p.s + base;
		c.n_series = p.n_s - base;
		c.mark_x = c.mark_y = NAN;
		c.legend_off = 1;
		c.note = none[0] ? none : NULL;
		if (f == 0) {
			/* one legend for the three charts, at the bottom */
			lh = shared_legend_height(cr, w, &c, PLOT_IDEAL_NONE);
			ch = (h - lh) * 0.5;
			shared_legend(cr, w, h, &c, PLOT_IDEAL_NONE, lh);
		}
		struct plot_rect pr = { f == 2 ? w * 0.5 : 0, f == 0 ? 0 : ch, f == 0 ? w : w * 0.5, ch };
		if ((rc = chart_or_message(cr, pr, &c)) < 0)
			goto out;
		pattern_unavailable(cr, pr, m, f);
	}
	if (m->n_patterns == 0) {
		plot_set_font(cr, PLOT_FONT_LABEL);
		char why[400];
		snprintf(why, sizeof(why), "no sequential patterns: %s",
			 m->seq_why ? m->seq_why : "none in this experiment");
		cairo_set_source_rgb(cr, 0.6, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text_wrapped(cr, 80, ch * 0.4, w - 120, 16, why);
	}
out:
	view_pool_free(&p);
	return rc;
}
