/*
 * an_timeline.c — the per-thread state timeline of a run, for the GUI's thread view: intervals of
 * busy / barrier wait / barrier overhead / lock wait / lock overhead / cond wait / semaphore
 * wait / semaphore overhead / create-join / idle covering [t0, t1] without gaps. It is derived
 * from the non-busy intervals that the scan kept and the joins split (`part` = the waiting share,
 * which comes first: a barrier waits until the last arrival, a lock until the holder releases),
 * then, with the time budget, the thread's off-CPU spans laid over it: preempted ones as
 * runnable wherever they fall, blocked ones in compute as blocked (a blocked span inside a wait
 * is that wait). Built once per thread on first use, and queried by time window with runs of
 * short intervals folded for zoomed-out views.
 */
#include <errno.h>
#include <stdlib.h>

#include "an_int.h"

static int push(struct an_interval **v, size_t *n, size_t *cap, int64_t a, int64_t b,
		enum an_state st, uint32_t obj)
{
	if (b <= a)
		return 0;
	if (an_grow(v, cap, *n, sizeof **v) < 0)
		return -ENOMEM;
	(*v)[(*n)++] = (struct an_interval){ a, b, st, obj, 1 };
	return 0;
}

/* The intervals v[0..n) of thread i with its off-CPU spans laid over them, into *out. */
static int overlay(struct an_run *r, size_t i, const struct an_interval *v, size_t n,
		   struct an_interval **out, size_t *n_out)
{
	const struct an_ivl *sp = r->off[i];
	size_t n_sp = r->n_off[i], j = 0, cap = 0;
	*out = NULL;
	*n_out = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t at = v[k].t0_ns, b = v[k].t1_ns;
		while (j < n_sp && an_time_ns(r, sp[j].b) <= at)
			j++;
		for (size_t q = j; q < n_sp && at < b; q++) {
			int64_t sa = an_time_ns(r, sp[q].a), sb = an_time_ns(r, sp[q].b);
			if (sa >= b)
				break;
			enum an_state st = sp[q].aux ? AN_ST_RUNNABLE
				: v[k].state == AN_ST_BUSY ? AN_ST_BLOCKED : v[k].state;
			if (st == v[k].state || v[k].state == AN_ST_IDLE)
				continue;
			if (sa < at)
				sa = at;
			if (sb > b)
				sb = b;
			if (push(out, n_out, &cap, at, sa, v[k].state, v[k].obj) < 0 ||
			    push(out, n_out, &cap, sa, sb, st, v[k].obj) < 0)
				return -ENOMEM;
			at = sb;
		}
		if (push(out, n_out, &cap, at, b, v[k].state, v[k].obj) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int build(struct an_run *r, size_t i)
{
	const struct an_tscan *s = &r->ts[i];
	struct an_interval *v = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	int64_t t0 = an_time_ns(r, r->t0), t1 = an_time_ns(r, r->t1);
	if (!s->seen) {
		rc = push(&v, &n, &cap, t0, t1, AN_ST_IDLE, UINT32_MAX);
		goto out;
	}
	int64_t first = an_time_ns(r, s->first), last = an_time_ns(r, s->last), at = first;
	if ((rc = push(&v, &n, &cap, t0, first, AN_ST_IDLE, UINT32_MAX)) < 0)
		goto out;
	for (size_t k = 0; k < s->n_iv; k++) {
		const struct an_ivl *x = &s->iv[k];
		int64_t a = an_time_ns(r, x->a), b = an_time_ns(r, x->b);
		int64_t m = a + an_ticks_ns(r, x->part);
		if (a < at)
			a = at;   /* overlapping intervals (malformed nesting): keep time order */
		if (m < a)
			m = a;
		if (b < a)
			continue;
		if ((rc = push(&v, &n, &cap, at, a, AN_ST_BUSY, UINT32_MAX)) < 0)
			goto out;
		enum an_state w = AN_ST_THREAD, o = AN_ST_THREAD;
		switch (x->type) {
		case IV_BARRIER: w = AN_ST_BARRIER_WAIT, o = AN_ST_BARRIER_OVH; break;
		case IV_LOCK: case IV_LOCK_FAIL: w = AN_ST_LOCK_WAIT, o = AN_ST_LOCK_OVH; break;
		case IV_COND: w = o = AN_ST_COND_WAIT; break;
		case IV_SEM: w = AN_ST_SEM_WAIT, o = AN_ST_SEM_OVH; break;
		default: break;
		}
		/* the object's public id (a create or join names the thread) */
		uint32_t obj = x->type == IV_THREAD ? x->obj : an_obj_id(r, x->obj);
		if ((rc = push(&v, &n, &cap, a, m, w, obj)) < 0 ||
		    (rc = push(&v, &n, &cap, m, b, o, obj)) < 0)
			goto out;
		at = b;
	}
	if ((rc = push(&v, &n, &cap, at, last, AN_ST_BUSY, UINT32_MAX)) < 0 ||
	    (rc = push(&v, &n, &cap, last > at ? last : at, t1, AN_ST_IDLE, UINT32_MAX)) < 0)
		goto out;
	if (r->budget_ok) {
		struct an_interval *w = NULL;
		size_t n_w = 0;
		if ((rc = overlay(r, i, v, n, &w, &n_w)) < 0)
			goto out;
		free(v);
		v = w;
		n = n_w;
	}
out:
	if (rc < 0) {
		free(v);
		return rc;
	}
	r->tl[i].iv = v;
	r->tl[i].n = n;
	r->tl[i].built = 1;
	return 0;
}

int an_run_timeline(struct an_run *r, size_t i, int64_t from_ns, int64_t to_ns, int64_t min_ns,
		    int (*cb)(const struct an_interval *iv, void *ud), void *ud)
{
	if (i >= r->n_threads)
		return -EINVAL;
	if (!r->tl[i].built) {
		int rc = build(r, i);
		if (rc < 0)
			return rc;
	}
	const struct an_interval *v = r->tl[i].iv;
	size_t n = r->tl[i].n;
	/* binary search for the first interval ending after from_ns */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].t1_ns <= from_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct an_interval acc = { 0, 0, AN_ST_BUSY, UINT32_MAX, 0 };
	int64_t acc_len[AN_N_STATES] = { 0 };
	for (size_t k = lo; k < n && v[k].t0_ns <= to_ns; k++) {
		int64_t len = v[k].t1_ns - v[k].t0_ns;
		if (len >= min_ns) {
			if (acc.merged) {
				int rc = cb(&acc, ud);
				if (rc)
					return rc;
				acc.merged = 0;
			}
			int rc = cb(&v[k], ud);
			if (rc)
				return rc;
			continue;
		}
		if (!acc.merged) {
			acc = v[k];
			acc.merged = 0;
			for (int s = 0; s < AN_N_STATES; s++)
				acc_len[s] = 0;
		}
		acc.t1_ns = v[k].t1_ns;
		acc.merged++;
		acc_len[v[k].state] += len;
		for (int s = 0; s < AN_N_STATES; s++)
			if (acc_len[s] > acc_len[acc.state])
				acc.state = (enum an_state)s;
		if (acc.t1_ns - acc.t0_ns >= min_ns) {
			int rc = cb(&acc, ud);
			if (rc)
				return rc;
			acc.merged = 0;
		}
	}
	if (acc.merged)
		return cb(&acc, ud);
	return 0;
}
