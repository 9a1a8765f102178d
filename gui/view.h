/*
 * view.h — xscalegraph's windows as drawings: each window of issue 6 is a function that paints
 * the GUI model (and the teaching parameters) on a cairo_t of a given size. No X: the Motif
 * windows call these on a cairo-xlib surface, `xscalegraph --export` and the tests on PNG/SVG
 * surfaces, so what the tests check is what users see.
 */
#ifndef GUI_VIEW_H
#define GUI_VIEW_H

#include <cairo.h>
#include <stddef.h>

#include "model.h"
#include "plot.h"
#include "teach.h"
#include "timeline.h"

enum view_id {
	VIEW_BROWSER,       /* 1 experiment browser */
	VIEW_PROFILE,       /* 2 execution profile of the sequential program */
	VIEW_PATTERNS,      /* 3 sequential patterns vs problem size */
	VIEW_TIME,          /* 4 execution time, speedup, efficiency vs N */
	VIEW_LATENCY,       /* 5 average latency vs N */
	VIEW_SOURCES,       /* 6 latency sources vs N */
	VIEW_PARALLELISM,   /* 7 parallelism vs problem size */
	VIEW_MATRIX,        /* 8 scalability matrix */
	VIEW_TIMELINE,      /* 9 run timeline */
	VIEW_TEACH,         /* 11 teaching model */
	VIEW_COUNT
};

/* What a view draws from. The matrix selection is window state, not experiment state. */
struct view_ctx {
	struct model *m;
	struct teach_params *tp;
	int mat_sel_i, mat_sel_j;   /* selected matrix cell (indices into view_matrix_ns), -1 */
	struct timeline *tl;        /* the run of window 9, NULL: none */
};
/* The method windows 6 (sources: Fig. 11 "fixed", Fig. 13 "e-conserved") and 7 (parallelism,
 * Fig. 12) draw, chosen by name (sources-method:M, parallelism-method:M) so that the choice
 * survives a reload; window state of the process, like the method colours. "" or NULL: the
 * model's current method. Returns 0, or -EINVAL for another window. */
int view_set_method(enum view_id which, const char *name);
const char *view_get_method(enum view_id which);
/* The method index window `which` draws: the chosen one if the model has it, else the current
 * method; -1 when there is none. */
int view_chosen_method(const struct model *m, enum view_id which);

struct view_desc {
	const char *name;    /* "time": action open-time, export time.png */
	const char *title;   /* window title */
	int number;          /* the window's number in issue 6 */
	int w, h;            /* default size, pixels */
	int (*draw)(cairo_t *cr, double w, double h, const struct view_ctx *v);
};

const struct view_desc *view_get(enum view_id id);
/* The view called `name`, or NULL. */
const struct view_desc *view_find(const char *name);
/* Draws view id on a white background. Returns 0 or -errno. */
int view_draw(enum view_id id, cairo_t *cr, double w, double h, const struct view_ctx *v);

/* Renders every view to dir/<name>.png and dir/<name>.svg at its default size (and .pdf when
 * pdf is set). dir is created (0755) when missing and refused when it is a link; each file is
 * made as outfile.h says, replacing one of its name with `replace`, else failing with -EEXIST.
 * Returns 0 or -errno with "path: error: ..." in err. */
int view_export_all(const char *dir, const struct view_ctx *v, int pdf, int replace, char *err,
		    size_t err_len);

/* The sorted distinct N of the matrix cells (at most max); returns the count. */
size_t view_matrix_ns(const struct model *m, int *ns, size_t max);
/* The matrix cell at (x, y) in a matrix view of size w x h: 1 and *i < *j, else 0. */
int view_matrix_hit(const struct view_ctx *v, double w, double h, double x, double y, int *i, int *j);

/* view_curves.c, view_seq.c, view_matrix.c, view_teach.c: the drawings behind the table. */
int view_time_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_latency_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_sources_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_parallelism_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_patterns_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_browser_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_profile_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_matrix_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_teach_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);
int view_timeline_draw(cairo_t *cr, double w, double h, const struct view_ctx *v);

/* Shared by the view files: a pool of series and point arrays for one drawing. */
struct view_pool {
	struct plot_series *s;
	size_t n_s, cap_s;
	double *pts;
	size_t used, cap_pts;
	char (*labels)[96];
	const char **ptext;          /* per point slot of pts: tags (x's slots), notes (y's) */
	char (*notes)[200];          /* the notes' text */
	size_t n_notes, cap_notes;
};
int view_pool_init(struct view_pool *p, size_t max_series, size_t max_points);
void view_pool_free(struct view_pool *p);
/* A new series with room for n points (x and y set to NAN, no tags or notes); NULL when the
 * pool is full. */
struct plot_series *view_pool_series(struct view_pool *p, const char *label, size_t n);
/* Gives point k of series s (the pool's last series or any before it) the tag drawn beside its
 * marker (a static string, NULL none) and the note its readout adds (copied; NULL none). */
void view_pool_point_text(struct view_pool *p, struct plot_series *s, size_t k, const char *tag,
			  const char *note);
/* Style of the k-th series: palette colour and marker, dashed after the first seven. */
void view_series_style(struct plot_series *s, size_t k);
/* Style of method i's series, keyed by its name (view_method_style_index): a method keeps its
 * colour and marker when others are hidden, when a live series adds methods and across
 * experiments; methods of compared experiments (exp > 0) are dashed in their base method's. */
void view_method_style(const struct model *m, struct plot_series *s, size_t i);
/* The style number of a method name: fixed places for the paper's methods (fixed, balls, steps,
 * both, time-bound, e-conserved, memory-bound), then first come, first served, for the life of
 * the process. */
size_t view_method_style_index(const char *name);
/* Method i's name without its experiment prefix ("b.exp:fixed" -> "fixed"). */
const char *view_method_base(const struct model *m, size_t i);
/* Experiment name (and the compared ones) + window title. */
void view_title(char *buf, size_t len, const struct view_ctx *v, const char *what);

#endif /* GUI_VIEW_H */
