/*
 * an_source.c — the analyzer's one adapter to the trace reader (tracelib/sgtrace_read.h):
 * opening, the id maps (every id space of the definitions as dense indexes: the tables of a run
 * are sized by what the trace defines, not by the ids records carry), definitions by id, the
 * function profile's names, and the counters a run's figures need (found by name, with the
 * reason when a counter is unavailable). When the reader grows, only this file should need to
 * follow.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

uint32_t an_idmap_search(const struct an_idmap *m, uint32_t id)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->raw[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->raw[lo] == id ? (uint32_t)lo : AN_NO_IDX;
}

static void idmap_free(struct an_idmap *m)
{
	free(m->raw);
	free(m->direct);
	memset(m, 0, sizeof *m);
}

/* The map of n ids got by id_at(t, i) (any order, repeats allowed: a definition written twice).
 * The direct table covers ids up to a few times the count, so that the usual ids 1..n are one
 * load, and a sparse or huge id costs a binary search, not memory. 0 or -ENOMEM. */
static int idmap_make(struct an_idmap *m, const struct sgr_trace *t, size_t n,
		      uint32_t (*id_at)(const struct sgr_trace *t, size_t i))
{
	memset(m, 0, sizeof *m);
	m->raw = malloc((n ? n : 1) * sizeof *m->raw);
	if (!m->raw)
		return -ENOMEM;
	int sorted = 1;
	for (size_t i = 0; i < n; i++) {
		m->raw[i] = id_at(t, i);
		sorted &= i == 0 || m->raw[i - 1] <= m->raw[i];
	}
	if (!sorted)
		qsort(m->raw, n, sizeof *m->raw, u32_cmp);
	uint32_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (m->raw[i] != SG_NO_ID && (k == 0 || m->raw[i] != m->raw[k - 1]))
			m->raw[k++] = m->raw[i];
	m->n = k;
	uint64_t cover = k ? (uint64_t)m->raw[k - 1] + 1 : 0;
	if (cover > 4 * (uint64_t)k + 256)
		cover = 4 * (uint64_t)k + 256;
	m->direct = calloc(cover ? cover : 1, sizeof *m->direct);
	if (!m->direct)
		return -ENOMEM;
	m->n_direct = (uint32_t)cover;
	for (uint32_t i = 0; i < k && m->raw[i] < cover; i++)
		m->direct[m->raw[i]] = i + 1;
	return 0;
}

static uint32_t func_id_at(const struct sgr_trace *t, size_t i) { return sgr_function_at(t, i)->id; }
static uint32_t obj_id_at(const struct sgr_trace *t, size_t i) { return sgr_object_at(t, i)->id; }
static uint32_t ctr_id_at(const struct sgr_trace *t, size_t i) { return sgr_counter_at(t, i)->id; }
static uint32_t reg_id_at(const struct sgr_trace *t, size_t i) { return sgr_region_at(t, i)->id; }

void an_source_close(struct an_run *r)
{
	idmap_free(&r->fmap);
	idmap_free(&r->omap);
	idmap_free(&r->cmap);
	idmap_free(&r->rmap);
	free(r->fsum);
	free(r->fs_scratch);
	r->fsum = r->fs_scratch = NULL;
	if (r->tr)
		sgr_close(r->tr);
	r->tr = NULL;
}

int an_source_open(struct an_run *r, char *err, size_t errlen)
{
	/* the streams' pages are dropped after the open's walk and after each pass reads a
	 * stream (an_run.c, an_budget.c): the trace is mapped, and its pages counted as this
	 * process's memory, one stream at a time instead of whole (1.6 GB beside the analysis's
	 * own memory for 100 M events) */
	unsigned fl = ((r->opts.flags & AN_NO_VERIFY) ? SGR_NO_VERIFY : 0) | SGR_RELEASE;
	int rc = sgr_open(r->dir, fl, &r->tr, err, errlen);
	if (rc < 0)
		goto out;
	r->info = sgr_info(r->tr);
	r->n_threads = sgr_n_threads(r->tr);
	const struct sgr_trace *t = r->tr;
	if (idmap_make(&r->fmap, t, sgr_n_functions(t), func_id_at) < 0 ||
	    idmap_make(&r->omap, t, sgr_n_objects(t), obj_id_at) < 0 ||
	    idmap_make(&r->cmap, t, sgr_n_counters(t), ctr_id_at) < 0 ||
	    idmap_make(&r->rmap, t, sgr_n_regions(t), reg_id_at) < 0 ||
	    !(r->fsum = calloc(r->fmap.n + 1, sizeof *r->fsum)) ||
	    !(r->fs_scratch = calloc((size_t)r->fmap.n_direct + r->fmap.n + 2,
				     sizeof *r->fs_scratch))) {
		snprintf(err, errlen, "%s: out of memory for the tables of %zu functions, %zu "
			 "objects and %zu counters", r->dir, sgr_n_functions(t), sgr_n_objects(t),
			 sgr_n_counters(t));
		rc = -ENOMEM;
		goto out;
	}
	/* a trace root of several processes: say which one the figures are for */
	size_t np = sgr_n_processes(r->tr);
	for (size_t i = 0; np > 1 && i < np; i++) {
		const struct sgr_process *p = sgr_process(r->tr, i);
		if (p->read)
			an_run_note_add(r, "process %u of the %zu in this trace (%s): the figures are "
					"its own; report another by its directory", p->pid, np, p->dir);
		else if (p->parent_pid)
			an_run_note_add(r, "also traced: process %u, child of %u (%s)", p->pid,
					p->parent_pid, p->dir);
		else
			an_run_note_add(r, "also traced: process %u (%s)", p->pid, p->dir);
	}
	if (r->n_threads == 0) {
		snprintf(err, errlen, "%s: the trace has no thread (zero threads: nothing to analyze)",
			 r->dir);
		rc = -ENODATA;
	}
out:
	return rc;
}

/* Copies the reader's problem lines into the run (after the scan checked every payload), and
 * the records the scan skipped. */
void an_source_problems(struct an_run *r)
{
	size_t n = sgr_n_problems(r->tr);
	for (size_t i = 0; i < n; i++)
		an_run_problem_add(r, "%s/%s", r->dir, sgr_problem(r->tr, i));
	if (r->unknown_ids)
		an_run_problem_add(r, "%s: %llu record(s) name an id the definitions (defs.sgd) do "
				   "not declare, first %s: damaged trace; skipped", r->dir,
				   (unsigned long long)r->unknown_ids, r->unknown_first);
	if (r->bad_episodes)
		an_run_problem_add(r, "%s: %llu barrier wait(s) with an episode number far beyond the "
				   "barrier's count of waits: damaged trace; left out of the barrier "
				   "join", r->dir, (unsigned long long)r->bad_episodes);
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct sgr_thread *t = sgr_thread(r->tr, i);
		if (t->lost)
			an_run_problem_add(r, "%s/%s: %llu events were lost while recording", r->dir,
					   t->file, (unsigned long long)t->lost);
	}
}

const char *an_source_obj_kind(const struct an_run *r, uint32_t id)
{
	const struct sgr_object *o = sgr_object(r->tr, id);
	return o ? sg_obj_kind_name(o->kind) : "?";
}

const char *an_source_region_name(const struct an_run *r, uint32_t id)
{
	const struct sgr_region *g = sgr_region(r->tr, id);
	return g ? g->name : "?";
}

static int func_cmp(const void *a, const void *b)
{
	const struct an_func *x = a, *y = b;
	if (x->excl_ns != y->excl_ns)
		return x->excl_ns < y->excl_ns ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The counted calls of every thread into per-function sums (by function index): calls, ticks,
 * and the first thread that stopped recording the function (earliest FUNC_THROTTLED). */
struct unrec_sum {
	uint64_t calls, ticks, thr_t, thr_calls;
	unsigned why;
	int n_thr;
};

static void unrec_fold(const struct an_run *r, struct unrec_sum *u)
{
	for (size_t f = 0; f < r->fmap.n; f++)
		u[f].thr_t = UINT64_MAX;
	for (size_t i = 0; i < r->n_threads; i++)
		for (size_t k = 0; k < r->ts[i].n_unrec; k++) {
			const struct an_unrec *x = &r->ts[i].unrec[k];
			struct unrec_sum *y = &u[x->func];
			if (x->calls > x->calls0)
				y->calls += x->calls - x->calls0;
			if (x->ticks > x->ticks0)
				y->ticks += x->ticks - x->ticks0;
			if (x->thr_t == UINT64_MAX)
				continue;
			y->n_thr++;
			if (x->thr_t < y->thr_t)
				y->thr_t = x->thr_t, y->thr_calls = x->thr_calls, y->why = x->why;
		}
}

/* The function profile from the passes' sums (by function index), with the calls the library
 * counted instead of recording (format 1.3): calls complete, inclusive time with their
 * estimate. The percentages are of the summed T_i of the threads that called at least one
 * function. */
void an_source_funcs(struct an_run *r)
{
	size_t n = r->fmap.n;
	int64_t total = 0, join_total = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].any_calls)
			total += r->th[i].t_ns;
	free(r->funcs);
	r->funcs = calloc(n ? n : 1, sizeof *r->funcs);
	struct unrec_sum *u = calloc(n ? n : 1, sizeof *u);
	r->n_funcs = 0;
	if (!r->funcs || !u) {
		free(u);
		return;
	}
	unrec_fold(r, u);
	for (size_t f = 0; f < n; f++) {
		const struct an_fstat *st = &r->fsum[f];
		if (!st->calls && !u[f].calls && !u[f].n_thr)
			continue;
		struct an_func *o = &r->funcs[r->n_funcs++];
		const struct sgr_function *d = sgr_function(r->tr, r->fmap.raw[f]);
		o->id = r->fmap.raw[f];
		o->name = d && d->name ? d->name : "?";
		o->file = d && d->file ? d->file : "?";
		o->line = d ? d->line : 0;
		o->rec_calls = st->calls;
		o->unrec_calls = u[f].calls;
		o->calls = st->calls + u[f].calls;
		o->unrec_ns = an_ticks_ns(r, u[f].ticks);
		o->incl_ns = an_ticks_ns(r, st->incl);
		if (__builtin_add_overflow(o->incl_ns, o->unrec_ns, &o->incl_ns))
			o->incl_ns = INT64_MAX;
		o->excl_ns = an_ticks_ns(r, st->excl);
		o->incl_pct = total > 0 ? 100.0 * (double)o->incl_ns / (double)total : 0;
		o->excl_pct = total > 0 ? 100.0 * (double)o->excl_ns / (double)total : 0;
		o->join_ns = an_ticks_ns(r, st->join);
		if (o->join_ns > o->excl_ns)
			o->join_ns = o->excl_ns;
		o->work_excl_ns = o->excl_ns - o->join_ns;
		join_total += o->join_ns;
		if (u[f].n_thr) {
			o->throttled = u[f].why ? u[f].why : SG_THROTTLE_RULE;
			o->throttled_ns = an_time_ns(r, u[f].thr_t);
			o->throttled_after = u[f].thr_calls;
			o->n_throttled = u[f].n_thr;
		}
	}
	free(u);
	for (size_t f = 0; f < r->n_funcs; f++) {
		struct an_func *o = &r->funcs[f];
		o->work_pct = total > join_total ?
			100.0 * (double)o->work_excl_ns / (double)(total - join_total) : 0;
	}
	if (r->n_funcs)
		qsort(r->funcs, r->n_funcs, sizeof *r->funcs, func_cmp);
}

/* last - first of a counter, saturated: the values of a damaged trace can be anything, and a
 * counter that goes back is no run delay (-1: unknown). */
static int64_t ctr_delta(const struct an_ctr *c)
{
	int64_t d;
	if (__builtin_sub_overflow(c->last, c->first, &d) || d < 0)
		return -1;
	return d;
}

/* Sum over the processor threads of (last - first) of the counter called `name`; NAN and the
 * reason when it is not defined, unavailable, or never sampled twice. */
static double counter_sum(struct an_run *r, const char *const *names, const char **why)
{
	const struct sgr_counter *c = NULL;
	for (size_t k = 0; names[k] && !c; k++)
		for (size_t i = 0; i < sgr_n_counters(r->tr); i++) {
			const struct sgr_counter *x = sgr_counter_at(r->tr, i);
			if (x->name && strcmp(x->name, names[k]) == 0) {
				c = x;
				break;
			}
		}
	if (!c) {
		const struct sgr_info *in = r->info;
		*why = in->counters_off ? an_run_str(r, "%s: %s", names[0], in->counters_off)
					: an_run_str(r, "%s: not recorded in the trace", names[0]);
		return NAN;
	}
	if (c->unavailable) {
		*why = an_run_str(r, "%s: %s", c->name, c->unavailable);
		return NAN;
	}
	double sum = 0;
	int any = 0;
	uint32_t x = an_idx(&r->cmap, c->id);
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		if (!r->th[i].processor || x >= s->n_ctr || s->ctr[x].n < 2)
			continue;
		/* samples of a damaged trace can be anything: the difference as a double */
		sum += (double)s->ctr[x].last - (double)s->ctr[x].first;
		any = 1;
	}
	if (!any) {
		*why = an_run_str(r, "%s: fewer than two samples per thread", c->name);
		return NAN;
	}
	*why = NULL;
	return sum;
}

/* Reads the counters the figures need: task-clock, cycles, stall cycles, misses, references,
 * and the scheduler run delay per thread. */
void an_source_counters(struct an_run *r)
{
	static const char *const task[] = { "task-clock", NULL };
	static const char *const cyc[] = { "cycles", "PERF_COUNT_HW_CPU_CYCLES", NULL };
	static const char *const stall[] = { "PERF_COUNT_HW_STALLED_CYCLES_BACKEND",
					     "stalled-cycles-backend", NULL };
	static const char *const miss[] = { "PERF_COUNT_HW_CACHE_MISSES", "cache-misses", NULL };
	static const char *const ref[] = { "PERF_COUNT_HW_CACHE_REFERENCES", "cache-references",
					   NULL };
	const char *why_cyc;
	r->task_clock_ns = counter_sum(r, task, &r->why_task);
	r->cycles = counter_sum(r, cyc, &why_cyc);
	r->stall_cycles = counter_sum(r, stall, &r->why_stall);
	r->misses = counter_sum(r, miss, &r->why_misses);
	r->refs = counter_sum(r, ref, &r->why_refs);
	if (!r->why_stall && why_cyc) {
		r->why_stall = an_run_str(r, "stall cycles need cycles to convert: %s", why_cyc);
		r->stall_cycles = NAN;
	}
	if (!r->why_stall && r->why_task) {
		r->why_stall = an_run_str(r, "stall cycles need task-clock to convert: %s",
					  r->why_task);
		r->stall_cycles = NAN;
	}

	/* run delay per thread, from the counter: only without the time budget, which places
	 * the run delay itself (an_budget.c) */
	if (r->budget_ok)
		return;
	const struct sgr_counter *sc = NULL;
	for (size_t i = 0; i < sgr_n_counters(r->tr); i++) {
		const struct sgr_counter *x = sgr_counter_at(r->tr, i);
		if (x->origin == SG_COUNTER_SCHED || (x->name && !strcmp(x->name, "sched-run-delay")))
			sc = x;
	}
	uint32_t sx = sc ? an_idx(&r->cmap, sc->id) : AN_NO_IDX;
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		r->th[i].sched_ns = -1;
		if (sc && !sc->unavailable && sx < s->n_ctr && s->ctr[sx].n >= 2)
			r->th[i].sched_ns = ctr_delta(&s->ctr[sx]);
	}
	int64_t sum = 0;
	int any = 0, missing = 0, backwards = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		if (!r->th[i].processor)
			continue;
		backwards += sx < r->ts[i].n_ctr && r->ts[i].ctr[sx].n >= 2 && r->th[i].sched_ns < 0;
		int64_t next;
		if (r->th[i].sched_ns >= 0 && !__builtin_add_overflow(sum, r->th[i].sched_ns, &next))
			sum = next, any = 1;
		else
			missing++;
	}
	if (!sc)
		r->fig[AN_IT_SCHED] = an_fig_na(r->info->counters_off
			? an_run_str(r, "sched-run-delay: %s", r->info->counters_off)
			: "sched-run-delay: not recorded in the trace");
	else if (sc->unavailable)
		r->fig[AN_IT_SCHED] = an_fig_na(an_run_str(r, "sched-run-delay: %s", sc->unavailable));
	else if (!any && backwards)
		r->fig[AN_IT_SCHED] = an_fig_na("sched-run-delay: its samples go backwards or do not "
						"fit in 64 bits (damaged trace)");
	else if (!any)
		r->fig[AN_IT_SCHED] = an_fig_na("sched-run-delay: fewer than two samples per thread");
	else {
		r->fig[AN_IT_SCHED] = an_fig_val((double)sum * 1e-9);
		if (missing)
			an_run_note_add(r, "IT_sched: %d processor thread(s) without usable run-delay "
					"samples%s", missing, backwards ? " (some go backwards: "
					"damaged trace)" : "");
	}
}
