/*
 * an_run.c — one run: opens its trace, chooses the measured interval [t0, t1], runs the
 * per-thread passes (an_scan.c) and the cross-thread joins (an_join.c), decides which threads are
 * the N processors, and turns the tick totals into the figures of METRICS.md. Also the run's
 * accessors and its owned strings (problems, notes, reasons).
 *
 * Processors: every thread except a "master" — one that created threads and never waited on a
 * barrier (it only starts and joins the workers). When the caller says how many threads the run
 * had (opts.n_threads) and counting the masters matches it, they count. A master's create/join
 * time is reported as a note: it overlaps the workers' start/end idle (IT_edge).
 */
#include <errno.h>
#include <math.h>
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
		return (int64_t)ticks;
	return (int64_t)llround((double)ticks * r->info->ns_per_tick);
}

int64_t an_time_ns(const struct an_run *r, uint64_t ticks)
{
	return sgr_ticks_to_ns(r->info, ticks);
}

/* ---- the measured interval ---- */

/* Picks [t0, t1]: the region named in opts (or the first one begun), else the threads' span.
 * Returns 1 when the clip is narrower than the full range that was scanned. */
/* The id of the region named in opts, SG_NO_ID when none is named or it is not defined. */
static uint32_t region_id(const struct an_run *r)
{
	for (size_t i = 0; r->opts.region && i < sgr_n_regions(r->tr); i++) {
		const struct sgr_region *g = sgr_region_at(r->tr, i);
		if (g->name && strcmp(g->name, r->opts.region) == 0)
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
	} else {
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

static void choose_processors(struct an_run *r)
{
	int n_all = 0, n_work = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		int has_bar = 0;
		for (size_t k = 0; k < s->n_iv && !has_bar; k++)
			has_bar = s->iv[k].type == IV_BARRIER;
		int master = r->n_threads > 1 && s->n_create > 0 && !has_bar;
		r->th[i].processor = s->seen ? !master : 0;
		n_all += s->seen;
		n_work += r->th[i].processor;
	}
	if (r->opts.n_threads > 0 && n_work != r->opts.n_threads) {
		if (n_all == r->opts.n_threads) {
			for (size_t i = 0; i < r->n_threads; i++)
				r->th[i].processor = r->ts[i].seen;
			n_work = n_all;
		} else {
			an_run_problem_add(r, "%s: the run had N=%d but the trace shows %d worker "
					   "thread(s) (%d in all); figures use %d", r->dir,
					   r->opts.n_threads, n_work, n_all, n_work);
		}
	}
	r->n_proc = n_work;
}

/* Splits every create/join interval: create is all primitive; a join waits (part) until the
 * joined thread's last event, the rest is primitive. Returns the primitive ticks of thread i
 * and sets *jwait to the joins' waiting ticks. */
static uint64_t thread_prims(struct an_run *r, size_t i, uint64_t *jwait)
{
	struct an_tscan *s = &r->ts[i];
	uint64_t prim = 0;
	*jwait = 0;
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
		prim += (v->b - v->a) - v->part;
		*jwait += v->part;
	}
	return prim;
}

static void thread_figures(struct an_run *r)
{
	for (size_t i = 0; i < r->n_threads; i++) {
		struct an_tscan *s = &r->ts[i];
		struct an_thread *t = &r->th[i];
		t->index = sgr_thread(r->tr, i)->index;
		t->n_events = s->n_events;
		if (!s->seen) {
			t->s_ns = t->e_ns = an_time_ns(r, r->t0);
			continue;
		}
		t->s_ns = an_time_ns(r, s->first);
		t->e_ns = an_time_ns(r, s->last);
		t->t_ns = an_ticks_ns(r, s->last - s->first);
		uint64_t jwait, prim = thread_prims(r, i, &jwait);
		t->thread_ns = an_ticks_ns(r, prim);
		t->cond_ns = an_ticks_ns(r, s->t_cond);
		int64_t rel = (int64_t)llround((double)s->n_releases * r->opts.unlock_ns);
		t->lock_ovh_ns += rel;
		int64_t busy = t->t_ns - t->barrier_wait_ns - t->barrier_ovh_ns - t->lock_wait_ns -
			       t->lock_ovh_ns - t->cond_ns - t->thread_ns - an_ticks_ns(r, jwait);
		t->busy_ns = busy > 0 ? busy : 0;
		if (!t->processor && (s->t_thread > 0))
			an_run_note_add(r, "thread %u (master, not among N): create/join %.6f s, "
					"overlapping the workers' start/end idle (IT_edge)", t->index,
					(double)an_ticks_ns(r, s->t_thread) * 1e-9);
	}
}

/* ---- figures ---- */

static int n_cpus_here(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

void an_run_set_opts(struct an_run *r, const struct an_run_opts *opts)
{
	if (opts && opts != &r->opts)
		r->opts = *opts;
	struct an_fig *f = r->fig;
	double N = r->n_proc;
	double tp = (double)an_ticks_ns(r, r->t1 - r->t0) * 1e-9;
	int64_t sum_t = 0, itb = 0, itl = 0, itc = 0, ptb = 0, ptl = 0, ptt = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct an_thread *t = &r->th[i];
		if (!t->processor)
			continue;
		sum_t += t->t_ns;
		itb += t->barrier_wait_ns;
		ptb += t->barrier_ovh_ns;
		itl += t->lock_wait_ns;
		ptl += t->lock_ovh_ns;
		itc += t->cond_ns;
		ptt += t->thread_ns;
	}
	f[AN_N] = an_fig_val(N);
	f[AN_T_PARA] = an_fig_val(tp);
	f[AN_IT_EDGE] = an_fig_val(N * tp - (double)sum_t * 1e-9);
	f[AN_IT_BARRIER] = an_fig_val((double)itb * 1e-9);
	f[AN_IT_LOCK] = an_fig_val((double)itl * 1e-9);
	f[AN_IT_COND] = an_fig_val((double)itc * 1e-9);
	f[AN_PT_BARRIER] = an_fig_val((double)ptb * 1e-9);
	f[AN_PT_LOCK] = an_fig_val((double)ptl * 1e-9);
	f[AN_PT_THREAD] = an_fig_val((double)ptt * 1e-9);
	double it = f[AN_IT_EDGE].value + f[AN_IT_BARRIER].value + f[AN_IT_LOCK].value +
		    f[AN_IT_COND].value;
	double pt = f[AN_PT_BARRIER].value + f[AN_PT_LOCK].value + f[AN_PT_THREAD].value;
	f[AN_IT] = an_fig_val(it);
	f[AN_PT] = an_fig_val(pt);
	int cpus = r->opts.n_cpus > 0 ? r->opts.n_cpus : n_cpus_here();
	f[AN_OVERSUB] = an_fig_val(N > cpus ? 1 : 0);
	f[AN_PARALLELISM] = tp > 0 ? an_fig_val((double)an_ticks_ns(r, r->par_busy) * 1e-9 / tp)
				   : an_fig_na("T_para is zero");
	f[AN_PAR_SHARE] = r->par_busy ? an_fig_val((double)r->par_multi / (double)r->par_busy)
				      : an_fig_na("no busy time");

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
		f[AN_U] = an_fig_val(N * te - ts - (it + pt + ml));
		f[AN_L_E] = an_fig_val(te * (1 - E));
		double Ltot = f[AN_L].value + f[AN_U].value / N;
		f[AN_CHECK3] = an_fig_val((te - ts / N - Ltot) / te);
		/* (10) against the runner's own T_para when known: an independent measurement;
		 * relative to T_para' (1 - E'), or to T_para' where that is zero (N=1 with T_seq
		 * from this very run) */
		double tref = r->opts.t_para_ref_s > 0 ? r->opts.t_para_ref_s : tp;
		double lref = tref * (1 - ts / (N * tref));
		f[AN_CHECK10] = wall ? an_fig_na("E from wall-clock times: no second measurement "
						 "of that T_para to check (10) against")
				: an_fig_val((Ltot - lref) / (lref != 0 ? lref : tref));
	} else {
		const char *why = N <= 0 ? "no processor thread"
				  : "T_seq unknown (no sequential or N=1 run given)";
		f[AN_T_SEQ] = an_fig_na(why);
		f[AN_E] = f[AN_S] = f[AN_U] = f[AN_L_E] = f[AN_CHECK3] = f[AN_CHECK10] =
			an_fig_na(why);
	}
}

/* ---- open / free ---- */

static int scan_all(struct an_run *r, uint64_t lo, uint64_t hi)
{
	int rc = 0;
	r->n_events = 0;
	an_scan_holds_free(r);   /* those of an unclipped pass before */
	for (size_t i = 0; i < r->n_threads; i++) {
		if ((rc = an_scan_thread(r, i, lo, hi)) < 0)
			break;
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
	struct an_run *r = calloc(1, sizeof *r);
	if (!r || !(r->dir = strdup(dir))) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto out;
	}
	if (opts)
		r->opts = *opts;
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
	choose_processors(r);
	if ((rc = an_join_barriers(r)) < 0 || (rc = an_join_locks(r)) < 0 ||
	    (rc = an_join_parallelism(r)) < 0)
		goto out;
	thread_figures(r);
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
	*out = r;
	r = NULL;
	rc = 0;
out:
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
	free(r->ts);
	free(r->th);
	free(r->funcs);
	free(r->locks);
	free(r->bars);
	if (r->tr)
		sgr_close(r->tr);
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
size_t an_run_n_barriers(const struct an_run *r) { return r->n_bars; }
const struct an_barrier *an_run_barrier(const struct an_run *r, size_t i)
{
	return i < r->n_bars ? &r->bars[i].pub : NULL;
}
