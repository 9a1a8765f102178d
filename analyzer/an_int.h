/*
 * an_int.h — the analyzer's private state, shared by its files:
 *   an_source.c      the one adapter to the trace reader (definitions, counters, opening)
 *   an_scan.c        the single pass over one thread's raw records (all in clock ticks)
 *   an_join.c        cross-thread joins: barrier episodes, lock holds vs waits, parallelism
 *   an_sync.c        cross-thread joins of semaphores (posts vs waits) and condition variables
 *                    (signals vs waits, barriers built from them)
 *   an_budget.c      the time budget: the sched stream's on/off-CPU record of every thread
 *                    laid over its timeline (on CPU, runnable, blocked, by primitive)
 *   an_run.c         orchestration, the figures of METRICS.md, accessors
 *   an_timeline.c    the per-thread state timeline for the GUI
 *   an_exp.c         experiment stores: points, repetitions, metrics written back
 *   an_exp_runs.c    the store's runs: T_seq of a point, each run's options, analysis on demand
 *   an_cache.c       per-run figures cached in the store's metrics table, keyed by trace and options
 *   an_matrix.c      curves, p_x, the scalability matrix
 *   an_metric.c      metric names and units, figures, repetition statistics
 *   an_report_text.c, an_report_data.c   terminal tables; CSV and JSON
 * Everything inside a pass works in ticks (uint64); ns appear only when figures are made.
 */
#ifndef AN_INT_H
#define AN_INT_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "analyzer.h"
#include "sgtrace_read.h"

/* A block of `bytes` that large arrays of fresh pages get: transparent huge pages asked for
 * from 4 MiB on (the kernel zeroes 4 KiB pages slowly in these VMs). NULL on ENOMEM. */
void *an_malloc_big(size_t bytes);
void an_advise_huge(void *p, size_t bytes);

/* Growable array helper: ensures room for one more element. 0 or -ENOMEM. */
int an_grow(void *pp, size_t *cap, size_t n, size_t elem);

/* The ids of one id space (functions, objects, counters, regions) as dense indexes 0..n-1, in
 * id order, made from the definitions (an_source.c). Every table of a run is sized by n, never
 * by an id's value: a record of a damaged trace can carry any id (0x10000000 once sized a
 * table of 10 GB), and one the definitions do not declare is skipped and reported. Ids are
 * looked up in `direct` when they are small (the usual 1..n), else by binary search. */
struct an_idmap {
	uint32_t *raw;             /* the defined ids, sorted, unique: index k is id raw[k] */
	uint32_t n;
	uint32_t *direct;          /* id < n_direct: its index + 1, 0 when undefined */
	uint32_t n_direct;
};
#define AN_NO_IDX UINT32_MAX       /* not defined (SG_NO_ID maps to it too) */
uint32_t an_idmap_search(const struct an_idmap *m, uint32_t id);
static inline uint32_t an_idx(const struct an_idmap *m, uint32_t id)
{
	return id < m->n_direct ? m->direct[id] - 1 : an_idmap_search(m, id);
}

/* A blocked or primitive interval of one thread (a non-busy piece of its timeline). */
enum an_ivl_type { IV_BARRIER, IV_LOCK, IV_LOCK_FAIL, IV_COND, IV_THREAD, IV_SEM };
struct an_ivl {
	uint64_t a, b;             /* ticks: start, end */
	uint32_t obj;              /* the object's dense index (an_idmap; SG_NO_ID: none); IV_THREAD:
				      the created or joined thread's index */
	uint32_t aux;              /* barrier episode; lock mode (| AN_LOCK_NESTED); IV_THREAD: 1
				      join, 0 create;
				      IV_SEM: the wait's result (0 taken, else the errno) | its
				      begin flags (SG_SEM_TRY, SG_SEM_TIMED) << 16 */
	uint64_t part : 56;        /* after the joins: ticks of [a, b] that were waiting, from a
				      (the rest is primitive time): BARRIER, LOCK, SEM, COND (until
				      the signal that ended it), THREAD (a join, until the joined
				      thread's end); see an_join.c, an_sync.c. Ticks
				      are 56-bit (SG_TICKS_MAX): the type fits beside them, 32
				      bytes an interval instead of 40 (they are fresh pages) */
	uint64_t type : 8;         /* enum an_ivl_type */
};

/* In a lock wait's aux: the thread held the same lock when it asked (a recursive mutex, a
 * second read lock): its own holds are inside the wait (an_join.c). */
#define AN_LOCK_NESTED 0x80000000u

/* A lock hold [q, x] of one thread, and the wait that ended at its acquire (the lock join
 * measures that wait as it walks the holds in q order, an_join.c). */
struct an_hold {
	uint64_t q, x;
	uint32_t thread : 31;      /* position */
	uint32_t read : 1;         /* a read hold (SG_LOCK_RWLOCK_READ) */
	uint32_t wait;             /* index in the thread's iv of the wait [r, q]; AN_NO_WAIT */
};
#define AN_NO_WAIT UINT32_MAX

/* The holds of one lock over all threads, appended by the per-thread passes straight into the
 * lock's own vector (thread after thread: one run per thread, in release order) and merged into
 * q order by the lock join, which then frees them. */
struct an_lock_holds {
	struct an_hold *h;
	size_t n, cap;
	size_t *run;               /* where each thread's run starts */
	size_t n_run, cap_run;
	uint64_t max_dur;          /* the longest hold: how far back a covering hold can start */
	uint64_t total;            /* ticks held */
	uint64_t last_q;           /* of h[n - 1], kept here: a load from h would wait on it */
	uint32_t last_thread;
	int unsorted;              /* a run out of q order: a lock held twice at once (recursive
				      mutex, two read locks) records its inner hold first */
	int has_read;              /* a read hold (rwlock) among them */
};

/* A post, signal or successful wait of a semaphore or condition variable, for the joins of
 * an_sync.c: appended by the passes, thread after thread, with the raw time. */
enum an_sev_kind { SEV_SEM_INIT, SEV_SEM_POST, SEV_SEM_TAKEN, SEV_COND_SIGNAL,
		   SEV_COND_BROADCAST, SEV_COND_WAKE };
struct an_sev {
	uint64_t t;                /* raw ticks (posts and signals); the wait's end (taken, woken) */
	uint32_t obj;
	uint32_t thread : 24;      /* position */
	uint32_t kind : 8;         /* enum an_sev_kind */
	uint32_t iv;               /* SEM_TAKEN, COND_WAKE: index of the wait in the thread's iv;
				      SEM_INIT: the initial value */
	uint32_t pad;
};

/* Running totals of one counter in one thread, inside the clip. */
struct an_ctr {
	int64_t first, last;
	uint64_t n;
};

struct an_frame {
	uint32_t func;
	uint64_t enter;
	uint64_t child;            /* ticks spent in callees */
};

struct an_fstat {
	uint64_t calls;
	uint64_t leaf;             /* ticks of leaf calls (ENTER f, EXIT f): during the scan only,
				      folded into incl and excl at its end (an_scan.c) */
	uint64_t incl, excl;       /* ticks */
	uint64_t join;             /* ticks of pthread_join calls made while this function was
				      the top frame (in excl: a profile of work takes them out) */
	uint32_t active;           /* frames of this function on the stack (recursion) */
};

/* The categories of a thread's time (the time budget of an_budget.c, and where a tracing cost
 * falls). */
enum an_cat {
	CAT_COMPUTE, CAT_BAR_W, CAT_BAR_P, CAT_LOCK_W, CAT_LOCK_P, CAT_COND, CAT_SEM_W, CAT_SEM_P,
	CAT_JOIN_W, CAT_THREAD_P, AN_N_CATS
};
/* One function of one thread under overhead control (format 1.3, docs/trace-format.md): the
 * library stopped recording its calls (SG_EV_FUNC_THROTTLED) and counts them instead, writing
 * cumulative totals (SG_EV_FUNC_UNRECORDED, _TIME: the last one in the stream counts). The
 * calls inside the clip are the last totals minus the last ones written before it. */
struct an_unrec {
	uint32_t func;             /* dense function index */
	uint32_t why;              /* aux of its first FUNC_THROTTLED (SG_THROTTLE_*), 0: none */
	uint64_t thr_t;            /* raw ticks of that record; UINT64_MAX: none */
	uint64_t thr_calls;        /* the calls it had recorded before */
	uint64_t calls, ticks;     /* the last cumulative totals */
	uint64_t calls0, ticks0;   /* the last ones written before the clip */
};

/* Everything one pass over one thread yields. */
struct an_tscan {
	uint64_t first, last;      /* ticks of the first/last event inside the clip; the clip's
				      edge for a thread with events before (after) it: it was
				      alive at the edge */
	uint64_t lo, hi;           /* the clip used */
	uint64_t n_events;
	int seen;                  /* an event inside the clip */
	uint64_t n_create;
	uint64_t t_thread;         /* ticks in create and join (a note for non-processors) */
	struct an_ivl *iv;         /* non-busy intervals, in time order */
	size_t n_iv, cap_iv;
	struct an_ctr *ctr;        /* indexed by counter index (r->cmap) */
	size_t n_ctr;
	struct an_fstat *fs;       /* during the pass only: r->fs_scratch, by slot (an_scan.c);
				      folded into r->fsum at its end */
	size_t n_fs;
	int any_calls;             /* the thread called a function in the clip */
	struct an_frame *stack;
	size_t depth, cap_stack;
	uint64_t n_releases;
	int before, after;         /* events before lo, after hi */
	uint32_t n_lock_ids;       /* 1 + the largest lock index of lock intervals and acquires, 0:
				      none */
	uint64_t unmatched;        /* events that did not pair (exit without enter, ...) */
	/* regions met: id, first begin, last end */
	struct an_reg { uint32_t id; uint64_t begin, end; int has_begin, has_end; } *reg;
	size_t n_reg, cap_reg;
	/* what tracing cost this thread inside the clip (an_run.c, trace_cost): its records, and
	 * those of the sync wrappers by the category whose time they fall in (the rest fell in
	 * compute: function probes, regions, counters, signals, posts) */
	uint64_t n_in;
	uint64_t rec_cat[AN_N_CATS];
	/* functions whose calls the library stopped recording (format 1.3), by dense index */
	struct an_unrec *unrec;
	size_t n_unrec, cap_unrec;
	uint32_t *uidx;            /* hash of function index -> position + 1 (an_scan.c) */
	size_t cap_uidx;
	/* call sites (format 1.4, an_sites.c): the intervals from iv index site_run[k].iv on were
	 * begun at site slot site_run[k].slot (0: unknown, k + 1: the k-th SITE definition), until
	 * the next entry; rel_slot: this thread's lock releases by the slot of the hold's acquire
	 * (NULL when the trace defines no site: all of them unknown) */
	struct an_site_run { uint32_t iv, slot; } *site_run;
	size_t n_site_run, cap_site_run;
	uint64_t *rel_slot;
};

/* The time budget of one thread (an_budget.c), ticks over [first, last]: for each category, all
 * of its time, the part runnable but not running, the part blocked (sleeping off CPU); the rest
 * is on CPU. */
struct an_budget {
	uint64_t total[AN_N_CATS], run[AN_N_CATS], sleep[AN_N_CATS];
	uint64_t tail[AN_N_CATS];  /* blocked after the wait's release (the wake-up), before the
				      run delay is placed in it */
	int64_t cpu_kernel_ns;     /* the kernel's CPU time over [first, last], -1 unknown */
	int64_t delay_kernel_ns;   /* the books' run delay there (thread_budget): any sign */
	int delay_known;           /* 0: no run-delay samples, delay_kernel_ns unknown */
	int64_t unplaced_ns;       /* run delay the records had no room for */
	int64_t short_ns;          /* the kernel's time awake below the records' on CPU and
				      preempted (a negative wake-up share), else 0 */
	double tail_run;           /* the share of the wake-up tails that was runnable */
};

/* Per-object join results. */
struct an_lockstat {
	struct an_lock pub;
	uint32_t idx;              /* the lock's dense index */
	uint64_t wait, hold, max_wait;   /* ticks; wait as pub.wait_ns (an_objects.c), its order */
};
struct an_barstat {
	struct an_barrier pub;
	uint32_t idx;
	uint64_t skew;
};
struct an_semstat {
	struct an_sem pub;
	uint32_t idx;
	uint64_t wait, max_wait;   /* ticks; wait as pub.wait_ns (an_objects.c), its order */
};
/* A condition variable whose broadcasts end several waits each (an_sync.c): `common` waits
 * is the most common count, made by n_common of its n_bc broadcasts. */
struct an_cbar {
	uint32_t id;
	uint32_t common;
	uint64_t n_bc, n_common;
};

struct an_run {
	char *dir;
	struct sgr_trace *tr;
	const struct sgr_info *info;
	struct an_run_opts opts;
	size_t n_threads;
	struct an_tscan *ts;       /* per thread position */
	struct an_lock_holds *lh;  /* per lock id, from the passes until the lock join */
	size_t n_lh;
	struct an_thread *th;
	uint64_t t0, t1;           /* ticks */
	int have_region;
	char region_name[128];
	uint64_t n_events;
	struct an_func *funcs;
	size_t n_funcs;
	struct an_lockstat *locks;
	size_t n_locks;
	struct an_barstat *bars;
	size_t n_bars;
	struct an_semstat *sems;
	size_t n_sems;
	struct an_idmap fmap, omap, cmap, rmap;   /* functions, objects, counters, regions */
	struct an_fstat *fsum;     /* per function index: every thread's calls and times */
	struct an_fstat *fs_scratch;   /* the pass's per-function table, one for all threads, by
				      slot: fmap.n_direct + fmap.n of them */
	uint64_t unknown_ids;      /* records naming an id the definitions do not declare */
	char unknown_first[96];    /* the first of them: what, where */
	uint64_t bad_episodes;     /* barrier waits with an episode number no thread could reach */
	struct an_sev *sev;        /* from the passes until the joins of an_sync.c */
	size_t n_sev, cap_sev;
	struct an_cbar *cbar;      /* conditions with broadcasts (an_sync.c) */
	size_t n_cbar;
	/* the time budget (an_budget.c) */
	int budget_ok;             /* switch records laid over every thread */
	const char *budget_why;    /* why not (owned by the run) */
	struct an_budget *bud;     /* per thread position */
	struct an_ivl **off;       /* per thread position: its spans off CPU [a, b) from the sched
				      stream, in time order; aux 1 when preempted (runnable
				      throughout), 0 when blocked (then woken) */
	size_t *n_off;
	uint64_t **cpu_on;         /* per thread position: ticks on each CPU by the records (from
				      a switch in to the next switch out), n_cpu_on[pos] CPUs */
	size_t *n_cpu_on;
	uint64_t sched_lost;       /* switch records the kernel dropped */
	uint64_t bad_cpus;         /* switch records of an impossible CPU number (skipped) */
	uint64_t par_busy, par_multi;   /* ticks: busy total, busy while >= 2 busy */
	uint64_t budget_t;         /* raw ticks of the first SG_EV_TRACE_BUDGET; UINT64_MAX none */
	uint64_t budget_bytes;     /* the bytes it says the process had written */
	int n_proc;
	const char *n_unsure;      /* why N is not certain (an_procs.c), NULL when it is */
	struct an_fig fig[AN_N_METRICS];
	char **problems;
	size_t n_problems, cap_problems;
	char **notes;
	size_t n_notes, cap_notes;
	char **strs;               /* strings owned by the run (reasons) */
	size_t n_strs, cap_strs;
	struct an_tl { struct an_interval *iv; size_t n; int built; } *tl;
	int64_t *sites_tab;        /* the whole run's call-site table (an_sites.c), made once for
				      every source: each source's call made it again, and the
				      budget split by site of each thread came out once a source */
	/* counter-derived raw sums over the processors (NAN when unavailable) */
	double task_clock_ns, cycles, stall_cycles, misses, refs;
	const char *why_stall, *why_misses, *why_refs, *why_task;
};

/* an_run.c */
void an_run_problem_add(struct an_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void an_run_note_add(struct an_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A string owned by the run (printf format); "" on ENOMEM. */
const char *an_run_str(struct an_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Chooses the processors (th[].processor, why, n_proc, n_unsure; an_procs.c): the threads of
 * the parallel phase. After the budget, before the parallelism sweep. 0 or -ENOMEM. */
int an_procs_choose(struct an_run *r);
/* Sets L_W1 = l_w1 and checks (3) and (10) of the figures f (N, L, U set) for T_seq ts and the
 * T_para te that E used (tref: the runner's T_para, else the trace's; wall: E from wall-clock
 * times, no (10)): T_para (1 - E) = L + U/N - L(W,1)/N (an_run.c; the experiment calls it
 * again for runs from the cache when U's baseline moves). */
void an_checks_set(struct an_fig *f, double ts, double te, double tref, double l_w1, int wall);
int64_t an_ticks_ns(const struct an_run *r, uint64_t ticks);   /* a duration */
int64_t an_time_ns(const struct an_run *r, uint64_t ticks);    /* a time since the epoch */

/* an_source.c */
/* Opens the trace and makes the id maps. 0 or -errno with a message in err. */
int an_source_open(struct an_run *r, char *err, size_t errlen);
void an_source_close(struct an_run *r);
/* The public id of object index x (SG_NO_ID for SG_NO_ID). */
static inline uint32_t an_obj_id(const struct an_run *r, uint32_t x)
{
	return x < r->omap.n ? r->omap.raw[x] : SG_NO_ID;
}
void an_source_problems(struct an_run *r);
const char *an_source_obj_kind(const struct an_run *r, uint32_t id);
const char *an_source_region_name(const struct an_run *r, uint32_t id);
void an_source_funcs(struct an_run *r);
void an_source_counters(struct an_run *r);

/* an_scan.c */
/* The pass over thread pos, clipped to [lo, hi], into r->ts[pos]; its lock holds go to r->lh
 * (the caller scans every thread once after an_scan_holds_free). 0 or -ENOMEM. */
int an_scan_thread(struct an_run *r, size_t pos, uint64_t lo, uint64_t hi);
void an_scan_free(struct an_tscan *s);
void an_scan_holds_free(struct an_run *r);
/* Without reading every record: each thread's first and last event and, for the region `named`
 * (SG_NO_ID: the first one begun), its first begin and last end, into r->ts[] as the full scan
 * would give them to the clip choice. 0 or -ENOMEM. */
int an_scan_regions(struct an_run *r, uint32_t named);

/* The sort key of a merged element: the uint64_t it starts with (a hold's q, a busy key). */
static inline uint64_t an_lead_key(const char *e)
{
	uint64_t k;
	memcpy(&k, e, sizeof k);
	return k;
}

/* Merges n_runs runs of elements of elem bytes, each sorted by lead_key (run[k] is where run k
 * starts, run[n_runs] the end), pairwise level by level between src and dst; returns the one of
 * the two that holds the merged sequence. run[] is overwritten with each level's bounds. Always
 * inlined where elem is a constant, so that every copy is of a fixed size. */
static inline __attribute__((always_inline)) void *an_merge_sorted_runs(void *src, void *dst,
								      size_t elem, size_t *run,
								      size_t n_runs)
{
	char *s = src, *d = dst;
	while (n_runs > 1) {
		size_t m = 0;
		for (size_t k = 0; k < n_runs; k += 2) {
			size_t i = run[k], ie = run[k + 1], j = ie;
			size_t je = k + 2 <= n_runs ? run[k + 2] : ie, o = i;
			while (i < ie && j < je) {
				const char *x = s + i * elem, *y = s + j * elem;
				memcpy(d + o++ * elem, an_lead_key(y) < an_lead_key(x) ? (j++, y) : (i++, x),
				       elem);
			}
			memcpy(d + o * elem, s + i * elem, (ie - i) * elem);
			o += ie - i;
			memcpy(d + o * elem, s + j * elem, (je - j) * elem);
			o += je - j;
			run[++m] = o;
		}
		n_runs = m;
		char *t = s;
		s = d;
		d = t;
	}
	return s;
}

/* an_sync.c */
int an_join_sems(struct an_run *r);
int an_join_conds(struct an_run *r);

/* an_budget.c */
/* Reads the sched stream and lays each thread's on/off-CPU record over its timeline (after the
 * joins gave every wait its waiting part). Without usable records sets budget_ok = 0 and says
 * why. 0 or -ENOMEM. */
int an_budget_build(struct an_run *r);
void an_budget_free(struct an_run *r);
/* Ticks of thread pos on CPU over [x, y) by its switch records. */
uint64_t an_budget_oncpu(const struct an_run *r, size_t pos, uint64_t x, uint64_t y);

/* an_sites.c */
/* The slot of SITE id (1 + its position among the definitions), 0 for SG_NO_ID or an id the
 * definitions do not declare. */
uint32_t an_site_slot(const struct an_run *r, uint32_t id);

/* an_budget.c: after the processors are chosen, a note on what of the closure is the kernel's
 * figures beyond what the records leave room for (docs/analyzer.md, "The run delay of the
 * books"). */
void an_budget_note(struct an_run *r);

/* an_budget.c, for an_sites.c: thread pos's budget over [lo, hi] (ticks, inside the thread's
 * [first, last]) split by the site of each interval: per[iv_slot[k]] gets interval k's parts
 * (compute goes to per[0]); n_slots budgets, zeroed by the caller. Over the thread's whole time
 * the wake-up tails are placed with the thread's own runnable share, so that the slots add up
 * to r->bud[pos] tick for tick (run and sleep of every category). */
void an_budget_sites(const struct an_run *r, size_t pos, uint64_t lo, uint64_t hi,
		     const uint32_t *iv_slot, size_t n_slots, struct an_budget *per);

/* an_objects.c */
/* The tables' time columns as the figures' parts: the processors' wait and ovh without their
 * runnable time, the runnable time, the other threads' time; after the processors are chosen.
 * Then locks and semaphores most waited on first. 0 or -ENOMEM. */
int an_objects_settle(struct an_run *r);

/* an_join.c */
int an_join_barriers(struct an_run *r);
int an_join_locks(struct an_run *r);
int an_join_parallelism(struct an_run *r);

/* an_exp.c: one point with the strings its public view points to */
struct an_pt {
	struct an_point pub;
	char model[16], method[32], sizes[256], t_seq_source[16], note[256];
	char t_basis[8], t_seq_how[300];
	int64_t *reps;
	int n1;                    /* T_seq is the N=1 runs' (no sequential program) */
	double t_seq_comp;         /* T_seq without its runs' tracing cost (an_exp_comp_t_seq);
				      0: none (T_seq untraced, or no record cost) */
};

/* A row of the store's runs table, its analysis options and figures. */
struct an_exp_run {
	int64_t id;
	struct an_run *run;        /* the analyzed trace: NULL until needed, or unreadable */
	char kind[4], sizes[256], t_para_source[16];
	int n_threads, ok, has_trace, tried, have_opts;
	double t_wall_s, t_para_s; /* the runner's, NAN unknown */
	struct an_run_opts opts;   /* what its figures depend on (opts.seq set at analysis) */
	long seq;                  /* index of the run giving ML(1), -1 none */
	uint64_t key;              /* analysis key (an_cache.c) */
	int have_fig, from_cache;
	struct an_fig fig[AN_N_METRICS];
};

struct an_exp {
	char *dir;
	struct an_pt *pts;
	size_t n_pts, cap_pts;
	struct an_exp_run *runs;   /* every row of the runs table, by id; never reallocated after
				      an_exp_runs_read */
	size_t n_runs, cap_runs;
	char **methods;
	size_t n_methods;
	char **problems;
	size_t n_problems, cap_problems;
	char **strs;
	size_t n_strs, cap_strs;
	int n_cpus;
	double miss_ns, unlock_ns;
	double record_ns, unrec_ns;   /* calibrated cost of a trace record, of a counted call */
	struct an_run_failure *fail;  /* runs that gave no measurement, by id */
	size_t n_fail, cap_fail;
	char mem_along[32];        /* the parameter the memory-bound model scales */
	size_t n_analyzed;         /* runs read from their traces by this open */
	size_t n_untraced;         /* runs asked for that were never traced (no trace, wall time) */
	size_t n_cache_keys;       /* runs with an analysis key in the store */
};

/* an_exp_runs.c */
struct sqlite3;
int an_exp_runs_read(struct an_exp *e, struct sqlite3 *db);
struct an_exp_run *an_exp_run_find(const struct an_exp *e, int64_t id);
/* Chooses T_seq of point p (docs/analyzer.md) and gives its repetitions their options. */
void an_exp_point_opts(struct an_exp *e, struct an_pt *p);
/* U of point p's repetitions against the N=1 runs' compute when T_seq is the N=1 run. */
void an_exp_n1_baseline(struct an_exp *e, struct an_pt *p);
/* The measured overhead of every point (an_overhead.c): an_exp_overhead_read before the points'
 * statistics (the linked repetitions' wall times, the plain runs of the store), and
 * an_exp_overhead_finish after them (the estimate from trace_cost_share, the mark). */
void an_exp_overhead_read(struct an_exp *e, struct sqlite3 *db);
void an_exp_overhead_finish(struct an_exp *e);
/* With a calibrated record cost and T_seq from traced runs: T_seq without their tracing cost
 * (the median of their T_para_comp) into p->t_seq_comp, and its repetitions' E_comp and U_comp
 * made with it (docs/analyzer.md "Tracing cost"). */
void an_exp_comp_t_seq(struct an_exp *e, struct an_pt *p);
/* Options of a run no point gave any (a sequential run read for ML(1)). */
void an_exp_run_base_opts(struct an_exp *e, struct an_exp_run *x);
/* Reads and analyzes run x once; fills x->fig unless cached. NULL when unreadable. */
struct an_run *an_exp_run_analyze(struct an_exp *e, struct an_exp_run *x);

/* an_exp.c: the first part of an_exp_open — marks interrupted runs (writable), reads the
 * store's tables into e (e->dir set), chooses every run's options, computes the analysis keys
 * and loads the cached figures; analyses nothing. 0 or -errno with err set. */
struct store;
int an_exp_read_store(struct an_exp *e, struct store *st, unsigned flags, int writable,
		      char *err, size_t errlen);

/* an_cache.c */
void an_cache_keys(struct an_exp *e);
int an_cache_load(struct an_exp *e, struct sqlite3 *db);
struct store;
void an_cache_store(const struct an_exp *e, struct store *st);

void an_exp_problem_add(struct an_exp *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *an_exp_str(struct an_exp *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Lists of owned strings (an_run.c): appends a printf-formatted string. */
void an_strlist_add(char ***v, size_t *n, size_t *cap, const char *fmt, va_list ap);

/* an_matrix.c: metrics of points and cells written to the store */
struct store;
int an_matrix_store(const struct an_exp *e, struct store *st);

/* an_metric.c */
struct an_fig an_fig_val(double v);
struct an_fig an_fig_na(const char *why);
/* Median (mean of the middle two for an even count), min and max of n available values. */
void an_stats(const double *v, size_t n, double *med, double *min, double *max);

/* an_sites.c, for the text and JSON reports: each method's an_exp_sites_point with its sites
 * per source (row i, column k < an_site_n_sources(), at most AN_SITE_SOURCES_MAX), gathered once;
 * *recorded: some method's point had call sites. NULL when out of memory. */
#define AN_SITE_SOURCES_MAX 16
typedef struct an_sites an_sites_row[AN_SITE_SOURCES_MAX];
an_sites_row *an_exp_sites_table(const struct an_exp *e, int *recorded);
/* The state of a row of sources (a point's): recorded when any source is, else none known when
 * any has time at the unknown site, else the first source's. */
enum an_sites_state an_sites_row_state(const struct an_sites *v, size_t n_src);
void an_exp_sites_table_free(const struct an_exp *e, an_sites_row *v);

#endif /* AN_INT_H */
