/*
 * analyzer.h — the metric engine of scalegraph (library libsganalyze.a, prefix an_). It reads
 * traces through the reader library and experiment stores through store.h, and computes the
 * figures of /work/shared/METRICS.md (docs/analyzer.md says how each one is measured):
 *
 *   per run        T_para, T_i, E, S, the IT / PT / ML split, L, U, the checks of (3) and (10),
 *                  parallelism, function profile, lock and barrier tables, a state timeline;
 *   per experiment points (model, method, N) with repetition median/min/max, curves vs N, p_x,
 *                  parallelism vs problem size, sequential patterns, the t/E/m matrix.
 *
 * The CLI (`scalegraph report`, `scalegraph export`) and the GUI share it; nothing here includes
 * an X header or prints (report writers take a FILE *). Every figure is a struct an_fig: a value
 * or "unavailable" with the reason, never a silent zero. Times are seconds in figures and
 * nanoseconds (int64, since the trace's epoch) in tables and timelines. Functions return 0 or a
 * negative errno; error text goes to a caller buffer.
 */
#ifndef ANALYZER_H
#define ANALYZER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A figure: `value` is meaningful iff `unavailable` is NULL; else it says why (owned by the run
 * or experiment the figure came from). */
struct an_fig {
	double value;
	const char *unavailable;
};

/* The per-run figures, in the order of the CSV columns where they appear there. */
enum an_metric {
	AN_T_PARA,       /* s: t1 - t0 (measured region, else the threads' span) */
	AN_T_SEQ,        /* s: the sequential time used for E (sequential program or N=1) */
	AN_E,            /* efficiency T_seq / (N T_para) */
	AN_S,            /* speedup T_seq / T_para */
	AN_L,            /* s: (ML + IT + PT) / N, ML left out (and said so) when unavailable */
	AN_IT_EDGE,      /* s: N T_para - sum T_i (6) */
	AN_IT_BARRIER,   /* s: arrival to last arrival, summed over episodes and threads */
	AN_IT_LOCK,      /* s: waiting while another thread holds the lock */
	AN_IT_COND,      /* s: blocked in condition waits */
	AN_IT_SCHED,     /* s: runnable but not running (CPU contention), wherever it fell */
	AN_PT_BARRIER,   /* s: last arrival to each thread's leave */
	AN_PT_LOCK,      /* s: acquire time not explained by contention, plus release */
	AN_PT_THREAD,    /* s: create and join time of the processor threads */
	AN_ML,           /* s: ML(N) - ML(1) */
	AN_U,            /* s: extra work: CPU time in compute - T_seq - ML (negative: less work
			    than the sequential program, superlinear) */
	AN_PARALLELISM,  /* average parallelism: CPU time of the processors / T_para */
	AN_OVERSUB,      /* 1 when N exceeds the CPUs, else 0 */
	AN_N,            /* number of processor threads N */
	AN_IT,           /* s: sum of the IT parts */
	AN_PT,           /* s: sum of the PT parts */
	AN_ML_RAW,       /* s: memory stall time of this run, ML(N) of (7) */
	AN_PAR_SHARE,    /* share of the CPU time spent while >= 2 processors were on CPU */
	AN_L_E,          /* s: T_para (1 - E), the latency implied by E (10) */
	AN_CHECK3,       /* relative deviation of (3): (T_para - T_seq/N - L) / T_para */
	AN_CHECK10,      /* relative deviation of (10): (T_para (1 - E) - L) / (T_para (1 - E)) */
	AN_CPU_UTIL,     /* task-clock / (N T_para) */
	AN_MEM_RATE,     /* memory access (stall) time / (N T_para) */
	AN_MISS_RATE,    /* cache misses / cache references */
	AN_IT_SEM,       /* s: waiting in sem_wait while no post was available */
	AN_IT_JOIN,      /* s: a processor waiting in join for a thread still running */
	AN_IT_BLOCKED,   /* s: off CPU, sleeping, outside any traced primitive (I/O, page faults,
			    untraced primitives) */
	AN_PT_SEM,       /* s: semaphore operations not explained by waiting for a post */
	AN_COMPUTE,      /* s: CPU time in compute summed over the processors (T_seq + ML + U) */
	AN_CLOSURE,      /* (N T_para - sum of all parts) / (N T_para): the books, measured */
	/* The library's own cost (docs/analyzer.md "Tracing cost"): the processors' records in
	 * [t0, t1] x the calibrated cost of one record, plus their counted (throttled) calls x
	 * the cost of one such call */
	AN_TRACE_COST,   /* s: summed over the processors */
	AN_TRACE_SHARE,  /* trace_cost / (N T_para) */
	/* Compensated figures: the estimated cost taken out of the parts it fell in (function
	 * probes: compute; a sync wrapper's records: its primitive's overhead, a condition wait's
	 * its IT_cond) and T_para shortened by the mean over the processors, so that the books
	 * close as the measured ones do. Beside the measured figures, never instead of them. */
	AN_T_PARA_C,     /* s: T_para - (cost taken out) / N */
	AN_E_C,          /* T_seq / (N T_para_comp), T_seq as measured */
	AN_L_C,          /* s: (ML + IT_comp + PT_comp) / N */
	AN_IT_C,         /* s: IT with IT_cond_comp */
	AN_PT_C,         /* s: the sum of the PT_*_comp */
	AN_IT_COND_C, AN_PT_BARRIER_C, AN_PT_LOCK_C, AN_PT_SEM_C, AN_PT_THREAD_C,   /* s */
	AN_COMPUTE_C,    /* s: compute without the function probes' cost */
	AN_U_C,          /* s: U of the compensated compute */
	AN_CLOSURE_C,    /* closure of the compensated books */
	/* s: L(W,1), the overhead that T_seq holds beyond U's baseline: T_seq less the N=1 runs'
	 * CPU time in compute when T_seq is the N=1 runs' T_para (the program's own overhead at one
	 * thread), else 0. (3) and (10) then read T_para (1 - E) = L + U/N - L_W1/N (issue 20) */
	AN_L_W1,
	AN_N_METRICS
};

/* Short name ("IT_barrier") and unit ("s", "" for ratios) of a metric. */
const char *an_metric_name(enum an_metric m);
const char *an_metric_unit(enum an_metric m);
/* The metric called `name`, or -1. */
int an_metric_find(const char *name);

/* ---- One run ------------------------------------------------------------------------------ */

struct an_run;

/* What the trace alone cannot tell; every field optional (zero/NULL = unknown). */
struct an_run_opts {
	double t_seq_s;            /* T_seq; <= 0: unknown (E, S, U, checks unavailable) */
	const char *t_seq_source;  /* "sequential" or "n1" */
	const struct an_run *seq;  /* analyzed sequential run at the same size: gives ML(1) */
	int n_threads;             /* expected N (a mismatch with the trace is reported) */
	int n_cpus;                /* CPUs of the machine that ran it; 0: this machine's */
	double miss_ns;            /* calibrated miss latency (ML from misses when no stall counter) */
	double unlock_ns;          /* calibrated release cost (the release part of PT_lock) */
	const char *region;        /* name of the measured region; NULL: the first one begun */
	double t_para_ref_s;       /* the runner's own T_para (check of (10)); <= 0: unknown */
	unsigned flags;            /* AN_VERIFY_* */
	double record_ns;          /* calibrated cost of one trace record (calibrate's record_ns);
				      <= 0: unknown (tracing cost unavailable) */
	double unrecorded_call_ns; /* calibrated cost of one counted, unrecorded (throttled) call */
	double t_para_e_s;         /* the T_para paired with T_seq in E, S, U, L_from_E and (3) when
				      T_seq is a wall-clock time: this run's wall time (check10 is
				      then unavailable: no second measurement); <= 0: T_para */
	double u_base_s;           /* the sequential work U is measured against: the CPU time in
				      compute of the point's N=1 runs when T_seq is the N=1 run
				      itself; <= 0: T_seq */
	double u_base_comp_s;      /* the same for U_comp: their compensated compute; <= 0: as
				      u_base_s */
	double t_seq_comp_s;       /* T_seq without its own tracing cost, for E_comp and U_comp
				      when T_seq is a traced run's T_para; <= 0: T_seq */
};
#define AN_NO_VERIFY 1u            /* skip payload checksums (headers are always checked) */
#define AN_NO_BUDGET 2u            /* leave the sched stream unread: no time budget (to measure
				      what it costs; figures then as for a format 1.1 trace) */

/* Opens and analyzes the trace directory `dir` in one pass per thread. On success *out owns the
 * result (free with an_run_free). A damaged or cut-short trace still gives partial results;
 * its problems are listed by an_run_problem. Fails (-errno, message in err) only when nothing
 * can be read: no such directory, no definitions, no thread with events. */
int an_run_open(const char *dir, const struct an_run_opts *opts, struct an_run **out, char *err,
		size_t errlen);
void an_run_free(struct an_run *r);
/* Recomputes the figures that depend on opts (T_seq, ML(1), CPUs...) without re-reading. */
void an_run_set_opts(struct an_run *r, const struct an_run_opts *opts);

const char *an_run_dir(const struct an_run *r);
struct an_fig an_run_fig(const struct an_run *r, enum an_metric m);
uint64_t an_run_n_events(const struct an_run *r);
/* Problems met while reading or analyzing, "FILE: chunk K: reason" or a sentence. */
size_t an_run_n_problems(const struct an_run *r);
const char *an_run_problem(const struct an_run *r, size_t i);
/* Notes on how figures were obtained ("T_para from region \"simulate\"", "PT_lock: release
 * part estimated ..."), for reports. */
size_t an_run_n_notes(const struct an_run *r);
const char *an_run_note(const struct an_run *r, size_t i);
/* The measured interval [t0, t1] in ns since the trace's epoch. */
void an_run_span(const struct an_run *r, int64_t *t0_ns, int64_t *t1_ns);

struct an_thread {
	uint32_t index;            /* thread index in the trace */
	int32_t os_tid;            /* 0 unknown */
	int processor;             /* counts among the N */
	const char *why;           /* why it is or is not a processor (owned by the run) */
	int64_t s_ns, e_ns;        /* first and last event inside [t0, t1] (t0, t1 for a thread
				      alive across them); T_i = e - s */
	int64_t t_ns;              /* T_i */
	int64_t busy_ns;           /* compute on CPU: T_i minus every wait, primitive, runnable
				      and blocked time below (without switch records: minus the
				      waits and primitives) */
	int64_t barrier_wait_ns, barrier_ovh_ns, lock_wait_ns, lock_ovh_ns, cond_ns, thread_ns;
	int64_t sem_wait_ns, sem_ovh_ns, join_wait_ns;
	int64_t sched_ns;          /* runnable, not running, -1 unknown */
	int64_t blocked_ns;        /* off CPU outside any traced primitive, -1 unknown */
	int64_t cpu_ns;            /* on CPU in all (compute and primitives), -1 unknown */
	int64_t cpu_kernel_ns;     /* the kernel's CPU time over [s, e] (a cross-check), -1 */
	uint64_t n_events;
	uint64_t n_records;        /* records written inside [t0, t1] (what tracing cost) */
	uint64_t unrec_calls;      /* calls counted, not recorded, inside [t0, t1] (throttled) */
	int64_t trace_cost_ns;     /* estimated tracing cost in [t0, t1]; -1 unknown */
};
/* Why the run's N is not certain, said beside N (ties at the cut, a thread doing part work,
 * threads the trace does not record that ran: docs/analyzer.md "Processors"); NULL when it is.
 * Belongs to the run. */
const char *an_run_n_unsure(const struct an_run *r);
size_t an_run_n_threads(const struct an_run *r);
const struct an_thread *an_run_thread(const struct an_run *r, size_t i);

struct an_func {
	uint32_t id;
	const char *name, *file;   /* "?" when undefined */
	int line;
	uint64_t calls;
	int64_t incl_ns, excl_ns;  /* over all threads; inclusive counts the outermost frame of a
				      recursion only */
	double incl_pct, excl_pct; /* of the summed thread time of the profiled threads */
	/* Overhead control (format 1.3): calls is complete, recorded + counted; incl_ns holds
	 * the library's estimate of the counted calls' time (unrec_ns), excl_ns does not: with no
	 * events to subtract, that time is in the exclusive time of their callers. */
	uint64_t rec_calls;        /* calls recorded as events */
	uint64_t unrec_calls;      /* calls counted, not recorded */
	int64_t unrec_ns;          /* their estimated inclusive time (in incl_ns: an estimate) */
	unsigned throttled;        /* 0, or why its first thread stopped recording it:
				      SG_THROTTLE_RULE (1, many short calls), SG_THROTTLE_BUDGET (2) */
	int64_t throttled_ns;      /* when: ns since the epoch (the first thread's) */
	uint64_t throttled_after;  /* the calls that thread had recorded before */
	int n_throttled;           /* threads that stopped recording it */
	/* Work only: the time its frames spent in pthread_join (inside excl_ns) taken out. An N=1
	 * run standing in for the sequential program has a master thread that joins the worker
	 * for the whole run; its join is waiting, not work of the program (report --profile and
	 * xscalegraph show these for such a run). */
	int64_t join_ns;           /* in excl_ns */
	int64_t work_excl_ns;      /* excl_ns - join_ns */
	double work_pct;           /* of the profiled threads' summed time without every join */
};
/* Function profile, sorted by exclusive time, largest first. */
size_t an_run_n_funcs(const struct an_run *r);
const struct an_func *an_run_func(const struct an_run *r, size_t i);

struct an_lock {
	uint32_t id;
	const char *kind;          /* "mutex", "rwlock", "spin", "?" */
	uint64_t acquires, contended, failed_trylocks;
	int64_t wait_ns;           /* IT_lock part: processors waiting while another thread held
				      it (without their runnable time, as every time column) */
	int64_t ovh_ns;            /* acquire part of PT_lock (the processors'; the release cost
				      is per thread, in PT_lock only) */
	int64_t runnable_ns;       /* the processors' runnable time in its waits (in IT_sched) */
	int64_t others_ns;         /* time of threads not processors in its waits (not a part) */
	int64_t hold_ns, max_wait_ns;   /* every thread's */
};
/* Locks, most contended first (by wait_ns). */
size_t an_run_n_locks(const struct an_run *r);
const struct an_lock *an_run_lock(const struct an_run *r, size_t i);

struct an_barrier {
	uint32_t id;
	uint64_t episodes;
	int64_t wait_ns, ovh_ns;   /* IT_barrier and PT_barrier parts (the processors') */
	int64_t runnable_ns;       /* the processors' runnable time in its waits (in IT_sched) */
	int64_t others_ns;         /* time of threads not processors in its waits (not a part) */
	int64_t worst_skew_ns;     /* largest last-minus-first arrival of an episode */
	uint32_t worst_episode;
};
size_t an_run_n_barriers(const struct an_run *r);
const struct an_barrier *an_run_barrier(const struct an_run *r, size_t i);

struct an_sem {
	uint32_t id;
	uint64_t waits;            /* successful waits */
	uint64_t blocked;          /* of those, waits that had to wait for a post */
	uint64_t failed;           /* sem_trywait that found it at 0 */
	uint64_t timeouts;         /* timed waits that gave up (or were interrupted) */
	uint64_t posts;
	int64_t wait_ns;           /* IT_sem part (the processors') */
	int64_t ovh_ns;            /* PT_sem part (the processors') */
	int64_t runnable_ns;       /* the processors' runnable time in its waits (in IT_sched) */
	int64_t others_ns;         /* time of threads not processors in its waits (not a part) */
	int64_t max_wait_ns;       /* every thread's, as the counts */
};
/* Semaphores, most waited on first. */
size_t an_run_n_sems(const struct an_run *r);
const struct an_sem *an_run_sem(const struct an_run *r, size_t i);

/* ---- Timeline of a run (for the GUI's thread view) ---------------------------------------- */

enum an_state {
	AN_ST_BUSY, AN_ST_BARRIER_WAIT, AN_ST_BARRIER_OVH, AN_ST_LOCK_WAIT, AN_ST_LOCK_OVH,
	AN_ST_COND_WAIT, AN_ST_THREAD, AN_ST_IDLE, AN_ST_SEM_WAIT, AN_ST_SEM_OVH,
	AN_ST_RUNNABLE,            /* off CPU, runnable (CPU contention), in any of the above */
	AN_ST_BLOCKED,             /* off CPU, sleeping, outside any traced primitive */
	AN_N_STATES
};
const char *an_state_name(enum an_state s);

struct an_interval {
	int64_t t0_ns, t1_ns;
	enum an_state state;       /* for a merged interval (see below): its longest state */
	uint32_t obj;              /* barrier or lock id, else UINT32_MAX */
	uint32_t merged;           /* number of intervals folded into this one (1: exact) */
};

/* Calls cb for every interval of thread `i` (position, as an_run_thread) overlapping
 * [from_ns, to_ns], in time order, from thread start idle to thread end idle inside [t0, t1].
 * Runs of intervals shorter than min_ns are folded into one (zoomed-out views: pass the width
 * of a pixel). The timeline is built on first use (one more pass over that thread). Returns 0,
 * the first non-zero value of cb, or -errno. */
int an_run_timeline(struct an_run *r, size_t i, int64_t from_ns, int64_t to_ns, int64_t min_ns,
		    int (*cb)(const struct an_interval *iv, void *ud), void *ud);

/* ---- Experiments -------------------------------------------------------------------------- */

struct an_exp;

/* One (model, method, N) point of the experiment, with its repetitions analyzed. */
struct an_point {
	int64_t id;
	const char *model;         /* "method", "time-bound", "e-conserved", "memory-bound" */
	const char *method;
	int n_threads;
	const char *sizes;         /* "balls=5000 steps=100" */
	double work, scale, target;
	double t_para_s, t_seq_s, efficiency;   /* the runner's figures (NAN unknown) */
	const char *t_seq_source;
	int oversubscribed;
	int converged;             /* a searched model point reached its target (±2 % of the time
				      bound, ±0.02 of E); 1 for points placed without a search */
	const char *note;
	int n_reps;                /* analyzed repetitions */
	const int64_t *rep_ids;    /* their run ids */
	int64_t seq_id;            /* the sequential run analyzed for patterns and ML(1), 0: none */
	struct an_fig med[AN_N_METRICS], min[AN_N_METRICS], max[AN_N_METRICS];
	/* How the analyzer measured T_seq for E, S, U (med[AN_T_SEQ]); t_seq_source above names
	 * the source it chose ("sequential" or "n1"), which can differ from the runner's. */
	const char *t_basis;       /* "trace" (T_seq and T_para both from traces), "wall" (both
				      wall-clock times of whole processes), "runner" (the runner's
				      T_seq taken as given: the store has no run behind it) */
	const char *t_seq_how;     /* a sentence for reports */
	/* The distortion measured (issue 21, an_overhead.c): the traced repetitions against the
	 * plain build's untraced runs (spec `plain`) at the same N and sizes. Times are wall times
	 * of whole processes (a plain run has no trace, so no T_para of its own), medians. Where
	 * the spec has no plain build each figure is unavailable, "not measured (no plain build in
	 * the spec)". */
	struct an_fig t_plain;       /* s: median wall time of the plain runs */
	struct an_fig t_traced_wall; /* s: median wall time of the traced repetitions */
	struct an_fig ovh_measured;  /* t_traced_wall / t_plain - 1 */
	struct an_fig ovh_estimated; /* the estimated tracing cost as the same slowdown:
					trace_cost_share / (1 - trace_cost_share) */
	int n_plain;                 /* plain runs behind t_plain */
	int n_traced;                /* traced repetitions behind t_traced_wall */
	int ovh_marked;              /* measured and estimated differ by more than
					AN_OVERHEAD_GAP_MARK (|difference| of the two ratios) */
	const char *ovh_why;         /* the mark in words (NULL when not marked) */
};

#define AN_EXP_NO_STORE_WRITE 1u   /* do not fill the store's metrics table */
#define AN_EXP_REANALYZE 2u        /* ignore the figures cached in the store's metrics table */

/* Opens the experiment directory `dir`, analyzes every finished run's trace and fills the
 * store's metrics (unless flags has AN_EXP_NO_STORE_WRITE or the store is read-only). Runs
 * without a readable trace give "unavailable" figures and a problem line.
 * Per-run figures already in the store's metrics table are reused when their analysis key
 * (the trace files' names, sizes and mtimes, the options the figures depend on, the analyzer's
 * version) is current: only new or changed runs are read, so reopening an analyzed store costs
 * milliseconds. Runs loaded that way are analyzed on first an_exp_run (profile, locks...). */
int an_exp_open(const char *dir, unsigned flags, struct an_exp **out, char *err, size_t errlen);
void an_exp_free(struct an_exp *e);

/* The first analysis of a store, one run at a time (an_cache.c): an_prewarm_open reads the
 * store (read-write; -EROFS and others with err set when it cannot) and lists the runs whose
 * figures are not cached; each an_prewarm_step analyses one, writes its figures into the
 * store's cache and frees its trace, returning 1 while runs remain, 0 when done, -errno when the
 * store cannot be written. an_exp_open afterwards reads every run from the cache. Memory stays
 * that of one run (plus the runs giving others their ML(1)), and a caller can show progress
 * (an_prewarm_done of an_prewarm_total) between steps. */
struct an_prewarm;
int an_prewarm_open(const char *dir, struct an_prewarm **out, char *err, size_t errlen);
size_t an_prewarm_total(const struct an_prewarm *p);
size_t an_prewarm_done(const struct an_prewarm *p);
int an_prewarm_step(struct an_prewarm *p);
void an_prewarm_close(struct an_prewarm *p);

const char *an_exp_dir(const struct an_exp *e);
size_t an_exp_n_points(const struct an_exp *e);
const struct an_point *an_exp_point(const struct an_exp *e, size_t i);
/* The point of (model, method, N), or NULL. */
const struct an_point *an_exp_point_find(const struct an_exp *e, const char *model,
					 const char *method, int n);
size_t an_exp_n_problems(const struct an_exp *e);
const char *an_exp_problem(const struct an_exp *e, size_t i);
/* The analyzed run with this id (any run of the store with a trace), or NULL. A run whose
 * figures came from the store's cache is read and analyzed here on first use. */
struct an_run *an_exp_run(const struct an_exp *e, int64_t run_id);
/* Figure m of run run_id as the experiment holds it (analysed at open, or read from the
 * store's cache: the figures `scalegraph report STORE/runs/<id>` prints), without reading its
 * trace; unavailable, with the reason, for a run without figures (failed, running, not used
 * by any point, not in the store). For the GUI's run list (its tracing cost, docs/gui.md). */
struct an_fig an_exp_run_fig(const struct an_exp *e, int64_t run_id, enum an_metric m);
int an_exp_n_cpus(const struct an_exp *e);

/* The run whose profile stands for the sequential program at the sizes of point o (sequential
 * patterns, METRICS.md §4.2.1): a traced sequential run at those sizes, else an N=1 run there,
 * analyzed on first use. *source is "sequential" or "n1"; NULL (and *source NULL) when no such
 * run has a readable trace. */
struct an_run *an_exp_seq_profile(const struct an_exp *e, const struct an_point *o,
				  const char **source, int64_t *run_id);

/* A run of the store that gave no measurement: failed, timed out, or incomplete (its trace
 * lacks events). Strings owned by the experiment. */
struct an_run_failure {
	int64_t id;
	const char *kind;          /* "par", "seq" */
	int n_threads;
	const char *sizes;
	const char *status;        /* "failed", "timeout", "incomplete" */
	const char *reason;        /* runs.reason ("timed out after 10 s ..."), never NULL */
	const char *stderr_tail;   /* the last lines of runs/<id>/stderr ("" when empty or absent) */
};
size_t an_exp_n_failures(const struct an_exp *e);
const struct an_run_failure *an_exp_failure(const struct an_exp *e, size_t i);

/* Methods in spec order (model "method"). */
size_t an_exp_n_methods(const struct an_exp *e);
const char *an_exp_method(const struct an_exp *e, size_t i);

/* A curve vs N of one figure (repetition median) for (model, method): up to max points in N
 * order; returns the number written. */
size_t an_exp_curve(const struct an_exp *e, const char *model, const char *method,
		    enum an_metric m, int *n_out, struct an_fig *y_out, size_t max);

/* Which T_seq E, S and U of point o are measured against, in a few words for a window's note
 * ("traced sequential run", "N=1 run (no sequential program)", "untraced sequential run (wall
 * times)", ...); o->t_seq_how says it in a sentence. A static string. */
const char *an_point_t_seq_basis(const struct an_point *o);
/* How T_para (1 - E) relates to L at point o, as the report's p_x line says it: "L + U/N" (10),
 * "L + U/N - L(W,1)/N" where T_seq is the N=1 runs' (it holds their own overhead), or why it is
 * 0 ("by construction, T_seq is this N=1 run"). A static string. */
const char *an_point_l_e_note(const struct an_point *o);
/* (10) at point o with its terms: T_para (1 - E) = L + U/N - L(W,1)/N (L(W,1) = 0 unless T_seq
 * is the N=1 runs', an_point_l_e_note says which form), of the repetition whose T_para is the
 * point's median — the one its E and L_from_E use (the mean of the middle two for an even
 * count: every term is linear) — so that the terms printed add up, to that run's books
 * (check3), and are that run's own report's. 0, -ENOENT without such a repetition. */
struct an_identity {
	double l_e;                /* s: T_para (1 - E), the point's L_from_E */
	double l, u_n, l_w1_n;     /* s: L, U / N, L(W,1) / N */
	double check3;             /* (T_para - T_seq/N - (L + U/N - L(W,1)/N)) / T_para */
	int n_runs;
	int64_t run_ids[2];
};
int an_point_identity(const struct an_exp *e, const struct an_point *o, struct an_identity *out);

/* p_x of a method: the N with the smallest T_para, and L = (ML + IT + PT) / N there (the L of
 * the point's figures; T_para (1 - E) adds U / N to it, less L(W,1) / N on the N=1 basis:
 * an_point_identity). -ENOENT without points. */
int an_exp_px(const struct an_exp *e, const char *method, int *px, struct an_fig *t_para,
	      struct an_fig *latency);

/* The scalability matrix: distinct N of the model points in increasing order. */
size_t an_exp_matrix_n(const struct an_exp *e, int *n_out, size_t max);
/* Why the experiment has no matrix, as `scalegraph report --matrix` and xscalegraph say it: no
 * scaling-model series at all ("no time-bound, E-conserved or memory-bound series in this
 * experiment: ...; this store has fixed-size runs of fixed at N = 1, 2, 4"), or its points at
 * one N only. Writes the sentence into buf and returns 1; 0 (buf "") when there is a matrix. */
int an_exp_matrix_why(const struct an_exp *e, char *buf, size_t len);

enum an_model { AN_TIME_BOUND, AN_E_CONSERVED, AN_MEMORY_BOUND, AN_N_MODELS };
const char *an_model_name(enum an_model m);

/* One side of a matrix value: the model's point at N (side 0) or N' (side 1) and the operand
 * taken from it, with the runs behind it. */
#define AN_CELL_MAX_RUNS 16
struct an_cell_side {
	const struct an_point *point;       /* NULL: the model has no point there (owned by e) */
	struct an_fig l;                    /* L(W,N): point->med[an_cell.l_metric[model]] */
	struct an_fig t_wall;               /* median wall time of the repetitions: the T of
					       L = T (1 - E) when T_seq is a wall time (t_basis
					       "wall"); unavailable otherwise */
	size_t n_t_seq_runs;                /* the runs T_seq (in E, hence in L) came from */
	int64_t t_seq_runs[AN_CELL_MAX_RUNS];
};

struct an_cell {
	int n, n2;                          /* N < N' */
	struct an_fig scale[AN_N_MODELS];   /* L(W,N) / L(W',N') per model: exactly
					       side[m][0].l.value / side[m][1].l.value */
	struct an_fig isospeed;             /* time-bound case 2 (13): E / E' */
	int64_t point[AN_N_MODELS], point2[AN_N_MODELS];  /* the two points, 0 when missing */
	int caveat;                         /* time-bound: E and E' both low and close
					       (an_matrix_caveat) */
	int off_target[AN_N_MODELS];        /* the search missed the model's target at N or N':
					       the value pairs the closest sizes it found */
	/* The operands (docs/analyzer.md "Matrix"): the L both sides use, AN_L_E = T_para (1 - E)
	 * where both sides have it from T_seq measured the same way, else AN_L = (ML + IT + PT)/N,
	 * so that a ratio never divides two kinds of latency */
	enum an_metric l_metric[AN_N_MODELS];
	struct an_cell_side side[AN_N_MODELS][2];
};
/* Fills the cell (N, N2); values unavailable with the reason ("no e-conserved runs at N=8"). */
int an_exp_matrix_cell(const struct an_exp *e, int n, int n2, struct an_cell *cell);
/* The paper's caveat (§6.4) on a time-bound value of efficiencies e (at N) and e2 (at N'): 1 when
 * both are below 0.5 and within 0.1 of each other, or both below 0.2 (the value then lies in
 * [1 - e, 1 / (1 - e2)], inside [0.8, 1.25], whatever the latency does). */
int an_matrix_caveat(double e, double e2);
/* The readout of value m of cell c, as xscalegraph and `scalegraph report --matrix` print it:
 * the formula with the operands it divided and the result, then one line per side (W, sizes,
 * T_para, E, L, the repetitions' and T_seq's run ids), then the flags' meaning. Lines are
 * separated by '\n'; the numbers have 6 significant digits, enough to recompute the value.
 * Returns the length snprintf would have written. */
int an_cell_explain(const struct an_cell *c, enum an_model m, char *buf, size_t len);
/* The runs T_seq of point o came from (median of their times): traced sequential runs, untraced
 * ones (wall times), or the N=1 runs at its sizes; none when T_seq is the runner's figure.
 * Writes up to max ids (in id order), returns how many there are. */
size_t an_exp_t_seq_runs(const struct an_exp *e, const struct an_point *o, int64_t *ids,
			 size_t max);

/* ---- Call sites (trace format 1.4; docs/analyzer.md "Call sites") -------------------------- */

/* The sources split by call site: IT_barrier, PT_barrier, IT_lock, PT_lock, IT_cond, IT_sem,
 * PT_sem, IT_join, PT_thread (every sync-related part of the time budget). */
size_t an_site_n_sources(void);
enum an_metric an_site_source_at(size_t i);
int an_site_source(enum an_metric m);          /* 1 when m is one of them */
/* What the source is, for sentences: "barrier waiting", "lock overhead", ... */
const char *an_site_source_what(enum an_metric m);

struct an_site_thread {
	uint32_t index;            /* thread index in the trace */
	double s;                  /* seconds of the source this thread spent at the site */
	int64_t ns;                /* the same in ns (exact for a run; a point's mean of two is
				      rounded) */
};

struct an_site {
	uint32_t id;               /* the SITE definition's id; UINT32_MAX (SG_NO_ID): the unknown
				      site (a call not renamed by the instrumenter, a create, a trace
				      without sites) */
	const char *file;          /* as the compiler was given it; "" for the unknown site */
	int line;
	const char *func;          /* enclosing function; "" when none (a macro body) */
	double s;                  /* seconds of the source at this site, over the processors */
	int64_t ns;
	double share;              /* s / the sites' total (the source's figure); 0 when it is 0 */
	size_t n_threads;
	struct an_site_thread *threads;   /* the processors behind it, most time first */
};

/* What a run or point says about call sites: a table, or why there is none — each with the one
 * line the text report, the JSON ("state", "why") and the GUI print in its place
 * (an_sites_state_text; docs/analyzer.md "Call sites in the report"). */
enum an_sites_state {
	AN_SITES_RECORDED = 0,     /* the trace defines call sites: the table */
	AN_SITES_NO_CALL,          /* format 1.4: no wrapped call was made (one thread, no lock,
				      barrier, condition variable or semaphore) */
	AN_SITES_NO_WAIT,          /* format 1.4: wrapped calls made, no time at any source */
	AN_SITES_NO_SITE,          /* format 1.4: time, but every wait through a wrapper without a
				      site (a function pointer, code built against an older
				      sgtrace.h): all of it at the unknown site */
	AN_SITES_OLD_FORMAT,       /* a program built before format 1.4 */
	AN_SITES_UNREADABLE,       /* no readable trace */
};
/* "call sites: no wrapped call was made (...)"; "" for AN_SITES_RECORDED. */
const char *an_sites_state_text(enum an_sites_state s);
/* JSON's "state": "recorded", "no_call", "no_wait", "no_site", "old_format", "unreadable". */
const char *an_sites_state_name(enum an_sites_state s);

/* One source's sites in a run or a point. The sites with time at this source, most first; they
 * add up to `total`, which is the source's figure (a run's an_run_fig; a point's median, from
 * the repetition(s) the median is made of: the middle one, or the mean of the middle two). */
struct an_sites {
	enum an_metric source;
	double total;              /* s */
	int64_t total_ns;
	int recorded;              /* the trace defines call sites or has SYNC_SITE records: 0 for
				      a program built before format 1.4 (all time is then at the
				      unknown site) */
	enum an_sites_state state; /* the run's (a point: its median repetition's) */
	int window;                /* a part of the run only (an_run_sites_window) */
	size_t n;
	struct an_site *v;         /* owned: an_sites_free; strings belong to the runs */
	int n_runs;                /* the runs behind the figures (1, or 2 for a point's mean) */
	int64_t run_ids[2];        /* for a point: those repetitions' run ids */
};

/* The sites of `source` in run r (0, -EINVAL for a source not split by site, -ENOMEM). */
int an_run_sites(const struct an_run *r, enum an_metric source, struct an_sites *out);
/* The same over the part [from_ns, to_ns] (ns since the epoch, as an_run_span) of the run: the
 * timeline's selection. Without PT_lock's release part (its releases are counted, not timed);
 * total is the sites' sum, not a figure. */
int an_run_sites_window(const struct an_run *r, enum an_metric source, int64_t from_ns,
			int64_t to_ns, struct an_sites *out);
/* 1 when the run's trace has call sites (format 1.4 with instrumented sync calls). */
int an_run_sites_recorded(const struct an_run *r);
/* Why the run has call sites or none (AN_SITES_RECORDED when it has). */
enum an_sites_state an_run_sites_state(const struct an_run *r);
/* The sites of `source` at point p: its median repetition's. -ENOENT when no repetition has a
 * readable trace. Reads the repetitions' traces (an_exp_run) when their figures were cached. */
int an_exp_point_sites(const struct an_exp *e, const struct an_point *p, enum an_metric source,
		       struct an_sites *out);
void an_sites_free(struct an_sites *s);
/* The point the report lists call sites for: method's point (model "method") at its largest N
 * with a repetition; NULL when none. */
const struct an_point *an_exp_sites_point(const struct an_exp *e, const char *method);
/* "lu.c:412 in daxpy_sweep", "lu.c:412" (no function), "(unknown site)"; returns buf. */
const char *an_site_label(const struct an_site *s, char *buf, size_t len);

/* ---- Reports (analyzer/report*.c) ---------------------------------------------------------- */

#define AN_REPORT_MATRIX_ONLY 1u
#define AN_REPORT_PROFILE 2u       /* text: the function profile of each sequential pattern */
#define AN_REPORT_COMPENSATE 4u    /* text: the compensated figures beside the measured ones */
/* The share of N T_para above which a point's latency sources carry a mark: the tracing cost
 * there is as large as a source worth reading (docs/analyzer.md "Tracing cost"). */
#define AN_TRACE_SHARE_MARK 0.05
/* Measured and estimated overhead (an_point.ovh_*) disagreeing by more than this (5 percentage
 * points) mark the point: the build costs what its records do not show, or the reverse. */
#define AN_OVERHEAD_GAP_MARK 0.05
/* "measured overhead: +25.3 % (traced 1.62 s / plain 1.29 s wall, medians of 3 and 1 runs)" or
 * why it is not measured, and the estimate beside it, one line without a newline, for reports
 * and the GUI's readouts. */
void an_point_overhead_text(const struct an_point *o, char *buf, size_t len);
/* Terminal tables, CSV and JSON (docs/report-json.md) of an experiment or of one run. */
int an_report_exp_text(FILE *f, const struct an_exp *e, unsigned flags);
int an_report_exp_csv(FILE *f, const struct an_exp *e, unsigned flags);
int an_report_exp_json(FILE *f, const struct an_exp *e, unsigned flags);
int an_report_run_text(FILE *f, const struct an_run *r);
/* The same with AN_REPORT_* flags (AN_REPORT_COMPENSATE). */
int an_report_run_text_flags(FILE *f, const struct an_run *r, unsigned flags);
int an_report_run_csv(FILE *f, const struct an_run *r);
int an_report_run_json(FILE *f, const struct an_run *r);

#endif /* ANALYZER_H */
