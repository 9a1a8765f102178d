/*
 * bil_coarse.c — the coarse-grained parallel billiards: segments of the line advanced through
 * windows of simulated time, a barrier between windows (see bil_coarse.h for why the result is
 * the sequential program's, bit for bit).
 *
 * Thread k owns the pairs strictly between boundary pairs bound[k] and bound[k+1] (bound[0] = -1
 * and bound[N] = n_balls + 1, so the walls belong to the end segments). Its private queue covers
 * those pairs and the zones of 2Z+1 pairs around its nominal boundaries, through which a boundary
 * moves from window to window. Each thread builds its own queue (bil_coarse_run's measured
 * work). Then, per window, the serial thread of a barrier moves every boundary to the widest gap
 * of its zone, hands the zone's predictions to their new owners and sets the window's end; after
 * a second barrier each thread executes its own collisions in (time, pair) order up to it.
 */
#include "bil_coarse.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_threads.h"

/* Pairs on either side of a nominal boundary that the boundary may move to. The widest of 33
 * gaps is ~2 length units (gaps of a hard-rod gas are nearly exponential, mean 0.5), so a
 * window is ~1 time unit, less the minimum over all boundaries. */
#define ZONE_MAX 16

/* A window ends this much before the bound g / (2 vmax): positions are computed in floating
 * point (absolute error ~1e-16 * length), the bound is exact arithmetic. */
#define WINDOW_REL_MARGIN 1e-6
#define WINDOW_ABS_MARGIN 1e-9

struct seg {
	struct bil_coarse *c;
	long id;
	int err;		/* seg_build failed: -ENOMEM */
	long base, last;	/* global pairs base..last are in q (local index p - base) */
	struct bil_queue q;
	uint64_t cur;		/* bil_queue_peek's scan position */
	long long collisions;
};

struct bil_coarse {
	struct bil_world *w;
	long n_threads, zone;
	long *nominal;		/* n_threads + 1 nominal boundary pairs */
	long *bound;		/* n_threads + 1 current boundary pairs */
	struct seg **seg;	/* one per thread, each on cache lines of its own */
	double vmax;
	double t_end, t_win;	/* end of the run, end of the current window */
	long long windows;
	int done, err;
	pthread_barrier_t barrier;
};

/* Space between balls p-1 and p at time t (negative: they overlap). 1 <= p <= n_balls - 1. */
static double gap_at(const struct bil_world *w, long p, double t)
{
	const struct bil_ball *l = &w->ball[p - 1], *r = &w->ball[p];

	return (r->x + r->v * (t - r->t)) - (l->x + l->v * (t - l->t)) - w->diameter;
}

static int owns(const struct bil_coarse *c, long k, long p)
{
	return p > c->bound[k] && p < c->bound[k + 1];
}

void bil_coarse_free(struct bil_coarse *c)
{
	if (!c)
		return;
	if (c->seg) {
		for (long k = 0; k < c->n_threads; k++) {
			if (c->seg[k])
				bil_queue_free(&c->seg[k]->q);
			free(c->seg[k]);
		}
	}
	free(c->seg);
	free(c->nominal);
	free(c->bound);
	free(c);
}

int bil_coarse_init(struct bil_coarse **out, struct bil_world *w, long n_threads)
{
	struct bil_coarse *c;
	long n = w->n_balls;
	int ret = -ENOMEM;

	*out = NULL;
	if (n_threads < 1 || (n_threads > 1 && n < n_threads * BIL_COARSE_MIN_BALLS))
		return -EINVAL;
	c = calloc(1, sizeof *c);
	if (!c)
		return -ENOMEM;
	c->w = w;
	c->n_threads = n_threads;
	c->zone = n / n_threads / 4;
	if (c->zone > ZONE_MAX)
		c->zone = ZONE_MAX;
	c->nominal = calloc((size_t)n_threads + 1, sizeof *c->nominal);
	c->bound = calloc((size_t)n_threads + 1, sizeof *c->bound);
	c->seg = calloc((size_t)n_threads, sizeof *c->seg);
	if (!c->nominal || !c->bound || !c->seg)
		goto out;
	c->nominal[0] = -1;
	c->nominal[n_threads] = n + 1;
	for (long k = 1; k < n_threads; k++)
		c->nominal[k] = k * n / n_threads;
	memcpy(c->bound, c->nominal, ((size_t)n_threads + 1) * sizeof *c->bound);
	c->vmax = bil_world_vmax(w);
	for (long k = 0; k < n_threads; k++) {
		struct seg *s;
		void *mem;

		if (posix_memalign(&mem, 128, (sizeof *s + 127) / 128 * 128))
			goto out;
		s = c->seg[k] = mem;
		memset(s, 0, sizeof *s);
		s->c = c;
		s->id = k;
		s->base = k == 0 ? 0 : c->nominal[k] - c->zone;
		s->last = k == n_threads - 1 ? n : c->nominal[k + 1] + c->zone;
	}
	*out = c;
	ret = 0;
out:
	if (ret)
		bil_coarse_free(c);
	return ret;
}

/*
 * The serial step at time T, every thread at the barrier: moves each boundary to the widest gap
 * of its zone, gives the zone's pairs to their owners with predictions recomputed from the balls,
 * and sets the next window's end. Returns 0, -EPROTO or -EDEADLK.
 */
static int coarse_advance(struct bil_coarse *c, double t)
{
	struct bil_world *w = c->w;
	double min_gap = HUGE_VAL, win;

	if (t >= c->t_end) {
		c->done = 1;
		return 0;
	}
	for (long k = 1; k < c->n_threads; k++) {
		long lo = c->nominal[k] - c->zone, hi = c->nominal[k] + c->zone, best = lo;
		struct seg *a = c->seg[k - 1], *b = c->seg[k];
		double best_gap = -HUGE_VAL;

		/* the old boundary was left out of the window: had it collided, its balls overlap */
		if (gap_at(w, c->bound[k], t) < 0)
			return -EPROTO;
		for (long p = lo; p <= hi; p++) {
			double g = gap_at(w, p, t);

			if (g > best_gap) {
				best_gap = g;
				best = p;
			}
		}
		c->bound[k] = best;
		for (long p = lo; p <= hi; p++) {
			double tp = p == best ? HUGE_VAL : bil_predict_pair(w, p);

			if (tp < t)
				return -EPROTO;
			bil_queue_set(&a->q, p - a->base, p < best ? tp : HUGE_VAL);
			bil_queue_set(&b->q, p - b->base, p > best ? tp : HUGE_VAL);
		}
		if (best_gap < min_gap)
			min_gap = best_gap;
	}
	win = c->vmax > 0 ? min_gap / (2 * c->vmax) : HUGE_VAL;
	win = win * (1 - WINDOW_REL_MARGIN) - WINDOW_ABS_MARGIN * (1 + t);
	c->t_win = t + win < c->t_end ? t + win : c->t_end;
	if (!(c->t_win > t))
		return -EDEADLK;
	c->windows++;
	return 0;
}

/*
 * Builds segment s's queue from the world's first collisions, in its own thread: the queue's
 * memory is first touched by the thread that uses it (local memory on a NUMA machine), and the
 * work — one insertion per pair, which the sequential program does before its measured region —
 * is the decomposition's own cost, spread over the threads.
 */
static int seg_build(struct bil_coarse *c, struct seg *s)
{
	long len = s->last - s->base + 1;
	int ret = bil_queue_init(&s->q, len, len, bil_queue_bin_width(len), 0);

	if (ret)
		return ret;
	for (long p = s->base; p <= s->last; p++) {
		if (owns(c, s->id, p))
			bil_queue_set(&s->q, p - s->base, c->w->q.t[p]);
	}
	return 0;
}

/* Writes a collision of segment s: its balls, and the predictions of its own pairs (a boundary
 * pair's is not computed, bil_collide_in: it is recomputed at the window's end). */
static void seg_apply(struct bil_coarse *c, struct seg *s, const struct bil_result *r)
{
	for (int k = 0; k < r->n_balls; k++)
		c->w->ball[r->ball_idx[k]] = r->ball[k];
	for (int k = 0; k < r->n_events; k++) {
		long q = r->ev_pair[k];

		if (owns(c, s->id, q))
			bil_queue_set(&s->q, q - s->base, r->ev_t[k]);
	}
}

/* The serial step between windows: the segments' errors, then coarse_advance. */
static void coarse_step(struct bil_coarse *c, double t)
{
	int ret = 0;

	for (long k = 0; k < c->n_threads && !ret; k++)
		ret = c->seg[k]->err;
	if (!ret)
		ret = coarse_advance(c, t);
	if (ret) {
		c->err = ret;
		c->done = 1;
	}
}

static void *seg_main(void *arg)
{
	struct seg *s = *(struct seg **)arg;
	struct bil_coarse *c = s->c;
	struct bil_result r;
	double t = 0;		/* the time the segment has been advanced to */

	s->err = seg_build(c, s);
	for (;;) {
		long lp;

		if (pthread_barrier_wait(&c->barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			coarse_step(c, t);
		pthread_barrier_wait(&c->barrier);
		if (c->done)
			break;
		t = c->t_win;
		while (bil_queue_peek(&s->q, &s->cur, t, &lp, 1) == 1) {
			bil_collide_in(c->w, s->base + lp, s->q.t[lp], c->bound[s->id] + 1,
				       c->bound[s->id + 1] - 1, &r);
			seg_apply(c, s, &r);
			s->collisions++;
		}
	}
	return NULL;
}

int bil_coarse_run(struct bil_coarse *c, double t_end, long long *collisions,
		   long long *windows)
{
	pthread_t *tid;
	int ret;

	c->t_end = t_end;
	c->done = 0;
	c->err = 0;
	c->windows = 0;
	tid = calloc((size_t)c->n_threads, sizeof *tid);
	if (!tid)
		return -ENOMEM;
	ret = -pthread_barrier_init(&c->barrier, NULL, (unsigned)c->n_threads);
	if (ret)
		goto out;
	/*
	 * The calling thread is segment 0's worker, so N = 1 runs on the thread (and with the
	 * probes' throttling counts) of billiards-seq, and only N - 1 threads are started. A thread
	 * that failed to start would leave the others waiting at the barrier forever.
	 */
	if (ex_threads_start(tid, c->n_threads - 1, seg_main, c->seg + 1, sizeof *c->seg,
			     "billiards"))
		exit(1);
	seg_main(c->seg);
	ex_threads_join(tid, c->n_threads - 1);
	pthread_barrier_destroy(&c->barrier);
	for (long k = 0; k < c->n_threads; k++)
		*collisions += c->seg[k]->collisions;
	*windows += c->windows;
	ret = c->err;
out:
	free(tid);
	return ret;
}
