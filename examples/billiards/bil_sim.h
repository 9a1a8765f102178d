/*
 * bil_sim.h — the physics and bookkeeping shared by billiards-seq and billiards (seeds/001 §5).
 *
 * Balls of equal mass and diameter move on a line between two walls. Ball i keeps its position
 * x at the time t of its last collision and its velocity v; its position at a later time is
 * x + v*(now - t) (the paper's last_update_time). Pair p is the gap between ball p-1 and ball p:
 * pair 0 is the left wall and ball 0, pair n_balls is the last ball and the right wall. Each pair
 * has at most one pending collision in the event queue.
 *
 * A collision is split in two so the parallel program can run it in two phases:
 * bil_collide() computes everything the collision changes (the two balls' new states and the new
 * times-to-collision of the pairs on either side) without touching the world, and bil_apply()
 * writes it. Both programs call exactly these functions on exactly the same inputs, which is why
 * their checksums are bit-identical.
 *
 * Sizes: `steps` counts units of simulated time (BIL_STEP_TIME each); the number of collisions
 * per step grows linearly with the number of balls, so run time is ~ balls * steps.
 */
#ifndef BIL_SIM_H
#define BIL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "bil_queue.h"

/* Simulated time per step. With unit spacing and speeds in (-1, 1) there are about 0.016
 * collisions per ball per step (measured: 0.64 per ball per time unit), so 5000 balls x 100
 * steps is about 8,000 collisions. Small on purpose: the parallel program pays two barrier
 * episodes per iteration (~30 us each on a 2-CPU VM), and the collector runs it many times. */
#define BIL_STEP_TIME 0.025

struct bil_ball {
	double x;	/* position of the centre at time t */
	double v;	/* velocity, length units per time unit */
	double t;	/* time of the last update */
};

struct bil_world {
	long n_balls;
	double length;		/* walls at 0 and length */
	double diameter;
	struct bil_ball *ball;	/* n_balls, left to right */
	struct bil_queue q;	/* n_balls + 1 pairs */
};

/* What one collision changes, computed by bil_collide() and written by bil_apply(). */
struct bil_result {
	long pair;		/* the colliding pair */
	double t;		/* its time */
	int n_balls;		/* 1 (a wall) or 2 */
	long ball_idx[2];
	struct bil_ball ball[2];
	int n_events;		/* pairs whose event changes: pair-1, pair, pair+1 inside range */
	long ev_pair[3];
	double ev_t[3];		/* HUGE_VAL: no collision predicted */
};

/*
 * Builds the initial state: n_balls balls, one per unit of length, at deterministic
 * pseudo-random offsets and speeds, and the queue of their first collisions. `n_bins` is the
 * number of queue bins: 0 picks one per pair (constant work per event); a fixed small number
 * makes each bin's sorted list, and so ADD_TIME_TO_QUEUE, grow with the balls as in the
 * paper's profile. The results do not depend on it. `n_locks` > 0 makes the queue safe for
 * concurrent bil_apply() (see bil_queue.h). The world owns its memory; release it with
 * bil_world_free(). Returns 0, -EINVAL or -ENOMEM.
 */
int bil_world_init(struct bil_world *w, long n_balls, long n_bins, long n_locks);
void bil_world_free(struct bil_world *w);

/* Bytes allocated per ball (the C of eq. (14): memory = C * num_balls). */
double bil_world_bytes_per_ball(const struct bil_world *w);

/* Computes collision `pair` at its queued time into *r; reads the world only. */
void bil_collide(const struct bil_world *w, long pair, struct bil_result *r);

/* The same for a collision of `pair` at time `t` kept elsewhere (a queue of the coarse
 * decomposition, bil_coarse.h): bil_collide(w, p, r) is bil_collide_at(w, p, w->q.t[p], r). */
void bil_collide_at(const struct bil_world *w, long pair, double t, struct bil_result *r);

/* The same, predicting only the pairs q_lo..q_hi among pair-1, pair, pair+1: the coarse
 * decomposition's segment never reads the balls beyond its boundary pairs (another thread's),
 * whose predictions it would discard anyway. The results are those of bil_collide_at for the
 * pairs predicted. */
void bil_collide_in(const struct bil_world *w, long pair, double t, long q_lo, long q_hi,
		    struct bil_result *r);

/* Time-to-collision of pair `pair` from the balls' stored states (HUGE_VAL: none). A pure
 * function of the two states: the value the queue holds for the pair after the last collision
 * that changed either ball, bit for bit. */
double bil_predict_pair(const struct bil_world *w, long pair);

/* Largest |v| of any ball. Collisions exchange velocities and walls flip their sign, so it never
 * changes during a run: no ball moves farther than vmax * dt in dt. */
double bil_world_vmax(const struct bil_world *w);

/* Simulated time per queue slot for a queue serving `n_balls` balls (a few events per slot). */
double bil_queue_bin_width(long n_balls);

/* Writes *r into the world and the queue. Concurrent calls are safe when their results are
 * independent (bil_independent_prefix) and the queue has locks. */
void bil_apply(struct bil_world *w, const struct bil_result *r);

/*
 * The data-dependence test of §5.2 on the results of the n earliest collisions r[0..n-1] (in
 * queue order, computed on the same world): returns k, the number of leading results that can be
 * applied together and give the world the sequential program reaches by applying them one by
 * one. r[m] depends on an earlier r[l] when
 *   - they overlap: they share a ball, or a pair between them whose prediction both change
 *     (pair distance <= 2), or
 *   - early recollision: r[l] predicts a new collision that comes before r[m] in (time, pair)
 *     order, so the sequential program would execute that one first.
 * Always >= 1 when n >= 1.
 */
long bil_independent_prefix(const struct bil_result *r, long n);

/* Hash of the state at time t_end: every ball's position then and its velocity. */
uint64_t bil_world_checksum(const struct bil_world *w, double t_end);

#endif /* BIL_SIM_H */
