/*
 * dump.c — `scalegraph dump TRACE`: prints every event of a trace as one line of text,
 *   t_ns thread event object-or-name
 * merged across threads in time order, then a summary (threads, call sites, throttled functions,
 * events per kind, lost events, damaged chunks, streams cut short) and the problems the reader found. The
 * `otf2-print` of scalegraph traces, for people and tests.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgtrace_read.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: scalegraph dump [--summary] [--no-verify] [--strict] TRACE-DIR\n\n"
		   "Prints every event of a trace, one per line in time order:\n"
		   "  t_ns thread event object-or-name\n"
		   "(t_ns: ns since the trace's epoch), then a summary: threads, call sites of\n"
		   "sync calls (sync_site: where the waits after it were written), events per kind,\n"
		   "lost events, damaged chunks. Damage is reported as FILE: chunk K: reason, and\n"
		   "everything readable is still printed. A trace root (SG_TRACE_DIR) holds one\n"
		   "directory per process, proc.<pid>/: dump reads the main one (the first started\n"
		   "whose parent is not traced there) and lists the others; give a process's own\n"
		   "directory to dump that one. The sched stream (context switches, CPU time and\n"
		   "run delay samples) is printed with thread column \"sched\".\n\n"
		   "  --summary    print only the summary\n"
		   "  --no-verify  skip payload checksums\n"
		   "  --strict     exit with status 3 when the reader found any problem\n\n"
		   "exit status: 0 read, 1 the trace cannot be opened, 2 usage error,\n"
		   "3 read with problems (only with --strict)\n");
}

/* "barrier#3" — the object's kind and id, or "#3?" when undefined. */
static void object_name(struct sgr_trace *t, uint32_t id, char *out, size_t len)
{
	const struct sgr_object *o = sgr_object(t, id);
	if (id == SG_NO_ID)
		snprintf(out, len, "unknown");
	else if (o)
		snprintf(out, len, "%s#%" PRIu32, sg_obj_kind_name(o->kind), id);
	else
		snprintf(out, len, "object#%" PRIu32 "(undefined)", id);
}

static void thread_name(uint32_t id, char *out, size_t len)
{
	if (id == SG_NO_ID)
		snprintf(out, len, "thread ?");
	else
		snprintf(out, len, "thread %" PRIu32, id);
}

/* "site=3 lu.c:412 in daxpy_sweep" (no " in ..." for a call in a macro body), "site=none" for
 * a wait whose site is not known, "site=3(undefined)". */
static void site_name(struct sgr_trace *t, uint32_t id, char *out, size_t len)
{
	const struct sgr_site *s = sgr_site(t, id);
	if (id == SG_NO_ID)
		snprintf(out, len, "site=none");
	else if (!s)
		snprintf(out, len, "site=%" PRIu32 "(undefined)", id);
	else if (s->line <= 0)   /* not resolved (format 1.6): "prog+0x1a2b in (not resolved: ...)" */
		snprintf(out, len, "site=%" PRIu32 " %s%s%s", id, s->file, *s->func ? " in " : "",
			 s->func);
	else
		snprintf(out, len, "site=%" PRIu32 " %s:%d%s%s", id, s->file, s->line,
			 *s->func ? " in " : "", s->func);
}

/* The object-or-name column of one event. */
static void describe(struct sgr_trace *t, const struct sgr_event *e, char *out, size_t len)
{
	char a[96], b[96];
	switch (e->kind) {
	case SG_EV_THREAD_BEGIN:
		if (e->aux == SG_NO_ID)
			snprintf(b, sizeof b, "-");
		else
			snprintf(b, sizeof b, "%" PRIu32, e->aux);
		snprintf(out, len, "thread %" PRIu32 " parent %s", e->id, b);
		return;
	case SG_EV_THREAD_END:
		snprintf(out, len, "thread %" PRIu32, e->id);
		return;
	case SG_EV_FUNC_ENTER:
	case SG_EV_FUNC_EXIT: {
		const struct sgr_function *f = sgr_function(t, e->id);
		if (f)
			snprintf(out, len, "%s (%s:%d)", f->name, f->file, f->line);
		else
			snprintf(out, len, "function#%" PRIu32 "(undefined)", e->id);
		return;
	}
	case SG_EV_REGION_BEGIN:
	case SG_EV_REGION_END: {
		const struct sgr_region *r = sgr_region(t, e->id);
		if (r)
			snprintf(out, len, "%s", r->name);
		else
			snprintf(out, len, "region#%" PRIu32 "(undefined)", e->id);
		return;
	}
	case SG_EV_BARRIER_ARRIVE:
	case SG_EV_BARRIER_LEAVE:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s episode %" PRIu32, a, e->aux);
		return;
	case SG_EV_LOCK_REQUEST:
	case SG_EV_LOCK_ACQUIRED:
	case SG_EV_LOCK_FAILED:
	case SG_EV_LOCK_RELEASE:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s %s%s", a, sg_lock_mode_name(e->aux),
			 e->aux & SG_LOCK_TRY ? " try" : "");
		return;
	case SG_EV_COND_WAIT_BEGIN:
		object_name(t, e->id, a, sizeof a);
		object_name(t, e->aux, b, sizeof b);
		snprintf(out, len, "%s %s", a, b);
		return;
	case SG_EV_COND_WAIT_END:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s rc=%" PRIu32, a, e->aux);
		return;
	case SG_EV_COND_SIGNAL:
	case SG_EV_COND_BROADCAST:
		object_name(t, e->id, out, len);
		return;
	case SG_EV_CREATE_BEGIN:
		snprintf(out, len, "-");
		return;
	case SG_EV_CREATE_END:
	case SG_EV_JOIN_END:
		thread_name(e->id, a, sizeof a);
		snprintf(out, len, "%s rc=%" PRIu32, a, e->aux);
		return;
	case SG_EV_JOIN_BEGIN:
		thread_name(e->id, out, len);
		return;
	case SG_EV_SEM_WAIT_BEGIN:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s%s", a, e->aux == SG_SEM_TRY ? " try" :
			 e->aux == SG_SEM_TIMED ? " timed" : "");
		return;
	case SG_EV_SEM_WAIT_END:
	case SG_EV_SEM_POST:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s rc=%" PRIu32, a, e->aux);
		return;
	case SG_EV_SEM_INIT:
		object_name(t, e->id, a, sizeof a);
		snprintf(out, len, "%s value=%" PRIu32, a, e->aux);
		return;
	case SG_EV_SWITCH_OUT:
	case SG_EV_SWITCH_IN:
		snprintf(out, len, "tid %" PRIu32 " cpu %" PRIu32 "%s", e->id, SG_SWITCH_CPU(e->aux),
			 e->aux & SG_SWITCH_PREEMPTED ? " preempted" :
			 e->kind == SG_EV_SWITCH_OUT ? " blocked" : "");
		return;
	case SG_EV_TASK_CPU:
	case SG_EV_TASK_DELAY:
		snprintf(out, len, "tid %" PRIu32 " %" PRId64 " ns", e->id, e->value);
		return;
	case SG_EV_SWITCH_LOST:
		snprintf(out, len, "%" PRId64 " records", e->value);
		return;
	case SG_EV_FUNC_THROTTLED:
	case SG_EV_FUNC_UNRECORDED:
	case SG_EV_FUNC_UNRECORDED_TIME: {
		const struct sgr_function *f = sgr_function(t, e->id);
		if (f)
			snprintf(a, sizeof a, "%s", f->name);
		else
			snprintf(a, sizeof a, "function#%" PRIu32 "(undefined)", e->id);
		if (e->kind == SG_EV_FUNC_THROTTLED)
			snprintf(out, len, "fn=%s reason=%s calls=%" PRId64, a,
				 e->aux == SG_THROTTLE_RULE ? "rule" :
				 e->aux == SG_THROTTLE_BUDGET ? "budget" : "?", e->value);
		else if (e->kind == SG_EV_FUNC_UNRECORDED)
			snprintf(out, len, "fn=%s calls=%" PRId64, a, e->value);
		else   /* ticks of the trace's clock, and in ns */
			snprintf(out, len, "fn=%s ticks=%" PRId64 " ns=%.0f", a, e->value,
				 (double)e->value * sgr_info(t)->ns_per_tick);
		return;
	}
	case SG_EV_TRACE_BUDGET:
		snprintf(out, len, "bytes=%" PRId64, e->value);
		return;
	case SG_EV_SYNC_SITE:
		site_name(t, e->id, out, len);
		return;
	case SG_EV_COUNTER: {
		const struct sgr_counter *c = sgr_counter(t, e->id);
		if (c)
			snprintf(out, len, "%s=%" PRId64 "%s%s", c->name, e->value,
				 *c->unit ? " " : "", c->unit);
		else
			snprintf(out, len, "counter#%" PRIu32 "(undefined)=%" PRId64, e->id,
				 e->value);
		return;
	}
	default:
		snprintf(out, len, "id=%" PRIu32 " aux=%" PRIu32, e->id, e->aux);
		return;
	}
}

/* The throttled functions of the trace, per thread: what func_throttled, func_unrecorded and
 * func_unrecorded_time say (the last of each counts), for the summary. */
struct throttled {
	uint32_t thread, fn, reason;
	int64_t n_rec, unrec, ticks;
};
static struct throttled *thr;
static size_t n_thr, cap_thr;

static void throttled_note(uint32_t thread, enum sg_ev_kind kind, uint32_t fn, uint32_t aux,
			   int64_t value)
{
	if (kind != SG_EV_FUNC_THROTTLED && kind != SG_EV_FUNC_UNRECORDED &&
	    kind != SG_EV_FUNC_UNRECORDED_TIME)
		return;
	size_t i = 0;
	while (i < n_thr && (thr[i].thread != thread || thr[i].fn != fn))
		i++;
	if (i == n_thr) {
		if (n_thr == cap_thr) {
			size_t nc = cap_thr ? 2 * cap_thr : 16;
			struct throttled *q = realloc(thr, nc * sizeof *q);
			if (!q)
				return;   /* the events themselves are printed; only the summary lacks it */
			thr = q;
			cap_thr = nc;
		}
		thr[n_thr++] = (struct throttled){ thread, fn, 0, 0, 0, 0 };
	}
	if (kind == SG_EV_FUNC_THROTTLED) {
		thr[i].reason = aux;
		thr[i].n_rec = value;
	} else if (kind == SG_EV_FUNC_UNRECORDED) {
		thr[i].unrec = value;
	} else {
		thr[i].ticks = value;
	}
}

static int throttled_cmp(const void *a, const void *b)
{
	const struct throttled *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return (x->fn > y->fn) - (x->fn < y->fn);
}

/* "throttled functions: N", then per thread and function what was recorded and counted. */
static void throttled_print(struct sgr_trace *t)
{
	if (!n_thr)
		return;
	qsort(thr, n_thr, sizeof *thr, throttled_cmp);
	printf("throttled functions: %zu (calls counted, not recorded)\n", n_thr);
	for (size_t i = 0; i < n_thr; i++) {
		const struct sgr_function *f = sgr_function(t, thr[i].fn);
		char name[96];
		if (f)
			snprintf(name, sizeof name, "%s", f->name);
		else
			snprintf(name, sizeof name, "function#%" PRIu32 "(undefined)", thr[i].fn);
		printf("  thread %" PRIu32 ": %s: %s after %" PRId64 " recorded calls; %" PRId64
		       " unrecorded, %.3f ms estimated\n", thr[i].thread, name,
		       thr[i].reason == SG_THROTTLE_RULE ? "rule" :
		       thr[i].reason == SG_THROTTLE_BUDGET ? "budget" : "?", thr[i].n_rec,
		       thr[i].unrec, (double)thr[i].ticks * sgr_info(t)->ns_per_tick / 1e6);
	}
}

struct head {
	struct sgr_iter it;
	struct sgr_event ev;
	int live;
	struct sgr_event *buf;     /* the sched stream, read whole and sorted by time: its records
				      come ring by ring, CPU after CPU */
	size_t n_buf, at;
};

/* By time, then by position in the stream (kept in `ticks` while sorting). */
static int ev_time_cmp(const void *a, const void *b)
{
	const struct sgr_event *x = a, *y = b;
	if (x->t_ns != y->t_ns)
		return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
	return (x->ticks > y->ticks) - (x->ticks < y->ticks);
}

/* The next event of head h. */
static int head_next(struct head *h)
{
	if (!h->buf)
		return h->live = sgr_iter_next(&h->it, &h->ev);
	if (h->at == h->n_buf)
		return h->live = 0;
	h->ev = h->buf[h->at++];
	return h->live = 1;
}

/* Reads the sched stream into h, sorted by time (a stable sort: one thread's records keep their
 * order). */
static void sched_head(struct sgr_trace *t, struct head *h)
{
	size_t cap = 0;
	struct sgr_event ev;
	sgr_iter_init(&h->it, t, SGR_POS_SCHED);
	while (sgr_iter_next(&h->it, &ev)) {
		if (h->n_buf == cap) {
			size_t nc = cap ? 2 * cap : 1024;
			struct sgr_event *q = realloc(h->buf, nc * sizeof *q);
			if (!q) {
				fprintf(stderr, "scalegraph-dump: warning: out of memory: the sched "
					"stream is printed up to record %zu only\n", h->n_buf);
				break;
			}
			h->buf = q;
			cap = nc;
		}
		h->buf[h->n_buf] = ev;
		h->buf[h->n_buf].ticks = h->n_buf;
		h->n_buf++;
	}
	if (h->n_buf)   /* qsort of a NULL base is undefined even for no element (UBSan) */
		qsort(h->buf, h->n_buf, sizeof *h->buf, ev_time_cmp);
	for (size_t i = 0; i < h->n_buf; i++)
		h->buf[i].ticks = (uint64_t)h->buf[i].t_ns;
	if (!h->buf)
		h->buf = malloc(1);   /* an empty stream still reads from the buffer */
}

/* Is head a before head b: by time, ties to the lower position (the sched stream, last, after
 * every thread)? The order the dump has always printed in. */
static int head_before(const struct head *h, size_t a, size_t b)
{
	if (h[a].ev.t_ns != h[b].ev.t_ns)
		return h[a].ev.t_ns < h[b].ev.t_ns;
	return a < b;
}

/* A binary min-heap of head positions: the next event of all threads in O(log threads), where
 * a scan over every thread per event took 279 s for 100 M events of 1024 threads. */
static void heap_down(const struct head *h, size_t *heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && head_before(h, heap[l], heap[m]))
			m = l;
		if (l + 1 < n && head_before(h, heap[l + 1], heap[m]))
			m = l + 1;
		if (m == i)
			return;
		size_t x = heap[i];
		heap[i] = heap[m];
		heap[m] = x;
		i = m;
	}
}

static void print_event(struct sgr_trace *t, const struct sgr_event *e)
{
	char desc[512];
	describe(t, e, desc, sizeof desc);
	if (e->thread == SGF_SCHED_THREAD)
		printf("%" PRId64 " sched %s %s\n", e->t_ns, sg_ev_kind_name(e->kind), desc);
	else
		printf("%" PRId64 " %" PRIu32 " %s %s\n", e->t_ns, e->thread,
		       sg_ev_kind_name(e->kind), desc);
}

/* Prints all events, merged in time order (ties: lower thread position first, the sched
 * stream last). */
static int print_events(struct sgr_trace *t, uint64_t *per_kind, size_t n_kinds)
{
	size_t n = sgr_n_threads(t) + 1;
	struct head *h = calloc(n, sizeof *h);
	size_t *heap = calloc(n, sizeof *heap);
	if (!h || !heap) {
		free(h);
		free(heap);
		fprintf(stderr, "scalegraph-dump: error: out of memory\n");
		return -1;
	}
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n)
			sgr_iter_init(&h[i].it, t, i);
		else
			sched_head(t, &h[i]);
		if (head_next(&h[i]))
			heap[nh++] = i;
	}
	for (size_t i = nh / 2; i-- > 0;)
		heap_down(h, heap, nh, i);
	while (nh) {
		struct head *b = &h[heap[0]];
		print_event(t, &b->ev);
		per_kind[(size_t)b->ev.kind < n_kinds ? (size_t)b->ev.kind : 0]++;
		throttled_note(b->ev.thread, b->ev.kind, b->ev.id, b->ev.aux, b->ev.value);
		if (!head_next(b))
			heap[0] = heap[--nh];
		heap_down(h, heap, nh, 0);
	}
	free(h[n - 1].buf);
	free(h);
	free(heap);
	return 0;
}

/* Counts the events per kind, as print_events would print them, without merging or decoding:
 * every record but a value (which belongs to the record before it, or is dropped). */
static void count_events(struct sgr_trace *t, uint64_t *per_kind, size_t n_kinds)
{
	size_t n = sgr_n_threads(t);
	for (size_t i = 0; i <= n; i++) {
		struct sgr_cursor c;
		struct sgr_span sp;
		sgr_cursor_init(&c, t, i < n ? i : SGR_POS_SCHED);
		while (sgr_cursor_next(&c, &sp))
			for (size_t k = 0; k < sp.n; k++) {
				const struct sg_event_rec *r = &sp.recs[k];
				size_t kind = (size_t)sg_rec_kind(r);
				if (kind != SG_EV_VALUE)
					per_kind[kind < n_kinds ? kind : 0]++;
				/* a value belongs to the record before it, in the same chunk */
				if (i < n && k + 1 < sp.n && sg_rec_kind(r + 1) == SG_EV_VALUE)
					throttled_note(sgr_thread(t, i)->index, (enum sg_ev_kind)kind,
						       sg_rec_id(r), sg_rec_aux(r),
						       (int64_t)r[1].w1);
			}
	}
}

static void print_summary(struct sgr_trace *t, const uint64_t *per_kind, const char *dir)
{
	const struct sgr_info *in = sgr_info(t);
	size_t n = sgr_n_threads(t);
	uint64_t total = 0, lost = 0, damaged = 0, cut = 0, unknown = 0;
	for (size_t k = 0; k < SG_EV_KIND_COUNT + 1; k++)
		total += per_kind[k];
	printf("# summary of %s\n", dir);
	printf("pid %" PRIu32, in->pid);
	if (in->parent_pid == in->pid)
		printf(" (executed by the traced image before it)");
	else if (in->parent_pid)
		printf(" (child of %" PRIu32 ")", in->parent_pid);
	printf(", clock %s", in->clock == SGF_CLOCK_TSC ? "tsc" : "ns");
	if (in->clock == SGF_CLOCK_TSC)
		printf(" (%.6f ns/tick from %" PRIu32 " clock pairs)", in->ns_per_tick,
		       in->n_clock_pairs);
	printf("\n");
	for (size_t i = 0; i < n; i++) {
		const struct sgr_thread *th = sgr_thread(t, i);
		lost += th->lost;
		unknown += th->lost_unknown != 0;
		damaged += th->n_damaged;
		cut += th->readable && !th->complete;
		char parent[16] = "-", lbuf[96];
		if (th->parent != SG_NO_ID)
			snprintf(parent, sizeof parent, "%" PRIu32, th->parent);
		/* without a trailer nobody counted what the thread lost after its last chunk */
		if (!th->lost_unknown)
			snprintf(lbuf, sizeof lbuf, "%" PRIu64 " lost", th->lost);
		else if (!th->readable)
			snprintf(lbuf, sizeof lbuf, "lost: unknown (no trailer: the stream is "
				 "unreadable)%s", th->lost ? ", at least " : "");
		else
			snprintf(lbuf, sizeof lbuf, "lost: unknown (no trailer: the writer was "
				 "killed)%s", th->lost ? ", at least " : "");
		if (th->lost_unknown && th->lost)
			snprintf(lbuf + strlen(lbuf), sizeof lbuf - strlen(lbuf), "%" PRIu64,
				 th->lost);
		printf("thread %" PRIu32 ": parent %s, tid %" PRId32 ", %" PRIu64 " records in %"
		       PRIu64 " chunks, %s, %" PRIu64 " damaged chunks, %s\n",
		       th->index, parent, th->os_tid, th->n_recs, th->n_chunks, lbuf, th->n_damaged,
		       !th->readable ? "unreadable" : th->complete ? "complete" : "cut short");
		if (th->write_errno)   /* what the writer's open buffer said (sgr_status.c) */
			printf("  thread %" PRIu32 ": write error: %s\n", th->index,
			       strerror(th->write_errno));
		if (th->n_recovered)
			printf("  thread %" PRIu32 ": %" PRIu64 " records recovered from the killed "
			       "writer's buffer\n", th->index, th->n_recovered);
		if (th->n_out_of_order)
			printf("  thread %" PRIu32 ": %" PRIu64 " records out of time order, left "
			       "out\n", th->index, th->n_out_of_order);
	}
	char ltot[96];
	if (unknown)
		snprintf(ltot, sizeof ltot, "lost unknown (%" PRIu64 " counted; %" PRIu64
			 " stream%s without a trailer)", lost, unknown, unknown == 1 ? "" : "s");
	else
		snprintf(ltot, sizeof ltot, "lost %" PRIu64, lost);
	printf("threads %zu, events %" PRIu64 ", %s, damaged chunks %" PRIu64
	       ", streams cut short %" PRIu64 "\n", n, total, ltot, damaged, cut);
	const struct sgr_sched *sc = sgr_sched(t);
	if (!sc->defined)
		printf("sched: not recorded (a trace of format 1.1)\n");
	else if (sc->unavailable)
		printf("sched: switch records unavailable: %s\n", sc->text);
	else
		printf("sched: %s; %" PRIu64 " records%s\n", sc->text, sc->n_recs,
		       !sc->present ? ", sched.sgs missing" : sc->complete ? "" : ", cut short");
	if (sc->write_errno)
		printf("  sched: write error: %s\n", strerror(sc->write_errno));
	if (in->stopped)
		printf("tracing stopped at %.3f ms, before the process ended: %s failed (%s)\n",
		       (double)in->stopped_ns / 1e6, in->stopped, strerror(in->stopped_errno));
	if (in->counters_off)
		printf("counters: unavailable: %s\n", in->counters_off);
	for (size_t i = 0; i < sgr_n_counters(t); i++) {
		const struct sgr_counter *c = sgr_counter_at(t, i);
		printf("counter %" PRIu32 ": %s [%s]%s%s\n", c->id, c->name, c->unit,
		       c->unavailable ? " unavailable: " : "", c->unavailable ? c->unavailable : "");
	}
	for (size_t i = 0; i < sgr_n_sites(t); i++) {
		const struct sgr_site *st = sgr_site_at(t, i);
		char name[1024];
		site_name(t, st->id, name, sizeof name);
		printf("site %" PRIu32 ": %s\n", st->id, name + strcspn(name, " ") + 1);
	}
	throttled_print(t);
	printf("events per kind:\n");
	for (size_t k = 1; k < SG_EV_KIND_COUNT; k++)
		if (per_kind[k])
			printf("  %-20s %" PRIu64 "\n", sg_ev_kind_name((enum sg_ev_kind)k),
			       per_kind[k]);
	size_t np = sgr_n_problems(t);
	printf("problems: %zu\n", np);
	for (size_t i = 0; i < np; i++)
		printf("  %s/%s\n", dir, sgr_problem(t, i));
}

/* Lists the other processes of the trace, which are read separately. */
static void print_processes(struct sgr_trace *t)
{
	size_t n = sgr_n_processes(t);
	if (n < 2)
		return;
	printf("processes: %zu (this summary is of pid %" PRIu32 "; dump another by its "
	       "directory)\n", n, sgr_info(t)->pid);
	for (size_t i = 0; i < n; i++) {
		const struct sgr_process *p = sgr_process(t, i);
		char parent[48] = "not traced here";
		if (p->parent_pid == p->pid)
			snprintf(parent, sizeof parent, "its earlier image (exec)");
		else if (p->parent_pid)
			snprintf(parent, sizeof parent, "%" PRIu32, p->parent_pid);
		printf("  pid %" PRIu32 ", parent %s: %s%s\n", p->pid, parent, p->dir,
		       p->read ? " (this one)" : "");
	}
}

int main(int argc, char **argv)
{
	int summary_only = 0, strict = 0;
	unsigned flags = 0;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--summary")) {
			summary_only = 1;
		} else if (!strcmp(argv[i], "--strict")) {
			strict = 1;
		} else if (!strcmp(argv[i], "--no-verify")) {
			flags |= SGR_NO_VERIFY;
		} else if (argv[i][0] == '-' || dir) {
			fprintf(stderr, "scalegraph-dump: error: unexpected argument '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		fprintf(stderr, "scalegraph-dump: error: no trace directory given\n");
		usage(stderr);
		return 2;
	}
	struct sgr_trace *t;
	char err[1024];
	if (sgr_open(dir, flags, &t, err, sizeof err) < 0) {
		fprintf(stderr, "scalegraph-dump: error: %s\n", err);
		return 1;
	}
	uint64_t per_kind[SG_EV_KIND_COUNT + 1] = { 0 };
	if (summary_only)
		count_events(t, per_kind, SG_EV_KIND_COUNT);
	else if (print_events(t, per_kind, SG_EV_KIND_COUNT) < 0) {
		sgr_close(t);
		return 1;
	}
	size_t np = sgr_n_problems(t);
	const char *pdir = sgr_dir(t);
	for (size_t i = 0; i < np; i++)
		fprintf(stderr, "%s/%s\n", pdir, sgr_problem(t, i));
	print_summary(t, per_kind, pdir);
	print_processes(t);
	free(thr);
	sgr_close(t);
	return strict && np ? 3 : 0;
}
