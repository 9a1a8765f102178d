/*
 * view_matrix.c — window 8, the upper-triangular scalability matrix of Scale-Graph Fig. 14 from
 * the model's cells, and what a click on a cell shows: the points (runs) of each scaling model
 * at N and N' behind its three values.
 */
#include "view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NS 32

static int build(const struct view_ctx *v, int *ns, size_t *n_ns, struct plot_mcell **cells)
{
	const struct model *m = v->m;
	size_t i, a, b, n;

	n = view_matrix_ns(m, ns, MAX_NS);
	*n_ns = n;
	if (!(*cells = calloc(n * n + 1, sizeof(**cells))))
		return -ENOMEM;
	for (i = 0; i < n * n; i++)
		(*cells)[i].v[0] = (*cells)[i].v[1] = (*cells)[i].v[2] = NAN;
	for (i = 0; i < m->n_cells; i++) {
		const struct model_cell *c = &m->cells[i];
		struct plot_mcell *pc;
		for (a = 0; a < n && ns[a] != c->n; a++)
			;
		for (b = 0; b < n && ns[b] != c->n2; b++)
			;
		if (a == n || b == n)
			continue;
		pc = &(*cells)[a * n + b];
		pc->v[0] = c->time_bound.why ? NAN : c->time_bound.v;
		pc->v[1] = c->e_conserved.why ? NAN : c->e_conserved.v;
		pc->v[2] = c->memory_bound.why ? NAN : c->memory_bound.v;
		pc->caveat = c->caveat;
		for (int k = 0; k < 3; k++)
			pc->off[k] = c->off_target[k] && isfinite(pc->v[k]);
	}
	return 0;
}

/* The key under the matrix: the marks that occur, and why each kind of n/a cell is empty (the
 * analyzer's reasons, once each, at most four). */
static void matrix_note(char *buf, size_t len, const struct model *m, const struct plot_mcell *cells,
			size_t n_cells)
{
	int caveat = 0, off = 0, negative = 0;
	const char *said[4];
	size_t n_said = 0, used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n_cells; i++)
		for (int k = 0; k < 3; k++) {
			caveat |= cells[i].caveat;
			off |= cells[i].off[k];
			negative |= cells[i].v[k] < 0;
		}
#define NOTE(...) (used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__))
	if (caveat)
		NOTE("* time-bound value suspect: E and E' both low and close (the paper's caveat, "
		     "\xc2\xa7" "6.4)\n");
	if (off)
		NOTE("~ the size search missed the model's target at N or N' (e.g. the E target cannot "
		     "be reached there): the value pairs the closest sizes it found\n");
	if (negative)
		NOTE("below 0: L(W,N) < 0 at one of the two sizes (E > 1 there: check how T_seq was "
		     "measured); not a scalability value\n");
	for (size_t i = 0; i < m->n_cells; i++) {
		const struct model_fig *f[3] = { &m->cells[i].time_bound, &m->cells[i].e_conserved,
						 &m->cells[i].memory_bound };
		for (int k = 0; k < 3; k++) {
			size_t s = 0;
			while (f[k]->why && s < n_said && strcmp(said[s], f[k]->why) != 0)
				s++;
			if (!f[k]->why || s < n_said || n_said == 4)
				continue;
			said[n_said++] = f[k]->why;
			NOTE("n/a: %s\n", f[k]->why);
		}
	}
#undef NOTE
	if (used > 0 && used < len)
		buf[used - 1] = '\0';   /* no trailing newline */
}

static void fill_matrix(struct plot_matrix *pm, const struct view_ctx *v, const char *title,
			const int *ns, size_t n, const struct plot_mcell *cells, char *note, size_t note_len)
{
	memset(pm, 0, sizeof(*pm));
	pm->title = title;
	pm->ns = ns;
	pm->n_ns = n;
	pm->cells = cells;
	pm->value_names[0] = "time-bound";
	pm->value_names[1] = "E-conserved";
	pm->value_names[2] = "memory-bound";
	matrix_note(note, note_len, v->m, cells, n * n);
	pm->note = note[0] ? note : NULL;
	pm->sel_i = v->mat_sel_i;
	pm->sel_j = v->mat_sel_j;
}

static struct plot_rect matrix_rect(double w, double h)
{
	return (struct plot_rect){ 0, 0, w, h - 110 };
}

/* The points behind a selected cell, one line per model. */
static void draw_selection(cairo_t *cr, const struct view_ctx *v, const int *ns, double w, double h)
{
	static const char *const models[3] = { "time-bound", "e-conserved", "memory-bound" };
	char line[256], t1[32], t2[32], w1[32], w2[32];
	double y = h - 80;
	int k;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	if (v->mat_sel_i < 0) {
		plot_text(cr, 20, y, PLOT_LEFT, "click a cell to see the runs behind it");
		return;
	}
	snprintf(line, sizeof(line), "N = %d \xe2\x86\x92 N' = %d:", ns[v->mat_sel_i], ns[v->mat_sel_j]);
	plot_text(cr, 20, y, PLOT_LEFT, line);
	plot_set_font(cr, PLOT_FONT_SMALL);
	for (k = 0; k < 3; k++) {
		const struct model_point *p = model_point_at(v->m, models[k], ns[v->mat_sel_i]);
		const struct model_point *q = model_point_at(v->m, models[k], ns[v->mat_sel_j]);
		y += 17;
		if (!p || !q) {
			snprintf(line, sizeof(line), "%s: no run at %s", models[k], !p ? "N" : "N'");
		} else {
			plot_format_si(w1, sizeof(w1), p->w);
			plot_format_si(w2, sizeof(w2), q->w);
			plot_format_seconds(t1, sizeof(t1), p->fig[MODEL_L].v);
			plot_format_seconds(t2, sizeof(t2), q->fig[MODEL_L].v);
			snprintf(line, sizeof(line), "%s: W = %s, E = %.3f, L = %s   |   W' = %s, E' = %.3f, L' = %s",
				 models[k], w1, p->fig[MODEL_E].v, p->fig[MODEL_L].why ? "n/a" : t1, w2,
				 q->fig[MODEL_E].v, q->fig[MODEL_L].why ? "n/a" : t2);
		}
		plot_text(cr, 36, y, PLOT_LEFT, line);
	}
	(void)w;
}

int view_matrix_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	struct plot_mcell *cells = NULL;
	struct plot_matrix pm;
	char title[256], note[1600];
	int ns[MAX_NS];
	size_t n;
	int rc;

	view_title(title, sizeof(title), v, "Scalability matrix");
	if ((rc = build(v, ns, &n, &cells)) < 0)
		return rc;
	if (n < 2) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, w / 2, 20, PLOT_CENTER, title);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, w / 2, h / 2, PLOT_CENTER, "no matrix in this experiment (needs runs at two N or more)");
		goto out;
	}
	fill_matrix(&pm, v, title, ns, n, cells, note, sizeof(note));
	if ((rc = plot_matrix_draw(cr, matrix_rect(w, h), &pm)) < 0)
		goto out;
	draw_selection(cr, v, ns, w, h);
out:
	free(cells);
	return rc;
}

int view_matrix_hit(const struct view_ctx *v, double w, double h, double x, double y, int *i, int *j)
{
	struct plot_mcell *cells = NULL;
	struct plot_matrix pm;
	int ns[MAX_NS];
	char note[8];
	size_t n;
	int hit = 0;

	if (build(v, ns, &n, &cells) < 0)
		return 0;
	if (n >= 2) {
		fill_matrix(&pm, v, "", ns, n, cells, note, sizeof(note));
		hit = plot_matrix_hit(matrix_rect(w, h), &pm, x, y, i, j);
	}
	free(cells);
	return hit;
}
