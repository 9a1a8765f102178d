/*
 * teach.h — the teaching model behind window 11: a made-up program whose parallel time follows
 * METRICS.md exactly, so students can move sliders and watch speedup, efficiency, the average
 * latency L(W,N) and the t/E/m scalability matrix respond. No X.
 *
 * The program: T_seq(W) = t_serial + W * t_work (W relative to a base size 1), and on N threads
 *     T_para(W, N) = t_serial + W * t_work / N + o(N),   o(N) = c * g(N),
 * with g(1) = 0 and g = 1, log2 N, N - 1 or N log2 N (constant, log N, N, N log N growth), and
 * c = c0 * W^beta: the overhead may grow with the problem too (beta = 0.5: communication that
 * grows like a surface while work grows like a volume). Hence
 *     L(W, N) = T_para - T_seq / N = t_serial (1 - 1/N) + o(N) = T_para (1 - E),  identity (10).
 * With beta = 0, L does not depend on W and all three models give the same scale; beta > 0 is
 * what makes them differ.
 * Problem growth per scaling model: fixed W = 1; memory-bound W = N * m (m = memory per thread
 * in units of the base problem's memory); time-bound W with T_para = T; E-conserved W with
 * E = E_target (closed form for beta = 0, bisection otherwise; unreachable sizes are reported,
 * not invented).
 */
#ifndef GUI_TEACH_H
#define GUI_TEACH_H

#include <stddef.h>

enum teach_growth { TEACH_CONST, TEACH_LOGN, TEACH_N, TEACH_NLOGN };
enum teach_model { TEACH_FIXED, TEACH_MEMORY, TEACH_TIME, TEACH_EFF };

struct teach_params {
	double t_serial_s;       /* serial part, seconds */
	double t_work_s;         /* parallel work of the base size, seconds */
	enum teach_growth growth;
	double c_s;              /* overhead coefficient c0, seconds */
	double beta;             /* overhead grows as W^beta, 0 <= beta < 1 */
	enum teach_model model;  /* the model the curves follow */
	double e_target;         /* E-conserved target, 0 < E < 1 */
	double t_bound_s;        /* time-bound T, seconds */
	double mem_per_thread;   /* memory-bound m: base-problem memories per thread */
	int n_max;               /* curves and matrix over N = 1, 2, 4, ..., n_max */
};

/* Defaults chosen so all four models have sizes up to N = 64. */
void teach_defaults(struct teach_params *p);

double teach_overhead(const struct teach_params *p, double w, int n); /* o(N), s */
double teach_t_seq(const struct teach_params *p, double w);          /* s */
double teach_t_para(const struct teach_params *p, double w, int n);  /* s */
double teach_efficiency(const struct teach_params *p, double w, int n);
double teach_speedup(const struct teach_params *p, double w, int n);
double teach_latency(const struct teach_params *p, double w, int n); /* L(W,N), s */

/* The size W the model picks at N. Returns 0, or -ERANGE when no W > 0 satisfies it (E
 * target at or above what N allows, time bound below the overhead). */
int teach_size(const struct teach_params *p, enum teach_model m, int n, double *w);

/* scale(N, N') for one model: time-bound (1-E)/(1-E'), the others L(W,N)/L(W',N').
 * Returns 0 or -ERANGE (a size unreachable, or L(W',N') = 0). */
int teach_scale(const struct teach_params *p, enum teach_model m, int n, int n2, double *v);
/* 1 when the time-bound reading is suspect (paper §6.4): E, E' < 0.5 and |E - E'| < 0.1. */
int teach_caveat(const struct teach_params *p, int n, int n2);

/* N = 1, 2, 4, ... up to p->n_max into ns (at most max); returns the count. */
size_t teach_ns(const struct teach_params *p, int *ns, size_t max);

/* g(N) as the window, the formula and Help write it: "1", "log₂ N", "N − 1", "N log₂ N"
 * (METRICS.md: g(1) = 0, so L(W,1) = 0 whatever the growth). */
const char *teach_growth_name(enum teach_growth g);
const char *teach_model_name(enum teach_model m);

/* The model's formula with the parameters' values, one line each into buf ('\n' separated):
 * the general form, then every term the sliders set: the serial time, the work, and the
 * overhead c·W^β·g(N) (W^β whenever β ≠ 0), then g(N) itself. Returns buf. */
char *teach_formula(const struct teach_params *p, char *buf, size_t len);

/* Layout of window 11's drawing (view_teach.c) for a w x h drawing, no X and no cairo so the
 * tests check it: the three charts (speedup, efficiency, L), the matrix, the panel with the
 * formula, and the charts' shared legend. Wide drawings put the charts in one row over the
 * matrix and the panel (formula, legend and sizes: legend.h = 0); narrow ones (a 800x600
 * screen) stack a formula strip, the charts (short titles), a legend strip and the matrix,
 * so no chart gets narrower than TEACH_MIN_CHART_W and the matrix keeps its 200 px. */
struct teach_rect {
	double x, y, w, h;
};
struct teach_layout {
	struct teach_rect chart[3], matrix, panel, legend;
	int narrow;
};
#define TEACH_MIN_CHART_W 160
void teach_layout(double w, double h, struct teach_layout *l);

/* The teaching window's size on a screen of screen_w x screen_h pixels: the drawing w x h
 * and the slider column's width col_w, together at most 90 % of the screen (and no larger
 * than the 1200x820 drawing wants). */
void teach_window_size(int screen_w, int screen_h, int *w, int *h, int *col_w);

#endif /* GUI_TEACH_H */
