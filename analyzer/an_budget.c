/*
 * an_budget.c — the time budget of every thread: where each tick of [first, last] went, by what
 * the thread was doing (compute, or waiting / operating inside a primitive: the categories of
 * enum an_cat) and by whether it was on CPU, runnable but not running (CPU contention), or
 * blocked (sleeping). docs/analyzer.md, "The time budget", is the reference.
 *
 * Measured, not inferred:
 *   - the thread's timeline and each wait's waiting part come from the trace (an_scan.c and the
 *     joins); the time outside every primitive is compute;
 *   - when it was off CPU, and whether it left its CPU preempted (still runnable) or blocked,
 *     come from the kernel's context-switch records in the sched stream (collector/offcpu.c);
 *   - how long it was runnable in all comes from the kernel's figures (schedstat), sampled at
 *     the thread's begin and end and at region boundaries, carried from the samples' window to
 *     the thread's (or the region's) by the records: under load a whole time slice of another
 *     process can fall between a sample and the edge it stands for (a sample taken while the
 *     thread was off CPU holds its figures as of its switch out: smp_time).
 * A preempted span is runnable throughout: IT_sched wherever it falls. A blocked span inside a
 * wait, before the moment the wait was released (the last arrival, the holder's release, the
 * post, the signal, the joined thread's end), is waiting: it stays in that wait's IT part. The
 * rest of a blocked span is the wake-up: runnable once the kernel queued the thread, the wake-up
 * path before that (on this VM's idle CPUs most of it: IPI and vCPU wake-up, not contention).
 * The thread's run delay that the preempted spans do not explain is how much of its wake-ups
 * was runnable: it is placed on the wake-up tails in proportion to their length (IT_sched), the
 * remainder of the tails stays with the primitive (its PT part); what the tails cannot hold goes
 * to the blocked spans in compute (woken from I/O). Blocked spans in compute are IT_blocked.
 *
 * On CPU is by the records. The kernel charges a thread from the moment it picks it, and the
 * switch-in record comes after the switch: a switch in right after another traced thread's
 * switch out on the same CPU is read as beginning at that switch out (sched_pass), which makes
 * the two agree. The kernel's split between CPU time and run delay is not the records' where
 * its run-queue clock was not updated at a switch (a wake-up that asks for a reschedule skips
 * that update): the thread preempted by a wake-up from another CPU is charged run delay from
 * that wake-up on though it ran until the resched IPI landed, and the thread picked next is
 * charged CPU time from the same moment though it was still waiting. The sum of the two, the
 * time the kernel says the thread was awake, does not depend on that clock. So the run delay
 * used here is that sum less the records' time on CPU, over the samples' window (thread_budget):
 * the kernel's run delay less what its CPU time lacks against the records, plus what it has
 * beyond them. The thread table shows both CPU times.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

/* A sample of one thread's CPU time and run delay (ns so far), at ticks t. */
struct smp {
	uint64_t t;
	int64_t cpu, delay;
};

/* The latest switch record of one CPU. */
struct cpu_last {
	uint64_t t;
	int32_t tid;
	int out;                   /* 1 a switch out, 0 a switch in, -1 none (or records lost) */
};

/* A context switch of one thread. */
struct sw {
	uint64_t t;
	uint32_t out : 1, preempted : 1, cpu : 30;
};

struct tid_pos {
	int32_t tid;
	uint32_t pos;
};

struct sched_load {
	struct sw **sw;            /* per thread position: its switches, sorted by time */
	size_t *n_sw, *cap_sw;
	size_t **at;               /* per thread, per CPU: the count of its switches on that CPU,
				      then where the CPU's run of them ends (a CPU's ring is in
				      time order) */
	size_t *n_cpu;             /* CPUs of each thread's `at` */
	struct smp **smp;
	size_t *n_smp, *cap_smp;
	struct tid_pos *map;       /* sorted by tid */
	size_t n_map;
	struct tid_pos *hash;      /* open addressing by tid, pos UINT32_MAX: empty */
	uint32_t mask;
	struct cpu_last *last;     /* per CPU: its latest switch record (the pass) */
	size_t n_last;
};

static int tid_cmp(const void *a, const void *b)
{
	const struct tid_pos *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The position of the thread with OS id tid, or -1: a probe of the hash, which is sized 4 times
 * the threads (the records name threads in no order: a binary search mispredicts). */
static inline long tid_find(const struct sched_load *L, int32_t tid)
{
	uint32_t h = ((uint32_t)tid * 0x9E3779B1u) & L->mask;
	for (;; h = (h + 1) & L->mask) {
		const struct tid_pos *e = &L->hash[h];
		if (e->pos == UINT32_MAX)
			return -1;
		if (e->tid == tid)
			return (long)e->pos;
	}
}

static int tid_hash_make(struct sched_load *L)
{
	uint32_t size = 16;
	while (size < 4 * L->n_map)
		size *= 2;
	L->hash = malloc(size * sizeof *L->hash);
	if (!L->hash)
		return -ENOMEM;
	L->mask = size - 1;
	for (uint32_t i = 0; i < size; i++)
		L->hash[i] = (struct tid_pos){ 0, UINT32_MAX };
	for (size_t i = 0; i < L->n_map; i++) {
		uint32_t h = ((uint32_t)L->map[i].tid * 0x9E3779B1u) & L->mask;
		while (L->hash[h].pos != UINT32_MAX)
			h = (h + 1) & L->mask;
		L->hash[h] = L->map[i];
	}
	return 0;
}


static void load_free(struct sched_load *L, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(L->sw ? L->sw[i] : NULL);
		free(L->at ? L->at[i] : NULL);
		free(L->smp ? L->smp[i] : NULL);
	}
	free(L->sw);
	free(L->n_sw);
	free(L->cap_sw);
	free(L->at);
	free(L->n_cpu);
	free(L->smp);
	free(L->n_smp);
	free(L->cap_smp);
	free(L->map);
	free(L->hash);
	free(L->last);
}

/* A sample of pos at t: the one already there at the same time (the TASK_CPU and TASK_DELAY
 * records of one sample), or a new one. */
static struct smp *smp_at(struct sched_load *L, size_t pos, uint64_t t)
{
	size_t n = L->n_smp[pos];
	if (n && L->smp[pos][n - 1].t == t)
		return &L->smp[pos][n - 1];
	if (an_grow(&L->smp[pos], &L->cap_smp[pos], n, sizeof **L->smp) < 0)
		return NULL;
	L->smp[pos][n] = (struct smp){ t, -1, -1 };
	L->n_smp[pos]++;
	return &L->smp[pos][n];
}

/* Room for the switches of thread pos on `cpu` in L->at. 0 or -ENOMEM. */
static int cpu_slot(struct sched_load *L, size_t pos, uint32_t cpu)
{
	if (cpu < L->n_cpu[pos])
		return 0;
	size_t nn = (size_t)cpu + 1;
	size_t *q = realloc(L->at[pos], nn * sizeof *q);
	if (!q)
		return -ENOMEM;
	memset(q + L->n_cpu[pos], 0, (nn - L->n_cpu[pos]) * sizeof *q);
	L->at[pos] = q;
	L->n_cpu[pos] = nn;
	return 0;
}

/* CPU numbers beyond this are damaged records (Linux's NR_CPUS is at most 8192): a CPU number
 * sizes each thread's per-CPU tables. */
#define AN_MAX_CPU 8192u

/* The longest a context switch between two of the program's threads on one CPU is taken to
 * last (switch out to switch in): a longer gap had something else between — the CPU idle, or
 * another process. Direct switches take 0.3-1 us on the 2-vCPU VM and at most 2 us on a 16-core
 * machine, where the next cluster of gaps (5-20 us) is the CPU idling until a barrier's
 * wake-up reached it; 20 us took those idle gaps for the woken thread's CPU time, 15-20 % more
 * "on CPU" than the kernel charged, and with the run delay corrected both ways the books of
 * every billiards run at N = 16 there missed by 1.5-3.5 % (docs/analyzer.md). */
#define SWITCH_MAX_NS 3000.0

/* The latest switch record of CPU cpu, grown on demand; NULL when out of memory. */
static struct cpu_last *cpu_last_at(struct sched_load *L, uint32_t cpu)
{
	if (cpu >= L->n_last) {
		size_t nn = cpu + 16;
		struct cpu_last *q = realloc(L->last, nn * sizeof *q);
		if (!q)
			return NULL;
		for (size_t c = L->n_last; c < nn; c++)
			q[c] = (struct cpu_last){ 0, 0, -1 };
		L->last = q;
		L->n_last = nn;
	}
	return &L->last[cpu];
}

/* The one pass over the sched stream: appends each thread's switches (ticks of the trace's
 * clock) to its vector in the stream's order, counting them per CPU in L->at, and stores the
 * samples and the lost count. (It used to count in a pass of its own, then fill each CPU's run
 * in place: the stream read, checked and decoded twice.) */
static int sched_pass(struct an_run *r, struct sched_load *L)
{
	struct sgr_cursor cur;
	struct sgr_span sp;
	const double per_tick = 1.0 / r->info->ns_per_tick, off = r->info->offset_ns;
	const double switch_max = SWITCH_MAX_NS * per_tick;   /* ticks */
	sgr_cursor_init(&cur, r->tr, SGR_POS_SCHED);
	while (sgr_cursor_next(&cur, &sp)) {
		for (size_t k = 0; k < sp.n; k++) {
			const struct sg_event_rec *e = &sp.recs[k];
			unsigned kind = sg_rec_kind(e);
			int64_t value = 0;
			if (sg_kind_has_value(kind)) {
				if (k + 1 >= sp.n || sg_rec_kind(&sp.recs[k + 1]) != SG_EV_VALUE)
					continue;
				value = (int64_t)sp.recs[++k].w1;
			}
			if (kind == SG_EV_SWITCH_LOST) {
				r->sched_lost += (uint64_t)value;
				for (size_t c = 0; c < L->n_last; c++)
					L->last[c].out = -1;   /* what came between is gone */
				continue;
			}
			int sw = kind == SG_EV_SWITCH_OUT || kind == SG_EV_SWITCH_IN;
			if (!sw && kind != SG_EV_TASK_CPU && kind != SG_EV_TASK_DELAY)
				continue;
			int32_t tid = (int32_t)sg_rec_id(e);
			long pos = tid_find(L, tid);
			uint32_t aux = sg_rec_aux(e), cpu = SG_SWITCH_CPU(aux);
			if (sw && cpu >= AN_MAX_CPU) {
				/* sizes per-thread tables: a damaged record, skipped */
				r->bad_cpus++;
				continue;
			}
			double tn = ((double)sg_rec_ticks(e) - off) * per_tick;
			uint64_t t = !(tn > 0) ? 0 : tn >= (double)SG_TICKS_MAX ? SG_TICKS_MAX
									   : (uint64_t)(tn + 0.5);
			if (sw) {
				struct cpu_last *c = cpu_last_at(L, cpu);
				if (!c)
					return -ENOMEM;
				uint64_t t_rec = t;
				/* a switch in right after another thread's switch out on this CPU
				 * began at that switch out: the kernel charges the switch to the
				 * incoming thread (its run delay ends, its CPU time starts, when the
				 * scheduler picks it), the record comes after the switch */
				if (kind == SG_EV_SWITCH_IN && c->out == 1 && c->tid != tid &&
				    t >= c->t && (double)(t - c->t) <= switch_max)
					t = c->t;
				*c = (struct cpu_last){ t_rec, tid, kind == SG_EV_SWITCH_OUT };
			}
			if (pos < 0)
				continue;   /* the drain thread, or a thread that never recorded */
			if (sw) {
				if (cpu_slot(L, (size_t)pos, cpu) < 0 ||
				    an_grow(&L->sw[pos], &L->cap_sw[pos], L->n_sw[pos],
					    sizeof **L->sw) < 0)
					return -ENOMEM;
				L->at[pos][cpu]++;
				L->sw[pos][L->n_sw[pos]++] = (struct sw){
					t, kind == SG_EV_SWITCH_OUT, (aux & SG_SWITCH_PREEMPTED) != 0,
					cpu };
			} else {
				struct smp *x = smp_at(L, (size_t)pos, t);
				if (!x)
					return -ENOMEM;
				if (kind == SG_EV_TASK_CPU)
					x->cpu = value;
				else
					x->delay = value;
			}
		}
	}
	return 0;
}

_Static_assert(offsetof(struct sw, t) == 0, "a switch is merged by its time, its lead key");

/* Reads the sched stream into per-thread switches, in time order, and samples. */
static int sched_read(struct an_run *r, struct sched_load *L)
{
	size_t n = r->n_threads, most = 0, n_runs, *run = NULL, cap_tmp = 0;
	struct sw *tmp = NULL;
	int rc = -ENOMEM;
	memset(L, 0, sizeof *L);
	L->sw = calloc(n ? n : 1, sizeof *L->sw);
	L->n_sw = calloc(n ? n : 1, sizeof *L->n_sw);
	L->cap_sw = calloc(n ? n : 1, sizeof *L->cap_sw);
	L->at = calloc(n ? n : 1, sizeof *L->at);
	L->n_cpu = calloc(n ? n : 1, sizeof *L->n_cpu);
	L->smp = calloc(n ? n : 1, sizeof *L->smp);
	L->n_smp = calloc(n ? n : 1, sizeof *L->n_smp);
	L->cap_smp = calloc(n ? n : 1, sizeof *L->cap_smp);
	L->map = calloc(n ? n : 1, sizeof *L->map);
	if (!L->sw || !L->n_sw || !L->cap_sw || !L->at || !L->n_cpu || !L->smp || !L->n_smp ||
	    !L->cap_smp || !L->map)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct sgr_thread *th = sgr_thread(r->tr, i);
		if (th->os_tid > 0)
			L->map[L->n_map++] = (struct tid_pos){ th->os_tid, (uint32_t)i };
	}
	qsort(L->map, L->n_map, sizeof *L->map, tid_cmp);
	for (size_t i = 1; i < L->n_map; i++)
		if (L->map[i].tid == L->map[i - 1].tid)   /* a tid reused by a later thread */
			L->map[i].tid = -1;
	if ((rc = tid_hash_make(L)) < 0)
		return rc;
	if ((rc = sched_pass(r, L)) < 0)
		return rc;
	/* each thread's switches by CPU, each CPU's in the stream's order (a stable counting
	 * sort; what a second, filling pass made before): counts into starts, then each switch to its place */
	size_t max_cpu = 0;
	rc = -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t sum = 0, n_used = 0;
		for (size_t c = 0; c < L->n_cpu[i]; c++) {
			size_t k = L->at[i][c];
			L->at[i][c] = sum;
			sum += k;
			n_used += k > 0;
		}
		if (sum > most)
			most = sum;
		if (L->n_cpu[i] > max_cpu)
			max_cpu = L->n_cpu[i];
		if (n_used < 2) {   /* one CPU's run: in place */
			for (size_t c = 0; c < L->n_cpu[i]; c++)
				L->at[i][c] = sum;
			continue;
		}
		if (cap_tmp < sum) {
			free(tmp);
			if (!(tmp = an_malloc_big(sum * sizeof *tmp)))
				goto out;
			cap_tmp = sum;
		}
		for (size_t k = 0; k < sum; k++)
			tmp[L->at[i][L->sw[i][k].cpu]++] = L->sw[i][k];
		struct sw *old = L->sw[i];
		size_t cap_old = L->cap_sw[i];
		L->sw[i] = tmp, L->cap_sw[i] = cap_tmp;
		tmp = old, cap_tmp = cap_old;
	}
	/* now at[i][c] is where CPU c's run of thread i ends: merge the runs (one scratch array
	 * serves all threads) */
	rc = -ENOMEM;
	if (!(run = malloc((max_cpu + 2) * sizeof *run)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		n_runs = 0;
		size_t start = 0;
		for (size_t c = 0; c < L->n_cpu[i]; c++) {
			if (L->at[i][c] > start)
				run[n_runs++] = start;
			start = L->at[i][c];
		}
		if (n_runs < 2)
			continue;
		run[n_runs] = L->n_sw[i];
		if (cap_tmp < L->n_sw[i]) {
			free(tmp);
			if (!(tmp = an_malloc_big(most * sizeof *tmp)))
				goto out;
			cap_tmp = most;
		}
		struct sw *sorted = an_merge_sorted_runs(L->sw[i], tmp, sizeof *tmp, run, n_runs);
		if (sorted != L->sw[i]) {
			/* keep the merged array, the thread's old one is the next scratch */
			size_t cap_sorted = cap_tmp;
			tmp = L->sw[i];
			cap_tmp = L->cap_sw[i];
			L->sw[i] = sorted;
			L->cap_sw[i] = cap_sorted;
		}
	}
	rc = 0;
out:
	free(run);
	free(tmp);
	return rc;
}

/* Thread pos's off-CPU spans from its switches (in time order). A switch out opens a span, the
 * next switch in closes it; one still open at the end runs to the end of time. */
static int spans_make(struct an_run *r, size_t pos, const struct sw *sw, size_t n,
		      size_t n_cpu)
{
	size_t m = 0;
	struct an_ivl *v = an_malloc_big((n / 2 + 1) * sizeof *v);   /* a span per switch out */
	uint64_t *on = calloc(n_cpu ? n_cpu : 1, sizeof *on), in_t = 0;
	int off = 0;
	uint32_t in_cpu = UINT32_MAX;
	if (!v || !on) {
		free(v);
		free(on);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		if (sw[k].out && in_cpu < n_cpu && sw[k].t > in_t)
			on[in_cpu] += sw[k].t - in_t;   /* on CPU from its switch in */
		if (sw[k].out) {
			in_cpu = UINT32_MAX;
		} else {
			in_cpu = sw[k].cpu;
			in_t = sw[k].t;
		}
		if (sw[k].out && !off) {
			v[m++] = (struct an_ivl){ sw[k].t, SG_TICKS_MAX, 0, sw[k].preempted, 0, 0 };
			off = 1;
		} else if (!sw[k].out && off) {
			v[m - 1].b = sw[k].t;
			off = 0;
		}
	}
	r->off[pos] = v;
	r->n_off[pos] = m;
	r->cpu_on[pos] = on;
	r->n_cpu_on[pos] = n_cpu;
	return 0;
}

/* The first span of pos ending after x. */
static size_t span_from(const struct an_run *r, size_t pos, uint64_t x)
{
	const struct an_ivl *v = r->off[pos];
	size_t lo = 0, hi = r->n_off[pos];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].b <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Ticks of pos's spans (preempted ones only with `pre`) inside [x, y). */
static uint64_t off_within(const struct an_run *r, size_t pos, uint64_t x, uint64_t y, int pre)
{
	uint64_t sum = 0;
	for (size_t k = span_from(r, pos, x); k < r->n_off[pos] && r->off[pos][k].a < y; k++) {
		const struct an_ivl *v = &r->off[pos][k];
		if (pre && !v->aux)
			continue;
		uint64_t a = v->a > x ? v->a : x, b = v->b < y ? v->b : y;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

uint64_t an_budget_oncpu(const struct an_run *r, size_t pos, uint64_t x, uint64_t y)
{
	if (y <= x)
		return 0;
	if (!r->off || !r->n_off)
		return y - x;
	return (y - x) - off_within(r, pos, x, y, 0);
}

/* The categories of a wait interval: before rel (its release) w, after it p. */
static inline __attribute__((always_inline)) void ivl_cats(const struct an_ivl *v, int *w,
							   int *p, uint64_t *rel)
{
	*rel = v->a + v->part;
	switch ((enum an_ivl_type)v->type) {
	case IV_BARRIER: *w = CAT_BAR_W, *p = CAT_BAR_P; return;
	case IV_LOCK: *w = CAT_LOCK_W, *p = CAT_LOCK_P; return;
	case IV_COND: *w = *p = CAT_COND; return;
	case IV_SEM: *w = CAT_SEM_W, *p = CAT_SEM_P; return;
	case IV_THREAD:
		if (v->aux == 1) {
			*w = CAT_JOIN_W, *p = CAT_THREAD_P;
			return;
		}
		break;
	case IV_LOCK_FAIL:
		*w = *p = CAT_LOCK_P;
		*rel = v->a;
		return;
	}
	*w = *p = CAT_THREAD_P;
	*rel = v->a;
}

/* Lays the off-CPU stretch [x, y) of thread s over its intervals (from *k on, moved on for
 * the next stretch, which begins later): runnable (`run`) throughout, else blocked — waiting
 * before a wait's release, the wake-up tail after it, blocked in compute. Inlined with `run` a
 * constant: it runs once per span, a few hundred thousand times on a real trace. */
static inline __attribute__((always_inline)) void lay(const struct an_tscan *s, size_t *k,
						      uint64_t x, uint64_t y, struct an_budget *b0,
						      const int run, const uint32_t *iv_slot)
{
	const struct an_ivl *iv = s->iv;
	struct an_budget *b = b0;   /* compute: per[0] when split by site (an_budget_sites) */
	uint64_t cur = x;
	while (cur < y) {
		while (*k < s->n_iv && iv[*k].b <= cur)
			(*k)++;
		if (*k == s->n_iv || iv[*k].a >= y) {
			if (run)
				b->run[CAT_COMPUTE] += y - cur;
			else
				b->sleep[CAT_COMPUTE] += y - cur;
			return;
		}
		const struct an_ivl *v = &iv[*k];
		if (v->a > cur) {
			if (run)
				b->run[CAT_COMPUTE] += v->a - cur;
			else
				b->sleep[CAT_COMPUTE] += v->a - cur;
			cur = v->a;
		}
		uint64_t end = v->b < y ? v->b : y, rel;
		int w, p;
		ivl_cats(v, &w, &p, &rel);
		uint64_t before = cur < rel ? (rel < end ? rel : end) - cur : 0;
		uint64_t after = end > rel ? end - (rel > cur ? rel : cur) : 0;
		struct an_budget *bv = iv_slot ? b0 + iv_slot[*k] : b0;
		if (run) {
			bv->run[w] += before;
			bv->run[p] += after;
		} else {
			bv->sleep[w] += before;
			bv->tail[p] += after;
		}
		cur = end;
	}
}

/* Thread pos's timeline [lo, hi] (its [first, last], or a part of it) by category: compute
 * between its intervals, each wait split at its release; then its off-CPU spans laid over it.
 * With iv_slot (an_budget_sites) interval k's parts go to b[iv_slot[k]], compute to b[0]. */
static inline __attribute__((always_inline)) void budget_sweep(const struct an_run *r,
								size_t pos, uint64_t lo,
								uint64_t hi, struct an_budget *b,
								const uint32_t *iv_slot)
{
	const struct an_tscan *s = &r->ts[pos];
	uint64_t cur = lo, in = 0;
	for (size_t k = 0; k < s->n_iv; k++) {
		const struct an_ivl *v = &s->iv[k];
		uint64_t a = v->a < cur ? cur : v->a, e = v->b > hi ? hi : v->b, rel;
		if (e <= a)
			continue;   /* outside the thread's time, or overlapping (malformed nesting) */
		int w, p;
		ivl_cats(v, &w, &p, &rel);
		struct an_budget *bv = iv_slot ? b + iv_slot[k] : b;
		if (a < rel)
			bv->total[w] += (rel < e ? rel : e) - a;
		if (e > rel)
			bv->total[p] += e - (rel > a ? rel : a);
		in += e - a;
		cur = e;
	}
	b->total[CAT_COMPUTE] = hi - lo - in;
	if (!r->budget_ok)
		return;
	size_t k = 0;
	for (size_t j = span_from(r, pos, lo); j < r->n_off[pos] && r->off[pos][j].a < hi; j++) {
		const struct an_ivl *v = &r->off[pos][j];
		uint64_t a = v->a > lo ? v->a : lo, e = v->b < hi ? v->b : hi;
		if (e <= a)
			continue;
		if (v->aux)
			lay(s, &k, a, e, b, 1, iv_slot);
		else
			lay(s, &k, a, e, b, 0, iv_slot);
	}
}

/* The runnable part of `tail` ticks of wake-up tails with share f1 (thread_budget): the same
 * rounding everywhere, so that a split by site adds up to the thread's figure. */
static inline uint64_t tail_runnable(uint64_t tail, double f1)
{
	uint64_t mv = (uint64_t)((double)tail * f1 + 0.5);
	return mv > tail ? tail : mv;
}

void an_budget_sites(const struct an_run *r, size_t pos, uint64_t lo, uint64_t hi,
		     const uint32_t *iv_slot, size_t n_slots, struct an_budget *per)
{
	const struct an_tscan *s = &r->ts[pos];
	if (lo < s->first)
		lo = s->first;
	if (hi > s->last)
		hi = s->last;
	if (!s->seen || hi <= lo || !n_slots)
		return;
	budget_sweep(r, pos, lo, hi, per, iv_slot);
	if (!r->budget_ok)
		return;
	/* the tails' runnable part by the thread's share, slot by slot as prefix differences of
	 * the one rounding: the slots' parts add up to tail_runnable(the thread's tail) */
	double f1 = r->bud[pos].tail_run;
	for (int c = 0; c < AN_N_CATS; c++) {
		uint64_t pre = 0, done = 0;
		for (size_t k = 0; k < n_slots; k++) {
			pre += per[k].tail[c];
			uint64_t upto = tail_runnable(pre, f1), mv = upto - done;
			done = upto;
			per[k].run[c] += mv;
			per[k].sleep[c] += per[k].tail[c] - mv;
		}
	}
}

/* The sample of thread pos nearest to t, or NULL. */
static const struct smp *smp_near(const struct sched_load *L, size_t pos, uint64_t t)
{
	const struct smp *best = NULL;
	uint64_t d = UINT64_MAX;
	for (size_t k = 0; k < L->n_smp[pos]; k++) {
		const struct smp *x = &L->smp[pos][k];
		uint64_t e = x->t > t ? x->t - t : t - x->t;
		if (e < d)
			d = e, best = x;
	}
	return best;
}

/* The moment a sample of thread pos taken at t holds the kernel's figures of: the kernel adds a
 * thread's run delay when the thread gets a CPU (sched_info_arrive) and its CPU time while it
 * runs, so a sample taken while the thread was off CPU (another thread read its schedstat at a
 * region boundary) holds them as of its switch out. */
static uint64_t smp_time(const struct an_run *r, size_t pos, uint64_t t)
{
	if (!r->budget_ok)
		return t;
	size_t k = span_from(r, pos, t);
	return k < r->n_off[pos] && r->off[pos][k].a < t ? r->off[pos][k].a : t;
}

/* a + b - c, or 0 with *ok cleared where it does not fit (the samples are the file's: any
 * int64, and a sum of two may not be one) */
static int64_t add3(int64_t a, int64_t b, int64_t c, int *ok)
{
	int64_t x;
	if (__builtin_add_overflow(a, b, &x) || __builtin_sub_overflow(x, c, &x)) {
		*ok = 0;
		return 0;
	}
	return x;
}

/* The budget of one thread seen in the interval. */
static void thread_budget(struct an_run *r, const struct sched_load *L, size_t pos)
{
	struct an_tscan *s = &r->ts[pos];
	struct an_budget *b = &r->bud[pos];
	uint64_t lo = s->first, hi = s->last;
	memset(b, 0, sizeof *b);
	b->cpu_kernel_ns = -1;
	budget_sweep(r, pos, lo, hi, b, NULL);
	/* The kernel's CPU time and run delay between the samples nearest to the edges, [ta, tb),
	 * carried over to the books' window [lo, hi) by the records: under load a whole time
	 * slice of another process can fall between a sample and the edge it stands for. */
	const struct smp *sa = L ? smp_near(L, pos, lo) : NULL, *sb = L ? smp_near(L, pos, hi) : NULL;
	int64_t wake = -1;
	if (sa && sb && sb->t > sa->t) {
		uint64_t ta = smp_time(r, pos, sa->t), tb = smp_time(r, pos, sb->t);
		int have_cpu = sa->cpu >= 0 && sb->cpu >= 0, ok = 1;
		int64_t c = 0, on_s = 0;
		if (have_cpu) {
			/* over [lo, hi): the kernel's figure over [ta, tb) corrected by the records'
			 * difference between the two windows */
			c = add3(sb->cpu, 0, sa->cpu, &ok);
			if (ok && r->budget_ok) {
				on_s = an_ticks_ns(r, an_budget_oncpu(r, pos, ta, tb));
				int64_t on_w = an_ticks_ns(r, an_budget_oncpu(r, pos, lo, hi));
				int64_t cw = add3(c, on_w, on_s, &ok);
				b->cpu_kernel_ns = ok ? cw : -1;   /* -1: unknown */
			} else {
				b->cpu_kernel_ns = ok ? c : -1;
			}
			have_cpu = ok;
		}
		if (sa->delay >= 0 && sb->delay >= 0) {
			ok = 1;
			int64_t d = add3(sb->delay, 0, sa->delay, &ok);
			if (r->budget_ok && ok) {
				/* (B) the kernel's time awake less the records' on CPU: its
				 * run delay corrected both ways by what its CPU time lacks
				 * against the records or has beyond them (the top of the file) */
				if (have_cpu)
					d = add3(d, c, on_s, &ok);
				/* (A) then over the books' window, as the CPU time: the
				 * preempted spans are runnable throughout, so the two windows'
				 * differ by the records' preempted spans exactly; the rest (the
				 * wake-ups' runnable part) is the samples' */
				int64_t pre_s = an_ticks_ns(r, off_within(r, pos, ta, tb, 1));
				int64_t pre_w = an_ticks_ns(r, off_within(r, pos, lo, hi, 1));
				wake = add3(d, 0, pre_s, &ok);
				/* a negative wake is time the kernel counted as neither CPU
				 * time nor run delay while the records have the thread on CPU
				 * or preempted: interrupts and steal time on its CPU, which it
				 * charges to no task (or its clock catching up). The records'
				 * spans are the books'; the shortfall is said (short_ns), not
				 * taken out of the preempted time */
				d = add3(pre_w, wake > 0 ? wake : 0, 0, &ok);
			}
			b->delay_kernel_ns = d;
			b->delay_known = ok;
		}
	}
	if (!r->budget_ok)
		return;
	/* the wake-up tails: runnable for the part the run delay says, the rest is the
	 * primitive's wake-up path */
	uint64_t tails = 0;
	for (int c = 0; c < AN_N_CATS; c++)
		tails += b->tail[c];
	/* a negative wake is the kernel's time awake below the records' on-CPU and preempted
	 * time: nothing to place; an_budget_note says it */
	double w = wake > 0 ? (double)wake / r->info->ns_per_tick : 0;   /* ticks */
	b->short_ns = b->delay_known && wake < 0 ? -wake : 0;
	double f1 = tails ? (w < (double)tails ? w / (double)tails : 1.0) : 0;
	double placed = 0;
	b->tail_run = f1;
	for (int c = 0; c < AN_N_CATS; c++) {
		uint64_t mv = tail_runnable(b->tail[c], f1);
		b->run[c] += mv;
		b->sleep[c] += b->tail[c] - mv;
		placed += (double)mv;
	}
	double rest = w - placed;
	if (rest > 0 && b->sleep[CAT_COMPUTE] > 0) {
		uint64_t mv = rest < (double)b->sleep[CAT_COMPUTE] ? (uint64_t)rest
								 : b->sleep[CAT_COMPUTE];
		b->run[CAT_COMPUTE] += mv;
		b->sleep[CAT_COMPUTE] -= mv;
		rest -= (double)mv;
	}
	b->unplaced_ns = rest > 0 ? an_ticks_ns(r, (uint64_t)rest) : 0;
}

/* Appends to `list` (at *n) "thread K: S s" for each processor with run delay beyond its room
 * (`short_side` 0) or time awake short of the records (1); their sum in ns. */
static double budget_list(const struct an_run *r, int short_side, char *list, size_t len,
			  size_t *n)
{
	double sum = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct an_budget *b = &r->bud[i];
		int64_t v = short_side ? b->short_ns : b->unplaced_ns;
		if (!r->th[i].processor || !b->delay_known || !v)
			continue;
		sum += (double)v;
		if (*n < len - 1)
			*n += (size_t)snprintf(list + *n, len - *n, "%sthread %u: %.6f s",
					       *n ? "; " : "", sgr_thread(r->tr, i)->index,
					       (double)v * 1e-9);
	}
	return sum;
}

void an_budget_note(struct an_run *r)
{
	if (!r->budget_ok)
		return;
	double nt = (double)r->n_proc * (double)an_ticks_ns(r, r->t1 - r->t0);
	char list[512] = "";
	size_t n = 0;
	/* only where it is worth naming: 0.1 % of N T_para */
	double unplaced = budget_list(r, 0, list, sizeof list, &n);
	if (nt > 0 && unplaced >= 1e-3 * nt)
		an_run_note_add(r, "closure: %+.6f s of it is the kernel's figures beyond what the "
				"switch records leave room for (run delay beyond the threads' off-CPU "
				"room: %s): a wake-up before the release of a wait it did not end, or "
				"the kernel's clock catching up at once (where sched_clock is "
				"unstable, as in VMs booted with tsc=unstable, by a tick or more)",
				-unplaced * 1e-9, list);
	list[0] = '\0';
	n = 0;
	double short_ns = budget_list(r, 1, list, sizeof list, &n);
	if (nt > 0 && short_ns >= 1e-3 * nt)
		an_run_note_add(r, "the kernel counted %.6f s less time awake (CPU time and run "
				"delay) than the switch records show on CPU or preempted (%s): "
				"interrupts and steal time on the threads' CPUs, which it charges to no "
				"task, or its clock catching up; the books keep the records' spans "
				"(compute or the primitive they fell in), the kernel CPU column shows "
				"its figure", short_ns * 1e-9, list);
}

int an_budget_build(struct an_run *r)
{
	size_t n = r->n_threads;
	struct sched_load L;
	int rc = -ENOMEM, have_load = 0;
	an_budget_free(r);
	r->bud = calloc(n ? n : 1, sizeof *r->bud);
	r->off = calloc(n ? n : 1, sizeof *r->off);
	r->n_off = calloc(n ? n : 1, sizeof *r->n_off);
	r->cpu_on = calloc(n ? n : 1, sizeof *r->cpu_on);
	r->n_cpu_on = calloc(n ? n : 1, sizeof *r->n_cpu_on);
	if (!r->bud || !r->off || !r->n_off || !r->cpu_on || !r->n_cpu_on)
		return -ENOMEM;
	const struct sgr_sched *sc = sgr_sched(r->tr);
	r->budget_ok = 0;
	r->sched_lost = 0;
	r->bad_cpus = 0;
	if (r->opts.flags & AN_NO_BUDGET)
		r->budget_why = "the time budget was turned off (AN_NO_BUDGET)";
	else if (!sc->defined)
		r->budget_why = "no sched stream: the trace was recorded before scalegraph recorded "
				"context switches (trace format 1.1)";
	else if (sc->unavailable)
		r->budget_why = an_run_str(r, "context-switch records unavailable: %s", sc->text);
	else if (!sc->present)
		r->budget_why = "context-switch records missing (sched.sgs was not written)";
	else
		r->budget_ok = 1;
	if (sc->present && !(r->opts.flags & AN_NO_BUDGET)) {
		have_load = 1;
		if ((rc = sched_read(r, &L)) < 0)
			goto out;
		sgr_release(r->tr, SGR_POS_SCHED);
		if (r->bad_cpus)
			an_run_problem_add(r, "%s/sched.sgs: %llu switch record(s) name a CPU number "
					   "above %u: damaged trace; skipped", r->dir,
					   (unsigned long long)r->bad_cpus, AN_MAX_CPU - 1);
		if (r->sched_lost) {
			r->budget_ok = 0;
			r->budget_why = an_run_str(r, "%llu context-switch records were lost (the "
						   "kernel's ring buffer was full)",
						   (unsigned long long)r->sched_lost);
		}
		for (size_t i = 0; r->budget_ok && i < n; i++) {
			if ((rc = spans_make(r, i, L.sw[i], L.n_sw[i], L.n_cpu[i])) < 0)
				goto out;
			free(L.sw[i]);   /* the spans are made: the switches go at once */
			L.sw[i] = NULL;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (r->ts[i].seen)
			thread_budget(r, have_load ? &L : NULL, i);
	rc = 0;
out:
	if (have_load)
		load_free(&L, n);
	return rc;
}

void an_budget_free(struct an_run *r)
{
	for (size_t i = 0; r->off && i < r->n_threads; i++)
		free(r->off[i]);
	for (size_t i = 0; r->cpu_on && i < r->n_threads; i++)
		free(r->cpu_on[i]);
	free(r->off);
	free(r->n_off);
	free(r->cpu_on);
	free(r->n_cpu_on);
	free(r->bud);
	r->off = NULL;
	r->n_off = NULL;
	r->cpu_on = NULL;
	r->n_cpu_on = NULL;
	r->bud = NULL;
}
