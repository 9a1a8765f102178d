/*
 * timeline.h — the run timeline of window 9 without X: one run's trace opened through the
 * analyzer (an_run_open, an_run_timeline; the GUI never parses a trace itself), the visible time
 * window (zoom and pan), the interval selected by a click and its readout, and the drawing.
 *
 * Drawing aggregates per pixel column: every interval of the visible window is spread over the
 * columns it covers (time per state per column), and a column takes its dominant state, except
 * that a wait, a primitive or an off-CPU state (runnable, blocked) covering at least a quarter of
 * the column wins over busy and idle, so short waits and preemptions stay visible when zoomed
 * out. The cost is one pass over the visible intervals plus
 * one over the pixels, whatever the zoom. Times here are seconds since the start of the run's
 * measured interval (t0 of METRICS.md).
 */
#ifndef GUI_TIMELINE_H
#define GUI_TIMELINE_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "plot.h"

struct an_run;

struct timeline {
	struct an_run *run;        /* owned; NULL: nothing open */
	char label[256];           /* "run 17: fixed N=2 balls=500 steps=40 rep 0" */
	long long run_id;          /* the store's run id, 0 when opened from a bare trace */
	int64_t t0_ns, t1_ns;      /* the run's measured interval, ns since the trace's epoch */
	size_t n_lanes;            /* threads of the trace */
	char (*lane_names)[32];    /* "thread 1" */
	double v0, v1;             /* visible window, s since t0 */

	int sel_lane;              /* selected interval (click), -1: none */
	double sel_t0, sel_t1;     /* its bounds, s since t0 */
	char readout[320];         /* its details, "" when none */
	char thread_info[400];     /* where its thread's time went (budget), "" when none */

	double draw_ms;            /* time of the last aggregation + drawing */
	size_t last_intervals;     /* intervals visited by the last drawing */
};

/* The states in an_state order: names for the legend and readout, palette colours. */
extern const char *const timeline_state_names[];
extern const int timeline_state_colors[];
size_t timeline_n_states(void);

void timeline_init(struct timeline *tl);
/* Closes the run (if any) and frees everything; tl is then as after timeline_init. */
void timeline_clear(struct timeline *tl);

/* Opens the trace directory `trace_dir` (replacing any open run), shows the whole run.
 * `label` names it in the title. Returns 0 or -errno with "dir: error: ..." in err. */
int timeline_open(struct timeline *tl, const char *trace_dir, const char *label, char *err,
		  size_t err_len);
/* Opens run `run` (index into m->runs) of the experiment store `exp_dir`: its trace is
 * exp_dir/runs/<id>/trace. -ENOENT with a message when the run has no trace. */
int timeline_open_run(struct timeline *tl, const struct model *m, int run, const char *exp_dir,
		      char *err, size_t err_len);
/* The run an unspecified timeline shows: the first finished parallel run with the most threads
 * whose trace exists; -1 when none (CSV experiments have no traces). */
int timeline_default_run(const struct model *m, const char *exp_dir);
/* The index into m->runs of the run with store id `id`, or -1. */
int timeline_run_by_id(const struct model *m, long long id);

/* Zoom by `factor` (> 1: in) keeping time `at` (s since t0) at the same place; pan by `frac`
 * of the visible width (negative: left); full: the whole run. The window is kept inside the
 * run and at least 100 ns wide. */
void timeline_zoom(struct timeline *tl, double factor, double at);
void timeline_pan(struct timeline *tl, double frac);
void timeline_full(struct timeline *tl);
void timeline_set_window(struct timeline *tl, double v0, double v1);
double timeline_duration(const struct timeline *tl);   /* s */

/* Selects the interval of lane `lane` that contains time t (s since t0) and writes its details
 * (thread, state, object, start, duration) into tl->readout, and the thread's time budget
 * (compute, waits, primitives, runnable, blocked) into tl->thread_info. Returns 0 or -ENOENT. */
int timeline_select(struct timeline *tl, size_t lane, double t);
void timeline_unselect(struct timeline *tl);

/* Maps a point of a timeline drawn into r to a lane and a time; 1 when it is on a lane. */
int timeline_hit(const struct timeline *tl, struct plot_rect r, double x, double y, size_t *lane,
		 double *t);
/* The rectangle of the timeline chart inside a drawing of size w x h (the readout is below). */
struct plot_rect timeline_plot_rect(double w, double h);
/* The lanes' rectangle and one lane's height when tl is drawn into r (zoom/pan mapping). */
void timeline_lanes(const struct timeline *tl, struct plot_rect r, struct plot_rect *lanes,
		    double *lane_h);

/* "9.7012 ms .. 9.7015 ms": the visible window [v0, v1] (s since t0) in the unit of its larger
 * end, with as many digits as it takes for the printed ends to differ by the window's width
 * (within 5 %): deep zoom no longer reads "9.7 ms .. 9.7 ms". 0 is "0 s". */
void timeline_format_range(char *buf, size_t len, double v0, double v1);

/* Draws the timeline (or a message when no run is open) on cr at size w x h: title, lanes,
 * time axis, legend, readout line. Returns 0 or -errno. */
int timeline_draw(cairo_t *cr, double w, double h, struct timeline *tl);

#endif /* GUI_TIMELINE_H */
