/*
 * an_source.c — the analyzer's one adapter to the trace reader (tracelib/sgtrace_read.h):
 * opening, definitions by id, the function profile's names, and the counters a run's figures
 * need (found by name, with the reason when a counter is unavailable). When the reader grows,
 * only this file should need to follow.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

int an_source_open(struct an_run *r, char *err, size_t errlen)
{
	unsigned fl = (r->opts.flags & AN_NO_VERIFY) ? SGR_NO_VERIFY : 0;
	int rc = sgr_open(r->dir, fl, &r->tr, err, errlen);
	if (rc < 0)
		goto out;
	r->info = sgr_info(r->tr);
	r->n_threads = sgr_n_threads(r->tr);
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

/* Copies the reader's problem lines into the run (after the scan checked every payload). */
void an_source_problems(struct an_run *r)
{
	size_t n = sgr_n_problems(r->tr);
	for (size_t i = 0; i < n; i++)
		an_run_problem_add(r, "%s/%s", r->dir, sgr_problem(r->tr, i));
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

/* Merges the per-thread function statistics into the run's profile. The percentages are of the
 * summed T_i of the threads that called at least one function. */
void an_source_funcs(struct an_run *r)
{
	size_t max = 0;
	int64_t total = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		int any = 0;
		for (size_t f = 0; f < s->n_fs; f++)
			if (s->fs[f].calls) {
				any = 1;
				if (f + 1 > max)
					max = f + 1;
			}
		if (any)
			total += r->th[i].t_ns;
	}
	free(r->funcs);
	r->funcs = calloc(max ? max : 1, sizeof *r->funcs);
	r->n_funcs = 0;
	if (!r->funcs)
		return;
	for (size_t f = 0; f < max; f++) {
		uint64_t calls = 0, incl = 0, excl = 0;
		for (size_t i = 0; i < r->n_threads; i++) {
			struct an_tscan *s = &r->ts[i];
			if (f < s->n_fs) {
				calls += s->fs[f].calls;
				incl += s->fs[f].incl;
				excl += s->fs[f].excl;
			}
		}
		if (!calls)
			continue;
		struct an_func *o = &r->funcs[r->n_funcs++];
		const struct sgr_function *d = sgr_function(r->tr, (uint32_t)f);
		o->id = (uint32_t)f;
		o->name = d && d->name ? d->name : "?";
		o->file = d && d->file ? d->file : "?";
		o->line = d ? d->line : 0;
		o->calls = calls;
		o->incl_ns = an_ticks_ns(r, incl);
		o->excl_ns = an_ticks_ns(r, excl);
		o->incl_pct = total > 0 ? 100.0 * (double)o->incl_ns / (double)total : 0;
		o->excl_pct = total > 0 ? 100.0 * (double)o->excl_ns / (double)total : 0;
	}
	if (r->n_funcs)
		qsort(r->funcs, r->n_funcs, sizeof *r->funcs, func_cmp);
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
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		if (!r->th[i].processor || c->id >= s->n_ctr || s->ctr[c->id].n < 2)
			continue;
		sum += (double)(s->ctr[c->id].last - s->ctr[c->id].first);
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
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		r->th[i].sched_ns = -1;
		if (sc && !sc->unavailable && sc->id < s->n_ctr && s->ctr[sc->id].n >= 2)
			r->th[i].sched_ns = s->ctr[sc->id].last - s->ctr[sc->id].first;
	}
	int64_t sum = 0;
	int any = 0, missing = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		if (!r->th[i].processor)
			continue;
		if (r->th[i].sched_ns >= 0)
			sum += r->th[i].sched_ns, any = 1;
		else
			missing++;
	}
	if (!sc)
		r->fig[AN_IT_SCHED] = an_fig_na(r->info->counters_off
			? an_run_str(r, "sched-run-delay: %s", r->info->counters_off)
			: "sched-run-delay: not recorded in the trace");
	else if (sc->unavailable)
		r->fig[AN_IT_SCHED] = an_fig_na(an_run_str(r, "sched-run-delay: %s", sc->unavailable));
	else if (!any)
		r->fig[AN_IT_SCHED] = an_fig_na("sched-run-delay: fewer than two samples per thread");
	else {
		r->fig[AN_IT_SCHED] = an_fig_val((double)sum * 1e-9);
		if (missing)
			an_run_note_add(r, "IT_sched: %d processor thread(s) without run-delay samples",
					missing);
	}
}
