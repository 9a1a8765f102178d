/*
 * an_report_text.c — the terminal report: aligned tables with units for a run (figures, threads,
 * function profile, locks, barriers) and for an experiment (points, p_x, sequential patterns,
 * the scalability matrix laid out like the paper's Fig. 14), and one line per unavailable source
 * saying why. Times print with the unit that fits (ns, us, ms, s) and 3 significant digits,
 * ratios with 3 decimals: what a reader compares at a glance. CSV and JSON keep full precision
 * in seconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

#define MAX_ROWS 20   /* functions and locks listed per run */

/* Seconds with the unit that fits and 3 significant digits: "0", "850 ns", "12.3 us",
 * "2.00 ms", "-4.56 s", "1234 s". */
static const char *fmt_time(char *buf, size_t n, double s)
{
	static const struct { double scale; const char *unit; } units[] = {
		{ 1e9, "ns" }, { 1e6, "us" }, { 1e3, "ms" }, { 1, "s" },
	};
	double a = fabs(s);
	size_t u = 0;
	if (a == 0 || !isfinite(s)) {
		snprintf(buf, n, isfinite(s) ? "0" : "-");
		return buf;
	}
	while (u + 1 < sizeof units / sizeof units[0] && a * units[u].scale >= 999.5)
		u++;
	double v = s * units[u].scale, av = fabs(v);
	snprintf(buf, n, av >= 99.95 ? "%.0f %s" : av >= 9.995 ? "%.1f %s" : "%.2f %s", v,
		 units[u].unit);
	return buf;
}

/* A figure of metric m for a terminal column ("-" when unavailable): times as fmt_time, counts
 * as integers, the relative errors of checks (3) and (10) with 2 significant digits, other
 * ratios with 3 decimals (3 significant digits when very large or very small). */
static const char *fmt_fig(char *buf, size_t n, struct an_fig x, enum an_metric m)
{
	double a = fabs(x.value);
	if (x.unavailable || !isfinite(x.value))
		snprintf(buf, n, "-");
	else if (!strcmp(an_metric_unit(m), "s"))
		fmt_time(buf, n, x.value);
	else if (m == AN_N || m == AN_OVERSUB)
		snprintf(buf, n, "%.0f", x.value);
	else if (m == AN_CHECK3 || m == AN_CHECK10)
		snprintf(buf, n, "%.2g", x.value);
	else if (m == AN_CLOSURE)
		snprintf(buf, n, "%+.2f%%", 100 * x.value);
	else if (a != 0 && (a < 0.001 || a >= 1e4))
		snprintf(buf, n, "%.3g", x.value);
	else
		snprintf(buf, n, "%.3f", x.value);
	return buf;
}

static void fig_cell(FILE *f, int w, struct an_fig x, enum an_metric m)
{
	char buf[32];
	fprintf(f, " %*s", w, fmt_fig(buf, sizeof buf, x, m));
}

/* The same with a mark after an available value other than 0 ("12.3 ms!"). */
static void fig_cell_mark(FILE *f, int w, struct an_fig x, enum an_metric m, const char *mark)
{
	char buf[32], cell[40];
	fmt_fig(buf, sizeof buf, x, m);
	snprintf(cell, sizeof cell, "%s%s", buf, x.unavailable || x.value == 0 ? "" : mark);
	fprintf(f, " %*s", w, cell);
}

/* Does the tracing cost make point o's latency sources unreliable (docs/analyzer.md)? */
static int cost_marked(const struct an_point *o)
{
	return !o->med[AN_TRACE_SHARE].unavailable &&
	       o->med[AN_TRACE_SHARE].value > AN_TRACE_SHARE_MARK;
}

/* A latency source or L: the columns the mark goes on. */
static int is_source(enum an_metric m)
{
	const char *n = an_metric_name(m);
	return m == AN_L || !strncmp(n, "IT_", 3) || !strncmp(n, "PT_", 3) || m == AN_ML;
}

/* One line per metric unavailable, with the first reason met (figs: n rows of AN_N_METRICS). */
static void unavailable_lines(FILE *f, const struct an_fig *const *figs, size_t n)
{
	int head = 0;
	for (int m = 0; m < AN_N_METRICS; m++) {
		const char *why = NULL;
		for (size_t i = 0; i < n && !why; i++)
			why = figs[i][m].unavailable;
		if (!why)
			continue;
		if (!head++)
			fputs("\nUnavailable:\n", f);
		fprintf(f, "  %-18s %s\n", an_metric_name((enum an_metric)m), why);
		if (m == AN_ML)
			fprintf(f, "  %-18s (so L is without the memory stall, and U holds it "
				"beside the extra work)\n", "");
	}
}

/* A time in ns, formatted into buf (char[16]) by fmt_time. */
#define NS(buf, ns) fmt_time((buf), sizeof(buf), (double)(ns) * 1e-9)

/* "15,400,000" */
static const char *fmt_count(char *buf, size_t n, uint64_t v)
{
	char d[32];
	int len = snprintf(d, sizeof d, "%llu", (unsigned long long)v), o = 0;
	for (int i = 0; i < len && o + 2 < (int)n; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = 0;
	return buf;
}

/* The line under a throttled function of a profile: when and why its calls stopped being
 * recorded, and what was counted instead. */
static void throttled_line(FILE *f, const char *indent, const struct an_func *x)
{
	char a[32], b[32], t[16];
	if (!x->throttled)
		return;
	fprintf(f, "%s  throttled: after %s calls at %.3g s (%s)", indent,
		fmt_count(a, sizeof a, x->throttled_after), (double)x->throttled_ns * 1e-9,
		x->throttled == SG_THROTTLE_BUDGET ? "budget" : "rule");
	if (x->n_throttled > 1)
		fprintf(f, " on the first of %d threads", x->n_throttled);
	fprintf(f, "; %s calls counted, ~%s estimated\n", fmt_count(b, sizeof b, x->unrec_calls),
		fmt_time(t, sizeof t, (double)x->unrec_ns * 1e-9));
}

/* The legend under a profile with throttled functions. */
static void throttled_legend(FILE *f, const char *indent, const struct an_run *r)
{
	for (size_t i = 0; i < an_run_n_funcs(r); i++)
		if (an_run_func(r, i)->throttled) {
			fprintf(f, "%s~ throttled (calls counted, not recorded): calls are complete, incl "
				"holds the library's estimate of the counted calls' time; their time is "
				"also in their callers' excl (no events to subtract it)\n", indent);
			return;
		}
}

/* "tracing cost: 3.1 % of N·T_para (12.3 ms)", or why it is unavailable; `tail` (a point's
 * measured overhead, "" for none) after it. */
static void cost_line(FILE *f, const char *indent, struct an_fig cost, struct an_fig share,
		      const char *tail)
{
	char t[16];
	if (share.unavailable) {
		fprintf(f, "%stracing cost: unavailable (%s)%s\n", indent, share.unavailable, tail);
		return;
	}
	fprintf(f, "%stracing cost: %.1f %% of N·T_para (%s)%s%s\n", indent, 100 * share.value,
		fmt_time(t, sizeof t, cost.value),
		share.value > AN_TRACE_SHARE_MARK ? ": above 5 %, the latency sources hold that much "
		"of the library's own time" : "", tail);
}

static const enum an_metric comp_rows[] = {
	AN_T_PARA_C, AN_E_C, AN_L_C, AN_IT_C, AN_PT_C, AN_IT_COND_C, AN_PT_BARRIER_C,
	AN_PT_LOCK_C, AN_PT_SEM_C, AN_PT_THREAD_C, AN_COMPUTE_C, AN_U_C, AN_CLOSURE_C,
};
/* The measured figure a compensated one stands beside. */
static enum an_metric measured_of(enum an_metric m)
{
	switch (m) {
	case AN_T_PARA_C: return AN_T_PARA;
	case AN_E_C: return AN_E;
	case AN_L_C: return AN_L;
	case AN_IT_C: return AN_IT;
	case AN_PT_C: return AN_PT;
	case AN_IT_COND_C: return AN_IT_COND;
	case AN_PT_BARRIER_C: return AN_PT_BARRIER;
	case AN_PT_LOCK_C: return AN_PT_LOCK;
	case AN_PT_SEM_C: return AN_PT_SEM;
	case AN_PT_THREAD_C: return AN_PT_THREAD;
	case AN_COMPUTE_C: return AN_COMPUTE;
	case AN_U_C: return AN_U;
	default: return AN_CLOSURE;
	}
}

static const enum an_metric run_rows[] = {
	AN_N, AN_T_PARA, AN_T_SEQ, AN_E, AN_S, AN_L, AN_IT_EDGE, AN_IT_BARRIER, AN_IT_LOCK,
	AN_IT_COND, AN_IT_SEM, AN_IT_JOIN, AN_IT_SCHED, AN_IT_BLOCKED, AN_PT_BARRIER, AN_PT_LOCK,
	AN_PT_SEM, AN_PT_THREAD, AN_ML, AN_ML_RAW, AN_COMPUTE, AN_U, AN_CLOSURE, AN_L_E, AN_L_W1,
	AN_CHECK3, AN_CHECK10, AN_PARALLELISM, AN_PAR_SHARE, AN_CPU_UTIL, AN_MEM_RATE, AN_MISS_RATE,
	AN_OVERSUB, AN_TRACE_COST, AN_TRACE_SHARE,
};

static void run_sites_text(FILE *f, const struct an_run *r);

int an_report_run_text(FILE *f, const struct an_run *r)
{
	return an_report_run_text_flags(f, r, 0);
}

int an_report_run_text_flags(FILE *f, const struct an_run *r, unsigned flags)
{
	int64_t t0, t1;
	an_run_span(r, &t0, &t1);
	fprintf(f, "Run %s: %llu events, measured interval %lld..%lld ns\n", an_run_dir(r),
		(unsigned long long)an_run_n_events(r), (long long)t0, (long long)t1);
	for (size_t i = 0; i < an_run_n_notes(r); i++)
		fprintf(f, "  note: %s\n", an_run_note(r, i));
	cost_line(f, "  ", an_run_fig(r, AN_TRACE_COST), an_run_fig(r, AN_TRACE_SHARE), "");
	fputs("\nFigure                    value\n", f);
	for (size_t k = 0; k < sizeof run_rows / sizeof run_rows[0]; k++) {
		struct an_fig x = an_run_fig(r, run_rows[k]);
		fprintf(f, "%-18s", an_metric_name(run_rows[k]));
		fig_cell(f, 12, x, run_rows[k]);
		if (run_rows[k] == AN_N && an_run_n_unsure(r))   /* said beside N (an_procs.c) */
			fprintf(f, "  (not certain: %s)", an_run_n_unsure(r));
		if (run_rows[k] == AN_L_E && !x.unavailable)   /* (10), one definition */
			fputs(an_run_fig(r, AN_L_W1).value != 0 ? "  (= L + U/N - L(W,1)/N: T_seq is "
			      "the N=1 runs', with their own overhead L_W1)" : "  (= L + U/N)", f);
		fputs(x.unavailable ? "  unavailable\n" : "\n", f);
	}
	if (flags & AN_REPORT_COMPENSATE) {
		fputs("\nCompensated (the estimated tracing cost taken out of the parts it fell in; "
		      "beside the measured figures, docs/analyzer.md)\n", f);
		fprintf(f, "%-18s %12s %12s\n", "Figure", "measured", "compensated");
		for (size_t k = 0; k < sizeof comp_rows / sizeof comp_rows[0]; k++) {
			enum an_metric m = comp_rows[k], mm = measured_of(m);
			struct an_fig x = an_run_fig(r, m);
			fprintf(f, "%-18s", an_metric_name(mm));
			fig_cell(f, 12, an_run_fig(r, mm), mm);
			fig_cell(f, 12, x, m);
			fprintf(f, x.unavailable ? "  unavailable: %s\n" : "\n", x.unavailable);
		}
	}
	char c[16][16];
	fputs("\nThread budget: T_i = compute + runnable + blocked + every wait and primitive "
	      "(each without its runnable part); on CPU = compute + the primitives' CPU time by the "
	      "switch records; kernel CPU = the kernel's CPU time (it also charges a thread's switch "
	      "in, and a wake-up on an idle CPU)\n"
	      "Thread  proc        T_i     on CPU kernel CPU    compute   runnable    blocked   bar.wait"
	      "    bar.ovh  lock.wait   lock.ovh       cond   sem.wait    sem.ovh  join.wait"
	      "  create/join\n", f);
	for (size_t i = 0; i < an_run_n_threads(r); i++) {
		const struct an_thread *t = an_run_thread(r, i);
		fprintf(f, "%6u  %4s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s"
			" %10s %10s %12s\n", t->index, t->processor ? "yes" : "no", NS(c[0], t->t_ns),
			t->cpu_ns < 0 ? "-" : NS(c[1], t->cpu_ns),
			t->cpu_kernel_ns < 0 ? "-" : NS(c[15], t->cpu_kernel_ns), NS(c[2], t->busy_ns),
			t->sched_ns < 0 ? "-" : NS(c[3], t->sched_ns),
			t->blocked_ns < 0 ? "-" : NS(c[4], t->blocked_ns),
			NS(c[5], t->barrier_wait_ns), NS(c[6], t->barrier_ovh_ns),
			NS(c[7], t->lock_wait_ns), NS(c[8], t->lock_ovh_ns), NS(c[9], t->cond_ns),
			NS(c[10], t->sem_wait_ns), NS(c[11], t->sem_ovh_ns),
			NS(c[12], t->join_wait_ns), NS(c[13], t->thread_ns));
	}
	if (an_run_n_funcs(r)) {
		fputs("\nFunction                          calls       incl       excl  excl[%]\n", f);
		for (size_t i = 0; i < an_run_n_funcs(r) && i < MAX_ROWS; i++) {
			const struct an_func *x = an_run_func(r, i);
			fprintf(f, "%-27.27s%s %10llu %10s %10s %8.2f\n", x->name,
				x->throttled ? "~" : " ", (unsigned long long)x->calls,
				NS(c[0], x->incl_ns), NS(c[1], x->excl_ns), x->excl_pct);
			throttled_line(f, "", x);
		}
		throttled_legend(f, "", r);
	}
	if (an_run_n_locks(r) || an_run_n_sems(r) || an_run_n_barriers(r))
		fputs("\nObjects: wait and ovh are the processors' parts of IT and PT (without their "
		      "runnable time; a lock's release cost is in PT_lock only), runnable their "
		      "runnable time in the object's waits (in IT_sched), others the time of threads "
		      "that are not processors (outside the books); counts and max.wait are every "
		      "thread's\n", f);
	if (an_run_n_locks(r)) {
		fputs("\nLock (most contended)  kind     acquires contended       wait        ovh"
		      "   runnable     others       hold   max.wait\n", f);
		for (size_t i = 0; i < an_run_n_locks(r) && i < MAX_ROWS; i++) {
			const struct an_lock *l = an_run_lock(r, i);
			fprintf(f, "%21u  %-7s %9llu %9llu %10s %10s %10s %10s %10s %10s\n", l->id,
				l->kind, (unsigned long long)l->acquires,
				(unsigned long long)l->contended, NS(c[0], l->wait_ns),
				NS(c[1], l->ovh_ns), NS(c[4], l->runnable_ns), NS(c[5], l->others_ns),
				NS(c[2], l->hold_ns), NS(c[3], l->max_wait_ns));
		}
		if (an_run_n_locks(r) > MAX_ROWS)
			fprintf(f, "  ... %zu more (--json lists them all)\n", an_run_n_locks(r) - MAX_ROWS);
	}
	if (an_run_n_sems(r)) {
		fputs("\nSemaphore (most waited on)  waits  blocked  failed timeouts    posts       wait"
		      "        ovh   runnable     others   max.wait\n", f);
		for (size_t i = 0; i < an_run_n_sems(r) && i < MAX_ROWS; i++) {
			const struct an_sem *x = an_run_sem(r, i);
			fprintf(f, "%26u %6llu %8llu %7llu %8llu %8llu %10s %10s %10s %10s %10s\n", x->id,
				(unsigned long long)x->waits, (unsigned long long)x->blocked,
				(unsigned long long)x->failed, (unsigned long long)x->timeouts,
				(unsigned long long)x->posts, NS(c[0], x->wait_ns), NS(c[1], x->ovh_ns),
				NS(c[3], x->runnable_ns), NS(c[4], x->others_ns),
				NS(c[2], x->max_wait_ns));
		}
		if (an_run_n_sems(r) > MAX_ROWS)
			fprintf(f, "  ... %zu more (--json lists them all)\n", an_run_n_sems(r) - MAX_ROWS);
	}
	if (an_run_n_barriers(r)) {
		fputs("\nBarrier  episodes       wait        ovh   runnable     others  worst skew "
		      "(episode)\n", f);
		for (size_t i = 0; i < an_run_n_barriers(r); i++) {
			const struct an_barrier *b = an_run_barrier(r, i);
			fprintf(f, "%7u %9llu %10s %10s %10s %10s %11s (%u)\n", b->id,
				(unsigned long long)b->episodes, NS(c[0], b->wait_ns),
				NS(c[1], b->ovh_ns), NS(c[3], b->runnable_ns), NS(c[4], b->others_ns),
				NS(c[2], b->worst_skew_ns), b->worst_episode);
		}
	}
	run_sites_text(f, r);
	const struct an_fig *figs[AN_N_METRICS];
	struct an_fig row[AN_N_METRICS];
	for (int m = 0; m < AN_N_METRICS; m++)
		row[m] = an_run_fig(r, (enum an_metric)m);
	figs[0] = row;
	unavailable_lines(f, figs, 1);
	for (size_t i = 0; i < an_run_n_problems(r); i++)
		fprintf(f, "%sproblem: %s\n", i ? "" : "\n", an_run_problem(r, i));
	return ferror(f) ? -EIO : 0;
}

/* ---- call sites (an_sites.c) ---- */

#define SITES_TOP 3           /* call sites listed per source */

/* The top sites of every source with time, one line each:
 *   IT_barrier  lu.c:412 in daxpy_sweep  61 % of barrier waiting (3.2 ms; threads 1 2 3) */
static void sites_lines(FILE *f, const char *indent, const struct an_sites *v, size_t n_src)
{
	char lab[256], t[16];
	int w = 0;
	for (size_t k = 0; k < n_src; k++)
		for (size_t i = 0; i < v[k].n && i < SITES_TOP; i++) {
			int len = (int)strlen(an_site_label(&v[k].v[i], lab, sizeof lab));
			w = len > w ? len : w;
		}
	w = w > 48 ? 48 : w;
	int any = 0;
	for (size_t k = 0; k < n_src; k++) {
		for (size_t i = 0; i < v[k].n && i < SITES_TOP; i++) {
			const struct an_site *x = &v[k].v[i];
			fprintf(f, "%s%-11s %-*s %4.0f %% of %s (%s; thread%s", indent,
				an_metric_name(v[k].source), w, an_site_label(x, lab, sizeof lab),
				100 * x->share, an_site_source_what(v[k].source),
				fmt_time(t, sizeof t, x->s), x->n_threads == 1 ? "" : "s");
			for (size_t j = 0; j < x->n_threads && j < 8; j++)
				fprintf(f, " %u", x->threads[j].index);
			fputs(x->n_threads > 8 ? " ...)\n" : ")\n", f);
			any = 1;
		}
		if (v[k].n > SITES_TOP)
			fprintf(f, "%s%-11s ... %zu more site(s) (--json lists them all)\n", indent,
				"", v[k].n - SITES_TOP);
	}
	if (!any)
		fprintf(f, "%sno time in synchronization\n", indent);
}

/* The run's call sites, or the one line saying why there are none (an_sites_state_text). */
static void run_sites_text(FILE *f, const struct an_run *r)
{
	size_t n_src = an_site_n_sources();
	an_sites_row v;
	enum an_sites_state st = an_run_sites_state(r);
	if (st != AN_SITES_RECORDED) {
		fprintf(f, "\n%s\n", an_sites_state_text(st));
		return;
	}
	for (size_t k = 0; k < n_src; k++)
		if (an_run_sites(r, an_site_source_at(k), &v[k]) < 0)
			memset(&v[k], 0, sizeof v[k]);
	fprintf(f, "\nCall sites (top %d per source; share of the source, the processors behind "
		"it)\n", SITES_TOP);
	sites_lines(f, "  ", v, n_src);
	for (size_t k = 0; k < n_src; k++)
		an_sites_free(&v[k]);
}

/* The state every method's point shares (AN_SITES_UNREADABLE when no method has a point), or
 * -1 when they differ. */
static int exp_sites_common(const struct an_exp *e, an_sites_row *v, size_t n_src)
{
	int common = -2;
	for (size_t i = 0; i < an_exp_n_methods(e); i++) {
		if (!an_exp_sites_point(e, an_exp_method(e, i)))
			continue;
		int st = (int)an_sites_row_state(v[i], n_src);
		common = common == -2 || common == st ? st : -1;
	}
	return common == -2 ? (int)AN_SITES_UNREADABLE : common;
}

/* Each method at its largest N (an_exp_sites_point): the median repetition's call sites, or
 * one line saying why there are none — once when every method's point says the same. */
static void exp_sites_text(FILE *f, const struct an_exp *e)
{
	size_t n_src = an_site_n_sources(), n_m = an_exp_n_methods(e);
	int recorded = 0;
	an_sites_row *v = an_exp_sites_table(e, &recorded);
	if (!v)
		return;
	int common = exp_sites_common(e, v, n_src);
	if (!recorded && common >= 0) {
		fprintf(f, "\n%s\n", an_sites_state_text((enum an_sites_state)common));
	} else {
		fprintf(f, "\nCall sites (each method at its largest N, the median repetition's; top %d "
			"per source, its share, the processors behind it)\n", SITES_TOP);
		for (size_t i = 0; i < n_m; i++) {
			const struct an_point *o = an_exp_sites_point(e, an_exp_method(e, i));
			if (!o)
				continue;
			enum an_sites_state st = an_sites_row_state(v[i], n_src);
			fprintf(f, "  %s N=%d%s%s\n", o->method, o->n_threads,
				st == AN_SITES_RECORDED ? "" : ": ", an_sites_state_text(st));
			if (st == AN_SITES_RECORDED)
				sites_lines(f, "    ", v[i], n_src);
		}
	}
	an_exp_sites_table_free(e, v);
}

/* The p_x line's latencies: L, then T_para (1 - E) stated with its terms, which add up (the
 * repetition of the median T_para, named: an_point_identity):
 *   L = 97.5 ns   (T_para (1 - E) = 210 ns: L + U/N - L(W,1)/N = 97.5 ns + 168 ns - 55.0 ns,
 *   run 2's, the repetition of the median T_para; (3) holds to 0.00 %) */
static void px_identity_text(FILE *f, const struct an_exp *e, const struct an_point *o,
			     const char *lat)
{
	char c[5][16];
	struct an_identity x;
	const char *note = an_point_l_e_note(o);
	fprintf(f, "%s   (T_para (1 - E) = %s: %s", lat,
		fmt_time(c[0], sizeof c[0], o->med[AN_L_E].value), note);
	if (!strncmp(note, "by construction", 15) || an_point_identity(e, o, &x) < 0) {
		fputs(")\n", f);
		return;
	}
	fprintf(f, " = %s + %s", fmt_time(c[1], sizeof c[1], x.l),
		fmt_time(c[2], sizeof c[2], x.u_n));
	if (strstr(note, "L(W,1)"))
		fprintf(f, " - %s", fmt_time(c[3], sizeof c[3], x.l_w1_n));
	if (x.n_runs == 2)
		fprintf(f, ", the mean of runs %lld and %lld's, the repetitions of the median T_para",
			(long long)x.run_ids[0], (long long)x.run_ids[1]);
	else
		fprintf(f, ", run %lld's, the repetition of the median T_para",
			(long long)x.run_ids[0]);
	fprintf(f, "; (3) holds to %.2f %%)\n", 100 * x.check3);
}

static const enum an_metric exp_cols[] = {
	AN_T_PARA, AN_T_SEQ, AN_E, AN_S, AN_L, AN_IT_EDGE, AN_IT_BARRIER, AN_IT_LOCK, AN_IT_COND,
	AN_IT_SEM, AN_IT_JOIN, AN_IT_SCHED, AN_IT_BLOCKED, AN_PT_BARRIER, AN_PT_LOCK, AN_PT_SEM,
	AN_PT_THREAD, AN_ML, AN_U, AN_CLOSURE, AN_PARALLELISM, AN_PAR_SHARE,
};
#define N_EXP_COLS (sizeof exp_cols / sizeof exp_cols[0])

/* Wide enough for "-123 ms" and for the column's name. */
static int exp_col_width(enum an_metric m)
{
	int w = (int)strlen(an_metric_name(m));
	return w > 9 ? w : 9;
}

/* The books: how well every point's parts add up to N T_para, and what a negative U means. */
static void books_text(FILE *f, const struct an_exp *e)
{
	double worst = 0;
	const struct an_point *w = NULL;
	size_t n_closed = 0, n_open = 0;
	const char *why = NULL;
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		struct an_fig c = o->med[AN_CLOSURE];
		if (c.unavailable) {
			n_open++;
			why = why ? why : c.unavailable;
			continue;
		}
		n_closed++;
		if (!w || fabs(c.value) > fabs(worst))
			worst = c.value, w = o;
	}
	fputs("\nThe books: N T_para = IT + PT + CPU time in compute (= T_seq + ML + U), every part "
	      "measured\n", f);
	if (w)
		fprintf(f, "  closure (N T_para - the parts) / N T_para: within %.2f %% on %zu point(s) "
			"(the largest at %s/%s/N=%d): what the kernel's run delay and the switch records "
			"disagree on\n", 100 * fabs(worst), n_closed, w->model, w->method,
			w->n_threads);
	if (n_open)
		fprintf(f, "  %zu point(s) without a closure: %s\n", n_open, why);
	size_t neg = 0;
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (o->med[AN_U].unavailable || o->med[AN_U].value >= 0)
			continue;
		char u[16], lo[16], hi[16];
		if (!neg++)
			fputs("  U < 0, less CPU time in compute than T_seq: superlinear (the parallel "
			      "program does less work, e.g. its data fit the caches better), or within "
			      "the spread of the repetitions:\n", f);
		fprintf(f, "    %s/%s/N=%d: U = %s (repetitions %s .. %s)\n", o->model, o->method,
			o->n_threads, fmt_time(u, sizeof u, o->med[AN_U].value),
			fmt_time(lo, sizeof lo, o->min[AN_U].value),
			fmt_time(hi, sizeof hi, o->max[AN_U].value));
	}
}

/* Fig. 12: parallelism of the plain methods' points, by N, in order of problem size W. */
static void parallelism_text(FILE *f, const struct an_exp *e)
{
	int ns[64];
	size_t k = 0;
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		size_t j = 0;
		while (j < k && ns[j] != o->n_threads)
			j++;
		if (j == k && k < 64 && strcmp(o->model, "method") == 0)
			ns[k++] = o->n_threads;
	}
	fputs("\nParallelism vs problem size (CPU time / T_para; share of the CPU time with >= 2 "
	      "processors on CPU)\n", f);
	for (size_t j = 0; j < k; j++) {
		double last_w = -1;
		fprintf(f, "  N=%-3d", ns[j]);
		for (;;) {   /* the points of this N by increasing W, each W once */
			const struct an_point *best = NULL;
			for (size_t i = 0; i < an_exp_n_points(e); i++) {
				const struct an_point *o = an_exp_point(e, i);
				if (strcmp(o->model, "method") == 0 && o->n_threads == ns[j] &&
				    o->work > last_w && (!best || o->work < best->work))
					best = o;
			}
			if (!best)
				break;
			last_w = best->work;
			fprintf(f, "  W=%.4g:", best->work);
			fig_cell(f, 1, best->med[AN_PARALLELISM], AN_PARALLELISM);
			fputs(" /", f);
			fig_cell(f, 1, best->med[AN_PAR_SHARE], AN_PAR_SHARE);
		}
		fputc('\n', f);
	}
}

/* The operands of every value, the lines of xscalegraph's readout (an_cell_explain). */
static void matrix_operands(FILE *f, const struct an_exp *e, const int *ns, size_t k)
{
	char buf[4096];
	fputs("\nOperands of each value (as xscalegraph's matrix readout shows them):\n", f);
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++) {
			struct an_cell c;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			fprintf(f, "cell %d -> %d\n", c.n, c.n2);
			for (int m = 0; m < AN_N_MODELS; m++) {
				an_cell_explain(&c, (enum an_model)m, buf, sizeof buf);
				fprintf(f, "  ");
				for (const char *p = buf; *p; p++)
					if (*p == '\n')
						fputs("\n  ", f);
					else
						fputc(*p, f);
				fputc('\n', f);
			}
		}
}

static void matrix_text(FILE *f, const struct an_exp *e, unsigned flags)
{
	int ns[64];
	size_t k = an_exp_matrix_n(e, ns, 64);
	fputs("\nScalability matrix scale(N, N') = L(W,N) / L(W',N'), each cell "
	      "time-bound / E-conserved / memory-bound\n", f);
	if (k < 2) {
		char why[2048];
		an_exp_matrix_why(e, why, sizeof why);
		fprintf(f, "  no matrix: %s\n", why);
		return;
	}
	fprintf(f, "%6s", "N\\N'");
	for (size_t j = 1; j < k; j++)
		fprintf(f, " %20d", ns[j]);
	fputc('\n', f);
	int caveats = 0, off_target = 0;
	for (size_t i = 0; i + 1 < k; i++) {
		fprintf(f, "%6d", ns[i]);
		for (size_t j = 1; j < k; j++) {
			struct an_cell c;
			if (j <= i || an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0) {
				fprintf(f, " %20s", "");
				continue;
			}
			char cell[64], part[3][16];
			for (int m = 0; m < AN_N_MODELS; m++) {
				if (c.scale[m].unavailable)
					snprintf(part[m], sizeof part[m], "-");
				else   /* marks after the value, as xscalegraph draws them */
					snprintf(part[m], sizeof part[m], "%s%.2f%s%s",
						 /* above 1 is never read as 1 */
						 c.scale[m].value > 1 && c.scale[m].value < 1.005 ?
						 ">" : "", c.scale[m].value,
						 m == AN_TIME_BOUND && c.caveat ? "*" : "",
						 c.off_target[m] ? "~" : "");
				off_target += !c.scale[m].unavailable && c.off_target[m];
			}
			snprintf(cell, sizeof cell, "%s/%s/%s", part[0], part[1], part[2]);
			caveats += c.caveat && !c.scale[AN_TIME_BOUND].unavailable;
			fprintf(f, " %20s", cell);
		}
		fputc('\n', f);
	}
	if (caveats)
		fprintf(f, "  * time-bound: E and E' are both below 0.5 and within 0.1 of each "
			"other, or both below 0.2; (12) and (13) then overestimate scalability (the "
			"paper's caveat): the value is near 1 whatever the latency does\n");
	if (off_target) {
		fprintf(f, "  ~ the size search missed the model's target at N or N' (the value pairs "
			"the closest sizes it found):\n");
		for (size_t i = 0; i < an_exp_n_points(e); i++) {
			const struct an_point *o = an_exp_point(e, i);
			if (strcmp(o->model, "method") != 0 && !o->converged)
				fprintf(f, "      %s N=%d: %s\n", o->model, o->n_threads,
					o->note && *o->note ? o->note : "(no note)");
		}
	}
	/* why cells are empty, once per reason */
	const char *said[16];
	size_t n_said = 0;
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++) {
			struct an_cell c;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			for (int m = 0; m < AN_N_MODELS; m++) {
				const char *why = c.scale[m].unavailable;
				size_t s = 0;
				while (why && s < n_said && strcmp(said[s], why) != 0)
					s++;
				if (!why || s < n_said || n_said == 16)
					continue;
				said[n_said++] = why;
				int all = 1;
				for (int o = 0; o < AN_N_MODELS; o++)
					all &= c.scale[o].unavailable &&
					       strcmp(c.scale[o].unavailable, why) == 0;
				fprintf(f, "  - %s: %s\n", all ? "n/a" : an_model_name((enum an_model)m),
					why);
			}
		}
	if (e->mem_along[0])
		fprintf(f, "  memory-bound scales \"%s\" only: a parameter that does not change "
			"memory (e.g. steps) cannot be scaled by it\n", e->mem_along);
	if (flags & AN_REPORT_MATRIX_ONLY)
		matrix_operands(f, e, ns, k);
	else
		fputs("  (report --matrix: each value's operands L(W,N), L(W',N') and the runs behind "
		      "them)\n", f);
}

/* How T_seq was measured, once per distinct way, with the points that use it. */
static void t_seq_text(FILE *f, const struct an_exp *e)
{
	size_t n = an_exp_n_points(e);
	fputs("\nT_seq, measured like the T_para it divides (E = T_seq / (N T_para)); the progress "
	      "lines of scalegraph run used the same:\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct an_point *o = an_exp_point(e, i);
		size_t j = 0;
		while (j < i && strcmp(an_exp_point(e, j)->t_seq_how, o->t_seq_how) != 0)
			j++;
		if (j < i)
			continue;   /* said already */
		fprintf(f, "  %s\n    for", o->t_seq_how);
		for (size_t k = i; k < n; k++) {
			const struct an_point *q = an_exp_point(e, k);
			if (!strcmp(q->t_seq_how, o->t_seq_how))
				fprintf(f, " %s/%s/N=%d", q->model, q->method, q->n_threads);
		}
		fputc('\n', f);
	}
}

/* The first point of model "method" before index i with o's method and sizes (said already). */
static int pattern_seen(const struct an_exp *e, size_t i, const struct an_point *o)
{
	for (size_t j = 0; j < i; j++) {
		const struct an_point *q = an_exp_point(e, j);
		if (!strcmp(q->model, "method") && !strcmp(q->method, o->method) &&
		    !strcmp(q->sizes, o->sizes))
			return 1;
	}
	return 0;
}

#define PROFILE_ROWS 20

/* The function profile; `work` (an N=1 run standing in for the sequential program): exclusive
 * time and its share without the time in pthread_join (the master thread waiting for the
 * worker is no work of the program), largest first. */
static void profile_text(FILE *f, const struct an_run *r, int work)
{
	size_t n = an_run_n_funcs(r), order[PROFILE_ROWS];
	size_t rows = n < PROFILE_ROWS ? n : PROFILE_ROWS;
	int64_t join = 0;
	char c[2][16];
	for (size_t k = 0; k < n; k++)
		join += an_run_func(r, k)->join_ns;
	work = work && join > 0;
	/* the rows in the order of the column shown: the PROFILE_ROWS largest */
	for (size_t k = 0; k < rows; k++)
		order[k] = k;
	if (work) {
		/* the rows-largest by work, by selection (rows is small) */
		for (size_t k = 0; k < rows; k++) {
			size_t best = SIZE_MAX;
			for (size_t j = 0; j < n; j++) {
				size_t q = 0;
				while (q < k && order[q] != j)
					q++;
				if (q < k)
					continue;
				if (best == SIZE_MAX || an_run_func(r, j)->work_excl_ns >
							an_run_func(r, best)->work_excl_ns)
					best = j;
			}
			order[k] = best;
		}
		fprintf(f, "    (an N=1 run: its %s in pthread_join is waiting, not work: left out of "
			"excl and excl %%)\n", NS(c[0], join));
	}
	fprintf(f, "    %-32s %10s %10s %10s %7s %7s\n", "function", "calls", "incl", "excl",
		"incl %", "excl %");
	for (size_t k = 0; k < rows; k++) {
		const struct an_func *x = an_run_func(r, order[k]);
		fprintf(f, "    %-31s%s %10llu %10s %10s %7.2f %7.2f\n", x->name,
			x->throttled ? "~" : " ", (unsigned long long)x->calls, NS(c[0], x->incl_ns),
			NS(c[1], work ? x->work_excl_ns : x->excl_ns), x->incl_pct,
			work ? x->work_pct : x->excl_pct);
		throttled_line(f, "    ", x);
	}
	throttled_legend(f, "    ", r);
	if (n > PROFILE_ROWS)
		fprintf(f, "    ... %zu more (--json lists them all)\n", n - PROFILE_ROWS);
	if (!n)
		fputs("    no function was traced (instrument with scalegraph cc)\n", f);
}

/* Sequential patterns vs W (§4.2.1): per method and size, the figures and top function of the
 * traced sequential run, else of the N=1 run there; with AN_REPORT_PROFILE the whole profile. */
static void patterns_text(FILE *f, const struct an_exp *e, unsigned flags)
{
	fputs("\nSequential patterns vs W (per method and size: the traced sequential run, else the "
	      "N=1 run there)\n", f);
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (strcmp(o->model, "method") != 0 || pattern_seen(e, i, o))
			continue;
		const char *src;
		int64_t id;
		struct an_run *r = an_exp_seq_profile(e, o, &src, &id);
		fprintf(f, "  %-10s W=%-10.4g ", o->method, o->work);
		if (!r) {
			fprintf(f, "no traced sequential or N=1 run at %s\n", o->sizes);
			continue;
		}
		fprintf(f, "%-10s run %-5lld cpu util", src, (long long)id);
		fig_cell(f, 6, an_run_fig(r, AN_CPU_UTIL), AN_CPU_UTIL);
		fputs("  mem rate", f);
		fig_cell(f, 6, an_run_fig(r, AN_MEM_RATE), AN_MEM_RATE);
		fputs("  miss rate", f);
		fig_cell(f, 6, an_run_fig(r, AN_MISS_RATE), AN_MISS_RATE);
		/* an N=1 run's top is by work: its master's join wait is not (an_func.work_*) */
		int n1 = !strcmp(src, "n1");
		const struct an_func *top = an_run_n_funcs(r) ? an_run_func(r, 0) : NULL;
		for (size_t k = 1; n1 && k < an_run_n_funcs(r); k++)
			if (an_run_func(r, k)->work_excl_ns > top->work_excl_ns)
				top = an_run_func(r, k);
		if (top)
			fprintf(f, "  top: %s %.1f%%", top->name, n1 ? top->work_pct : top->excl_pct);
		fputc('\n', f);
		if (flags & AN_REPORT_PROFILE)
			profile_text(f, r, n1);
	}
}

/* The tracing cost of every point (median of its repetitions) and, with --compensate, the
 * compensated figures beside the measured ones. */
static void cost_text(FILE *f, const struct an_exp *e, unsigned flags)
{
	const char *why = NULL;
	size_t n_na = 0;
	fputs("\nTracing cost (the library's own time: the processors' records x the calibrated "
	      "cost of one, counted calls x the cost of one; median of repetitions)\n", f);
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (o->med[AN_TRACE_SHARE].unavailable) {
			n_na++;
			why = why ? why : o->med[AN_TRACE_SHARE].unavailable;
			continue;
		}
		char head[96];
		snprintf(head, sizeof head, "  %s/%s/N=%d: ", o->model, o->method, o->n_threads);
		/* the measured overhead beside it, where the spec has a plain build (Measured
		 * overhead below has the times) */
		char tail[96] = "";
		if (!o->ovh_measured.unavailable)
			snprintf(tail, sizeof tail, "; measured overhead %+.1f %%%s",
				 100 * o->ovh_measured.value, o->ovh_marked ? " \xe2\x89\xa0" : "");
		cost_line(f, head, o->med[AN_TRACE_COST], o->med[AN_TRACE_SHARE], tail);
	}
	if (n_na)
		fprintf(f, "  %zu point(s): tracing cost unavailable (%s)\n", n_na, why);
	if (!(flags & AN_REPORT_COMPENSATE))
		return;
	static const enum an_metric cols[] = {
		AN_T_PARA, AN_T_PARA_C, AN_E, AN_E_C, AN_L, AN_L_C, AN_IT_COND, AN_IT_COND_C,
		AN_PT_BARRIER, AN_PT_BARRIER_C, AN_PT_LOCK, AN_PT_LOCK_C, AN_PT_SEM, AN_PT_SEM_C,
		AN_PT_THREAD, AN_PT_THREAD_C, AN_U, AN_U_C, AN_CLOSURE, AN_CLOSURE_C,
	};
	fputs("\nCompensated beside measured (the estimated tracing cost taken out of the parts "
	      "it fell in, T_para shortened by its mean over the processors; docs/analyzer.md)\n",
	      f);
	fprintf(f, "%-12s %-10s %4s", "model", "method", "N");
	for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
		fprintf(f, " %*s", exp_col_width(cols[c]), an_metric_name(cols[c]));
	fputc('\n', f);
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		fprintf(f, "%-12s %-10s %4d", o->model, o->method, o->n_threads);
		for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
			fig_cell(f, exp_col_width(cols[c]), o->med[cols[c]], cols[c]);
		fputc('\n', f);
	}
}

/* The distortion measured against the plain build (an_overhead.c), every point, beside the
 * estimate; the points where they differ by more than AN_OVERHEAD_GAP_MARK carry ≠ and say why.
 * Without a plain build, one line says so (no numbers). */
static void overhead_text(FILE *f, const struct an_exp *e)
{
	size_t n = an_exp_n_points(e), n_none = 0, n_marked = 0;
	fputs("\nMeasured overhead (traced / plain - 1: median wall time of the traced repetitions "
	      "over that of the plain build's untraced runs at the same N and sizes), beside the "
	      "estimate from the records (the tracing cost as the same slowdown: share / (1 - "
	      "share))\n", f);
	for (size_t i = 0; i < n; i++)
		n_none += !strcmp(an_exp_point(e, i)->ovh_measured.unavailable ?
				  an_exp_point(e, i)->ovh_measured.unavailable : "",
				  "not measured (no plain build in the spec)");
	if (n && n_none == n) {
		fputs("  not measured (no plain build in the spec): add 'plain COMMAND', the program "
		      "built with the ordinary compiler (README: two builds), or --plain CMD\n", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct an_point *o = an_exp_point(e, i);
		char line[512];
		an_point_overhead_text(o, line, sizeof line);
		fprintf(f, "  %s/%s/N=%d: %s\n", o->model, o->method, o->n_threads, line);
		n_marked += o->ovh_marked;
	}
	for (size_t i = 0; i < n; i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (o->ovh_marked)
			fprintf(f, "  \xe2\x89\xa0 %s/%s/N=%d: %s\n", o->model, o->method, o->n_threads,
				o->ovh_why);
	}
	if (n_marked)
		fprintf(f, "  \xe2\x89\xa0 measured and estimated overhead differ by more than %.0f "
			"points at this point: the estimate from record counts does not hold there\n",
			100 * AN_OVERHEAD_GAP_MARK);
}

/* Every run that gave no measurement, with its reason and the end of its stderr. */
static void failures_text(FILE *f, const struct an_exp *e)
{
	size_t n = an_exp_n_failures(e);
	if (!n)
		return;
	fprintf(f, "\nRuns without a measurement (%zu: left out of every point)\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct an_run_failure *x = an_exp_failure(e, i);
		fprintf(f, "  run %lld (%s N=%d%s%s): %s: %s\n", (long long)x->id, x->kind,
			x->n_threads, x->sizes[0] ? ", " : "", x->sizes, x->status, x->reason);
		if (!x->stderr_tail[0])
			continue;
		fputs("    its stderr ends:\n", f);
		for (const char *p = x->stderr_tail; *p;) {
			const char *nl = strchr(p, '\n');
			int len = nl ? (int)(nl - p) : (int)strlen(p);
			fprintf(f, "      | %.*s\n", len > 200 ? 200 : len, p);
			p += len + (nl != NULL);
		}
	}
}

/*
 * Why E falls, in one line per step of each method's thread counts. By the books,
 * N T_para = T_seq + IT + PT + ML + U, so E + the sources' shares of N T_para = 1 (less the
 * closure): E's change from N to N' is minus the sum of the shares' changes, exactly. The line
 * names the source whose share grew most — the cause of the fall, in the paper's terms.
 */
static const struct {
	enum an_metric m;
	const char *what;
} decline_src[] = {
	{ AN_IT_EDGE, "idle at the edges: threads start late or end early" },
	{ AN_IT_BARRIER, "barrier waiting: the threads arrive apart (imbalance)" },
	{ AN_IT_LOCK, "lock waiting: contention" },
	{ AN_IT_COND, "condition waits" },
	{ AN_IT_SEM, "semaphore waits" },
	{ AN_IT_JOIN, "join waiting" },
	{ AN_IT_SCHED, "runnable, not running" },
	{ AN_IT_BLOCKED, "blocked in the kernel outside the primitives" },
	{ AN_PT_BARRIER, "barrier overhead" },
	{ AN_PT_LOCK, "lock overhead" },
	{ AN_PT_SEM, "semaphore overhead" },
	{ AN_PT_THREAD, "thread create and join" },
	{ AN_ML, "memory stall" },
	{ AN_U, "CPU time in compute beyond T_seq: extra work, caches and memory" },
};

static double decline_share(const struct an_point *o, enum an_metric m)
{
	return o->med[m].value / ((double)o->n_threads * o->med[AN_T_PARA].value);
}

static int point_usable(const struct an_point *o)
{
	return o->n_reps > 0 && !o->med[AN_E].unavailable && !o->med[AN_T_PARA].unavailable &&
	       o->med[AN_T_PARA].value > 0;
}

static void decline_text(FILE *f, const struct an_exp *e)
{
	int header = 0;

	for (size_t i = 0; i < an_exp_n_methods(e); i++) {
		const char *name = an_exp_method(e, i);
		const struct an_point *pts[64];
		size_t n = 0;

		for (size_t j = 0; j < an_exp_n_points(e) && n < 64; j++) {
			const struct an_point *o = an_exp_point(e, j);

			if (!strcmp(o->model, "method") && !strcmp(o->method, name) && point_usable(o))
				pts[n++] = o;
		}
		for (size_t a = 1; a < n; a++) {	/* by N */
			for (size_t b = a; b > 0 && pts[b - 1]->n_threads > pts[b]->n_threads; b--) {
				const struct an_point *t = pts[b];

				pts[b] = pts[b - 1];
				pts[b - 1] = t;
			}
		}
		for (size_t k = 1; k < n; k++) {
			const struct an_point *o = pts[k - 1], *o2 = pts[k];
			double e1 = o->med[AN_E].value, e2 = o2->med[AN_E].value, best = 0;
			size_t bi = 0;
			int found = 0;

			if (!header) {
				fputs("\nWhy E falls (each method from one N to the next: E + the sources' "
				      "shares of N·T_para = 1, so E's fall is their growth; the largest "
				      "named)\n", f);
				header = 1;
			}
			fprintf(f, "  %-10s N=%d -> %d   E %.3f -> %.3f", name, o->n_threads,
				o2->n_threads, e1, e2);
			if (!(e2 < e1)) {
				fputs("   (E does not fall)", f);
				if (o2->med[AN_OVERSUB].value > 0)
					fprintf(f, "; N=%d is oversubscribed: %d threads on %d CPUs",
						o2->n_threads, o2->n_threads, an_exp_n_cpus(e));
				fputc('\n', f);
				continue;
			}
			for (size_t s = 0; s < sizeof decline_src / sizeof decline_src[0]; s++) {
				enum an_metric m = decline_src[s].m;
				double d;

				if (o->med[m].unavailable || o2->med[m].unavailable)
					continue;
				d = decline_share(o2, m) - decline_share(o, m);
				if (!found || d > best) {
					best = d;
					bi = s;
					found = 1;
				}
			}
			if (!found) {
				fputc('\n', f);
				continue;
			}
			fprintf(f, "   largest growth: %s %+.3f of N·T_para (%s", an_metric_name(decline_src[bi].m),
				best, decline_src[bi].what);
			if (decline_src[bi].m == AN_IT_SCHED && !(o2->med[AN_OVERSUB].value > 0))
				fputs(": other processes on the CPUs", f);
			fputs(")", f);
			/* U below zero at N: T_seq above that run's CPU time in compute, so U's "growth"
			 * may be T_seq's own delay on a loaded machine rather than extra work */
			if (decline_src[bi].m == AN_U && o->med[AN_U].value < 0)
				fprintf(f, "; U < 0 at N=%d: T_seq above its CPU time in compute (a loaded "
					"machine's T_seq, or superlinear: see The books)", o->n_threads);
			if (o2->med[AN_OVERSUB].value > 0)
				fprintf(f, "; N=%d is oversubscribed: %d threads on %d CPUs", o2->n_threads,
					o2->n_threads, an_exp_n_cpus(e));
			fputc('\n', f);
		}
	}
}

int an_report_exp_text(FILE *f, const struct an_exp *e, unsigned flags)
{
	fprintf(f, "Experiment %s: %zu point(s), %d CPU(s)\n", an_exp_dir(e), an_exp_n_points(e),
		an_exp_n_cpus(e));
	if (!(flags & AN_REPORT_MATRIX_ONLY)) {
		int n_marked = 0, n_ovh = 0;
		fprintf(f, "\nPoints (median of repetitions)\n%-12s %-10s %4s %10s %4s", "model",
			"method", "N", "W", "reps");
		for (size_t c = 0; c < N_EXP_COLS; c++)
			fprintf(f, " %*s", exp_col_width(exp_cols[c]), an_metric_name(exp_cols[c]));
		fputs("  oversub\n", f);
		for (size_t i = 0; i < an_exp_n_points(e); i++) {
			const struct an_point *o = an_exp_point(e, i);
			fprintf(f, "%-12s %-10s %4d %10.4g %4d", o->model, o->method, o->n_threads,
				o->work, o->n_reps);
			int mark = cost_marked(o);
			n_marked += mark;
			for (size_t c = 0; c < N_EXP_COLS; c++)
				fig_cell_mark(f, exp_col_width(exp_cols[c]), o->med[exp_cols[c]],
					      exp_cols[c], mark && is_source(exp_cols[c]) ? "!" : "");
			fprintf(f, "  %s%s\n", o->med[AN_OVERSUB].value > 0 ? "yes" : "no",
				o->ovh_marked ? "  \xe2\x89\xa0" : "");
			n_ovh += o->ovh_marked;
		}
		for (size_t i = 0; i < an_exp_n_points(e); i++) {
			const struct an_point *o = an_exp_point(e, i);
			if (!o->n_reps && o->med[AN_T_PARA].unavailable)   /* why no figures */
				fprintf(f, "  %s/%s/N=%d: %s\n", o->model, o->method, o->n_threads,
					o->med[AN_T_PARA].unavailable);
		}
		if (n_marked)
			fprintf(f, "  ! the tracing cost is above %.0f %% of N·T_para at this point: its "
				"latency sources hold that much of the library's own time (see Tracing "
				"cost below; --compensate)\n", 100 * AN_TRACE_SHARE_MARK);
		if (n_ovh)
			fprintf(f, "  \xe2\x89\xa0 the measured overhead (against the plain build) and "
				"the estimated tracing cost differ by more than %.0f points at this point "
				"(see Measured overhead below)\n", 100 * AN_OVERHEAD_GAP_MARK);
		cost_text(f, e, flags);
		overhead_text(f, e);
		failures_text(f, e);
		t_seq_text(f, e);
		fputs("\np_x (fixed size, the N of the smallest T_para) and the latency there\n", f);
		for (size_t i = 0; i < an_exp_n_methods(e); i++) {
			int px;
			struct an_fig tp, lat;
			if (an_exp_px(e, an_exp_method(e, i), &px, &tp, &lat) < 0) {
				fprintf(f, "  %-10s no runs\n", an_exp_method(e, i));
				continue;
			}
			char c[3][16];
			fprintf(f, "  %-10s p_x = %d   T_para = %s   L = ", an_exp_method(e, i), px,
				fmt_time(c[0], sizeof c[0], tp.value));
			const struct an_point *o = an_exp_point_find(e, "method", an_exp_method(e, i), px);
			if (lat.unavailable)
				fprintf(f, "unavailable (%s)\n", lat.unavailable);
			else if (o && !o->med[AN_L_E].unavailable)
				px_identity_text(f, e, o, fmt_time(c[1], sizeof c[1], lat.value));
			else
				fprintf(f, "%s\n", fmt_time(c[1], sizeof c[1], lat.value));
		}
		decline_text(f, e);
		books_text(f, e);
		parallelism_text(f, e);
		patterns_text(f, e, flags);
		exp_sites_text(f, e);
	}
	matrix_text(f, e, flags);
	if (!(flags & AN_REPORT_MATRIX_ONLY)) {
		const struct an_fig *figs[1024];
		size_t n = 0;
		for (size_t i = 0; i < an_exp_n_points(e) && n < 1024; i++)
			figs[n++] = an_exp_point(e, i)->med;
		unavailable_lines(f, figs, n);
	}
	for (size_t i = 0; i < an_exp_n_problems(e); i++)
		fprintf(f, "%sproblem: %s\n", i ? "" : "\n", an_exp_problem(e, i));
	return ferror(f) ? -EIO : 0;
}
