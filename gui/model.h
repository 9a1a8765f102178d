/*
 * model.h — the experiment as xscalegraph's windows need it, with no X header (NEdit's text
 * buffer is the pattern): methods and their metric points per (N, W), runs with status and
 * failure reasons, the machine description, the sequential program's profile and patterns, the
 * t/E/m scalability matrix, and the selection (methods shown, current method, run selected,
 * sources hidden). Windows register listeners and are told what changed.
 *
 * The model is only *filled* from outside: model_csv.c reads the analyzer's CSV output (and the
 * fixture side tables), and the analyzer adapter will fill it from the store through the same
 * model_add_* calls. Every figure may be unavailable, with a reason; nothing here turns an
 * unavailable figure into zero. Times are seconds, shares and rates are fractions in [0, 1].
 */
#ifndef GUI_MODEL_H
#define GUI_MODEL_H

#include <stddef.h>

/* The per-(method, N, W) figures, in the column order of `scalegraph report --csv`
 * (analyzer/an_report_data.c; the names are the analyzer's, an_metric_name). The latency
 * sources are the parts of the time budget (docs/analyzer.md): every processor's time is on
 * CPU (compute, primitives), runnable but not running (IT_sched) or asleep (a wait, or
 * IT_blocked outside any traced primitive). U is extra work (CPU time in compute - T_seq - ML,
 * negative when the parallel program does less work); closure is a check figure, the share of
 * N T_para that no part accounts for, not a source. */
enum model_metric {
	MODEL_T_PARA, MODEL_T_SEQ, MODEL_E, MODEL_S, MODEL_L,
	MODEL_IT_EDGE, MODEL_IT_BARRIER, MODEL_IT_LOCK, MODEL_IT_COND, MODEL_IT_SEM,
	MODEL_IT_JOIN, MODEL_IT_SCHED, MODEL_IT_BLOCKED,
	MODEL_PT_BARRIER, MODEL_PT_LOCK, MODEL_PT_SEM, MODEL_PT_THREAD, MODEL_ML, MODEL_U,
	MODEL_PARALLELISM, MODEL_CLOSURE,
	MODEL_N_METRICS
};

/* The latency sources drawn in the sources window: MODEL_IT_EDGE .. MODEL_U. */
#define MODEL_FIRST_SOURCE MODEL_IT_EDGE
#define MODEL_LAST_SOURCE MODEL_U
#define MODEL_N_SOURCES (MODEL_LAST_SOURCE - MODEL_FIRST_SOURCE + 1)
/* The sources in the order windows list and stack them: each wait followed by the overhead of
 * the same primitive (IT_barrier, PT_barrier, ...), then CPU contention, blocked time, the
 * memory stall and the extra work. */
extern const enum model_metric model_source_order[MODEL_N_SOURCES];

/* One figure: `why` is NULL when the value is available, else the reason it is not (points to
 * a string the model owns). */
struct model_fig {
	double v;
	const char *why;
};

struct model_point {
	int n;                /* threads */
	double w;             /* problem size, the method's own unit */
	int reps;             /* repetitions behind the (median) figures */
	int oversubscribed;   /* N above the machine's CPU count: the report's `oversub yes` (the
				 analyzer's AN_OVERSUB: the runner's flag, or N above the store's CPUs) */
	struct model_fig fig[MODEL_N_METRICS];
	/* The library's own time at this point (median of the repetitions, docs/analyzer.md
	 * "Tracing cost"): seconds and share of N T_para; unavailable from a CSV experiment
	 * (report --csv has no such column) or without a calibrated record cost. cost_marked: the
	 * share is above the report's mark (AN_TRACE_SHARE_MARK, model.cost_mark): the report prints
	 * `!` after this point's L and latency sources */
	struct model_fig trace_cost, trace_share;
	int cost_marked;
	/* The distortion measured against the plain build (issue 21; the analyzer's
	 * an_point.ovh_*): ovh_measured = traced / plain - 1 of the wall times, ovh_estimated the
	 * tracing cost as the same slowdown, t_plain the plain runs' median wall time; unavailable,
	 * with the reason, where not measured ("not measured (no plain build in the spec)").
	 * ovh_marked: the two differ by more than the report's 5 points (the report's ≠). ovh_text:
	 * the report's line (an_point_overhead_text), ovh_why: the mark in words; both interned,
	 * NULL when the experiment does not say (ovh_why: not marked) */
	struct model_fig ovh_measured, ovh_estimated, t_plain;
	int ovh_marked;
	const char *ovh_text, *ovh_why;
	/* Which T_seq E, S (and U) of this point are measured against, the analyzer's short
	 * label (an_point_t_seq_basis: "traced sequential run", "N=1 run", ...; interned), NULL
	 * when the experiment does not say (a CSV experiment: report --csv has no such column) */
	const char *t_seq_basis;
};

struct model_method {
	char *name;
	struct model_point *pts; /* sorted by N, then W */
	size_t n_pts;
	int shown;               /* drawn in the curve windows */
	int exp;                 /* experiment it came from: 0 the one opened, k > 0 the k-th
				    compared one (model_merge); then name is "EXP:method" */
	/* p_x as the analyzer defines it (an_exp_px: the N of the smallest T_para among the
	 * method's points; plain methods only, not the size-bound models), with the report's
	 * figures there: T_para, L = (IT + PT + ML) / N and T_para (1 - E) with the analyzer's
	 * word on how the two relate (an_point_l_e_note). px_n = 0: none. Set by the adapter, or
	 * by model_finish from T_para for a CSV experiment (which has no T_para (1 - E)). */
	int px_n;
	struct model_fig px_t_para, px_l, px_l_e;
	const char *px_l_e_note;  /* interned, NULL: none */
	int px_set;               /* the adapter set px_*: model_finish leaves them */
};

/* INTERRUPTED: its runner ended before it finished (docs/store-schema.md); FAILED covers the
 * store's failed, timeout and incomplete. */
enum model_run_status { MODEL_RUN_OK, MODEL_RUN_FAILED, MODEL_RUN_RUNNING, MODEL_RUN_PENDING,
			MODEL_RUN_INTERRUPTED };

struct model_run {
	char *method;
	int n;
	double w;
	int rep;
	char *sizes;  /* "balls=5000 steps=200" */
	enum model_run_status status;
	char *reason; /* why it failed, "" otherwise */
	char *stderr_tail; /* the last lines of a failed run's stderr, "" when none or not failed */
	double t_s;   /* its wall-clock time, NAN when unknown (running, CSV) */
	long long id; /* the store's run id (its files: EXPERIMENT/runs/<id>/), 0: none (CSV) */
	int seq;      /* a run of the sequential program */
	int oversubscribed;   /* its N above the machine's CPUs (the run report's oversubscribed) */
	/* its tracing cost as `scalegraph report STORE/runs/<id>` prints it (the analyzer's
	 * figures of the run; unavailable for a run without a measurement, and from CSV), and
	 * whether the share is above the report's mark */
	struct model_fig trace_cost, trace_share;
	int cost_marked;
};

/* A run behind a matrix value (model_matrix.c), for the readout's list of runs. */
#define MODEL_CELL_MAX_RUNS 48
struct model_cell_run {
	long long id;                    /* the store's run id */
	signed char value;               /* 0 time-bound, 1 E-conserved, 2 memory-bound */
	signed char side;                /* 0 the point at N, 1 the point at N' */
	signed char t_seq;               /* 1 a run T_seq came from, 0 a repetition */
};

struct model_cell {
	int n, n2;                       /* N < N' */
	struct model_fig time_bound, e_conserved, memory_bound;
	int caveat;                      /* time-bound E and E' low and close (paper §6.4) */
	int off_target[3];               /* time-bound, E-conserved, memory-bound: the size
					    search missed its target at N or N' */
	/* From an experiment store (NULL and 0 from a CSV experiment, which has values only):
	 * the analyzer's readout of each value (an_cell_explain: formula, operands, runs, flags;
	 * interned) and the runs behind the values, in readout order */
	const char *explain[3];
	struct model_cell_run runs[MODEL_CELL_MAX_RUNS];
	int n_runs;
	int exp;                         /* 0 the experiment opened, k the k-th compared one */
};

struct model_func {
	char *name;
	long calls;
	double incl_s, excl_s;
	/* share of exclusive time as `report --profile` gives it (the analyzer's excl_pct / 100:
	 * of the summed time of the profiled threads); NAN when the source does not say (CSV):
	 * then the window divides by the summed exclusive time and says so */
	double excl_share;
};

struct model_pattern {
	char *method;
	double w;
	struct model_fig cpu_util, mem_rate, miss_rate;
};

struct model_kv {
	char *key, *value;
};

/* What changed, passed to listeners. */
enum model_change {
	MODEL_CHANGED_DATA = 1,      /* anything loaded or added */
	MODEL_CHANGED_SHOWN = 2,     /* methods shown, current method */
	MODEL_CHANGED_RUN = 4,       /* run selected */
	MODEL_CHANGED_SOURCES = 8,   /* sources hidden/shown */
};

struct model;
typedef void (*model_listener_fn)(struct model *m, unsigned what, void *arg);

struct model {
	char *name;                    /* experiment name, shown in titles */
	struct model_method *methods;
	size_t n_methods;
	struct model_run *runs;
	size_t n_runs;
	struct model_cell *cells;
	size_t n_cells;
	struct model_func *funcs;      /* sorted by exclusive time, largest first */
	size_t n_funcs;
	struct model_pattern *patterns;
	size_t n_patterns;
	struct model_kv *machine;
	size_t n_machine;
	int n_cpus;                    /* from the machine description, 0 if unknown */
	double cost_mark;              /* the share of N T_para above which the report marks a
					  point's sources with `!` (AN_TRACE_SHARE_MARK); 0: the
					  experiment has no tracing cost (CSV) */
	const char *seq_why;           /* why there is no profile / patterns (interned), or NULL */
	const char *seq_source;        /* which run the profile is of (interned), or NULL */
	int seq_is_n1;                 /* the profile is an N=1 run's (no traced sequential run) */
	const char *matrix_why;        /* why there is no matrix, as `scalegraph report --matrix`
					  says it (an_exp_matrix_why; interned), NULL: not said */

	int cur_method;                /* index into methods, -1 when there are none */
	int sel_run;                   /* index into runs, -1 for none */
	unsigned sources_hidden;       /* bit (metric - MODEL_FIRST_SOURCE) set: not drawn */

	struct model_listener *listeners;
	char **strings;                /* interned reason strings */
	size_t n_strings;
	char **exps;                   /* compared experiments' names (model_merge), exps[0] the
					  first merged one; n_exps = 0 when nothing is compared */
	size_t n_exps;
};

/* Lifetime. model_init zeroes; model_clear frees everything the model owns (listeners too). */
void model_init(struct model *m);
void model_clear(struct model *m);

/* Filling (the adapter's interface). Strings are copied. Each returns 0 or -ENOMEM. */
int model_set_name(struct model *m, const char *name);
int model_add_point(struct model *m, const char *method, const struct model_point *p);
int model_add_run(struct model *m, const struct model_run *r);
int model_add_cell(struct model *m, const struct model_cell *c);
int model_add_func(struct model *m, const struct model_func *f);
int model_add_pattern(struct model *m, const struct model_pattern *p);
int model_add_machine(struct model *m, const char *key, const char *value);
/* Returns a model-owned copy of `why` for use in struct model_fig, or NULL on ENOMEM. */
const char *model_intern(struct model *m, const char *why);
/* Sorts points and functions, sets defaults (all methods shown, first current), computes the
 * matrix caveats from the time-bound points, then notifies MODEL_CHANGED_DATA. Call once after
 * filling. */
void model_finish(struct model *m);

/* model_compare.c — several experiments in one model (window 10, compare): model_merge adds
 * every method of `src` as the method "NAME:method" with exp = k (NAME is src's name, made unique
 * with "#2", "#3" when two experiments share it), so the curve windows overlay them; runs, matrix,
 * profile and patterns stay those of the experiment opened first. Returns 0 or -ENOMEM. */
int model_merge(struct model *dst, const struct model *src);
/* Loads dirs[0] with model_load_dir, then merges dirs[1..n-1]. Same error convention. */
int model_load_compare(struct model *m, char *const *dirs, size_t n, char *err, size_t err_len);
/* The sum of model_dir_stamp over dirs (live monitor of a comparison). */
long long model_dirs_stamp(char *const *dirs, size_t n);
/* Appends a copy of s to the string array *v of *n strings (grown by one). 0 or -ENOMEM. */
int model_strv_add(char ***v, size_t *n, const char *s);
/* The legend label of method i: its name, prefixed with the experiment's name ("a.exp:fixed")
 * when experiments are compared. */
void model_method_label(const struct model *m, size_t i, char *buf, size_t len);

/* model_matrix.c — the matrix cells. model_matrix_add fills them from an analyzed experiment
 * (struct an_exp, analyzer.h), with their readouts; model_matrix_merge copies src's cells as
 * experiment exp's (compare: the matrix window shows each experiment's side by side). Both
 * return 0 or -ENOMEM. model_cell_find: the cell (n, n2) of experiment exp, or NULL. */
struct an_exp;
struct an_fig;
int model_matrix_add(struct model *m, const struct an_exp *e);
/* model_an.c: an analyzer figure as the model keeps it (its reason interned; NaN is "not
 * computed"), for every adapter that fills the model from the analyzer. */
struct model_fig model_fig_from_an(struct model *m, const struct an_fig *f);
int model_matrix_merge(struct model *dst, const struct model *src, int exp);
const struct model_cell *model_cell_find(const struct model *m, int exp, int n, int n2);

/* Queries. */
int model_method_find(const struct model *m, const char *name);  /* index or -1 */
/* Index of the point with the smallest available T_para (p_x), or -1. */
int model_method_px(const struct model_method *me);
/* 1 for the size-bound models' names (time-bound, e-conserved, memory-bound): no p_x there. */
int model_is_size_model(const char *name);
/* 1 when every point of the method has the same W (problem-size bound). */
int model_method_fixed_size(const struct model_method *me);
/* The point of `method` at N (the first if several W), or NULL. */
const struct model_point *model_point_at(const struct model *m, const char *method, int n);
const char *model_metric_name(enum model_metric k);    /* "T_para", "IT_edge", ... */
const char *model_metric_title(enum model_metric k);   /* "barrier waiting", ... */
const char *model_run_status_name(enum model_run_status s);

/* Selection; each notifies listeners when something changed. */
void model_set_shown(struct model *m, int method, int shown);
void model_set_current(struct model *m, int method);
void model_select_run(struct model *m, int run);
void model_set_source_shown(struct model *m, enum model_metric k, int shown);
int model_source_shown(const struct model *m, enum model_metric k);

/* Listeners (NEdit BufAddModifyCB style): called after every change with the change bits. */
int model_add_listener(struct model *m, model_listener_fn fn, void *arg);
void model_remove_listener(struct model *m, model_listener_fn fn, void *arg);
void model_notify(struct model *m, unsigned what);

/* Loads a fixture or CSV experiment directory: report.csv (required, exact `report --csv`
 * columns), matrix.csv, runs.csv, profile.csv, patterns.csv, machine.txt, unavailable.csv
 * (optional). On error returns -errno and writes "file:line:col: error: ..." into err. */
int model_load_csv_dir(struct model *m, const char *dir, char *err, size_t err_len);

/* model_an.c, the analyzer adapter: loads an experiment store (DIR/experiment.db) through the
 * analyzer library and the store's runs and machine tables. Same error convention. */
int model_load_store(struct model *m, const char *dir, char *err, size_t err_len);
/* A store when dir holds experiment.db, else a CSV directory. */
int model_load_dir(struct model *m, const char *dir, char *err, size_t err_len);
/* A number that changes whenever the store or the CSV files of dir change (live monitor). */
long long model_dir_stamp(const char *dir);
/* The first analysis of store dir, one run per step (the analyzer's an_prewarm_*): open lists
 * the runs not analysed yet (*total; -ENOENT for a CSV experiment, -errno with err when the
 * store cannot be written), each step analyses one and caches its figures in the store (1:
 * more to do, 0: done, -errno), so that model_load_store afterwards reads no trace. */
struct model_prewarm;
int model_prewarm_open(const char *dir, struct model_prewarm **out, size_t *total, char *err,
		       size_t err_len);
int model_prewarm_step(struct model_prewarm *p, size_t *done);
void model_prewarm_close(struct model_prewarm *p);

#endif /* GUI_MODEL_H */
