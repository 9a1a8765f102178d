/*
 * an_scan.c — the one pass over one thread's raw records: the hot loop of the analyzer. It reads
 * the reader's spans of 16-byte records in place and, per event kind, updates a few running
 * totals, the function stack, the thread's vector of non-busy intervals and, per lock, the
 * vector of holds shared by all threads (r->lh), which the cross-thread joins of an_join.c
 * consume. Times stay in ticks; every timestamp is clamped to the clip [lo, hi] so that
 * intervals crossing the measured region are cut at its edges.
 *
 * What the wrappers record (tracelib/sgt_wrap.c) and how it is read here:
 *   LOCK_REQUEST r .. LOCK_ACQUIRED q      one acquire, a wait interval [r, q]; a hold opens at q
 *   LOCK_REQUEST r .. LOCK_FAILED          a failed try-lock: primitive time [r, f]
 *   LOCK_RELEASE x                         one event, before the real unlock: the hold is [q, x]
 *   COND_WAIT_BEGIN .. COND_WAIT_END       blocked; the mutex RELEASE/ACQUIRED inside only end
 *                                          and reopen the hold (no REQUEST: no lock interval)
 *   BARRIER_ARRIVE a .. BARRIER_LEAVE l    one episode [a, l], joined across threads later
 *   CREATE_BEGIN..END, JOIN_BEGIN..END     thread primitives
 *   SEM_WAIT_BEGIN .. SEM_WAIT_END         a semaphore wait; posts, successful waits, the
 *                                          initial value, condition signals and the ends of
 *                                          condition waits also go to r->sev (an_sync.c)
 * Ids of functions, objects, counters and regions become dense indexes here (r->fmap, omap,
 * cmap, rmap): every table is sized by the definitions. A record whose id the definitions do
 * not declare (a damaged trace: libsgtrace writes a definition before any record that uses it)
 * is counted in r->unknown_ids and skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "an_int.h"

int an_grow(void *pp, size_t *cap, size_t n, size_t elem)
{
	void **p = pp;
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 64;
	while (nc <= n)
		nc *= 2;
	void *q = realloc(*p, nc * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

void an_scan_free(struct an_tscan *s)
{
	free(s->iv);
	free(s->ctr);
	free(s->stack);   /* s->fs is the run's scratch table */
	free(s->reg);
	free(s->unrec);
	free(s->uidx);
	free(s->site_run);
	free(s->rel_slot);
	memset(s, 0, sizeof *s);
}

void an_advise_huge(void *p, size_t bytes)
{
	size_t huge = (size_t)2 << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1);
	uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(huge - 1);
	if (b > a)
		madvise((void *)a, b - a, MADV_HUGEPAGE);
}

void *an_malloc_big(size_t bytes)
{
	void *p = malloc(bytes);
	if (p && bytes >= ((size_t)4 << 20))
		an_advise_huge(p, bytes);
	return p;
}

/* Room for `n` elements at once: the interval vector has at most one element per two records,
 * so reserving that bound up front avoids the growth copies; the pages are touched only as far
 * as they are used. Large blocks ask for transparent huge pages (one fault per 2 MiB instead of
 * per 4 KiB: page faults were a third of the time on real traces). */
static void reserve(void *pp, size_t *cap, size_t n, size_t elem)
{
	void **p = pp;
	if (n <= *cap || n > SIZE_MAX / elem)
		return;
	void *q = realloc(*p, n * elem);
	if (!q)
		return;   /* an_grow will try smaller steps */
	*p = q;
	*cap = n;
	an_advise_huge(q, n * elem);
}

void an_scan_holds_free(struct an_run *r)
{
	for (size_t o = 0; o < r->n_lh; o++) {
		free(r->lh[o].h);
		free(r->lh[o].run);
	}
	free(r->lh);
	r->lh = NULL;
	r->n_lh = 0;
}

/* A record naming an id the definitions do not declare: counted, the first one named. */
static __attribute__((noinline, cold)) void unknown_id(struct an_run *r, size_t pos,
						       const char *what, uint32_t id)
{
	if (r->unknown_ids++ == 0)
		snprintf(r->unknown_first, sizeof r->unknown_first, "%s id %#x in %s", what, id,
			 sgr_thread(r->tr, pos)->file);
}

/* The dense index of object id (SG_NO_ID stays SG_NO_ID: a wrapper's "no object"); AN_NO_IDX
 * for an undefined one, which has been counted. */
static inline uint32_t obj_index(struct an_run *r, size_t pos, uint32_t id)
{
	if (id == SG_NO_ID)
		return SG_NO_ID;
	uint32_t x = an_idx(&r->omap, id);
	if (x == AN_NO_IDX)
		unknown_id(r, pos, "object", id);
	return x;
}

static inline int push_iv(struct an_tscan *s, uint64_t a, uint64_t b, uint32_t obj,
			  uint32_t aux, enum an_ivl_type type)
{
	if (s->n_iv == s->cap_iv && an_grow(&s->iv, &s->cap_iv, s->n_iv, sizeof *s->iv) < 0)
		return -ENOMEM;
	s->iv[s->n_iv++] = (struct an_ivl){ a, b, obj, aux, 0, type };
	return 0;
}

/* Appends the hold [q, x] of thread pos to lock id's vector (it grows by doubling: a large block
 * is moved by mremap, not copied). */
static int hold_push(struct an_run *r, size_t pos, uint32_t id, uint64_t q, uint64_t x,
		     uint32_t mode, uint32_t wait)
{
	if (!r->lh) {
		/* one vector per defined object (id is a dense index below omap.n) */
		if (!(r->lh = calloc(r->omap.n + 1, sizeof *r->lh)))
			return -ENOMEM;
		r->n_lh = r->omap.n;
	}
	struct an_lock_holds *L = &r->lh[id];
	L->has_read |= mode == SG_LOCK_RWLOCK_READ;
	if (L->n == L->cap && an_grow(&L->h, &L->cap, L->n, sizeof *L->h) < 0)
		return -ENOMEM;
	if (L->n == 0 || L->last_thread != pos) {
		if (an_grow(&L->run, &L->cap_run, L->n_run, sizeof *L->run) < 0)
			return -ENOMEM;
		L->run[L->n_run++] = L->n;
	} else if (L->last_q > q) {
		L->unsorted = 1;
	}
	L->h[L->n++] = (struct an_hold){ q, x, (uint32_t)pos & 0x7fffffffu,
					 mode == SG_LOCK_RWLOCK_READ, wait };
	/* a thread's holds go to as many vectors as it has locks, each a store stream of its
	 * own, more than the hardware follows: the line the next few holds of this lock land on
	 * is asked for now (a fresh line, read for ownership, was most of this function) */
	__builtin_prefetch(&L->h[L->n + 3], 1);
	L->last_q = q;
	L->last_thread = (uint32_t)pos;
	if (x - q > L->max_dur)
		L->max_dur = x - q;
	L->total += x - q;
	return 0;
}

/* Appends a post, signal or wait end (raw time t) for the joins of an_sync.c. */
static int sev_push(struct an_run *r, uint64_t t, uint32_t obj, size_t pos, enum an_sev_kind k,
		    uint32_t iv)
{
	if (r->n_sev == r->cap_sev && an_grow(&r->sev, &r->cap_sev, r->n_sev, sizeof *r->sev) < 0)
		return -ENOMEM;
	r->sev[r->n_sev++] = (struct an_sev){ t, obj, (uint32_t)pos, (uint32_t)k, iv, 0 };
	return 0;
}

static struct an_reg *region_get(struct an_tscan *s, uint32_t id)
{
	for (size_t i = 0; i < s->n_reg; i++)
		if (s->reg[i].id == id)
			return &s->reg[i];
	if (an_grow(&s->reg, &s->cap_reg, s->n_reg, sizeof *s->reg) < 0)
		return NULL;
	struct an_reg *g = &s->reg[s->n_reg++];
	memset(g, 0, sizeof *g);
	g->id = id;
	return g;
}

/* Leaf calls (ENTER f directly followed by EXIT f) add their time to `leaf` only, whatever the
 * function's other frames: two read-modify-writes in the hot loop instead of three and a test.
 * All of it is exclusive time; inclusive time takes only the leaf calls made while no frame of
 * the same function was open (a recursion counts its outermost frame alone). So when a
 * function's outermost frame opens, incl gains the `leaf` of that moment, and when it closes,
 * loses the `leaf` of then: the leaf calls in between cancel out. At the scan's end incl and excl
 * get `leaf`. (Unsigned sums: incl may wrap in between, the end result is exact.) */
static inline void fstat_open(struct an_fstat *st)
{
	st->calls++;
	if (st->active++ == 0)
		st->incl += st->leaf;
}

static inline void fstat_close(struct an_fstat *st, uint64_t dur)
{
	if (--st->active == 0)
		st->incl += dur - st->leaf;
}

static void fstat_fold_leaves(struct an_tscan *s)
{
	for (size_t f = 0; f < s->n_fs; f++) {
		s->fs[f].incl += s->fs[f].leaf;
		s->fs[f].excl += s->fs[f].leaf;
		s->fs[f].leaf = 0;
	}
}

/* func_exit: pops the frame of `id` at time t (frames above it were left without an exit:
 * they are closed at t too and counted as unmatched). */
static void func_exit(struct an_tscan *s, uint32_t id, uint64_t t)
{
	size_t d = s->depth;
	while (d > 0 && s->stack[d - 1].func != id)
		d--;
	if (d == 0) {
		s->unmatched++;
		return;
	}
	while (s->depth >= d) {
		struct an_frame *f = &s->stack[--s->depth];
		struct an_fstat *st = &s->fs[f->func];
		uint64_t dur = t - f->enter;
		st->excl += dur - (f->child < dur ? f->child : dur);
		fstat_close(st, dur);
		if (s->depth > 0)
			s->stack[s->depth - 1].child += dur;
		if (s->depth >= d)
			s->unmatched++;
		if (s->depth == d - 1)
			break;
	}
}

#define MAX_OPEN_HOLDS 64

/* Pending waits and open holds of one thread between its records (at most one wait of each kind
 * at a time). */
struct pend {
	uint64_t req_t, bar_t, cond_t, cr_t, join_t, sem_t;
	uint32_t req_obj, req_aux, bar_obj, bar_ep, cond_obj, sem_obj, sem_aux;
	int has_req, has_bar, has_cond, has_cr, has_join, has_sem;
	uint32_t site;             /* the current site slot (an_site_slot), 0: unknown */
	struct { uint64_t q; uint32_t obj, mode, site, wait; } open[MAX_OPEN_HOLDS];
	size_t n_open;
};

/* The entry of function index f in the thread's table of throttled functions; NULL on ENOMEM.
 * Found through a small open-addressing hash of entry positions (uidx, a power of 2 at least
 * twice the entries): a library may throttle thousands of functions, and a damaged trace can
 * name every defined one, so a linear search would be quadratic. */
static struct an_unrec *unrec_get(struct an_tscan *s, uint32_t f)
{
	size_t mask = s->cap_uidx - 1, h = (f * 0x9e3779b1u) & mask;
	for (; s->cap_uidx && s->uidx[h]; h = (h + 1) & mask)
		if (s->unrec[s->uidx[h] - 1].func == f)
			return &s->unrec[s->uidx[h] - 1];
	if (2 * (s->n_unrec + 1) > s->cap_uidx) {
		size_t cap = s->cap_uidx ? 2 * s->cap_uidx : 16;
		uint32_t *x = calloc(cap, sizeof *x);
		if (!x)
			return NULL;
		for (size_t i = 0; i < s->n_unrec; i++) {
			size_t k = (s->unrec[i].func * 0x9e3779b1u) & (cap - 1);
			while (x[k])
				k = (k + 1) & (cap - 1);
			x[k] = (uint32_t)i + 1;
		}
		free(s->uidx);
		s->uidx = x;
		s->cap_uidx = cap;
		for (h = (f * 0x9e3779b1u) & (cap - 1); x[h]; h = (h + 1) & (cap - 1))
			;
	}
	if (an_grow(&s->unrec, &s->cap_unrec, s->n_unrec, sizeof *s->unrec) < 0)
		return NULL;
	struct an_unrec *u = &s->unrec[s->n_unrec];
	memset(u, 0, sizeof *u);
	u->func = f;
	u->thr_t = UINT64_MAX;
	s->uidx[h] = (uint32_t)++s->n_unrec;
	return u;
}

/* The overhead-control records of format 1.3 (FUNC_THROTTLED, FUNC_UNRECORDED, _TIME,
 * TRACE_BUDGET), each with its value in `next`. Returns 1 when it consumed `next`, 0, -ENOMEM. */
static int scan_throttle(struct an_run *r, struct an_tscan *s, size_t pos, unsigned kind,
			 uint64_t raw, uint32_t id, uint32_t aux, const struct sg_event_rec *next)
{
	if (!next || (next->w0 & 0xff) != SG_EV_VALUE)
		return 0;   /* its value was lost: nothing to count */
	uint64_t v = next->w1;
	if (kind == SG_EV_TRACE_BUDGET) {
		if (raw < r->budget_t)
			r->budget_t = raw, r->budget_bytes = v;
		return 1;
	}
	uint32_t f = an_idx(&r->fmap, id);
	if (f == AN_NO_IDX) {
		unknown_id(r, pos, "function", id);
		return 1;
	}
	struct an_unrec *u = unrec_get(s, f);
	if (!u)
		return -ENOMEM;
	if (kind == SG_EV_FUNC_THROTTLED) {
		if (raw < u->thr_t)
			u->thr_t = raw, u->thr_calls = v, u->why = aux;
	} else if (kind == SG_EV_FUNC_UNRECORDED) {
		u->calls = v;
		if (raw < s->lo)
			u->calls0 = v;
	} else {
		u->ticks = v;
		if (raw < s->lo)
			u->ticks0 = v;
	}
	return 1;
}

/* The category whose time a sync wrapper's record falls in (where its cost is taken out by the
 * compensation, docs/analyzer.md "Tracing cost"): the primitive's overhead part, a condition
 * wait's IT_cond; CAT_COMPUTE for the others (signals, posts, regions, counters). */
static enum an_cat record_cat(unsigned kind)
{
	switch (kind) {
	case SG_EV_BARRIER_ARRIVE: case SG_EV_BARRIER_LEAVE:
		return CAT_BAR_P;
	case SG_EV_LOCK_REQUEST: case SG_EV_LOCK_ACQUIRED: case SG_EV_LOCK_FAILED:
	case SG_EV_LOCK_RELEASE:
		return CAT_LOCK_P;
	case SG_EV_COND_WAIT_BEGIN: case SG_EV_COND_WAIT_END:
		return CAT_COND;
	case SG_EV_SEM_WAIT_BEGIN: case SG_EV_SEM_WAIT_END:
		return CAT_SEM_P;
	case SG_EV_CREATE_BEGIN: case SG_EV_CREATE_END: case SG_EV_JOIN_BEGIN: case SG_EV_JOIN_END:
		return CAT_THREAD_P;
	default:
		return CAT_COMPUTE;
	}
}

/* SYNC_SITE (format 1.4): the intervals pushed from here on were begun at `slot` (a wait is
 * pushed at its end, and no site record comes between a wait's begin and its end). */
static __attribute__((noinline)) int site_mark(struct an_tscan *s, struct pend *p, uint32_t slot)
{
	if (slot == p->site)
		return 0;
	p->site = slot;
	if (s->n_site_run && s->site_run[s->n_site_run - 1].iv == s->n_iv) {
		s->site_run[s->n_site_run - 1].slot = slot;   /* no interval in between */
		return 0;
	}
	if (an_grow(&s->site_run, &s->cap_site_run, s->n_site_run, sizeof *s->site_run) < 0)
		return -ENOMEM;
	s->site_run[s->n_site_run++] = (struct an_site_run){ (uint32_t)s->n_iv, slot };
	return 0;
}

/* Every record other than a function probe: synchronization, threads, counters, regions. `t`
 * is its time clamped to the clip, `raw` as recorded. `next` is the following record of the span
 * (NULL at its end): a COUNTER's value. Returns 1 when it consumed `next`, 0, or -ENOMEM. */
static int scan_other(struct an_run *r, struct an_tscan *s, struct pend *p, size_t pos,
		      unsigned kind, uint64_t t, uint64_t raw, uint32_t id, uint32_t aux,
		      const struct sg_event_rec *next)
{
	int used = 0;
	if (raw >= s->lo && raw <= s->hi) {
		enum an_cat c = record_cat(kind);
		if (c != CAT_COMPUTE)
			s->rec_cat[c]++;
	}
	if (kind >= SG_EV_FUNC_THROTTLED && kind <= SG_EV_TRACE_BUDGET)
		return scan_throttle(r, s, pos, kind, raw, id, aux, next);
	if ((kind >= SG_EV_BARRIER_ARRIVE && kind <= SG_EV_COND_BROADCAST) ||
	    (kind >= SG_EV_SEM_WAIT_BEGIN && kind <= SG_EV_SEM_INIT)) {
		if ((id = obj_index(r, pos, id)) == AN_NO_IDX)
			return 0;
	}
	switch (kind) {
	case SG_EV_BARRIER_ARRIVE:
		p->bar_t = t, p->bar_obj = id, p->bar_ep = aux, p->has_bar = 1;
		break;
	case SG_EV_BARRIER_LEAVE:
		if (p->has_bar && p->bar_obj == id) {
			if (push_iv(s, p->bar_t, t, id, p->bar_ep, IV_BARRIER) < 0)
				return -ENOMEM;
		} else {
			s->unmatched++;
		}
		p->has_bar = 0;
		break;
	case SG_EV_LOCK_REQUEST:
		p->req_t = t, p->req_obj = id, p->req_aux = SG_LOCK_MODE(aux), p->has_req = 1;
		if (id != SG_NO_ID && id >= s->n_lock_ids)
			s->n_lock_ids = id + 1;   /* lock intervals start at a request */
		for (size_t k = 0; k < p->n_open; k++)
			if (p->open[k].obj == id)
				p->req_aux |= AN_LOCK_NESTED;   /* it holds the lock it asks for */
		break;
	case SG_EV_LOCK_ACQUIRED: {
		uint32_t wait = AN_NO_WAIT;
		if (p->has_req && p->req_obj == id) {
			if (push_iv(s, p->req_t, t, id, p->req_aux, IV_LOCK) < 0)
				return -ENOMEM;
			p->has_req = 0;
			if (s->n_iv - 1 < AN_NO_WAIT && pos < (1u << 31))
				wait = (uint32_t)(s->n_iv - 1);
		}
		if (id != SG_NO_ID && id >= s->n_lock_ids)
			s->n_lock_ids = id + 1;   /* holds start here (after a cond wait too) */
		if (p->n_open < MAX_OPEN_HOLDS)
			p->open[p->n_open].q = t, p->open[p->n_open].obj = id,
			p->open[p->n_open].site = p->site, p->open[p->n_open].wait = wait,
			p->open[p->n_open++].mode = SG_LOCK_MODE(aux);
		else
			s->unmatched++;
		break;
	}
	case SG_EV_LOCK_FAILED:
		if (p->has_req && p->req_obj == id) {
			if (push_iv(s, p->req_t, t, id, SG_LOCK_MODE(p->req_aux), IV_LOCK_FAIL) < 0)
				return -ENOMEM;
		}
		p->has_req = 0;
		break;
	case SG_EV_LOCK_RELEASE: {
		size_t k = p->n_open;
		while (k > 0 && p->open[k - 1].obj != id)
			k--;
		s->n_releases++;
		if (s->rel_slot)
			s->rel_slot[k ? p->open[k - 1].site : 0]++;   /* the site of its acquire */
		if (k == 0) {
			s->unmatched++;
			break;
		}
		if (id != SG_NO_ID &&
		    hold_push(r, pos, id, p->open[k - 1].q, t, p->open[k - 1].mode,
			      p->open[k - 1].wait) < 0)
			return -ENOMEM;
		/* the slot takes the last open hold; most releases are of the last one, and
		 * copying it onto itself stalled on the store of its parts (the load of the whole
		 * entry cannot be forwarded from them) */
		if (k - 1 != --p->n_open)
			p->open[k - 1] = p->open[p->n_open];
		break;
	}
	case SG_EV_COND_WAIT_BEGIN:
		p->cond_t = t, p->cond_obj = id, p->has_cond = 1;
		break;
	case SG_EV_COND_WAIT_END:
		if (p->has_cond && p->cond_obj == id) {
			if (push_iv(s, p->cond_t, t, id, 0, IV_COND) < 0 ||
			    sev_push(r, raw, id, pos, SEV_COND_WAKE, (uint32_t)(s->n_iv - 1)) < 0)
				return -ENOMEM;
		} else {
			s->unmatched++;
		}
		p->has_cond = 0;
		break;
	case SG_EV_COND_SIGNAL:
	case SG_EV_COND_BROADCAST:
		if (sev_push(r, raw, id, pos, kind == SG_EV_COND_SIGNAL ? SEV_COND_SIGNAL
					   : SEV_COND_BROADCAST, 0) < 0)
			return -ENOMEM;
		break;
	case SG_EV_SEM_WAIT_BEGIN:
		p->sem_t = t, p->sem_obj = id, p->sem_aux = aux, p->has_sem = 1;
		break;
	case SG_EV_SEM_WAIT_END:
		if (p->has_sem && p->sem_obj == id) {
			uint32_t res = (aux & 0xffffu) | (p->sem_aux & 0xffu) << 16;
			if (push_iv(s, p->sem_t, t, id, res, IV_SEM) < 0 ||
			    (aux == 0 && sev_push(r, raw, id, pos, SEV_SEM_TAKEN,
						  (uint32_t)(s->n_iv - 1)) < 0))
				return -ENOMEM;
		} else {
			s->unmatched++;
		}
		p->has_sem = 0;
		break;
	case SG_EV_SEM_POST:
		if (aux == 0 && sev_push(r, raw, id, pos, SEV_SEM_POST, 0) < 0)
			return -ENOMEM;
		break;
	case SG_EV_SEM_INIT:
		if (sev_push(r, raw, id, pos, SEV_SEM_INIT, aux) < 0)
			return -ENOMEM;
		break;
	case SG_EV_CREATE_BEGIN:
		p->cr_t = t, p->has_cr = 1;
		break;
	case SG_EV_CREATE_END:
		if (p->has_cr) {
			s->t_thread += t - p->cr_t;
			s->n_create++;
			if (push_iv(s, p->cr_t, t, id, 0, IV_THREAD) < 0)
				return -ENOMEM;
		}
		p->has_cr = 0;
		break;
	case SG_EV_JOIN_BEGIN:
		p->join_t = t, p->has_join = 1;
		break;
	case SG_EV_JOIN_END:
		if (p->has_join) {
			s->t_thread += t - p->join_t;
			/* the function that called join: its exclusive time holds the wait, which
			 * a profile of work (an N=1 run standing in for the sequential program,
			 * its master thread joining the worker) leaves out */
			if (s->depth > 0)
				s->fs[s->stack[s->depth - 1].func].join += t - p->join_t;
			if (push_iv(s, p->join_t, t, id, 1, IV_THREAD) < 0)
				return -ENOMEM;
		}
		p->has_join = 0;
		break;
	case SG_EV_SYNC_SITE: {
		uint32_t slot = an_site_slot(r, id);
		if (!slot && id != SG_NO_ID)
			unknown_id(r, pos, "site", id);
		if (site_mark(s, p, slot) < 0)
			return -ENOMEM;
		break;
	}
	case SG_EV_COUNTER:
		if (next && (next->w0 & 0xff) == SG_EV_VALUE) {
			int64_t v = (int64_t)next->w1;
			used = 1;
			if (raw < s->lo || raw > s->hi)
				break;
			uint32_t x = an_idx(&r->cmap, id);
			if (x >= s->n_ctr) {
				unknown_id(r, pos, "counter", id);
				break;
			}
			struct an_ctr *c = &s->ctr[x];
			if (c->n++ == 0)
				c->first = v;
			c->last = v;
		}
		break;
	case SG_EV_REGION_BEGIN:
	case SG_EV_REGION_END: {
		if (an_idx(&r->rmap, id) == AN_NO_IDX) {
			unknown_id(r, pos, "region", id);
			break;
		}
		struct an_reg *g = region_get(s, id);
		if (!g)
			return -ENOMEM;
		if (kind == SG_EV_REGION_BEGIN && !g->has_begin)
			g->begin = raw, g->has_begin = 1;
		if (kind == SG_EV_REGION_END)
			g->end = raw, g->has_end = 1;
		break;
	}
	default:
		break;
	}
	return used;
}

/* The hot loop's state between spans; while a span is read it lives in locals of scan_span
 * (stores through s-> would make the compiler reload every field after each store). `child` is
 * the callee time of the top frame, stack[depth - 1].child, kept out of memory while that frame
 * is on top: a leaf call adds to it without a load or a test of depth (at depth 0 it is a
 * scratch value). */
struct scan_loop {
	struct an_frame *stack;
	struct an_fstat *fs;       /* by slot (an_scan_thread) */
	uint32_t n_direct;         /* ids below it are their own slot */
	size_t depth, cap_stack;
	uint64_t child;
	uint64_t first, last;      /* inside the clip */
	int before, after;         /* records before lo, after hi */
};

/* A record's time clamped to the clip [lo, hi] (one compare for "inside": unsigned wrap-around);
 * the first and last times inside are noted. For spans not wholly inside the clip. */
static inline uint64_t clip_time(struct scan_loop *L, uint64_t lo, uint64_t hi, uint64_t t)
{
	if (t - lo > hi - lo) {
		if (t < lo) {
			L->before = 1;
			return lo;
		}
		L->after = 1;
		return hi;
	}
	if (t < L->first)
		L->first = t;
	L->last = t;
	return t;
}

/* The records from p up to the next function probe (or the span's end), all through
 * scan_other: one call out of the hot loop for a lock's REQUEST, ACQUIRED and RELEASE instead of
 * one each. Returns how many records it consumed (>= 1), or -ENOMEM. */
static __attribute__((noinline)) long scan_others(struct an_run *r, struct an_tscan *s,
						  struct pend *pd, size_t pos, struct scan_loop *L,
						  const struct sg_event_rec *p,
						  const struct sg_event_rec *end, int inside)
{
	const struct sg_event_rec *q = p;
	unsigned kind;
	do {
		uint64_t w0 = q->w0, w1 = q->w1, raw = w0 >> 8;
		kind = (unsigned)(w0 & 0xff);
		uint64_t t = inside ? raw : clip_time(L, s->lo, s->hi, raw);
		int u = scan_other(r, s, pd, pos, kind, t, raw, (uint32_t)w1, (uint32_t)(w1 >> 32),
				   q + 1 < end ? q + 1 : NULL);
		if (u < 0)
			return u;
		q += 1 + u;
		kind = q < end ? (unsigned)(q->w0 & 0xff) : SG_EV_FUNC_ENTER;   /* end: stop */
	} while (kind != SG_EV_FUNC_ENTER && kind != SG_EV_FUNC_EXIT);
	return q - p;
}

/* One span of a thread's records. `inside` is a constant at each call: 1 when the whole span
 * lies inside the clip (the usual case: no per-record clamp, leaf calls in one step), 0 when
 * records have to be clamped to [lo, hi] one by one. The two are separate functions so that
 * each has the registers to itself; the state lives in locals and goes back to *L (and the
 * stack depth to s) around the calls that need it. Returns 0 or -ENOMEM. */
static inline __attribute__((always_inline)) int
scan_span(struct an_run *r, struct an_tscan *s, struct pend *pd, size_t pos,
	  struct scan_loop *L, const struct sg_event_rec *p, const struct sg_event_rec *end,
	  const int inside)
{
	const uint64_t lo = s->lo, hi = s->hi;
	struct an_frame *stack = L->stack;
	struct an_fstat *fs = L->fs;
	const uint32_t n_direct = L->n_direct;
	size_t depth = L->depth, cap_stack = L->cap_stack;
	uint64_t child = L->child;
	int rc = 0;
	while (p < end) {
		if (inside) {
			/* a leaf call, ENTER f directly followed by EXIT f, is most function
			 * events: runs of them take one step each, in a loop of their own with
			 * few live values (same sums as a push and pop below) */
			while (p + 1 < end) {
				uint64_t a0 = p[0].w0, b0 = p[1].w0;
				uint32_t f = (uint32_t)p[0].w1;
				if ((a0 & 0xff) != SG_EV_FUNC_ENTER ||
				    (b0 & 0xff) != SG_EV_FUNC_EXIT || (uint32_t)p[1].w1 != f ||
				    f >= n_direct)
					break;
				/* the loop waits on the records' loads: ask for them 2 KiB ahead */
				__builtin_prefetch((const char *)p + 2048);
				/* (b0 >> 8) - (a0 >> 8) in one step: EXIT's kind byte is above
				 * ENTER's, so the subtraction borrows nothing from the times */
				uint64_t dur = (b0 - a0) >> 8;
				fs[f].calls++;
				fs[f].leaf += dur;
				child += dur;
				p += 2;
			}
			if (p == end)
				break;
		}
		__builtin_prefetch((const char *)p + 2048);
		uint64_t w0 = p->w0;
		unsigned kind = (unsigned)(w0 & 0xff);
		if (kind != SG_EV_FUNC_ENTER && kind != SG_EV_FUNC_EXIT) {
			s->depth = depth;   /* a join end charges the top frame's function */
			long u = scan_others(r, s, pd, pos, L, p, end, inside);
			if (u < 0) {
				rc = (int)u;
				break;
			}
			p += u;
			continue;
		}
		uint32_t id = (uint32_t)p->w1;
		uint64_t t = inside ? w0 >> 8 : clip_time(L, lo, hi, w0 >> 8);
		if (__builtin_expect(id >= n_direct, 0)) {
			/* a sparse id: its slot after the direct ones; an undefined one the
			 * shared slot of unknown functions (counted here, left out at the end) */
			uint32_t k = an_idmap_search(&r->fmap, id);
			if (k == AN_NO_IDX) {
				unknown_id(r, pos, "function", id);
				k = r->fmap.n;
			}
			id = n_direct + k;
		}
		if (kind == SG_EV_FUNC_ENTER) {
			if (__builtin_expect(depth == cap_stack, 0)) {
				if (an_grow(&s->stack, &s->cap_stack, depth, sizeof *s->stack) < 0) {
					rc = -ENOMEM;
					break;
				}
				stack = s->stack, cap_stack = s->cap_stack;
			}
			if (depth > 0)
				stack[depth - 1].child = child;
			stack[depth++] = (struct an_frame){ id, t, 0 };
			child = 0;
			fstat_open(&fs[id]);
		} else if (__builtin_expect(depth > 0 && stack[depth - 1].func == id, 1)) {
			/* FUNC_EXIT of the top frame */
			struct an_frame *f = &stack[--depth];
			struct an_fstat *st = &fs[id];
			uint64_t dur = t - f->enter;
			st->excl += dur - child;
			fstat_close(st, dur);
			child = depth > 0 ? stack[depth - 1].child + dur : 0;
		} else {
			/* FUNC_EXIT of a frame below the top, or of none */
			if (depth > 0)
				stack[depth - 1].child = child;
			s->depth = depth;
			func_exit(s, id, t);
			depth = s->depth;
			child = depth > 0 ? stack[depth - 1].child : 0;
		}
		p++;
	}
	L->stack = stack;
	L->depth = depth, L->cap_stack = cap_stack;
	L->child = child;
	return rc;
}

static __attribute__((noinline)) int scan_span_inside(struct an_run *r, struct pend *pd,
						       size_t pos, struct scan_loop *L,
						       const struct sg_event_rec *p, size_t n)
{
	return scan_span(r, &r->ts[pos], pd, pos, L, p, p + n, 1);
}

static __attribute__((noinline)) int scan_span_clipped(struct an_run *r, struct pend *pd,
							size_t pos, struct scan_loop *L,
							const struct sg_event_rec *p, size_t n)
{
	return scan_span(r, &r->ts[pos], pd, pos, L, p, p + n, 0);
}

/* The first of recs[0..n) at or after time x (a thread's records are in time order; in a
 * damaged one that is not, any split is as good: the pieces are checked again). A COUNTER's
 * VALUE stays with it. */
static size_t first_at(const struct sg_event_rec *recs, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((recs[mid].w0 >> 8) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo < n && lo > 0 && (recs[lo].w0 & 0xff) == SG_EV_VALUE)
		lo++;
	return lo;
}

/* recs[0..n) of thread pos: through the fast loop when all of them lie inside the clip, else
 * clamped one by one. */
static int scan_piece(struct an_run *r, struct pend *pd, size_t pos, struct scan_loop *L,
		      const struct sg_event_rec *rec, size_t n)
{
	const struct an_tscan *s = &r->ts[pos];
	uint64_t lo = s->lo, span = s->hi - s->lo;
	uint64_t ta = rec[0].w0 >> 8, tb = rec[n - 1].w0 >> 8;
	if (ta - lo <= span && tb - lo <= span && ta <= tb) {
		if (ta < L->first)
			L->first = ta;
		L->last = tb;
		return scan_span_inside(r, pd, pos, L, rec, n);
	}
	return scan_span_clipped(r, pd, pos, L, rec, n);
}

int an_scan_thread(struct an_run *r, size_t pos, uint64_t lo, uint64_t hi)
{
	struct an_tscan *s = &r->ts[pos];
	an_scan_free(s);
	s->lo = lo;
	s->hi = hi;
	s->first = UINT64_MAX;
	/* counters by index; functions in the run's scratch table, folded into r->fsum at the
	 * end (a table per thread would be threads x functions). The hot loop indexes it by the
	 * id itself, as it comes, for the ids the direct map covers (a few times the functions
	 * defined): a translation there cost 10 % of the pass. A sparse defined id has slot
	 * n_direct + its index, any undefined one above n_direct the slot after those. A call of
	 * an undefined id is a call of an unknown function: its time is not its caller's, and it
	 * is left out of the profile (one below n_direct is counted at the end, an enter and an
	 * exit a call) */
	s->n_ctr = r->cmap.n;
	if (!(s->ctr = calloc(s->n_ctr + 1, sizeof *s->ctr)))
		return -ENOMEM;
	if (sgr_n_sites(r->tr) && !(s->rel_slot = calloc(sgr_n_sites(r->tr) + 1,
							 sizeof *s->rel_slot)))
		return -ENOMEM;
	s->fs = r->fs_scratch;
	s->n_fs = (size_t)r->fmap.n_direct + r->fmap.n + 1;
	memset(s->fs, 0, (s->n_fs + 1) * sizeof *s->fs);
	const struct sgr_thread *th = sgr_thread(r->tr, pos);
	if (th && th->n_recs > 64)
		reserve(&s->iv, &s->cap_iv, (size_t)(th->n_recs / 2 + 1), sizeof *s->iv);
	struct pend pd;
	memset(&pd, 0, sizeof pd);
	uint64_t n_ev = 0;
	struct scan_loop L = { .stack = s->stack, .fs = s->fs, .cap_stack = s->cap_stack,
			       .n_direct = r->fmap.n_direct,
			       .first = UINT64_MAX };
	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init(&cur, r->tr, pos);
	int rc = 0;
	while (rc == 0 && sgr_cursor_next(&cur, &sp)) {
		const struct sg_event_rec *rec = sp.recs;
		size_t n = sp.n;
		n_ev += n;
		if (!n)
			continue;
		/* a thread's records are in time order: when both ends of the span lie inside the
		 * clip, so does every record, and the per-record clamp is skipped. A span across
		 * an edge of the clip is cut there, so that only the records outside are clamped
		 * (with many threads, each has few spans, most of them across an edge) */
		uint64_t ta = rec[0].w0 >> 8, tb = rec[n - 1].w0 >> 8;
		if (ta - lo <= hi - lo && tb - lo <= hi - lo && ta <= tb) {
			s->n_in += n;
			rc = scan_piece(r, &pd, pos, &L, rec, n);
			continue;
		}
		size_t i1 = first_at(rec, n, lo), i2 = hi < SG_TICKS_MAX ? first_at(rec, n, hi + 1) : n;
		if (i2 < i1)
			i2 = i1;
		s->n_in += i2 - i1;
		if (i1 > 0)
			rc = scan_piece(r, &pd, pos, &L, rec, i1);
		if (rc == 0 && i2 > i1)
			rc = scan_piece(r, &pd, pos, &L, rec + i1, i2 - i1);
		if (rc == 0 && n > i2)
			rc = scan_piece(r, &pd, pos, &L, rec + i2, n - i2);
	}
	if (L.depth > 0)
		L.stack[L.depth - 1].child = L.child;
	s->depth = L.depth;
	if (rc < 0) {
		s->fs = NULL;
		s->n_fs = 0;
		return rc;
	}
	uint64_t last = L.last;
	/* frames still open at the end are closed at the thread's last event */
	while (s->depth > 0)
		func_exit(s, s->stack[s->depth - 1].func, last > s->stack[s->depth - 1].enter ?
			  last : s->stack[s->depth - 1].enter);
	fstat_fold_leaves(s);
	for (size_t f = 0; f < s->n_fs; f++) {
		const struct an_fstat *x = &s->fs[f];
		if (!x->calls)
			continue;
		uint32_t k = f < r->fmap.n_direct ? r->fmap.direct[f] - 1
						  : (uint32_t)(f - r->fmap.n_direct);
		if (k == AN_NO_IDX) {
			/* calls of an id the definitions do not declare: left out (an enter and
			 * an exit each) */
			unknown_id(r, pos, "function", (uint32_t)f);
			r->unknown_ids += 2 * x->calls - 1;
			continue;
		}
		if (k == r->fmap.n)
			continue;   /* the unknown ones above n_direct: counted as met */
		r->fsum[k].calls += x->calls;
		r->fsum[k].incl += x->incl;
		r->fsum[k].excl += x->excl;
		r->fsum[k].join += x->join;
		s->any_calls = 1;
	}
	for (size_t k = 0; k < s->n_unrec; k++)
		if (s->unrec[k].calls > s->unrec[k].calls0)
			s->any_calls = 1;   /* calls counted, not recorded, are calls */
	s->fs = NULL;
	s->n_fs = 0;
	s->first = L.first;
	s->last = last;
	s->seen = L.first != UINT64_MAX;
	s->before = L.before;
	s->after = L.after;
	/* a thread with records on both sides of an edge was alive there: its T_i runs from t0
	 * (to t1), not from its first (last) record inside, which may be the end of a wait it
	 * was in at t0 */
	if (L.before && (s->seen || L.after))
		s->first = lo;
	if (L.after && (s->seen || L.before))
		s->last = hi;
	if (L.before && L.after)
		s->seen = 1;
	s->n_events = n_ev;
	return 0;
}

/* ---- region bounds without the full pass ---- */

/* The first REGION_BEGIN of thread pos (of region `want`, any region when SG_NO_ID) before
 * `limit`: records are in time order, so the walk stops at the first record after it. */
static int first_begin(struct an_run *r, size_t pos, uint32_t want, uint64_t limit, uint32_t *id,
		       uint64_t *t)
{
	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init(&cur, r->tr, pos);
	while (sgr_cursor_next(&cur, &sp))
		for (size_t i = 0; i < sp.n; i++) {
			uint64_t w0 = sp.recs[i].w0;
			uint32_t g = (uint32_t)sp.recs[i].w1;
			if ((w0 >> 8) > limit)
				return 0;
			if ((w0 & 0xff) == SG_EV_REGION_BEGIN && (want == SG_NO_ID || g == want) &&
			    an_idx(&r->rmap, g) != AN_NO_IDX) {
				*id = g;
				*t = w0 >> 8;
				return 1;
			}
		}
	return 0;
}

/* The last REGION_END of region `want` in thread pos after `limit`, walking back from its end. */
static int last_end(struct an_run *r, size_t pos, uint32_t want, uint64_t limit, uint64_t *t)
{
	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init_end(&cur, r->tr, pos);
	while (sgr_cursor_prev(&cur, &sp))
		for (size_t i = sp.n; i-- > 0;) {
			uint64_t w0 = sp.recs[i].w0;
			if ((w0 >> 8) < limit)
				return 0;
			if ((w0 & 0xff) == SG_EV_REGION_END && (uint32_t)sp.recs[i].w1 == want) {
				*t = w0 >> 8;
				return 1;
			}
		}
	return 0;
}

/* The first and last record of thread pos (its records are in time order). */
static void thread_ends(struct an_run *r, size_t pos, struct an_tscan *s)
{
	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init(&cur, r->tr, pos);
	while (sgr_cursor_next(&cur, &sp))
		if (sp.n) {
			s->first = sp.recs[0].w0 >> 8;
			s->seen = 1;
			break;
		}
	sgr_cursor_init_end(&cur, r->tr, pos);
	while (s->seen && sgr_cursor_prev(&cur, &sp))
		if (sp.n) {
			s->last = sp.recs[sp.n - 1].w0 >> 8;
			break;
		}
}

static int reg_add(struct an_tscan *s, uint32_t id, int has_b, uint64_t b, int has_e, uint64_t e)
{
	struct an_reg *g = region_get(s, id);
	if (!g)
		return -ENOMEM;
	if (has_b)
		g->begin = b, g->has_begin = 1;
	if (has_e)
		g->end = e, g->has_end = 1;
	return 0;
}

int an_scan_regions(struct an_run *r, uint32_t named)
{
	uint32_t rid = SG_NO_ID, id;
	uint64_t b = UINT64_MAX, e = 0, t;
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		an_scan_free(s);
		s->first = UINT64_MAX;
		thread_ends(r, i, s);
	}
	/* the earliest begin (of the named region, else of any): it fixes the region and t0; a
	 * thread's walk stops at the best begin found so far */
	size_t at_b = 0, at_e = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].seen && first_begin(r, i, named, b, &id, &t) && t < b)
			b = t, rid = id, at_b = i;
	if (rid == SG_NO_ID)
		return 0;
	/* the latest end of that region, walking back from each thread's end */
	int has_e = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].seen && last_end(r, i, rid, e, &t) && (!has_e || t > e))
			e = t, has_e = 1, at_e = i;
	if (reg_add(&r->ts[at_b], rid, 1, b, 0, 0) < 0 ||
	    (has_e && reg_add(&r->ts[at_e], rid, 0, 0, 1, e) < 0))
		return -ENOMEM;
	return 0;
}
