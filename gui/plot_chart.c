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

static void draw_title(cairo_t *cr, struct plot_rect r, const char *title)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_TITLE);
	plot_text(cr, r.x + r.w / 2, r.y + 20, PLOT_CENTER, title);
}

static void draw_note(cairo_t *cr, double x, double y, double max_w, const char *note)
{
	plot_set_font(cr, PLOT_FONT_SMALL);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	plot_text_wrapped(cr, x, y, max_w, 15, note);
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
	row = fmin(34, (r.h - 100) / (double)b->n);
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
		char label[160];
		snprintf(label, sizeof(label), t.unit[0] ? "%s [%s]" : "%s%s", b->axis_label, t.unit);
		plot_text(cr, (x0 + x1) / 2, r.y + 80 + row * b->n, PLOT_CENTER, label);
	}
	for (i = 0, y = r.y + 44; i < b->n; i++, y += row) {
		const struct plot_bar *p = &b->bars[i];
		double w = isfinite(p->value) ? (p->value - t.lo) / (t.hi - t.lo) * (x1 - x0) : 0;
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_set_font(cr, PLOT_FONT_LABEL);
		plot_text(cr, x0 - 8, y + row / 2 + 4, PLOT_RIGHT, p->label);
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
	struct plot_rect pa;
	char note[512] = "";
	double hi = 0, lo = 0, lw = 0, yw = 0, colw;
	size_t g, l;
	int k;

	if (r.w < 120 || r.h < 100 || s->n_groups == 0)
		return -EINVAL;
	cairo_save(cr);
	/* positive layers stack up from 0, negative ones (a residual can be) down from 0 */
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
	for (l = 0; l < s->n_layers; l++)
		lw = fmax(lw, plot_text_width(cr, s->layer_labels[l]));
	plot_set_font(cr, PLOT_FONT_TICK);
	for (k = 0; k < t.n; k++)
		yw = fmax(yw, plot_text_width(cr, t.text[k]));
	pa = (struct plot_rect){ r.x + yw + 44, r.y + 34, 0, r.h - 34 - 52 };
	pa.w = r.w - (pa.x - r.x) - lw - 60;
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
				cairo_rectangle(cr, x, yu - h, colw * 0.64, h);
				yu -= h;
			} else {
				cairo_rectangle(cr, x, yd, colw * 0.64, -h);
				yd -= h;
			}
			cairo_fill(cr);
		}
		cairo_restore(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		plot_set_font(cr, PLOT_FONT_TICK);
		plot_text(cr, pa.x + colw * (g + 0.5), pa.y + pa.h + 18, PLOT_CENTER, s->group_labels[g]);
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
	for (l = s->n_layers; l-- > 0;) {
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

size_t plot_table_draw(cairo_t *cr, struct plot_rect r, const struct plot_table *t)
{
	double colx[32], w[32], y, row = 19;
	size_t i, c, drawn = 0;

	if (t->n_cols == 0 || t->n_cols > 32)
		return 0;
	cairo_save(cr);
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
	y = r.y + 48;
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
		if (t->status_col >= 0 && strcmp(t->cells[i * t->n_cols + (size_t)t->status_col], "ok") != 0) {
			cairo_set_source_rgb(cr, 1.0, 0.90, 0.80);
			cairo_rectangle(cr, r.x + 6, y - row + 5, r.w - 12, row);
			cairo_fill(cr);
		} else if (i % 2) {
			cairo_set_source_rgb(cr, 0.95, 0.96, 0.98);
			cairo_rectangle(cr, r.x + 6, y - row + 5, r.w - 12, row);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		for (c = 0; c < t->n_cols; c++)
			plot_text(cr, colx[c], y, PLOT_LEFT, t->cells[i * t->n_cols + c]);
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

void plot_timeline_layout(struct plot_rect r, size_t n_lanes, struct plot_rect *lanes,
			  double *lane_h)
{
	double h = fmin(40, (r.h - 34 - 96) / (double)(n_lanes ? n_lanes : 1));

	*lane_h = fmax(h, 3);
	lanes->x = r.x + PLOT_TIMELINE_LABEL_W;
	lanes->y = r.y + 34;
	lanes->w = fmax(r.w - PLOT_TIMELINE_LABEL_W - 16, 1);
	lanes->h = *lane_h * (double)n_lanes;
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
	plot_timeline_layout(r, t->n_lanes, &la, &lane_h);
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
		/* the selected interval, outlined in black over its lane */
		double a = fmax(t->sel_t0, t->t_min), b = fmin(t->sel_t1, t->t_max);
		if (b >= a) {
			cairo_set_source_rgb(cr, 0, 0, 0);
			cairo_set_line_width(cr, 2);
			cairo_rectangle(cr, x0 + (a - t->t_min) / span * (x1 - x0),
					la.y + lane_h * t->sel_lane + 1,
					fmax(2, (b - a) / span * (x1 - x0)), lane_h - 2);
			cairo_stroke(cr);
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
	y += 58;
	{
		/* the legend wraps onto a second row when the window is narrow */
		double x = r.x + 12;
		for (k = 0; k < t->n_states; k++) {
			double tw = plot_text_width(cr, t->state_names[k]);
			if (x + 20 + tw > r.x + r.w - 8 && x > r.x + 12) {
				x = r.x + 12;
				y += 20;
			}
			plot_color(cr, t->state_colors ? t->state_colors[k] : (int)k);
			cairo_rectangle(cr, x, y - 11, 14, 14);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
			x += 20 + plot_text(cr, x + 20, y, PLOT_LEFT, t->state_names[k]) + 16;
		}
	}
	cairo_restore(cr);
	return 0;
}
