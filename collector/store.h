/*
 * store.h — the experiment store: a directory holding experiment.db (SQLite, WAL) and runs/<id>/
 * with each run's outputs and trace. `scalegraph run` writes it; the analyzer and the GUI read
 * it (and the analyzer fills the metrics table). The schema is in docs/store-schema.md.
 *
 * A small library (build/lib/libsgstore.a, link with -lsqlite3): no printing, no X; functions
 * return 0 or a negative errno (-EIO for an SQLite error, -ENOSPC for a full disk, -EBUSY for a
 * busy database; store_errmsg() gives SQLite's text of the statement that failed).
 */
#ifndef STORE_H
#define STORE_H

#include <stdint.h>
#include <stddef.h>
#include <sqlite3.h>

#define STORE_SCHEMA_VERSION 4   /* 2: runs.pid, pid_start, marker; status incomplete;
				    3: status interrupted, meta generation (+ triggers), runner;
				    4: plain_runs (the plain build's untraced runs, issue 21) */

struct store;

enum store_mode {
	STORE_READ = 0,    /* existing store, read-only */
	STORE_WRITE = 1,   /* create if missing; holds an exclusive lock on DIR/lock */
	STORE_UPDATE = 2,  /* existing store, read-write, no runner lock (the analyzer) */
};

/* Opens (STORE_WRITE: creates) the experiment directory `dir`. On success *out owns the
 * connection; close with store_close(). -EBUSY when another writer holds the lock, -ENOENT when
 * a store to read does not exist. */
int store_open(const char *dir, enum store_mode mode, struct store **out);
/* The same, with the reason of a failure in `err` ("DIR/experiment.db: file is not a database",
 * "...: schema version 3 is newer than ...", never empty) when err is not NULL. A store of a
 * newer schema is refused (-EPROTO), a version-1 store opened to write is upgraded; a path
 * SQLite cannot open (about 500 characters) is refused up front (-ENAMETOOLONG). DIR is reached
 * by fs_open_dir's rule (collector/fsutil.h): STORE_WRITE and STORE_UPDATE follow a symbolic
 * link only when root or this user owns it (-EPERM otherwise, before anything is created),
 * STORE_READ follows any. Writers create DIR's missing parents, DIR and DIR/runs (those two
 * with mode 0700) and refuse them when they are not this user's directories. An existing store
 * whose pages fail PRAGMA quick_check is refused in every mode (-EPROTO, "DIR/experiment.db:
 * the store is damaged (...)"); a full disk is -ENOSPC. */
int store_open_msg(const char *dir, enum store_mode mode, struct store **out, char *err,
		   size_t err_len);
void store_close(struct store *st);
/* Writers: DIR/runs, opened O_NOFOLLOW; create run directories relative to it. -1 otherwise. */
int store_runs_fd(const struct store *st);

/* The SQLite connection, for queries by the analyzer and GUI (owned by the store). */
sqlite3 *store_db(struct store *st);
/* The experiment directory, as given to store_open (for messages). */
const char *store_dir(const struct store *st);
/* The path by which the files below the experiment directory are reached: store_dir() when
 * reaching it followed no link, else its resolved path (no link in it). */
const char *store_real_dir(const struct store *st);
/* Text of the SQLite error of the last statement, "" when it succeeded (owned by the store). */
const char *store_errmsg(const struct store *st);

/* Transactions, for writers that record several rows as one step. */
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);

/* meta(key, value). store_meta_get copies at most len-1 bytes; -ENOENT when absent. */
int store_meta_set(struct store *st, const char *key, const char *value);
int store_meta_get(struct store *st, const char *key, char *value, size_t len);

/* The store's generation (meta.generation, docs/store-schema.md): a number that changes with
 * every committed change of runs, points, methods or the machine row, and not otherwise — a
 * reader reloads when it differs from the one its last load saw. For a store of schema < 3 (no
 * generation) a digest of its runs and points stands in. 0 or -errno. */
int store_generation(struct store *st, long long *gen);

/* The spec (one row): its path, full text and the command-line overrides. */
int store_spec_set(struct store *st, const char *path, const char *text, const char *overrides,
		   const char *work_expr);
/* The machine description (one row): calibrate's JSON and its key fields. */
int store_machine_set(struct store *st, const char *cpu_model, int n_cpus, const char *kernel,
		      double tsc_hz, const char *json);
/* Definitions written from the spec (replaced as a whole by each `scalegraph run`). */
int store_defs_clear(struct store *st);
int store_param_add(struct store *st, const char *name, double base, double bytes_per_unit,
		    int position);
int store_method_add(struct store *st, const char *name, const char *formulas, int position);
int store_model_add(struct store *st, const char *kind, double target, const char *along,
		    const char *unit);

/* One run of the program (kind "par") or of the sequential program (kind "seq"). A run is
 * identified by (kind, n_threads, sizes, rep); sizes is the canonical "balls=5000 steps=100". */
struct store_run {
	int64_t id;
	char kind[4];
	int n_threads;
	char sizes[256];
	double work;
	int rep;
	char status[16];          /* running, ok, failed, timeout, incomplete, interrupted */
	char reason[512];         /* why it failed or is incomplete, "" when ok */
	char argv[1024];          /* the command, words joined by blanks */
	int exit_code;            /* -1 when killed by a signal */
	int signal;               /* 0 when it exited */
	int oversubscribed;       /* n_threads > CPUs */
	double t_wall_s, t_user_s, t_sys_s;
	long max_rss_kb;
	double t_para_s;          /* the run's T_para */
	char t_para_source[16];   /* region, threads or wall */
	char started_at[32], finished_at[32];   /* UTC, ISO 8601 */
	char marker[64];          /* SCALEGRAPH_RUN value in the run's environment, "" if none */
};

/* A counter of one thread of a run, or the reason it was unavailable (value then NAN). */
struct store_counter {
	int thread;
	const char *name;
	const char *unit;
	double value;
	const char *unavailable;  /* NULL when counted */
};

/* Inserts `r` with status "running" and sets r->id: the run's directory is runs/<id>/. Ids
 * are never given twice (meta last_run_id keeps the highest, store_run_id_floor raises it). */
int store_run_begin(struct store *st, struct store_run *r);
/* Makes the next run id larger than `id` (a runs/<id>/ directory exists already). */
int store_run_id_floor(struct store *st, int64_t id);
/* Records the process of a running run: its pid and start time (/proc/PID/stat field 22, clock
 * ticks since boot), so that a later runner can tell an orphan of it from a recycled pid. */
int store_run_set_pid(struct store *st, int64_t id, int pid, int64_t pid_start);
/* Deletes one run row (a "running" row whose directory could not be made). */
int store_run_delete(struct store *st, int64_t id);
/* Records the finished run `r` (by r->id), its parameter values and counters in one
 * transaction. */
int store_run_finish(struct store *st, const struct store_run *r, int n_params,
		     const char *const *param_names, const double *param_values,
		     int n_counters, const struct store_counter *counters);
/* Finds the finished run with this identity; fills *out. -ENOENT when there is none. */
int store_run_find(struct store *st, const char *kind, int n_threads, const char *sizes, int rep,
		   struct store_run *out);

/* The plain build's runs (spec `plain`, issue 21): untraced runs of the program built with the
 * ordinary compiler, beside the traced ones at each point, in their own table (plain_runs) so
 * that no reader of runs takes them for traced runs. A plain run takes its id from the runs'
 * sequence (its outputs are in runs/<id>/, no trace), and its row is written once, when it has
 * finished: a runner killed during one leaves no row (and the next makes it again). The
 * store_run fields used: id, n_threads, sizes, rep, status, reason, argv, exit_code, signal,
 * t_wall_s, t_user_s, t_sys_s, max_rss_kb, started_at, finished_at. */
/* Gives the next run id (never given twice, as store_run_begin's) to a plain run. */
int store_plain_next_id(struct store *st, int64_t *id);
/* Records a finished plain run (r->id from store_plain_next_id). */
int store_plain_put(struct store *st, const struct store_run *r);
/* Finds the plain run with this identity; -ENOENT when there is none. */
int store_plain_find(struct store *st, int n_threads, const char *sizes, int rep,
		     struct store_run *out);
/* The ids of the plain runs that failed or timed out (--retry-failed), or of all of them
 * (all != 0: the plain command changed); *out malloc'd. Returns how many or -errno. */
int store_plain_select(struct store *st, int all, int64_t **out);
/* Deletes the plain run `id`'s row. */
int store_plain_delete(struct store *st, int64_t id);

/* Runs to drop: those left "running" or "interrupted" by a runner that died (kill -9), or
 * those that failed, timed out or are incomplete (`scalegraph run --retry-failed` makes them
 * again). */
enum store_drop { STORE_DROP_STALE, STORE_DROP_FAILED };
struct store_run_ref {
	int64_t id;
	int pid;                  /* 0 when not recorded */
	int64_t pid_start;
	char marker[64];
};
/* Marks the "running" runs of a runner that is gone (no process holds DIR/lock) as
 * "interrupted", with the runner (meta.runner) in their reason. Any reader that can write calls
 * it on open (the analyzer: report, xscalegraph); a store it may not write, or of schema < 3,
 * is left as it is. Returns how many runs it marked (0 when the runner still runs), or -errno. */
int store_runs_interrupt(struct store *st);
/* 1 when a runner holds the lock of the store in `dir`, 0 when none does, -1 when that cannot
 * be told (the lock file unreadable): a reader that may not write shows the running rows of a
 * gone runner as interrupted without marking them. */
int store_runner_active(const char *dir);
/* Lists them (*out malloc'd, every one: no cap; the caller frees). Returns how many or -errno. */
int store_runs_select(struct store *st, enum store_drop which, struct store_run_ref **out);
/* Deletes their rows in one transaction. Returns how many, or -errno. */
int store_runs_drop(struct store *st, enum store_drop which);

/* A point of a series: the size chosen for (model, method, N) with its outcome. model is
 * "method" for the plain methods, else the scaling model ("time-bound", ...). */
struct store_point {
	int64_t id;
	char model[16];
	char method[32];
	int n_threads;
	double scale;            /* N for plain methods, the searched s otherwise */
	char sizes[256];
	double work;
	double target;           /* bound, efficiency or bytes per thread; NAN for methods */
	double t_para_s;         /* mean over the repetitions, NAN when none succeeded */
	double t_seq_s;          /* NAN when unknown */
	char t_seq_source[16];   /* sequential or n1 */
	double efficiency;       /* t_seq / (N t_para), NAN when unknown */
	int by_wall;             /* t_para, t_seq and E are wall-clock times of whole processes
				    (the sequential program is not traced), else traced regions;
				    not stored: the runs say it (their t_para_source) */
	int search_runs;         /* runs the search made at this N (0 for methods) */
	int converged;           /* search met its tolerance (1 for methods) */
	int oversubscribed;
	char note[256];          /* e.g. why the target was not reached */
};

/* Replaces the point with the same (model, method, n_threads) and links it to runs
 * (roles: "rep", "probe", "seq") in one transaction; sets p->id. */
int store_point_put(struct store *st, struct store_point *p, int n_runs, const int64_t *run_ids,
		    const char *const *roles);

/* A metric computed by the analyzer for a run, a point or a pair of points (unused ids 0). */
int store_metric_put(struct store *st, int64_t run_id, int64_t point_id, int64_t point2_id,
		     const char *name, double value, const char *unit, const char *unavailable);

#endif /* STORE_H */
