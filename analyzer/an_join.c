/*
 * an_join.c — the cross-thread joins of a run, done on small per-object tables after the
 * per-thread passes:
 *   barriers     episode k of barrier b is every thread's k-th wait on b; its last arrival A
 *                splits each thread's [arrive, leave] into waiting (arrive..A, IT_barrier) and
 *                primitive time (A..leave, PT_barrier);
 *   locks        the holds [acquired, released] of every thread are merged per lock in time
 *                order; the part of a wait [request, acquired] covered by other threads' holds
 *                is IT_lock, the rest is the acquire part of PT_lock (a read request is only
 *                blocked by write holds). The holds' union is kept as disjoint segments with
 *                their running length, so that a wait's covered part is two searches, not a
 *                walk over the holds inside it (a wait of one of hundreds of threads on a
 *                contended lock spans hundreds of holds);
 *   parallelism  a merge of the processors' busy/non-busy boundaries: busy time, and busy time
 *                while two or more processors were busy.
 * All in ticks. Results go into the interval's `part` (the budget splits every wait there) and
 * the per-object counts; the tables' times are settled after the budget (an_objects.c). Objects
 * are dense indexes (an_idmap), tables sized by the objects defined.
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
	uint64_t bound;            /* the largest episode number taken as true */
	int used;
};

int an_join_barriers(struct an_run *r)
{
	size_t n_tabs = r->omap.n;
	struct bar_tab *tabs = calloc(n_tabs + 1, sizeof *tabs);
	int rc = 0;
	if (!tabs)
		return -ENOMEM;
	/* the waits on each barrier: its episode numbers (each thread's n-th wait on it) stay
	 * below a few times that count even when chunks were lost; one far beyond is a damaged
	 * record, left out of the join (it would size the episode table) */
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++)
			if (s->iv[k].type == IV_BARRIER && s->iv[k].obj < n_tabs)
				tabs[s->iv[k].obj].cap++;   /* a count until the tables are made */
	}
	for (size_t o = 0; o < n_tabs; o++) {
		tabs[o].bound = 4 * (uint64_t)tabs[o].cap + 1024;
		tabs[o].cap = 0;
	}
	/* 1: first and last arrival of every episode */
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if (v->type != IV_BARRIER || v->obj == SG_NO_ID)
				continue;
			if (v->obj >= n_tabs || v->aux > tabs[v->obj].bound) {
				r->bad_episodes++;
				v->obj = SG_NO_ID;
				continue;
			}
			struct bar_tab *b = &tabs[v->obj];
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
		bs->idx = (uint32_t)o;
		bs->pub.id = an_obj_id(r, (uint32_t)o);
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



/* The union of a lock's holds (all of them, or the write holds only: what blocks a read
 * request) as disjoint segments in time order, each with the length of the segments before it:
 * the part of a wait [a, b] they cover is then the lengths between two positions, clipped at a
 * and b. */
struct seg {
	uint64_t s, e;
	uint64_t before;           /* ticks of the segments before this one */
};
_Static_assert(sizeof(struct seg) == sizeof(struct an_hold), "a lock's union is made in place");

/* In a lock wait's aux, during an_join_locks only: its covered part is measured already (by
 * union_measure, as the holds were walked in q order). */
#define AN_LOCK_DONE 0x40000000u

static uint64_t union_measure(const struct seg *g, size_t m, uint64_t a, uint64_t b);

/* The union of h[0..n) (sorted by q) into g, which may be h itself (a segment is written at or
 * before the hold it is made from). Returns the number of segments. With ts (all holds of a
 * lock without read holds), the wait that ended at each hold's acquire is measured on the way,
 * against the union of the holds before it, and marked AN_LOCK_DONE: the waits then cost one
 * walk over the holds in time order, where looking each one up in the finished union from its
 * thread's side jumped about every lock's holds (a cache miss or several a wait). */
static size_t union_make(const struct an_hold *h, size_t n, int write_only, struct seg *g,
			 struct an_tscan *ts, size_t n_ts, uint32_t obj)
{
	size_t m = 0;
	uint64_t acc = 0;
	for (size_t j = 0; j < n; j++) {
		uint64_t q = h[j].q, x = h[j].x;
		if (ts && j + 16 < n && h[j + 16].wait != AN_NO_WAIT && h[j + 16].thread < n_ts &&
		    h[j + 16].wait < ts[h[j + 16].thread].n_iv)
			/* the waits lie in every thread's intervals: fetched ahead */
			__builtin_prefetch(&ts[h[j + 16].thread].iv[h[j + 16].wait], 1);
		if (ts && h[j].wait != AN_NO_WAIT && h[j].thread < n_ts) {
			struct an_tscan *s = &ts[h[j].thread];
			struct an_ivl *v = h[j].wait < s->n_iv ? &s->iv[h[j].wait] : NULL;
			if (v && v->type == IV_LOCK && v->obj == obj && v->b == q &&
			    !(v->aux & AN_LOCK_NESTED)) {
				v->part = union_measure(g, m, v->a, v->b);
				v->aux |= AN_LOCK_DONE;
			}
		}
		if ((write_only && h[j].read) || x <= q)
			continue;
		if (m && q <= g[m - 1].e) {
			if (x > g[m - 1].e) {
				acc += x - g[m - 1].e;
				g[m - 1].e = x;
			}
			continue;
		}
		g[m++] = (struct seg){ q, x, acc };
		acc += x - q;
	}
	return m;
}

/* Ticks of the segments g[0..m) inside [a, b], where every segment that starts before b is
 * among them: walked back from the last one (the holds come in q order, so the wait that ended
 * at the acquire of the hold being added lies at the end of the union so far). The same sum as
 * seg_covered on the whole union: a hold added later starts at b or after, and only grows the
 * last segment beyond b. */
static uint64_t union_measure(const struct seg *g, size_t m, uint64_t a, uint64_t b)
{
	size_t l = m;
	while (l > 0 && g[l - 1].s >= b)
		l--;
	if (l == 0 || g[l - 1].e <= a)
		return 0;
	/* f: the first segment whose end is after a (ends increase); near l for most waits,
	 * else galloped back to and searched */
	size_t f = l - 1;
	for (int k = 0; k < 8 && f > 0 && g[f - 1].e > a; k++)
		f--;
	if (f > 0 && g[f - 1].e > a) {
		size_t hi = f, lo, step = 8;   /* g[hi].e > a */
		for (;;) {
			if (hi <= step) {
				lo = 0;
				break;
			}
			lo = hi - step;
			if (g[lo].e <= a)
				break;
			hi = lo;
			step *= 2;
		}
		if (g[lo].e > a) {
			f = lo;   /* lo == 0 */
		} else {
			while (hi - lo > 1) {   /* g[lo].e <= a < g[hi].e */
				size_t mid = lo + (hi - lo) / 2;
				if (g[mid].e > a)
					hi = mid;
				else
					lo = mid;
			}
			f = hi;
		}
	}
	const struct seg *x = &g[f], *y = &g[l - 1];
	uint64_t sum = y->before + (y->e - y->s) - x->before;
	if (x->s < a)
		sum -= a - x->s;
	if (y->e > b)
		sum -= y->e - b;
	return sum;
}

/* The first segment from `at` on whose end is after t (want_start 0) or whose start is at or
 * after t (1): stepped over when near (a thread's next wait on a lock is usually a few
 * segments on), galloped when far. */
static size_t seg_seek(const struct seg *g, size_t at, size_t n, uint64_t t, int want_start)
{
#define SEG_BEFORE(k) (want_start ? g[k].s < t : g[k].e <= t)
	for (int k = 0; k < 8; k++, at++)
		if (at == n || !SEG_BEFORE(at))
			return at;
	size_t lo = at, hi = at, step = 1;
	while (hi < n && SEG_BEFORE(hi)) {
		lo = hi + 1;
		hi += step;
		step *= 2;
	}
	if (hi > n)
		hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (SEG_BEFORE(mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
#undef SEG_BEFORE
}

/* Where the last wait of the current thread on a lock found its first segment (waits of one
 * thread come in time order: the next one starts looking there). */
struct seg_cursor {
	size_t k;
	uint64_t a;
	size_t thread;             /* the thread it is for, + 1 (0: none yet) */
};

/* Ticks of the union u[0..n) inside [a, b]. */
static uint64_t seg_covered(const struct seg *u, size_t n, struct seg_cursor *c, size_t thread,
			    uint64_t a, uint64_t b)
{
	if (c->thread != thread + 1 || a < c->a)
		c->k = 0;   /* another thread, or a clock that went back */
	c->thread = thread + 1;
	c->a = a;
	size_t k1 = c->k = seg_seek(u, c->k, n, a, 0);
	size_t k2 = seg_seek(u, k1, n, b, 1);
	if (k1 >= k2)
		return 0;
	const struct seg *f = &u[k1], *l = &u[k2 - 1];
	uint64_t sum = l->before + (l->e - l->s) - f->before;
	if (f->s < a)
		sum -= a - f->s;
	if (l->e > b)
		sum -= l->e - b;
	return sum;
}

/* A wait of a thread that held the lock when it asked: the other threads' holds walked one by
 * one (its own are not waited for). Rare: recursive mutexes, read locks taken twice. */
static uint64_t covered_walk(const struct an_lock_holds *L, size_t thread, uint32_t mode,
			     uint64_t a, uint64_t b)
{
	const struct an_hold *hb = L->h;
	uint64_t from = a > L->max_dur ? a - L->max_dur : 0, covered = 0, upto = a;
	size_t lo = 0, hi = L->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (hb[mid].q < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t j = lo; j < L->n && hb[j].q < b; j++) {
		const struct an_hold *x = &hb[j];
		if (x->thread == thread || x->x <= upto)
			continue;
		if (mode == SG_LOCK_RWLOCK_READ && x->read)
			continue;
		uint64_t a0 = x->q > upto ? x->q : upto;
		uint64_t b0 = x->x < b ? x->x : b;
		if (b0 > a0) {
			covered += b0 - a0;
			upto = b0;
		}
	}
	return covered;
}

/* Per lock, what the waits are measured against. */
struct lock_cover {
	struct seg *all, *wr;      /* the union of all holds, of the write holds (NULL: all) */
	size_t n_all, n_wr;
	int own_all, own_wr;       /* allocated here (else made in place in the holds) */
	int nested;                /* a wait of a thread holding it: the holds are kept */
	size_t n_holds;
	struct seg_cursor c_all, c_wr;
};

static const struct an_lock_holds no_holds;   /* of a lock with waits but no hold at all */

int an_join_locks(struct an_run *r)
{
	int rc = -ENOMEM;
	size_t n_obj = 0, max_n = 0;
	struct an_hold *tmp = NULL;
	struct lock_cover *cov = NULL;
	/* the object table is sized by the largest lock index the scan met (below omap.n) */
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
	cov = calloc(n_obj + 1, sizeof *cov);
	if (!tmp || !cov)
		goto out;
	/* a nested wait (its thread held the lock) is measured against the holds themselves */
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			const struct an_ivl *v = &s->iv[k];
			if (v->type == IV_LOCK && v->obj < n_obj && (v->aux & AN_LOCK_NESTED))
				cov[v->obj].nested = 1;
		}
	}
	/* the unions: made in place of the holds (from the merge's scratch when the merge ended
	 * there: no copy back) unless a nested wait needs the holds, or the lock has read holds
	 * (two unions) */
	for (size_t o = 0; o < n_lh; o++) {
		struct an_lock_holds *L = &r->lh[o];
		struct lock_cover *C = &cov[o];
		const struct an_hold *sorted = L->h;
		if (L->n > 1 && L->unsorted) {
			qsort(L->h, L->n, sizeof *L->h, hold_cmp);
		} else if (L->n_run > 1) {
			if (an_grow(&L->run, &L->cap_run, L->n_run, sizeof *L->run) < 0)
				goto out;
			L->run[L->n_run] = L->n;
			sorted = an_merge_sorted_runs(L->h, tmp, sizeof *L->h, L->run, L->n_run);
		}
		if (!(C->n_holds = L->n))
			continue;
		if (C->nested || L->has_read) {
			if (sorted != L->h)
				memcpy(L->h, sorted, L->n * sizeof *L->h);
			sorted = L->h;
			if (!(C->all = malloc(L->n * sizeof *C->all)))
				goto out;
			C->own_all = 1;
		} else {
			C->all = (struct seg *)(void *)L->h;
		}
		if (L->has_read) {
			if (!(C->wr = malloc(L->n * sizeof *C->wr)))
				goto out;
			C->own_wr = 1;
			C->n_wr = union_make(sorted, L->n, 1, C->wr, NULL, 0, 0);
		}
		C->n_all = union_make(sorted, L->n, 0, C->all, L->has_read ? NULL : r->ts,
				      r->n_threads, (uint32_t)o);
		if (!C->own_all) {
			/* the holds are the union now */
			L->h = NULL;
			L->n = L->cap = 0;
			C->own_all = 1;
		}
	}
	free(tmp);
	tmp = NULL;

	/* per-object stats: one entry per index; those without holds or waits are dropped below */
	free(r->locks);
	r->locks = calloc(n_obj ? n_obj : 1, sizeof *r->locks);
	if (!r->locks)
		goto out;
	r->n_locks = n_obj;
	for (size_t o = 0; o < n_obj; o++) {
		struct an_lockstat *ls = &r->locks[o];
		ls->idx = (uint32_t)o;
		ls->pub.id = an_obj_id(r, (uint32_t)o);
		ls->hold = o < n_lh ? r->lh[o].total : 0;
	}

	/* waits: the part covered by other threads' holds */
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if ((v->type != IV_LOCK && v->type != IV_LOCK_FAIL) || v->obj >= n_obj)
				continue;
			struct an_lockstat *ls = &r->locks[v->obj];
			uint64_t dur = v->b - v->a;
			if (v->type == IV_LOCK_FAIL) {
				ls->pub.failed_trylocks++;
				continue;
			}
			struct lock_cover *C = &cov[v->obj];
			uint32_t mode = SG_LOCK_MODE(v->aux);
			uint64_t covered;
			if (v->aux & AN_LOCK_DONE) {
				v->aux &= ~AN_LOCK_DONE;
				covered = v->part;
			} else if (v->aux & AN_LOCK_NESTED)
				covered = covered_walk(v->obj < n_lh ? &r->lh[v->obj] : &no_holds, i,
						       mode, v->a, v->b);
			else if (mode == SG_LOCK_RWLOCK_READ && C->wr)
				covered = seg_covered(C->wr, C->n_wr, &C->c_wr, i, v->a, v->b);
			else
				covered = seg_covered(C->all, C->n_all, &C->c_all, i, v->a, v->b);
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
		if (cov[o].n_holds || ls->pub.acquires || ls->pub.failed_trylocks) {
			ls->pub.kind = an_source_obj_kind(r, ls->pub.id);
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
	for (size_t o = 0; cov && o < n_obj; o++) {
		if (cov[o].own_all)
			free(cov[o].all);
		if (cov[o].own_wr)
			free(cov[o].wr);
	}
	an_scan_holds_free(r);   /* consumed */
	free(tmp);
	free(cov);
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
