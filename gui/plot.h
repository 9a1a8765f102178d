/*
 * plot.h — xscalegraph's drawing code. Everything here draws on a cairo_t and nothing else, so
 * the same code paints an X window (cairo-xlib), a PNG, an SVG and a PDF (DESIGN.md: one drawing
 * code; Grace's X-free plotting core is the model). No GUI model, no X: plots take plain arrays.
 *
 * Coordinates are cairo user units (pixels on screen and in PNG, points in PDF). Times are in
 * seconds and shown with an automatic unit (s, ms, µs, ns); fractions are shown as percent. A
 * NAN value means "unavailable": it is never drawn (a gap in a line, a missing bar, a grey cell),
 * never as zero. Colours come from the Okabe–Ito palette (colour-blind safe); series also differ
 * by marker so print in grey stays readable.
 *
 * Every string a plot draws is also handed to the text sink attached to the cairo_t, if any:
 * the SVG writer puts them into <desc>, so tests and screen readers see the labels that cairo
 * emits as glyph outlines.
 */
#ifndef GUI_PLOT_H
#define GUI_PLOT_H

#include <cairo.h>
#include <stddef.h>
#include <stdio.h>

struct plot_rect {
	double x, y, w, h;
};

/* --- text and colours ------------------------------------------------------------------- */

enum plot_align { PLOT_LEFT, PLOT_CENTER, PLOT_RIGHT };
enum plot_font { PLOT_FONT_TITLE, PLOT_FONT_LABEL, PLOT_FONT_TICK, PLOT_FONT_SMALL };

/* Collects the text drawn while attached (growing buffer, one string per line). */
struct plot_text_sink {
	char *buf;
	size_t len, cap;
};
void plot_text_sink_attach(cairo_t *cr, struct plot_text_sink *sink);
void plot_text_sink_free(struct plot_text_sink *sink);
/* Text cut off: while attached, every string whose ink is not wholly inside the cairo_t's clip
 * (an image surface's edges) also goes to this sink — what the edge of a window hides. The
 * layout tests draw a window at a screen's size and want it empty. */
void plot_cut_sink_attach(cairo_t *cr, struct plot_text_sink *sink);

void plot_set_font(cairo_t *cr, enum plot_font f);
/* Draws `s` (UTF-8) with its baseline at y, aligned on x; returns its width. */
double plot_text(cairo_t *cr, double x, double y, enum plot_align a, const char *s);
double plot_text_width(cairo_t *cr, const char *s);
/* Draws s left-aligned from (x, y), breaking lines at '\n' and at spaces to stay within max_w;
 * returns the baseline after the last line. */
double plot_text_wrapped(cairo_t *cr, double x, double y, double max_w, double line_h,
			 const char *s);
/* Same, rotated 90° counter-clockwise, centred on (x, y) (vertical axis titles). */
void plot_text_vertical(cairo_t *cr, double x, double y, const char *s);

#define PLOT_N_COLORS 8
#define PLOT_GREY (-1)       /* light grey: "nothing happens" (idle lanes) */
#define PLOT_GREY_MID (-2)   /* mid grey: idle as a line or a layer, visible on white */
#define PLOT_GREY_DARK (-3)  /* dark grey: asleep (blocked), apart from idle and black */
/* Palette colour idx; idx >= PLOT_N_COLORS gives the tint (halfway to white) of
 * idx - PLOT_N_COLORS, for a second shade of the same hue; PLOT_GREY* the greys. */
void plot_color(cairo_t *cr, int idx);
void plot_color_rgb(int idx, double rgb[3]);
void plot_background(cairo_t *cr, struct plot_rect r);

/* --- axes ------------------------------------------------------------------------------- */

enum plot_scale { PLOT_LINEAR, PLOT_LOG2, PLOT_LOG10 };
enum plot_unit { PLOT_UNIT_NONE, PLOT_UNIT_SECONDS, PLOT_UNIT_PERCENT };

struct plot_axis {
	const char *label;      /* "threads N"; the unit is appended: "time [ms]" */
	enum plot_scale scale;
	enum plot_unit unit;
	double min, max;        /* NAN: from the data */
	int from_zero;          /* linear: the range includes 0 */
};

/* Tick positions of an axis range, and their labels. */
#define PLOT_MAX_TICKS 24
struct plot_ticks {
	double lo, hi;                   /* the (extended) range, data units */
	double v[PLOT_MAX_TICKS];
	char text[PLOT_MAX_TICKS][24];
	int n;
	const char *unit;                /* "ms", "%", "" */
};
/* Computes "nice" ticks (1, 2, 5 x 10^k; powers of 2 or 10 on log axes) covering [lo, hi] and
 * extends the range to the outer ticks on linear axes. Seconds pick s/ms/µs/ns by magnitude. */
void plot_ticks_make(struct plot_ticks *t, const struct plot_axis *a, double lo, double hi);
/* "12.5 ms", "340 µs", "1.2 s": a time with its automatic unit, 3 significant digits. */
void plot_format_seconds(char *buf, size_t len, double s);
/* "1k", "20M": SI suffixes, for problem sizes. */
void plot_format_si(char *buf, size_t len, double v);

/* --- line charts ------------------------------------------------------------------------- */

enum plot_marker {
	PLOT_MARK_CIRCLE, PLOT_MARK_SQUARE, PLOT_MARK_TRIANGLE, PLOT_MARK_DIAMOND,
	PLOT_MARK_DOWN, PLOT_MARK_CROSS, PLOT_MARK_PLUS, PLOT_MARK_STAR, PLOT_MARK_NONE
};
enum plot_ideal { PLOT_IDEAL_NONE, PLOT_IDEAL_SPEEDUP, PLOT_IDEAL_EFFICIENCY };

struct plot_series {
	const char *label;
	const double *x, *y;   /* n points; y NAN = unavailable (gap) */
	size_t n;
	int color;             /* palette index */
	enum plot_marker marker;
	int dashed;
	int hidden;            /* toggled off: neither drawn nor scaled, legend greyed */
	int thick;             /* a wide band drawn behind the other lines (a total beside its
				  parts) */
	/* Per point, each NULL or NULL entries for none: a short mark drawn beside the marker
	 * (the report's "!"), and a note the point's readout (value on hover) adds after its value */
	const char *const *tags;
	const char *const *notes;
};

/* A marked point (p_x): circled, a dotted line down to the axis, its label above it. */
struct plot_mark {
	double x, y;
	const char *label;
};

struct plot_chart {
	const char *title;
	struct plot_axis x, y;
	const struct plot_series *series;
	size_t n_series;
	double mark_x, mark_y;  /* a marked point (p_x); NAN for none */
	const char *mark_label;
	const struct plot_mark *marks;  /* more marked points (compare: each experiment's p_x),
					   labels stacked so they do not overlap */
	size_t n_marks;
	enum plot_ideal ideal;
	/* A shaded band over x > band_x with its label at the top (the N above the machine's
	 * CPUs: oversubscribed); band_label NULL for none */
	double band_x;
	const char *band_label;
	const char *note;       /* extra lines under the legend ('\n' separated) */
	int legend_off;         /* no legend: several charts share one (plot_legend_draw) */
};

void plot_marker(cairo_t *cr, double x, double y, enum plot_marker m, double size);

/* Value on hover: while attached to a cairo_t, every marker a line chart draws is recorded
 * with its position in device pixels, its series and its value, so a window can answer "what
 * is under the pointer" from the drawing it shows (no second layout code to keep in step). */
struct plot_hit {
	double px, py;          /* device pixels: a marker's centre, a rectangle's corner */
	double pw, ph;          /* a rectangle (a stacked column's layer): its size, else 0 */
	double x, y;            /* data */
	char x_text[32];        /* a column's label, in place of x when set */
	char series[96];
	char x_label[48], y_label[64];
	enum plot_unit y_unit;
	char note[200];         /* the point's note (plot_series.notes), "" for none */
};
struct plot_hits {
	struct plot_hit *v;
	size_t n, cap;
};
void plot_hits_attach(cairo_t *cr, struct plot_hits *h);
void plot_hits_reset(struct plot_hits *h);   /* n = 0, keeps the buffer */
void plot_hits_free(struct plot_hits *h);
/* Records rectangle r (user units) drawn for value y of `series` in column x_text (a stacked
 * column's layer: "IT_barrier" at "threads N" = "4"; a numeric label is its x too, else x is
 * NAN), when a hit sink is attached. */
void plot_hit_rect(cairo_t *cr, struct plot_rect r, const char *series, const char *x_label,
		   const char *x_text, const char *y_label, double y, enum plot_unit unit);
/* The recorded point nearest (x, y) within max_d pixels, or NULL; a rectangle is at distance 0
 * from the points inside it (the smallest one wins among those containing (x, y)). */
const struct plot_hit *plot_hits_nearest(const struct plot_hits *h, double x, double y,
					 double max_d);
/* "fixed: threads N = 2, average latency L(W,N) = 2.21 ms", then "; " and the point's note. */
void plot_hit_text(const struct plot_hit *h, char *buf, size_t len);
/* Draws the chart into r. Returns 0, or -EINVAL for an empty rectangle. The legend goes beside
 * the plot when it fits there, else below it in as many columns as the width allows. */
int plot_chart_draw(cairo_t *cr, struct plot_rect r, const struct plot_chart *c);
/* Appends `item` to the note in buf (size len): after `first` when buf is empty, else after
 * `sep`; cut at the buffer's end. */
void plot_note_add(char *buf, size_t len, const char *first, const char *sep, const char *item);

/* A legend shared by charts drawn with legend_off: the series, ideal line and note of c in
 * columns across a strip of width w; plot_legend_height says how tall the strip must be. */
double plot_legend_height(cairo_t *cr, double w, const struct plot_chart *c);
void plot_legend_draw(cairo_t *cr, struct plot_rect r, const struct plot_chart *c);

/* --- bars, tables, matrix, timeline (plot_chart.c) ---------------------------------------- */

struct plot_bar {
	const char *label;
	double value;           /* NAN: unavailable, listed, no bar */
	const char *text;       /* printed after the bar, e.g. "95.2 %  3.81 s" */
};
struct plot_hbars {
	const char *title;
	const char *axis_label;
	enum plot_unit unit;
	const struct plot_bar *bars;
	size_t n;
	int color;
};
int plot_hbars_draw(cairo_t *cr, struct plot_rect r, const struct plot_hbars *b);

/* Stacked columns: n_groups columns, each with n_layers stacked values ([g * n_layers + l],
 * NAN = unavailable, skipped and named in the note). */
struct plot_stack {
	const char *title;
	const char *x_label, *y_label;
	enum plot_unit unit;
	const char *const *group_labels;
	size_t n_groups;
	const char *const *layer_labels;
	const int *layer_colors;
	size_t n_layers;
	const double *values;
	int legend_off;         /* no legend beside the columns (another legend names the
				   colours): the columns take the width */
};
int plot_stack_draw(cairo_t *cr, struct plot_rect r, const struct plot_stack *s);

/* A text table (rows of cells), for the browser's export; `status_col` (or -1) tints rows whose
 * cell there is not "ok". */
struct plot_table {
	const char *title;
	const char *const *headers;
	size_t n_cols;
	const char *const *cells;   /* [row * n_cols + col] */
	size_t n_rows;
	int status_col;             /* a run's status: a row not "ok" on the warning colour, one
				       "running" or "pending" (in progress: neither ok nor failed)
				       on a neutral one; -1 none */
	int compact;                /* a short window: title, header and rows closer together
				       (PLOT_TABLE_HEAD + rows of PLOT_TABLE_ROW_COMPACT) */
};
/* Where the first row's baseline is below a table's top, less one row, and a row's height. */
#define PLOT_TABLE_HEAD 48
#define PLOT_TABLE_ROW 19
#define PLOT_TABLE_HEAD_COMPACT 34
#define PLOT_TABLE_ROW_COMPACT 16
/* The grounds of a status column's rows: failed and interrupted (not ok), in progress. */
#define PLOT_RGB_NOT_OK 1.0, 0.90, 0.80
#define PLOT_RGB_IN_PROGRESS 0.86, 0.91, 0.97
/* 1 for the statuses of a run in progress ("running", "pending"). */
int plot_status_in_progress(const char *status);
/* Draws as many rows as fit (a last "... N more rows" line when some do not); returns the number
 * drawn. Row k is drawn when head + (k + 1) rows fit above the rectangle's bottom edge. */
size_t plot_table_draw(cairo_t *cr, struct plot_rect r, const struct plot_table *t);

/* The upper-triangular scalability matrix of Scale-Graph Fig. 14: rows N, columns N', each
 * cell three values (time-bound / E-conserved / memory-bound), each colour-coded. */
struct plot_mcell {
	double v[3];            /* NAN: unavailable ("n/a") */
	int caveat;             /* marks v[0] with '*' (paper §6.4) */
	int off[3];             /* marks v[k] with '~': its size search missed the target */
};
struct plot_matrix {
	const char *title;
	const int *ns;
	size_t n_ns;
	const struct plot_mcell *cells; /* [i * n_ns + j], read for i < j */
	const char *value_names[3];
	const char *note;
	int sel_i, sel_j;               /* highlighted cell, -1 for none */
};
int plot_matrix_draw(cairo_t *cr, struct plot_rect r, const struct plot_matrix *m);
/* The cell under (x, y) after drawing into r: returns 1 and sets *i < *j, else 0. */
int plot_matrix_hit(struct plot_rect r, const struct plot_matrix *m, double x, double y,
		    int *i, int *j);
/* The cell background for a scale value (diverging PuOr, 0 orange .. 1 purple). */
void plot_scale_rgb(double v, double rgb[3]);

/* Thread lanes coloured by state over [t_min, t_max] seconds (the visible window: zoom/pan by
 * changing it). Lane labels sit in a fixed column of PLOT_TIMELINE_LABEL_W pixels; under the
 * lanes come the time axis and the state legend, a grid of columns (each as wide as its
 * longest name) that wraps into more rows when the width is short. Callers map clicks with
 * plot_timeline_layout, which needs no cairo_t. */
struct plot_segment {
	double t0, t1;
	int state;
};
struct plot_lane {
	const char *label;
	const struct plot_segment *segs;
	size_t n;
};
struct plot_timeline {
	const char *title;
	const struct plot_lane *lanes;
	size_t n_lanes;
	const char *const *state_names;
	const int *state_colors;   /* palette indices (PLOT_GREY allowed); NULL: state = index */
	size_t n_states;
	double t_min, t_max;
	int sel_lane;              /* lane of the outlined interval [sel_t0, sel_t1], -1: none */
	double sel_t0, sel_t1;
	const int *legend;         /* the legend's cells column by column, legend_per_col to a
				      column: a state, or -1 for an empty cell; NULL: every state
				      in index order */
	size_t n_legend;           /* cells in legend */
	size_t legend_per_col;     /* 0 or 1: one row that wraps */
};
#define PLOT_TIMELINE_LABEL_W 124
/* Rows of the state legend when the timeline is drawn w pixels wide. */
size_t plot_timeline_legend_rows(const struct plot_timeline *t, double w);
/* Where the lanes of timeline t drawn into r go: the lanes' rectangle and one lane's height. */
void plot_timeline_layout(struct plot_rect r, const struct plot_timeline *t,
			  struct plot_rect *lanes, double *lane_h);
/* The height the timeline drawn into r takes: down to the last legend row. */
double plot_timeline_height(struct plot_rect r, const struct plot_timeline *t);
int plot_timeline_draw(cairo_t *cr, struct plot_rect r, const struct plot_timeline *t);

/* --- files (plot_out.c) ------------------------------------------------------------------ */

enum plot_format { PLOT_PNG, PLOT_SVG, PLOT_PDF };
typedef int (*plot_draw_fn)(cairo_t *cr, double w, double h, void *arg);
/* Renders fn at w x h into the open file f (`label` names it in messages). The SVG gets
 * <title>title</title> and a <desc> holding every string drawn; the PDF gets a fixed creation
 * date so files are reproducible. On error returns -errno and writes "label: error: ..." into
 * err. */
int plot_render_stream(FILE *f, const char *label, enum plot_format fmt, int w, int h,
		       const char *title, plot_draw_fn fn, void *arg, char *err, size_t err_len);
/* The same into a new file made as outfile.h says (a temporary file renamed into place, no link
 * followed): `name` in directory dirfd (`dir` its path, for messages), or `path`; `replace`: an
 * existing file of that name is replaced, else the render fails with -EEXIST. plot_render_file
 * replaces. */
int plot_render_at(int dirfd, const char *dir, const char *name, int replace,
		   enum plot_format fmt, int w, int h, const char *title, plot_draw_fn fn,
		   void *arg, char *err, size_t err_len);
int plot_render_path(const char *path, int replace, enum plot_format fmt, int w, int h,
		     const char *title, plot_draw_fn fn, void *arg, char *err, size_t err_len);
int plot_render_file(const char *path, enum plot_format fmt, int w, int h, const char *title,
		     plot_draw_fn fn, void *arg, char *err, size_t err_len);
/* PLOT_PNG/SVG/PDF from the file name's extension, or -EINVAL. */
int plot_format_from_path(const char *path);

#endif /* GUI_PLOT_H */
