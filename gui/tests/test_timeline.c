/*
 * test_timeline.c — window 9 headless: a synthetic two-thread run written with the trace writer
 * (sgtrace_write.h, ticks in ns) with hand-known intervals is opened through the analyzer,
 * drawn to PNG and SVG, and checked: the colour of each lane at known times (pixel positions
 * from timeline_lanes), the legend and readout text in the SVG, the click readout (state,
 * object, start, duration, thread), zoom/pan limits, the per-pixel aggregation of a long run
 * (every interval visited once, short waits still visible when zoomed out), and the off-CPU
 * states of a run with a sched stream (runnable, blocked; the thread's time budget line).
 *
 * The run (ns since the epoch, region = whole threads):
 *   thread 0: busy 0-1000, barrier 1 arrive 1000 (wait to 4000, overhead to 4500), busy to 6000,
 *             mutex 2 request 6000 acquired 8000 (wait: thread 1 holds it), busy to 10000
 *   thread 1: busy 0-4000, barrier 1 arrive 4000 leave 4200, mutex 2 request 4200 acquired 4200,
 *             release 8000, busy to 10000
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgtrace_write.h"
#include "../plot.h"
#include "../timeline.h"

#define W 1100
#define H 440

static char dir[64];

/* The run of the header comment, event by event: thread, ns, kind, object id, aux. */
static const struct {
	uint32_t thread;
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
} events[] = {
	{ 0, 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID }, { 0, 1000, SG_EV_BARRIER_ARRIVE, 1, 1 },
	{ 0, 4500, SG_EV_BARRIER_LEAVE, 1, 1 }, { 0, 6000, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX },
	{ 0, 8000, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX },
	{ 0, 8100, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX }, { 0, 10000, SG_EV_THREAD_END, 0, 0 },
	{ 1, 0, SG_EV_THREAD_BEGIN, 1, SG_NO_ID }, { 1, 4000, SG_EV_BARRIER_ARRIVE, 1, 1 },
	{ 1, 4200, SG_EV_BARRIER_LEAVE, 1, 1 }, { 1, 4200, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX },
	{ 1, 4200, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX },
	{ 1, 8000, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX }, { 1, 10000, SG_EV_THREAD_END, 1, 0 },
};

static int write_trace(const char *path)
{
	struct sgw_trace *w;
	struct sgw_stream *t[2];
	size_t i;
	int rc;

	if ((rc = sgw_create(path, NULL, &w)) < 0)
		return rc;
	if ((rc = sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000)) < 0 ||
	    (rc = sgw_object(w, 2, SG_OBJ_MUTEX, 0x2000)) < 0 ||
	    (rc = sgw_thread(w, 0, SG_NO_ID, 0, &t[0])) < 0 ||
	    (rc = sgw_thread(w, 1, SG_NO_ID, 0, &t[1])) < 0)
		goto out;
	for (i = 0; i < sizeof(events) / sizeof(events[0]) && rc == 0; i++)
		rc = sgw_event(t[events[i].thread], events[i].t, events[i].kind, events[i].id,
			       events[i].aux);
out:
	if (rc < 0) {
		sgw_close(w, 0);
		return rc;
	}
	return sgw_close(w, 0);
}

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/sggui-tl.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return write_trace(dir) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void open_tl(struct timeline *tl)
{
	char err[512] = "";

	timeline_init(tl);
	if (timeline_open(tl, dir, "synthetic", err, sizeof(err)) < 0)
		fail_msg("%s", err);
}

/* The pixel of lane `lane` at time t (s) in a W x H drawing. */
static void pixel_at(const struct timeline *tl, size_t lane, double t, int *x, int *y)
{
	struct plot_rect la;
	double lane_h;

	timeline_lanes(tl, timeline_plot_rect(W, H), &la, &lane_h);
	*x = (int)(la.x + (t - tl->v0) / (tl->v1 - tl->v0) * la.w);
	*y = (int)(la.y + lane_h * ((double)lane + 0.5));
}

static void rgb_at(cairo_surface_t *s, int x, int y, double rgb[3])
{
	const unsigned char *p = cairo_image_surface_get_data(s) +
				 (size_t)y * (size_t)cairo_image_surface_get_stride(s);
	uint32_t px = ((const uint32_t *)p)[x];

	rgb[0] = ((px >> 16) & 0xff) / 255.0;
	rgb[1] = ((px >> 8) & 0xff) / 255.0;
	rgb[2] = (px & 0xff) / 255.0;
}

/* The lane at time t shows the colour of `state` (index into timeline_state_names). */
static void assert_state_at(cairo_surface_t *s, const struct timeline *tl, size_t lane, double t,
			    int state)
{
	double want[3], got[3];
	int x, y;

	pixel_at(tl, lane, t, &x, &y);
	rgb_at(s, x, y, got);
	plot_color_rgb(timeline_state_colors[state], want);
	if (fabs(want[0] - got[0]) > 0.02 || fabs(want[1] - got[1]) > 0.02 ||
	    fabs(want[2] - got[2]) > 0.02)
		fail_msg("lane %zu at %g s (pixel %d,%d): colour %.2f %.2f %.2f, wanted %s "
			 "%.2f %.2f %.2f", lane, t, x, y, got[0], got[1], got[2],
			 timeline_state_names[state], want[0], want[1], want[2]);
}

static cairo_surface_t *render(struct timeline *tl)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_t *cr = cairo_create(s);

	plot_background(cr, (struct plot_rect){ 0, 0, W, H });
	assert_int_equal(timeline_draw(cr, W, H, tl), 0);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	return s;
}

enum { BUSY, BWAIT, BOVH, LWAIT, LOVH, CWAIT, THREAD, IDLE, SWAIT, SOVH, RUNNABLE, BLOCKED };

static void test_colours_at_known_times(void **state)
{
	struct timeline tl;
	cairo_surface_t *s;

	open_tl(&tl);
	assert_int_equal(tl.n_lanes, 2);
	assert_true(fabs(timeline_duration(&tl) - 10e-6) < 1e-12);
	s = render(&tl);
	assert_state_at(s, &tl, 0, 0.5e-6, BUSY);
	assert_state_at(s, &tl, 0, 2.5e-6, BWAIT);
	assert_state_at(s, &tl, 0, 4.25e-6, BOVH);
	assert_state_at(s, &tl, 0, 5e-6, BUSY);
	assert_state_at(s, &tl, 0, 7e-6, LWAIT);
	assert_state_at(s, &tl, 0, 9e-6, BUSY);
	assert_state_at(s, &tl, 1, 2e-6, BUSY);
	assert_state_at(s, &tl, 1, 6e-6, BUSY);     /* holding the lock is work */
	assert_int_equal(cairo_surface_write_to_png(s, "test-timeline.png"), CAIRO_STATUS_SUCCESS);
	cairo_surface_destroy(s);

	/* zoomed onto the barrier: thread 1's 200 ns overhead is wide now */
	timeline_set_window(&tl, 3.9e-6, 4.4e-6);
	s = render(&tl);
	assert_state_at(s, &tl, 1, 4.1e-6, BOVH);
	assert_state_at(s, &tl, 0, 4.3e-6, BOVH);
	assert_state_at(s, &tl, 0, 3.95e-6, BWAIT);
	cairo_surface_destroy(s);
	timeline_clear(&tl);
	unlink("test-timeline.png");
}

static void test_readout(void **state)
{
	struct timeline tl;
	struct plot_rect la;
	double lane_h, t;
	size_t lane;

	open_tl(&tl);
	assert_int_equal(timeline_select(&tl, 0, 7e-6), 0);
	assert_string_equal(tl.readout, "thread 0: lock wait, object: mutex 2, start 6 \xc2\xb5s, "
			    "duration 2 \xc2\xb5s");
	assert_true(fabs(tl.sel_t0 - 6e-6) < 1e-12 && fabs(tl.sel_t1 - 8e-6) < 1e-12);
	assert_int_equal(timeline_select(&tl, 0, 2e-6), 0);
	assert_string_equal(tl.readout, "thread 0: barrier wait, object: barrier 1, start 1 \xc2\xb5s, "
			    "duration 3 \xc2\xb5s");
	/* a click maps through the layout to the same interval */
	timeline_lanes(&tl, timeline_plot_rect(W, H), &la, &lane_h);
	assert_true(timeline_hit(&tl, timeline_plot_rect(W, H), la.x + la.w * 0.45,
				 la.y + lane_h * 1.5, &lane, &t));
	assert_int_equal(lane, 1);
	assert_true(fabs(t - 4.5e-6) < 0.02e-6);
	assert_int_equal(timeline_select(&tl, lane, t), 0);
	assert_string_equal(tl.readout, "thread 1: busy, object: none, start 4.2 \xc2\xb5s, "
			    "duration 5.8 \xc2\xb5s");
	assert_false(timeline_hit(&tl, timeline_plot_rect(W, H), 5, 5, &lane, &t));
	timeline_clear(&tl);
}

static void test_zoom_pan_limits(void **state)
{
	struct timeline tl;

	open_tl(&tl);
	timeline_zoom(&tl, 4, 5e-6);               /* 2.5 us around 5 us */
	assert_true(fabs(tl.v0 - 3.75e-6) < 1e-12 && fabs(tl.v1 - 6.25e-6) < 1e-12);
	timeline_pan(&tl, 10);                     /* far right: clamped to the end */
	assert_true(fabs(tl.v1 - 10e-6) < 1e-12 && fabs(tl.v1 - tl.v0 - 2.5e-6) < 1e-12);
	timeline_pan(&tl, -0.5);
	assert_true(fabs(tl.v0 - 6.25e-6) < 1e-12);
	timeline_zoom(&tl, 1e6, NAN);              /* at least 100 ns wide */
	assert_true(fabs(tl.v1 - tl.v0 - 100e-9) < 1e-12);
	timeline_zoom(&tl, 1e-9, NAN);             /* never wider than the run */
	assert_true(tl.v0 == 0 && fabs(tl.v1 - 10e-6) < 1e-12);
	timeline_full(&tl);
	assert_true(tl.v0 == 0 && fabs(tl.v1 - 10e-6) < 1e-12);
	timeline_clear(&tl);
}

static int draw_cb(cairo_t *cr, double w, double h, void *arg)
{
	return timeline_draw(cr, w, h, arg);
}

static void test_svg_text(void **state)
{
	struct timeline tl;
	char err[512], path[128];
	FILE *f;
	static char buf[1 << 16];
	size_t n;

	open_tl(&tl);
	timeline_select(&tl, 0, 2e-6);
	snprintf(path, sizeof(path), "%s/timeline.svg", dir);
	assert_int_equal(plot_render_file(path, PLOT_SVG, W, H, "Run timeline",
					  draw_cb, &tl, err,
					  sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_non_null(strstr(buf, "Run timeline \xe2\x80\x94 synthetic (showing 0 s .. 10 \xc2\xb5s of 10 \xc2\xb5s)"));
	assert_non_null(strstr(buf, "thread 1\n"));
	assert_non_null(strstr(buf, "time since the run's start [\xc2\xb5s]"));
	for (size_t k = 0; k < timeline_n_states(); k++)
		assert_non_null(strstr(buf, timeline_state_names[k]));
	assert_non_null(strstr(buf, "thread 0: barrier wait, object: barrier 1"));
	timeline_clear(&tl);
}

/* A long run: 2 x 200 000 barrier episodes (1.2 M intervals); zoomed out, every interval is
 * visited once, and thread 0's wait (40 % of each period: not the dominant state, but more than
 * a quarter) shows, while thread 1's (none) and overhead (5 %) leave it busy. */
static void test_aggregation_long_run(void **state)
{
	char path[128], err[512];
	struct sgw_trace *w;
	struct sgw_stream *t[2];
	struct timeline tl;
	cairo_surface_t *s;
	uint64_t k, n = 200000;
	int rc, i;

	snprintf(path, sizeof(path), "%s/long", dir);
	assert_int_equal(sgw_create(path, NULL, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(sgw_thread(w, (uint32_t)i, SG_NO_ID, 0, &t[i]), 0);
		assert_int_equal(sgw_event(t[i], 0, SG_EV_THREAD_BEGIN, (uint32_t)i, SG_NO_ID), 0);
	}
	for (k = 0, rc = 0; k < n && rc == 0; k++) {
		uint64_t b = k * 1000;
		/* thread 0 arrives at +500, thread 1 at +900; both leave at +950 */
		rc = sgw_event(t[0], b + 500, SG_EV_BARRIER_ARRIVE, 1, (uint32_t)k + 1);
		rc = rc ? rc : sgw_event(t[1], b + 900, SG_EV_BARRIER_ARRIVE, 1, (uint32_t)k + 1);
		rc = rc ? rc : sgw_event(t[0], b + 950, SG_EV_BARRIER_LEAVE, 1, (uint32_t)k + 1);
		rc = rc ? rc : sgw_event(t[1], b + 950, SG_EV_BARRIER_LEAVE, 1, (uint32_t)k + 1);
	}
	assert_int_equal(rc, 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(sgw_event(t[i], n * 1000, SG_EV_THREAD_END, (uint32_t)i, 0), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	timeline_init(&tl);
	if (timeline_open(&tl, path, "long", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	s = render(&tl);
	/* per period: thread 0 busy, wait, overhead; thread 1 busy, overhead (it arrives last, so
	 * it does not wait): 5 n intervals, each visited once */
	assert_true(tl.last_intervals >= 5 * n && tl.last_intervals <= 5 * n + 8);
	assert_state_at(s, &tl, 0, 0.5 * timeline_duration(&tl), BWAIT);
	assert_state_at(s, &tl, 1, 0.5 * timeline_duration(&tl), BUSY);
	cairo_surface_destroy(s);
	timeline_clear(&tl);
}

/* Off CPU (trace format 1.2: the sched stream's context-switch records). Thread 0 (tid 100):
 * preempted in compute 100-300 (runnable), asleep outside any primitive 400-500 (blocked),
 * barrier 1 at 600 (thread 1 arrives at 650, both leave at 700); thread 1 (tid 101) runs
 * throughout. Then a long run whose thread 0 is preempted for 30 % of every microsecond: zoomed
 * out, runnable is no column's largest state but fills more than a quarter, so it shows. */
static void test_off_cpu_states(void **state)
{
	static const struct { uint64_t t; enum sg_ev_kind kind; uint32_t id, aux; int64_t v; } sched[] = {
		{ 0, SG_EV_TASK_CPU, 100, 0, 0 }, { 0, SG_EV_TASK_DELAY, 100, 0, 0 },
		{ 0, SG_EV_TASK_CPU, 101, 0, 0 }, { 0, SG_EV_TASK_DELAY, 101, 0, 0 },
		{ 100, SG_EV_SWITCH_OUT, 100, SG_SWITCH_PREEMPTED, 0 }, { 300, SG_EV_SWITCH_IN, 100, 0, 0 },
		{ 400, SG_EV_SWITCH_OUT, 100, 0, 0 }, { 500, SG_EV_SWITCH_IN, 100, 0, 0 },
		{ 1000, SG_EV_TASK_CPU, 100, 0, 700 }, { 1000, SG_EV_TASK_DELAY, 100, 0, 200 },
		{ 1000, SG_EV_TASK_CPU, 101, 0, 1000 }, { 1000, SG_EV_TASK_DELAY, 101, 0, 0 },
	};
	char path[128], err[512];
	struct sgw_trace *w;
	struct sgw_stream *t[2], *sc;
	struct timeline tl;
	cairo_surface_t *s;
	size_t i;
	uint64_t k, n = 20000;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/offcpu", dir);
	assert_int_equal(sgw_create(path, NULL, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 100, &t[0]), 0);
	assert_int_equal(sgw_thread(w, 1, SG_NO_ID, 101, &t[1]), 0);
	assert_int_equal(sgw_event(t[0], 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), 0);
	assert_int_equal(sgw_event(t[0], 600, SG_EV_BARRIER_ARRIVE, 1, 1), 0);
	assert_int_equal(sgw_event(t[0], 700, SG_EV_BARRIER_LEAVE, 1, 1), 0);
	assert_int_equal(sgw_event(t[0], 1000, SG_EV_THREAD_END, 0, 0), 0);
	assert_int_equal(sgw_event(t[1], 0, SG_EV_THREAD_BEGIN, 1, SG_NO_ID), 0);
	assert_int_equal(sgw_event(t[1], 650, SG_EV_BARRIER_ARRIVE, 1, 1), 0);
	assert_int_equal(sgw_event(t[1], 700, SG_EV_BARRIER_LEAVE, 1, 1), 0);
	assert_int_equal(sgw_event(t[1], 1000, SG_EV_THREAD_END, 1, 0), 0);
	assert_int_equal(sgw_sched(w, 2, "synthetic", 0, &sc), 0);
	for (i = 0; i < sizeof(sched) / sizeof(sched[0]) && rc == 0; i++)
		rc = sg_kind_has_value(sched[i].kind) ?
			     sgw_value(sc, sched[i].t, sched[i].kind, sched[i].id, sched[i].v) :
			     sgw_event(sc, sched[i].t, sched[i].kind, sched[i].id, sched[i].aux);
	assert_int_equal(rc, 0);
	assert_int_equal(sgw_close(w, 0), 0);

	timeline_init(&tl);
	if (timeline_open(&tl, path, "off CPU", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	s = render(&tl);
	assert_state_at(s, &tl, 0, 50e-9, BUSY);
	assert_state_at(s, &tl, 0, 200e-9, RUNNABLE);
	assert_state_at(s, &tl, 0, 350e-9, BUSY);
	assert_state_at(s, &tl, 0, 450e-9, BLOCKED);
	assert_state_at(s, &tl, 0, 625e-9, BWAIT);
	assert_state_at(s, &tl, 0, 675e-9, BOVH);
	assert_state_at(s, &tl, 1, 200e-9, BUSY);
	assert_int_equal(cairo_surface_write_to_png(s, "test-timeline-offcpu.png"), CAIRO_STATUS_SUCCESS);
	cairo_surface_destroy(s);
	unlink("test-timeline-offcpu.png");
	/* the readout names the state; the thread's line says where its time went */
	assert_int_equal(timeline_select(&tl, 0, 200e-9), 0);
	assert_string_equal(tl.readout, "thread 0: runnable (CPU contention), object: none, start "
			    "100 ns, duration 200 ns");
	if (!strstr(tl.thread_info, "thread 0: T_i 1 \xc2\xb5s = compute 600 ns + waits 50 ns + "
			"primitives 50 ns + runnable 200 ns + blocked 100 ns"))
		fail_msg("thread line: %s", tl.thread_info);
	assert_int_equal(timeline_select(&tl, 0, 450e-9), 0);
	assert_string_equal(tl.readout, "thread 0: blocked (outside primitives), object: none, "
			    "start 400 ns, duration 100 ns");
	timeline_unselect(&tl);
	assert_string_equal(tl.thread_info, "");
	timeline_clear(&tl);

	/* the long run: 1000 ns periods, thread 0 preempted from +400 to +700 */
	snprintf(path, sizeof(path), "%s/offcpu-long", dir);
	assert_int_equal(sgw_create(path, NULL, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 100, &t[0]), 0);
	assert_int_equal(sgw_event(t[0], 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), 0);
	assert_int_equal(sgw_event(t[0], n * 1000, SG_EV_THREAD_END, 0, 0), 0);
	assert_int_equal(sgw_sched(w, 1, "synthetic", 0, &sc), 0);
	rc = sgw_value(sc, 0, SG_EV_TASK_CPU, 100, 0);
	rc = rc ? rc : sgw_value(sc, 0, SG_EV_TASK_DELAY, 100, 0);
	for (k = 0; k < n && rc == 0; k++) {
		rc = sgw_event(sc, k * 1000 + 400, SG_EV_SWITCH_OUT, 100, SG_SWITCH_PREEMPTED);
		rc = rc ? rc : sgw_event(sc, k * 1000 + 700, SG_EV_SWITCH_IN, 100, 0);
	}
	rc = rc ? rc : sgw_value(sc, n * 1000, SG_EV_TASK_CPU, 100, (int64_t)(n * 700));
	rc = rc ? rc : sgw_value(sc, n * 1000, SG_EV_TASK_DELAY, 100, (int64_t)(n * 300));
	assert_int_equal(rc, 0);
	assert_int_equal(sgw_close(w, 0), 0);
	timeline_init(&tl);
	if (timeline_open(&tl, path, "long, off CPU", err, sizeof(err)) < 0)
		fail_msg("%s", err);
	s = render(&tl);
	assert_state_at(s, &tl, 0, 0.5 * timeline_duration(&tl), RUNNABLE);
	cairo_surface_destroy(s);
	timeline_set_window(&tl, 10e-6 + 100e-9, 10e-6 + 300e-9);   /* inside one period's compute */
	s = render(&tl);
	assert_state_at(s, &tl, 0, 10e-6 + 200e-9, BUSY);
	cairo_surface_destroy(s);
	timeline_clear(&tl);
}

/* defect15-timeline-deep-zoom-labels: zoomed deep into a run the range read
 * "9.7 ms .. 9.7 ms". The printed ends now differ by the window's width (5 %), in the
 * title too; wide windows keep the short form. */
static void defect15_timeline_deep_zoom_labels(void **state)
{
	static const double cases[][2] = {
		{ 9.7012e-3, 9.7015e-3 }, { 9.70123e-3, 9.70124e-3 }, { 1.5, 1.5000002 },
		{ 0, 10e-6 }, { 2e-3, 25e-3 }, { 123.456789e-6, 123.457e-6 },
	};
	char buf[112], a[56], *dots;
	struct timeline tl;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		double v0 = cases[k][0], v1 = cases[k][1], f0, f1;
		char u0[8] = "", u1[8] = "";
		timeline_format_range(buf, sizeof(buf), v0, v1);
		dots = strstr(buf, " .. ");
		assert_non_null(dots);
		snprintf(a, sizeof(a), "%.*s", (int)(dots - buf), buf);
		if (strcmp(a, dots + 4) == 0)
			fail_msg("%g .. %g s printed \"%s\": the ends are the same", v0, v1, buf);
		assert_int_equal(sscanf(a, "%lf %7s", &f0, u0), 2);
		assert_int_equal(sscanf(dots + 4, "%lf %7s", &f1, u1), 2);
		if (v0 != 0)
			assert_string_equal(u0, u1);   /* one unit for both ends */
		/* the printed width is the window's, within 5 % */
		{
			double m = strcmp(u1, "s") == 0 ? 1 : strcmp(u1, "ms") == 0 ? 1e-3 :
				   strcmp(u1, "ns") == 0 ? 1e-9 : 1e-6;
			double pw = (f1 - (v0 == 0 ? 0 : f0)) * m;
			if (fabs(pw - (v1 - v0)) > 0.05 * (v1 - v0))
				fail_msg("\"%s\": width %g s, window %g s", buf, pw, v1 - v0);
		}
	}
	timeline_format_range(buf, sizeof(buf), 9.7012e-3, 9.7015e-3);
	assert_string_equal(buf, "9.7012 ms .. 9.7015 ms");
	timeline_format_range(buf, sizeof(buf), 2e-3, 25e-3);
	assert_string_equal(buf, "2 ms .. 25 ms");
	/* the window's title uses it too: the synthetic run is too short for a window that
	 * needs more than 3 digits (100 ns at least), so test-xvfb-chrome.sh checks the title of a
	 * real run zoomed to 100 ns; here, the form of the whole run */
	open_tl(&tl);
	{
		struct plot_text_sink sink = { NULL, 0, 0 };
		cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
		cairo_t *cr = cairo_create(s);
		plot_text_sink_attach(cr, &sink);
		assert_int_equal(timeline_draw(cr, W, H, &tl), 0);
		assert_non_null(sink.buf);
		if (!strstr(sink.buf, "(showing 0 s .. 10 \xc2\xb5s of 10 \xc2\xb5s)"))
			fail_msg("title: %.*s", (int)strcspn(sink.buf, "\n"), sink.buf);
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		plot_text_sink_free(&sink);
	}
	timeline_clear(&tl);
}

/* defect15-timeline-lanes-use-height: lanes stayed 40 px in a taller window, leaving the rest
 * empty. Lanes now share the height: twice the window, (much) taller lanes, the legend still
 * inside; and a short window keeps a lane of at least 3 px. */
static void defect15_timeline_lanes_use_height(void **state)
{
	struct timeline tl;
	struct plot_rect la, la2, r;
	double h1, h2, h3;

	(void)state;
	open_tl(&tl);
	timeline_lanes(&tl, timeline_plot_rect(W, H), &la, &h1);
	r = timeline_plot_rect(W, 2 * H);
	timeline_lanes(&tl, r, &la2, &h2);
	if (!(h2 > h1 + 100))
		fail_msg("lane height %.1f px at %dx%d, %.1f px at %dx%d", h1, W, H, h2, W, 2 * H);
	/* the lanes end inside the chart, leaving room for the axis and the legend only */
	assert_true(la2.y + la2.h <= r.y + r.h);
	assert_true(r.y + r.h - (la2.y + la2.h) < 200);
	timeline_lanes(&tl, timeline_plot_rect(W, 160), &la, &h3);
	assert_true(h3 >= 3);
	timeline_clear(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_colours_at_known_times),
		cmocka_unit_test(test_readout),
		cmocka_unit_test(test_zoom_pan_limits),
		cmocka_unit_test(test_svg_text),
		cmocka_unit_test(test_aggregation_long_run),
		cmocka_unit_test(test_off_cpu_states),
		{ "defect15-timeline-deep-zoom-labels", defect15_timeline_deep_zoom_labels, NULL, NULL, NULL },
		{ "defect15-timeline-lanes-use-height", defect15_timeline_lanes_use_height, NULL, NULL, NULL },
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
