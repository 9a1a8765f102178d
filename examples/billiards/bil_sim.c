/*
 * bil_sim.c — the billiards physics: initial state, collision prediction and execution, the
 * data-dependence test and the checksum (see bil_sim.h).
 *
 * Every quantity is computed by one function from the balls' stored states, never from partial
 * updates, so the same collision gives the same bits in any program and thread.
 */
#include "bil_sim.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ex_cli.h"

#define BALL_SPACING 1.0
#define BALL_DIAMETER 0.5
#define BALL_JITTER 0.2		/* initial offset from the lattice point, at most */
#define RNG_SEED UINT64_C(0x5ca1ab1e0ddba11)

/* Queue sizing: events per unit of simulated time is about RATE * n_balls; a bin spans about
 * BIN_EVENTS events, and there is one bin per pair. Measured, see README.md. */
#define EVENT_RATE_PER_BALL 0.64
#define BIN_EVENTS 2.0

/* splitmix64: a small deterministic generator, the same on every machine. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [-1, 1), from 53 random bits. */
static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) * 0x1.0p-52 - 1.0;
}

/*
 * Time of the next collision across a gap, HUGE_VAL when none: `l` is the ball on the left
 * (NULL: the left wall), `r` the ball on the right (NULL: the right wall).
 */
static double predict(const struct bil_world *w, const struct bil_ball *l,
		      const struct bil_ball *r)
{
	double half = w->diameter / 2, t_ref, gap, dt;

	if (!l) {			/* ball r against the left wall */
		if (!(r->v < 0))
			return HUGE_VAL;
		t_ref = r->t;
		gap = r->x - half;
		dt = gap / -r->v;
	} else if (!r) {		/* ball l against the right wall */
		if (!(l->v > 0))
			return HUGE_VAL;
		t_ref = l->t;
		gap = w->length - half - l->x;
		dt = gap / l->v;
	} else {
		if (!(l->v > r->v))
			return HUGE_VAL;
		t_ref = l->t > r->t ? l->t : r->t;
		gap = (r->x + r->v * (t_ref - r->t)) - (l->x + l->v * (t_ref - l->t)) -
		      w->diameter;
		dt = gap / (l->v - r->v);
	}
	if (!(dt > 0))		/* touching already (or rounding put them a hair inside) */
		dt = 0;
	return t_ref + dt;
}

/* The state of ball i as seen by a collision that has computed new states for some balls. */
static const struct bil_ball *ball_view(const struct bil_world *w, const struct bil_result *r,
					long i)
{
	if (i < 0 || i >= w->n_balls)
		return NULL;
	for (int k = 0; k < r->n_balls; k++) {
		if (r->ball_idx[k] == i)
			return &r->ball[k];
	}
	return &w->ball[i];
}

/* Prediction for pair p (balls p-1 and p), seen through r's new states. */
static double predict_pair(const struct bil_world *w, const struct bil_result *r, long p)
{
	return predict(w, ball_view(w, r, p - 1), ball_view(w, r, p));
}

int bil_world_init(struct bil_world *w, long n_balls, long n_bins, long n_locks)
{
	uint64_t seed = RNG_SEED;
	int ret;

	memset(w, 0, sizeof *w);
	if (n_balls < 1)
		return -EINVAL;
	w->n_balls = n_balls;
	w->length = BALL_SPACING * (double)n_balls;
	w->diameter = BALL_DIAMETER;
	w->ball = malloc((size_t)n_balls * sizeof *w->ball);
	if (!w->ball) {
		ret = -ENOMEM;
		goto out;
	}
	ret = bil_queue_init(&w->q, n_balls + 1, n_bins > 0 ? n_bins : n_balls + 1,
			     bil_queue_bin_width(n_balls), n_locks);
	if (ret)
		goto out;
	for (long i = 0; i < n_balls; i++) {
		struct bil_ball *b = &w->ball[i];

		b->x = BALL_SPACING * ((double)i + 0.5) + BALL_JITTER * rng_unit(&seed);
		b->v = rng_unit(&seed);
		b->t = 0;
	}
	for (long p = 0; p <= n_balls; p++)
		bil_queue_set(&w->q, p, bil_predict_pair(w, p));
out:
	if (ret)
		bil_world_free(w);
	return ret;
}

void bil_world_free(struct bil_world *w)
{
	bil_queue_free(&w->q);
	free(w->ball);
	memset(w, 0, sizeof *w);
}

double bil_world_bytes_per_ball(const struct bil_world *w)
{
	size_t bytes = (size_t)w->n_balls * sizeof *w->ball + bil_queue_bytes(&w->q);

	return (double)bytes / (double)w->n_balls;
}

void bil_collide(const struct bil_world *w, long p, struct bil_result *r)
{
	bil_collide_at(w, p, w->q.t[p], r);
}

double bil_predict_pair(const struct bil_world *w, long p)
{
	return predict(w, p > 0 ? &w->ball[p - 1] : NULL, p < w->n_balls ? &w->ball[p] : NULL);
}

double bil_world_vmax(const struct bil_world *w)
{
	double m = 0;

	for (long i = 0; i < w->n_balls; i++) {
		if (fabs(w->ball[i].v) > m)
			m = fabs(w->ball[i].v);
	}
	return m;
}

double bil_queue_bin_width(long n_balls)
{
	return BIN_EVENTS / (EVENT_RATE_PER_BALL * (double)n_balls);
}

void bil_collide_at(const struct bil_world *w, long p, double t, struct bil_result *r)
{
	bil_collide_in(w, p, t, 0, w->n_balls, r);
}

void bil_collide_in(const struct bil_world *w, long p, double t, long q_lo, long q_hi,
		    struct bil_result *r)
{
	r->pair = p;
	r->t = t;
	r->n_balls = 0;
	/* move the one or two balls to the contact point (§5.2 steps 2-3) */
	for (long i = p - 1; i <= p; i++) {
		const struct bil_ball *b;
		struct bil_ball *nb;

		if (i < 0 || i >= w->n_balls)
			continue;
		b = &w->ball[i];
		nb = &r->ball[r->n_balls];
		r->ball_idx[r->n_balls++] = i;
		nb->x = b->x + b->v * (t - b->t);
		nb->v = b->v;
		nb->t = t;
	}
	/* exchange velocities, or bounce off the wall (step 4) */
	if (r->n_balls == 2) {
		double v = r->ball[0].v;

		r->ball[0].v = r->ball[1].v;
		r->ball[1].v = v;
	} else {
		r->ball[0].v = -r->ball[0].v;
	}
	/* new times-to-collision of the pairs around it (steps 5-6) */
	r->n_events = 0;
	for (long q = p - 1; q <= p + 1; q++) {
		if (q < 0 || q > w->n_balls || q < q_lo || q > q_hi)
			continue;
		r->ev_pair[r->n_events] = q;
		r->ev_t[r->n_events++] = predict_pair(w, r, q);
	}
}

void bil_apply(struct bil_world *w, const struct bil_result *r)
{
	for (int k = 0; k < r->n_balls; k++)
		w->ball[r->ball_idx[k]] = r->ball[k];
	for (int k = 0; k < r->n_events; k++)
		bil_queue_set(&w->q, r->ev_pair[k], r->ev_t[k]);
}

long bil_independent_prefix(const struct bil_result *r, long n)
{
	for (long m = 1; m < n; m++) {
		for (long l = 0; l < m; l++) {
			if (labs(r[m].pair - r[l].pair) <= 2)
				return m;	/* overlap */
			for (int k = 0; k < r[l].n_events; k++) {
				double t = r[l].ev_t[k];
				long q = r[l].ev_pair[k];

				if (t < r[m].t || (t == r[m].t && q < r[m].pair))
					return m;	/* early recollision */
			}
		}
	}
	return n;
}

uint64_t bil_world_checksum(const struct bil_world *w, double t_end)
{
	uint64_t h = EX_HASH_INIT;

	for (long i = 0; i < w->n_balls; i++) {
		const struct bil_ball *b = &w->ball[i];

		h = ex_hash_double(h, b->x + b->v * (t_end - b->t));
		h = ex_hash_double(h, b->v);
	}
	return h;
}
