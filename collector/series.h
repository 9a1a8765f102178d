/*
 * series.h — `scalegraph run`'s engine: the sequential pattern series, each method at each N
 * with repetitions, the memory-bound sizes of eq. (14), and the time-bound and E-conserved
 * searches, every run recorded in the store and reused when the same command is run again.
 * Private to collector/.
 */
#ifndef SERIES_H
#define SERIES_H

#include <limits.h>
#include <signal.h>
#include <stdio.h>

#include "progress.h"
#include "spec.h"
#include "store.h"

struct series {
	struct spec *spec;
	struct store *st;          /* NULL for a dry run */
	char bin_dir[PATH_MAX];    /* build/bin (or PREFIX/bin) beside the libexec folder */
	char prog_path[PATH_MAX];  /* the program found (argv[0] resolved) */
	char seq_path[PATH_MAX];   /* the sequential program found, "" when none */
	char plain_path[PATH_MAX]; /* the plain build found (spec `plain`), "" when none */
	int n_cpus;
	int trace;                 /* give each run SG_TRACE_DIR */
	int dry_run;               /* list the runs instead of making them */
	int retry_failed;          /* make failed and timed-out runs again */
	volatile sig_atomic_t *stop;
	FILE *out;                 /* progress and summary */
	struct progress progress;
	int runs_made, runs_reused, runs_failed;   /* reused: made by an earlier invocation
						      (plain runs included) */
	int64_t *counted;          /* ids of the runs made or reused so far: a run found again
				      (the N=1 runs as T_seq) is counted once */
	int n_counted;
	int n_listed;              /* dry run: identities listed so far (each listed once) */
	char **listed;
	char errmsg[PATH_MAX + 512];   /* why the series stopped, when not the store's own error */
};

/* Resolves the programs (lookup.h). Returns 0 or -ENOENT with a message in err (located at
 * the spec's line, or "scalegraph run: error: ..." for a command given after --). */
int series_resolve(struct series *se, char *err, size_t err_len);

/* Runs the whole series. Returns 0, -EINTR when stopped by *stop (the store holds every finished
 * run; the next invocation resumes), or -errno on a store failure (message in err). */
int series_run(struct series *se, char *err, size_t err_len);

/* Expected number of runs (searches estimated at 4 probes per N), for the progress bar. */
int series_estimate(const struct series *se);

#endif /* SERIES_H */
