/*
 * an_matrix.c — experiment-level views built from the points' repetition medians: curves vs N,
 * p_x (the N of smallest T_para under fixed size, (1)), and the upper-triangular scalability
 * matrix of Fig. 14 with time-bound / E-conserved / memory-bound in each cell, each value
 * Def. 6's
 *
 *   scale(N, N') = L(W,N) / L(W',N')
 *
 * over the model's points at N and N', with L = T_para (1 - E) (10), the latency that closes the
 * books (it includes U), on both sides; where one side lacks it (no T_seq) or the two measured
 * T_seq differently (a traced time and a wall time) both use the attributed L = (ML + IT + PT)
 * / N. For time-bound this is (12), (1 - E) / (1 - E'), when the search held T_para = T_para';
 * (12) and the isospeed reading (13) E / E' are kept beside it. A time-bound value whose E and
 * E' are both low carries the paper's caveat (an_matrix_caveat): it is then near 1 whatever the
 * latency does. Every cell keeps its operands and the runs behind them (struct an_cell_side),
 * and an_cell_explain writes them out, so a value can be recomputed from its own readout.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "an_int.h"
#include "store.h"

#define CAVEAT_E_LOW   0.5
#define CAVEAT_E_CLOSE 0.1
#define CAVEAT_E_FLOOR 0.2

size_t an_exp_curve(const struct an_exp *e, const char *model, const char *method,
		    enum an_metric m, int *n_out, struct an_fig *y_out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < e->n_pts && k < max; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (strcmp(o->model, model) != 0 || (method && strcmp(o->method, method) != 0))
			continue;
		n_out[k] = o->n_threads;
		y_out[k++] = (unsigned)m < AN_N_METRICS ? o->med[m] : an_fig_na("no such metric");
	}
	return k;
}

int an_exp_px(const struct an_exp *e, const char *method, int *px, struct an_fig *t_para,
	      struct an_fig *latency)
{
	const struct an_point *best = NULL;
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (strcmp(o->model, "method") != 0 || strcmp(o->method, method) != 0 ||
		    o->med[AN_T_PARA].unavailable)
			continue;
		if (!best || o->med[AN_T_PARA].value < best->med[AN_T_PARA].value)
			best = o;
	}
	if (!best)
		return -ENOENT;
	*px = best->n_threads;
	*t_para = best->med[AN_T_PARA];
	*latency = best->med[AN_L];   /* the table's L: (ML + IT + PT) / N */
	return 0;
}

static int is_model(const char *m)
{
	return !strcmp(m, "time-bound") || !strcmp(m, "e-conserved") || !strcmp(m, "memory-bound");
}

size_t an_exp_matrix_n(const struct an_exp *e, int *n_out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (!is_model(o->model))
			continue;
		size_t j = 0;
		while (j < k && n_out[j] < o->n_threads)
			j++;
		if (j < k && n_out[j] == o->n_threads)
			continue;
		if (k == max)
			continue;
		memmove(n_out + j + 1, n_out + j, (k - j) * sizeof *n_out);
		n_out[j] = o->n_threads;
		k++;
	}
	return k;
}

/* Appends the distinct N of the points of (model, method) to buf at *n: "1, 2, 4"; method NULL:
 * every method of the model. Returns how many. */
static int n_list(const struct an_exp *e, const char *model, const char *method, char *buf,
		  size_t len, size_t *n)
{
	int ns[64], k = 0;
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (strcmp(o->model, model) || (method && strcmp(o->method, method)))
			continue;
		int j = 0;
		while (j < k && ns[j] < o->n_threads)
			j++;
		if ((j < k && ns[j] == o->n_threads) || k == 64)
			continue;
		memmove(ns + j + 1, ns + j, (size_t)(k - j) * sizeof *ns);
		ns[j] = o->n_threads;
		k++;
	}
	for (int j = 0; j < k && *n < len; j++)
		*n += (size_t)snprintf(buf + *n, len - *n, "%s%d", j ? ", " : "", ns[j]);
	return k;
}

/* 1 when every point of method `method` (model "method") has the same W. */
static int method_fixed_size(const struct an_exp *e, const char *method)
{
	const struct an_point *first = NULL;
	for (size_t i = 0; i < e->n_pts; i++) {
		const struct an_point *o = &e->pts[i].pub;
		if (strcmp(o->model, "method") || strcmp(o->method, method))
			continue;
		if (!first)
			first = o;
		else if (o->work != first->work)
			return 0;
	}
	return 1;
}

int an_exp_matrix_why(const struct an_exp *e, char *buf, size_t len)
{
	int ns[2];
	size_t n = 0;
	if (!len)
		return 0;
	buf[0] = '\0';
	if (an_exp_matrix_n(e, ns, 2) >= 2)
		return 0;
	if (an_exp_matrix_n(e, ns, 2) == 1) {
		n = (size_t)snprintf(buf, len, "each value pairs a scaling model's points at two N; "
				     "this experiment's are at N = %d only (", ns[0]);
		int first = 1;
		for (int m = 0; m < AN_N_MODELS && n < len; m++) {
			const char *name = an_model_name((enum an_model)m);
			char tmp[32];
			size_t t = 0;
			if (!n_list(e, name, NULL, tmp, sizeof tmp, &t))
				continue;
			n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : ", ", name);
			first = 0;
		}
		if (n < len)
			snprintf(buf + n, len - n, ")");
		return 1;
	}
	n = (size_t)snprintf(buf, len, "no time-bound, E-conserved or memory-bound series in this "
			     "experiment: the matrix needs a series that scales W with N (a spec's "
			     "time-bound, e-conserved or memory-bound line)");
	int any = 0;
	for (size_t i = 0; i < e->n_methods && n < len; i++) {
		char ns_text[256];
		size_t t = 0;
		if (!n_list(e, "method", e->methods[i], ns_text, sizeof ns_text, &t))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s runs of %s at N = %s",
				      any ? "; " : "; this store has ",
				      method_fixed_size(e, e->methods[i]) ? "fixed-size" : "W-scaled",
				      e->methods[i], ns_text);
		any = 1;
	}
	if (!any && n < len)
		snprintf(buf + n, len - n, "; this store has no points yet");
	return 1;
}

int an_matrix_caveat(double e, double e2)
{
	if (!(e < CAVEAT_E_LOW && e2 < CAVEAT_E_LOW))
		return 0;
	/* "low and close" (§6.4); both below CAVEAT_E_FLOOR is close enough: L <= T_para bounds
	 * the value below by 1 - E, so it reads 0.8 .. 1.25 whatever the latency does */
	return fabs(e - e2) < CAVEAT_E_CLOSE || (e < CAVEAT_E_FLOOR && e2 < CAVEAT_E_FLOOR);
}

/* The L both sides of a value use: T_para (1 - E) when both have it from T_seq measured the same
 * way (both traced, or both wall-clock times), else the attributed L, which the traces give
 * alike; a ratio of one kind over the other would measure the difference of the two. */
static enum an_metric common_latency(const struct an_point *a, const struct an_point *b)
{
	if (!a->med[AN_L_E].unavailable && !b->med[AN_L_E].unavailable &&
	    !strcmp(a->t_basis, b->t_basis))
		return AN_L_E;
	return AN_L;
}

static struct an_fig ratio(struct an_fig a, struct an_fig b)
{
	if (a.unavailable)
		return a;
	if (b.unavailable)
		return b;
	if (b.value == 0)
		return an_fig_na("the latency at N' is zero");
	return an_fig_val(a.value / b.value);
}

static void fill_side(const struct an_exp *e, struct an_cell_side *s, const struct an_point *o,
		      enum an_metric lm)
{
	double t[AN_CELL_MAX_RUNS], med, lo, hi;
	size_t n = 0;

	s->point = o;
	s->l = o->med[lm];
	s->n_t_seq_runs = an_exp_t_seq_runs(e, o, s->t_seq_runs, AN_CELL_MAX_RUNS);
	s->t_wall = an_fig_na("T_seq is not a wall time");
	if (strcmp(o->t_basis, "wall") != 0)
		return;
	for (int i = 0; i < o->n_reps && n < AN_CELL_MAX_RUNS; i++) {
		const struct an_exp_run *x = an_exp_run_find(e, o->rep_ids[i]);
		if (x && !isnan(x->t_wall_s) && x->t_wall_s > 0)
			t[n++] = x->t_wall_s;
	}
	if (n) {
		an_stats(t, n, &med, &lo, &hi);
		s->t_wall = an_fig_val(med);
	}
}

int an_exp_matrix_cell(const struct an_exp *ce, int n, int n2, struct an_cell *c)
{
	struct an_exp *e = (struct an_exp *)ce;   /* reasons are owned strings of e */
	memset(c, 0, sizeof *c);
	c->n = n;
	c->n2 = n2;
	c->isospeed = an_fig_na("no time-bound points");
	if (n >= n2)
		return -EINVAL;
	for (int m = 0; m < AN_N_MODELS; m++) {
		const char *name = an_model_name((enum an_model)m);
		const struct an_point *a = an_exp_point_find(e, name, NULL, n);
		const struct an_point *b = an_exp_point_find(e, name, NULL, n2);
		int any = 0;
		c->l_metric[m] = AN_L_E;
		for (size_t i = 0; i < e->n_pts && !any; i++)
			any = strcmp(e->pts[i].pub.model, name) == 0;
		if (!any) {
			c->scale[m] = an_fig_na(an_exp_str(e, "no %s runs", name));
			continue;
		}
		if (!a || !b) {
			c->scale[m] = an_fig_na(an_exp_str(e, "no %s point at N=%d", name,
							   a ? n2 : n));
			continue;
		}
		c->point[m] = a->id;
		c->point2[m] = b->id;
		c->off_target[m] = !a->converged || !b->converged;
		c->l_metric[m] = common_latency(a, b);
		fill_side(e, &c->side[m][0], a, c->l_metric[m]);
		fill_side(e, &c->side[m][1], b, c->l_metric[m]);
		if (m == AN_TIME_BOUND) {
			struct an_fig E1 = a->med[AN_E], E2 = b->med[AN_E];
			if (E1.unavailable || E2.unavailable) {
				c->isospeed = E1.unavailable ? E1 : E2;
			} else {
				c->isospeed = E2.value > 0 ? an_fig_val(E1.value / E2.value)
					      : an_fig_na("E' is zero");
				c->caveat = an_matrix_caveat(E1.value, E2.value);
			}
		}
		if (n == 1 && a->t_seq_source && strcmp(a->t_seq_source, "n1") == 0) {
			/* T_seq is this very run: E = 1, L(W,1) = 0, and every ratio would read 0 */
			c->scale[m] = an_fig_na("L(W,1) = 0: T_seq is the N=1 run itself, so there is "
						"no latency at N=1 to compare with (a traced "
						"sequential program gives one)");
			if (m == AN_TIME_BOUND)
				c->isospeed = c->scale[m];
			continue;
		}
		/* Def. 6 for every model. Time-bound: (12), (1 - E) / (1 - E'), is this ratio when
		 * T_para = T_para' = T; a search holds T only to its tolerance, or misses it (~),
		 * and then (12) would divide latencies under different T */
		c->scale[m] = ratio(c->side[m][0].l, c->side[m][1].l);
	}
	return 0;
}

/* Appends to buf (len) at *used, as snprintf would. */
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + (*used < len ? *used : len), *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		*used += (size_t)k;
}

static void put_fig(char *buf, size_t len, size_t *used, const char *name, struct an_fig f,
		    const char *unit)
{
	if (f.unavailable)
		put(buf, len, used, "%s n/a (%s)", name, f.unavailable);
	else
		put(buf, len, used, "%s %.6g%s", name, f.value, unit);
}

static const char *l_formula(const struct an_cell *c, enum an_model m)
{
	if (c->l_metric[m] != AN_L_E)
		return "(ML + IT + PT) / N";
	return c->side[m][0].point && !strcmp(c->side[m][0].point->t_basis, "wall")
	       ? "T (1 - E), T the wall time (T_seq is a wall time)" : "T_para (1 - E)";
}

static void explain_side(const struct an_cell *c, enum an_model m, int k, char *buf, size_t len,
			 size_t *used)
{
	const struct an_cell_side *s = &c->side[m][k];
	const struct an_point *o = s->point;
	put(buf, len, used, "\n  %s=%d: ", k ? "N'" : "N", k ? c->n2 : c->n);
	if (!o) {
		put(buf, len, used, "no point");
		return;
	}
	put(buf, len, used, "%s %.6g (%s", k ? "W'" : "W", o->work, o->sizes);
	if (strcmp(o->method, "") != 0)
		put(buf, len, used, " along %s", o->method);
	put(buf, len, used, "), ");
	put_fig(buf, len, used, "T_para", o->med[AN_T_PARA], " s");
	if (!s->t_wall.unavailable)
		put(buf, len, used, " (wall time %.6g s)", s->t_wall.value);
	put(buf, len, used, ", ");
	put_fig(buf, len, used, "E", o->med[AN_E], "");
	put(buf, len, used, ", ");
	put_fig(buf, len, used, k ? "L'" : "L", s->l, " s");
	put(buf, len, used, "; run%s", o->n_reps == 1 ? "" : "s");
	for (int i = 0; i < o->n_reps; i++)
		put(buf, len, used, "%s%lld", i ? "," : " ", (long long)o->rep_ids[i]);
	if (!o->n_reps)
		put(buf, len, used, " none analyzed");
	if (s->n_t_seq_runs) {
		put(buf, len, used, ", T_seq from run%s", s->n_t_seq_runs == 1 ? "" : "s");
		for (size_t i = 0; i < s->n_t_seq_runs && i < AN_CELL_MAX_RUNS; i++)
			put(buf, len, used, "%s%lld", i ? "," : " ", (long long)s->t_seq_runs[i]);
		if (s->n_t_seq_runs > AN_CELL_MAX_RUNS)
			put(buf, len, used, " and %zu more", s->n_t_seq_runs - AN_CELL_MAX_RUNS);
		put(buf, len, used, " (%s)", !strcmp(o->t_seq_source, "n1") ? "N=1" :
		    !strcmp(o->t_basis, "wall") ? "sequential, wall time" : "sequential");
	} else if (!strcmp(o->t_basis, "runner")) {
		put(buf, len, used, ", T_seq the runner's (no run of it in the store)");
	}
	if (!o->converged)
		put(buf, len, used, "; ~ %s", o->note && *o->note ? o->note : "off target");
}

int an_cell_explain(const struct an_cell *c, enum an_model m, char *buf, size_t len)
{
	size_t used = 0;
	const struct an_fig *v = &c->scale[m];
	enum an_metric lm = c->l_metric[m];
	if (len)
		buf[0] = '\0';
	if ((unsigned)m >= AN_N_MODELS)
		return 0;
	put(buf, len, &used, "%s  ", an_model_name(m));
	if (!c->side[m][0].point || !c->side[m][1].point) {
		put(buf, len, &used, "n/a: %s", v->unavailable ? v->unavailable : "no points");
		return (int)used;
	}
	put(buf, len, &used, "L(W,N) / L(W',N') = ");
	if (v->unavailable)
		put(buf, len, &used, "n/a: %s", v->unavailable);
	else
		put(buf, len, &used, "%.6g s / %.6g s = %.6g", c->side[m][0].l.value,
		    c->side[m][1].l.value, v->value);
	if (!v->unavailable && m == AN_TIME_BOUND && c->caveat)
		put(buf, len, &used, " *");
	if (!v->unavailable && c->off_target[m])
		put(buf, len, &used, " ~");
	if (!v->unavailable && v->value > 1)
		put(buf, len, &used, " (above 1: the latency fell from N to N')");
	put(buf, len, &used, ", L = %s", l_formula(c, m));
	if (lm == AN_L && !c->side[m][0].point->med[AN_L_E].unavailable &&
	    !c->side[m][1].point->med[AN_L_E].unavailable)
		put(buf, len, &used, " (T_seq measured as %s time at N, as %s time at N')",
		    c->side[m][0].point->t_basis, c->side[m][1].point->t_basis);
	else if (lm == AN_L)
		put(buf, len, &used, " (no T_seq at one side)");
	explain_side(c, m, 0, buf, len, &used);
	explain_side(c, m, 1, buf, len, &used);
	if (m == AN_TIME_BOUND && !c->isospeed.unavailable) {
		const struct an_point *a = c->side[m][0].point, *b = c->side[m][1].point;
		/* the T of L = T (1 - E) on each side: T_para, or the wall time */
		const struct an_cell_side *sa = &c->side[m][0], *sb = &c->side[m][1];
		struct an_fig fa = sa->t_wall.unavailable ? a->med[AN_T_PARA] : sa->t_wall;
		struct an_fig fb = sb->t_wall.unavailable ? b->med[AN_T_PARA] : sb->t_wall;
		put(buf, len, &used, "\n  (12) (1 - E) / (1 - E') = %.6g; (13) E / E' = %.6g",
		    (1 - a->med[AN_E].value) / (1 - b->med[AN_E].value), c->isospeed.value);
		if (!fa.unavailable && !fb.unavailable && fa.value > 0 &&
		    fabs(fb.value / fa.value - 1) > 0.02)
			put(buf, len, &used, "; (12) holds for T' = T, here T' / T = %.4g",
			    fb.value / fa.value);
		if (c->caveat)
			put(buf, len, &used, "\n  * the paper's caveat (6.4): E and E' both low (< %g) and "
			    "close (within %g, or both < %g): the value is near 1 whatever the "
			    "latency does, it overestimates scalability", CAVEAT_E_LOW,
			    CAVEAT_E_CLOSE, CAVEAT_E_FLOOR);
	}
	if (!v->unavailable && c->off_target[m])
		put(buf, len, &used, "\n  ~ off target: the size search missed the model's target at "
		    "%s; the value pairs the closest sizes it found",
		    !c->side[m][0].point->converged && !c->side[m][1].point->converged ? "N and N'" :
		    !c->side[m][0].point->converged ? "N" : "N'");
	return (int)used;
}

int an_matrix_store(const struct an_exp *e, struct store *st)
{
	int ns[256];
	size_t k = an_exp_matrix_n(e, ns, 256);
	int rc = 0;
	for (size_t i = 0; i < k && rc >= 0; i++)
		for (size_t j = i + 1; j < k && rc >= 0; j++) {
			struct an_cell c;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			for (int m = 0; m < AN_N_MODELS && rc >= 0; m++) {
				if (!c.point[m])
					continue;
				char name[48];
				snprintf(name, sizeof name, "scale_%s", an_model_name((enum an_model)m));
				for (char *p = name; *p; p++)
					if (*p == '-')
						*p = '_';
				rc = store_metric_put(st, 0, c.point[m], c.point2[m], name,
						      c.scale[m].value, "", c.scale[m].unavailable);
				if (rc >= 0 && m == AN_TIME_BOUND)
					rc = store_metric_put(st, 0, c.point[m], c.point2[m],
							      "scale_isospeed", c.isospeed.value, "",
							      c.isospeed.unavailable);
			}
		}
	for (size_t i = 0; i < e->n_methods && rc >= 0; i++) {
		int px;
		struct an_fig tp, lat;
		if (an_exp_px(e, e->methods[i], &px, &tp, &lat) < 0)
			continue;
		const struct an_point *o = an_exp_point_find(e, "method", e->methods[i], px);
		rc = store_metric_put(st, 0, o->id, 0, "p_x", px, "", NULL);
	}
	return rc;
}
