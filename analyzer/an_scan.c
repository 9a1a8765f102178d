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
	/* pending waits: at most one of each kind per thread at a time */
	uint64_t req_t = 0, bar_t = 0, cond_t = 0, cr_t = 0, join_t = 0;
	uint32_t req_obj = 0, req_aux = 0, bar_obj = 0, bar_ep = 0, cond_obj = 0;
	int has_req = 0, has_bar = 0, has_cond = 0, has_cr = 0, has_join = 0;
	struct { uint64_t q; uint32_t obj, mode; } open[MAX_OPEN_HOLDS];
	size_t n_open = 0;
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
			switch (kind) {
			case SG_EV_BARRIER_ARRIVE:
				bar_t = t, bar_obj = id, bar_ep = aux, has_bar = 1;
				break;
			case SG_EV_BARRIER_LEAVE:
				if (has_bar && bar_obj == id) {
					s->t_barrier += t - bar_t;
					if (push_iv(s, bar_t, t, id, bar_ep, IV_BARRIER) < 0)
						return -ENOMEM;
				} else {
					s->unmatched++;
				}
				has_bar = 0;
				break;
			case SG_EV_LOCK_REQUEST:
				req_t = t, req_obj = id, req_aux = aux, has_req = 1;
				break;
			case SG_EV_LOCK_ACQUIRED:
				if (has_req && req_obj == id) {
					s->t_lock += t - req_t;
					if (push_iv(s, req_t, t, id, SG_LOCK_MODE(req_aux), IV_LOCK) < 0)
						return -ENOMEM;
					has_req = 0;
				}
				if (n_open < MAX_OPEN_HOLDS)
					open[n_open].q = t, open[n_open].obj = id,
					open[n_open++].mode = SG_LOCK_MODE(aux);
				else
					s->unmatched++;
				break;
			case SG_EV_LOCK_FAILED:
				if (has_req && req_obj == id) {
					s->t_lock_fail += t - req_t;
					if (push_iv(s, req_t, t, id, SG_LOCK_MODE(req_aux), IV_LOCK_FAIL) < 0)
						return -ENOMEM;
				}
				has_req = 0;
				break;
			case SG_EV_LOCK_RELEASE: {
				size_t k = n_open;
				while (k > 0 && open[k - 1].obj != id)
					k--;
				s->n_releases++;
				if (k == 0) {
					s->unmatched++;
					break;
				}
				if (s->n_holds == s->cap_holds &&
				    an_grow(&s->holds, &s->cap_holds, s->n_holds, sizeof *s->holds) < 0)
					return -ENOMEM;
				s->holds[s->n_holds++] = (struct an_hold){ open[k - 1].q, t, id,
									   open[k - 1].mode, (uint32_t)pos };
				open[k - 1] = open[--n_open];
				break;
			}
			case SG_EV_COND_WAIT_BEGIN:
				cond_t = t, cond_obj = id, has_cond = 1;
				break;
			case SG_EV_COND_WAIT_END:
				if (has_cond && cond_obj == id) {
					s->t_cond += t - cond_t;
					if (push_iv(s, cond_t, t, id, 0, IV_COND) < 0)
						return -ENOMEM;
				} else {
					s->unmatched++;
				}
				has_cond = 0;
				break;
			case SG_EV_CREATE_BEGIN:
				cr_t = t, has_cr = 1;
				break;
			case SG_EV_CREATE_END:
				if (has_cr) {
					s->t_thread += t - cr_t;
					s->n_create++;
					if (push_iv(s, cr_t, t, id, 0, IV_THREAD) < 0)
						return -ENOMEM;
				}
				has_cr = 0;
				break;
			case SG_EV_JOIN_BEGIN:
				join_t = t, has_join = 1;
				break;
			case SG_EV_JOIN_END:
				if (has_join) {
					s->t_thread += t - join_t;
					s->t_join += t - join_t;
					if (push_iv(s, join_t, t, id, 1, IV_THREAD) < 0)
						return -ENOMEM;
				}
				has_join = 0;
				break;
			case SG_EV_COUNTER:
				if (i + 1 < n && (rec[i + 1].w0 & 0xff) == SG_EV_VALUE) {
					int64_t v = (int64_t)rec[++i].w1;
					if ((w0 >> 8) < lo || (w0 >> 8) > hi)
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
				uint64_t raw = w0 >> 8;
				if (kind == SG_EV_REGION_BEGIN && !g->has_begin)
					g->begin = raw, g->has_begin = 1;
				if (kind == SG_EV_REGION_END)
					g->end = raw, g->has_end = 1;
				break;
			}
			default:
				break;
			}
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
