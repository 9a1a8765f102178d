/*
 * run_main.c — `scalegraph run [SPEC] [flags] [-- COMMAND...]`: reads the spec, applies the
 * flags, opens the experiment store, records the spec and the machine, and runs the series
 * (series.h). Ctrl-C stops after killing the current run; running the same command again
 * resumes.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "runner.h"
#include "series.h"
#include "spec.h"
#include "store.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: scalegraph run SPEC [options]\n"
		"       scalegraph run [SPEC] [options] -- COMMAND [ARGS...]\n\n"
		"Runs a scaling series (docs/spec-format.md) into an experiment store\n"
		"(docs/store-schema.md). Running it again resumes: finished runs are kept.\n\n"
		"  -o, --output DIR    experiment directory (default: SPEC name without .sgx + .exp,\n"
		"                      or scalegraph.exp)\n"
		"  --threads LIST      thread counts, e.g. 1,2,4 (replaces 'threads')\n"
		"  --repeat K          repetitions per size (replaces 'repeat')\n"
		"  --timeout T         per-run timeout, e.g. 120s (replaces 'timeout')\n"
		"  --plain CMD         the program built with the ordinary compiler, one word\n"
		"                      (quote it), placeholders as the program's (replaces\n"
		"                      'plain'): run untraced beside the traced runs, so that the\n"
		"                      report shows the measured overhead\n"
		"  --no-trace          do not set SG_TRACE_DIR for the runs\n"
		"  --same-command      allow a program command without {N} (the program chooses\n"
		"                      its threads itself); without it that is an error\n"
		"  --retry-failed      make failed and timed-out runs again (others are kept)\n"
		"  --dry-run           list the runs it would make, run nothing\n"
		"  --no-analyze        do not analyze the runs at the end (by default the\n"
		"                      analyzer caches its figures in the store, so that\n"
		"                      report and xscalegraph open it without reading traces)\n"
		"  -- COMMAND...       the program (replaces 'program'); {N} and {param} substituted;\n"
		"                      a bare name is looked up in scalegraph's bin/, then PATH\n"
		"                      (not the current directory: write ./PROGRAM)\n");
}

static void default_output(const char *spec_path, char *out, size_t len)
{
	if (!spec_path) {
		snprintf(out, len, "scalegraph.exp");
		return;
	}
	const char *base = strrchr(spec_path, '/');
	base = base ? base + 1 : spec_path;
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".sgx"))
		n -= 4;
	snprintf(out, len, "%.*s.exp", (int)n, base);
}

/* build/libexec/scalegraph/scalegraph-run -> build/bin */
static void find_bin_dir(char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	out[0] = '\0';
	if (n <= 0)
		return;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	char tmp[PATH_MAX + 16];
	snprintf(tmp, sizeof tmp, "%s/../../bin", self);
	if (!realpath(tmp, out))
		out[0] = '\0';
}

/* What makes runs comparable: recorded once, checked on every resume. */
static void identity(const struct spec *s, char *buf, size_t len)
{
	size_t used = 0;
	const struct spec_cmd *cmds[2] = { &s->program, &s->sequential };
	for (int c = 0; c < 2; c++) {
		for (int i = 0; i < cmds[c]->argc; i++)
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s ",
						 cmds[c]->argv[i]);
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "| ");
	}
	for (int i = 0; i < s->n_params && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s=%g/%g ", s->param[i].name,
					 s->param[i].base, s->param[i].bytes);
	for (int i = 0; i < s->n_methods && used < len; i++) {
		used += (size_t)snprintf(buf + used, len - used, "[%s", s->method[i].name);
		for (int k = 0; k < s->method[i].n_assign && used < len; k++)
			used += (size_t)snprintf(buf + used, len - used, " %s=%s",
						 s->param[s->method[i].assign[k].param].name,
						 s->method[i].assign[k].expr);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "]");
	}
}

/* The store's message for a failed store call: "DIR/experiment.db: SQLite's text". */
static int store_fail_msg(struct store *st, int rc, char *why, size_t len)
{
	snprintf(why, len, "%s/experiment.db: %s", store_dir(st),
		 store_errmsg(st)[0] ? store_errmsg(st) : strerror(-rc));
	return rc;
}

static int record_definitions(struct store *st, const struct spec *s, const char *overrides,
			      char *why, size_t why_len)
{
	char formulas[1024];
	int rc = store_begin(st);
	if (rc < 0)
		return store_fail_msg(st, rc, why, why_len);
	rc = store_spec_set(st, s->path, s->text ? s->text : "", overrides, s->work);
	if (rc == 0)
		rc = store_defs_clear(st);
	for (int i = 0; rc == 0 && i < s->n_params; i++)
		rc = store_param_add(st, s->param[i].name, s->param[i].base, s->param[i].bytes, i);
	for (int i = 0; rc == 0 && i < s->n_methods; i++) {
		size_t used = 0;
		formulas[0] = '\0';
		for (int k = 0; k < s->method[i].n_assign && used < sizeof formulas; k++)
			used += (size_t)snprintf(formulas + used, sizeof formulas - used, "%s%s=%s",
						 k ? " " : "",
						 s->param[s->method[i].assign[k].param].name,
						 s->method[i].assign[k].expr);
		rc = store_method_add(st, s->method[i].name, formulas, i);
	}
	for (int i = 0; rc == 0 && i < s->n_models; i++) {
		const struct spec_model *m = &s->model[i];
		rc = store_model_add(st, spec_model_name(m->kind), m->target, s->method[m->method].name,
				     m->kind == SPEC_MEMORY_BOUND ? "bytes per thread"
				     : m->kind == SPEC_TIME_BOUND ? "s" : "efficiency");
	}
	if (rc == 0)
		rc = store_commit(st);
	if (rc < 0) {
		store_fail_msg(st, rc, why, why_len);
		store_rollback(st);
	}
	return rc;
}

/* The machine row, from calibrate's cache (measured now when there is none). */
static int record_machine(struct store *st, FILE *out, char *why, size_t why_len)
{
	struct calib c;
	char *json = NULL;
	int rc;
	memset(&c, 0, sizeof c);
	calib_identify(&c);
	if (calib_cache_load(c.key, &json) < 0) {
		fprintf(out, "calibrating this machine (once; cached for later series)...\n");
		rc = calib_measure(&c);
		if (rc == 0)
			rc = calib_to_json(&c, &json);
		if (rc < 0) {
			snprintf(why, why_len, "calibrating this machine failed: %s", strerror(-rc));
			return rc;
		}
		calib_cache_save(json);
	}
	double tsc = 0;
	calib_json_number(json, "tsc_hz", &tsc);
	rc = store_machine_set(st, c.cpu_model, c.n_cpus, c.kernel, tsc, json);
	free(json);
	return rc < 0 ? store_fail_msg(st, rc, why, why_len) : 0;
}

/* Runs `scalegraph-report --matrix DIR` (beside this program) with its output discarded, so
 * that the analyzer fills the store's metrics cache now rather than when the user first opens
 * the experiment (1-2 s on the demo store instead of 60 ms). The data still flow one way: the
 * collector hands its store to the analyzer's program. A failure is reported, never fatal. */
static void analyze_store(const char *out_dir)
{
	char self[PATH_MAX], prog[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	char *slash;
	struct timespec t0, t1;
	int status = 0;

	if (n <= 0)
		return;
	self[n] = '\0';
	if (!(slash = strrchr(self, '/')))
		return;
	*slash = '\0';
	snprintf(prog, sizeof prog, "%s/scalegraph-report", self);
	if (access(prog, X_OK) != 0)
		return;   /* a collector installed without the analyzer */
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(prog, "scalegraph-report", "--matrix", out_dir, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		printf("%s: the analysis at the end did not finish (scalegraph report %s says why); "
		       "the runs are kept\n", out_dir, out_dir);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%s: analyzed in %.1f s (figures cached in the store for report and xscalegraph)\n",
	       out_dir, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

/* Frees the spec on the way out (every exit of main, so that a sanitizer build's leak check
 * stays quiet on errors). */
static int bail(struct spec *spec, int rc)
{
	spec_free(spec);
	return rc;
}

int main(int argc, char **argv)
{
	struct spec spec;
	struct series se;
	char err[4096] = "", out_dir[PATH_MAX] = "", overrides[2048] = "";
	const char *spec_path = NULL, *threads = NULL, *repeat = NULL, *timeout = NULL;
	const char *plain = NULL;
	int cmd_at = -1, dry_run = 0, trace = 1, retry_failed = 0, analyze = 1, rc;
	struct store *st = NULL;

	spec_init(&spec);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **val = NULL;
		if (!strcmp(a, "--")) {
			cmd_at = i + 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return bail(&spec, 0);
		}
		if (!strcmp(a, "--dry-run")) {
			dry_run = 1;
			continue;
		}
		if (!strcmp(a, "--no-analyze")) {
			analyze = 0;
			continue;
		}
		if (!strcmp(a, "--no-trace")) {
			trace = 0;
			continue;
		}
		if (!strcmp(a, "--retry-failed")) {
			retry_failed = 1;
			continue;
		}
		if (!strcmp(a, "--same-command")) {
			spec.same_command = 1;
			size_t used = strlen(overrides);
			snprintf(overrides + used, sizeof overrides - used, "%s%s", used ? " " : "", a);
			continue;
		}
		if (!strcmp(a, "--threads"))
			val = &threads;
		else if (!strcmp(a, "--repeat"))
			val = &repeat;
		else if (!strcmp(a, "--timeout"))
			val = &timeout;
		else if (!strcmp(a, "--plain"))
			val = &plain;
		else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc)
				goto missing;
			snprintf(out_dir, sizeof out_dir, "%s", argv[++i]);
			continue;
		} else if (a[0] == '-') {
			fprintf(stderr, "scalegraph run: error: unknown option '%s'\n", a);
			usage(stderr);
			return bail(&spec, 2);
		} else if (!spec_path) {
			spec_path = a;
			continue;
		} else {
			fprintf(stderr, "scalegraph run: error: more than one spec ('%s', '%s')\n",
				spec_path, a);
			return bail(&spec, 2);
		}
		if (i + 1 >= argc)
			goto missing;
		*val = argv[++i];
		size_t used = strlen(overrides);
		snprintf(overrides + used, sizeof overrides - used, "%s%s %s", used ? " " : "", a, *val);
	}
	if (spec_path && spec_load(&spec, spec_path, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return bail(&spec, 1);
	}
	if (threads && spec_set_threads(&spec, threads, err, sizeof err) < 0) {
		fprintf(stderr, "scalegraph run: %s\n", err);
		return bail(&spec, 2);
	}
	if (repeat) {
		char *end;
		long v = strtol(repeat, &end, 10);
		if (*end || end == repeat || v < 1 || v > 1000) {
			fprintf(stderr, "scalegraph run: error: --repeat must be an integer in 1..1000, "
				"not '%s'\n", repeat);
			return bail(&spec, 2);
		}
		spec.repeat = (int)v;
	}
	if (timeout && spec_parse_duration(timeout, &spec.timeout_s) < 0) {
		fprintf(stderr, "scalegraph run: error: bad --timeout '%s' (e.g. 120s, 500ms, 2m)\n",
			timeout);
		return bail(&spec, 2);
	}
	if (plain && spec_set_plain(&spec, plain, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return bail(&spec, 2);
	}
	if (cmd_at > 0) {
		if (spec_set_program(&spec, argc - cmd_at, argv + cmd_at, err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			return bail(&spec, 2);
		}
		size_t used = strlen(overrides);
		used += (size_t)snprintf(overrides + used, sizeof overrides - used, "%s--", used ? " " : "");
		for (int i = cmd_at; i < argc && used < sizeof overrides; i++)
			used += (size_t)snprintf(overrides + used, sizeof overrides - used, " %s", argv[i]);
	}
	if (!spec_path && cmd_at < 0) {
		usage(stderr);
		return bail(&spec, 2);
	}
	/* every error the spec can give at the thread counts is given now, located, before a
	 * store is made */
	if (spec_finish(&spec, err, sizeof err) < 0 || spec_check_eval(&spec, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return bail(&spec, 1);
	}
	if (!out_dir[0])
		default_output(spec_path, out_dir, sizeof out_dir);

	memset(&se, 0, sizeof se);
	se.spec = &spec;
	se.n_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	se.trace = trace;
	se.dry_run = dry_run;
	se.retry_failed = retry_failed;
	se.stop = &stop_flag;
	se.out = stdout;
	find_bin_dir(se.bin_dir, sizeof se.bin_dir);
	if (series_resolve(&se, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return bail(&spec, 1);
	}
	if (!dry_run) {
		char id[4096], old[4096];
		char why[PATH_MAX + 1024];
		/* the store walks the path, following only links of root or of this user, and makes
		 * what is missing (store.h) */
		rc = store_open_msg(out_dir, STORE_WRITE, &st, why, sizeof why);
		if (rc < 0) {
			fprintf(stderr, "scalegraph run: error: %s\n", why);
			return bail(&spec, 1);
		}
		if ((rc = runner_init()) < 0) {
			fprintf(stderr, "scalegraph run: error: cannot become the subreaper of the runs: "
				"%s\n", strerror(-rc));
			store_close(st);
			return bail(&spec, 1);
		}
		identity(&spec, id, sizeof id);
		if (store_meta_get(st, "identity", old, sizeof old) == 0 && strcmp(old, id)) {
			fprintf(stderr, "scalegraph run: error: %s holds runs of a different program, "
				"parameters or methods; use another --output directory\n"
				"  recorded: %s\n  now:      %s\n", out_dir, old, id);
			store_close(st);
			return bail(&spec, 1);
		}
		rc = store_meta_set(st, "identity", id);
		if (rc < 0)
			store_fail_msg(st, rc, why, sizeof why);
		if (rc == 0)
			rc = record_definitions(st, &spec, overrides, why, sizeof why);
		if (rc == 0)
			rc = record_machine(st, stdout, why, sizeof why);
		if (rc < 0) {
			fprintf(stderr, "scalegraph run: error: %s\n", why);
			store_close(st);
			return bail(&spec, 1);
		}
		se.st = st;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	rc = series_run(&se, err, sizeof err);
	if (!dry_run) {
		printf("%s: %d runs made, %d reused, %d failed, %.1f s\n", out_dir, se.runs_made,
		       se.runs_reused, se.runs_failed, progress_elapsed(&se.progress));
		if (rc == 0 && analyze && trace)
			analyze_store(out_dir);
		if (rc == 0)
			printf("next: scalegraph report %s   (tables: sqlite3 %s/experiment.db, "
			       "docs/store-schema.md)\n", out_dir, out_dir);
	}
	store_close(st);
	if (rc == -EINTR) {
		fprintf(stderr, "scalegraph run: interrupted; run the same command again to resume\n");
		return bail(&spec, 130);
	}
	if (rc < 0) {
		fprintf(stderr, "scalegraph run: error: %s\n", err);
		return bail(&spec, 1);
	}
	return bail(&spec, 0);
missing:
	fprintf(stderr, "scalegraph run: error: option '%s' needs a value\n", argv[argc - 1]);
	return bail(&spec, 2);
}
