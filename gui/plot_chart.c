/*
 * plot_chart.c — the non-line plots of plot.h: horizontal bars (execution profile), stacked
 * columns (overhead composition), text tables (browser export), the colour-coded t/E/m
 * scalability matrix (Scale-Graph Fig. 14) and thread-lane timelines.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Centred text that stays inside [x0, x1]: in font f if it fits, else in the small font, else
 * from x0 (cut at the edge rather than on both sides). */
static void text_fit(cairo_t *cr, double x0, double x1, double y, enum plot_font f, const char *t)
{
	plot_set_font(cr, f);
	if (plot_text_width(cr, t) > x1 - x0)
		plot_set_font(cr, PLOT_FONT_SMALL);
	if (plot_text_width(cr, t) > x1 - x0)
		plot_text(cr, x0, y, PLOT_LEFT, t);
	else
		plot_text(cr, (x0 + x1) / 2, y, PLOT_CENTER, t);
}

/* Draws s from x, cut with an ellipsis at x_max (a long reason in a narrow window): the cut
 * text ends inside the window, where it can be read, instead of at its edge. */
static void text_cut(cairo_t *cr, double x, double y, double x_max, const char *s)
{
	char buf[512];
	size_t n = strlen(s);

	if (x + plot_text_width(cr, s) <= x_max || n >= sizeof(buf) - 4) {
		plot_text(cr, x, y, PLOT_LEFT, s);
		return;
	}
	do {
		while (n > 0 && ((unsigned char)s[--n] & 0xc0) == 0x80)
			;   /* back to the start of a UTF-8 character */
		snprintf(buf, sizeof(buf), "%.*s\xe2\x80\xa6", (int)n, s);
	} while (n > 0 && x + plot_text_width(cr, buf) > x_max);
	if (n > 0)
		plot_text(cr, x, y, PLOT_LEFT, buf);
}

static void draw_title(cairo_t *cr, struct plot_rect r, const char *title)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	text_fit(cr, r.x + 4, r.x + r.w - 4, r.y + 20, PLOT_FONT_TITLE, title);
}

static void draw_note(cairo_t *cr, double x, double y, double max_w, const char *note)
{
	plot_set_font(cr, PLOT_FONT_SMALL);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	plot_text_wrapped(cr, x, y, max_w, 15, note);
}

/* A bar's label right-aligned on x1 in its row at y: in the small font when it is wider than
 * [x0, x1] (the label column is at most 35 % of the chart), on two lines when the row has room
 * ("walk [throttled: ~1.2 ms more in its callers]"), else cut with an ellipsis. */
static void bar_label(cairo_t *cr, double x0, double x1, double y, double row, const char *s)
{
	char a[256];
	const char *sp;
	size_t k;

	plot_set_font(cr, PLOT_FONT_LABEL);
	if (plot_text_width(cr, s) <= x1 - x0) {
		plot_text(cr, x1, y + row / 2 + 4, PLOT_RIGHT, s);
		return;
	}
	plot_set_font(cr, PLOT_FONT_SMALL);
	if (plot_text_width(cr, s) <= x1 - x0) {
		plot_text(cr, x1, y + row / 2 + 4, PLOT_RIGHT, s);
		return;
	}
	/* the last space that leaves the first line within the column */
	for (sp = NULL, k = 0; row >= 24 && s[k] && k < sizeof(a) - 1; k++)
		if (s[k] == ' ') {
			snprintf(a, sizeof(a), "%.*s", (int)k, s);
			if (plot_text_width(cr, a) > x1 - x0)
				break;
			sp = s + k;
		}
	if (sp) {
		snprintf(a, sizeof(a), "%.*s", (int)(sp - s), s);
		plot_text(cr, x1, y + row / 2 - 2, PLOT_RIGHT, a);
		if (plot_text_width(cr, sp + 1) <= x1 - x0)
			plot_text(cr, x1, y + row / 2 + 10, PLOT_RIGHT, sp + 1);
		else
			text_cut(cr, x0, y + row / 2 + 10, x1, sp + 1);
		return;
	}
	text_cut(cr, x0, y + row / 2 + 4, x1, s);
}

int plot_hbars_draw(cairo_t *cr, struct plot_rect r, const struct plot_hbars *b)
{
	struct plot_axis ax = { b->axis_label, PLOT_LINEAR, b->unit, NAN, NAN, 1 };
	struct plot_ticks t;
	double lw = 0, tw = 0, hi = 0, x0, x1, y, bh, row;
	size_t i;
	int k;

	if (r.w < 100 || r.h < 60 || b->n == 0)
		return -EINVAL;
	cairo_save(cr);
	draw_title(cr, r, b->title);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (i = 0; i < b->n; i++) {
		lw = fmax(lw, plot_text_width(cr, b->bars[i].label));
		if (b->bars[i].text)
			tw = fmax(tw, plot_text_width(cr, b->bars[i].text));
		if (isfinite(b->bars[i].value))
			hi = fmax(hi, b->bars[i].value);
	}
	plot_ticks_make(&t, &ax, 0, hi > 0 ? hi : 1);
	x0 = r.x + fmin(lw, r.w * 0.35) + 20;
	x1 = r.x + r.w - tw - 24;
	/* rows of 34 px, taller in a tall window (as if it held 12 bars), so a few bars on a
	 * large screen do not leave most of it empty */
	row = fmin(fmax(34, (r.h - 100) / 12), (r.h - 100) / (double)b->n);
	bh = row * 0.62;
	/* grid and ticks */
	plot_set_font(cr, PLOT_FONT_TICK);
	for (k = 0; k < t.n; k++) {
		double x = x0 + (t.v[k] - t.lo) / (t.hi - t.lo) * (x1 - x0);
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, floor(x) + 0.5, r.y + 40);
		cairo_line_to(cr, floor(x) + 0.5, r.y + 44 + row * b->n);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		plot_text(cr, x, r.y + 60 + row * b->n, PLOT_CENTER, t.text[k]);
	}
	plot_set_font(cr, PLOT_FONT_LABEL);
	{
		char label[512];
		snprintf(label, sizeof(label), t.unit[0] ? "%s [%s]" : "%s%s", b->axis_label, t.unit);
		text_fit(cr, r.x + 4, r.x + r.w - 4, r.y + 80 + row * b->n, PLOT_FONT_LABEL, label);
	}
	for (i = 0, y = r.y + 44; i < b->n; i++, y += row) {
		const struct plot_bar *p = &b->bars[i];
		double w = isfinite(p->value) ? (p->value - t.lo) / (t.hi - t.lo) * (x1 - x0) : 0;
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		bar_label(cr, r.x + 4, x0 - 8, y, row, p->label);
		plot_set_font(cr, PLOT_FONT_LABEL);
		if (isfinite(p->value)) {
			plot_color(cr, b->color);
			cairo_rectangle(cr, x0, y + (row - bh) / 2, w, bh);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_text(cr, x0 + w + 6, y + row / 2 + 4, PLOT_LEFT,
			  isfinite(p->value) ? (p->text ? p->text : "") : "unavailable");
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_move_to(cr, floor(x0) + 0.5, r.y + 40);
	cairo_line_to(cr, floor(x0) + 0.5, r.y + 44 + row * b->n);
	cairo_stroke(cr);
	cairo_restore(cr);
	return 0;
}

int plot_stack_draw(cairo_t *cr, struct plot_rect r, const struct plot_stack *s)
{
	struct plot_axis ay = { s->y_label, PLOT_LINEAR, s->unit, NAN, NAN, 1 };
	struct plot_ticks t;
	struct plot_rect pa, lr;
	char note[512] = "";
	double hi = 0, lo = 0, lw = 0, yw = 0, colw;
	size_t g, l, every;
	int k;

	if (r.w < 120 || r.h < 100 || s->n_groups == 0)
		return -EINVAL;
	cairo_save(cr);
	/* positive layers stack up from 0, negative ones (extra work can be) down from 0 */
	for (g = 0; g < s->n_groups; g++) {
		double up = 0, down = 0;
		for (l = 0; l < s->n_layers; l++) {
			double v = s->values[g * s->n_layers + l];
			if (isfinite(v) && v > 0)
				up += v;
			else if (isfinite(v))
				down += v;
		}
		hi = fmax(hi, up);
		lo = fmin(lo, down);
	}
	plot_ticks_make(&t, &ay, lo, hi > 0 ? hi : 1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (l = 0; !s->legend_off && l < s->n_layers; l++)
		lw = fmax(lw, plot_text_width(cr, s->layer_labels[l]));
	plot_set_font(cr, PLOT_FONT_TICK);
	for (k = 0; k < t.n; k++)
		yw = fmax(yw, plot_text_width(cr, t.text[k]));
	pa = (struct plot_rect){ r.x + yw + 44, r.y + 34, 0, r.h - 34 - 52 };
	pa.w = r.w - (pa.x - r.x) - (s->legend_off ? 16 : lw + 60);
	draw_title(cr, r, s->title);
	for (k = 0; k < t.n; k++) {
		double y = pa.y + pa.h - (t.v[k] - t.lo) / (t.hi - t.lo) * pa.h;
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, pa.x, floor(y) + 0.5);
		cairo_line_to(cr, pa.x + pa.w, floor(y) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		plot_set_font(cr, PLOT_FONT_TICK);
		plot_text(cr, pa.x - 8, y + 4, PLOT_RIGHT, t.text[k]);
	}
	colw = pa.w / (double)s->n_groups;
	/* label every k-th column when the labels are wider than the columns */
	plot_set_font(cr, PLOT_FONT_TICK);
	for (g = 0, lw = 0; g < s->n_groups; g++)
		lw = fmax(lw, plot_text_width(cr, s->group_labels[g]));
	every = (size_t)ceil((lw + 6) / fmax(colw, 1));
	for (g = 0; g < s->n_groups; g++) {
		double y0 = pa.y + pa.h - (0 - t.lo) / (t.hi - t.lo) * pa.h;
		double yu = y0, yd = y0, x = pa.x + colw * (g + 0.18);
		cairo_save(cr);
		cairo_rectangle(cr, pa.x, pa.y, pa.w, pa.h);
		cairo_clip(cr);
		for (l = 0; l < s->n_layers; l++) {
			double v = s->values[g * s->n_layers + l], h;
			if (!isfinite(v))
				continue;
			h = v / (t.hi - t.lo) * pa.h;
			plot_color(cr, s->layer_colors ? s->layer_colors[l] : (int)l);
			if (v >= 0) {
				lr = (struct plot_rect){ x, yu - h, colw * 0.64, h };
				yu -= h;
			} else {
				lr = (struct plot_rect){ x, yd, colw * 0.64, -h };
				yd -= h;
			}
			cairo_rectangle(cr, lr.x, lr.y, lr.w, lr.h);
			cairo_fill(cr);
			/* value on hover: the layer under the pointer names its source, its column
			 * and its value (a zero layer has no area to point at) */
			if (v != 0)
				plot_hit_rect(cr, lr, s->layer_labels[l], s->x_label, s->group_labels[g],
					      s->y_label, v, s->unit);
		}
		cairo_restore(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		plot_set_font(cr, PLOT_FONT_TICK);
		if (g % every == 0)
			plot_text(cr, pa.x + colw * (g + 0.5), pa.y + pa.h + 18, PLOT_CENTER,
				  s->group_labels[g]);
	}
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_rectangle(cr, floor(pa.x) + 0.5, floor(pa.y) + 0.5, floor(pa.w), floor(pa.h));
	cairo_stroke(cr);
	plot_set_font(cr, PLOT_FONT_LABEL);
	plot_text(cr, pa.x + pa.w / 2, pa.y + pa.h + 38, PLOT_CENTER, s->x_label);
	{
		char label[160];
		snprintf(label, sizeof(label), t.unit[0] ? "%s [%s]" : "%s%s", s->y_label, t.unit);
		plot_text_vertical(cr, pa.x - yw - 26, pa.y + pa.h / 2, label);
	}
	/* legend top to bottom in stacking order reversed, like the columns read */
	for (l = s->legend_off ? 0 : s->n_layers; l-- > 0;) {
		double y = pa.y + 12 + 20 * (double)(s->n_layers - 1 - l);
		int any = 0;
		for (g = 0; g < s->n_groups; g++)
			any |= isfinite(s->values[g * s->n_layers + l]);
		if (!any)
			plot_note_add(note, sizeof(note), "unavailable: ", ", ", s->layer_labels[l]);
		plot_color(cr, s->layer_colors ? s->layer_colors[l] : (int)l);
		cairo_rectangle(cr, pa.x + pa.w + 16, y - 11, 14, 14);
		if (any)
			cairo_fill(cr);
		else
			cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, pa.x + pa.w + 36, y, PLOT_LEFT, s->layer_labels[l]);
	}
	if (note[0])
		draw_note(cr, pa.x + pa.w + 16, pa.y + 24 + 20 * (double)s->n_layers, r.x + r.w - pa.x - pa.w - 20, note);
	cairo_restore(cr);
	return 0;
}

int plot_status_in_progress(const char *status)
{
	return strcmp(status, "running") == 0 || strcmp(status, "pending") == 0;
}

size_t plot_table_draw(cairo_t *cr, struct plot_rect r, const struct plot_table *t)
{
	double colx[32], w[32], y, row = t->compact ? PLOT_TABLE_ROW_COMPACT : PLOT_TABLE_ROW;
	size_t i, c, drawn = 0;

	if (t->n_cols == 0 || t->n_cols > 32)
		return 0;
	cairo_save(cr);
	if (t->compact) {
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		text_fit(cr, r.x + 4, r.x + r.w - 4, r.y + 15, PLOT_FONT_TITLE, t->title);
	} else
		draw_title(cr, r, t->title);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (c = 0; c < t->n_cols; c++)
		w[c] = plot_text_width(cr, t->headers[c]);
	plot_set_font(cr, PLOT_FONT_TICK);
	for (i = 0; i < t->n_rows; i++)
		for (c = 0; c < t->n_cols; c++)
			w[c] = fmax(w[c], plot_text_width(cr, t->cells[i * t->n_cols + c]));
	colx[0] = r.x + 10;
	for (c = 1; c < t->n_cols; c++)
		colx[c] = colx[c - 1] + w[c - 1] + 18;
	y = r.y + (t->compact ? PLOT_TABLE_HEAD_COMPACT : PLOT_TABLE_HEAD);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (c = 0; c < t->n_cols; c++)
		plot_text(cr, colx[c], y, PLOT_LEFT, t->headers[c]);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, r.x + 6, floor(y + 6) + 0.5);
	cairo_line_to(cr, r.x + r.w - 6, floor(y + 6) + 0.5);
	cairo_stroke(cr);
	plot_set_font(cr, PLOT_FONT_TICK);
	for (i = 0; i < t->n_rows && y + 2 * row < r.y + r.h; i++, drawn++) {
		y += row;
		const char *st = t->status_col >= 0 ? t->cells[i * t->n_cols + (size_t)t->status_col] : "ok";
		if (plot_status_in_progress(st)) {
			/* a run in progress is neither ok nor failed: a neutral blue-grey */
			cairo_set_source_rgb(cr, PLOT_RGB_IN_PROGRESS);
			cairo_rectangle(cr, r.x + 6, y - row + 5, r.w - 12, row);
			cairo_fill(cr);
		} else if (strcmp(st, "ok") != 0) {
			cairo_set_source_rgb(cr, PLOT_RGB_NOT_OK);
			cairo_rectangle(cr, r.x + 6, y - row + 5, r.w - 12, row);
			cairo_fill(cr);
		} else if (i % 2) {
			cairo_set_source_rgb(cr, 0.95, 0.96, 0.98);
			cairo_rectangle(cr, r.x + 6, y - row + 5, r.w - 12, row);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		for (c = 0; c < t->n_cols; c++)
			text_cut(cr, colx[c], y, r.x + r.w - 6, t->cells[i * t->n_cols + c]);
	}
	if (drawn < t->n_rows) {
		char more[64];
		snprintf(more, sizeof(more), "... %zu more rows", t->n_rows - drawn);
		plot_text(cr, colx[0], y + row, PLOT_LEFT, more);
	}
	cairo_restore(cr);
	return drawn;
}

/* --- matrix ----------------------------------------------------------------------------- */

void plot_scale_rgb(double v, double rgb[3])
{
	/* PuOr (ColorBrewer, colour-blind safe), light ends so black text stays readable:
	 * 0 #fdb863 (poor scalability) .. 0.5 #f7f7f7 .. 1 #b2abd2 (scalable) */
	static const double lo[3] = { 0.992, 0.722, 0.388 }, mid[3] = { 0.969, 0.969, 0.969 },
			    hi[3] = { 0.698, 0.671, 0.824 };
	double t = fmin(fmax(v, 0), 1);
	int k;

	for (k = 0; k < 3; k++)
		rgb[k] = t < 0.5 ? lo[k] + (mid[k] - lo[k]) * t * 2 : mid[k] + (hi[k] - mid[k]) * (t - 0.5) * 2;
}

/* Geometry shared by drawing and hit testing. */
struct mgeom {
	double x0, y0, cw, ch, hw;
};

static void matrix_geom(struct plot_rect r, const struct plot_matrix *m, struct mgeom *g)
{
	size_t n = m->n_ns > 1 ? m->n_ns - 1 : 1;

	g->hw = 70;
	g->x0 = r.x + 20 + g->hw;
	g->y0 = r.y + 64;
	g->cw = fmin(240, (r.w - 40 - g->hw) / (double)n);
	g->ch = fmin(100, (r.h - 64 - 110) / (double)n);
}

int plot_matrix_hit(struct plot_rect r, const struct plot_matrix *m, double x, double y,
		    int *i, int *j)
{
	struct mgeom g;
	int col, row;

	matrix_geom(r, m, &g);
	if (x < g.x0 || y < g.y0)
		return 0;
	col = (int)((x - g.x0) / g.cw) + 1;
	row = (int)((y - g.y0) / g.ch);
	if (col >= (int)m->n_ns || row >= (int)m->n_ns - 1 || row >= col)
		return 0;
	*i = row;
	*j = col;
	return 1;
}

int plot_matrix_draw(cairo_t *cr, struct plot_rect r, const struct plot_matrix *m)
{
	struct mgeom g;
	char buf[64];
	size_t i, j;
	int k;

	if (m->n_ns < 2 || r.w < 200 || r.h < 200)
		return -EINVAL;
	matrix_geom(r, m, &g);
	cairo_save(cr);
	draw_title(cr, r, m->title);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	plot_text(cr, g.x0 + g.cw * (double)(m->n_ns - 1) / 2, r.y + 42, PLOT_CENTER, "N' (to)");
	plot_text(cr, r.x + 14, g.y0 - 8, PLOT_LEFT, "N (from)");
	for (j = 1; j < m->n_ns; j++) {
		snprintf(buf, sizeof(buf), "%d", m->ns[j]);
		plot_text(cr, g.x0 + g.cw * ((double)j - 0.5), g.y0 - 8, PLOT_CENTER, buf);
	}
	for (i = 0; i + 1 < m->n_ns; i++) {
		double y = g.y0 + g.ch * (double)i;
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		snprintf(buf, sizeof(buf), "%d", m->ns[i]);
		plot_text(cr, g.x0 - 12, y + g.ch / 2 + 4, PLOT_RIGHT, buf);
		for (j = i + 1; j < m->n_ns; j++) {
			const struct plot_mcell *c = &m->cells[i * m->n_ns + j];
			double x = g.x0 + g.cw * (double)(j - 1), sw = g.cw / 3;
			for (k = 0; k < 3; k++) {
				double rgb[3] = { 0.86, 0.86, 0.86 };
				if (isfinite(c->v[k]))
					plot_scale_rgb(c->v[k], rgb);
				cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
				cairo_rectangle(cr, x + sw * k, y, sw, g.ch);
				cairo_fill(cr);
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
				plot_set_font(cr, g.cw < 120 ? PLOT_FONT_SMALL : PLOT_FONT_TICK);
				if (isfinite(c->v[k]))
					snprintf(buf, sizeof(buf), "%.2f%s%s", c->v[k],
						 k == 0 && c->caveat ? "*" : "", c->off[k] ? "~" : "");
				else
					snprintf(buf, sizeof(buf), "n/a");
				plot_text(cr, x + sw * (k + 0.5), y + g.ch / 2 + 4, PLOT_CENTER, buf);
			}
			cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
			cairo_set_line_width(cr, (int)i == m->sel_i && (int)j == m->sel_j ? 3 : 1);
			cairo_rectangle(cr, x + 0.5, y + 0.5, g.cw - 1, g.ch - 1);
			cairo_stroke(cr);
		}
	}
	/* key: what the three sub-cells are, the colour scale, the caveat mark */
	{
		double y = g.y0 + g.ch * (double)(m->n_ns - 1) + 28, x = r.x + 20;
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		snprintf(buf, sizeof(buf), "each cell: ");
		x += plot_text(cr, x, y, PLOT_LEFT, buf);
		for (k = 0; k < 3; k++) {
			char part[80];
			snprintf(part, sizeof(part), "%s%s", m->value_names[k], k < 2 ? " / " : "");
			x += plot_text(cr, x, y, PLOT_LEFT, part);
		}
		y += 24;
		x = r.x + 20;
		plot_set_font(cr, PLOT_FONT_SMALL);
		x += plot_text(cr, x, y, PLOT_LEFT, "scale = L(W,N) / L(W',N'):  0 ") + 4;
		for (k = 0; k <= 40; k++) {
			double rgb[3];
			plot_scale_rgb(k / 40.0, rgb);
			cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
			cairo_rectangle(cr, x + k * 4, y - 11, 4.5, 14);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_text(cr, x + 168, y, PLOT_LEFT, "1 (latency does not grow)");
		if (m->note)
			draw_note(cr, r.x + 20, y + 22, r.w - 40, m->note);
	}
	cairo_restore(cr);
	return 0;
}

/* --- timeline ---------------------------------------------------------------------------- */

/* The state legend is a grid: cell i of t->legend (else state i) goes to column i / per_col,
 * row i % per_col; a column is as wide as its longest name; the columns fill a row of blocks
 * and wrap into the next block of per_col rows when the width runs out. The widths are measured
 * on a scratch surface when no cairo_t is at hand, so hit testing needs none. */
#define LEGEND_ROW_H 20.0
#define LEGEND_MAX_COLS 64

static int legend_cell(const struct plot_timeline *t, size_t i)
{
	if (!t->legend)
		return i < t->n_states ? (int)i : -1;
	return i < t->n_legend && t->legend[i] >= 0 && (size_t)t->legend[i] < t->n_states ?
		       t->legend[i] : -1;
}

static size_t legend_per_col(const struct plot_timeline *t)
{
	return t->legend_per_col ? t->legend_per_col : 1;
}

/* Widths of the legend's columns into cw (LEGEND_MAX_COLS at most); returns their count. They
 * are measured on a scratch image surface, for the layout and the drawing alike (an X surface
 * hints its glyphs a little wider: the gap after each column absorbs that), and kept for the
 * next call with the same cells and names (the layout asks on every click and redraw). */
static size_t legend_widths(const struct plot_timeline *t, double *cw)
{
	static char key_text[2048];
	static double key_cw[LEGEND_MAX_COLS];
	static size_t key_cols;
	size_t per = legend_per_col(t), n = t->legend ? t->n_legend : t->n_states;
	size_t cols = (n + per - 1) / per, c, k, used = 0;
	char text[sizeof(key_text)];
	cairo_surface_t *scratch;
	cairo_t *cr;

	if (cols > LEGEND_MAX_COLS)
		cols = LEGEND_MAX_COLS;
	/* the key: every cell's name, column by column */
	for (c = 0; c < cols * per; c++) {
		int st = legend_cell(t, c);
		int m = snprintf(text + used, sizeof(text) - used, "%s%c", st >= 0 ? t->state_names[st] : "",
				 (c + 1) % per ? '\t' : '\n');
		if (m < 0 || (size_t)m >= sizeof(text) - used) {
			used = 0;   /* too long to keep: measure every time */
			break;
		}
		used += (size_t)m;
	}
	text[used] = '\0';
	if (used > 0 && key_cols == cols && strcmp(text, key_text) == 0) {
		memcpy(cw, key_cw, cols * sizeof(*cw));
		return cols;
	}
	scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cr = cairo_create(scratch);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (c = 0; c < cols; c++) {
		double w = 0;
		for (k = 0; k < per; k++) {
			int st = legend_cell(t, c * per + k);
			if (st >= 0)
				w = fmax(w, plot_text_width(cr, t->state_names[st]));
		}
		cw[c] = 20 + w + 18;   /* swatch, name, gap */
	}
	cairo_destroy(cr);
	cairo_surface_destroy(scratch);
	if (used > 0) {
		memcpy(key_text, text, used + 1);
		memcpy(key_cw, cw, cols * sizeof(*cw));
		key_cols = cols;
	}
	return cols;
}

/* Splits the columns into blocks fitting width w: block b holds columns first[b] ..
 * first[b + 1] - 1. Returns the number of blocks. */
static size_t legend_blocks(const double *cw, size_t cols, double w, size_t *first)
{
	size_t b = 0, c;
	double x = 0;

	for (c = 0; c < cols; c++) {
		if (c == 0 || (x > 0 && x + cw[c] - 18 > w)) {
			first[b++] = c;
			x = 0;
		}
		x += cw[c];
	}
	first[b] = cols;
	return b;
}

static size_t legend_rows(const struct plot_timeline *t, double w)
{
	double cw[LEGEND_MAX_COLS];
	size_t first[LEGEND_MAX_COLS + 1];
	size_t cols = legend_widths(t, cw);

	return cols ? legend_blocks(cw, cols, w - 24, first) * legend_per_col(t) : 0;
}

size_t plot_timeline_legend_rows(const struct plot_timeline *t, double w)
{
	return legend_rows(t, w);
}

/* Below the lanes: tick labels, the axis title, then the legend rows. */
static double below_lanes(size_t rows)
{
	return 56 + LEGEND_ROW_H * (double)rows;
}

void plot_timeline_layout(struct plot_rect r, const struct plot_timeline *t,
			  struct plot_rect *lanes, double *lane_h)
{
	size_t n_lanes = t->n_lanes;
	/* the lanes share whatever height the window has (a taller window: taller lanes) */
	double h = (r.h - 34 - below_lanes(plot_timeline_legend_rows(t, r.w))) /
		   (double)(n_lanes ? n_lanes : 1);

	*lane_h = fmax(h, 3);
	lanes->x = r.x + PLOT_TIMELINE_LABEL_W;
	lanes->y = r.y + 34;
	lanes->w = fmax(r.w - PLOT_TIMELINE_LABEL_W - 16, 1);
	lanes->h = *lane_h * (double)n_lanes;
}

double plot_timeline_height(struct plot_rect r, const struct plot_timeline *t)
{
	struct plot_rect la;
	double lane_h;

	plot_timeline_layout(r, t, &la, &lane_h);
	return la.y + la.h + below_lanes(plot_timeline_legend_rows(t, r.w)) - r.y;
}

static void draw_timeline_legend(cairo_t *cr, const struct plot_timeline *t, double x0, double y,
				 double w)
{
	double cw[LEGEND_MAX_COLS];
	size_t first[LEGEND_MAX_COLS + 1];
	size_t cols = legend_widths(t, cw), per = legend_per_col(t), nb, b, c, k;

	if (cols == 0)
		return;
	nb = legend_blocks(cw, cols, w, first);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (b = 0; b < nb; b++) {
		double x = x0;
		for (c = first[b]; c < first[b + 1]; c++) {
			for (k = 0; k < per; k++) {
				int st = legend_cell(t, c * per + k);
				double yy = y + LEGEND_ROW_H * (double)(b * per + k);
				if (st < 0)
					continue;
				plot_color(cr, t->state_colors ? t->state_colors[st] : st);
				cairo_rectangle(cr, x, yy - 11, 14, 14);
				cairo_fill(cr);
				cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
				plot_text(cr, x + 20, yy, PLOT_LEFT, t->state_names[st]);
			}
			x += cw[c];
		}
	}
}

int plot_timeline_draw(cairo_t *cr, struct plot_rect r, const struct plot_timeline *t)
{
	struct plot_axis ax = { "time", PLOT_LINEAR, PLOT_UNIT_SECONDS, t->t_min, t->t_max, 0 };
	struct plot_ticks tk;
	struct plot_rect la;
	double x0, x1, lane_h, y, span;
	size_t i, k;
	int n;

	if (t->n_lanes == 0 || !(t->t_max > t->t_min) || r.w < 150 || r.h < 100)
		return -EINVAL;
	cairo_save(cr);
	draw_title(cr, r, t->title);
	plot_timeline_layout(r, t, &la, &lane_h);
	plot_ticks_make(&tk, &ax, t->t_min, t->t_max);
	x0 = la.x;
	x1 = la.x + la.w;
	span = t->t_max - t->t_min;
	cairo_rectangle(cr, x0, la.y, la.w, la.h);
	cairo_clip(cr);
	for (i = 0, y = la.y; i < t->n_lanes; i++, y += lane_h) {
		const struct plot_lane *l = &t->lanes[i];
		for (k = 0; k < l->n; k++) {
			double a = fmax(l->segs[k].t0, t->t_min), b = fmin(l->segs[k].t1, t->t_max);
			int s = l->segs[k].state;
			if (b <= a || s < 0 || (size_t)s >= t->n_states)
				continue;
			plot_color(cr, t->state_colors ? t->state_colors[s] : s);
			/* at least one pixel wide, so short waits stay visible when zoomed out */
			cairo_rectangle(cr, x0 + (a - t->t_min) / span * (x1 - x0), y + 1,
					fmax(1, (b - a) / span * (x1 - x0)), lane_h - (lane_h > 6 ? 2 : 0));
			cairo_fill(cr);
		}
	}
	if (t->sel_lane >= 0 && (size_t)t->sel_lane < t->n_lanes && t->sel_t1 > t->sel_t0) {
		/* the selected interval, outlined in black with a white inner line, so it shows on
		 * dark states (runnable is black) too */
		double a = fmax(t->sel_t0, t->t_min), b = fmin(t->sel_t1, t->t_max);
		if (b >= a) {
			double sx = x0 + (a - t->t_min) / span * (x1 - x0), sw = fmax(2, (b - a) / span * (x1 - x0));
			double sy = la.y + lane_h * t->sel_lane + 1;
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_set_line_width(cr, 2);
			cairo_rectangle(cr, sx, sy, sw, lane_h - 2);
			cairo_stroke(cr);
			if (sw > 4 && lane_h > 8) {
				cairo_set_source_rgb(cr, 1, 1, 1);
				cairo_set_line_width(cr, 1);
				cairo_rectangle(cr, sx + 1.5, sy + 1.5, sw - 3, lane_h - 5);
				cairo_stroke(cr);
			}
			cairo_set_line_width(cr, 1);
		}
	}
	cairo_reset_clip(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	for (i = 0, y = la.y; i < t->n_lanes; i++, y += lane_h)
		if (lane_h >= 11 || i % (size_t)ceil(11 / lane_h) == 0)
			plot_text(cr, x0 - 8, y + lane_h / 2 + 4, PLOT_RIGHT, t->lanes[i].label);
	y = la.y + la.h;
	cairo_rectangle(cr, floor(x0) + 0.5, floor(la.y) + 0.5, floor(la.w), floor(la.h));
	cairo_stroke(cr);
	plot_set_font(cr, PLOT_FONT_TICK);
	for (n = 0; n < tk.n; n++) {
		double x = x0 + (tk.v[n] - t->t_min) / span * (x1 - x0);
		if (x < x0 - 0.5 || x > x1 + 0.5)
			continue;
		cairo_move_to(cr, floor(x) + 0.5, y);
		cairo_line_to(cr, floor(x) + 0.5, y + 5);
		cairo_stroke(cr);
		plot_text(cr, x, y + 18, PLOT_CENTER, tk.text[n]);
	}
	plot_set_font(cr, PLOT_FONT_LABEL);
	{
		char label[64];
		snprintf(label, sizeof(label), "time since the run's start [%s]", tk.unit);
		plot_text(cr, (x0 + x1) / 2, y + 36, PLOT_CENTER, label);
	}
	draw_timeline_legend(cr, t, r.x + 12, y + 58, r.w - 24);
	cairo_restore(cr);
	return 0;
}
