/*
 * view_matrix.h — window 8's state beyond the selected cell (view_ctx.mat_sel_i/j): which
 * experiment that cell is of, and the value under the pointer; and hit testing down to the value.
 * The matrix window (win_matrix.c) owns the state and hands it to the drawing (view_matrix.c)
 * once (view_matrix_set_state: one matrix window per application, as one timeline). No X.
 */
#ifndef GUI_VIEW_MATRIX_H
#define GUI_VIEW_MATRIX_H

#include "view.h"

struct view_matrix_state {
	int sel_exp;                 /* experiment of the selected cell: 0 the one opened, k the
					k-th compared */
	int hover_exp, hover_i, hover_j, hover_k;   /* the value under the pointer (indices into
						       view_matrix_ns, k: 0 time-bound, 1
						       E-conserved, 2 memory-bound); hover_k < 0:
						       none */
	double hover_x, hover_y;     /* where the pointer is: the tip is drawn beside it */
};

/* The state the matrix drawing reads (the window's; NULL, the default: no selection of a
 * compared experiment, no hover — the export path). */
void view_matrix_set_state(struct view_matrix_state *st);

/* What lies under (x, y) in a matrix view of size w x h. */
struct view_matrix_hit {
	int exp, i, j, k;            /* experiment, row, column (i < j), value 0..2 */
	int n, n2;                   /* the cell's N and N' */
};
/* 1 when (x, y) is on a cell, with *out filled; else 0. */
int view_matrix_hit_value(const struct view_ctx *v, double w, double h, double x, double y,
			  struct view_matrix_hit *out);
/* The experiments the matrix window shows (1 + compared ones), and the name of experiment k. */
int view_matrix_n_exps(const struct model *m);
const char *view_matrix_exp_name(const struct model *m, int k);
/* The names of the three values, "time-bound", "E-conserved", "memory-bound". */
extern const char *const view_matrix_value_names[3];
/* Value k of cell c (NAN when unavailable) and its marks ("*~", "~", ""). */
double view_matrix_value(const struct model_cell *c, int k, const struct model_fig **fig);
const char *view_matrix_marks(const struct model_cell *c, int k);
/* The value as the cell shows it: "0.78*~", ">1.00" for a value above 1 that rounds to 1.00
 * (never read as 1), "n/a". */
void view_matrix_format(char *buf, size_t len, double v, const char *marks);
/* How value v with marks is painted, in words ("hatched: suspect (* caveat)", "purple: latency
 * does not grow", ...): the status line and the tests say what the drawing shows. */
void view_matrix_paint_name(double v, const char *marks, char *buf, size_t len);

#endif /* GUI_VIEW_MATRIX_H */
