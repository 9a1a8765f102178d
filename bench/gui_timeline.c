/*
 * gui_timeline.c — redraw time of xscalegraph's run timeline (window 9) on a long run: a
 * synthetic two-thread trace of 10^6 state intervals (barrier episodes, written with the trace
 * writer) is opened through the analyzer and drawn at the window's default size (1100 x 440) on
 * a cairo image surface, whole run and zoomed; figures are medians of 15 draws. The first draw
 * (which builds the analyzer's per-thread timeline) is reported apart. Target: a redraw in well
 * under 50 ms (issue 6).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgtrace_write.h"
#include "../gui/timeline.h"

#define PERIODS 200000u  /* 5 intervals each over the two threads: 10^6 */
#define REPS 15

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int write_trace(const char *dir)
{
	struct sgw_trace *w;
	struct sgw_stream *t[2];
	uint32_t k;
	int rc, i;

	if ((rc = sgw_create(dir, NULL, &w)) < 0)
		return rc;
	rc = sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000);
	for (i = 0; i < 2 && rc == 0; i++) {
		rc = sgw_thread(w, (uint32_t)i, SG_NO_ID, 0, &t[i]);
		rc = rc ? rc : sgw_event(t[i], 0, SG_EV_THREAD_BEGIN, (uint32_t)i, SG_NO_ID);
	}
	/* per 1 us period: thread 0 busy, waits from +500, thread 1 arrives at +900, both leave
	 * at +950: busy/wait/overhead + busy/overhead = 5 intervals */
	for (k = 0; k < PERIODS && rc == 0; k++) {
		uint64_t b = (uint64_t)k * 1000;
		rc = sgw_event(t[0], b + 500, SG_EV_BARRIER_ARRIVE, 1, k + 1);
		rc = rc ? rc : sgw_event(t[1], b + 900, SG_EV_BARRIER_ARRIVE, 1, k + 1);
		rc = rc ? rc : sgw_event(t[0], b + 950, SG_EV_BARRIER_LEAVE, 1, k + 1);
		rc = rc ? rc : sgw_event(t[1], b + 950, SG_EV_BARRIER_LEAVE, 1, k + 1);
	}
	for (i = 0; i < 2 && rc == 0; i++)
		rc = sgw_event(t[i], (uint64_t)PERIODS * 1000, SG_EV_THREAD_END, (uint32_t)i, 0);
	if (rc < 0) {
		sgw_close(w, 0);
		return rc;
	}
	return sgw_close(w, 0);
}

/* Median draw time of the current window, and the intervals one draw visits. */
static double median_draw(struct timeline *tl, cairo_t *cr, size_t *visited)
{
	double t[REPS];
	int i;

	for (i = 0; i < REPS; i++) {
		double t0 = now_ms();
		timeline_draw(cr, 1100, 440, tl);
		t[i] = now_ms() - t0;
	}
	qsort(t, REPS, sizeof(t[0]), cmp_double);
	*visited = tl->last_intervals;
	return t[REPS / 2];
}

int main(void)
{
	char dir[] = "/tmp/sgguitl.XXXXXX", err[512], cmd[64];
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1100, 440);
	cairo_t *cr = cairo_create(s);
	struct timeline tl;
	double t0, first, full, zoom;
	size_t v_full, v_zoom, v;
	int rc = 1;

	timeline_init(&tl);
	if (!mkdtemp(dir) || write_trace(dir) < 0) {
		fprintf(stderr, "gui_timeline: cannot write the trace in %s\n", dir);
		goto out;
	}
	t0 = now_ms();
	if (timeline_open(&tl, dir, "bench", err, sizeof(err)) < 0) {
		fprintf(stderr, "gui_timeline: %s\n", err);
		goto out;
	}
	timeline_draw(cr, 1100, 440, &tl);
	first = now_ms() - t0;
	v = tl.last_intervals;
	full = median_draw(&tl, cr, &v_full);
	timeline_set_window(&tl, 0.45 * timeline_duration(&tl), 0.46 * timeline_duration(&tl));
	zoom = median_draw(&tl, cr, &v_zoom);
	printf("timeline open + first draw, %zu intervals: %.1f ms (analyzer reads the trace and "
	       "builds the lanes)\n", v, first);
	printf("timeline redraw, whole run, %zu intervals: %.2f ms (target < 50 ms)\n", v_full, full);
	printf("timeline redraw, zoomed to 1 %%, %zu intervals: %.2f ms (target < 50 ms)\n", v_zoom,
	       zoom);
	rc = 0;
out:
	timeline_clear(&tl);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
