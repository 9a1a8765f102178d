/*
 * plot.c — text, colours, axis ticks and line charts (plot.h). The line chart is the workhorse of
 * xscalegraph: time, speedup, efficiency, latency and every latency source vs N are line charts
 * with markers, a legend beside the plot area, an optional ideal line and a marked point (p_x).
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cairo_user_data_key_t sink_key;
static const cairo_user_data_key_t cut_key;   /* the cut-off text sink */
static const cairo_user_data_key_t hits_key;

/* Okabe & Ito (2008), reordered so the first colours are the most distinct on white; olive
 * (their yellow, darkened) last. */
static const double palette[PLOT_N_COLORS][3] = {
	{ 0.000, 0.447, 0.698 }, /* blue */
	{ 0.835, 0.369, 0.000 }, /* vermillion */
	{ 0.000, 0.620, 0.451 }, /* bluish green */
	{ 0.800, 0.475, 0.655 }, /* reddish purple */
	{ 0.902, 0.624, 0.000 }, /* orange */
	{ 0.337, 0.706, 0.914 }, /* sky blue */
	{ 0.000, 0.000, 0.000 }, /* black */
	{ 0.600, 0.560, 0.000 }, /* olive: their yellow (0.94, 0.89, 0.26) vanishes on white */
};

void plot_color_rgb(int idx, double rgb[3])
{
	int i = ((idx % PLOT_N_COLORS) + PLOT_N_COLORS) % PLOT_N_COLORS, k;

	if (idx == PLOT_GREY || idx == PLOT_GREY_MID || idx == PLOT_GREY_DARK) {
		rgb[0] = rgb[1] = rgb[2] = idx == PLOT_GREY ? 0.84 : idx == PLOT_GREY_MID ? 0.62 : 0.33;
		return;
	}
	memcpy(rgb, palette[i], sizeof(palette[i]));
	if (idx >= PLOT_N_COLORS) /* the tint: halfway to white */
		for (k = 0; k < 3; k++)
			rgb[k] = 0.5 + rgb[k] / 2;
}

void plot_color(cairo_t *cr, int idx)
{
	double c[3];

	plot_color_rgb(idx, c);
	cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

void plot_background(cairo_t *cr, struct plot_rect r)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_fill(cr);
}

void plot_text_sink_attach(cairo_t *cr, struct plot_text_sink *sink)
{
	cairo_set_user_data(cr, &sink_key, sink, NULL);
}

void plot_text_sink_free(struct plot_text_sink *sink)
{
	free(sink->buf);
	memset(sink, 0, sizeof(*sink));
}

void plot_cut_sink_attach(cairo_t *cr, struct plot_text_sink *sink)
{
	cairo_set_user_data(cr, &cut_key, sink, NULL);
}

static void sink_put(struct plot_text_sink *k, const char *s)
{
	size_t n = strlen(s);

	if (!k)
		return;
	if (k->len + n + 2 > k->cap) {
		size_t cap = k->cap ? k->cap : 1024;
		char *p;
		while (cap < k->len + n + 2)
			cap *= 2;
		if (!(p = realloc(k->buf, cap)))
			return; /* the sink is best effort; the drawing itself goes on */
		k->buf = p;
		k->cap = cap;
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len++] = '\n';
	k->buf[k->len] = '\0';
}

/* Hands s, drawn from the current point, to the sinks: the text sink always, the cut sink when
 * its ink is not wholly inside the clip (device pixels, half a pixel of slack). */
static void sink_add(cairo_t *cr, const char *s)
{
	struct plot_text_sink *k = cairo_get_user_data(cr, &sink_key);
	struct plot_text_sink *cut = cairo_get_user_data(cr, &cut_key);
	cairo_text_extents_t e;
	double x0, y0, cx1, cy1, cx2, cy2, lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY,
	       hi_y = -INFINITY;
	int c;

	sink_put(k, s);
	if (!cut || !cairo_has_current_point(cr))
		return;
	cairo_get_current_point(cr, &x0, &y0);   /* after the text: its end */
	cairo_text_extents(cr, s, &e);
	x0 -= e.x_advance;
	y0 -= e.y_advance;
	for (c = 0; c < 4; c++) {
		double x = x0 + e.x_bearing + (c & 1 ? e.width : 0);
		double y = y0 + e.y_bearing + (c & 2 ? e.height : 0);
		cairo_user_to_device(cr, &x, &y);
		lo_x = fmin(lo_x, x);
		hi_x = fmax(hi_x, x);
		lo_y = fmin(lo_y, y);
		hi_y = fmax(hi_y, y);
	}
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_clip_extents(cr, &cx1, &cy1, &cx2, &cy2);
	cairo_restore(cr);
	if (e.width > 0 && (lo_x < cx1 - 0.5 || lo_y < cy1 - 0.5 || hi_x > cx2 + 0.5 || hi_y > cy2 + 0.5))
		sink_put(cut, s);
}

void plot_set_font(cairo_t *cr, enum plot_font f)
{
	static const double size[] = { 15, 12.5, 11, 10.5 };

	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       f == PLOT_FONT_TITLE ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size[f]);
}

double plot_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

double plot_text(cairo_t *cr, double x, double y, enum plot_align a, const char *s)
{
	double w = plot_text_width(cr, s);

	if (a == PLOT_CENTER)
		x -= w / 2;
	else if (a == PLOT_RIGHT)
		x -= w;
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
	sink_add(cr, s);
	return w;
}

void plot_text_vertical(cairo_t *cr, double x, double y, const char *s)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, -M_PI / 2);
	plot_text(cr, 0, 0, PLOT_CENTER, s);
	cairo_restore(cr);
}

/* plot_text_wrapped, drawing the lines when `draw` is set; returns the baseline after the last
 * line (so (result - y) / line_h lines). */
static double text_wrapped(cairo_t *cr, double x, double y, double max_w, double line_h,
			   const char *s, int draw)
{
	char line[512];
	const char *p = s;

	while (p && *p) {
		size_t n = strcspn(p, "\n"), fit = 0, k;
		/* the longest prefix of this line, ending at a space, that fits max_w */
		for (k = 1; k <= n && k < sizeof(line); k++) {
			if (k < n && p[k] != ' ')
				continue;
			snprintf(line, sizeof(line), "%.*s", (int)k, p);
			if (plot_text_width(cr, line) > max_w && fit > 0)
				break;
			fit = k;
		}
		if (fit == 0)
			fit = n < sizeof(line) - 1 ? n : sizeof(line) - 1;
		snprintf(line, sizeof(line), "%.*s", (int)fit, p);
		if (draw)
			plot_text(cr, x, y, PLOT_LEFT, line);
		y += line_h;
		p += fit;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
	}
	return y;
}

double plot_text_wrapped(cairo_t *cr, double x, double y, double max_w, double line_h,
			 const char *s)
{
	return text_wrapped(cr, x, y, max_w, line_h, s, 1);
}

/* --- ticks ---------------------------------------------------------------------------- */

static double nice_step(double range, int want)
{
	double raw = range / want, mag = pow(10, floor(log10(raw))), f = raw / mag;

	if (f < 1.5)
		return mag;
	if (f < 3)
		return 2 * mag;
	if (f < 7)
		return 5 * mag;
	return 10 * mag;
}

void plot_format_seconds(char *buf, size_t len, double s)
{
	static const struct { double f; const char *u; } units[] = {
		{ 1, "s" }, { 1e-3, "ms" }, { 1e-6, "\xc2\xb5s" }, { 1e-9, "ns" },
	};
	size_t i;
	double a = fabs(s);

	for (i = 0; i < 3 && a < units[i].f * 0.9995; i++)
		;
	if (s == 0)
		i = 0;
	snprintf(buf, len, "%.3g %s", s / units[i].f, units[i].u);
}

void plot_format_si(char *buf, size_t len, double v)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s", v, suffix[i]);
}

/* The display factor of a seconds axis from the largest magnitude shown. */
static double seconds_factor(double maxabs, const char **unit)
{
	if (maxabs >= 1 || maxabs == 0) {
		*unit = "s";
		return 1;
	}
	if (maxabs >= 1e-3) {
		*unit = "ms";
		return 1e3;
	}
	if (maxabs >= 1e-6) {
		*unit = "\xc2\xb5s";
		return 1e6;
	}
	*unit = "ns";
	return 1e9;
}

void plot_ticks_make(struct plot_ticks *t, const struct plot_axis *a, double lo, double hi)
{
	double step, v, factor = 1;
	int decimals, i;

	memset(t, 0, sizeof(*t));
	t->unit = "";
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (a->scale != PLOT_LINEAR) {
		double base = a->scale == PLOT_LOG2 ? 2 : 10;
		double k0, k1, kstep = 1;
		if (lo <= 0)
			lo = hi > 0 ? hi / base : 1;
		if (hi <= lo)
			hi = lo * base;
		k0 = floor(log(lo) / log(base) + 1e-9);
		k1 = ceil(log(hi) / log(base) - 1e-9);
		if (k1 <= k0)
			k1 = k0 + 1;
		while ((k1 - k0) / kstep + 1 > 9) /* readable in a small chart too */
			kstep *= 2;
		/* ticks on multiples of the step (1 = base^0 among them), both ends labelled */
		k0 = floor(k0 / kstep) * kstep;
		k1 = ceil(k1 / kstep) * kstep;
		t->lo = pow(base, k0);
		t->hi = pow(base, k1);
		for (v = k0; v <= k1 + 1e-9 && t->n < PLOT_MAX_TICKS; v += kstep) {
			t->v[t->n] = pow(base, v);
			if (a->unit == PLOT_UNIT_SECONDS)
				plot_format_seconds(t->text[t->n], sizeof(t->text[0]), t->v[t->n]);
			else
				plot_format_si(t->text[t->n], sizeof(t->text[0]), t->v[t->n]);
			t->n++;
		}
		return;
	}
	if (a->from_zero) {
		if (lo > 0)
			lo = 0;
		if (hi < 0)
			hi = 0;
	}
	if (hi - lo <= fabs(hi) * 1e-12) {
		double d = hi != 0 ? fabs(hi) * 0.1 : 1;
		lo -= d;
		hi += d;
		if (a->from_zero && lo < 0 && hi - d >= 0)
			lo = 0;
	}
	step = nice_step(hi - lo, 5);
	t->lo = floor(lo / step + 1e-9) * step;
	t->hi = ceil(hi / step - 1e-9) * step;
	if (a->unit == PLOT_UNIT_SECONDS)
		factor = seconds_factor(fmax(fabs(t->lo), fabs(t->hi)), &t->unit);
	else if (a->unit == PLOT_UNIT_PERCENT) {
		factor = 100;
		t->unit = "%";
	}
	decimals = (int)fmax(0, -floor(log10(step * factor) + 1e-9));
	for (i = 0, v = t->lo; v <= t->hi + step * 1e-6 && i < PLOT_MAX_TICKS; v += step, i++) {
		double shown = fabs(v) < step * 1e-6 ? 0 : v;
		t->v[i] = shown;
		snprintf(t->text[i], sizeof(t->text[0]), "%.*f", decimals, shown * factor);
	}
	t->n = i;
}

void plot_note_add(char *buf, size_t len, const char *first, const char *sep, const char *item)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? sep : first, item);
}

/* --- line chart --------------------------------------------------------------------------- */

void plot_marker(cairo_t *cr, double x, double y, enum plot_marker m, double s)
{
	double h = s / 2;

	cairo_new_path(cr);
	switch (m) {
	case PLOT_MARK_CIRCLE:
		cairo_arc(cr, x, y, h, 0, 2 * M_PI);
		break;
	case PLOT_MARK_SQUARE:
		cairo_rectangle(cr, x - h * 0.9, y - h * 0.9, 1.8 * h, 1.8 * h);
		break;
	case PLOT_MARK_TRIANGLE:
		cairo_move_to(cr, x, y - h * 1.15);
		cairo_line_to(cr, x + h, y + h * 0.75);
		cairo_line_to(cr, x - h, y + h * 0.75);
		cairo_close_path(cr);
		break;
	case PLOT_MARK_DOWN:
		cairo_move_to(cr, x, y + h * 1.15);
		cairo_line_to(cr, x + h, y - h * 0.75);
		cairo_line_to(cr, x - h, y - h * 0.75);
		cairo_close_path(cr);
		break;
	case PLOT_MARK_DIAMOND:
		cairo_move_to(cr, x, y - h * 1.2);
		cairo_line_to(cr, x + h, y);
		cairo_line_to(cr, x, y + h * 1.2);
		cairo_line_to(cr, x - h, y);
		cairo_close_path(cr);
		break;
	case PLOT_MARK_CROSS:
	case PLOT_MARK_PLUS:
	case PLOT_MARK_STAR:
		cairo_save(cr);
		cairo_set_line_width(cr, 2);
		if (m != PLOT_MARK_PLUS) {
			cairo_move_to(cr, x - h, y - h);
			cairo_line_to(cr, x + h, y + h);
			cairo_move_to(cr, x - h, y + h);
			cairo_line_to(cr, x + h, y - h);
		}
		if (m != PLOT_MARK_CROSS) {
			cairo_move_to(cr, x - h, y);
			cairo_line_to(cr, x + h, y);
			cairo_move_to(cr, x, y - h);
			cairo_line_to(cr, x, y + h);
		}
		cairo_stroke(cr);
		cairo_restore(cr);
		return;
	case PLOT_MARK_NONE:
		return;
	}
	cairo_fill(cr);
}

/* Maps data to device along one axis. */
struct plot_map {
	enum plot_scale scale;
	double lo, hi, p0, p1;   /* data range -> pixel range */
};

static double map(const struct plot_map *m, double v)
{
	double a, b, c;

	if (m->scale == PLOT_LINEAR) {
		a = m->lo;
		b = m->hi;
		c = v;
	} else {
		a = log(m->lo);
		b = log(m->hi);
		c = log(v);
	}
	return m->p0 + (c - a) / (b - a) * (m->p1 - m->p0);
}

static int usable(const struct plot_axis *a, double v)
{
	return isfinite(v) && (a->scale == PLOT_LINEAR || v > 0);
}

/* Data range of the visible series (and the ideal line, which must stay in view). */
static void data_range(const struct plot_chart *c, int ydir, double *lo, double *hi)
{
	const struct plot_axis *a = ydir ? &c->y : &c->x;
	size_t i, k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < c->n_series; i++) {
		const struct plot_series *s = &c->series[i];
		if (s->hidden)
			continue;
		for (k = 0; k < s->n; k++) {
			double v = ydir ? s->y[k] : s->x[k];
			/* x spans every point that has one, so that a chart whose values are all
			 * unavailable keeps the sizes or thread counts they would be drawn at */
			if (!usable(&c->x, s->x[k]) || (ydir && !usable(&c->y, s->y[k])))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	if (ydir && c->ideal == PLOT_IDEAL_EFFICIENCY)
		*hi = fmax(*hi, 1.0);
	if (ydir && c->ideal == PLOT_IDEAL_SPEEDUP && isfinite(*hi)) {
		/* S = N over the data's N: speedups far below it (0.01 at N = 4) still show how far */
		double xlo, xhi;
		data_range(c, 0, &xlo, &xhi);
		if (isfinite(xlo) && isfinite(xhi)) {
			*lo = fmin(*lo, xlo);
			*hi = fmax(*hi, xhi);
		}
	}
	if (isfinite(a->min))
		*lo = a->min;
	if (isfinite(a->max))
		*hi = a->max;
}

/* "time [ms]", "threads N (log2)", "speedup S": the axis title with its unit or scale. */
static void axis_title(char *buf, size_t len, const struct plot_axis *a, const struct plot_ticks *t)
{
	if (t->unit[0])
		snprintf(buf, len, "%s [%s]", a->label, t->unit);
	else
		snprintf(buf, len, "%s%s", a->label,
			 a->scale == PLOT_LOG2 ? " (log\xe2\x82\x82)" : a->scale == PLOT_LOG10 ? " (log)" : "");
}

static void draw_axis_x(cairo_t *cr, const struct plot_ticks *t, const struct plot_map *mx,
			struct plot_rect pa, const struct plot_axis *a)
{
	char label[160];
	double right = -INFINITY;    /* right end of the last label drawn */
	int i;

	plot_set_font(cr, PLOT_FONT_TICK);
	for (i = 0; i < t->n; i++) {
		double x = map(mx, t->v[i]), tw = plot_text_width(cr, t->text[i]);
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, floor(x) + 0.5, pa.y);
		cairo_line_to(cr, floor(x) + 0.5, pa.y + pa.h);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		cairo_move_to(cr, floor(x) + 0.5, pa.y + pa.h);
		cairo_line_to(cr, floor(x) + 0.5, pa.y + pa.h + 5);
		cairo_stroke(cr);
		/* a narrow chart: labels that would touch the previous one are left out (the
		 * tick stays), so "8 16 32 64" never runs together into "8163264" */
		if (x - tw / 2 < right + 6)
			continue;
		plot_text(cr, x, pa.y + pa.h + 18, PLOT_CENTER, t->text[i]);
		right = x + tw / 2;
	}
	plot_set_font(cr, PLOT_FONT_LABEL);
	axis_title(label, sizeof(label), a, t);
	plot_text(cr, pa.x + pa.w / 2, pa.y + pa.h + 38, PLOT_CENTER, label);
}

/* The y axis of plot area pa in a chart drawn into r. */
static double draw_axis_y(cairo_t *cr, const struct plot_ticks *t, const struct plot_map *my,
			  struct plot_rect pa, const struct plot_axis *a, struct plot_rect r)
{
	char label[160], base[160], *open, *close;
	double wmax = 0, above = INFINITY;   /* baseline of the last label drawn */
	double tw, cy, top, bottom;
	struct plot_axis short_a;
	int i;

	plot_set_font(cr, PLOT_FONT_TICK);
	for (i = 0; i < t->n; i++) {
		double y = map(my, t->v[i]);
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, pa.x, floor(y) + 0.5);
		cairo_line_to(cr, pa.x + pa.w, floor(y) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
		cairo_move_to(cr, pa.x - 5, floor(y) + 0.5);
		cairo_line_to(cr, pa.x, floor(y) + 0.5);
		cairo_stroke(cr);
		if (y + 4 > above - 13)   /* a short chart: no label over the previous one */
			continue;
		wmax = fmax(wmax, plot_text(cr, pa.x - 8, y + 4, PLOT_RIGHT, t->text[i]));
		above = y + 4;
	}
	plot_set_font(cr, PLOT_FONT_LABEL);
	axis_title(label, sizeof(label), a, t);
	/* a short plot (small window): the smaller font, so the title stays within the chart */
	if (plot_text_width(cr, label) > pa.h + 40)
		plot_set_font(cr, PLOT_FONT_SMALL);
	/* centred on the plot area, but within the chart's rectangle: a long title beside a
	 * short plot (the sources window at 800x600) moves down into the free corner left of
	 * the x axis instead of running off the top */
	top = r.y + 26;                                     /* below the chart's title */
	bottom = fmin(r.y + r.h, pa.y + pa.h + 50) - 2;     /* above the legend, if below */
	tw = plot_text_width(cr, label);
	/* still too long: its parenthesised asides go first ("per-thread latency (source / N)"
	 * keeps "per-thread latency"), never the unit or the scale */
	snprintf(base, sizeof(base), "%s", a->label ? a->label : "");
	while (tw > bottom - top && (open = strstr(base, " (")) && (close = strchr(open, ')'))) {
		memmove(open, close + 1, strlen(close + 1) + 1);
		short_a = *a;
		short_a.label = base;
		axis_title(label, sizeof(label), &short_a, t);
		tw = plot_text_width(cr, label);
	}
	cy = pa.y + pa.h / 2;
	if (cy + tw / 2 > bottom)
		cy = bottom - tw / 2;
	if (cy - tw / 2 < top)
		cy = top + tw / 2;
	plot_text_vertical(cr, pa.x - wmax - 18, cy, label);
	return wmax;
}

/* Width the y tick labels need, measured before layout. */
static double y_ticks_width(cairo_t *cr, const struct plot_ticks *t)
{
	double w = 0;
	int i;

	plot_set_font(cr, PLOT_FONT_TICK);
	for (i = 0; i < t->n; i++)
		w = fmax(w, plot_text_width(cr, t->text[i]));
	return w;
}

/* Width of a legend column: the longest label, and with `notes` the longest note line (notes
 * wrap, so a note only widens the column a little). */
static double legend_width(cairo_t *cr, const struct plot_chart *c, int notes)
{
	double w = 0;
	size_t i;
	const char *p;

	plot_set_font(cr, PLOT_FONT_LABEL);
	for (i = 0; i < c->n_series; i++)
		w = fmax(w, plot_text_width(cr, c->series[i].label));
	if (c->ideal != PLOT_IDEAL_NONE)
		w = fmax(w, plot_text_width(cr, "ideal"));
	plot_set_font(cr, PLOT_FONT_SMALL);
	for (p = notes ? c->note : NULL; p && *p;) {
		char line[256];
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255), p);
		w = fmax(w, plot_text_width(cr, line) - 36);
		p += n + (p[n] == '\n');
	}
	return w + 44;
}

static void set_series_style(cairo_t *cr, const struct plot_series *s)
{
	static const double dash[] = { 6, 4 };

	plot_color(cr, s->color);
	cairo_set_line_width(cr, s->thick ? 7 : 2);
	cairo_set_dash(cr, dash, s->dashed ? 2 : 0, 0);
}

/* Where the legend goes: beside the plot (one column) when it is narrow enough and fits in
 * the height, else below the plot in as many columns as the width allows (small charts). */
struct legend_layout {
	int below;
	size_t cols;
	double col_w, row_h, h;   /* h: height taken below the plot (0 beside) */
};

static size_t note_lines(const char *note)
{
	size_t n = note && *note ? 1 : 0;

	for (; note && *note; note++)
		n += *note == '\n' && note[1];
	return n;
}

/* Height of the note wrapped to width w (as draw_legend draws it). */
static double note_height(cairo_t *cr, const char *note, double w)
{
	double h;

	if (!note || !*note)
		return 0;
	cairo_save(cr);
	plot_set_font(cr, PLOT_FONT_SMALL);
	h = text_wrapped(cr, 0, 0, w, 15, note, 0);
	cairo_restore(cr);
	return h;
}

/* Below the plot a tall note goes into two columns when the strip is wide enough (a narrow
 * sources window at 800x600 gave the note more height than the plot): returns the offset of
 * the line that starts the second column (at a blank line near the middle when there is one),
 * or 0 for one column. */
static size_t note_split(const char *note, double w)
{
	size_t lines = note_lines(note), k = 0, best = 0, i;
	double best_d = 1e9;

	if (!note || w < 600 || lines < 6)
		return 0;
	for (i = 0; note[i]; i++) {
		if (note[i] != '\n' || !note[i + 1])
			continue;
		k++;
		/* distance from the middle, a blank line (a new item) counting as closer */
		double d = fabs((double)k - (double)lines / 2) - (note[i + 1] == '\n' ? 3 : 0);
		if (d < best_d) {
			best_d = d;
			best = i + 1;
		}
	}
	return best;
}

/* Height of the note drawn below in w, in one or two columns (note_split). */
static double note_height_below(cairo_t *cr, const char *note, double w)
{
	size_t at = note_split(note, w);
	char *first;
	double h;

	if (!at)
		return fmax(15.0 * (double)note_lines(note), note_height(cr, note, w));
	if (!(first = strndup(note, at)))
		return note_height(cr, note, w);
	h = fmax(note_height(cr, first, w / 2 - 8), note_height(cr, note + at, w / 2 - 8));
	free(first);
	return h;
}

static struct legend_layout legend_layout(cairo_t *cr, struct plot_rect r, const struct plot_chart *c,
					  int below)
{
	/* beside: as wide as the labels, or as the notes up to the width allowed; longer note
	 * lines wrap in the column */
	struct legend_layout l = { 0, 1, fmax(legend_width(cr, c, 0),
					      fmin(legend_width(cr, c, 1), r.w * 0.4)), 20, 0 };
	size_t rows = c->n_series + (c->ideal != PLOT_IDEAL_NONE);
	double notes_h = 15.0 * (double)note_lines(c->note);

	if (c->legend_off) {
		l.col_w = 0;
		return l;
	}
	if (!below && l.col_w <= r.w * 0.4 &&
	    20.0 * (double)rows + 20 + note_height(cr, c->note, l.col_w - 4) <= r.h - 86)
		return l;
	l.below = 1;
	l.row_h = 18;
	l.col_w = legend_width(cr, c, 0);
	l.cols = (size_t)fmax(1, floor((r.w - 24) / l.col_w));
	if (l.cols > rows)
		l.cols = rows ? rows : 1;
	l.col_w = fmin(l.col_w, (r.w - 24) / (double)l.cols);
	l.h = l.row_h * ceil((double)rows / (double)l.cols) + 8 +
	      (c->note ? note_height_below(cr, c->note, r.w - 24) : notes_h);
	return l;
}

/* One legend entry: line and marker sample, then the label clipped to the column. */
static void legend_entry(cairo_t *cr, const struct plot_series *s, double x, double y, double col_w)
{
	static const double dash[] = { 4, 4 };

	if (s) {
		set_series_style(cr, s);
		if (s->hidden)
			cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
	} else {
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		cairo_set_line_width(cr, 1.5);
		cairo_set_dash(cr, dash, 2, 0);
	}
	cairo_move_to(cr, x, y - 4);
	cairo_line_to(cr, x + 28, y - 4);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (s)
		plot_marker(cr, x + 14, y - 4, s->marker, 8);
	plot_set_font(cr, PLOT_FONT_LABEL);
	if (s && s->hidden)
		cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
	else
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_save(cr);
	cairo_rectangle(cr, x + 34, y - 16, col_w - 40, 22);
	cairo_clip(cr);
	plot_text(cr, x + 36, y, PLOT_LEFT, s ? s->label : "ideal");
	cairo_restore(cr);
}

static void draw_legend(cairo_t *cr, const struct plot_chart *c, const struct legend_layout *l,
			double x, double y, double max_w)
{
	size_t i, n = c->n_series + (c->ideal != PLOT_IDEAL_NONE);
	size_t rows = (n + l->cols - 1) / l->cols;

	/* column-major, so a column reads top to bottom like the beside legend */
	for (i = 0; i < n; i++)
		legend_entry(cr, i < c->n_series ? &c->series[i] : NULL,
			     x + l->col_w * (double)(i / rows), y + l->row_h * (double)(i % rows), l->col_w);
	y += l->row_h * (double)rows + 8;
	plot_set_font(cr, PLOT_FONT_SMALL);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	if (c->note) {
		size_t at = l->below ? note_split(c->note, max_w) : 0;
		char *first = at ? strndup(c->note, at) : NULL;
		if (first) {
			plot_text_wrapped(cr, x, y, max_w / 2 - 8, 15, first);
			plot_text_wrapped(cr, x + max_w / 2 + 8, y, max_w / 2 - 8, 15, c->note + at);
			free(first);
		} else
			plot_text_wrapped(cr, x, y, max_w, 15, c->note);
	}
}

void plot_hits_attach(cairo_t *cr, struct plot_hits *h)
{
	cairo_set_user_data(cr, &hits_key, h, NULL);
}

void plot_hits_reset(struct plot_hits *h)
{
	h->n = 0;
}

void plot_hits_free(struct plot_hits *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* A new, zeroed hit in the sink attached to cr, or NULL (none attached, out of memory). */
static struct plot_hit *hit_new(cairo_t *cr)
{
	struct plot_hits *h = cairo_get_user_data(cr, &hits_key);
	struct plot_hit *e;

	if (!h)
		return NULL;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct plot_hit *v = realloc(h->v, cap * sizeof(*v));
		if (!v)
			return NULL;   /* best effort, as the text sink */
		h->v = v;
		h->cap = cap;
	}
	e = &h->v[h->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* Records a marker of series s at data (x, y), drawn at user (ux, uy). */
static void hit_add(cairo_t *cr, const struct plot_chart *c, const struct plot_series *s,
		    size_t k, double ux, double uy)
{
	struct plot_hit *e = hit_new(cr);

	if (!e)
		return;
	cairo_user_to_device(cr, &ux, &uy);
	e->px = ux;
	e->py = uy;
	e->x = s->x[k];
	e->y = s->y[k];
	e->y_unit = c->y.unit;
	snprintf(e->series, sizeof(e->series), "%s", s->label ? s->label : "");
	snprintf(e->x_label, sizeof(e->x_label), "%s", c->x.label ? c->x.label : "x");
	snprintf(e->y_label, sizeof(e->y_label), "%s", c->y.label ? c->y.label : "y");
	if (s->notes && s->notes[k])
		snprintf(e->note, sizeof(e->note), "%s", s->notes[k]);
}

void plot_hit_rect(cairo_t *cr, struct plot_rect r, const char *series, const char *x_label,
		   const char *x_text, const char *y_label, double y, enum plot_unit unit)
{
	struct plot_hit *e = hit_new(cr);
	double x0 = r.x, y0 = r.y, x1 = r.x + r.w, y1 = r.y + r.h;
	char *end = NULL;

	if (!e)
		return;
	cairo_user_to_device(cr, &x0, &y0);
	cairo_user_to_device(cr, &x1, &y1);
	e->px = fmin(x0, x1);
	e->py = fmin(y0, y1);
	e->pw = fabs(x1 - x0);
	e->ph = fabs(y1 - y0);
	/* a numeric column label ("4": threads N) is the hit's x too, as a chart point's */
	e->x = x_text && *x_text ? strtod(x_text, &end) : NAN;
	if (!x_text || !*x_text || *end)
		e->x = NAN;
	e->y = y;
	e->y_unit = unit;
	snprintf(e->x_text, sizeof(e->x_text), "%s", x_text ? x_text : "");
	snprintf(e->series, sizeof(e->series), "%s", series ? series : "");
	snprintf(e->x_label, sizeof(e->x_label), "%s", x_label ? x_label : "x");
	snprintf(e->y_label, sizeof(e->y_label), "%s", y_label ? y_label : "y");
}

const struct plot_hit *plot_hits_nearest(const struct plot_hits *h, double x, double y,
					 double max_d)
{
	const struct plot_hit *best = NULL;
	double bd = max_d * max_d;
	size_t i;

	for (i = 0; h && i < h->n; i++) {
		const struct plot_hit *e = &h->v[i];
		/* from a rectangle: to its nearest edge, 0 inside */
		double dx = x < e->px ? e->px - x : x > e->px + e->pw ? x - e->px - e->pw : 0;
		double dy = y < e->py ? e->py - y : y > e->py + e->ph ? y - e->py - e->ph : 0;
		double d = dx * dx + dy * dy;
		if (d < bd || (d == bd && (!best || e->pw * e->ph <= best->pw * best->ph))) {
			bd = d;
			best = e;
		}
	}
	return best;
}

void plot_hit_text(const struct plot_hit *h, char *buf, size_t len)
{
	char xs[32], ys[32];

	if (h->x_text[0])
		snprintf(xs, sizeof(xs), "%s", h->x_text);
	else if (h->x == floor(h->x) && fabs(h->x) < 1e4)
		snprintf(xs, sizeof(xs), "%.0f", h->x);
	else
		plot_format_si(xs, sizeof(xs), h->x);
	if (h->y_unit == PLOT_UNIT_SECONDS)
		plot_format_seconds(ys, sizeof(ys), h->y);
	else if (h->y_unit == PLOT_UNIT_PERCENT)
		snprintf(ys, sizeof(ys), "%.1f %%", 100 * h->y);
	else
		snprintf(ys, sizeof(ys), "%.3g", h->y);
	snprintf(buf, len, "%s: %s = %s, %s = %s%s%s", h->series, h->x_label, xs, h->y_label, ys,
		 h->note[0] ? "; " : "", h->note);
}

/* The points' tags (the report's "!"), over everything else of the plot (lines, p_x marks and
 * their labels): bold, right of the marker (clear of a p_x circle), dark red on a white ground
 * so it reads over the lines that cross there. */
static void draw_tags(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
		      const struct plot_map *my)
{
	size_t i, k;

	cairo_save(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 14);
	for (i = 0; i < c->n_series; i++) {
		const struct plot_series *s = &c->series[i];
		for (k = 0; !s->hidden && s->tags && k < s->n; k++) {
			double x, y, w;
			if (!s->tags[k] || !*s->tags[k] || !usable(&c->x, s->x[k]) ||
			    !usable(&c->y, s->y[k]))
				continue;
			x = map(mx, s->x[k]);
			y = map(my, s->y[k]);
			w = plot_text_width(cr, s->tags[k]);
			/* a point at the right end of the x axis: the tag goes left of it, inside
			 * the plot (right of it, it was cut by the window's edge) */
			double tx = x + 12 + w > fmax(mx->p0, mx->p1) ? x - 12 - w : x + 12;
			cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
			cairo_rectangle(cr, tx - 2, y - 9, w + 4, 17);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0.75, 0.05, 0.05);
			plot_text(cr, tx, y + 5, PLOT_LEFT, s->tags[k]);
		}
	}
	cairo_restore(cr);
}

/* The band over x > c->band_x (the N above the CPU count), under the lines: a light grey ground
 * and a dashed edge. */
static void draw_band(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
		      struct plot_rect pa)
{
	static const double dash[] = { 5, 3 };
	double x;

	if (!c->band_label || !usable(&c->x, c->band_x))
		return;
	x = map(mx, c->band_x);
	if (x >= pa.x + pa.w)
		return;
	x = fmax(x, pa.x);
	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
	cairo_rectangle(cr, x, pa.y, pa.x + pa.w - x, pa.h);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	cairo_set_line_width(cr, 1);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, floor(x) + 0.5, pa.y);
	cairo_line_to(cr, floor(x) + 0.5, pa.y + pa.h);
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* The band's label, over the lines (drawn last): in the band's top right corner, reaching left
 * over its edge when the band is narrower, on a translucent white ground. */
static void draw_band_label(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
			    struct plot_rect pa)
{
	double w;

	if (!c->band_label || !usable(&c->x, c->band_x) || map(mx, c->band_x) >= pa.x + pa.w)
		return;
	cairo_save(cr);
	plot_set_font(cr, PLOT_FONT_SMALL);
	w = plot_text_width(cr, c->band_label);
	cairo_set_source_rgba(cr, 0.93, 0.93, 0.93, 0.85);
	cairo_rectangle(cr, pa.x + pa.w - 6 - w, pa.y + 2, w + 4, 15);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	plot_text(cr, pa.x + pa.w - 4, pa.y + 13, PLOT_RIGHT, c->band_label);
	cairo_restore(cr);
}

static void draw_one_series(cairo_t *cr, const struct plot_chart *c, const struct plot_series *s,
			    const struct plot_map *mx, const struct plot_map *my)
{
	size_t k;
	int pen = 0;

	set_series_style(cr, s);
	for (k = 0; k < s->n; k++) {
		if (!usable(&c->x, s->x[k]) || !usable(&c->y, s->y[k])) {
			pen = 0; /* unavailable: a gap, never a zero */
			continue;
		}
		if (pen)
			cairo_line_to(cr, map(mx, s->x[k]), map(my, s->y[k]));
		else
			cairo_move_to(cr, map(mx, s->x[k]), map(my, s->y[k]));
		pen = 1;
	}
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	for (k = 0; k < s->n; k++)
		if (usable(&c->x, s->x[k]) && usable(&c->y, s->y[k])) {
			plot_marker(cr, map(mx, s->x[k]), map(my, s->y[k]), s->marker, 8);
			hit_add(cr, c, s, k, map(mx, s->x[k]), map(my, s->y[k]));
		}
}

static void draw_series(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
			const struct plot_map *my)
{
	size_t i;

	/* thick bands (totals) first, so the lines of their parts stay on top */
	for (i = 0; i < c->n_series; i++)
		if (!c->series[i].hidden && c->series[i].thick)
			draw_one_series(cr, c, &c->series[i], mx, my);
	for (i = 0; i < c->n_series; i++)
		if (!c->series[i].hidden && !c->series[i].thick)
			draw_one_series(cr, c, &c->series[i], mx, my);
}

static void draw_ideal(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
		       const struct plot_map *my, struct plot_rect pa)
{
	static const double dash[] = { 4, 4 };
	double x0 = mx->lo, x1 = mx->hi;

	cairo_save(cr);
	cairo_rectangle(cr, pa.x, pa.y, pa.w, pa.h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	cairo_set_line_width(cr, 1.5);
	cairo_set_dash(cr, dash, 2, 0);
	if (c->ideal == PLOT_IDEAL_EFFICIENCY) {
		cairo_move_to(cr, pa.x, map(my, 1));
		cairo_line_to(cr, pa.x + pa.w, map(my, 1));
	} else {
		int k, steps = 64;
		/* y = x is a curve on mixed linear/log axes: sample it */
		for (k = 0; k <= steps; k++) {
			double x = c->x.scale == PLOT_LINEAR ? x0 + (x1 - x0) * k / steps
							     : x0 * pow(x1 / x0, (double)k / steps);
			if (!usable(&c->y, x))
				continue;
			if (k == 0)
				cairo_move_to(cr, map(mx, x), map(my, x));
			else
				cairo_line_to(cr, map(mx, x), map(my, x));
		}
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* One marked point; its label goes `slot` lines away from the point (several marks: compare). */
static void draw_mark_at(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
			 const struct plot_map *my, struct plot_rect pa, double mxv, double myv,
			 const char *label, int slot)
{
	static const double dash[] = { 2, 3 };
	double x, y;

	if (!usable(&c->x, mxv) || !usable(&c->y, myv))
		return;
	x = map(mx, mxv);
	y = map(my, myv);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_set_line_width(cr, 1);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_move_to(cr, x, pa.y + pa.h);
	cairo_line_to(cr, x, y);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 2);
	cairo_arc(cr, x, y, 8, 0, 2 * M_PI);
	cairo_stroke(cr);
	if (label) {
		plot_set_font(cr, PLOT_FONT_SMALL);
		/* label above the point, kept inside the plot area */
		double w = plot_text_width(cr, label);
		double lx = fmin(fmax(x - w / 2, pa.x + 2), pa.x + pa.w - w - 2);
		double ly = y - 14 - 17 * slot < pa.y + 12 ? y + 24 + 17 * slot : y - 14 - 17 * slot;
		/* on a translucent white ground: the curves through the point cross the label */
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, lx - 2, ly - 11, w + 4, 14);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		plot_text(cr, lx, ly, PLOT_LEFT, label);
	}
}

static void draw_mark(cairo_t *cr, const struct plot_chart *c, const struct plot_map *mx,
		      const struct plot_map *my, struct plot_rect pa)
{
	size_t k;
	int slot = 0;

	if (usable(&c->x, c->mark_x) && usable(&c->y, c->mark_y))
		draw_mark_at(cr, c, mx, my, pa, c->mark_x, c->mark_y, c->mark_label, slot++);
	for (k = 0; k < c->n_marks; k++)
		draw_mark_at(cr, c, mx, my, pa, c->marks[k].x, c->marks[k].y, c->marks[k].label,
			     slot++);
}

double plot_legend_height(cairo_t *cr, double w, const struct plot_chart *c)
{
	struct plot_chart k = *c;

	k.legend_off = 0;
	return legend_layout(cr, (struct plot_rect){ 0, 0, w, 0 }, &k, 1).h;
}

void plot_legend_draw(cairo_t *cr, struct plot_rect r, const struct plot_chart *c)
{
	struct plot_chart k = *c;
	struct legend_layout ll;

	k.legend_off = 0;
	ll = legend_layout(cr, r, &k, 1);
	cairo_save(cr);
	draw_legend(cr, &k, &ll, r.x + 12, r.y + 16, r.w - 24);
	cairo_restore(cr);
}

int plot_chart_draw(cairo_t *cr, struct plot_rect r, const struct plot_chart *c)
{
	struct plot_ticks tx, ty;
	struct plot_map mx, my;
	struct plot_rect pa;
	struct legend_layout ll;
	double lo, hi, yw;

	if (r.w < 40 || r.h < 40)
		return -EINVAL;
	cairo_save(cr);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	data_range(c, 0, &lo, &hi);
	plot_ticks_make(&tx, &c->x, lo, hi);
	data_range(c, 1, &lo, &hi);
	plot_ticks_make(&ty, &c->y, lo, hi);

	ll = legend_layout(cr, r, c, 0);
	yw = y_ticks_width(cr, &ty);
	pa.x = r.x + yw + 34;
	pa.y = r.y + 34;
	pa.w = r.w - (pa.x - r.x) - (ll.below ? 0 : ll.col_w) - 16;
	pa.h = r.h - 34 - 52 - ll.h;
	if (pa.w < 20 || pa.h < 20) {
		cairo_restore(cr);
		return -EINVAL;
	}
	mx = (struct plot_map){ c->x.scale, tx.lo, tx.hi, pa.x, pa.x + pa.w };
	my = (struct plot_map){ c->y.scale, ty.lo, ty.hi, pa.y + pa.h, pa.y };

	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_TITLE);
	plot_text(cr, r.x + r.w / 2, r.y + 20, PLOT_CENTER, c->title);

	cairo_set_line_width(cr, 1);
	draw_band(cr, c, &mx, pa);
	draw_axis_x(cr, &tx, &mx, pa, &c->x);
	draw_axis_y(cr, &ty, &my, pa, &c->y, r);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	cairo_rectangle(cr, floor(pa.x) + 0.5, floor(pa.y) + 0.5, floor(pa.w), floor(pa.h));
	cairo_stroke(cr);

	if (c->ideal != PLOT_IDEAL_NONE)
		draw_ideal(cr, c, &mx, &my, pa);
	cairo_save(cr);
	cairo_rectangle(cr, pa.x - 6, pa.y - 6, pa.w + 12, pa.h + 12);
	cairo_clip(cr);
	draw_series(cr, c, &mx, &my);
	draw_mark(cr, c, &mx, &my, pa);
	draw_band_label(cr, c, &mx, pa);
	draw_tags(cr, c, &mx, &my);
	cairo_restore(cr);
	if (c->legend_off)
		;
	else if (ll.below)
		draw_legend(cr, c, &ll, r.x + 12, pa.y + pa.h + 64, r.w - 24);
	else
		draw_legend(cr, c, &ll, pa.x + pa.w + 16, pa.y + 12, r.x + r.w - (pa.x + pa.w + 16) - 4);
	cairo_restore(cr);
	return 0;
}
