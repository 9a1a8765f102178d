/*
 * export_walk.c — the event walk both exporters stand on (export_int.h). It merges the threads'
 * streams in time order with a binary heap of one decoded event per thread, so memory stays
 * O(threads) whatever the number of thread events, and keeps a stack of open slices per
 * thread: OTF2 and the Chrome format both need enter/leave properly nested, and a damaged chunk
 * or a region left open by the program must not produce an unbalanced file.
 *
 * The sched stream is read first: its records come CPU by CPU, so they are sorted per thread
 * (by OS tid) and paired into off-CPU spans, which then merge into each thread's own events as
 * leaf slices. Where the thread's own events fall inside a span (the kernel's clock and the
 * thread's disagree by a few µs), a short read-ahead of the thread's stream finds them and the
 * slice becomes the longest stretch of the span free of them (see span_fit).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_int.h"

/* One thing the sched stream says about a thread: an off-CPU span (kind SWITCH_OUT) or a CPU
 * sample (TASK_CPU, TASK_DELAY). 32 bytes. */
struct sched_item {
	int64_t t_ns;               /* span: when it left its CPU; sample: when taken */
	int64_t x;                  /* span: when it came back (INT64_MAX: no switch-in seen);
				       sample: the value */
	uint16_t kind;
	uint16_t fitted;            /* span: span_fit looked at it */
	uint32_t aux_out, aux_in;   /* span: the SWITCH_OUT's and SWITCH_IN's aux */
};

/* At most this many events of a thread's own are looked for inside one off-CPU span; more
 * than that is no clock skew but a switch-in the kernel lost: the span then ends at the first
 * of them. */
#define FIT_MAX 64

/* What a thread delivers next. */
enum next { NEXT_REAL, NEXT_OFF_BEGIN, NEXT_OFF_END, NEXT_SAMPLE };

struct head {
	struct sgr_iter it;
	struct sgr_event ev;        /* its next event, when has_real */
	int has_real;
	struct sgr_event *ahead;    /* events read ahead by span_fit, after ev: ahead[i_ahead] .. */
	size_t i_ahead, n_ahead;    /* .. ahead[n_ahead - 1] (at most FIT_MAX + 1) */
	int started;                /* an event of its own was delivered */
	uint32_t thread;            /* thread index */
	int32_t tid;
	int64_t last_ns;            /* last time delivered for this thread */
	struct export_slice *open;  /* stack of open slices */
	size_t n_open, cap_open;
	struct sched_item *sx;      /* its spans and samples in time order ... */
	size_t n_sx, k_sx;          /* ... and the next one */
	int off;                    /* an off-CPU span is open: off_slice, until off_end */
	struct export_slice off_slice;
	int64_t off_end;
	uint32_t off_aux_in;
	enum next next;             /* what comes next, at next_t */
	int64_t next_t;
};

struct walk {
	struct sgr_trace *t;
	const struct export_ops *ops;
	void *ctx;
	struct export_stats *st;
	struct head *h;
	size_t *heap;               /* thread positions, ordered by (next_t, position) */
	size_t n_heap;
	int any;                    /* something was delivered (t_first_ns is set) */
};

static int before(const struct walk *w, size_t a, size_t b)
{
	int64_t ta = w->h[a].next_t, tb = w->h[b].next_t;
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
	case SG_EV_SEM_WAIT_END: return SG_EV_SEM_WAIT_BEGIN;
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
	case SG_EV_SEM_WAIT_BEGIN: return SG_EV_SEM_WAIT_END;
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

/* Bookkeeping of every delivered item: times never go back per thread, first and last. */
static void stamp(struct walk *w, struct head *h, int64_t t_ns)
{
	h->last_ns = t_ns;
	if (!w->any || t_ns < w->st->t_first_ns)
		w->st->t_first_ns = t_ns;
	if (!w->any || t_ns > w->st->t_last_ns)
		w->st->t_last_ns = t_ns;
	w->any = 1;
}

/* Closes thread pos's open off-CPU slice at t_ns: at its switch-in, or cut (aux SG_NO_ID) at
 * an event of the thread's own. */
static int off_close(struct walk *w, size_t pos, int64_t t_ns, int cut)
{
	struct head *h = &w->h[pos];
	struct sgr_event ev = { .t_ns = t_ns, .thread = h->thread, .kind = SG_EV_SWITCH_IN,
				.id = (uint32_t)h->tid, .aux = cut ? SG_NO_ID : h->off_aux_in };
	h->off = 0;
	w->st->n_off_cut += cut != 0;
	return w->ops->end(w->ctx, pos, &h->off_slice, &ev, 0);
}

/* Opens an off-CPU slice of thread pos at t_ns: its next sched item, a span. */
static int off_open(struct walk *w, size_t pos, int64_t t_ns)
{
	struct head *h = &w->h[pos];
	const struct sched_item *x = &h->sx[h->k_sx++];
	struct sgr_event ev = { .t_ns = t_ns, .thread = h->thread, .kind = SG_EV_SWITCH_OUT,
				.id = (uint32_t)h->tid, .aux = x->aux_out, .value = x->fitted > 1 };
	h->off_end = x->x;
	h->off_aux_in = x->aux_in;
	h->off = 1;
	h->off_slice = (struct export_slice){ SG_EV_SWITCH_OUT, ev.id, ev.aux, t_ns };
	w->st->n_off_cpu++;
	return w->ops->begin(w->ctx, pos, &ev);
}

/* The thread's next event of its own into h->ev (from the read-ahead first); 0 at the end. */
static int real_next(struct head *h)
{
	if (h->i_ahead < h->n_ahead) {
		h->ev = h->ahead[h->i_ahead++];
		if (h->i_ahead == h->n_ahead)
			h->i_ahead = h->n_ahead = 0;
		return 1;
	}
	return sgr_iter_next(&h->it, &h->ev);
}

/*
 * Span x of thread h opens at t0 (after the thread's last event delivered). A thread records
 * nothing while off its CPU, yet on a machine whose kernel clock and the thread's clock fit
 * disagree by a few µs, the burst of events just before it left or just after it came back
 * can land inside the span. The events of the thread inside it are read ahead (at most
 * FIT_MAX), and the span becomes the longest stretch between them, t0 and its switch-in: the
 * one time it was really off. With more of them (a lost switch-in) it is left alone and is
 * cut at the first one. Sets x->fitted (2: moved or shortened) and x->t_ns, x->x.
 */
static void span_fit(struct walk *w, struct head *h, struct sched_item *x, int64_t t0)
{
	x->fitted = 1;
	if (x->x == INT64_MAX || !h->has_real)
		return;
	if (!h->ahead && !(h->ahead = malloc((FIT_MAX + 1) * sizeof *h->ahead)))
		return;   /* no read-ahead: cut at the first event, as without fitting */
	int64_t prev = t0, best_a = t0, best_b = t0, t_last = h->last_ns;
	size_t n = 0;
	for (size_t i = 0;; i++) {
		const struct sgr_event *e;
		if (i == 0) {
			e = &h->ev;
		} else if (h->i_ahead + i - 1 < h->n_ahead) {
			e = &h->ahead[h->i_ahead + i - 1];
		} else {
			if (h->n_ahead == FIT_MAX + 1) {
				if (h->i_ahead == 0)
					return;
				memmove(h->ahead, h->ahead + h->i_ahead,
					(h->n_ahead - h->i_ahead) * sizeof *h->ahead);
				h->n_ahead -= h->i_ahead;
				h->i_ahead = 0;
				i = h->n_ahead + 1;
			}
			if (!sgr_iter_next(&h->it, &h->ahead[h->n_ahead]))
				break;
			e = &h->ahead[h->n_ahead++];
		}
		int64_t t = e->t_ns > t_last ? e->t_ns : t_last;
		t_last = t;
		if (t >= x->x)
			break;
		if (++n > FIT_MAX)
			return;
		if (t - prev > best_b - best_a)
			best_a = prev, best_b = t;
		prev = t;
	}
	if (n == 0)
		return;
	if (x->x - prev > best_b - best_a)
		best_a = prev, best_b = x->x;
	x->t_ns = best_a;
	x->x = best_b;
	x->fitted = 2;
	w->st->n_off_fitted++;
}

/* Delivers one event of thread `pos` from its own stream (already in h->ev). */
static int deliver(struct walk *w, size_t pos)
{
	struct head *h = &w->h[pos];
	struct sgr_event *ev = &h->ev;
	int rc;
	if (ev->t_ns < h->last_ns)
		ev->t_ns = h->last_ns;
	if (h->off && (rc = off_close(w, pos, ev->t_ns, 1)) != 0)
		return rc;
	stamp(w, h, ev->t_ns);
	h->started = 1;
	w->st->n_read++;
	if ((size_t)ev->kind < SG_EV_KIND_COUNT)
		w->st->n_kind[ev->kind]++;

	switch (ev->kind) {
	case SG_EV_FUNC_ENTER:
	case SG_EV_REGION_BEGIN:
	case SG_EV_BARRIER_ARRIVE:
	case SG_EV_LOCK_REQUEST:
	case SG_EV_COND_WAIT_BEGIN:
	case SG_EV_SEM_WAIT_BEGIN:
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
	case SG_EV_SEM_POST:
	case SG_EV_SEM_INIT:
	case SG_EV_COUNTER:
		return w->ops->point(w->ctx, pos, ev);
	case SG_EV_SYNC_SITE:   /* where the waits after it were called: no slice or point */
		return 0;
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

/*
 * Decides what thread pos delivers next (h->next at h->next_t); returns 0 when it has nothing
 * left. Its own events and its sched items merge by time (its own event first on a tie). A
 * span opens only between two events of the thread, fitted between them first (span_fit); an
 * open off-CPU slice ends at its switch-in, or at the thread's next event if that comes first
 * all the same (a lost switch-in); samples wait for the thread's first event.
 */
static int head_plan(struct walk *w, struct head *h)
{
	for (;;) {
		struct sched_item *x = h->k_sx < h->n_sx ? &h->sx[h->k_sx] : NULL;
		int64_t t_real = h->has_real ? (h->ev.t_ns > h->last_ns ? h->ev.t_ns : h->last_ns)
				 : INT64_MAX;
		int64_t t_x = x ? (x->t_ns > h->last_ns ? x->t_ns : h->last_ns) : INT64_MAX;
		int sample = x && x->kind != SG_EV_SWITCH_OUT;
		if (h->off) {
			int64_t t_end = h->off_end > h->last_ns ? h->off_end : h->last_ns;
			if (sample && t_x < t_real && t_x < t_end) {
				h->next = NEXT_SAMPLE, h->next_t = t_x;
			} else if (h->has_real && t_real < t_end) {
				h->next = NEXT_REAL, h->next_t = t_real;
			} else {
				/* no switch-in and no event left: ends where it began */
				h->next = NEXT_OFF_END;
				h->next_t = h->off_end != INT64_MAX ? t_end : h->last_ns;
			}
			return 1;
		}
		if (!x || (h->has_real && (!h->started || t_real <= x->t_ns))) {
			if (!h->has_real)
				return 0;
			h->next = NEXT_REAL, h->next_t = t_real;
			return 1;
		}
		/* x comes before the thread's next event, or the thread has no event left */
		if (sample) {
			if (!h->started) {   /* a thread with no event at all */
				h->k_sx++;
				continue;
			}
			h->next = NEXT_SAMPLE, h->next_t = t_x;
			return 1;
		}
		if (!h->has_real || !h->started || x->x <= t_x) {
			/* after its last event, before its first, or wholly before the last one
			 * delivered (skew) */
			w->st->n_off_dropped++;
			h->k_sx++;
			continue;
		}
		if (!x->fitted) {
			span_fit(w, h, x, t_x);
			continue;
		}
		h->next = NEXT_OFF_BEGIN, h->next_t = t_x;
		return 1;
	}
}

/* Delivers what head_plan chose for thread pos and reads on. Returns 0 or a callback's
 * value; *live = 0 when the thread has nothing left. */
static int head_step(struct walk *w, size_t pos, int *live)
{
	struct head *h = &w->h[pos];
	int rc = 0;
	if (h->next != NEXT_REAL)
		stamp(w, h, h->next_t);
	switch (h->next) {
	case NEXT_REAL:
		rc = deliver(w, pos);
		if (rc)
			return rc;
		h->has_real = real_next(h);
		if (!h->has_real)
			rc = close_above(w, pos, 0, h->last_ns);
		break;
	case NEXT_OFF_END:
		rc = off_close(w, pos, h->next_t, h->off_end == INT64_MAX);
		break;
	case NEXT_OFF_BEGIN:
		rc = off_open(w, pos, h->next_t);
		break;
	case NEXT_SAMPLE: {
		const struct sched_item *x = &h->sx[h->k_sx++];
		struct sgr_event ev = { .t_ns = h->next_t, .thread = h->thread,
					.kind = (enum sg_ev_kind)x->kind, .id = (uint32_t)h->tid,
					.value = x->x };
		rc = w->ops->point(w->ctx, pos, &ev);
		break;
	}
	}
	*live = rc ? 0 : head_plan(w, h);
	return rc;
}

struct tid_pos {
	int32_t tid;
	uint32_t pos;
};

static int tid_cmp(const void *a, const void *b)
{
	const struct tid_pos *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* By time; at the same time by kind: a switch out before a switch in (a span of no length,
 * dropped), before samples. */
static int item_cmp(const void *a, const void *b)
{
	const struct sched_item *x = a, *y = b;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

/* Grows array *p of *cap elements of `size` bytes to hold n + 1. */
static int grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : 16;
	void *q = realloc(*(void **)p, c * size);
	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	*cap = c;
	return 0;
}

/* The head of the thread with OS tid `tid`, or NULL. */
static struct head *sched_head(struct walk *w, const struct tid_pos *map, size_t n_map,
			       int32_t tid)
{
	size_t lo = 0, hi = n_map;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (map[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n_map && map[lo].tid == tid ? &w->h[map[lo].pos] : NULL;
}

/* Turns a thread's switch records (kinds SWITCH_OUT, SWITCH_IN among its samples in h->sx)
 * into off-CPU spans in place, in time order: a switch out opens a span, the next switch in
 * closes it (x, aux_in); one never closed keeps x = INT64_MAX. A switch in with no span open
 * and a second switch out are dropped, as the analyzer does. */
static void sched_spans(struct head *h)
{
	size_t k = 0, open = SIZE_MAX;
	if (!h->n_sx)
		return;
	qsort(h->sx, h->n_sx, sizeof *h->sx, item_cmp);
	for (size_t i = 0; i < h->n_sx; i++) {
		struct sched_item x = h->sx[i];
		if (x.kind == SG_EV_SWITCH_OUT) {
			if (open != SIZE_MAX)
				continue;
			x.x = INT64_MAX;
			x.aux_in = SG_NO_ID;
			open = k;
		} else if (x.kind == SG_EV_SWITCH_IN) {
			if (open != SIZE_MAX) {
				h->sx[open].x = x.t_ns;
				h->sx[open].aux_in = x.aux_out;
				if (x.t_ns <= h->sx[open].t_ns)   /* out and in at the same ns */
					k = open;
				open = SIZE_MAX;
			}
			continue;
		}
		h->sx[k++] = x;
	}
	h->n_sx = k;
	if (k) {   /* give back what growing left over */
		struct sched_item *q = realloc(h->sx, k * sizeof *h->sx);
		if (q)
			h->sx = q;
	}
}

/* Reads the sched stream into each thread's off-CPU spans and samples (h->sx). The kernel's
 * switch records come CPU by CPU, drained in batches, so they are sorted here. */
static int sched_load(struct walk *w, size_t n)
{
	struct tid_pos *map = calloc(n ? n : 1, sizeof *map);
	size_t *cap = calloc(n ? n : 1, sizeof *cap), n_map = 0;
	int rc = -ENOMEM;
	if (!map || !cap)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (w->h[i].tid > 0)
			map[n_map++] = (struct tid_pos){ w->h[i].tid, (uint32_t)i };
	qsort(map, n_map, sizeof *map, tid_cmp);
	struct sgr_iter it;
	struct sgr_event ev;
	sgr_iter_init(&it, w->t, SGR_POS_SCHED);
	while (sgr_iter_next(&it, &ev)) {
		w->st->n_read++;
		w->st->n_sched_read++;
		if ((size_t)ev.kind < SG_EV_KIND_COUNT)
			w->st->n_kind[ev.kind]++;
		if (ev.kind == SG_EV_SWITCH_LOST) {
			w->st->n_sched_lost += ev.value > 0 ? (uint64_t)ev.value : 0;
			continue;
		}
		if (ev.kind != SG_EV_SWITCH_OUT && ev.kind != SG_EV_SWITCH_IN &&
		    ev.kind != SG_EV_TASK_CPU && ev.kind != SG_EV_TASK_DELAY)
			continue;
		struct head *h = sched_head(w, map, n_map, (int32_t)ev.id);
		if (!h) {
			w->st->n_sched_foreign++;
			continue;
		}
		if (grow(&h->sx, &cap[h - w->h], h->n_sx, sizeof *h->sx) < 0)
			goto out;
		/* a switch's aux goes to aux_out until sched_spans pairs them */
		h->sx[h->n_sx++] = (struct sched_item){ ev.t_ns, ev.value, (uint16_t)ev.kind, 0,
							ev.aux, 0 };
	}
	for (size_t i = 0; i < n; i++)
		sched_spans(&w->h[i]);
	rc = 0;
out:
	free(map);
	free(cap);
	return rc;
}

int export_walk(struct sgr_trace *t, const struct export_ops *ops, void *ctx, unsigned flags,
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
		w.h[i].tid = sgr_thread(t, i)->os_tid;
	}
	if (!(flags & EXPORT_NO_SCHED) && (rc = sched_load(&w, n)) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		w.h[i].has_real = real_next(&w.h[i]);
		if (head_plan(&w, &w.h[i]))
			w.heap[w.n_heap++] = i;
	}
	for (size_t i = w.n_heap / 2; i-- > 0;)
		sift_down(&w, i);
	while (w.n_heap) {
		size_t pos = w.heap[0];
		int live;
		rc = head_step(&w, pos, &live);
		if (rc)
			goto out;
		if (!live)
			w.heap[0] = w.heap[--w.n_heap];
		sift_down(&w, 0);
	}
out:
	if (w.h)
		for (size_t i = 0; i < n; i++) {
			free(w.h[i].open);
			free(w.h[i].sx);
			free(w.h[i].ahead);
		}
	free(w.h);
	free(w.heap);
	return rc;
}

const char *export_sem_result(uint32_t aux, char *buf, size_t len)
{
	switch (aux) {
	case 0: return "taken";
	case EAGAIN: return "busy";
	case ETIMEDOUT: return "timed out";
	case EINTR: return "interrupted";
	}
	snprintf(buf, len, "error %" PRIu32, aux);
	return buf;
}

void export_thread_name(const struct sgr_thread *th, char *out, size_t len)
{
	if (th->os_tid)
		snprintf(out, len, "thread %" PRIu32 " (tid %" PRId32 ")", th->index, th->os_tid);
	else
		snprintf(out, len, "thread %" PRIu32, th->index);
}
