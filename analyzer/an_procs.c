/*
 * an_procs.c — which threads are the run's N processors (docs/analyzer.md "Processors").
 *
 * N is the number of threads that run the parallel phase: the threads doing work while others
 * work too. The phase is where two or more threads are alive; a thread's work there is its
 * compute time inside the phase (its time less every wait and primitive: a main thread that
 * only joins its workers has none, however long its serial phase before them was), on CPU (a
 * thread asleep in an untraced read() is not working). For a bare trace every thread whose
 * work is at least a tenth of the busiest thread's is a processor; with the run's N given (a
 * series, --threads), the N that worked most there. (Issue 20: the rule before it, on CPU over
 * the whole interval with the main thread taken last only when it joined half its time or
 * more, gave N = 2 for LLNL's dotprod_mutex — a long serial initialisation in main, then 4
 * workers — and kept main in place of a worker with --threads 4.)
 *
 * Where the rule is unsure it says so beside N (an_run_n_unsure): threads near the cut (a tie
 * at the N-th place; a thread doing part work, 5 to 50 % of the busiest), and threads the
 * trace does not record that ran in the interval — the sched stream's switch records cover
 * every thread of the process, traced or not (OpenMP's workers before OpenMP is traced, a
 * library's threads): "3 more threads ran that the trace does not record".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

/* Below this share of the busiest thread's work a thread is no processor of a bare trace. */
#define PROC_MIN_SHARE 0.1
/* A processor below this share (or a thread left out above PART_MIN_SHARE) did part work. */
#define PART_MAX_SHARE 0.5
#define PART_MIN_SHARE 0.05
/* Two threads whose work differs by less than this share of the larger are a tie. */
#define TIE_SHARE 0.01

/* ---- the parallel phase ---- */

struct seg {
	uint64_t a, b;             /* ticks, [a, b) */
};

struct edge {
	uint64_t t;
	int d;                     /* +1 a thread's first event, -1 its last */
};

static int edge_cmp(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;
	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d - b->d;   /* an end before a begin at the same tick: they do not overlap */
}

/* The segments where two or more threads are alive (between their first and last event in
 * the interval), in time order, into *out (malloc'ed). With none — one thread, or threads one
 * after another — the threads' whole span: every thread's work then counts. Returns the count,
 * or -ENOMEM. */
static long phase_make(const struct an_run *r, struct seg **out)
{
	size_t n = 0, m = 0;
	struct edge *e = malloc((2 * r->n_threads + 1) * sizeof *e);
	struct seg *s = malloc((r->n_threads + 1) * sizeof *s);
	if (!e || !s) {
		free(e);
		free(s);
		return -ENOMEM;
	}
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct an_tscan *t = &r->ts[i];
		if (!t->seen || t->last <= t->first)
			continue;
		e[n++] = (struct edge){ t->first, 1 };
		e[n++] = (struct edge){ t->last, -1 };
		lo = t->first < lo ? t->first : lo;
		hi = t->last > hi ? t->last : hi;
	}
	qsort(e, n, sizeof *e, edge_cmp);
	int alive = 0;
	uint64_t from = 0;
	for (size_t k = 0; k < n; k++) {
		int before = alive;
		alive += e[k].d;
		if (before < 2 && alive >= 2)
			from = e[k].t;
		else if (before >= 2 && alive < 2 && e[k].t > from)
			s[m++] = (struct seg){ from, e[k].t };   /* at most n / 2 segments */
	}
	free(e);
	if (!m && hi > lo)
		s[m++] = (struct seg){ lo, hi };
	*out = s;
	return (long)m;
}

/* Ticks of [x, y) inside the segments; *k is a cursor for calls with x not decreasing. */
static uint64_t in_phase(const struct seg *p, size_t n, size_t *k, uint64_t x, uint64_t y)
{
	uint64_t sum = 0;
	while (*k < n && p[*k].b <= x)
		(*k)++;
	for (size_t j = *k; j < n && p[j].a < y; j++) {
		uint64_t a = p[j].a > x ? p[j].a : x, b = p[j].b < y ? p[j].b : y;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

/* Thread i's work in the phase, in ticks: its compute time there (its time there less its
 * waits and primitives, each interval counted once as the budget does), times the share of
 * its compute it was on CPU — work is CPU time: a thread asleep in an untraced read() does
 * none, and of 4 workers on 2 CPUs each does its part whoever waited longer for a CPU (runnable
 * time counted as work made billiards' equal workers read 13 to 100 % of each other). Without
 * switch records the kernel's CPU time from the samples gives that share. */
static double phase_work(const struct an_run *r, size_t i, const struct seg *p, size_t n)
{
	const struct an_tscan *s = &r->ts[i];
	const struct an_budget *b = &r->bud[i];
	if (!s->seen)
		return 0;
	size_t k = 0, kv = 0;
	uint64_t span = in_phase(p, n, &k, s->first, s->last), in = 0, cur = s->first;
	for (size_t j = 0; j < s->n_iv; j++) {
		const struct an_ivl *v = &s->iv[j];
		uint64_t a = v->a < cur ? cur : v->a, e = v->b > s->last ? s->last : v->b;
		if (e <= a)
			continue;   /* outside the thread's time, or overlapping (malformed nesting) */
		in += in_phase(p, n, &kv, a, e);
		cur = e;
	}
	double work = span > in ? (double)(span - in) : 0;
	double total = (double)b->total[CAT_COMPUTE], on = total;
	if (r->budget_ok)
		on = (double)(b->total[CAT_COMPUTE] - b->run[CAT_COMPUTE] - b->sleep[CAT_COMPUTE]);
	else if (b->cpu_kernel_ns >= 0)
		on = (double)b->cpu_kernel_ns / r->info->ns_per_tick;
	if (total > 0 && on < total)
		work *= on > 0 ? on / total : 0;
	return work;
}

/* ---- threads the trace does not record ---- */

struct ftid {
	int32_t tid;
	uint32_t cpu;
	uint64_t in;               /* ticks of its switch in on that CPU; UINT64_MAX: none open */
	uint64_t on;               /* ticks on CPU inside [t0, t1] */
};

static int i32_cmp(const void *x, const void *y)
{
	int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
	return (a > b) - (a < b);
}

static int ftid_cmp(const void *x, const void *y)
{
	const struct ftid *a = x, *b = y;
	return (a->tid > b->tid) - (a->tid < b->tid);
}

/* The slot of (tid, cpu) in the open-addressed table f of cap entries (a power of two). */
static struct ftid *ftid_slot(struct ftid *f, size_t cap, int32_t tid, uint32_t cpu)
{
	size_t h = ((size_t)(uint32_t)tid * 2654435761u ^ cpu * 40503u) & (cap - 1);
	while (f[h].tid && (f[h].tid != tid || f[h].cpu != cpu))
		h = (h + 1) & (cap - 1);
	return &f[h];
}

/* The threads of the process the trace does not record that were on CPU in [t0, t1] for at
 * least min_ticks (a tenth of the busiest traced thread's time on CPU in the phase): how many (*n_out), from the sched stream's switch records (a switch in to
 * the next switch out of the thread on that CPU). A note names them. 0 or -ENOMEM. */
static int untraced_threads(struct an_run *r, double min_ticks, int *n_out)
{
	*n_out = 0;
	size_t nt = 0, cap = 64, used = 0;
	int32_t *traced = malloc((r->n_threads + 1) * sizeof *traced);
	struct ftid *f = calloc(cap, sizeof *f);
	int rc = -ENOMEM;
	if (!traced || !f)
		goto out;
	for (size_t i = 0; i < r->n_threads; i++)
		if (sgr_thread(r->tr, i)->os_tid > 0)
			traced[nt++] = sgr_thread(r->tr, i)->os_tid;
	qsort(traced, nt, sizeof *traced, i32_cmp);
	const double per_tick = 1.0 / r->info->ns_per_tick, off = r->info->offset_ns;
	struct sgr_cursor cur;
	struct sgr_span sp;
	sgr_cursor_init(&cur, r->tr, SGR_POS_SCHED);
	while (sgr_cursor_next(&cur, &sp)) {
		for (size_t k = 0; k < sp.n; k++) {
			const struct sg_event_rec *x = &sp.recs[k];
			unsigned kind = sg_rec_kind(x);
			if (kind != SG_EV_SWITCH_IN && kind != SG_EV_SWITCH_OUT)
				continue;
			int32_t tid = (int32_t)sg_rec_id(x);
			if (tid <= 0 || bsearch(&tid, traced, nt, sizeof *traced, i32_cmp))
				continue;
			if (2 * (used + 1) > cap) {
				/* grow: rehash into a table twice the size */
				struct ftid *g = calloc(2 * cap, sizeof *g);
				if (!g)
					goto out;
				for (size_t j = 0; j < cap; j++)
					if (f[j].tid)
						*ftid_slot(g, 2 * cap, f[j].tid, f[j].cpu) = f[j];
				free(f);
				f = g;
				cap *= 2;
			}
			uint32_t cpu = SG_SWITCH_CPU(sg_rec_aux(x));
			struct ftid *e = ftid_slot(f, cap, tid, cpu);
			if (!e->tid) {
				*e = (struct ftid){ tid, cpu, UINT64_MAX, 0 };
				used++;
			}
			double tn = ((double)sg_rec_ticks(x) - off) * per_tick;
			uint64_t t = !(tn > 0) ? 0 : tn >= (double)SG_TICKS_MAX ? SG_TICKS_MAX
									   : (uint64_t)(tn + 0.5);
			if (kind == SG_EV_SWITCH_IN) {
				e->in = t;
			} else if (e->in != UINT64_MAX) {
				uint64_t a = e->in > r->t0 ? e->in : r->t0, b = t < r->t1 ? t : r->t1;
				if (b > a)
					e->on += b - a;
				e->in = UINT64_MAX;
			}
		}
	}
	/* per thread: its CPUs' time summed (the entries in tid order, each tid's folded) */
	size_t m = 0;
	for (size_t j = 0; j < cap; j++)
		if (f[j].tid)
			f[m++] = f[j];
	qsort(f, m, sizeof *f, ftid_cmp);
	char list[160] = "";
	size_t len = 0;
	for (size_t j = 0; j < m;) {
		uint64_t on = 0;
		int32_t tid = f[j].tid;
		for (; j < m && f[j].tid == tid; j++)
			on += f[j].on;
		if ((double)on < min_ticks)
			continue;
		(*n_out)++;
		if (len < sizeof list - 40)
			len += (size_t)snprintf(list + len, sizeof list - len, "%stid %d %.3g s",
						*n_out > 1 ? ", " : "", (int)tid,
						(double)an_ticks_ns(r, on) * 1e-9);
	}
	if (*n_out)
		an_run_note_add(r, "%d thread(s) of the process that the trace does not record ran in "
				"the interval (%s%s on CPU; the sched stream's switch records): "
				"OpenMP's or a library's workers, whose time is in no figure; N counts "
				"the traced threads", *n_out, list, len >= sizeof list - 40 ? ", ..." : "");
	rc = 0;
out:
	free(traced);
	free(f);
	return rc;
}

/* ---- the choice ---- */

/* "thread 0 did part work in the parallel phase (23 % of the busiest thread's)", ... appended
 * to buf for the threads between PART_MIN_SHARE and PART_MAX_SHARE of the best work. */
static void part_work(const struct an_run *r, const double *work, double best, char *buf,
		      size_t len)
{
	size_t n = 0, used = strlen(buf);
	for (size_t i = 0; i < r->n_threads && used < len - 1; i++) {
		double share = best > 0 ? work[i] / best : 0;
		if (!r->ts[i].seen || share < PART_MIN_SHARE || share >= PART_MAX_SHARE)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%sthread %u did part work in the "
					 "parallel phase (%.0f %% of the busiest thread's; %s)",
					 used ? "; " : "", sgr_thread(r->tr, i)->index, 100 * share,
					 r->th[i].processor ? "counted" : "not counted");
		if (++n == 3)
			break;
	}
}

int an_procs_choose(struct an_run *r)
{
	size_t n = r->n_threads, n_seen = 0;
	double *work = calloc(n ? n : 1, sizeof *work), best = 0;
	struct seg *phase = NULL;
	long n_phase = phase_make(r, &phase);
	int rc = -ENOMEM;
	char unsure[512] = "";
	r->n_unsure = NULL;
	if (!work || n_phase < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		r->th[i].processor = 0;
		r->th[i].why = "";
		if (!r->ts[i].seen)
			continue;
		n_seen++;
		work[i] = phase_work(r, i, phase, (size_t)n_phase);
		if (work[i] > best)
			best = work[i];
	}
	int want = r->opts.n_threads;
	if (want > 0) {
		/* the N threads that worked most in the phase (ties: the lower position) */
		long last = -1;
		for (int k = 0; k < want; k++) {
			long pick = -1;
			for (size_t i = 0; i < n; i++)
				if (r->ts[i].seen && !r->th[i].processor &&
				    (pick < 0 || work[i] > work[pick]))
					pick = (long)i;
			if (pick < 0)
				break;
			r->th[pick].processor = 1;
			last = pick;
		}
		long next = -1;   /* the first left out */
		for (size_t i = 0; i < n; i++)
			if (r->ts[i].seen && !r->th[i].processor && (next < 0 || work[i] > work[next]))
				next = (long)i;
		if (last >= 0 && next >= 0 && work[last] > 0 &&
		    work[last] - work[next] <= TIE_SHARE * work[last])
			snprintf(unsure, sizeof unsure, "a tie: threads %u and %u worked as long in "
				 "the parallel phase; %u is counted", sgr_thread(r->tr, last)->index,
				 sgr_thread(r->tr, next)->index, sgr_thread(r->tr, last)->index);
		if ((size_t)want > n_seen)
			an_run_problem_add(r, "%s: the run had N=%d but the trace shows %zu thread(s) "
					   "with events in the interval; figures use %zu", r->dir,
					   want, n_seen, n_seen);
	} else {
		for (size_t i = 0; i < n; i++)
			r->th[i].processor = r->ts[i].seen &&
					     (best <= 0 || work[i] >= PROC_MIN_SHARE * best);
	}
	part_work(r, work, best, unsure, sizeof unsure);
	/* threads the trace does not see: only where they could change N (a bare trace, or fewer
	 * threads than the run had), so that a series' runs pay no extra pass */
	int n_foreign = 0;
	if ((want == 0 || (size_t)want > n_seen) && sgr_sched(r->tr)->present &&
	    untraced_threads(r, PROC_MIN_SHARE * best, &n_foreign) < 0)
		goto out;
	if (n_foreign) {
		size_t used = strlen(unsure);
		snprintf(unsure + used, sizeof unsure - used, "%s%d more thread%s ran that the trace "
			 "does not record (OpenMP's or a library's workers?): see the notes",
			 used ? "; " : "", n_foreign, n_foreign == 1 ? "" : "s");
	}
	if (unsure[0])
		r->n_unsure = an_run_str(r, "%s", unsure);
	/* every thread's reason, as before */
	double tp = (double)(r->t1 - r->t0);
	r->n_proc = 0;
	for (size_t i = 0; i < n; i++) {
		struct an_thread *t = &r->th[i];
		r->n_proc += t->processor;
		if (!r->ts[i].seen)
			continue;
		double share = tp > 0 ? 100.0 * work[i] / tp : 0;
		double rel = best > 0 ? 100.0 * work[i] / best : 0;
		int joined = r->ts[i].n_create > 0 &&
			     2 * r->bud[i].total[CAT_JOIN_W] >= r->ts[i].last - r->ts[i].first;
		if (t->processor)
			t->why = an_run_str(r, "worked %.1f %% of T_para in the parallel phase",
					    share);
		else if (rel < PROC_MIN_SHARE * 100 && r->ts[i].n_create > 0)
			t->why = an_run_str(r, "worked %.1f %% of T_para in the parallel phase, %.1f %% "
					    "of the busiest thread's; it created threads and spent the "
					    "phase %s", share, rel, joined ? "joining them (half its time "
					    "or more)" : "waiting, joining them");
		else if (want > 0)
			t->why = an_run_str(r, "worked %.1f %% of T_para in the parallel phase: not "
					    "among the %d threads that worked most there", share, want);
		else
			t->why = an_run_str(r, "worked %.1f %% of T_para in the parallel phase: less "
					    "than a tenth of the busiest thread's", share);
		if (!t->processor)
			an_run_note_add(r, "thread %u: not a processor (%s)", sgr_thread(r->tr, i)->index,
					t->why);
	}
	if (r->n_unsure)
		an_run_note_add(r, "N = %d is not certain: %s", r->n_proc, r->n_unsure);
	rc = 0;
out:
	free(work);
	free(phase);
	return rc;
}
