/*
 * an_objects.c — the time columns of the lock, barrier and semaphore tables, settled after the
 * time budget and the choice of processors so that they are the same parts as the figures:
 *   wait, ovh   the processors' waiting and primitive time on the object, each without what
 *               the budget found runnable in it (summed over the objects: IT_x and PT_x; a
 *               lock's release cost, calibrated per thread, is in PT_lock only);
 *   runnable    the processors' runnable time inside the object's waits (part of IT_sched);
 *   others      the time threads that are not processors spent in the object's waits (outside
 *               the books, like the rest of their time).
 * A wait is split at its release as in an_budget.c: before it, a preempted span is runnable
 * and a blocked one is waiting; after it, a preempted span is runnable and a blocked one (the
 * wake-up) is runnable for the share of its thread's wake-ups the run delay said (tail_run).
 * The counts (acquires, waits, episodes) stay every thread's.
 */
#include <errno.h>
#include <stdlib.h>

#include "an_int.h"

/* Where each object's time goes, in ticks; the wake-ups' runnable share summed unrounded (one
 * rounding per object, as the budget rounds once per thread and category). */
struct obj_acc {
	uint64_t wait, p, run, others;
	double tail_run;
};

/* Off-CPU ticks of one thread inside [x, y): preempted into *pre, blocked into *blk. Spans from
 * *j on; *j moves to the first span that ends after x (the next interval begins later). */
static void off_split(const struct an_ivl *off, size_t n_off, size_t *j, uint64_t x, uint64_t y,
		      uint64_t *pre, uint64_t *blk)
{
	*pre = *blk = 0;
	while (*j < n_off && off[*j].b <= x)
		(*j)++;
	for (size_t k = *j; k < n_off && off[k].a < y; k++) {
		uint64_t a = off[k].a > x ? off[k].a : x, b = off[k].b < y ? off[k].b : y;
		if (b <= a)
			continue;
		if (off[k].aux)
			*pre += b - a;
		else
			*blk += b - a;
	}
}

/* The accumulator of interval v's object (NULL: not an object of a table). */
static struct obj_acc *acc_of(const struct an_ivl *v, struct obj_acc *bar, struct obj_acc *lock,
			      struct obj_acc *sem, uint32_t n_ids)
{
	if (v->obj == SG_NO_ID || v->obj >= n_ids)
		return NULL;
	switch ((enum an_ivl_type)v->type) {
	case IV_BARRIER: return &bar[v->obj];
	case IV_LOCK:
	case IV_LOCK_FAIL: return &lock[v->obj];
	case IV_SEM: return &sem[v->obj];
	default: return NULL;
	}
}

/* One thread's waits on the tables' objects into the accumulators. */
static void thread_objects(const struct an_run *r, size_t pos, struct obj_acc *bar,
			   struct obj_acc *lock, struct obj_acc *sem, uint32_t n_ids)
{
	const struct an_tscan *s = &r->ts[pos];
	const struct an_ivl *off = r->budget_ok ? r->off[pos] : NULL;
	size_t n_off = r->budget_ok ? r->n_off[pos] : 0, j = 0;
	double frac = r->budget_ok ? r->bud[pos].tail_run : 0;
	int proc = r->th[pos].processor;
	uint64_t cur = s->first;
	for (size_t k = 0; k < s->n_iv; k++) {
		const struct an_ivl *v = &s->iv[k];
		/* clipped as the budget's sweep clips it */
		uint64_t a = v->a < cur ? cur : v->a, e = v->b > s->last ? s->last : v->b;
		if (e <= a)
			continue;
		cur = e;
		struct obj_acc *o = acc_of(v, bar, lock, sem, n_ids);
		if (!o)
			continue;
		if (!proc) {
			o->others += e - a;
			continue;
		}
		uint64_t rel = v->type == IV_LOCK_FAIL ? v->a : v->a + v->part;
		uint64_t mid = rel < a ? a : rel > e ? e : rel, pre, blk;
		off_split(off, n_off, &j, a, mid, &pre, &blk);
		o->wait += (mid - a) - pre;
		o->run += pre;
		off_split(off, n_off, &j, mid, e, &pre, &blk);
		o->p += (e - mid) - pre;
		o->run += pre;
		o->tail_run += (double)blk * frac;
	}
}

/* An object's settled times into its table entry. */
static void settle(const struct an_run *r, const struct obj_acc *o, int64_t *wait_ns,
		   int64_t *ovh_ns, int64_t *run_ns, int64_t *others_ns)
{
	uint64_t tail = (uint64_t)(o->tail_run + 0.5);
	if (tail > o->p)
		tail = o->p;
	*wait_ns = an_ticks_ns(r, o->wait);
	*ovh_ns = an_ticks_ns(r, o->p - tail);
	*run_ns = an_ticks_ns(r, o->run + tail);
	*others_ns = an_ticks_ns(r, o->others);
}

/* Most waited on first (by ticks: waits a few ticks apart may round to one ns); then most
 * acquired (locks), then by id. */
static int lock_cmp(const void *a, const void *b)
{
	const struct an_lockstat *x = a, *y = b;
	if (x->wait != y->wait)
		return x->wait < y->wait ? 1 : -1;
	if (x->pub.acquires != y->pub.acquires)
		return x->pub.acquires < y->pub.acquires ? 1 : -1;
	return x->pub.id < y->pub.id ? -1 : x->pub.id > y->pub.id;
}

static int sem_cmp(const void *a, const void *b)
{
	const struct an_semstat *x = a, *y = b;
	if (x->wait != y->wait)
		return x->wait < y->wait ? 1 : -1;
	return x->pub.id < y->pub.id ? -1 : x->pub.id > y->pub.id;
}

int an_objects_settle(struct an_run *r)
{
	/* the accumulators by object index (v->obj): sized by the objects defined */
	uint32_t n_ids = r->omap.n;
	if (!n_ids || (!r->n_bars && !r->n_locks && !r->n_sems))
		return 0;
	struct obj_acc *acc = calloc(3 * (size_t)n_ids, sizeof *acc);
	if (!acc)
		return -ENOMEM;
	struct obj_acc *bar = acc, *lock = acc + n_ids, *sem = acc + 2 * (size_t)n_ids;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].seen)
			thread_objects(r, i, bar, lock, sem, n_ids);
	for (size_t k = 0; k < r->n_bars; k++) {
		struct an_barstat *x = &r->bars[k];
		settle(r, &bar[x->idx], &x->pub.wait_ns, &x->pub.ovh_ns, &x->pub.runnable_ns,
		       &x->pub.others_ns);
	}
	for (size_t k = 0; k < r->n_locks; k++) {
		struct an_lockstat *x = &r->locks[k];
		x->wait = lock[x->idx].wait;
		settle(r, &lock[x->idx], &x->pub.wait_ns, &x->pub.ovh_ns, &x->pub.runnable_ns,
		       &x->pub.others_ns);
	}
	for (size_t k = 0; k < r->n_sems; k++) {
		struct an_semstat *x = &r->sems[k];
		x->wait = sem[x->idx].wait;
		settle(r, &sem[x->idx], &x->pub.wait_ns, &x->pub.ovh_ns, &x->pub.runnable_ns,
		       &x->pub.others_ns);
	}
	free(acc);
	/* most contended / most waited on first, by the settled waits */
	if (r->n_locks > 1)
		qsort(r->locks, r->n_locks, sizeof *r->locks, lock_cmp);
	if (r->n_sems > 1)
		qsort(r->sems, r->n_sems, sizeof *r->sems, sem_cmp);
	return 0;
}
