/*
 * an_run.c — one run: opens its trace, chooses the measured interval [t0, t1], runs the
 * per-thread passes (an_scan.c) and the cross-thread joins (an_join.c), decides which threads are
 * the N processors, and turns the tick totals into the figures of METRICS.md. Also the run's
 * accessors and its owned strings (problems, notes, reasons).
 *
 * Processors are chosen by what the threads did in the parallel phase (an_procs.c). A main
 * thread that computes is a processor; one that only creates and joins is not, and its
 * create/join time is reported as a note (it overlaps the workers' start and end idle,
 * IT_edge).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_int.h"

/* ---- owned strings ---- */

void an_strlist_add(char ***v, size_t *n, size_t *cap, const char *fmt, va_list ap)
{
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		return;
	if (an_grow(v, cap, *n, sizeof **v) < 0) {
		free(s);
		return;
	}
	(*v)[(*n)++] = s;
}

void an_run_problem_add(struct an_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	an_strlist_add(&r->problems, &r->n_problems, &r->cap_problems, fmt, ap);
	va_end(ap);
}

void an_run_note_add(struct an_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	an_strlist_add(&r->notes, &r->n_notes, &r->cap_notes, fmt, ap);
	va_end(ap);
}

const char *an_run_str(struct an_run *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t before = r->n_strs;
	an_strlist_add(&r->strs, &r->n_strs, &r->cap_strs, fmt, ap);
	va_end(ap);
	return r->n_strs > before ? r->strs[before] : "";
}

int64_t an_ticks_ns(const struct an_run *r, uint64_t ticks)
{
	if (r->info->ns_per_tick == 1.0)
		return ticks > INT64_MAX ? INT64_MAX : (int64_t)ticks;
	/* a damaged clock pair can make the rate anything: saturate, never convert out of
	 * range */
	double v = (double)ticks * r->info->ns_per_tick;
	if (!(v < 9.2e18))
		return v != v ? 0 : INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN;
	return (int64_t)llround(v);
}

int64_t an_time_ns(const struct an_run *r, uint64_t ticks)
{
	return sgr_ticks_to_ns(r->info, ticks);
}

/* ---- the measured interval ---- */

/* Picks [t0, t1]: the region named in opts (or the first one begun), else the threads' span.
 * Returns 1 when the clip is narrower than the full range that was scanned. */
/* The region that defines T_para when none is named: "measured" if the program defines it (as
 * the runner's tmeasure.c chooses), else the first one begun. */
#define DEFAULT_REGION "measured"

/* The id of the region named in opts (or DEFAULT_REGION), SG_NO_ID when it is not defined. */
static uint32_t region_id(const struct an_run *r)
{
	const char *want = r->opts.region ? r->opts.region : DEFAULT_REGION;
	for (size_t i = 0; i < sgr_n_regions(r->tr); i++) {
		const struct sgr_region *g = sgr_region_at(r->tr, i);
		if (g->name && strcmp(g->name, want) == 0)
			return g->id;
	}
	return SG_NO_ID;
}

static int choose_clip(struct an_run *r)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->ts[i].seen) {
			if (r->ts[i].first < lo)
				lo = r->ts[i].first;
			if (r->ts[i].last > hi)
				hi = r->ts[i].last;
		}
	uint32_t rid = SG_NO_ID;
	uint64_t best = UINT64_MAX;
	if (r->opts.region) {
		for (size_t i = 0; i < sgr_n_regions(r->tr); i++) {
			const struct sgr_region *g = sgr_region_at(r->tr, i);
			if (g->name && strcmp(g->name, r->opts.region) == 0)
				rid = g->id;
		}
		if (rid == SG_NO_ID)
			an_run_problem_add(r, "%s: region \"%s\" is not defined; T_para from the "
					   "threads' span", r->dir, r->opts.region);
	} else if ((rid = region_id(r)) == SG_NO_ID) {
		for (size_t i = 0; i < r->n_threads; i++)
			for (size_t k = 0; k < r->ts[i].n_reg; k++) {
				struct an_reg *g = &r->ts[i].reg[k];
				if (g->has_begin && g->begin < best)
					best = g->begin, rid = g->id;
			}
	}
	uint64_t b = UINT64_MAX, e = 0;
	int has_b = 0, has_e = 0;
	for (size_t i = 0; rid != SG_NO_ID && i < r->n_threads; i++)
		for (size_t k = 0; k < r->ts[i].n_reg; k++) {
			struct an_reg *g = &r->ts[i].reg[k];
			if (g->id != rid)
				continue;
			if (g->has_begin && g->begin < b)
				b = g->begin, has_b = 1;
			if (g->has_end && g->end > e)
				e = g->end, has_e = 1;
		}
	r->t0 = lo == UINT64_MAX ? 0 : lo;
	r->t1 = hi;
	if (has_b) {
		snprintf(r->region_name, sizeof r->region_name, "%s",
			 an_source_region_name(r, rid));
		r->have_region = 1;
		r->t0 = b;
		if (has_e && e > b)
			r->t1 = e;
		else
			an_run_problem_add(r, "%s: region \"%s\" never ends; T_para runs to the last "
					   "event", r->dir, r->region_name);
		an_run_note_add(r, "T_para from region \"%s\"", r->region_name);
	} else {
		an_run_note_add(r, "T_para from the threads' span (no measured region)");
	}
	return r->t0 > lo || r->t1 < hi;
}

/* ---- processors and per-thread figures ---- */

/* Splits every create/join interval: create is all primitive; a join waits (part) until the
 * joined thread's last event, the rest is primitive. */
static void join_parts(struct an_run *r)
{
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		for (size_t k = 0; k < s->n_iv; k++) {
			struct an_ivl *v = &s->iv[k];
			if (v->type != IV_THREAD)
				continue;
			v->part = 0;
			if (v->aux == 1) {
				long p = v->obj == SG_NO_ID ? -1 : sgr_thread_pos(r->tr, v->obj);
				uint64_t end = p >= 0 ? r->ts[p].last : v->a;
				if (end > v->b)
					end = v->b;
				if (end > v->a)
					v->part = end - v->a;
			}
		}
	}
}

static int64_t cat_ns(const struct an_run *r, const struct an_budget *b, int c)
{
	return an_ticks_ns(r, b->total[c] - b->run[c]);
}

static void thread_figures(struct an_run *r)
{
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		struct an_thread *t = &r->th[i];
		const struct an_budget *b = &r->bud[i];
		t->index = sgr_thread(r->tr, i)->index;
		t->os_tid = sgr_thread(r->tr, i)->os_tid;
		t->n_events = s->n_events;
		t->n_records = s->n_in;
		t->unrec_calls = 0;
		for (size_t k = 0; k < s->n_unrec; k++)
			if (s->unrec[k].calls > s->unrec[k].calls0)
				t->unrec_calls += s->unrec[k].calls - s->unrec[k].calls0;
		t->sched_ns = t->blocked_ns = t->cpu_ns = t->cpu_kernel_ns = -1;
		if (!s->seen) {
			t->s_ns = t->e_ns = an_time_ns(r, r->t0);
			continue;
		}
		t->s_ns = an_time_ns(r, s->first);
		t->e_ns = an_time_ns(r, s->last);
		t->t_ns = an_ticks_ns(r, s->last - s->first);
		/* each part without its runnable share (IT_sched) */
		t->barrier_wait_ns = cat_ns(r, b, CAT_BAR_W);
		t->barrier_ovh_ns = cat_ns(r, b, CAT_BAR_P);
		t->lock_wait_ns = cat_ns(r, b, CAT_LOCK_W);
		t->lock_ovh_ns = cat_ns(r, b, CAT_LOCK_P);
		t->cond_ns = cat_ns(r, b, CAT_COND);
		t->sem_wait_ns = cat_ns(r, b, CAT_SEM_W);
		t->sem_ovh_ns = cat_ns(r, b, CAT_SEM_P);
		t->join_wait_ns = cat_ns(r, b, CAT_JOIN_W);
		t->thread_ns = cat_ns(r, b, CAT_THREAD_P);
		/* the release half of a lock's cost is in compute: move it (docs/analyzer.md) */
		double rel_d = (double)s->n_releases * r->opts.unlock_ns;
		int64_t rel = rel_d > 0 && rel_d < 9.2e18 ? (int64_t)llround(rel_d) : 0;
		int64_t compute = an_ticks_ns(r, b->total[CAT_COMPUTE]);
		if (r->budget_ok) {
			uint64_t run = 0, on = 0;
			for (int c = 0; c < AN_N_CATS; c++) {
				run += b->run[c];
				on += b->total[c] - b->run[c] - b->sleep[c];
			}
			t->sched_ns = an_ticks_ns(r, run);
			t->blocked_ns = an_ticks_ns(r, b->sleep[CAT_COMPUTE]);
			t->cpu_ns = an_ticks_ns(r, on);
			compute = an_ticks_ns(r, b->total[CAT_COMPUTE] - b->run[CAT_COMPUTE] -
						 b->sleep[CAT_COMPUTE]);
		}
		if (rel > compute)
			rel = compute;
		if (__builtin_add_overflow(t->lock_ovh_ns, rel, &t->lock_ovh_ns))
			t->lock_ovh_ns = INT64_MAX;
		t->busy_ns = compute - rel;
		t->cpu_kernel_ns = b->cpu_kernel_ns;
		if (!t->processor && (s->t_thread > 0))
			an_run_note_add(r, "thread %u (not a processor): create/join %.6f s, "
					"overlapping the workers' start/end idle (IT_edge)", t->index,
					(double)an_ticks_ns(r, s->t_thread) * 1e-9);
	}
}

/* A condition variable most of whose broadcasts end the waits of all other processors is a
 * barrier built by hand: say so (its waits stay IT_cond). */
static void cond_barrier_notes(struct an_run *r)
{
	for (size_t k = 0; k < r->n_cbar; k++) {
		const struct an_cbar *c = &r->cbar[k];
		if (r->n_proc < 2 || c->common != (uint32_t)r->n_proc - 1 ||
		    c->n_common * 10 < c->n_bc * 8)
			continue;
		char who[48];
		if (c->common == 1)
			snprintf(who, sizeof who, "the wait of the other processor");
		else
			snprintf(who, sizeof who, "the waits of all %u other processors", c->common);
		an_run_note_add(r, "cond#%u: %llu of its %llu broadcasts each ended %s: a barrier "
				"built from a mutex and a condition variable; its waits are IT_cond, "
				"the waits for its mutex IT_lock", c->id,
				(unsigned long long)c->n_common, (unsigned long long)c->n_bc, who);
	}
}

/* ---- figures ---- */

static int n_cpus_here(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

/* Sum of the processors' field at byte offset `off` of struct an_thread (an int64_t), in ns.
 * A double: the times of a damaged trace (each thread spanning the whole 56-bit clock) summed
 * over many threads are beyond int64; exact to the ns below 2^53 ns (104 days). */
static double proc_sum(const struct an_run *r, size_t off, int *all_known)
{
	double sum = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct an_thread *t = &r->th[i];
		if (!t->processor)
			continue;
		int64_t v;
		memcpy(&v, (const char *)t + off, sizeof v);
		if (v < 0)
			*all_known = 0;
		else
			sum += (double)v;
	}
	return sum;
}
#define PSUM(field, known) (proc_sum(r, offsetof(struct an_thread, field), (known)) * 1e-9)

static void cost_figures(struct an_run *r);

void an_run_set_opts(struct an_run *r, const struct an_run_opts *opts)
{
	if (opts && opts != &r->opts)
		r->opts = *opts;
	free(r->sites_tab);   /* its release part follows the options */
	r->sites_tab = NULL;
	struct an_fig *f = r->fig;
	double N = r->n_proc;
	double tp = (double)an_ticks_ns(r, r->t1 - r->t0) * 1e-9;
	int known = 1, kcpu = 1;
	double sum_t = PSUM(t_ns, &known);
	f[AN_N] = an_fig_val(N);
	f[AN_T_PARA] = an_fig_val(tp);
	f[AN_IT_EDGE] = an_fig_val(N * tp - sum_t);
	f[AN_IT_BARRIER] = an_fig_val(PSUM(barrier_wait_ns, &known));
	f[AN_IT_LOCK] = an_fig_val(PSUM(lock_wait_ns, &known));
	f[AN_IT_COND] = an_fig_val(PSUM(cond_ns, &known));
	f[AN_IT_SEM] = an_fig_val(PSUM(sem_wait_ns, &known));
	f[AN_IT_JOIN] = an_fig_val(PSUM(join_wait_ns, &known));
	f[AN_PT_BARRIER] = an_fig_val(PSUM(barrier_ovh_ns, &known));
	f[AN_PT_LOCK] = an_fig_val(PSUM(lock_ovh_ns, &known));
	f[AN_PT_SEM] = an_fig_val(PSUM(sem_ovh_ns, &known));
	f[AN_PT_THREAD] = an_fig_val(PSUM(thread_ns, &known));
	double it = f[AN_IT_EDGE].value + f[AN_IT_BARRIER].value + f[AN_IT_LOCK].value +
		    f[AN_IT_COND].value + f[AN_IT_SEM].value + f[AN_IT_JOIN].value;
	double pt = f[AN_PT_BARRIER].value + f[AN_PT_LOCK].value + f[AN_PT_SEM].value +
		    f[AN_PT_THREAD].value;
	double compute = PSUM(busy_ns, &known);          /* on CPU in compute */
	double cpu_kernel = PSUM(cpu_kernel_ns, &kcpu);  /* the kernel's CPU time */
	if (r->budget_ok) {
		/* the budget closes: runnable and blocked time are parts of their own */
		f[AN_IT_SCHED] = an_fig_val(PSUM(sched_ns, &known));
		f[AN_IT_BLOCKED] = an_fig_val(PSUM(blocked_ns, &known));
		it += f[AN_IT_SCHED].value + f[AN_IT_BLOCKED].value;
		/* the books: every part summed on its own, with the kernel's run delay in place
		 * of the runnable time placed on the records, so that what the kernel says was
		 * runnable and the records had no room for (or the reverse), or any second
		 * counted twice, shows */
		double delay = 0;
		int kd = 1;
		for (size_t i = 0; i < r->n_threads; i++) {
			if (!r->th[i].processor)
				continue;
			if (!r->bud[i].delay_known)
				kd = 0;
			delay += (double)r->bud[i].delay_kernel_ns * 1e-9;
		}
		double parts = it - f[AN_IT_SCHED].value + delay + pt + compute;
		f[AN_CLOSURE] = !kd ? an_fig_na("no run-delay samples of a processor (schedstat)")
				: N * tp > 0 ? an_fig_val((N * tp - parts) / (N * tp))
				: an_fig_na("T_para is zero");
		f[AN_COMPUTE] = an_fig_val(compute);
	} else {
		/* IT_sched (the run-delay counter, when recorded) overlaps the waits: not a part */
		f[AN_IT_BLOCKED] = an_fig_na(r->budget_why);
		f[AN_CLOSURE] = an_fig_na(r->budget_why);
		f[AN_COMPUTE] = an_fig_na(an_run_str(r, "compute on CPU: %s", r->budget_why));
	}
	f[AN_IT] = an_fig_val(it);
	f[AN_PT] = an_fig_val(pt);
	int cpus = r->opts.n_cpus > 0 ? r->opts.n_cpus : n_cpus_here();
	f[AN_OVERSUB] = an_fig_val(N > cpus ? 1 : 0);
	if (tp <= 0) {
		f[AN_PARALLELISM] = f[AN_PAR_SHARE] = an_fig_na("T_para is zero");
	} else if (r->budget_ok) {
		f[AN_PARALLELISM] = an_fig_val((double)an_ticks_ns(r, r->par_busy) * 1e-9 / tp);
		f[AN_PAR_SHARE] = r->par_busy ? an_fig_val((double)r->par_multi /
							   (double)r->par_busy)
					      : an_fig_na("no CPU time");
	} else if (kcpu && cpu_kernel > 0) {
		f[AN_PARALLELISM] = an_fig_val(cpu_kernel / tp);
		f[AN_PAR_SHARE] = an_fig_na(an_run_str(r, "needs when each thread ran: %s",
						       r->budget_why));
	} else {
		f[AN_PARALLELISM] = f[AN_PAR_SHARE] =
			an_fig_na(an_run_str(r, "no CPU time of the threads: %s", r->budget_why));
	}

	/* ML(N) from stall cycles (converted with the cycle rate) or misses x miss latency */
	if (!isnan(r->stall_cycles) && r->cycles > 0 && r->task_clock_ns > 0) {
		f[AN_ML_RAW] = an_fig_val(r->stall_cycles * (r->task_clock_ns / r->cycles) * 1e-9);
	} else if (!isnan(r->misses) && r->opts.miss_ns > 0) {
		f[AN_ML_RAW] = an_fig_val(r->misses * r->opts.miss_ns * 1e-9);
	} else if (!isnan(r->misses)) {
		f[AN_ML_RAW] = an_fig_na(an_run_str(r, "stall cycles: %s; misses counted but no "
						    "calibrated miss latency", r->why_stall));
	} else {
		f[AN_ML_RAW] = an_fig_na(an_run_str(r, "%s", r->why_misses ? r->why_misses
									  : r->why_stall));
	}
	if (f[AN_ML_RAW].unavailable)
		f[AN_ML] = f[AN_ML_RAW];
	else if (r->opts.seq && !r->opts.seq->fig[AN_ML_RAW].unavailable)
		f[AN_ML] = an_fig_val(f[AN_ML_RAW].value - r->opts.seq->fig[AN_ML_RAW].value);
	else if (N == 1)
		f[AN_ML] = an_fig_val(0);   /* ML(1) - ML(1) */
	else
		f[AN_ML] = an_fig_na(r->opts.seq ? an_run_str(r, "ML(1): %s",
							      r->opts.seq->fig[AN_ML_RAW].unavailable)
						 : "ML(1) unknown: no sequential run analyzed");
	double ml = f[AN_ML].unavailable ? 0 : f[AN_ML].value;
	f[AN_L] = N > 0 ? an_fig_val((ml + it + pt) / N) : an_fig_na("no processor thread");
	f[AN_CPU_UTIL] = isnan(r->task_clock_ns) ? an_fig_na(r->why_task)
			 : an_fig_val(r->task_clock_ns * 1e-9 / (N * tp));
	f[AN_MEM_RATE] = f[AN_ML_RAW].unavailable ? f[AN_ML_RAW]
			 : an_fig_val(f[AN_ML_RAW].value / (N * tp));
	f[AN_MISS_RATE] = isnan(r->misses) ? an_fig_na(r->why_misses)
			  : isnan(r->refs) ? an_fig_na(r->why_refs)
			  : an_fig_val(r->refs > 0 ? r->misses / r->refs : 0);

	/* T_seq pairs with a T_para measured the same way: the trace's, or (wall basis) the
	 * run's wall time when T_seq is a whole process's wall time (docs/analyzer.md) */
	double ts = r->opts.t_seq_s;
	int wall = r->opts.t_para_e_s > 0;
	double te = wall ? r->opts.t_para_e_s : tp;
	if (ts > 0 && N > 0 && te > 0) {
		double E = ts / (N * te);
		f[AN_T_SEQ] = an_fig_val(ts);
		f[AN_E] = an_fig_val(E);
		f[AN_S] = an_fig_val(ts / te);
		/* U, extra work: the processors' CPU time in compute beyond the sequential work
		 * (the baseline an experiment gives, else T_seq) and the extra memory stall. On a
		 * wall-clock basis, or without the budget, the residual of (3) instead. */
		double base = r->opts.u_base_s > 0 ? r->opts.u_base_s : ts, l_w1 = 0;
		if (!f[AN_COMPUTE].unavailable && !wall) {
			f[AN_U] = an_fig_val(f[AN_COMPUTE].value - base - ml);
			l_w1 = ts - base;   /* 0 unless T_seq is the N=1 runs' (their overhead) */
		} else {
			f[AN_U] = an_fig_val(N * te - ts - (it + pt + ml));
		}
		f[AN_L_E] = an_fig_val(te * (1 - E));
		an_checks_set(f, ts, te, r->opts.t_para_ref_s > 0 ? r->opts.t_para_ref_s : tp, l_w1,
			      wall);
	} else {
		const char *why = N <= 0 ? "no processor thread"
				  : "T_seq unknown (no sequential or N=1 run given)";
		f[AN_T_SEQ] = an_fig_na(why);
		f[AN_E] = f[AN_S] = f[AN_U] = f[AN_L_E] = f[AN_CHECK3] = f[AN_CHECK10] =
			f[AN_L_W1] = an_fig_na(why);
	}
	cost_figures(r);
}

void an_checks_set(struct an_fig *f, double ts, double te, double tref, double l_w1, int wall)
{
	double N = f[AN_N].value;
	f[AN_L_W1] = an_fig_val(l_w1);
	/* (3): T_para = T_seq/N + L + U/N - L(W,1)/N; with U made of the books' parts it holds
	 * to the books' closure (issue 20: on the N=1 basis the L(W,1)/N term was missing, the
	 * run's own check3 read -0.18 and the point's, from figures made before U's baseline
	 * moved, 1e-16) */
	double Ltot = f[AN_L].value + f[AN_U].value / N - l_w1 / N;
	f[AN_CHECK3] = an_fig_val((te - ts / N - Ltot) / te);
	/* (10) against the runner's own T_para when known: an independent measurement; relative
	 * to T_para' (1 - E'), or to T_para' where that is zero (N=1 with T_seq from this very
	 * run) */
	double lref = tref * (1 - ts / (N * tref));
	f[AN_CHECK10] = wall ? an_fig_na("E from wall-clock times: no second measurement of that "
					 "T_para to check (10) against")
			: an_fig_val((Ltot - lref) / (lref != 0 ? lref : tref));
}

/* ---- the library's own cost ---- */

/* Seconds of ns. */
static double secs(int64_t ns) { return (double)ns * 1e-9; }

/* The tracing cost of every thread and, over the processors, the cost figures and the
 * compensated ones (docs/analyzer.md "Tracing cost"). Each thread's cost is put where its
 * records were written: a sync wrapper's in its primitive's overhead part (a condition wait's
 * in IT_cond), the rest (function probes, counted calls, regions, counters) in compute. Never
 * more is taken out of a part than it holds. */
static void cost_figures(struct an_run *r)
{
	static const enum an_metric all[] = {
		AN_TRACE_COST, AN_TRACE_SHARE, AN_T_PARA_C, AN_E_C, AN_L_C, AN_IT_C, AN_PT_C,
		AN_IT_COND_C, AN_PT_BARRIER_C, AN_PT_LOCK_C, AN_PT_SEM_C, AN_PT_THREAD_C,
		AN_COMPUTE_C, AN_U_C, AN_CLOSURE_C,
	};
	struct an_fig *f = r->fig;
	double rec = r->opts.record_ns, unr = r->opts.unrecorded_call_ns;
	double N = f[AN_N].value, tp = f[AN_T_PARA].value;
	const char *why = !(rec > 0) ? "no calibrated record cost: run scalegraph calibrate"
			  : N <= 0 ? "no processor thread" : !(tp > 0) ? "T_para is zero" : NULL;
	for (size_t i = 0; i < r->n_threads; i++)
		r->th[i].trace_cost_ns = -1;
	if (why) {
		for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
			f[all[k]] = an_fig_na(why);
		return;
	}
	double cost = 0, taken = 0, d[AN_N_CATS] = { 0 };
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_thread *t = &r->th[i];
		const struct an_tscan *s = &r->ts[i];
		double c[AN_N_CATS] = { 0 }, ci = 0;
		uint64_t sync = 0;
		for (int k = 0; k < AN_N_CATS; k++) {
			sync += s->rec_cat[k];
			c[k] = (double)s->rec_cat[k] * rec * 1e-9;
		}
		c[CAT_COMPUTE] = (double)(s->n_in - (sync < s->n_in ? sync : s->n_in)) * rec * 1e-9 +
				 (unr > 0 ? (double)t->unrec_calls * unr * 1e-9 : 0);
		for (int k = 0; k < AN_N_CATS; k++)
			ci += c[k];
		t->trace_cost_ns = (int64_t)llround(ci * 1e9);
		if (!t->processor || !r->ts[i].seen)
			continue;
		cost += ci;
		double part[AN_N_CATS] = { 0 };
		part[CAT_COMPUTE] = secs(t->busy_ns);
		part[CAT_BAR_P] = secs(t->barrier_ovh_ns);
		part[CAT_LOCK_P] = secs(t->lock_ovh_ns);
		part[CAT_COND] = secs(t->cond_ns);
		part[CAT_SEM_P] = secs(t->sem_ovh_ns);
		part[CAT_THREAD_P] = secs(t->thread_ns);
		for (int k = 0; k < AN_N_CATS; k++) {
			double x = c[k] < part[k] ? c[k] : part[k] > 0 ? part[k] : 0;
			d[k] += x;
			taken += x;
		}
	}
	f[AN_TRACE_COST] = an_fig_val(cost);
	f[AN_TRACE_SHARE] = an_fig_val(cost / (N * tp));
	double tpc = tp - taken / N;
	f[AN_T_PARA_C] = an_fig_val(tpc);
	f[AN_IT_COND_C] = an_fig_val(f[AN_IT_COND].value - d[CAT_COND]);
	f[AN_PT_BARRIER_C] = an_fig_val(f[AN_PT_BARRIER].value - d[CAT_BAR_P]);
	f[AN_PT_LOCK_C] = an_fig_val(f[AN_PT_LOCK].value - d[CAT_LOCK_P]);
	f[AN_PT_SEM_C] = an_fig_val(f[AN_PT_SEM].value - d[CAT_SEM_P]);
	f[AN_PT_THREAD_C] = an_fig_val(f[AN_PT_THREAD].value - d[CAT_THREAD_P]);
	double itc = f[AN_IT].value - d[CAT_COND];
	double ptc = f[AN_PT].value - d[CAT_BAR_P] - d[CAT_LOCK_P] - d[CAT_SEM_P] -
		     d[CAT_THREAD_P];
	f[AN_IT_C] = an_fig_val(itc);
	f[AN_PT_C] = an_fig_val(ptc);
	double ml = f[AN_ML].unavailable ? 0 : f[AN_ML].value;
	f[AN_L_C] = an_fig_val((ml + itc + ptc) / N);
	f[AN_COMPUTE_C] = f[AN_COMPUTE].unavailable ? f[AN_COMPUTE]
			  : an_fig_val(f[AN_COMPUTE].value - d[CAT_COMPUTE]);
	f[AN_CLOSURE_C] = f[AN_CLOSURE].unavailable ? f[AN_CLOSURE]
			  : an_fig_val(f[AN_CLOSURE].value * tp / tpc);   /* same residual */
	/* E and U as an_run_set_opts makes them, from the compensated T_para (or wall time) and,
	 * when T_seq is a traced run's T_para, the compensated T_seq the experiment gives */
	double ts = r->opts.t_seq_comp_s > 0 ? r->opts.t_seq_comp_s : r->opts.t_seq_s;
	int wall = r->opts.t_para_e_s > 0;
	double tec = (wall ? r->opts.t_para_e_s : tp) - taken / N;
	if (f[AN_E].unavailable || !(tec > 0)) {
		f[AN_E_C] = f[AN_U_C] = f[AN_E].unavailable ? f[AN_E] : an_fig_na("T_para is zero");
		return;
	}
	f[AN_E_C] = an_fig_val(ts / (N * tec));
	double base = r->opts.u_base_comp_s > 0 ? r->opts.u_base_comp_s
		      : r->opts.u_base_s > 0 ? r->opts.u_base_s : ts;
	if (!f[AN_COMPUTE_C].unavailable && !wall)
		f[AN_U_C] = an_fig_val(f[AN_COMPUTE_C].value - base - ml);
	else
		f[AN_U_C] = an_fig_val(N * tec - ts - (itc + ptc + ml));
}

/* Runnable time with no more processors than CPUs: either the scheduler kept the processors
 * on fewer CPUs than there were (a wake-up pulls the woken thread to its waker's CPU), so they
 * waited for each other's, or other threads (of the program, not processors, or of other
 * processes) had the CPUs. The switch records say which CPUs the processors ran on. */
static void busy_machine_note(struct an_run *r)
{
	const struct an_fig *f = r->fig;
	double total = f[AN_N].value * f[AN_T_PARA].value;
	if (f[AN_IT_SCHED].unavailable || f[AN_OVERSUB].unavailable || f[AN_OVERSUB].value ||
	    !r->budget_ok || total <= 0 || f[AN_IT_SCHED].value < 0.05 * total)
		return;
	size_t n_cpu = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->th[i].processor && r->n_cpu_on[i] > n_cpu)
			n_cpu = r->n_cpu_on[i];
	uint64_t *on = calloc(n_cpu ? n_cpu : 1, sizeof *on), sum = 0;
	if (!on)
		return;
	for (size_t i = 0; i < r->n_threads; i++)
		for (size_t c = 0; r->th[i].processor && c < r->n_cpu_on[i]; c++) {
			on[c] += r->cpu_on[i][c];
			sum += r->cpu_on[i][c];
		}
	/* the CPUs that held a twentieth of the processors' time or more */
	char list[128] = "";
	int used = 0, n_list = 0;
	for (size_t c = 0; c < n_cpu && sum; c++) {
		if (20 * on[c] < sum)
			continue;
		used++;
		if (n_list < 100)
			n_list += snprintf(list + n_list, sizeof list - (size_t)n_list, "%s%zu",
					   used > 1 ? ", " : "", c);
	}
	free(on);
	double pct = 100 * f[AN_IT_SCHED].value / total;
	int cpus = r->opts.n_cpus > 0 ? r->opts.n_cpus : n_cpus_here();
	if (used > 0 && used < f[AN_N].value && used < cpus)
		an_run_note_add(r, "the processors shared CPUs: they ran on CPU %s only (N = %.0f, %d "
				"CPUs), so each waited for the others' CPU: runnable %.3g s (%.1f %% of "
				"N T_para, IT_sched); the scheduler kept them together (a wake-up pulls "
				"the woken thread to its waker's CPU)", list, f[AN_N].value, cpus,
				f[AN_IT_SCHED].value, pct);
	else
		an_run_note_add(r, "the CPUs were busy: the processors were runnable %.3g s (%.1f %% "
				"of N T_para, IT_sched) though N = %.0f is not above the CPUs; other "
				"threads of the program or other processes had them", f[AN_IT_SCHED].value,
				pct, f[AN_N].value);
}

/* "1.0 GB", "12.3 MB", "512 B" */
static const char *fmt_bytes(char *buf, size_t n, uint64_t b)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	double v = (double)b;
	int u = 0;
	while (v >= 999.5 && u < 4)
		v /= 1000, u++;
	snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

/* What overhead control did to this trace (format 1.3): the budget, and the functions whose
 * calls were counted instead of recorded. */
static void throttle_notes(struct an_run *r)
{
	char b[32];
	if (r->budget_t != UINT64_MAX)
		an_run_note_add(r, "trace budget SG_TRACE_MAX reached at %.3g s after %s: function "
				"probes stopped; sync events complete",
				(double)an_time_ns(r, r->budget_t) * 1e-9,
				fmt_bytes(b, sizeof b, r->budget_bytes));
	size_t n = 0;
	for (size_t i = 0; i < r->n_funcs; i++)
		n += r->funcs[i].throttled != 0;
	if (n)
		an_run_note_add(r, "%zu function(s) throttled: their calls were counted, not recorded, "
				"after the point the profile gives; their calls in the profile are "
				"complete and their inclusive time holds the library's estimate, while "
				"the time of the counted calls stays in their callers' exclusive time "
				"(no events to subtract it)", n);
}

/* ---- open / free ---- */

static int scan_all(struct an_run *r, uint64_t lo, uint64_t hi)
{
	int rc = 0;
	r->n_events = 0;
	r->unknown_ids = 0;
	r->budget_t = UINT64_MAX;
	r->budget_bytes = 0;
	memset(r->fsum, 0, (r->fmap.n + 1) * sizeof *r->fsum);
	an_scan_holds_free(r);   /* those of an unclipped pass before */
	for (size_t i = 0; i < r->n_threads; i++) {
		if ((rc = an_scan_thread(r, i, lo, hi)) < 0)
			break;
		sgr_release(r->tr, i);   /* one stream resident at a time (an_source_open) */
		r->n_events += r->ts[i].n_events;
	}
	return rc;
}

int an_run_open(const char *dir, const struct an_run_opts *opts, struct an_run **out, char *err,
		size_t errlen)
{
	char dummy[8];
	if (!err || !errlen)
		err = dummy, errlen = sizeof dummy;
	int rc = -ENOMEM;
	const char *stage = "setting up";   /* what failed, for the message */
	err[0] = 0;
	struct an_run *r = calloc(1, sizeof *r);
	if (!r || !(r->dir = strdup(dir))) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto out;
	}
	if (opts)
		r->opts = *opts;
	stage = "opening the trace";
	if ((rc = an_source_open(r, err, errlen)) < 0)
		goto out;
	rc = -ENOMEM;
	r->ts = calloc(r->n_threads, sizeof *r->ts);
	r->th = calloc(r->n_threads, sizeof *r->th);
	r->tl = calloc(r->n_threads, sizeof *r->tl);
	if (!r->ts || !r->th || !r->tl)
		goto out;
	/* with regions defined, find the measured interval first (a light walk that stops at the
	 * first begin and, backwards, at the last end) so the full pass runs once, clipped */
	int pre = sgr_n_regions(r->tr) > 0;
	stage = "reading the threads' records";
	if ((rc = pre ? an_scan_regions(r, region_id(r)) : scan_all(r, 0, SG_TICKS_MAX)) < 0)
		goto out;
	int any = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		any |= r->ts[i].seen;
	if (!any) {
		snprintf(err, errlen, "%s: no thread has a readable event (zero threads: nothing to "
			 "analyze)%s%s", dir, sgr_n_problems(r->tr) ? "; first problem: " : "",
			 sgr_n_problems(r->tr) ? sgr_problem(r->tr, 0) : "");
		rc = -ENODATA;
		goto out;
	}
	if ((choose_clip(r) || pre) && (rc = scan_all(r, r->t0, r->t1)) < 0)
		goto out;
	stage = "joining the barrier, lock, semaphore and condition waits";
	if ((rc = an_join_barriers(r)) < 0 || (rc = an_join_locks(r)) < 0 ||
	    (rc = an_join_sems(r)) < 0 || (rc = an_join_conds(r)) < 0)
		goto out;
	free(r->sev);
	r->sev = NULL;
	r->n_sev = r->cap_sev = 0;
	join_parts(r);
	stage = "the time budget (sched stream)";
	if ((rc = an_budget_build(r)) < 0)
		goto out;
	stage = "choosing the processors";
	if ((rc = an_procs_choose(r)) < 0)
		goto out;
	stage = "the processors' parallelism";
	if ((rc = an_join_parallelism(r)) < 0)
		goto out;
	thread_figures(r);
	stage = "the object tables";
	if ((rc = an_objects_settle(r)) < 0)
		goto out;
	cond_barrier_notes(r);
	if (r->budget_ok) {
		an_run_note_add(r, "time budget: every thread's time split into on CPU, runnable "
				"(IT_sched) and blocked by the kernel's context-switch records and "
				"run delay");
		an_budget_note(r);
	} else {
		an_run_note_add(r, "time budget unavailable: %s; IT_sched overlaps the waits and "
				"is not a part of L, U is the residual of (3)", r->budget_why);
	}
	an_source_funcs(r);
	an_source_counters(r);
	an_source_problems(r);
	uint64_t unmatched = 0;
	for (size_t i = 0; i < r->n_threads; i++)
		unmatched += r->ts[i].unmatched;
	if (unmatched)
		an_run_problem_add(r, "%s: %llu event(s) did not pair (an exit without its enter, a "
				   "release without its acquire, ...)", dir,
				   (unsigned long long)unmatched);
	if (r->opts.unlock_ns > 0)
		an_run_note_add(r, "PT_lock: release part estimated as %.1f ns per release "
				"(calibrated; a release is one event)", r->opts.unlock_ns);
	else
		an_run_note_add(r, "PT_lock: acquire part only (a release is one event and no "
				"calibrated release cost was given)");
	an_run_set_opts(r, NULL);
	busy_machine_note(r);
	throttle_notes(r);
	*out = r;
	r = NULL;
	rc = 0;
out:
	/* every failure says what failed (an allocation deep in a pass had no message: "error: "
	 * and nothing after it) */
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s: %s: %s", dir, stage, strerror(-rc));
	if (r)
		an_run_free(r);
	return rc;
}

void an_run_free(struct an_run *r)
{
	if (!r)
		return;
	for (size_t i = 0; r->ts && i < r->n_threads; i++)
		an_scan_free(&r->ts[i]);
	an_scan_holds_free(r);
	an_budget_free(r);
	free(r->sev);
	free(r->sems);
	free(r->cbar);
	for (size_t i = 0; r->tl && i < r->n_threads; i++)
		free(r->tl[i].iv);
	for (size_t i = 0; i < r->n_problems; i++)
		free(r->problems[i]);
	for (size_t i = 0; i < r->n_notes; i++)
		free(r->notes[i]);
	for (size_t i = 0; i < r->n_strs; i++)
		free(r->strs[i]);
	free(r->problems);
	free(r->notes);
	free(r->strs);
	free(r->tl);
	free(r->sites_tab);
	free(r->ts);
	free(r->th);
	free(r->funcs);
	free(r->locks);
	free(r->bars);
	an_source_close(r);
	free(r->dir);
	free(r);
}

/* ---- accessors ---- */

const char *an_run_dir(const struct an_run *r) { return r->dir; }
uint64_t an_run_n_events(const struct an_run *r) { return r->n_events; }
size_t an_run_n_problems(const struct an_run *r) { return r->n_problems; }
const char *an_run_problem(const struct an_run *r, size_t i)
{
	return i < r->n_problems ? r->problems[i] : NULL;
}
size_t an_run_n_notes(const struct an_run *r) { return r->n_notes; }
const char *an_run_note(const struct an_run *r, size_t i)
{
	return i < r->n_notes ? r->notes[i] : NULL;
}

struct an_fig an_run_fig(const struct an_run *r, enum an_metric m)
{
	return (unsigned)m < AN_N_METRICS ? r->fig[m] : an_fig_na("no such metric");
}

void an_run_span(const struct an_run *r, int64_t *t0_ns, int64_t *t1_ns)
{
	*t0_ns = an_time_ns(r, r->t0);
	*t1_ns = an_time_ns(r, r->t1);
}

size_t an_run_n_threads(const struct an_run *r) { return r->n_threads; }
const char *an_run_n_unsure(const struct an_run *r) { return r->n_unsure; }
const struct an_thread *an_run_thread(const struct an_run *r, size_t i)
{
	return i < r->n_threads ? &r->th[i] : NULL;
}
size_t an_run_n_funcs(const struct an_run *r) { return r->n_funcs; }
const struct an_func *an_run_func(const struct an_run *r, size_t i)
{
	return i < r->n_funcs ? &r->funcs[i] : NULL;
}
size_t an_run_n_locks(const struct an_run *r) { return r->n_locks; }
const struct an_lock *an_run_lock(const struct an_run *r, size_t i)
{
	return i < r->n_locks ? &r->locks[i].pub : NULL;
}
size_t an_run_n_sems(const struct an_run *r) { return r->n_sems; }
const struct an_sem *an_run_sem(const struct an_run *r, size_t i)
{
	return i < r->n_sems ? &r->sems[i].pub : NULL;
}
size_t an_run_n_barriers(const struct an_run *r) { return r->n_bars; }
const struct an_barrier *an_run_barrier(const struct an_run *r, size_t i)
{
	return i < r->n_bars ? &r->bars[i].pub : NULL;
}
