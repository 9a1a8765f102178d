/*
 * sgt_throttle.c — function probes under overhead control (docs/tracelib.md, "Throttling and
 * the trace budget"). A function whose calls are many and short costs the program more in
 * probes than it does itself, and fills the trace: BARNES's walksub and gravsub made a 0.4 s
 * run 5.6-11x slower and wrote 1.1 GB. So each thread keeps, per function, the count of its
 * calls and the sum of exit minus entry ticks of the recorded ones (which needs no stack), and
 *
 *   - the rule (SG_THROTTLE=CALLS,USEC, default 100000,5): when a function's calls on the
 *     thread reach CALLS and their mean inclusive time is under USEC, its further calls there
 *     are counted, not recorded (FUNC_THROTTLED, aux RULE); if not, it looks again at 2x, 4x,
 *     ... the calls;
 *   - the budget (SG_TRACE_MAX, default 1G): when the thread streams of the process reach it,
 *     every thread stops recording function calls at its next call of each function
 *     (FUNC_THROTTLED, aux BUDGET), and one TRACE_BUDGET record says when.
 *
 * Sync wrappers, regions and counters never come here: they are always recorded. An unrecorded
 * call costs a count and, for the outermost unrecorded calls that are timed (the first
 * SGT_TIME_FIRST, then 1 in SGT_TIME_EVERY), two clock reads: the inclusive time of the
 * unrecorded calls is estimated from the timed ones. The exit of a
 * call whose entry was recorded is still recorded (the unrecorded ones are nested inside it),
 * so the recorded events stay balanced. Each thread writes the cumulative counts (FUNC_UNRECORDED,
 * FUNC_UNRECORDED_TIME) before its THREAD_END, and at chunk starts when they fit, so that a
 * killed process keeps most of them.
 *
 * The fast paths are in sgt_probe.c; everything here is the slow path.
 */
#include <stdlib.h>
#include <string.h>

#include "sgt_int.h"

/* Function ids above this get no state (recorded as before, never throttled): a damaged or
 * hostile descriptor must not make a thread allocate gigabytes. */
#define SGT_FN_MAX (SG_ID_LIMIT)

static void fn_init(struct sgt_fn *f, uint32_t id)
{
	memset(f, 0, sizeof *f);
	if (id == 0)
		f->lim = 0;   /* the "not registered" slot: every probe takes the slow path */
	else
		f->lim = sgt_g.throttle_calls ? sgt_g.throttle_calls : UINT64_MAX;
}

/* The state of function `id` for thread t, growing the arrays as needed; NULL when id cannot
 * have one (SG_NO_ID, beyond SGT_FN_MAX) or memory is short. */
static struct sgt_fn *fn_state(struct sgt_thread *t, uint32_t id)
{
	if (id < t->n_fns)
		return id ? &t->fns[id] : NULL;
	/* in_lib: a probe inside the allocator (a program with an instrumented malloc) while the
	 * arrays move gets no state: recorded, never throttled */
	if (id == 0 || id >= SGT_FN_MAX || t->in_lib)
		return NULL;
	uint32_t n = t->n_fns ? t->n_fns : 64;
	while (n <= id)
		n *= 2;
	t->in_lib = 1;
	struct sgt_fn *f = realloc(t->fns, (size_t)n * sizeof *f);
	struct sgt_fn_cold *c = f ? realloc(t->fn_cold, (size_t)n * sizeof *c) : NULL;
	t->in_lib = 0;
	if (f)
		t->fns = f;
	if (!f || !c)
		return NULL;   /* fns may be bigger than n_fns says: harmless, tried again */
	t->fn_cold = c;
	for (uint32_t i = t->n_fns; i < n; i++)
		fn_init(&f[i], i);
	memset(c + t->n_fns, 0, (size_t)(n - t->n_fns) * sizeof *c);
	t->n_fns = n;
	return &t->fns[id];
}

void sgt_fns_reset(struct sgt_thread *t, int free_them)
{
	if (free_them) {
		free(t->fns);
		free(t->fn_cold);
		t->fns = NULL;
		t->fn_cold = NULL;
		t->n_fns = 0;
	} else {
		/* a forked child: its trace starts afresh, so do the counts */
		for (uint32_t i = 0; i < t->n_fns; i++)
			fn_init(&t->fns[i], i);
		if (t->fn_cold)
			memset(t->fn_cold, 0, (size_t)t->n_fns * sizeof *t->fn_cold);
	}
	t->n_throttled = 0;
}

/* ns per tick of the trace's clock, from the epoch pair and one taken now. */
static double ns_per_tick(void)
{
	if (sgt_g.clock != SGF_CLOCK_TSC)
		return 1.0;
	uint64_t ticks, ns;
	sgt_clock_pair(&ticks, &ns);
	if (ticks == 0 || ns <= sgt_g.epoch_ns)
		return 1.0;
	return (double)(ns - sgt_g.epoch_ns) / (double)ticks;
}

/* The rule's look at function f, whose calls reached f->lim: throttle it (1), or look again
 * at twice the calls (0). The recorded calls still open (recursion) count up to now. */
static int rule_says_throttle(struct sgt_fn *f)
{
	uint64_t now = sgt_ticks();
	double total = (double)f->sum + (double)(uint32_t)f->depth * (double)now;
	double mean_ns = total / (double)f->n * ns_per_tick();
	if (mean_ns < (double)sgt_g.throttle_ns)
		return 1;
	f->lim = f->n > UINT64_MAX / 2 ? UINT64_MAX : 2 * f->n;
	return 0;
}

/* From now on t counts the calls of function id instead of recording them. */
static void throttle(struct sgt_thread *t, uint32_t id, struct sgt_fn *f, uint32_t reason)
{
	struct sgt_fn_cold *c = &t->fn_cold[id];
	c->reason = reason;
	c->n_rec = f->n;
	c->sum_rec = f->sum;
	c->n_said = f->n;
	f->lim = 0;
	t->n_throttled++;
	sgt_rec_kv(t, SG_EV_FUNC_THROTTLED, id, reason, (int64_t)f->n);
}

void sgt_fn_time_start(struct sgt_fn *f)
{
	f->t0 = sgt_ticks() | 1;   /* odd: never 0, which means "not timing"; a tick off */
}

void sgt_fn_time_stop(struct sgt_fn *f)
{
	f->t_timed += sgt_ticks() - f->t0;
	f->timed++;
	f->t0 = 0;
}

/* The TRACE_BUDGET record, written once per process by the first thread that gets here after
 * the budget was crossed: the one that crossed it, right after the flush that did. */
static void budget_say(struct sgt_thread *t)
{
	if (__atomic_load_n(&sgt_g.budget_said, __ATOMIC_RELAXED) ||
	    __atomic_exchange_n(&sgt_g.budget_said, 1, __ATOMIC_ACQ_REL))
		return;
	sgt_rec_kv(t, SG_EV_TRACE_BUDGET, 0, 0,
		   (int64_t)__atomic_load_n(&sgt_g.budget_bytes, __ATOMIC_RELAXED));
}

void sgt_budget_add(uint64_t len)
{
	if (!sgt_g.trace_max)
		return;
	uint64_t total = __atomic_add_fetch(&sgt_g.bytes, len, __ATOMIC_RELAXED);
	if (total < sgt_g.trace_max || sgt_g.func_stop)
		return;
	uint64_t zero = 0;
	__atomic_compare_exchange_n(&sgt_g.budget_bytes, &zero, total, 0, __ATOMIC_RELAXED,
				    __ATOMIC_RELAXED);
	__atomic_store_n(&sgt_g.func_stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sgt_g.func_fast, 0, __ATOMIC_RELEASE);
}

void sgt_func_enter_slow(struct sg_func_desc *fd)
{
	struct sgt_thread *t = sgt_self;
	uint32_t id = fd->id;
	/* the common case here: a throttled function */
	if (t && id && id < t->n_fns && t->fns[id].lim == 0 && !t->fork_reset) {
		sgt_fn_unrec_enter(&t->fns[id]);
		return;
	}
	if (!(t = sgt_me()))
		return;
	if (id == 0)
		id = sgt_registry_function(fd);
	struct sgt_fn *f = fn_state(t, id);
	if (!f) {
		sgt_rec_t(t, SG_EV_FUNC_ENTER, id, 0);
		return;
	}
	/* room first: the flush that makes it may be the one that spends the budget */
	if (f->lim != 0 && t->pos == t->end && !(t = sgt_slow(1)))
		return;
	if (f->lim != 0 && sgt_g.func_stop) {
		budget_say(t);
		throttle(t, id, f, SG_THROTTLE_BUDGET);
	} else if (f->lim != 0 && f->n >= f->lim && rule_says_throttle(f)) {
		throttle(t, id, f, SG_THROTTLE_RULE);
	}
	if (f->lim == 0) {
		sgt_fn_unrec_enter(f);
		return;
	}
	if (t->pos == t->end && !(t = sgt_slow(1)))
		return;
	uint64_t ticks = sgt_ticks();
	sgt_rec_put(t, t->pos, ticks, SG_EV_FUNC_ENTER, id, 0);
	f->n++;
	f->sum -= (int64_t)ticks;
	f->depth++;
}

void sgt_func_exit_slow(struct sg_func_desc *fd)
{
	struct sgt_thread *t = sgt_self;
	uint32_t id = fd->id;
	if (t && id && id < t->n_fns && (t->fns[id].depth >> 32) && !t->fork_reset) {
		sgt_fn_unrec_exit(&t->fns[id]);
		return;
	}
	if (!(t = sgt_me()))
		return;
	if (id == 0)
		id = sgt_registry_function(fd);
	struct sgt_fn *f = fn_state(t, id);
	if (f && (f->depth >> 32)) {
		sgt_fn_unrec_exit(f);
		return;
	}
	if (t->pos == t->end && !(t = sgt_slow(1)))
		return;
	uint64_t ticks = sgt_ticks();
	sgt_rec_put(t, t->pos, ticks, SG_EV_FUNC_EXIT, id, 0);
	/* an exit without a recorded entry (recording was paused around it) leaves the sum */
	if (f && (uint32_t)f->depth) {
		f->sum += (int64_t)ticks;
		f->depth--;
	}
}

/* Estimated inclusive ticks of function id's unrecorded calls on t: the timed ones scaled to
 * all outermost ones (nested unrecorded calls of it are inside those, not counted twice); before
 * any was timed, the mean of the recorded calls. */
static uint64_t unrec_ticks(const struct sgt_thread *t, uint32_t id)
{
	const struct sgt_fn *f = &t->fns[id];
	const struct sgt_fn_cold *c = &t->fn_cold[id];
	if (f->timed)
		return (uint64_t)((double)f->t_timed * (double)f->outer / (double)f->timed);
	if (c->n_rec && c->sum_rec > 0)
		return (uint64_t)((double)c->sum_rec / (double)c->n_rec * (double)f->outer);
	return 0;
}

void sgt_throttle_notes(struct sgt_thread *t, int all)
{
	if (t->in_notes || sgt_self != t)
		return;
	t->in_notes = 1;
	if (sgt_g.func_stop && !sgt_g.budget_said && t->end - t->pos >= 8)
		budget_say(t);
	if (t->n_throttled) {
		/* after a flush: all or none, and only when they take at most an eighth of what is
		 * left, so that a tiny buffer is not filled with notes chunk after chunk */
		size_t need = 0;
		for (uint32_t id = 1; id < t->n_fns; id++)
			if (t->fn_cold[id].reason && t->fns[id].n != t->fn_cold[id].n_said)
				need += 4;
		if (all || (need && need * 8 <= (size_t)(t->end - t->pos))) {
			for (uint32_t id = 1; id < t->n_fns && sgt_self == t; id++) {
				struct sgt_fn_cold *c = &t->fn_cold[id];
				if (!c->reason || (!all && t->fns[id].n == c->n_said))
					continue;
				uint64_t n = t->fns[id].n;
				sgt_rec_kv(t, SG_EV_FUNC_UNRECORDED, id, 0, (int64_t)(n - c->n_rec));
				sgt_rec_kv(t, SG_EV_FUNC_UNRECORDED_TIME, id, 0,
					   (int64_t)unrec_ticks(t, id));
				c->n_said = n;
			}
		}
	}
	t->in_notes = 0;
}
