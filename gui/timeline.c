/*
 * timeline.c — window 9's run timeline without X (timeline.h): opening a run's trace through the
 * analyzer library, zoom and pan of the visible window, the click readout (the interval, and its
 * thread's time budget from struct an_thread), the state names, colours and legend order, and
 * the per-pixel aggregated drawing that keeps a redraw of a million intervals within a few
 * milliseconds.
 */
#include "timeline.h"

#include "analyzer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

const char *const timeline_state_names[AN_N_STATES] = {
	[AN_ST_BUSY] = "busy", [AN_ST_BARRIER_WAIT] = "barrier wait",
	[AN_ST_BARRIER_OVH] = "barrier overhead", [AN_ST_LOCK_WAIT] = "lock wait",
	[AN_ST_LOCK_OVH] = "lock overhead", [AN_ST_COND_WAIT] = "condition wait",
	[AN_ST_THREAD] = "create/join", [AN_ST_IDLE] = "idle",
	[AN_ST_SEM_WAIT] = "semaphore wait", [AN_ST_SEM_OVH] = "semaphore overhead",
	[AN_ST_RUNNABLE] = "runnable (CPU contention)", [AN_ST_BLOCKED] = "blocked (outside primitives)",
};
/* The colours of window 6's sources (view_curves.c): a wait in full colour, the primitive's
 * overhead in the tint of the same hue; busy green; condition wait olive (sky blue would be
 * barrier overhead's twin); off CPU in greys by how much it matters: runnable black, the
 * darkest (a thread that could run but has no CPU: what oversubscription looks like), blocked
 * dark grey (asleep outside any primitive), idle light grey (nothing to do at the edges). */
const int timeline_state_colors[AN_N_STATES] = {
	[AN_ST_BUSY] = 2, [AN_ST_BARRIER_WAIT] = 0, [AN_ST_BARRIER_OVH] = PLOT_N_COLORS + 0,
	[AN_ST_LOCK_WAIT] = 1, [AN_ST_LOCK_OVH] = PLOT_N_COLORS + 1, [AN_ST_COND_WAIT] = 7,
	[AN_ST_THREAD] = 4, [AN_ST_IDLE] = PLOT_GREY, [AN_ST_SEM_WAIT] = 3,
	[AN_ST_SEM_OVH] = PLOT_N_COLORS + 3, [AN_ST_RUNNABLE] = 6, [AN_ST_BLOCKED] = PLOT_GREY_DARK,
};
/* The legend, two to a column: on CPU and nothing to do; each primitive's wait above its
 * overhead; then off CPU, runnable above blocked. */
static const int legend_cells[] = {
	AN_ST_BUSY, AN_ST_IDLE,
	AN_ST_BARRIER_WAIT, AN_ST_BARRIER_OVH,
	AN_ST_LOCK_WAIT, AN_ST_LOCK_OVH,
	AN_ST_SEM_WAIT, AN_ST_SEM_OVH,
	AN_ST_COND_WAIT, AN_ST_THREAD,
	AN_ST_RUNNABLE, AN_ST_BLOCKED,
};
_Static_assert(sizeof(legend_cells) / sizeof(legend_cells[0]) == AN_N_STATES,
	       "every state has its place in the legend");

#define MIN_WINDOW_S 100e-9
#define NO_STATE 255

size_t timeline_n_states(void)
{
	return AN_N_STATES;
}

void timeline_init(struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->sel_lane = -1;
}

void timeline_clear(struct timeline *tl)
{
	an_run_free(tl->run);
	free(tl->lane_names);
	timeline_init(tl);
}

int timeline_open(struct timeline *tl, const char *trace_dir, const char *label, char *err,
		  size_t err_len)
{
	struct an_run *r = NULL;
	char (*names)[32] = NULL;
	size_t i, n;
	int rc;

	if ((rc = an_run_open(trace_dir, NULL, &r, err, err_len)) < 0)
		goto out;
	n = an_run_n_threads(r);
	if (n == 0 || !(names = calloc(n, sizeof(*names)))) {
		rc = n == 0 ? -ENOENT : -ENOMEM;
		snprintf(err, err_len, "%s: error: %s", trace_dir, n == 0 ? "no threads" : "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct an_thread *t = an_run_thread(r, i);
		snprintf(names[i], sizeof(names[i]), t->processor ? "thread %u" : "thread %u (main)",
			 t->index);
	}
	timeline_clear(tl);
	tl->run = r;
	tl->lane_names = names;
	tl->n_lanes = n;
	an_run_span(r, &tl->t0_ns, &tl->t1_ns);
	snprintf(tl->label, sizeof(tl->label), "%s", label ? label : trace_dir);
	timeline_full(tl);
	r = NULL;
	names = NULL;
out:
	an_run_free(r);
	free(names);
	return rc;
}

int timeline_run_by_id(const struct model *m, long long id)
{
	size_t i;

	for (i = 0; i < m->n_runs; i++)
		if (m->runs[i].id == id && id > 0)
			return (int)i;
	return -1;
}

static void trace_path(char *buf, size_t len, const char *exp_dir, long long id)
{
	snprintf(buf, len, "%s/runs/%lld/trace", exp_dir, id);
}

static int has_trace(const char *exp_dir, long long id)
{
	char path[4096];
	struct stat sb;

	if (id <= 0)
		return 0;
	trace_path(path, sizeof(path), exp_dir, id);
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int timeline_default_run(const struct model *m, const char *exp_dir)
{
	size_t i;
	int best = -1;

	for (i = 0; i < m->n_runs; i++) {
		const struct model_run *r = &m->runs[i];
		if (r->status != MODEL_RUN_OK || !has_trace(exp_dir, r->id))
			continue;
		if (best < 0 || (!r->seq && (m->runs[best].seq || r->n > m->runs[best].n)))
			best = (int)i;
	}
	return best;
}

int timeline_open_run(struct timeline *tl, const struct model *m, int run, const char *exp_dir,
		      char *err, size_t err_len)
{
	const struct model_run *r;
	char path[4096], label[256];
	int rc;

	if (run < 0 || (size_t)run >= m->n_runs) {
		snprintf(err, err_len, "%s: error: no such run", exp_dir);
		return -ENOENT;
	}
	r = &m->runs[run];
	if (!has_trace(exp_dir, r->id)) {
		snprintf(err, err_len, "%s: error: run %lld has no trace (%s)", exp_dir, r->id,
			 r->id <= 0 ? "not an experiment store" :
			 r->status != MODEL_RUN_OK ? "it did not finish" : "program not linked with libsgtrace");
		return -ENOENT;
	}
	trace_path(path, sizeof(path), exp_dir, r->id);
	snprintf(label, sizeof(label), "run %lld: %s N=%d %s rep %d", r->id, r->method, r->n,
		 r->sizes, r->rep);
	if ((rc = timeline_open(tl, path, label, err, err_len)) == 0)
		tl->run_id = r->id;
	return rc;
}

double timeline_duration(const struct timeline *tl)
{
	return (double)(tl->t1_ns - tl->t0_ns) / 1e9;
}

void timeline_set_window(struct timeline *tl, double v0, double v1)
{
	double d = timeline_duration(tl), w;

	if (!(d > 0))
		d = MIN_WINDOW_S;
	if (!(v1 > v0)) {
		double c = (v0 + v1) / 2;
		v0 = c - MIN_WINDOW_S / 2;
		v1 = c + MIN_WINDOW_S / 2;
	}
	w = fmin(fmax(v1 - v0, fmin(MIN_WINDOW_S, d)), d);
	v0 = fmin(fmax(v0, 0), d - w);
	tl->v0 = v0;
	tl->v1 = v0 + w;
}

void timeline_full(struct timeline *tl)
{
	timeline_set_window(tl, 0, timeline_duration(tl));
}

void timeline_zoom(struct timeline *tl, double factor, double at)
{
	if (!(factor > 0))
		return;
	if (!(at >= tl->v0 && at <= tl->v1))
		at = (tl->v0 + tl->v1) / 2;
	timeline_set_window(tl, at - (at - tl->v0) / factor, at + (tl->v1 - at) / factor);
}

void timeline_pan(struct timeline *tl, double frac)
{
	double dv = (tl->v1 - tl->v0) * frac;

	timeline_set_window(tl, tl->v0 + dv, tl->v1 + dv);
}

/* v in unit u (factor f) with sig significant digits; the printed value back in seconds. */
static double format_in(char *buf, size_t len, double v, double f, const char *u, int sig)
{
	if (v == 0) {
		snprintf(buf, len, "0 s");
		return 0;
	}
	snprintf(buf, len, "%.*g %s", sig, v / f, u);
	return strtod(buf, NULL) * f;
}

void timeline_format_range(char *buf, size_t len, double v0, double v1)
{
	static const struct { double f; const char *u; } units[] = {
		{ 1, "s" }, { 1e-3, "ms" }, { 1e-6, "\xc2\xb5s" }, { 1e-9, "ns" },
	};
	double m = fmax(fabs(v0), fabs(v1)), width = v1 - v0, p0, p1;
	char a[48], b[48];
	size_t i;
	int sig;

	for (i = 0; i < 3 && m < units[i].f * 0.9995; i++)
		;
	for (sig = 3; sig < 15; sig++) {
		p0 = format_in(a, sizeof(a), v0, units[i].f, units[i].u, sig);
		p1 = format_in(b, sizeof(b), v1, units[i].f, units[i].u, sig);
		if (fabs((p1 - p0) - width) <= 0.05 * fabs(width))
			break;
	}
	snprintf(buf, len, "%s .. %s", a, b);
}

void timeline_unselect(struct timeline *tl)
{
	tl->sel_lane = -1;
	tl->sel_t0 = tl->sel_t1 = 0;
	tl->readout[0] = '\0';
	tl->thread_info[0] = '\0';
}

struct find {
	int64_t t;
	struct an_interval iv;
	int found;
};

static int find_cb(const struct an_interval *iv, void *ud)
{
	struct find *f = ud;

	if (iv->t0_ns <= f->t && f->t < iv->t1_ns) {
		f->iv = *iv;
		f->found = 1;
		return 1;
	}
	return 0;
}

/* "barrier 1", "mutex 3": the synchronization object of an interval. */
static void object_name(const struct an_run *r, const struct an_interval *iv, char *buf, size_t len)
{
	size_t i;

	if (iv->obj == UINT32_MAX) {
		snprintf(buf, len, "none");
		return;
	}
	switch (iv->state) {
	case AN_ST_BARRIER_WAIT: case AN_ST_BARRIER_OVH:
		snprintf(buf, len, "barrier %u", iv->obj);
		return;
	case AN_ST_LOCK_WAIT: case AN_ST_LOCK_OVH:
		for (i = 0; i < an_run_n_locks(r); i++)
			if (an_run_lock(r, i)->id == iv->obj) {
				snprintf(buf, len, "%s %u", an_run_lock(r, i)->kind, iv->obj);
				return;
			}
		snprintf(buf, len, "lock %u", iv->obj);
		return;
	case AN_ST_COND_WAIT:
		snprintf(buf, len, "condition %u", iv->obj);
		return;
	case AN_ST_SEM_WAIT: case AN_ST_SEM_OVH:
		snprintf(buf, len, "semaphore %u", iv->obj);
		return;
	case AN_ST_THREAD:
		snprintf(buf, len, "thread %u", iv->obj);
		return;
	default:
		/* runnable inside a wait or primitive keeps its object, but not its kind: find it
		 * among the run's objects (their ids are unique across kinds) */
		for (i = 0; i < an_run_n_barriers(r); i++)
			if (an_run_barrier(r, i)->id == iv->obj) {
				snprintf(buf, len, "barrier %u", iv->obj);
				return;
			}
		for (i = 0; i < an_run_n_sems(r); i++)
			if (an_run_sem(r, i)->id == iv->obj) {
				snprintf(buf, len, "semaphore %u", iv->obj);
				return;
			}
		snprintf(buf, len, "object %u", iv->obj);
	}
}

/* "thread 1: T_i 2.61 ms = compute 1.9 ms + waits ... + runnable ... + blocked ...": where the
 * thread's time went (the analyzer's budget, struct an_thread), or why it is not a processor. */
static void thread_info(const struct an_run *r, size_t lane, const char *name, char *buf,
			size_t len)
{
	const struct an_thread *t = an_run_thread(r, lane);
	int64_t waits = t->barrier_wait_ns + t->lock_wait_ns + t->cond_ns + t->sem_wait_ns +
			t->join_wait_ns;
	int64_t prims = t->barrier_ovh_ns + t->lock_ovh_ns + t->sem_ovh_ns + t->thread_ns;
	char ti[32], busy[32], w[32], p[32], rq[32], bl[32], cpu[32];

	if (!t->processor) {
		snprintf(buf, len, "%s: not a processor (%s)", name, t->why && *t->why ? t->why :
			 "no events in the measured interval");
		return;
	}
	plot_format_seconds(ti, sizeof(ti), (double)t->t_ns / 1e9);
	plot_format_seconds(busy, sizeof(busy), (double)t->busy_ns / 1e9);
	plot_format_seconds(w, sizeof(w), (double)waits / 1e9);
	plot_format_seconds(p, sizeof(p), (double)prims / 1e9);
	if (t->sched_ns < 0 || t->blocked_ns < 0 || t->cpu_ns < 0) {
		snprintf(buf, len, "%s: T_i %s = busy %s + waits %s + primitives %s "
			 "(runnable and blocked unknown: no context-switch records)", name, ti, busy,
			 w, p);
		return;
	}
	plot_format_seconds(rq, sizeof(rq), (double)t->sched_ns / 1e9);
	plot_format_seconds(bl, sizeof(bl), (double)t->blocked_ns / 1e9);
	plot_format_seconds(cpu, sizeof(cpu), (double)t->cpu_ns / 1e9);
	snprintf(buf, len, "%s: T_i %s = compute %s + waits %s + primitives %s + runnable %s + "
		 "blocked %s (on CPU %s)", name, ti, busy, w, p, rq, bl, cpu);
}

int timeline_select(struct timeline *tl, size_t lane, double t)
{
	struct find f = { 0 };
	char obj[64], start[32], dur[32];
	int rc;

	if (!tl->run || lane >= tl->n_lanes)
		return -ENOENT;
	f.t = tl->t0_ns + (int64_t)llround(t * 1e9);
	rc = an_run_timeline(tl->run, lane, f.t, f.t, 0, find_cb, &f);
	if (rc < 0 || !f.found) {
		timeline_unselect(tl);
		snprintf(tl->readout, sizeof(tl->readout), "%s: nothing at %.9g s", tl->lane_names[lane], t);
		return rc < 0 ? rc : -ENOENT;
	}
	tl->sel_lane = (int)lane;
	tl->sel_t0 = (double)(f.iv.t0_ns - tl->t0_ns) / 1e9;
	tl->sel_t1 = (double)(f.iv.t1_ns - tl->t0_ns) / 1e9;
	object_name(tl->run, &f.iv, obj, sizeof(obj));
	plot_format_seconds(start, sizeof(start), tl->sel_t0);
	plot_format_seconds(dur, sizeof(dur), tl->sel_t1 - tl->sel_t0);
	snprintf(tl->readout, sizeof(tl->readout),
		 "%s: %s, object: %s, start %s, duration %s", tl->lane_names[lane],
		 timeline_state_names[f.iv.state], obj, start, dur);
	thread_info(tl->run, lane, tl->lane_names[lane], tl->thread_info, sizeof(tl->thread_info));
	return 0;
}

/* Layout of the drawing: title line, lanes with axis and legend, the readout (the interval
 * clicked, and where its thread's time went) at the bottom. */
#define READOUT_H 48

static struct plot_rect chart_rect(double w, double h)
{
	return (struct plot_rect){ 0, 0, w, h - READOUT_H };
}

struct plot_rect timeline_plot_rect(double w, double h)
{
	return chart_rect(w, h);
}

/* What plot_timeline needs besides the lanes: states, colours, legend. */
static void plot_template(const struct timeline *tl, struct plot_timeline *pt)
{
	memset(pt, 0, sizeof(*pt));
	pt->n_lanes = tl->n_lanes;
	pt->state_names = timeline_state_names;
	pt->state_colors = timeline_state_colors;
	pt->n_states = AN_N_STATES;
	pt->legend = legend_cells;
	pt->n_legend = sizeof(legend_cells) / sizeof(legend_cells[0]);
	pt->legend_per_col = 2;
	pt->sel_lane = -1;
}

void timeline_lanes(const struct timeline *tl, struct plot_rect r, struct plot_rect *lanes,
		    double *lane_h)
{
	struct plot_timeline pt;

	plot_template(tl, &pt);
	plot_timeline_layout(r, &pt, lanes, lane_h);
}

int timeline_hit(const struct timeline *tl, struct plot_rect r, double x, double y, size_t *lane,
		 double *t)
{
	struct plot_rect la;
	double lane_h;

	if (!tl->run)
		return 0;
	timeline_lanes(tl, r, &la, &lane_h);
	if (x < la.x || x >= la.x + la.w || y < la.y || y >= la.y + la.h)
		return 0;
	*lane = (size_t)((y - la.y) / lane_h);
	if (*lane >= tl->n_lanes)
		*lane = tl->n_lanes - 1;
	*t = tl->v0 + (x - la.x) / la.w * (tl->v1 - tl->v0);
	return 1;
}

/* Per-lane aggregation: time per state in each pixel column of the visible window. */
struct agg {
	double *acc;          /* [col * AN_N_STATES + state], ns */
	size_t cols;
	int64_t from_ns;
	double ns_per_col;
	size_t visited;
};

static int agg_cb(const struct an_interval *iv, void *ud)
{
	struct agg *g = ud;
	double a = (double)(iv->t0_ns - g->from_ns) / g->ns_per_col;
	double b = (double)(iv->t1_ns - g->from_ns) / g->ns_per_col;
	double top = (double)g->cols;
	size_t c, ca, cb;

	g->visited++;
	a = fmax(a, 0);
	b = fmin(b, top);
	if (b <= a)
		return 0;
	ca = (size_t)a;
	cb = (size_t)b;
	if (cb >= g->cols)
		cb = g->cols - 1;
	if (ca == cb) {
		g->acc[ca * AN_N_STATES + iv->state] += b - a;
		return 0;
	}
	g->acc[ca * AN_N_STATES + iv->state] += (double)(ca + 1) - a;
	for (c = ca + 1; c < cb; c++)
		g->acc[c * AN_N_STATES + iv->state] += 1;
	g->acc[cb * AN_N_STATES + iv->state] += b - (double)cb;
	return 0;
}

/* The state a column shows: a wait, primitive or off-CPU state (runnable, blocked: the thread
 * did not compute either) covering a quarter of it, else the longest. */
static int column_state(const double *acc)
{
	int s, best = NO_STATE, best_other = NO_STATE;
	double total = 0;

	for (s = 0; s < AN_N_STATES; s++) {
		total += acc[s];
		if (acc[s] > 0 && (best == NO_STATE || acc[s] > acc[best]))
			best = s;
		if (s != AN_ST_BUSY && s != AN_ST_IDLE && acc[s] > 0 &&
		    (best_other == NO_STATE || acc[s] > acc[best_other]))
			best_other = s;
	}
	if (total <= 0)
		return NO_STATE;
	if (best_other != NO_STATE && acc[best_other] >= 0.25 * total)
		return best_other;
	return best;
}

/* Turns the columns of one lane into segments of equal state (at most one per column). */
static size_t columns_to_segments(const double *acc, size_t cols, double v0, double s_per_col,
				  struct plot_segment *out)
{
	size_t c, n = 0;
	int cur = NO_STATE;

	for (c = 0; c < cols; c++) {
		int s = column_state(&acc[c * AN_N_STATES]);
		if (s != cur || s == NO_STATE) {
			cur = s;
			if (s == NO_STATE)
				continue;
			out[n++] = (struct plot_segment){ v0 + (double)c * s_per_col,
							  v0 + (double)(c + 1) * s_per_col, s };
		} else {
			out[n - 1].t1 = v0 + (double)(c + 1) * s_per_col;
		}
	}
	return n;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void message(cairo_t *cr, double w, double h, const char *title, const char *text)
{
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_TITLE);
	plot_text(cr, w / 2, 20, PLOT_CENTER, title);
	plot_set_font(cr, PLOT_FONT_LABEL);
	plot_text(cr, w / 2, h / 2, PLOT_CENTER, text);
}

int timeline_draw(cairo_t *cr, double w, double h, struct timeline *tl)
{
	struct plot_rect r = chart_rect(w, h), la;
	struct plot_lane *lanes = NULL;
	struct plot_segment *segs = NULL;
	struct plot_timeline pt;
	struct agg g = { 0 };
	char title[520], span[3][112], readout[400];
	double lane_h, ry, t_start = now_ms();
	size_t i;
	int rc = 0;

	if (!tl->run) {
		message(cr, w, h, "Run timeline",
			"no run open: select a run in the browser, then View > 9 Run timeline (selected run)");
		return 0;
	}
	plot_template(tl, &pt);
	plot_timeline_layout(r, &pt, &la, &lane_h);
	g.cols = la.w >= 1 ? (size_t)la.w : 1;
	g.from_ns = tl->t0_ns + (int64_t)llround(tl->v0 * 1e9);
	g.ns_per_col = (tl->v1 - tl->v0) * 1e9 / (double)g.cols;
	lanes = calloc(tl->n_lanes, sizeof(*lanes));
	segs = malloc(tl->n_lanes * g.cols * sizeof(*segs));
	g.acc = malloc(g.cols * AN_N_STATES * sizeof(*g.acc));
	if (!lanes || !segs || !g.acc) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < tl->n_lanes; i++) {
		int64_t to_ns = tl->t0_ns + (int64_t)llround(tl->v1 * 1e9);
		memset(g.acc, 0, g.cols * AN_N_STATES * sizeof(*g.acc));
		if ((rc = an_run_timeline(tl->run, i, g.from_ns, to_ns, 0, agg_cb, &g)) < 0)
			goto out;
		lanes[i].label = tl->lane_names[i];
		lanes[i].segs = segs + i * g.cols;
		lanes[i].n = columns_to_segments(g.acc, g.cols, tl->v0, (tl->v1 - tl->v0) / (double)g.cols,
						 segs + i * g.cols);
	}
	timeline_format_range(span[0], sizeof(span[0]), tl->v0, tl->v1);
	plot_format_seconds(span[2], sizeof(span[2]), timeline_duration(tl));
	snprintf(title, sizeof(title), "Run timeline \xe2\x80\x94 %s (showing %s of %s)",
		 tl->label, span[0], span[2]);
	plot_set_font(cr, PLOT_FONT_TITLE);
	if (plot_text_width(cr, title) > w - 16)   /* narrow: the run, the time axis shows the rest */
		snprintf(title, sizeof(title), "%s", tl->label);
	pt.title = title;
	pt.lanes = lanes;
	pt.t_min = tl->v0;
	pt.t_max = tl->v1;
	pt.sel_lane = tl->sel_lane;
	pt.sel_t0 = tl->sel_t0;
	pt.sel_t1 = tl->sel_t1;
	if ((rc = plot_timeline_draw(cr, r, &pt)) < 0)
		goto out;
	/* the readout under the legend (however many rows it wrapped onto), or at the bottom */
	ry = fmin(h - READOUT_H, r.y + plot_timeline_height(r, &pt) + 4);
	cairo_set_source_rgb(cr, 0.96, 0.96, 0.93);
	cairo_rectangle(cr, 0, ry, w, READOUT_H);
	cairo_fill(cr);
	cairo_save(cr);
	cairo_rectangle(cr, 0, ry, w, READOUT_H);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	plot_set_font(cr, PLOT_FONT_LABEL);
	snprintf(readout, sizeof(readout), "%s", tl->readout[0] ? tl->readout :
		 "click a lane for the interval's state, object, start and duration, and where "
		 "its thread's time went");
	plot_text(cr, 12, ry + 19, PLOT_LEFT, readout);
	if (tl->thread_info[0]) {
		plot_set_font(cr, PLOT_FONT_SMALL);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		plot_text_wrapped(cr, 12, ry + 38, w - 24, 14, tl->thread_info);
	}
	cairo_restore(cr);
out:
	tl->last_intervals = g.visited;
	free(lanes);
	free(segs);
	free(g.acc);
	tl->draw_ms = now_ms() - t_start;
	return rc;
}
