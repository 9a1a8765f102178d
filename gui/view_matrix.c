/*
 * view_matrix.c — window 8, the upper-triangular scalability matrix of Scale-Graph Fig. 14, one
 * per experiment (compared experiments side by side, each with its p_x), from the model's cells,
 * which are the analyzer's (model_matrix.c). Each cell holds time-bound / E-conserved /
 * memory-bound, coloured by value: 0 .. 1 orange to purple (latency grows .. does not grow),
 * above 1 green (the latency fell), and a value the analyzer flags (* the paper's caveat, ~ off
 * target) muted and hatched, never in the confident colour of a clean value. Cells take the
 * window's space. Under the key, the selected cell's formula lines (its full readout and runs are
 * in the window's widgets, win_matrix.c); over the value under the pointer, a tip.
 */
#include "view_matrix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NS 32
#define MAX_EXPS 4
#define GRID_TOP 86.0     /* title, panel header, column header */
#define ROW_HEAD 64.0     /* width of the row header ("N (from)", the N) */
#define KEY_LINE 18.0
#define NOTE_LINE 14.0
#define READ_LINE 15.0
#define READ_LINES 5      /* the readout's reserved lines: header, three values, a hint */
#define MAX_NOTES 4

const char *const view_matrix_value_names[3] = { "time-bound", "E-conserved", "memory-bound" };

static struct view_matrix_state *state;

void view_matrix_set_state(struct view_matrix_state *st)
{
	state = st;
}

int view_matrix_n_exps(const struct model *m)
{
	int n = 1 + (int)m->n_exps;

	return n > MAX_EXPS ? MAX_EXPS : n;
}

const char *view_matrix_exp_name(const struct model *m, int k)
{
	if (k == 0)
		return m->name ? m->name : "experiment";
	return (size_t)k <= m->n_exps ? m->exps[k - 1] : "?";
}

double view_matrix_value(const struct model_cell *c, int k, const struct model_fig **fig)
{
	const struct model_fig *f = k == 0 ? &c->time_bound : k == 1 ? &c->e_conserved
					  : &c->memory_bound;
	if (fig)
		*fig = f;
	return f->why ? NAN : f->v;
}

const char *view_matrix_marks(const struct model_cell *c, int k)
{
	int star = k == 0 && c->caveat, tilde = c->off_target[k];

	if (!isfinite(view_matrix_value(c, k, NULL)))
		return "";
	return star && tilde ? "*~" : star ? "*" : tilde ? "~" : "";
}

/* The three kinds of paint, shared by drawing, key, status line and tests. */
enum paint { PAINT_NA, PAINT_SCALE, PAINT_ABOVE_1, PAINT_FLAGGED, PAINT_NEGATIVE };

static enum paint paint_of(double v, const char *marks)
{
	if (!isfinite(v))
		return PAINT_NA;
	if (v < 0)
		return PAINT_NEGATIVE;
	if (marks[0])
		return PAINT_FLAGGED;
	return v > 1 ? PAINT_ABOVE_1 : PAINT_SCALE;
}

void view_matrix_paint_name(double v, const char *marks, char *buf, size_t len)
{
	switch (paint_of(v, marks)) {
	case PAINT_NA:
		snprintf(buf, len, "grey: n/a");
		break;
	case PAINT_NEGATIVE:
		snprintf(buf, len, "hatched grey: below 0, not a scalability value");
		break;
	case PAINT_FLAGGED:
		snprintf(buf, len, "hatched, muted: suspect (%s%s%s)",
			 strchr(marks, '*') ? "* the paper's caveat" : "",
			 strchr(marks, '*') && strchr(marks, '~') ? ", " : "",
			 strchr(marks, '~') ? "~ off target" : "");
		break;
	case PAINT_ABOVE_1:
		snprintf(buf, len, "green: above 1, the latency fell from N to N'");
		break;
	case PAINT_SCALE:
		snprintf(buf, len, "%s", v >= 0.75 ? "purple: latency grows little" :
			 v >= 0.4 ? "pale: latency grows" : "orange: latency grows much");
		break;
	}
}

/* Background of a value: the diverging ramp for 0 .. 1, green above 1, grey otherwise; a
 * flagged value's colour is taken most of the way to grey (and hatched by the caller). */
static void paint_rgb(enum paint p, double v, double rgb[3])
{
	static const double green[3] = { 0.60, 0.84, 0.58 }, grey[3] = { 0.86, 0.86, 0.86 };
	int k;

	switch (p) {
	case PAINT_NA:
	case PAINT_NEGATIVE:
		memcpy(rgb, grey, sizeof(grey));
		break;
	case PAINT_ABOVE_1:
		memcpy(rgb, green, sizeof(green));
		break;
	case PAINT_SCALE:
	case PAINT_FLAGGED:
		if (v > 1)
			memcpy(rgb, green, sizeof(green));
		else
			plot_scale_rgb(v, rgb);
		if (p == PAINT_FLAGGED)
			for (k = 0; k < 3; k++)
				rgb[k] = rgb[k] * 0.3 + 0.9 * 0.7;
		break;
	}
}

static void hatch(cairo_t *cr, double x, double y, double w, double h)
{
	double d;

	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	cairo_set_source_rgba(cr, 0.35, 0.35, 0.35, 0.55);
	cairo_set_line_width(cr, 1.2);
	for (d = -h; d < w; d += 7) {
		cairo_move_to(cr, x + d, y + h);
		cairo_line_to(cr, x + d + h, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

void view_matrix_format(char *buf, size_t len, double v, const char *marks)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (v > 1 && v < 1.005)
		snprintf(buf, len, ">1.00%s", marks);
	else
		snprintf(buf, len, "%.2f%s", v, marks);
}

/* Cuts buf to max_w, ending it with an ellipsis; never inside a UTF-8 sequence (the titles and
 * readout lines hold arrows and dashes). */
static void cut_to(cairo_t *cr, char *buf, double max_w)
{
	size_t n = strlen(buf);

	if (plot_text_width(cr, buf) <= max_w || n < 3)
		return;
	n -= 3;   /* the ellipsis (3 bytes) and its NUL end at most where the string did */
	for (;;) {
		while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
			n--;   /* back to the first byte of the character */
		memcpy(buf + n, "\xe2\x80\xa6", 4);
		if (n == 0 || plot_text_width(cr, buf) <= max_w)
			return;
		n--;
	}
}

/* ---- layout ---------------------------------------------------------------------------- */

struct geom {
	int n_exp;
	size_t n;                    /* distinct N (union over the experiments) */
	int ns[MAX_NS];
	double panel_x[MAX_EXPS], panel_w;
	double gx[MAX_EXPS];         /* grid left (first column) of each panel */
	double y0, cw, ch;           /* grid top, cell size */
	double key_y;                /* baseline of the key's first line */
	double read_y;               /* baseline of the readout's first line */
	int n_key_lines, n_notes;
};

/* Items of the colour key, each drawn as swatch + text; laid out left to right, wrapping. */
static const char *const key_items[] = {
	"latency grows (0) .. does not grow (1)",
	"above 1: the latency fell",
	"* ~ flagged: suspect, see below",
	"n/a",
};
#define N_KEY_ITEMS (sizeof(key_items) / sizeof(key_items[0]))
#define RAMP_W 84.0
#define SWATCH_W 22.0

static double key_item_w(cairo_t *cr, size_t i)
{
	return (i == 0 ? RAMP_W : SWATCH_W) + 6 + plot_text_width(cr, key_items[i]) + 18;
}

static const char each_cell[] = "each cell: time-bound / E-conserved / memory-bound, each "
				"scale(N, N') = L(W,N) / L(W',N')";

/* Lines of the key: what a cell holds, then the swatches as they wrap. */
static int key_lines(cairo_t *cr, double w)
{
	double x;
	int lines = 2;
	size_t i;

	plot_set_font(cr, PLOT_FONT_SMALL);
	x = 20 + plot_text_width(cr, "key: ");
	for (i = 0; i < N_KEY_ITEMS; i++) {
		double iw = key_item_w(cr, i);
		if (x + iw > w - 10 && i > 0) {
			lines++;
			x = 20;
		}
		x += iw;
	}
	return lines;
}

/* The notes under the key: one line each (cut to the width), at most MAX_NOTES. */
static int notes(const struct model *m, const char **out)
{
	int n = 0, caveat = 0, off = 0, negative = 0;
	size_t i;
	int k;

	for (i = 0; i < m->n_cells; i++)
		for (k = 0; k < 3; k++) {
			const struct model_cell *c = &m->cells[i];
			double v = view_matrix_value(c, k, NULL);
			if (!isfinite(v))
				continue;
			caveat |= k == 0 && c->caveat;
			off |= c->off_target[k];
			negative |= v < 0;
		}
	if (caveat)
		out[n++] = "* the paper's caveat (\xc2\xa7" "6.4): E and E' both low, so the time-bound "
			   "value is near 1 whatever the latency does (it overestimates scalability)";
	if (off)
		out[n++] = "~ off target: the size search missed the model's target at N or N'; the "
			   "value pairs the closest sizes it found";
	if (negative)
		out[n++] = "below 0: L < 0 at one of the two sizes (E > 1 there: check how T_seq was "
			   "measured); not a scalability value";
	/* why values are n/a, the analyzer's reasons, once each */
	for (i = 0; i < m->n_cells && n < MAX_NOTES; i++)
		for (k = 0; k < 3 && n < MAX_NOTES; k++) {
			const struct model_fig *f;
			int s;
			view_matrix_value(&m->cells[i], k, &f);
			if (!f->why)
				continue;
			for (s = 0; s < n && strcmp(out[s], f->why) != 0; s++)
				;
			if (s == n)
				out[n++] = f->why;
		}
	return n;
}

/* Lines the readout under the key takes: the window has its readout in widgets under the drawing
 * (state set): one line; a drawing alone (an export) with a cell selected: the formula of each
 * value too. */
static int readout_lines(const struct view_ctx *v)
{
	return !state && v->mat_sel_i >= 0 ? READ_LINES : 1;
}

static int layout(const struct view_ctx *v, double w, double h, struct geom *g)
{
	const struct model *m = v->m;
	cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(scratch);
	const char *nt[MAX_NOTES];
	double grid_h, grid_w, used;
	int e;

	memset(g, 0, sizeof(*g));
	g->n = view_matrix_ns(m, g->ns, MAX_NS);
	g->n_exp = view_matrix_n_exps(m);
	g->n_key_lines = key_lines(cr, w);
	g->n_notes = notes(m, nt);
	cairo_destroy(cr);
	cairo_surface_destroy(scratch);
	if (g->n < 2)
		return 0;
	g->panel_w = (w - 20) / g->n_exp;
	grid_h = h - GRID_TOP - 14 - KEY_LINE * g->n_key_lines - NOTE_LINE * g->n_notes -
		 READ_LINE * readout_lines(v) - 10;
	grid_w = g->panel_w - ROW_HEAD - 16;
	/* cells take the space, up to a size where three values are still read as one cell */
	g->cw = fmin(grid_w / (double)(g->n - 1), 520);
	g->ch = fmin(fmax(grid_h, 40) / (double)(g->n - 1), 300);
	used = ROW_HEAD + g->cw * (double)(g->n - 1);
	for (e = 0; e < g->n_exp; e++) {
		g->panel_x[e] = 10 + g->panel_w * e;
		g->gx[e] = g->panel_x[e] + (g->panel_w - used) / 2 + ROW_HEAD;
	}
	g->y0 = GRID_TOP;
	g->key_y = g->y0 + g->ch * (double)(g->n - 1) + 22;
	g->read_y = g->key_y + KEY_LINE * g->n_key_lines + NOTE_LINE * g->n_notes + 10;
	return 1;
}

int view_matrix_hit_value(const struct view_ctx *v, double w, double h, double x, double y,
			  struct view_matrix_hit *out)
{
	struct geom g;
	int e, col, row;
	double cx;

	if (!layout(v, w, h, &g))
		return 0;
	for (e = 0; e < g.n_exp; e++) {
		if (x < g.gx[e] || y < g.y0)
			continue;
		col = (int)((x - g.gx[e]) / g.cw) + 1;
		row = (int)((y - g.y0) / g.ch);
		if (col >= (int)g.n || row >= (int)g.n - 1 || row >= col)
			continue;
		if (!model_cell_find(v->m, e, g.ns[row], g.ns[col]))
			continue;
		cx = x - g.gx[e] - g.cw * (col - 1);
		out->exp = e;
		out->i = row;
		out->j = col;
		out->k = (int)(cx / (g.cw / 3));
		if (out->k > 2)
			out->k = 2;
		out->n = g.ns[row];
		out->n2 = g.ns[col];
		return 1;
	}
	return 0;
}

int view_matrix_hit(const struct view_ctx *v, double w, double h, double x, double y, int *i, int *j)
{
	struct view_matrix_hit hit;

	if (!view_matrix_hit_value(v, w, h, x, y, &hit))
		return 0;
	*i = hit.i;
	*j = hit.j;
	return 1;
}

/* ---- drawing --------------------------------------------------------------------------- */

/* p_x of experiment e: the analyzer's (model_method.px_n, an_exp_px: the N of smallest T_para)
 * of its fixed-size methods, the problem-size bound of METRICS.md (1). */
static void px_text(const struct model *m, int e, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < m->n_methods && used < len; i++) {
		const struct model_method *me = &m->methods[i];
		const char *name = strchr(me->name, ':');
		if (me->exp != e || !model_method_fixed_size(me) || me->px_n <= 0)
			continue;
		name = e > 0 && name ? name + 1 : me->name;
		used += (size_t)snprintf(buf + used, len - used, "%sp_x = %d (%s)", used ? ", " : "",
					 me->px_n, name);
	}
	if (!buf[0])
		snprintf(buf, len, "p_x: no fixed-size method");
}

static void draw_value(cairo_t *cr, const struct model_cell *c, int k, double x, double y,
		       double sw, double ch, int hovered)
{
	const char *marks = view_matrix_marks(c, k);
	double v = view_matrix_value(c, k, NULL), rgb[3], fs;
	enum paint p = paint_of(v, marks);
	char buf[32];

	paint_rgb(p, v, rgb);
	cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
	cairo_rectangle(cr, x, y, sw, ch);
	cairo_fill(cr);
	if (p == PAINT_FLAGGED || p == PAINT_NEGATIVE)
		hatch(cr, x, y, sw, ch);
	if (hovered) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		cairo_set_line_width(cr, 1.5);
		cairo_rectangle(cr, x + 2, y + 2, sw - 4, ch - 4);
		cairo_stroke(cr);
	}
	view_matrix_format(buf, sizeof(buf), v, marks);
	plot_set_font(cr, PLOT_FONT_SMALL);
	fs = fmax(9, fmin(fmin(sw / 4.0, ch / 3.2), 24));
	cairo_set_font_size(cr, fs);
	while (fs > 7 && plot_text_width(cr, buf) > sw - 4)
		cairo_set_font_size(cr, --fs);
	if (plot_text_width(cr, buf) > sw - 2)
		return;   /* too narrow to read (many compared experiments): the colour, the tip */
	if (p == PAINT_FLAGGED || p == PAINT_NEGATIVE) {
		/* a white halo under the text: readable over the hatching */
		double tw = plot_text_width(cr, buf);
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, x + sw / 2 - tw / 2 - 2, y + ch / 2 - fs * 0.75, tw + 4, fs * 1.1);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	} else {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	}
	plot_text(cr, x + sw / 2, y + ch / 2 + fs * 0.35, PLOT_CENTER, buf);
}

static void draw_panel(cairo_t *cr, const struct view_ctx *v, const struct geom *g, int e)
{
	const struct view_matrix_state *st = state;
	int sel_exp = st ? st->sel_exp : 0;
	double px = g->panel_x[e], gx = g->gx[e];
	char buf[256], pxb[200];
	size_t i, j;
	int k;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	px_text(v->m, e, pxb, sizeof(pxb));
	if (g->n_exp > 1)
		snprintf(buf, sizeof(buf), "%s: %s", view_matrix_exp_name(v->m, e), pxb);
	else
		snprintf(buf, sizeof(buf), "%s", pxb);
	cut_to(cr, buf, g->panel_w - 10);
	plot_text(cr, px + g->panel_w / 2, 44, PLOT_CENTER, buf);
	plot_set_font(cr, PLOT_FONT_SMALL);
	plot_text(cr, gx + g->cw * (double)(g->n - 1) / 2, 62, PLOT_CENTER, "N' (to)");
	plot_text(cr, gx - 8, 78, PLOT_RIGHT, "N (from)");
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (j = 1; j < g->n; j++) {
		snprintf(buf, sizeof(buf), "%d", g->ns[j]);
		plot_text(cr, gx + g->cw * ((double)j - 0.5), 80, PLOT_CENTER, buf);
	}
	for (i = 0; i + 1 < g->n; i++) {
		double y = g->y0 + g->ch * (double)i;
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		snprintf(buf, sizeof(buf), "%d", g->ns[i]);
		plot_text(cr, gx - 10, y + g->ch / 2 + 4, PLOT_RIGHT, buf);
		for (j = i + 1; j < g->n; j++) {
			const struct model_cell *c = model_cell_find(v->m, e, g->ns[i], g->ns[j]);
			double x = gx + g->cw * (double)(j - 1), sw = g->cw / 3;
			int sel = e == sel_exp && (int)i == v->mat_sel_i && (int)j == v->mat_sel_j;
			if (!c)
				continue;   /* N or N' not in this experiment (compare): no cell */
			{
				for (k = 0; k < 3; k++)
					draw_value(cr, c, k, x + sw * k, y, sw, g->ch,
						   st && st->hover_k == k && st->hover_exp == e &&
						   st->hover_i == (int)i && st->hover_j == (int)j);
				cairo_set_source_rgb(cr, 1, 1, 1);
				cairo_set_line_width(cr, 1);
				for (k = 1; k < 3; k++) {
					cairo_move_to(cr, x + sw * k + 0.5, y);
					cairo_line_to(cr, x + sw * k + 0.5, y + g->ch);
				}
				cairo_stroke(cr);
			}
			cairo_set_source_rgb(cr, sel ? 0.05 : 0.45, sel ? 0.05 : 0.45, sel ? 0.05 : 0.45);
			cairo_set_line_width(cr, sel ? 3.5 : 1);
			cairo_rectangle(cr, x + 0.5, y + 0.5, g->cw - 1, g->ch - 1);
			cairo_stroke(cr);
		}
	}
}

static void draw_key(cairo_t *cr, const struct view_ctx *v, const struct geom *g, double w)
{
	const char *nt[MAX_NOTES];
	double x = 20, y = g->key_y, rgb[3];
	size_t i;
	int k, n;

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_SMALL);
	plot_text(cr, x, y, PLOT_LEFT, each_cell);
	y += KEY_LINE;
	x += plot_text(cr, x, y, PLOT_LEFT, "key: ");
	for (i = 0; i < N_KEY_ITEMS; i++) {
		double iw = key_item_w(cr, i), sx;
		if (x + iw > w - 10 && i > 0) {
			y += KEY_LINE;
			x = 20;
		}
		sx = x;
		if (i == 0) {
			for (k = 0; k <= 20; k++) {
				plot_scale_rgb(k / 20.0, rgb);
				cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
				cairo_rectangle(cr, sx + k * RAMP_W / 21, y - 11, RAMP_W / 21 + 0.5, 14);
				cairo_fill(cr);
			}
			sx += RAMP_W;
		} else {
			enum paint p = i == 1 ? PAINT_ABOVE_1 : i == 2 ? PAINT_FLAGGED : PAINT_NA;
			paint_rgb(p, 0.9, rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_rectangle(cr, sx, y - 11, SWATCH_W, 14);
			cairo_fill(cr);
			if (p == PAINT_FLAGGED)
				hatch(cr, sx, y - 11, SWATCH_W, 14);
			sx += SWATCH_W;
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_text(cr, sx + 6, y, PLOT_LEFT, key_items[i]);
		x += iw;
	}
	/* what the three values of a cell are, after the key */
	n = notes(v->m, nt);
	y = g->key_y + KEY_LINE * g->n_key_lines - 2;
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	for (k = 0; k < n; k++) {
		char buf[400];
		snprintf(buf, sizeof(buf), "%s%s", nt[k][0] == '*' || nt[k][0] == '~' ||
			 !strncmp(nt[k], "below", 5) ? "" : "n/a: ", nt[k]);
		cut_to(cr, buf, w - 40);
		plot_text(cr, 20, y + NOTE_LINE * k, PLOT_LEFT, buf);
	}
}

/* First line of s into buf. */
static void first_line(char *buf, size_t len, const char *s)
{
	size_t n = strcspn(s, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}


/* The selected cell's formula lines (the readout widgets below the drawing have the rest). */
static void draw_readout(cairo_t *cr, const struct view_ctx *v, const struct geom *g, double w)
{
	int e = state ? state->sel_exp : 0, k;
	const struct model_cell *c = NULL;
	double y = g->read_y;
	char line[600], part[500];

	if (v->mat_sel_i >= 0 && v->mat_sel_j > v->mat_sel_i && (size_t)v->mat_sel_j < g->n)
		c = model_cell_find(v->m, e, g->ns[v->mat_sel_i], g->ns[v->mat_sel_j]);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	if (!c) {
		snprintf(line, sizeof(line), "click a cell to see the operands of its three values "
			 "and the runs behind them");
		cut_to(cr, line, w - 40);
		plot_text(cr, 20, y, PLOT_LEFT, line);
		return;
	}
	snprintf(line, sizeof(line), "N = %d \xe2\x86\x92 N' = %d%s%s%s", c->n, c->n2,
		 g->n_exp > 1 ? " of " : "", g->n_exp > 1 ? view_matrix_exp_name(v->m, e) : "",
		 state ? " selected: the operands of its values and the runs behind them are "
		 "below" : ":");
	cut_to(cr, line, w - 40);
	plot_text(cr, 20, y, PLOT_LEFT, line);
	if (readout_lines(v) == 1)
		return;
	plot_set_font(cr, PLOT_FONT_SMALL);
	for (k = 0; k < 3; k++) {
		y += READ_LINE;
		if (c->explain[k]) {
			first_line(line, sizeof(line), c->explain[k]);
		} else {
			const struct model_fig *f;
			double val = view_matrix_value(c, k, &f);
			view_matrix_format(part, sizeof(part), val, view_matrix_marks(c, k));
			snprintf(line, sizeof(line), "%s  %s%s%s", view_matrix_value_names[k], part,
				 f->why ? ": " : "", f->why ? f->why : "");
		}
		cut_to(cr, line, w - 40);
		plot_text(cr, 28, y, PLOT_LEFT, line);
	}
	y += READ_LINE;
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	plot_text(cr, 28, y, PLOT_LEFT, c->explain[0] ?
		  "every operand and run below: double-click a run to open it in the timeline" :
		  "a CSV experiment has the values only: open the store for their operands and runs");
}

/* The tip over the value under the pointer: what it is, how it was computed, how it is painted. */
static void draw_tip(cairo_t *cr, const struct view_ctx *v, const struct geom *g, double w, double h)
{
	const struct view_matrix_state *st = state;
	const struct model_cell *c;
	char lines[4][400], paint[160], val[32];
	double tw = 0, x, y, lh = 15;
	int k, n = 0;

	if (!st || st->hover_k < 0 || st->hover_k > 2 || (size_t)st->hover_j >= g->n ||
	    st->hover_i < 0 ||
	    !(c = model_cell_find(v->m, st->hover_exp, g->ns[st->hover_i], g->ns[st->hover_j])))
		return;
	k = st->hover_k;
	view_matrix_format(val, sizeof(val), view_matrix_value(c, k, NULL), view_matrix_marks(c, k));
	snprintf(lines[n++], sizeof(lines[0]), "%s  N = %d \xe2\x86\x92 N' = %d:  %s",
		 view_matrix_value_names[k], c->n, c->n2, val);
	if (c->explain[k]) {
		const char *eq = strstr(c->explain[k], " = ");
		first_line(lines[n], sizeof(lines[0]), eq ? eq + 3 : c->explain[k]);
		n++;
	} else if (isnan(view_matrix_value(c, k, NULL))) {
		const struct model_fig *f;
		view_matrix_value(c, k, &f);
		snprintf(lines[n++], sizeof(lines[0]), "%s", f->why ? f->why : "n/a");
	}
	view_matrix_paint_name(view_matrix_value(c, k, NULL), view_matrix_marks(c, k), paint,
			       sizeof(paint));
	snprintf(lines[n++], sizeof(lines[0]), "drawn %s", paint);
	plot_set_font(cr, PLOT_FONT_SMALL);
	for (k = 0; k < n; k++) {
		cut_to(cr, lines[k], fmin(520, w - 30));
		tw = fmax(tw, plot_text_width(cr, lines[k]));
	}
	x = st->hover_x + 14;
	y = st->hover_y + 18;
	if (x + tw + 12 > w)
		x = fmax(4, st->hover_x - tw - 16);
	if (y + lh * n + 8 > h)
		y = fmax(4, st->hover_y - lh * n - 14);
	cairo_set_source_rgba(cr, 1, 1, 0.92, 0.97);
	cairo_rectangle(cr, x, y, tw + 12, lh * n + 8);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	for (k = 0; k < n; k++)
		plot_text(cr, x + 6, y + 4 + lh * (k + 1) - 4, PLOT_LEFT, lines[k]);
}

int view_matrix_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	char title[256];
	struct geom g;
	int e;

	view_title(title, sizeof(title), v, "Scalability matrix");
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_TITLE);
	cut_to(cr, title, w - 20);
	plot_text(cr, w / 2, 20, PLOT_CENTER, title);
	if (!layout(v, w, h, &g)) {
		/* what is true of this experiment: the analyzer's sentence, as the report's */
		const char *why = v->m->matrix_why ? v->m->matrix_why :
			"a CSV experiment's matrix is its matrix.csv (scalegraph report --matrix --csv of "
			"a store), and this one has no cells at two N";
		double tw = fmin(w - 60, 640);
		plot_set_font(cr, PLOT_FONT_TITLE);
		plot_text(cr, w / 2, h * 0.3, PLOT_CENTER, "No scalability matrix");
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text_wrapped(cr, (w - tw) / 2, h * 0.3 + 30, tw, 18, why);
		return 0;
	}
	for (e = 0; e < g.n_exp; e++)
		draw_panel(cr, v, &g, e);
	draw_key(cr, v, &g, w);
	draw_readout(cr, v, &g, w);
	draw_tip(cr, v, &g, w, h);
	return 0;
}
