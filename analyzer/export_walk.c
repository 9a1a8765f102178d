/*
 * export_walk.c — the event walk both exporters stand on (export_int.h). It merges the threads'
 * streams in time order with a binary heap of one decoded event per thread, so memory stays
 * O(threads) whatever the trace's length, and keeps a stack of open slices per thread: OTF2
 * and the Chrome format both need enter/leave properly nested, and a damaged chunk or a region
 * left open by the program must not produce an unbalanced file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_int.h"

struct head {
	struct sgr_iter it;
	struct sgr_event ev;
	uint32_t thread;            /* thread index */
	int64_t last_ns;            /* last time delivered for this thread */
	struct export_slice *open;  /* stack of open slices */
	size_t n_open, cap_open;
};

struct walk {
	struct sgr_trace *t;
	const struct export_ops *ops;
	void *ctx;
	struct export_stats *st;
	struct head *h;
	size_t *heap;               /* thread positions, ordered by (ev.t_ns, position) */
	size_t n_heap;
};

static int before(const struct walk *w, size_t a, size_t b)
{
	int64_t ta = w->h[a].ev.t_ns, tb = w->h[b].ev.t_ns;
	return ta < tb || (ta == tb && a < b);
}

static void sift_down(struct walk *w, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < w->n_heap && before(w, w->heap[l], w->heap[m]))
			m = l;
		if (r < w->n_heap && before(w, w->heap[r], w->heap[m]))
			m = r;
		if (m == i)
			return;
		size_t tmp = w->heap[i];
		w->heap[i] = w->heap[m];
		w->heap[m] = tmp;
		i = m;
	}
}

/* The kind that opens the slice `end` closes, or SG_EV_NONE when `end` closes none. */
static enum sg_ev_kind opener_of(enum sg_ev_kind end)
{
	switch (end) {
	case SG_EV_FUNC_EXIT: return SG_EV_FUNC_ENTER;
	case SG_EV_REGION_END: return SG_EV_REGION_BEGIN;
	case SG_EV_BARRIER_LEAVE: return SG_EV_BARRIER_ARRIVE;
	case SG_EV_LOCK_ACQUIRED:
	case SG_EV_LOCK_FAILED: return SG_EV_LOCK_REQUEST;
	case SG_EV_COND_WAIT_END: return SG_EV_COND_WAIT_BEGIN;
	case SG_EV_CREATE_END: return SG_EV_CREATE_BEGIN;
	case SG_EV_JOIN_END: return SG_EV_JOIN_BEGIN;
	default: return SG_EV_NONE;
	}
}

/* The end kind a repaired slice gets (see export_ops.end). */
static enum sg_ev_kind closer_of(enum sg_ev_kind begin)
{
	switch (begin) {
	case SG_EV_FUNC_ENTER: return SG_EV_FUNC_EXIT;
	case SG_EV_REGION_BEGIN: return SG_EV_REGION_END;
	case SG_EV_BARRIER_ARRIVE: return SG_EV_BARRIER_LEAVE;
	case SG_EV_LOCK_REQUEST: return SG_EV_LOCK_FAILED;
	case SG_EV_COND_WAIT_BEGIN: return SG_EV_COND_WAIT_END;
	case SG_EV_CREATE_BEGIN: return SG_EV_CREATE_END;
	default: return SG_EV_JOIN_END;
	}
}

/* Create and join slices match whatever their ids say (create learns its child only at the
 * end); the others must name the same object, function or region. */
static int matches(const struct export_slice *s, const struct sgr_event *ev, enum sg_ev_kind op)
{
	if (s->begin != op)
		return 0;
	return op == SG_EV_CREATE_BEGIN || op == SG_EV_JOIN_BEGIN || s->id == ev->id;
}

/* Closes the open slices of thread `pos` above depth `keep` at time t_ns. */
static int close_above(struct walk *w, size_t pos, size_t keep, int64_t t_ns)
{
	struct head *h = &w->h[pos];
	while (h->n_open > keep) {
		struct export_slice *s = &h->open[h->n_open - 1];
		enum sg_ev_kind k = closer_of(s->begin);
		int create_join = k == SG_EV_CREATE_END || k == SG_EV_JOIN_END;
		struct sgr_event ev = { .t_ns = t_ns, .thread = h->thread, .kind = k,
					.id = create_join ? SG_NO_ID : s->id, .aux = SG_NO_ID };
		int rc = w->ops->end(w->ctx, pos, s, &ev, 1);
		if (rc)
			return rc;
		w->st->n_repaired++;
		h->n_open--;
	}
	return 0;
}

static int push(struct head *h, const struct sgr_event *ev)
{
	if (h->n_open == h->cap_open) {
		size_t cap = h->cap_open ? 2 * h->cap_open : 16;
		struct export_slice *o = realloc(h->open, cap * sizeof *o);
		if (!o)
			return -ENOMEM;
		h->open = o;
		h->cap_open = cap;
	}
	h->open[h->n_open++] = (struct export_slice){ ev->kind, ev->id, ev->aux, ev->t_ns };
	return 0;
}

/* Delivers one event of thread `pos` (already in h->ev). */
static int deliver(struct walk *w, size_t pos)
{
	struct head *h = &w->h[pos];
	struct sgr_event *ev = &h->ev;
	int rc;
	if (ev->t_ns < h->last_ns)
		ev->t_ns = h->last_ns;
	h->last_ns = ev->t_ns;
	w->st->n_read++;
	if ((size_t)ev->kind < SG_EV_KIND_COUNT)
		w->st->n_kind[ev->kind]++;
	if (w->st->n_read == 1)
		w->st->t_first_ns = ev->t_ns;
	if (ev->t_ns > w->st->t_last_ns)
		w->st->t_last_ns = ev->t_ns;

	switch (ev->kind) {
	case SG_EV_FUNC_ENTER:
	case SG_EV_REGION_BEGIN:
	case SG_EV_BARRIER_ARRIVE:
	case SG_EV_LOCK_REQUEST:
	case SG_EV_COND_WAIT_BEGIN:
	case SG_EV_CREATE_BEGIN:
	case SG_EV_JOIN_BEGIN:
		rc = push(h, ev);
		return rc ? rc : w->ops->begin(w->ctx, pos, ev);
	case SG_EV_THREAD_END:
		rc = close_above(w, pos, 0, ev->t_ns);
		return rc ? rc : w->ops->point(w->ctx, pos, ev);
	case SG_EV_THREAD_BEGIN:
	case SG_EV_LOCK_RELEASE:
	case SG_EV_COND_SIGNAL:
	case SG_EV_COND_BROADCAST:
	case SG_EV_COUNTER:
		return w->ops->point(w->ctx, pos, ev);
	default:
		break;
	}
	enum sg_ev_kind op = opener_of(ev->kind);
	size_t d = h->n_open;
	if (op != SG_EV_NONE)
		while (d > 0 && !matches(&h->open[d - 1], ev, op))
			d--;
	if (op == SG_EV_NONE || d == 0) {
		if (ev->kind == SG_EV_LOCK_ACQUIRED)
			return w->ops->point(w->ctx, pos, ev);
		w->st->n_dropped++;
		return 0;
	}
	rc = close_above(w, pos, d, ev->t_ns);
	if (rc)
		return rc;
	rc = w->ops->end(w->ctx, pos, &h->open[d - 1], ev, 0);
	h->n_open = d - 1;
	return rc;
}

int export_walk(struct sgr_trace *t, const struct export_ops *ops, void *ctx,
		struct export_stats *st)
{
	size_t n = sgr_n_threads(t);
	struct walk w = { .t = t, .ops = ops, .ctx = ctx, .st = st };
	int rc = 0;
	memset(st, 0, sizeof *st);
	w.h = calloc(n ? n : 1, sizeof *w.h);
	w.heap = calloc(n ? n : 1, sizeof *w.heap);
	if (!w.h || !w.heap) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sgr_iter_init(&w.h[i].it, t, i);
		w.h[i].last_ns = INT64_MIN;
		w.h[i].thread = sgr_thread(t, i)->index;
		if (sgr_iter_next(&w.h[i].it, &w.h[i].ev))
			w.heap[w.n_heap++] = i;
	}
	for (size_t i = w.n_heap / 2; i-- > 0;)
		sift_down(&w, i);
	while (w.n_heap) {
		size_t pos = w.heap[0];
		rc = deliver(&w, pos);
		if (rc)
			goto out;
		if (!sgr_iter_next(&w.h[pos].it, &w.h[pos].ev)) {
			rc = close_above(&w, pos, 0, w.h[pos].last_ns);
			if (rc)
				goto out;
			w.heap[0] = w.heap[--w.n_heap];
		}
		sift_down(&w, 0);
	}
out:
	if (w.h)
		for (size_t i = 0; i < n; i++)
			free(w.h[i].open);
	free(w.h);
	free(w.heap);
	return rc;
}

void export_thread_name(const struct sgr_thread *th, char *out, size_t len)
{
	if (th->os_tid)
		snprintf(out, len, "thread %" PRIu32 " (tid %" PRId32 ")", th->index, th->os_tid);
	else
		snprintf(out, len, "thread %" PRIu32, th->index);
}
