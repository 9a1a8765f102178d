/*
 * teach.c — the teaching model's formulas (teach.h): METRICS.md applied to a program whose
 * parallel time is known in closed form.
 */
#include "teach.h"
#include "analyzer.h"   /* an_matrix_caveat: the report's rule for the caveat */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void teach_defaults(struct teach_params *p)
{
	p->t_serial_s = 0.02;
	p->t_work_s = 10.0;
	p->growth = TEACH_LOGN;
	p->c_s = 0.01;
	p->beta = 0.5;
	p->model = TEACH_FIXED;
	p->e_target = 0.7;
	p->t_bound_s = 10.0;
	p->mem_per_thread = 0.25;
	p->n_max = 64;
}

/* g(N) of the chosen growth, g(1) = 0. */
static double growth(const struct teach_params *p, int n)
{
	double lg = log2((double)n);

	if (n <= 1)
		return 0;
	switch (p->growth) {
	case TEACH_CONST: return 1;
	case TEACH_LOGN: return lg;
	case TEACH_N: return n - 1;
	case TEACH_NLOGN: return n * lg;
	}
	return 0;
}

double teach_overhead(const struct teach_params *p, double w, int n)
{
	return p->c_s * growth(p, n) * (p->beta != 0 ? pow(w, p->beta) : 1);
}

double teach_t_seq(const struct teach_params *p, double w)
{
	return p->t_serial_s + w * p->t_work_s;
}

double teach_t_para(const struct teach_params *p, double w, int n)
{
	return p->t_serial_s + w * p->t_work_s / n + teach_overhead(p, w, n);
}

double teach_efficiency(const struct teach_params *p, double w, int n)
{
	return teach_t_seq(p, w) / (n * teach_t_para(p, w, n));
}

double teach_speedup(const struct teach_params *p, double w, int n)
{
	return teach_t_seq(p, w) / teach_t_para(p, w, n);
}

double teach_latency(const struct teach_params *p, double w, int n)
{
	return teach_t_para(p, w, n) - teach_t_seq(p, w) / n;
}

/* Smallest W in (0, 1e12] with f(W) >= target for f increasing in W, by bisection on log W
 * (relative precision 1e-12). Returns 0 or -ERANGE when even W = 1e12 falls short. */
static int bisect(const struct teach_params *p, int n, int eff, double target, double *w)
{
	double lo = 1e-12, hi = 1e12, mid;
	int k;

#define F(x) (eff ? teach_efficiency(p, (x), n) : teach_t_para(p, (x), n))
	if (F(hi) < target)
		return -ERANGE;
	if (F(lo) >= target)
		return -ERANGE; /* already there at a vanishing size: no meaningful W */
	for (k = 0; k < 200 && hi / lo > 1 + 1e-13; k++) {
		mid = sqrt(lo * hi);
		if (F(mid) >= target)
			hi = mid;
		else
			lo = mid;
	}
#undef F
	*w = hi;
	return 0;
}

int teach_size(const struct teach_params *p, enum teach_model m, int n, double *w)
{
	double o = teach_overhead(p, 1, n), e = p->e_target;

	switch (m) {
	case TEACH_FIXED:
		*w = 1;
		return 0;
	case TEACH_MEMORY:
		*w = n * p->mem_per_thread;
		return *w > 0 ? 0 : -ERANGE;
	case TEACH_TIME:
		if (p->beta != 0)
			return bisect(p, n, 0, p->t_bound_s, w);
		/* t_s + W t_w / N + o = T */
		*w = (p->t_bound_s - p->t_serial_s - o) * n / p->t_work_s;
		return *w > 0 && isfinite(*w) ? 0 : -ERANGE;
	case TEACH_EFF:
		if (!(e > 0 && e < 1) || n == 1)
			return -ERANGE;  /* E = 1 at N = 1 whatever W */
		if (p->beta != 0)
			return bisect(p, n, 1, e, w);
		/* (t_s + W t_w) = E N (t_s + W t_w / N + o)  =>  W = (E N (t_s + o) - t_s) / (t_w (1 - E)) */
		*w = (e * n * (p->t_serial_s + o) - p->t_serial_s) / (p->t_work_s * (1 - e));
		return *w > 1e-12 && isfinite(*w) ? 0 : -ERANGE;
	}
	return -ERANGE;
}

int teach_scale(const struct teach_params *p, enum teach_model m, int n, int n2, double *v)
{
	double w, w2, den;

	if (teach_size(p, m, n, &w) < 0 || teach_size(p, m, n2, &w2) < 0)
		return -ERANGE;
	if (m == TEACH_TIME) {
		den = 1 - teach_efficiency(p, w2, n2);
		*v = (1 - teach_efficiency(p, w, n)) / den;
	} else {
		den = teach_latency(p, w2, n2);
		*v = teach_latency(p, w, n) / den;
	}
	return den > 0 && isfinite(*v) ? 0 : -ERANGE;
}

int teach_caveat(const struct teach_params *p, int n, int n2)
{
	double w, w2, e, e2;

	if (teach_size(p, TEACH_TIME, n, &w) < 0 || teach_size(p, TEACH_TIME, n2, &w2) < 0)
		return 0;
	e = teach_efficiency(p, w, n);
	e2 = teach_efficiency(p, w2, n2);
	return an_matrix_caveat(e, e2);
}

size_t teach_ns(const struct teach_params *p, int *ns, size_t max)
{
	size_t k = 0;
	int n;

	for (n = 1; n <= p->n_max && k < max; n *= 2)
		ns[k++] = n;
	return k;
}

const char *teach_growth_name(enum teach_growth g)
{
	static const char *const names[] = { "1", "log\xe2\x82\x82 N", "N \xe2\x88\x92 1",
					     "N log\xe2\x82\x82 N" };

	return (unsigned)g < 4 ? names[g] : "?";
}

const char *teach_model_name(enum teach_model m)
{
	static const char *const names[] = { "fixed size", "memory-bound", "time-bound", "E-conserved" };

	return (unsigned)m < 4 ? names[m] : "?";
}

/* "0.02 s", "10 s": a parameter in seconds, 3 significant digits. */
static void secs(char *buf, size_t len, double s)
{
	snprintf(buf, len, "%.3g s", s);
}

char *teach_formula(const struct teach_params *p, char *buf, size_t len)
{
	char ts[32], tw[32], c[32], wb[32] = "";

	secs(ts, sizeof(ts), p->t_serial_s);
	secs(tw, sizeof(tw), p->t_work_s);
	secs(c, sizeof(c), p->c_s);
	if (p->beta != 0)
		snprintf(wb, sizeof(wb), "\xc2\xb7W^%.2g", p->beta);
	snprintf(buf, len,
		 "T_para(W,N) = t_serial + W\xc2\xb7t_work/N + c\xc2\xb7W^\xce\xb2\xc2\xb7g(N)\n"
		 "  = %s + W\xc2\xb7%s/N + %s%s\xc2\xb7g(N)\n"
		 "g(N) = %s for N > 1, g(1) = 0;  \xce\xb2 = %.2g",
		 ts, tw, c, wb, teach_growth_name(p->growth), p->beta);
	return buf;
}

void teach_layout(double w, double h, struct teach_layout *l)
{
	double y, ch;
	int k;

	memset(l, 0, sizeof(*l));
	if (w >= 900 && h >= 560) {
		/* charts in a row over the matrix (2/3) and the panel (1/3) */
		double top = h * 0.48;
		for (k = 0; k < 3; k++)
			l->chart[k] = (struct teach_rect){ k * w / 3, 0, w / 3, top };
		l->matrix = (struct teach_rect){ 0, h * 0.5, w * 0.66, h * 0.5 };
		l->panel = (struct teach_rect){ w * 0.66, h * 0.5, w * 0.34, h * 0.5 };
		return;
	}
	/* a strip with the formula, the charts in a row, a strip with their legend, the matrix */
	l->narrow = 1;
	l->panel = (struct teach_rect){ 0, 0, w, 60 };
	ch = fmax(150, h - 60 - 40 - 280);   /* the matrix keeps 280 px: 5 rows and its key */
	for (k = 0; k < 3; k++)
		l->chart[k] = (struct teach_rect){ k * w / 3, 60, w / 3, ch };
	y = 60 + ch;
	l->legend = (struct teach_rect){ 0, y, w, 40 };
	y += 40;
	l->matrix = (struct teach_rect){ 0, y, w, fmax(h - y, 200) };
}

void teach_window_size(int screen_w, int screen_h, int *w, int *h, int *col_w)
{
	int max_w = screen_w * 9 / 10, max_h = screen_h * 9 / 10;

	/* the slider column: 280 px, narrower on a small screen so the drawing keeps room */
	*col_w = max_w >= 1200 ? 280 : max_w >= 1000 ? 240 : 210;
	*w = max_w - *col_w;
	if (*w > 1200)
		*w = 1200;
	*h = max_h < 820 ? max_h : 820;
	/* under a window manager the title bar and borders come on top: keep 30 px for them */
	if (*h == max_h)
		*h -= 30;
	if (*w < 2 * TEACH_MIN_CHART_W)
		*w = 2 * TEACH_MIN_CHART_W;
	if (*h < 400)
		*h = 400;
}
