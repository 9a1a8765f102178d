/*
 * analyzer_open.c — how long an_exp_open takes on a real experiment store (DESIGN.md: the GUI
 * opens and draws a 64-run experiment in <= 300 ms), side by side in one run: every trace read
 * again (AN_EXP_REANALYZE, what every open cost before the figures were cached in the store)
 * against the open that loads current per-run figures from the store's metrics table. Wall
 * clock, median of repetitions, page cache warm for both (the first, writing open reads every
 * trace once). Prints `name: value unit (target ...)` lines.
 *
 * usage: analyzer_open EXPERIMENT [REPS]   (default 3 full, 3 x 5 cached)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analyzer.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median wall time of `reps` opens with flags; -1 on error. */
static double time_open(const char *dir, unsigned flags, int reps, size_t *n_points)
{
	double t[64];
	char err[1024];
	for (int i = 0; i < reps && i < 64; i++) {
		struct an_exp *e;
		double t0 = now_s();
		if (an_exp_open(dir, flags, &e, err, sizeof err) < 0) {
			fprintf(stderr, "analyzer_open: error: %s\n", err);
			return -1;
		}
		t[i] = now_s() - t0;
		*n_points = an_exp_n_points(e);
		an_exp_free(e);
	}
	qsort(t, (size_t)reps, sizeof *t, cmp_d);
	return t[reps / 2];
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: analyzer_open EXPERIMENT [REPS]\n", stderr);
		return 2;
	}
	int reps = argc > 2 ? atoi(argv[2]) : 3;
	if (reps < 1 || reps > 12)
		reps = 3;
	size_t np = 0;
	/* fills the store's cache (and the page cache) */
	if (time_open(argv[1], 0, 1, &np) < 0)
		return 1;
	double full = time_open(argv[1], AN_EXP_REANALYZE | AN_EXP_NO_STORE_WRITE, reps, &np);
	double cached = time_open(argv[1], AN_EXP_NO_STORE_WRITE, reps * 5, &np);
	if (full < 0 || cached < 0)
		return 1;
	printf("exp_open_points: %zu points\n", np);
	printf("exp_open_reanalyze: %.1f ms (every trace read again: the open before the cache)\n",
	       full * 1e3);
	printf("exp_open_cached: %.2f ms (target: GUI open + draw of 64 runs <= 300 ms)\n",
	       cached * 1e3);
	printf("exp_open_speedup: %.0f x\n", full / cached);
	return 0;
}
