/*
 * report_main.c — `scalegraph report`: the analyzer's reports on an experiment store, a single
 * run directory (runs/<id>/, its trace in trace/) or a bare trace directory. On an experiment it
 * also fills the store's metrics table (unless --no-store-write), so the GUI only queries.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "analyzer.h"

/* The message of a failed open: the library's, or the path and status when it gave none (never
 * "error: " and nothing after it). */
static const char *why(char *err, size_t len, const char *path, int rc)
{
	if (!err[0])
		snprintf(err, len, "%s: %s", path, strerror(rc < 0 ? -rc : EIO));
	return err;
}

static void usage(FILE *f)
{
	fputs("usage: scalegraph report [--csv | --json] [--matrix] [options] PATH\n"
	      "  PATH            an experiment directory (experiment.db), a run directory\n"
	      "                  (runs/<id>/), a trace root (SG_TRACE_DIR: its main process)\n"
	      "                  or one process's trace directory (defs.sgd)\n"
	      "  --csv           one row per (method, N, W); with --matrix the matrix cells\n"
	      "  --json          everything, schema in docs/report-json.md\n"
	      "  --matrix        only the scalability matrix\n"
	      "  --profile       experiment: the function profile of each sequential pattern\n"
	      "  --compensate    text: the figures with the estimated tracing cost taken out,\n"
	      "                  beside the measured ones (docs/analyzer.md \"Tracing cost\")\n"
	      "  --no-store-write  do not fill the store's metrics table\n"
	      "  --reanalyze     read every trace again (ignore figures cached in the store)\n"
	      "  A run of an experiment (STORE/runs/<id>) is analyzed as the experiment does (its N,\n"
	      "  its point's T_seq, the store's calibrated costs) unless --t-seq, --region or\n"
	      "  --threads is given.\n"
	      "  --t-seq S       run or trace: the sequential time in seconds (gives E, S, U)\n"
	      "  --region NAME   run or trace: the measured region (default: the first one)\n"
	      "  --threads N     run or trace: the number of threads the run was given\n"
	      "  --no-verify     do not check event checksums\n", f);
}

static int is_file(const char *dir, const char *name)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

/* Is path a run of an experiment store (STORE/runs/<id>, or its trace/)? Then the store's
 * directory into store and the run's id into *id. */
static int store_run(const char *path, char *store, size_t len, long long *id)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", path);
	size_t n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = 0;
	char *slash = strrchr(p, '/');
	if (slash && !strcmp(slash + 1, "trace")) {
		*slash = 0;
		slash = strrchr(p, '/');
	}
	if (!slash)
		return 0;
	char *end;
	*id = strtoll(slash + 1, &end, 10);
	if (end == slash + 1 || *end)
		return 0;
	*slash = 0;
	slash = strrchr(p, '/');
	if (strcmp(slash ? slash + 1 : p, "runs"))
		return 0;
	if (slash)
		*slash = 0;
	snprintf(store, len, "%s", slash ? p : ".");
	return is_file(store, "experiment.db");
}

/* One run's report on stdout; with --csv or --json its problems as warnings on stderr. */
static int run_report(const struct an_run *r, int csv, int json, unsigned flags)
{
	int rc = json ? an_report_run_json(stdout, r) : csv ? an_report_run_csv(stdout, r)
							 : an_report_run_text_flags(stdout, r, flags);
	if (csv || json)
		for (size_t i = 0; i < an_run_n_problems(r); i++)
			fprintf(stderr, "scalegraph report: warning: %s\n", an_run_problem(r, i));
	return rc;
}

static double num_arg(const char *opt, const char *s, double min)
{
	char *end;
	double v = s ? strtod(s, &end) : 0;
	if (!s || *end || v < min) {
		fprintf(stderr, "scalegraph report: error: %s needs a number >= %g, got \"%s\"\n",
			opt, min, s ? s : "");
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	int csv = 0, json = 0, matrix = 0, profile = 0, compensate = 0;
	unsigned eflags = 0;
	struct an_run_opts o = { 0 };
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--csv")) {
			csv = 1;
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--matrix")) {
			matrix = 1;
		} else if (!strcmp(a, "--no-store-write")) {
			eflags |= AN_EXP_NO_STORE_WRITE;
		} else if (!strcmp(a, "--profile")) {
			profile = 1;
		} else if (!strcmp(a, "--compensate")) {
			compensate = 1;
		} else if (!strcmp(a, "--reanalyze")) {
			eflags |= AN_EXP_REANALYZE;
		} else if (!strcmp(a, "--no-verify")) {
			o.flags |= AN_NO_VERIFY;
		} else if (!strcmp(a, "--t-seq")) {
			o.t_seq_s = num_arg(a, argv[++i < argc ? i : argc - 1], 0);
			o.t_seq_source = "given";
		} else if (!strcmp(a, "--threads")) {
			o.n_threads = (int)num_arg(a, argv[++i < argc ? i : argc - 1], 1);
		} else if (!strcmp(a, "--region") && i + 1 < argc) {
			o.region = argv[++i];
		} else if (a[0] == '-' || path) {
			fprintf(stderr, "scalegraph report: error: unexpected argument \"%s\"\n", a);
			usage(stderr);
			return 2;
		} else {
			path = a;
		}
	}
	if (!path || (csv && json)) {
		usage(stderr);
		return 2;
	}
	char err[2048] = "", tdir[4096], sdir[4096];
	long long run_id;
	int rc;
	if (is_file(path, "experiment.db")) {
		struct an_exp *e;
		if ((rc = an_exp_open(path, eflags, &e, err, sizeof err)) < 0) {
			fprintf(stderr, "scalegraph report: error: %s\n", why(err, sizeof err, path, rc));
			return 1;
		}
		unsigned rf = (matrix ? AN_REPORT_MATRIX_ONLY : 0) | (profile ? AN_REPORT_PROFILE : 0) |
			      (compensate ? AN_REPORT_COMPENSATE : 0);
		rc = json ? an_report_exp_json(stdout, e, rf) : csv ? an_report_exp_csv(stdout, e, rf)
								    : an_report_exp_text(stdout, e, rf);
		if (csv || json)
			for (size_t i = 0; i < an_exp_n_problems(e); i++)
				fprintf(stderr, "scalegraph report: warning: %s\n",
					an_exp_problem(e, i));
		an_exp_free(e);
	} else if (!matrix && !o.t_seq_s && !o.n_threads && !o.region &&
		   store_run(path, sdir, sizeof sdir, &run_id)) {
		/* a run of a store: analyzed as the experiment analyzes it (its N, its point's
		 * T_seq, the store's calibrated costs) */
		struct an_exp *e;
		if ((rc = an_exp_open(sdir, eflags | AN_EXP_NO_STORE_WRITE, &e, err,
				      sizeof err)) < 0) {
			fprintf(stderr, "scalegraph report: error: %s\n", why(err, sizeof err, sdir, rc));
			return 1;
		}
		struct an_run *r = an_exp_run(e, run_id);
		if (!r) {
			fprintf(stderr, "scalegraph report: error: %s: run %lld of %s has no readable "
				"trace%s%s\n", path, run_id, sdir, an_exp_n_problems(e) ? ": " : "",
				an_exp_n_problems(e) ? an_exp_problem(e, an_exp_n_problems(e) - 1)
						     : "");
			an_exp_free(e);
			return 1;
		}
		rc = run_report(r, csv, json, compensate ? AN_REPORT_COMPENSATE : 0);
		an_exp_free(e);
	} else {
		/* a run directory: its trace/ (a trace root since format 1.2, or the process's
		 * own directory before) */
		snprintf(tdir, sizeof tdir, "%s/trace", path);
		struct stat st_t;
		const char *dir = !is_file(path, "defs.sgd") && stat(tdir, &st_t) == 0 &&
				  S_ISDIR(st_t.st_mode) ? tdir : path;
		if (matrix) {
			fprintf(stderr, "scalegraph report: error: %s: --matrix needs an experiment "
				"(a single run has per-run figures only)\n", path);
			return 1;
		}
		struct an_run *r;
		if ((rc = an_run_open(dir, &o, &r, err, sizeof err)) < 0) {
			fprintf(stderr, "scalegraph report: error: %s\n", why(err, sizeof err, dir, rc));
			return 1;
		}
		rc = run_report(r, csv, json, compensate ? AN_REPORT_COMPENSATE : 0);
		an_run_free(r);
	}
	if (rc < 0 || fflush(stdout) != 0) {
		fprintf(stderr, "scalegraph report: error: writing the report: %s\n",
			strerror(rc < 0 ? -rc : errno));
		return 1;
	}
	return 0;
}
