/*
 * an_join.c — the cross-thread joins of a run, done on small per-object tables after the
 * per-thread passes:
 *   barriers     episode k of barrier b is every thread's k-th wait on b; its last arrival A
 *                splits each thread's [arrive, leave] into waiting (arrive..A, IT_barrier) and
 *                primitive time (A..leave, PT_barrier);
 *   locks        the holds [acquired, released] of every thread are merged per lock in time
 *                order; the part of a wait [request, acquired] covered by other threads' holds
 *                is IT_lock, the rest is the acquire part of PT_lock (a read request is only
 *                blocked by write holds);
 *   parallelism  a merge of the processors' busy/non-busy boundaries: busy time, and busy time
 *                while two or more processors were busy.
 * All in ticks. Results go into the interval's `part` (the budget splits every wait there) and
 * the per-object counts; the tables' times are settled after the budget (an_objects.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

struct episode {
	uint64_t first, last;
	uint32_t count;
};

struct bar_tab {
	struct episode *ep;
	size_t n_ep, cap;
	int used;
};

static int bar_tab_get(struct bar_tab **tabs, size_t *n, uint32_t obj, struct bar_tab **out)
{
	if (obj >= *n) {
		size_t nn = *n ? *n : 16;
		while (nn <= obj)
			nn *= 2;
		struct bar_tab *t = realloc(*tabs, nn * sizeof *t);
		if (!t)
			return -ENOMEM;
		memset(t + *n, 0, (nn - *n) * sizeof *t);
		*tabs = t;
		*n = nn;
	}
	*out = &(*tabs)[obj];
	return 0;
}

int an_join_barriers(struct an_run *r)
{
	struct bar_tab *tabs = NULL;
	size_t n_tabs = 0;
	int rc = 0;
	/* 1: first and last arrival of every episode */
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			struct bar_tab *b;
			if (v->type != IV_BARRIER || v->obj == SG_NO_ID)
				continue;
			if ((rc = bar_tab_get(&tabs, &n_tabs, v->obj, &b)) < 0)
				goto out;
			if (v->aux >= b->n_ep) {
				size_t nn = (size_t)v->aux + 1;
				if ((rc = an_grow(&b->ep, &b->cap, nn - 1, sizeof *b->ep)) < 0)
					goto out;
				memset(b->ep + b->n_ep, 0, (nn - b->n_ep) * sizeof *b->ep);
				b->n_ep = nn;
			}
			struct episode *e = &b->ep[v->aux];
			if (e->count++ == 0 || v->a < e->first)
				e->first = v->a;
			if (v->a > e->last)
				e->last = v->a;
			b->used = 1;
		}
	}
	/* 2: split every wait at its episode's last arrival */
	free(r->bars);
	r->bars = NULL;
	r->n_bars = 0;
	size_t n_used = 0;
	for (size_t o = 0; o < n_tabs; o++)
		n_used += tabs[o].used;
	r->bars = calloc(n_used ? n_used : 1, sizeof *r->bars);
	if (!r->bars) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t o = 0; o < n_tabs; o++) {
		if (!tabs[o].used)
			continue;
		struct an_barstat *bs = &r->bars[r->n_bars++];
		bs->pub.id = (uint32_t)o;
		for (size_t k = 0; k < tabs[o].n_ep; k++) {
			struct episode *e = &tabs[o].ep[k];
			if (!e->count)
				continue;
			bs->pub.episodes++;
			if (e->last - e->first > bs->skew || bs->pub.episodes == 1) {
				if (e->last - e->first >= bs->skew) {
					bs->skew = e->last - e->first;
					bs->pub.worst_episode = (uint32_t)k;
				}
			}
		}
	}
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if (v->type != IV_BARRIER || v->obj == SG_NO_ID)
				continue;
			uint64_t A = tabs[v->obj].ep[v->aux].last;
			uint64_t end = A < v->b ? A : v->b;
			v->part = end > v->a ? end - v->a : 0;
		}
	}
	for (size_t b = 0; b < r->n_bars; b++)
		r->bars[b].pub.worst_skew_ns = an_ticks_ns(r, r->bars[b].skew);
out:
	for (size_t o = 0; o < n_tabs; o++)
		free(tabs[o].ep);
	free(tabs);
	return rc;
}

/* ---- locks ---- */

static int hold_cmp(const void *a, const void *b)
{
	const struct an_hold *x = a, *y = b;
	return x->q < y->q ? -1 : x->q > y->q;
}

_Static_assert(offsetof(struct an_hold, q) == 0, "a hold is merged by q, its lead key");

/* A lock's holds into q order: the threads' runs merged through tmp (of the same size). */
static void merge_holds(struct an_hold *h, struct an_hold *tmp, size_t *run, size_t n_runs)
{
	size_t n = run[n_runs];
	struct an_hold *sorted = an_merge_sorted_runs(h, tmp, sizeof *h, run, n_runs);
	if (sorted != h)
		memcpy(h, sorted, n * sizeof *h);
}


/* The first hold at or after `at` whose q is >= from (holds sorted by q). A thread's successive
 * waits on a lock move the cursor by the other threads' holds in between, usually a few: they
 * are stepped over in order (the next ones are in the same cache lines), and only a longer way
 * is galloped. */
static size_t hold_seek(const struct an_hold *h, size_t at, size_t n, uint64_t from)
{
	for (int k = 0; k < 16; k++, at++)
		if (at == n || h[at].q >= from)
			return at;
	size_t lo = at, hi = at, step = 1;
	while (hi < n && h[hi].q < from) {
		lo = hi + 1;
		hi += step;
		step *= 2;
	}
	if (hi > n)
		hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (h[mid].q < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Where a thread's waits on one lock start looking for covering holds. The first hold that can
 * reach a wait at all has q >= a - the lock's longest hold; `f` is the largest such bound so
 * far (a thread's waits come in time order). Past it there may be many more holds that ended
 * before the wait began: a lock with one long hold made every wait look at every hold of that
 * length before it (most of the time of a lock-heavy real trace). `x` is past those: the holds
 * from the first with q >= f up to x end at or before a_x, so a wait with a >= a_x skips them;
 * one with a smaller a (a thread whose clock went back) does not. */
struct hold_cursor {
	size_t x;
	uint64_t f, a_x;
};

static const struct an_lock_holds no_holds;   /* of a lock with waits but no hold at all */

int an_join_locks(struct an_run *r)
{
	int rc = -ENOMEM;
	size_t n_obj = 0, max_n = 0;
	struct an_hold *tmp = NULL;
	struct hold_cursor *cursor = NULL;
	/* the object table is sized by the largest lock id the scan met */
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].n_lock_ids > n_obj)
			n_obj = r->ts[i].n_lock_ids;
	size_t n_lh = r->n_lh < n_obj ? r->n_lh : n_obj;   /* holds start at an acquire */
	for (size_t o = 0; o < n_lh; o++)
		if (r->lh[o].n > max_n)
			max_n = r->lh[o].n;
	/* each lock's holds into q order: its threads' runs merged, or sorted when one of them is
	 * out of order; one scratch vector of the largest lock's size serves all */
	tmp = malloc((max_n + 1) * sizeof *tmp);
	if (!tmp)
		goto out;
	for (size_t o = 0; o < n_lh; o++) {
		struct an_lock_holds *L = &r->lh[o];
		if (L->n > 1 && L->unsorted) {
			qsort(L->h, L->n, sizeof *L->h, hold_cmp);
		} else if (L->n_run > 1) {
			if (an_grow(&L->run, &L->cap_run, L->n_run, sizeof *L->run) < 0)
				goto out;
			L->run[L->n_run] = L->n;
			merge_holds(L->h, tmp, L->run, L->n_run);
		}
	}
	free(tmp);
	tmp = NULL;

	/* per-object stats */
	cursor = calloc((n_obj + 1) * r->n_threads, sizeof *cursor);
	if (!cursor)
		goto out;
	/* one entry per id (slot = id); the ids without holds or waits are dropped below */
	free(r->locks);
	r->locks = calloc(n_obj ? n_obj : 1, sizeof *r->locks);
	if (!r->locks)
		goto out;
	r->n_locks = n_obj;
	for (size_t o = 0; o < n_obj; o++) {
		struct an_lockstat *ls = &r->locks[o];
		ls->pub.id = (uint32_t)o;
		ls->hold = o < n_lh ? r->lh[o].total : 0;
	}

	/* waits: the part covered by other threads' holds */
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if ((v->type != IV_LOCK && v->type != IV_LOCK_FAIL) || v->obj == SG_NO_ID)
				continue;
			struct an_lockstat *ls = &r->locks[v->obj];
			uint64_t dur = v->b - v->a;
			if (v->type == IV_LOCK_FAIL) {
				ls->pub.failed_trylocks++;
				continue;
			}
			const struct an_lock_holds *L = v->obj < n_lh ? &r->lh[v->obj] : &no_holds;
			struct hold_cursor *c = &cursor[v->obj * r->n_threads + i];
			const struct an_hold *hb = L->h;
			uint64_t from = v->a > L->max_dur ? v->a - L->max_dur : 0;
			if (from > c->f)
				c->f = from;
			size_t at = hold_seek(hb, v->a >= c->a_x ? c->x : 0, L->n, c->f);
			while (at < L->n && hb[at].x <= v->a)
				at++;
			c->x = at;
			c->a_x = v->a;
			/* this cursor moves on at this thread's next wait on this lock, after waits
			 * on other locks: its next holds would be cache misses by then */
			if (at + 8 < L->n)
				__builtin_prefetch(&hb[at + 8]);
			/* the holds skipped ended before the wait: the loop would pass over them */
			uint64_t covered = 0, upto = v->a;
			for (size_t j = at; j < L->n && hb[j].q < v->b; j++) {
				const struct an_hold *x = &hb[j];
				if (x->thread == i || x->x <= upto)
					continue;
				if (v->aux == SG_LOCK_RWLOCK_READ && x->mode == SG_LOCK_RWLOCK_READ)
					continue;
				uint64_t a0 = x->q > upto ? x->q : upto;
				uint64_t b0 = x->x < v->b ? x->x : v->b;
				if (b0 > a0) {
					covered += b0 - a0;
					upto = b0;
				}
			}
			v->part = covered;
			ls->pub.acquires++;
			ls->pub.contended += covered > 0;
			if (dur > ls->max_wait)
				ls->max_wait = dur;
		}
	}
	size_t n_used = 0;
	for (size_t o = 0; o < n_obj; o++) {
		struct an_lockstat *ls = &r->locks[o];
		if ((o < n_lh && r->lh[o].n > 0) || ls->pub.acquires || ls->pub.failed_trylocks) {
			ls->pub.kind = an_source_obj_kind(r, (uint32_t)o);
			r->locks[n_used++] = *ls;
		}
	}
	r->n_locks = n_used;
	for (size_t l = 0; l < r->n_locks; l++) {
		struct an_lockstat *ls = &r->locks[l];
		ls->pub.hold_ns = an_ticks_ns(r, ls->hold);
		ls->pub.max_wait_ns = an_ticks_ns(r, ls->max_wait);
	}
	rc = 0;
out:
	an_scan_holds_free(r);   /* consumed */
	free(tmp);
	free(cursor);
	return rc;
}

/* ---- parallelism ---- */

/* A processor's busy boundaries as sortable keys, made in order a block at a time: 2t + 1 where
 * busy starts, 2t where it ends (ends first at equal times): its first event, each non-busy
 * interval clamped to [first, last] (an end at a, a start at b), its last event. Non-busy
 * intervals that overlap or touch are merged first (off-CPU spans outside [first, last] clamp
 * to empty ones), so that the keys come out sorted and alternate. */
struct busy_keys {
	const struct an_ivl *iv;
	size_t j, n;
	uint64_t lo, hi;
	uint64_t pa, pb;           /* the merged non-busy interval not yet written */
	uint64_t prev;             /* the last key written */
	int pending;
	int stage;                 /* 0: first key next, 1: intervals, 2: last key next, 3: done */
};

/* Busy is on CPU when the time budget has the thread's off-CPU spans, else not inside a wait
 * or primitive. */
static void busy_keys_init(struct busy_keys *it, const struct an_run *r, size_t pos)
{
	const struct an_tscan *s = &r->ts[pos];
	*it = (struct busy_keys){ .iv = s->iv, .n = s->n_iv, .lo = s->first, .hi = s->last };
	if (r->budget_ok) {
		it->iv = r->off[pos];
		it->n = r->n_off[pos];
	}
}

/* Appends key x, moved just past the key before when it would not come after it (a non-busy
 * interval that starts at the first event or ends at the last: a busy stretch of zero length);
 * starts and ends alternate, so the parity stays right. */
static inline void key_put(struct busy_keys *it, uint64_t *k, size_t *n, uint64_t x)
{
	if (x <= it->prev)
		x = it->prev + 1;
	k[(*n)++] = it->prev = x;
}

/* Writes up to cap (>= 2) next keys into k; returns how many, 0 at the end. */
static size_t busy_keys_fill(struct busy_keys *it, uint64_t *k, size_t cap)
{
	uint64_t lo = it->lo, hi = it->hi;
	size_t n = 0;
	if (it->stage == 0) {
		k[n++] = it->prev = 2 * lo + 1;
		it->stage = 1;
	}
	while (it->stage == 1) {
		if (it->j == it->n) {
			if (it->pending) {
				if (n + 2 > cap)
					break;
				key_put(it, k, &n, 2 * it->pa);
				key_put(it, k, &n, 2 * it->pb + 1);
				it->pending = 0;
			}
			it->stage = 2;
			break;
		}
		uint64_t a = it->iv[it->j].a, b = it->iv[it->j].b;
		a = a < lo ? lo : a > hi ? hi : a;
		b = b < lo ? lo : b > hi ? hi : b;
		if (b <= a) {
			it->j++;
			continue;
		}
		if (it->pending && a <= it->pb) {
			if (b > it->pb)
				it->pb = b;
			it->j++;
			continue;
		}
		if (it->pending) {
			if (n + 2 > cap)
				break;
			key_put(it, k, &n, 2 * it->pa);
			key_put(it, k, &n, 2 * it->pb + 1);
		}
		it->pa = a, it->pb = b, it->pending = 1;
		it->j++;
	}
	if (it->stage == 2 && n < cap) {
		key_put(it, k, &n, 2 * hi);
		it->stage = 3;
	}
	return n;
}

/* The sweep over the merged keys: busy time (summed over processors) and busy time while two or
 * more were busy. */
struct busy_sweep {
	uint64_t busy, multi, tp;
	long cnt;
};

static inline void busy_sweep_key(struct busy_sweep *w, uint64_t key)
{
	uint64_t t = key >> 1;
	if (w->cnt > 0 && t > w->tp) {
		w->busy += (uint64_t)w->cnt * (t - w->tp);
		if (w->cnt >= 2)
			w->multi += (uint64_t)w->cnt * (t - w->tp);
	}
	w->tp = t;
	w->cnt += (key & 1) ? 1 : -1;
}

/* One processor's keys through a small buffer. */
struct key_stream {
	struct busy_keys it;
	size_t i, n;
	uint64_t buf[256];
};

static inline uint64_t key_stream_peek(struct key_stream *k)
{
	if (k->i == k->n) {
		k->n = busy_keys_fill(&k->it, k->buf, sizeof k->buf / sizeof *k->buf);
		k->i = 0;
		if (k->n == 0)
			return UINT64_MAX;   /* above any key: times are 56-bit */
	}
	return k->buf[k->i];
}

/* One or two processors (every N=1 and N=2 run): their keys go to the sweep as they are made,
 * merged on the way; no key arrays (their fresh pages cost more than the sweep: a third of the
 * time of a billiards N=1 trace). The sweep's sums stay in locals (stores through w could alias
 * the key buffers). */
static void sweep_streams(struct an_run *r, const size_t *proc, size_t n, struct busy_sweep *out)
{
	struct busy_sweep w = *out;
	struct key_stream ks[2];
	for (size_t k = 0; k < 2; k++) {
		ks[k].i = ks[k].n = 0;
		if (k < n)
			busy_keys_init(&ks[k].it, r, proc[k]);
		else
			ks[k].it = (struct busy_keys){ .stage = 3 };
	}
	if (n == 1) {
		while ((ks[0].n = busy_keys_fill(&ks[0].it, ks[0].buf, 256)) > 0)
			for (size_t k = 0; k < ks[0].n; k++)
				busy_sweep_key(&w, ks[0].buf[k]);
	} else {
		for (;;) {
			uint64_t x = key_stream_peek(&ks[0]), y = key_stream_peek(&ks[1]);
			if (x == UINT64_MAX && y == UINT64_MAX)
				break;
			if (x <= y) {
				busy_sweep_key(&w, x);
				ks[0].i++;
			} else {
				busy_sweep_key(&w, y);
				ks[1].i++;
			}
		}
	}
	*out = w;
}

/* More processors: every processor's keys into one array, merged pairwise into one sorted
 * sequence, then the sweep. */
static int sweep_arrays(struct an_run *r, const size_t *proc, size_t n_runs, struct busy_sweep *w)
{
	size_t total = 0;
	for (size_t k = 0; k < n_runs; k++)
		total += 2 * (r->budget_ok ? r->n_off[proc[k]] : r->ts[proc[k]].n_iv) + 2;
	uint64_t *block = malloc(2 * (total + 1) * sizeof *block);   /* both key arrays */
	size_t *bounds = malloc((n_runs + 2) * sizeof *bounds);
	if (!block || !bounds) {
		free(block);
		free(bounds);
		return -ENOMEM;
	}
	uint64_t *a = block, *b = block + total + 1;
	size_t at = 0;
	bounds[0] = 0;
	for (size_t k = 0; k < n_runs; k++) {
		struct busy_keys it;
		busy_keys_init(&it, r, proc[k]);
		at += busy_keys_fill(&it, a + at, total - at);
		bounds[k + 1] = at;
	}
	const uint64_t *sorted = an_merge_sorted_runs(a, b, sizeof *a, bounds, n_runs);
	for (size_t k = 0; k < at; k++)
		busy_sweep_key(w, sorted[k]);
	free(block);
	free(bounds);
	return 0;
}

int an_join_parallelism(struct an_run *r)
{
	size_t *proc = malloc((r->n_threads + 1) * sizeof *proc), n = 0;
	if (!proc)
		return -ENOMEM;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->th[i].processor && r->ts[i].seen)
			proc[n++] = i;
	struct busy_sweep w = { 0 };
	int rc = 0;
	if (n <= 2)
		sweep_streams(r, proc, n, &w);
	else
		rc = sweep_arrays(r, proc, n, &w);
	free(proc);
	r->par_busy = w.busy;
	r->par_multi = w.multi;
	return rc;
}
