/*
 * an_matrix.c — experiment-level views built from the points' repetition medians: curves vs N,
 * p_x (the N of smallest T_para under fixed size, (1)), and the upper-triangular scalability
 * matrix of Fig. 14 with time-bound / E-conserved / memory-bound in each cell:
 *
 *   time-bound (12)     scale = (1 - E) / (1 - E')    (isospeed reading (13): E / E')
 *   E-conserved (4)     scale = L(W,N) / L(W',N')
 *   memory-bound (14)   scale = L(W,N) / L(W',N')
 *
 * with L = T_para (1 - E) (10), the latency that closes the books (it includes U); without T_seq
 * the attributed L = (ML + IT + PT) / N is used and a problem says so. A time-bound cell whose E
 * and E' are both below 0.5 and within 0.1 of each other carries the paper's caveat: (12) and
 * (13) then overestimate scalability.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "an_int.h"
#include "store.h"

#define CAVEAT_E_LOW   0.5
#define CAVEAT_E_CLOSE 0.1

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

/* L of a point for the matrix: T_para (1 - E), else the attributed L. */
static struct an_fig point_latency(const struct an_point *o)
{
	return o->med[AN_L_E].unavailable ? o->med[AN_L] : o->med[AN_L_E];
}

static struct an_fig ratio(struct an_exp *e, struct an_fig a, struct an_fig b)
{
	if (a.unavailable)
		return a;
	if (b.unavailable)
		return b;
	if (b.value == 0)
		return an_fig_na("the latency at N' is zero");
	return an_fig_val(a.value / b.value);
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
		if (n == 1 && a->t_seq_source && strcmp(a->t_seq_source, "n1") == 0) {
			/* T_seq is this very run: E = 1, L(W,1) = 0, and every ratio would read 0 */
			c->scale[m] = an_fig_na("L(W,1) = 0: T_seq is the N=1 run itself, so there is "
						"no latency at N=1 to compare with (a traced "
						"sequential program gives one)");
			if (m == AN_TIME_BOUND)
				c->isospeed = c->scale[m];
			continue;
		}
		if (m == AN_TIME_BOUND) {
			struct an_fig E1 = a->med[AN_E], E2 = b->med[AN_E];
			if (E1.unavailable || E2.unavailable) {
				c->scale[m] = E1.unavailable ? E1 : E2;
				c->isospeed = c->scale[m];
				continue;
			}
			c->scale[m] = E2.value == 1 ? an_fig_na("E' is 1: no latency at N'")
				      : an_fig_val((1 - E1.value) / (1 - E2.value));
			c->isospeed = E2.value > 0 ? an_fig_val(E1.value / E2.value)
				      : an_fig_na("E' is zero");
			c->caveat = E1.value < CAVEAT_E_LOW && E2.value < CAVEAT_E_LOW &&
				    fabs(E1.value - E2.value) < CAVEAT_E_CLOSE;
		} else {
			c->scale[m] = ratio(e, point_latency(a), point_latency(b));
		}
	}
	return 0;
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
