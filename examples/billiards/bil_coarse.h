/*
 * bil_coarse.h — the coarse-grained parallel billiards (`billiards --coarse`): each thread owns
 * a segment of the line and advances it alone through a window of simulated time; the threads
 * meet at a barrier only at the windows' ends.
 *
 * Why it computes the sequential program's physics, bit for bit. Segments are separated by a
 * boundary pair (the gap between the last ball of one segment and the first of the next) that
 * no thread executes during a window. A collision of pair p reads balls p-1 and p and changes
 * the predictions of pairs p-1, p, p+1, which read balls p-2..p+1: with the boundary pairs left
 * out, a segment's collisions read and write only its own balls and predictions, so the
 * segments' histories inside a window are causally independent, and each thread executes its
 * own in the sequential program's (time, pair) order. What remains is to be sure that no
 * boundary pair collides inside the window: no ball ever moves faster than vmax (velocities are
 * only exchanged or flipped), so a boundary whose gap is g at the window's start cannot close
 * before g / (2 vmax). The window is that bound for the smallest boundary gap (less a margin
 * for rounding), and to make it long each boundary is moved, at every window's end, to the
 * widest gap among 2Z+1 pairs around its nominal place (Z = 16). At the end of a window the
 * predictions of the pairs near a boundary are recomputed from the balls' states, which gives
 * the bits the sequential program's queue holds (bil_predict_pair is a pure function of the two
 * states), and handed to the segment that now owns them.
 *
 * The work between two barriers is about 0.64 * balls * window / N collisions per thread (a
 * window is ~0.5-1 time units, 20-40 steps): thousands of collisions where the paper's
 * procedure (billiards without --coarse) has one.
 */
#ifndef BIL_COARSE_H
#define BIL_COARSE_H

#include "bil_sim.h"

struct bil_coarse;

/*
 * Sets up the decomposition of world `w` (made by bil_world_init, its queue holding the first
 * collisions) over `n_threads` threads: the segments and their boundaries. Their private event
 * queues are built by bil_coarse_run, each in its own thread. Needs at least BIL_COARSE_MIN_BALLS balls per thread
 * when n_threads > 1.
 * Returns 0, -EINVAL or -ENOMEM; *out is freed with bil_coarse_free().
 */
#define BIL_COARSE_MIN_BALLS 4
int bil_coarse_init(struct bil_coarse **out, struct bil_world *w, long n_threads);
void bil_coarse_free(struct bil_coarse *c);

/*
 * Runs the simulation to simulated time t_end on the calling thread and n_threads - 1 threads
 * started and joined here (plain pthread calls, so `scalegraph cc` traces them and the barrier). The world's balls end as
 * billiards-seq leaves them; its queue is not kept up to date. Each thread first builds its
 * segment's queue from the world's (one insertion per pair: the decomposition's own work, which
 * the sequential program does before its region; it makes E(1) < 1 by ~15/steps). Adds the collisions executed and
 * the windows to *collisions and *windows. Returns 0 or -errno (-EDEADLK: a window that would
 * not advance, -EPROTO: a boundary that collided inside a window — neither should happen).
 */
int bil_coarse_run(struct bil_coarse *c, double t_end, long long *collisions,
		   long long *windows);

#endif /* BIL_COARSE_H */
