/*
 * bil_queue.c — the time-division-bin event queue (see bil_queue.h).
 *
 * Insertion walks one bin's sorted list (a few events on average with the default sizing: the
 * simulation picks bin width ~ a few mean inter-event times and one bin per pair); removal is
 * O(1) through the per-pair doubly linked list. This is the paper's ADD_TIME_TO_QUEUE and
 * REMOVE_FROM_QUEUE.
 */
#include "bil_queue.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Slots beyond this are clamped (events in the far future, e.g. nearly equal speeds). */
#define SLOT_MAX ((uint64_t)1 << 62)

static uint64_t round_pow2(long n)
{
	uint64_t p = 1;

	while (p < (uint64_t)n)
		p <<= 1;
	return p;
}

static uint64_t slot_of(const struct bil_queue *q, double t)
{
	double s = t / q->bin_width;

	if (!(s < (double)SLOT_MAX))
		return SLOT_MAX;
	return (uint64_t)s;
}

/* (t, pair) order: earlier time first, ties broken by the smaller pair index. */
static int key_before(double ta, long pa, double tb, long pb)
{
	return ta < tb || (ta == tb && pa < pb);
}

int bil_queue_init(struct bil_queue *q, long n_pairs, long n_bins, double bin_width,
		   long n_locks)
{
	int ret = -ENOMEM;
	uint64_t nb;

	memset(q, 0, sizeof *q);
	if (n_pairs < 1 || n_pairs > INT32_MAX - 1 || n_bins < 1 || !(bin_width > 0) ||
	    n_locks < 0) {
		ret = -EINVAL;
		goto out;
	}
	nb = round_pow2(n_bins);
	q->n_pairs = n_pairs;
	q->mask = nb - 1;
	q->bin_width = bin_width;
	q->t = malloc((size_t)n_pairs * sizeof *q->t);
	q->next = malloc((size_t)n_pairs * sizeof *q->next);
	q->prev = malloc((size_t)n_pairs * sizeof *q->prev);
	q->head = malloc(nb * sizeof *q->head);
	if (!q->t || !q->next || !q->prev || !q->head)
		goto out;
	for (long i = 0; i < n_pairs; i++) {
		q->t[i] = HUGE_VAL;
		q->next[i] = q->prev[i] = -1;
	}
	for (uint64_t b = 0; b < nb; b++)
		q->head[b] = -1;
	if (n_locks > 0) {
		q->n_locks = round_pow2(n_locks);
		q->locks = malloc(q->n_locks * sizeof *q->locks);
		if (!q->locks)
			goto out;
		for (uint64_t i = 0; i < q->n_locks; i++)
			pthread_mutex_init(&q->locks[i], NULL);
	}
	ret = 0;
out:
	if (ret)
		bil_queue_free(q);
	return ret;
}

void bil_queue_free(struct bil_queue *q)
{
	if (q->locks) {
		for (uint64_t i = 0; i < q->n_locks; i++)
			pthread_mutex_destroy(&q->locks[i]);
	}
	free(q->locks);
	free(q->t);
	free(q->next);
	free(q->prev);
	free(q->head);
	memset(q, 0, sizeof *q);
}

size_t bil_queue_bytes(const struct bil_queue *q)
{
	return (size_t)q->n_pairs * (sizeof *q->t + sizeof *q->next + sizeof *q->prev) +
	       (size_t)(q->mask + 1) * sizeof *q->head + (size_t)q->n_locks * sizeof *q->locks;
}

static void bin_lock(struct bil_queue *q, uint64_t bin)
{
	if (q->locks)
		pthread_mutex_lock(&q->locks[bin & (q->n_locks - 1)]);
}

static void bin_unlock(struct bil_queue *q, uint64_t bin)
{
	if (q->locks)
		pthread_mutex_unlock(&q->locks[bin & (q->n_locks - 1)]);
}

/* REMOVE_FROM_QUEUE: unlinks `pair` (which has an event) from its bin. */
static void queue_remove(struct bil_queue *q, long pair)
{
	uint64_t bin = slot_of(q, q->t[pair]) & q->mask;
	int32_t nx, pv;

	bin_lock(q, bin);
	nx = q->next[pair];
	pv = q->prev[pair];
	if (pv >= 0)
		q->next[pv] = nx;
	else
		q->head[bin] = nx;
	if (nx >= 0)
		q->prev[nx] = pv;
	q->next[pair] = q->prev[pair] = -1;
	q->t[pair] = HUGE_VAL;
	bin_unlock(q, bin);
}

/* ADD_TIME_TO_QUEUE: links `pair` with time `t` into its bin, keeping the bin sorted. */
static void queue_add(struct bil_queue *q, long pair, double t)
{
	uint64_t bin = slot_of(q, t) & q->mask;
	int32_t pv = -1, cur;

	bin_lock(q, bin);
	cur = q->head[bin];
	while (cur >= 0 && key_before(q->t[cur], cur, t, pair)) {
		pv = cur;
		cur = q->next[cur];
	}
	q->t[pair] = t;
	q->prev[pair] = pv;
	q->next[pair] = cur;
	if (pv >= 0)
		q->next[pv] = (int32_t)pair;
	else
		q->head[bin] = (int32_t)pair;
	if (cur >= 0)
		q->prev[cur] = (int32_t)pair;
	bin_unlock(q, bin);
}

void bil_queue_set(struct bil_queue *q, long pair, double t)
{
	if (q->t[pair] == t)
		return;
	if (q->t[pair] != HUGE_VAL)
		queue_remove(q, pair);
	if (t != HUGE_VAL)
		queue_add(q, pair, t);
}

/* Smallest slot >= `from` holding an event, or SLOT_MAX + 1 when the queue has none. Visits
 * every bin: used only to jump over a long run of empty slots. */
static uint64_t next_busy_slot(const struct bil_queue *q, uint64_t from)
{
	uint64_t best = SLOT_MAX + 1;

	for (uint64_t b = 0; b <= q->mask; b++) {
		for (int32_t p = q->head[b]; p >= 0; p = q->next[p]) {
			uint64_t s = slot_of(q, q->t[p]);

			if (s >= from) {
				if (s < best)
					best = s;
				break;
			}
		}
	}
	return best;
}

long bil_queue_peek(const struct bil_queue *q, uint64_t *cur_slot, double t_end, long *out,
		    long n)
{
	uint64_t s = *cur_slot, idle = 0;
	long got = 0;

	while (got < n && (double)s * q->bin_width < t_end) {
		uint64_t bin = s & q->mask;

		for (int32_t p = q->head[bin]; p >= 0 && got < n; p = q->next[p]) {
			uint64_t ps = slot_of(q, q->t[p]);

			if (ps < s)
				continue;	/* an earlier slot's event, already taken */
			if (ps > s)
				break;	/* later year: the rest of the bin is later still */
			if (q->t[p] >= t_end)
				return got;
			if (got == 0)
				*cur_slot = s;
			out[got++] = p;
			idle = 0;
		}
		if (got >= n)
			break;
		if (++idle > q->mask + 1) {
			/* a whole year of empty slots: jump straight to the next event */
			s = next_busy_slot(q, s);
			if (s > SLOT_MAX)
				break;
			idle = 0;
			continue;
		}
		s++;
	}
	return got;
}
