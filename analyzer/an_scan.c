/*
 * an_scan.c — the one pass over one thread's raw records: the hot loop of the analyzer. It reads
 * the reader's spans of 16-byte records in place and, per event kind, updates a few running
 * totals, the function stack, and two small vectors (non-busy intervals, lock holds) that the
 * cross-thread joins of an_join.c consume. Times stay in ticks; every timestamp is clamped to
 * the clip [lo, hi] so that intervals crossing the measured region are cut at its edges.
 *
 * What the wrappers record (tracelib/sgt_wrap.c) and how it is read here:
 *   LOCK_REQUEST r .. LOCK_ACQUIRED q      one acquire, a wait interval [r, q]; a hold opens at q
 *   LOCK_REQUEST r .. LOCK_FAILED          a failed try-lock: primitive time [r, f]
 *   LOCK_RELEASE x                         one event, before the real unlock: the hold is [q, x]
 *   COND_WAIT_BEGIN .. COND_WAIT_END       blocked; the mutex RELEASE/ACQUIRED inside only end
 *                                          and reopen the hold (no REQUEST: no lock interval)
 *   BARRIER_ARRIVE a .. BARRIER_LEAVE l    one episode [a, l], joined across threads later
 *   CREATE_BEGIN..END, JOIN_BEGIN..END     thread primitives
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	free(s->holds);
	free(s->ctr);
	free(s->fs);
	free(s->stack);
	free(s->reg);
	memset(s, 0, sizeof *s);
}

static int grow_index(void *pp, size_t *n, uint32_t id, size_t elem)
{
	void **p = pp;
	size_t nn = (size_t)id + 1;
	if (nn < 64)
		nn = 64;
	while (nn <= id)
		nn *= 2;
	if (nn < *n * 2)
		nn = *n * 2;
	void *q = realloc(*p, nn * elem);
	if (!q)
		return -ENOMEM;
	memset((char *)q + *n * elem, 0, (nn - *n) * elem);
	*p = q;
	*n = nn;
	return 0;
}

static int push_iv(struct an_tscan *s, uint64_t a, uint64_t b, uint32_t obj, uint32_t aux,
		   enum an_ivl_type type)
{
	if (s->n_iv == s->cap_iv && an_grow(&s->iv, &s->cap_iv, s->n_iv, sizeof *s->iv) < 0)
		return -ENOMEM;
	s->iv[s->n_iv++] = (struct an_ivl){ a, b, obj, aux, type, 0, 0 };
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
		if (st->active == 1)
			st->incl += dur;
		st->active--;
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
	uint64_t req_t, bar_t, cond_t, cr_t, join_t;
	uint32_t req_obj, req_aux, bar_obj, bar_ep, cond_obj;
	int has_req, has_bar, has_cond, has_cr, has_join;
	struct { uint64_t q; uint32_t obj, mode; } open[MAX_OPEN_HOLDS];
	size_t n_open;
};

/* Every record other than a function probe: synchronization, threads, counters, regions. Kept
 * out of the hot loop so that the loop's state stays in registers. `next` is the following
 * record of the span (NULL at its end): a COUNTER's value. Returns 1 when it consumed `next`,
 * 0, or -ENOMEM. */
static __attribute__((noinline)) int scan_other(struct an_tscan *s, struct pend *p, size_t pos,
						 unsigned kind, uint64_t t, uint64_t raw, uint32_t id,
						 uint32_t aux, const struct sg_event_rec *next)
{
	int used = 0;
	switch (kind) {
	case SG_EV_BARRIER_ARRIVE:
		p->bar_t = t, p->bar_obj = id, p->bar_ep = aux, p->has_bar = 1;
		break;
	case SG_EV_BARRIER_LEAVE:
		if (p->has_bar && p->bar_obj == id) {
			s->t_barrier += t - p->bar_t;
			if (push_iv(s, p->bar_t, t, id, p->bar_ep, IV_BARRIER) < 0)
				return -ENOMEM;
		} else {
			s->unmatched++;
		}
		p->has_bar = 0;
		break;
	case SG_EV_LOCK_REQUEST:
		p->req_t = t, p->req_obj = id, p->req_aux = aux, p->has_req = 1;
		break;
	case SG_EV_LOCK_ACQUIRED:
		if (p->has_req && p->req_obj == id) {
			s->t_lock += t - p->req_t;
			if (push_iv(s, p->req_t, t, id, SG_LOCK_MODE(p->req_aux), IV_LOCK) < 0)
				return -ENOMEM;
			p->has_req = 0;
		}
		if (p->n_open < MAX_OPEN_HOLDS)
			p->open[p->n_open].q = t, p->open[p->n_open].obj = id,
			p->open[p->n_open++].mode = SG_LOCK_MODE(aux);
		else
			s->unmatched++;
		break;
	case SG_EV_LOCK_FAILED:
		if (p->has_req && p->req_obj == id) {
			s->t_lock_fail += t - p->req_t;
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
		if (k == 0) {
			s->unmatched++;
			break;
		}
		if (s->n_holds == s->cap_holds &&
		    an_grow(&s->holds, &s->cap_holds, s->n_holds, sizeof *s->holds) < 0)
			return -ENOMEM;
		s->holds[s->n_holds++] = (struct an_hold){ p->open[k - 1].q, t, id,
							   p->open[k - 1].mode, (uint32_t)pos };
		p->open[k - 1] = p->open[--p->n_open];
		break;
	}
	case SG_EV_COND_WAIT_BEGIN:
		p->cond_t = t, p->cond_obj = id, p->has_cond = 1;
		break;
	case SG_EV_COND_WAIT_END:
		if (p->has_cond && p->cond_obj == id) {
			s->t_cond += t - p->cond_t;
			if (push_iv(s, p->cond_t, t, id, 0, IV_COND) < 0)
				return -ENOMEM;
		} else {
			s->unmatched++;
		}
		p->has_cond = 0;
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
			s->t_join += t - p->join_t;
			if (push_iv(s, p->join_t, t, id, 1, IV_THREAD) < 0)
				return -ENOMEM;
		}
		p->has_join = 0;
		break;
	case SG_EV_COUNTER:
		if (next && (next->w0 & 0xff) == SG_EV_VALUE) {
			int64_t v = (int64_t)next->w1;
			used = 1;
			if (raw < s->lo || raw > s->hi)
				break;
			if (id >= s->n_ctr &&
			    grow_index(&s->ctr, &s->n_ctr, id, sizeof *s->ctr) < 0)
				return -ENOMEM;
			struct an_ctr *c = &s->ctr[id];
			if (c->n++ == 0)
				c->first = v;
			c->last = v;
		}
		break;
	case SG_EV_REGION_BEGIN:
	case SG_EV_REGION_END: {
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

int an_scan_thread(struct an_run *r, size_t pos, uint64_t lo, uint64_t hi)
{
	struct an_tscan *s = &r->ts[pos];
	an_scan_free(s);
	s->lo = lo;
	s->hi = hi;
	s->first = UINT64_MAX;
	if (grow_index(&s->ctr, &s->n_ctr, (uint32_t)(sgr_n_counters(r->tr) + 7), sizeof *s->ctr) < 0 ||
	    grow_index(&s->fs, &s->n_fs, (uint32_t)(sgr_n_functions(r->tr) + 63), sizeof *s->fs) < 0)
		return -ENOMEM;
	struct pend pd;
	memset(&pd, 0, sizeof pd);
	uint64_t first = UINT64_MAX, last = 0, n_ev = 0, span = hi - lo;
	struct an_frame *stack = s->stack;
	struct an_fstat *fs = s->fs;
	size_t depth = 0, cap_stack = s->cap_stack, n_fs = s->n_fs;

	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init(&cur, r->tr, pos);
	while (sgr_cursor_next(&cur, &sp)) {
		const struct sg_event_rec *rec = sp.recs;
		size_t n = sp.n;
		n_ev += n;
		if (!n)
			continue;
		/* a thread's records are in time order: when both ends of the span lie inside the
		 * clip, so does every record, and the per-record clamp is skipped */
		uint64_t ta = rec[0].w0 >> 8, tb = rec[n - 1].w0 >> 8;
		int inside = ta - lo <= span && tb - lo <= span && ta <= tb;
		if (inside) {
			if (ta < first)
				first = ta;
			last = tb;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t w0 = rec[i].w0, w1 = rec[i].w1;
			uint64_t t = w0 >> 8;
			unsigned kind = (unsigned)(w0 & 0xff);
			/* one compare for "inside the clip" (unsigned wrap-around) */
			if (__builtin_expect(!inside, 0)) {
				if (t - lo > span) {
					t = t < lo ? lo : hi;
				} else {
					if (t < first)
						first = t;
					last = t;
				}
			}
			uint32_t id = (uint32_t)w1, aux = (uint32_t)(w1 >> 32);
			/* function probes are most events: their fast paths first, on locals (stores
			 * through s-> would make the compiler reload every field) */
			if (kind == SG_EV_FUNC_ENTER) {
				/* a leaf call, ENTER f directly followed by EXIT f, is most function
				 * events: one step, no frame pushed and popped */
				if (__builtin_expect(i + 1 < n && id < n_fs, 1)) {
					uint64_t v0 = rec[i + 1].w0;
					if ((v0 & 0xff) == SG_EV_FUNC_EXIT && (uint32_t)rec[i + 1].w1 == id &&
					    __builtin_expect(inside, 1)) {
						uint64_t dur = (v0 >> 8) - t;
						struct an_fstat *st = &fs[id];
						st->calls++;
						st->excl += dur;
						st->incl += st->active == 0 ? dur : 0;
						if (depth > 0)
							stack[depth - 1].child += dur;
						i++;
						continue;
					}
				}
				if (__builtin_expect(id >= n_fs || depth == cap_stack, 0)) {
					if (id >= n_fs &&
					    grow_index(&s->fs, &s->n_fs, id, sizeof *s->fs) < 0)
						return -ENOMEM;
					if (depth == cap_stack &&
					    an_grow(&s->stack, &s->cap_stack, depth, sizeof *s->stack) < 0)
						return -ENOMEM;
					fs = s->fs, n_fs = s->n_fs;
					stack = s->stack, cap_stack = s->cap_stack;
				}
				stack[depth++] = (struct an_frame){ id, t, 0 };
				fs[id].calls++;
				fs[id].active++;
				continue;
			}
			if (kind == SG_EV_FUNC_EXIT) {
				if (__builtin_expect(depth > 0 && stack[depth - 1].func == id, 1)) {
					struct an_frame *f = &stack[--depth];
					struct an_fstat *st = &fs[id];
					uint64_t dur = t - f->enter;
					st->excl += dur - f->child;
					st->incl += st->active == 1 ? dur : 0;
					st->active--;
					if (depth > 0)
						stack[depth - 1].child += dur;
				} else {
					s->depth = depth;
					func_exit(s, id, t);
					depth = s->depth;
				}
				continue;
			}
			int u = scan_other(s, &pd, pos, kind, t, w0 >> 8, id, aux,
					   i + 1 < n ? &rec[i + 1] : NULL);
			if (u < 0)
				return u;
			i += (size_t)u;
		}
	}
	s->depth = depth;
	/* frames still open at the end are closed at the thread's last event */
	while (s->depth > 0)
		func_exit(s, s->stack[s->depth - 1].func, last > s->stack[s->depth - 1].enter ?
			  last : s->stack[s->depth - 1].enter);
	s->first = first;
	s->last = last;
	s->seen = first != UINT64_MAX;
	s->n_events = n_ev;
	return 0;
}
