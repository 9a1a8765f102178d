/*
 * bil_queue.h — the event queue of the billiards simulation: time-division bins (seeds/001 §5.2).
 *
 * Each neighbouring pair of balls (and each ball next to a wall) has at most one pending event,
 * its time-to-collision. Events live in bins, each covering a narrow range of times; a bin's
 * events are linked in increasing order of (time, pair index), and the bins follow one another
 * in time order (a calendar queue: slot s covers [s*w, (s+1)*w) and lives in bin s mod n_bins).
 * The order (time, pair) is total, so the queue's content and order are the same whatever order
 * the updates were made in: that is what lets the parallel program reproduce the sequential one
 * bit for bit.
 *
 * Concurrency: bil_queue_set() may run in several threads at once for different pairs when the
 * queue was made with locks (striped mutexes over the bins); bil_queue_peek() reads without
 * locks and must not run concurrently with bil_queue_set().
 */
#ifndef BIL_QUEUE_H
#define BIL_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct bil_queue {
	long n_pairs;
	double *t;		/* per pair: event time, HUGE_VAL when the pair has no event */
	int32_t *next, *prev;	/* per pair: links inside its bin, -1 at the ends */
	int32_t *head;		/* per bin: first pair, -1 when empty */
	uint64_t mask;		/* n_bins - 1 (n_bins is a power of two) */
	double bin_width;	/* simulated time per slot */
	pthread_mutex_t *locks;	/* NULL: single-threaded use, no locking */
	uint64_t n_locks;	/* power of two */
};

/*
 * Makes an empty queue for `n_pairs` pairs with `n_bins` bins (rounded up to a power of two) of
 * `bin_width` time units each, and `n_locks` striped mutexes (0: no locking). The queue owns its
 * arrays; release with bil_queue_free(). Returns 0 or -ENOMEM / -EINVAL.
 */
int bil_queue_init(struct bil_queue *q, long n_pairs, long n_bins, double bin_width,
		   long n_locks);

/* Frees what bil_queue_init() allocated; safe on a zeroed or failed queue. */
void bil_queue_free(struct bil_queue *q);

/* Bytes the queue allocated (for the memory-per-ball figure C of eq. (14)). */
size_t bil_queue_bytes(const struct bil_queue *q);

/*
 * Sets pair `pair`'s event time to `t` (HUGE_VAL: remove it). Thread-safe against other
 * bil_queue_set() calls on *different* pairs when the queue has locks.
 */
void bil_queue_set(struct bil_queue *q, long pair, double t);

/*
 * Writes the pairs of the (at most) `n` earliest events with time < t_end to `out`, in queue
 * order, and returns how many. `*cur_slot` is the caller's scan position: start it at 0 and pass
 * it back each time; it only ever grows and only as far as the earliest event, so every thread
 * can keep its own copy. Read-only on the queue.
 */
long bil_queue_peek(const struct bil_queue *q, uint64_t *cur_slot, double t_end, long *out,
		    long n);

#endif /* BIL_QUEUE_H */
