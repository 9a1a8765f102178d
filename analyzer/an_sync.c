/*
 * an_sync.c — the cross-thread joins of semaphores and condition variables, on the posts,
 * signals and wait ends the per-thread passes collected in r->sev (raw ticks):
 *
 *   semaphores   a successful wait consumed a token: the initial value (sem_init) first, then
 *                the posts in the order they were made. The wait waited until the post that
 *                gave its token (IT_sem); what it spent before that post was there, or after
 *                it, is the operation (PT_sem). A token that was there when the wait began
 *                (an earlier post, the initial value, or an initial value never traced) means
 *                no waiting at all. A try-wait that found 0 is PT_sem; a timed wait that gave
 *                up waited in vain (IT_sem).
 *   conditions   a wait ends waiting at the last signal or broadcast another thread made on
 *                the same condition before the wait ended; the rest is the wake-up and the
 *                mutex taken again. A broadcast that ends the waits of all other processors
 *                is counted: a condition most of whose broadcasts do so is a barrier built by
 *                hand (SPLASH's BARRIER macros), which an_run names in a note.
 * Results go into each wait interval's `part` (waiting ticks from its start), the semaphore
 * table and r->cbar.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

static int sev_group(unsigned kind)
{
	return kind <= SEV_SEM_TAKEN ? 0 : 1;
}

/* Semaphore events first, then condition events; each by object, then time (at equal times a
 * post or signal before the wait it may end). */
static int sev_cmp(const void *a, const void *b)
{
	const struct an_sev *x = a, *y = b;
	int gx = sev_group(x->kind), gy = sev_group(y->kind);
	if (gx != gy)
		return gx - gy;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static void sev_sort(struct an_run *r)
{
	if (r->n_sev > 1)
		qsort(r->sev, r->n_sev, sizeof *r->sev, sev_cmp);
}

/* The table entry of semaphore index x (an entry is made on first use; at[x] is its position
 * + 1, 0 none yet: a semaphore is found in one step, not by a walk over the others). */
static struct an_semstat *sem_stat(struct an_run *r, size_t *cap, uint32_t *at, uint32_t x)
{
	if (at[x])
		return &r->sems[at[x] - 1];
	if (an_grow(&r->sems, cap, r->n_sems, sizeof *r->sems) < 0)
		return NULL;
	struct an_semstat *st = &r->sems[r->n_sems++];
	memset(st, 0, sizeof *st);
	st->idx = x;
	st->pub.id = an_obj_id(r, x);
	at[x] = (uint32_t)r->n_sems;
	return st;
}


int an_join_sems(struct an_run *r)
{
	size_t cap = 0, n = r->n_sev;
	uint64_t *fifo = NULL;
	size_t cap_fifo = 0;
	free(r->sems);
	r->sems = NULL;
	r->n_sems = 0;
	uint32_t *at = calloc(r->omap.n + 1, sizeof *at);   /* by object index */
	if (!at)
		return -ENOMEM;
	sev_sort(r);
	/* 1: every successful wait's token, semaphore by semaphore */
	for (size_t i = 0; i < n && r->sev[i].kind <= SEV_SEM_TAKEN;) {
		uint32_t obj = r->sev[i].obj;
		size_t head = 0, tail = 0;
		uint64_t init_left = 0;
		struct an_semstat *st = NULL;   /* none for SG_NO_ID */
		if (obj < r->omap.n && !(st = sem_stat(r, &cap, at, obj)))
			goto nomem;
		for (; i < n && r->sev[i].kind <= SEV_SEM_TAKEN && r->sev[i].obj == obj; i++) {
			const struct an_sev *e = &r->sev[i];
			if (e->kind == SEV_SEM_INIT) {
				init_left = e->iv;
				head = tail = 0;
			} else if (e->kind == SEV_SEM_POST) {
				if (an_grow(&fifo, &cap_fifo, tail, sizeof *fifo) < 0)
					goto nomem;
				fifo[tail++] = e->t;
				if (st)
					st->pub.posts++;
			} else {
				struct an_ivl *v = &r->ts[e->thread].iv[e->iv];
				uint64_t token = 0;   /* 0: there when the wait began */
				if (init_left > 0)
					init_left--;
				else if (head < tail)
					token = fifo[head++];
				uint64_t end = token < v->b ? token : v->b;
				v->part = end > v->a ? end - v->a : 0;
			}
		}
	}
	/* 2: the other waits, and the table */
	for (size_t p = 0; p < r->n_threads; p++) {
		struct an_tscan *s = &r->ts[p];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if (v->type != IV_SEM || v->obj >= r->omap.n)
				continue;
			struct an_semstat *st = sem_stat(r, &cap, at, v->obj);
			if (!st)
				goto nomem;
			uint32_t res = v->aux & 0xffffu, flags = v->aux >> 16;
			uint64_t dur = v->b - v->a;
			if (res == 0) {
				st->pub.waits++;
				st->pub.blocked += v->part > 0;
			} else if (flags & SG_SEM_TRY) {
				v->part = 0;   /* found it at 0: the operation, no waiting */
				st->pub.failed++;
			} else {
				v->part = dur;   /* waited for a post that never came */
				st->pub.timeouts++;
			}
			if (dur > st->max_wait)
				st->max_wait = dur;
		}
	}
	for (size_t k = 0; k < r->n_sems; k++) {
		struct an_semstat *st = &r->sems[k];
		st->pub.max_wait_ns = an_ticks_ns(r, st->max_wait);
	}
	free(fifo);
	free(at);
	return 0;
nomem:
	free(fifo);
	free(at);
	return -ENOMEM;
}

/* The last signal in sig[0..n) (sorted by t) at or before t_end made by a thread other than
 * `self`; n when none. */
static size_t last_signal(const struct an_sev *sig, size_t n, uint64_t t_end, uint32_t self)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sig[mid].t <= t_end)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		if (sig[lo - 1].thread != self)
			return lo - 1;
		lo--;
	}
	return n;
}

#define MAX_WOKEN 256   /* broadcasts ending more waits than this are not told apart */

int an_join_conds(struct an_run *r)
{
	size_t i = 0, n = r->n_sev, cap = 0, cap_sig = 0, cap_woken = 0;
	struct an_sev *sig = NULL;   /* the signals of the current condition, in time order */
	uint32_t *woken = NULL;      /* per signal: the waits it ended */
	uint64_t hist[MAX_WOKEN + 1];
	int rc = -ENOMEM;
	while (i < n && sev_group(r->sev[i].kind) == 0)
		i++;
	free(r->cbar);
	r->cbar = NULL;
	r->n_cbar = 0;
	while (i < n) {
		uint32_t obj = r->sev[i].obj;
		size_t j = i, n_sig = 0;
		for (; j < n && r->sev[j].obj == obj; j++) {
			if (r->sev[j].kind == SEV_COND_WAKE)
				continue;
			if (an_grow(&sig, &cap_sig, n_sig, sizeof *sig) < 0)
				goto out;
			sig[n_sig++] = r->sev[j];
		}
		if (an_grow(&woken, &cap_woken, n_sig, sizeof *woken) < 0)
			goto out;
		memset(woken, 0, (n_sig + 1) * sizeof *woken);
		for (size_t k = i; k < j; k++) {
			const struct an_sev *w = &r->sev[k];
			if (w->kind != SEV_COND_WAKE)
				continue;
			struct an_ivl *v = &r->ts[w->thread].iv[w->iv];
			size_t s = last_signal(sig, n_sig, w->t, w->thread);
			if (s == n_sig || sig[s].t < v->a) {
				v->part = v->b - v->a;   /* no signal: timed out or spurious */
				continue;
			}
			uint64_t at = sig[s].t < v->b ? sig[s].t : v->b;
			v->part = at - v->a;
			woken[s]++;
		}
		/* how many waits each broadcast ended: the most common count, and how often */
		uint64_t n_bc = 0, best_k = 0, best_n = 0;
		memset(hist, 0, sizeof hist);
		for (size_t s = 0; s < n_sig; s++)
			if (sig[s].kind == SEV_COND_BROADCAST) {
				n_bc++;
				hist[woken[s] < MAX_WOKEN ? woken[s] : MAX_WOKEN]++;
			}
		for (uint64_t k = 1; k < MAX_WOKEN; k++)
			if (hist[k] > best_n)
				best_n = hist[k], best_k = k;
		if (n_bc >= 2 && best_k >= 1) {
			if (an_grow(&r->cbar, &cap, r->n_cbar, sizeof *r->cbar) < 0)
				goto out;
			r->cbar[r->n_cbar++] = (struct an_cbar){ an_obj_id(r, obj), (uint32_t)best_k,
								 n_bc, best_n };
		}
		i = j;
	}
	rc = 0;
out:
	free(sig);
	free(woken);
	return rc;
}
