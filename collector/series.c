/*
 * series.c — the order of a series and the bookkeeping of its runs (series.h). Every run has an
 * identity (kind, N, sizes, repetition); before making a run the store is asked for a finished
 * run with that identity, so a second invocation replays the series from the store — the
 * searches included, since they decide only from recorded values — and makes only what is
 * missing. A run is recorded "running" before it starts and completed in one transaction; rows
 * left "running" by a killed runner are dropped (with their directories) at the next start.
 */
#include "series.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "lookup.h"
#include "runner.h"
#include "search.h"
#include "tmeasure.h"

struct size_point {
	double s;
	double sizes[SPEC_MAX_PARAMS];
	char text[256];
	double work;
};

/* Runs collected for one point of the store: every one of them (no cap: a point's mean and
 * its links in point_runs must cover the same runs). Free with pr_free. */
struct point_runs {
	int n, cap;
	int64_t *id;
	const char **role;
};

/* The longest run an E-conserved search plans (docs/collector.md). */
#define E_PROBE_BUDGET_S 5.0

static int add_run(struct point_runs *pr, int64_t id, const char *role)
{
	for (int i = 0; i < pr->n; i++)
		if (pr->id[i] == id && !strcmp(pr->role[i], role))
			return 0;
	if (pr->n == pr->cap) {
		int nc = pr->cap ? 2 * pr->cap : 16;
		int64_t *ids = realloc(pr->id, (size_t)nc * sizeof *ids);
		if (!ids)
			return -ENOMEM;
		pr->id = ids;
		const char **roles = realloc(pr->role, (size_t)nc * sizeof *roles);
		if (!roles)
			return -ENOMEM;
		pr->role = roles;
		pr->cap = nc;
	}
	pr->id[pr->n] = id;
	pr->role[pr->n++] = role;
	return 0;
}

static void pr_free(struct point_runs *pr)
{
	free(pr->id);
	free(pr->role);
	memset(pr, 0, sizeof *pr);
}

static int point_at(struct series *se, int method, double s, struct size_point *pt, char *err,
		    size_t err_len)
{
	pt->s = s;
	int rc = spec_sizes(se->spec, method, s, pt->sizes, err, err_len);
	if (rc < 0)
		return rc;
	spec_sizes_text(se->spec, pt->sizes, pt->text, sizeof pt->text);
	pt->work = spec_work(se->spec, pt->sizes);
	return 0;
}

/* One program of the spec: found, or an error located at its line (the spec's), or said to be
 * the command line's. */
static int resolve_one(const struct spec *s, const struct spec_cmd *c, const char *what,
		       const char *bin_dir, char *out, size_t len, char *err, size_t err_len)
{
	char why[3072];
	/* a command written in the spec is looked up from the spec's directory; one given after
	 * `--` from the current directory (lookup.h) */
	int rc = lookup_program(c->argv[0], c->line ? s->dir : NULL, bin_dir, out, len, why,
				sizeof why);
	if (rc == 0)
		return 0;
	if (c->line)
		snprintf(err, err_len, "%s:%d:%d: error: %s '%s' %s", s->path, c->line, c->col[0], what,
			 c->argv[0], why);
	else
		snprintf(err, err_len, "scalegraph run: error: %s '%s' %s", what, c->argv[0], why);
	return rc;
}

int series_resolve(struct series *se, char *err, size_t err_len)
{
	const struct spec *s = se->spec;
	int rc = resolve_one(s, &s->program, "program", se->bin_dir, se->prog_path,
			     sizeof se->prog_path, err, err_len);
	se->seq_path[0] = '\0';
	se->plain_path[0] = '\0';
	if (rc == 0 && s->sequential.argc)
		rc = resolve_one(s, &s->sequential, "sequential program", se->bin_dir, se->seq_path,
				 sizeof se->seq_path, err, err_len);
	if (rc == 0 && s->plain.argc)
		rc = resolve_one(s, &s->plain, "plain build", se->bin_dir, se->plain_path,
				 sizeof se->plain_path, err, err_len);
	return rc;
}

static void iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* runs/<id> below the store's real directory (store_real_dir: the path the store checked when
 * it opened, with no link in it when reaching it followed one), given to the run as its
 * SG_TRACE_DIR's parent and removed by path when the run is dropped. */
static void run_dir(struct series *se, int64_t id, char *buf, size_t len)
{
	snprintf(buf, len, "%s/runs/%lld", store_real_dir(se->st), (long long)id);
}

/* se->errmsg for a store operation that failed with rc: SQLite's text (or the errno's) with
 * the database named, and on a full disk what to do. Returns rc. */
static int store_error(struct series *se, int rc)
{
	const char *why = store_errmsg(se->st)[0] ? store_errmsg(se->st) : strerror(-rc);
	snprintf(se->errmsg, sizeof se->errmsg, "%s/experiment.db: %s%s", store_dir(se->st), why,
		 rc == -ENOSPC ? "; the runs recorded are kept: free space and run the same command "
		 "again to resume" : "");
	return rc;
}

/* Drops runs a killed runner left half-done (or, with failed, those that failed), and their
 * directories: all of them (a directory left behind would be taken for a later run's). What a
 * dead runner's run left running is killed first, so that it neither writes into a directory
 * being removed nor runs beside the run made again. */
static int drop_runs(struct series *se, int failed)
{
	struct store_run_ref *refs = NULL;
	enum store_drop which = failed ? STORE_DROP_FAILED : STORE_DROP_STALE;
	int n = store_runs_select(se->st, which, &refs);
	if (n < 0)
		return n;
	for (int i = 0; !failed && i < n; i++) {
		int k = runner_kill_orphans(refs[i].pid, refs[i].pid_start, refs[i].marker);
		if (k > 0)
			fprintf(se->out, "run %lld: killed %d process(es) left running by a runner that "
				"died\n", (long long)refs[i].id, k);
	}
	int rc = store_runs_drop(se->st, which);
	for (int i = 0; rc >= 0 && i < n; i++) {
		char dir[PATH_MAX];
		struct stat sb;
		run_dir(se, refs[i].id, dir, sizeof dir);
		if (lstat(dir, &sb) < 0)
			continue;
		fs_remove_tree(dir);
		if (lstat(dir, &sb) == 0)
			fprintf(se->out, "%s: could not be removed (its run was dropped; the id is not "
				"given again)\n", dir);
	}
	free(refs);
	return rc < 0 ? rc : 0;
}

/* The highest run id named by a directory in runs/: ids are never given twice, not even after
 * experiment.db was deleted and made anew beside the old run directories. */
static int64_t max_dir_id(struct series *se)
{
	int fd = dup(store_runs_fd(se->st));
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	int64_t max = 0;
	struct dirent *de;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		char *end;
		long long v = strtoll(de->d_name, &end, 10);
		if (end != de->d_name && !*end && v > max)
			max = v;
	}
	closedir(d);
	return max;
}

/* Room kept on the store's file system (runs/.reserve) so that a full disk still lets the run
 * that filled it be recorded, with the reason its trace is incomplete. */
#define RESERVE_BYTES (256 * 1024)

static void reserve_make(struct series *se)
{
	int dfd = store_runs_fd(se->st);
	unlinkat(dfd, ".reserve", 0);   /* left by a runner that was killed */
	int fd = openat(dfd, ".reserve", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	if (posix_fallocate(fd, 0, RESERVE_BYTES) != 0)
		unlinkat(dfd, ".reserve", 0);
	close(fd);
}

/* Frees the reserve; 1 when there was one. */
static int reserve_release(struct series *se)
{
	return unlinkat(store_runs_fd(se->st), ".reserve", 0) == 0;
}

struct started_ctx {
	struct series *se;
	int64_t id;
};

/* The run's process, recorded at once: a runner killed now leaves a row by which the next one
 * finds what to kill. */
static void on_started(void *vctx, pid_t pid)
{
	struct started_ctx *c = vctx;
	store_run_set_pid(c->se->st, c->id, (int)pid, runner_pid_start(pid));
}

/* Inserts the "running" row and creates its directory runs/<id>/ (0700), which must be new: an
 * id whose directory exists (a leftover, something planted) is skipped for the next one.
 * Returns the directory's fd, or -errno with se->errmsg saying what failed: the database
 * (experiment.db: database or disk is full) or the directory. */
static int begin_run(struct series *se, struct store_run *out, char *dir, size_t dir_len)
{
	dir[0] = '\0';
	for (int tries = 0; tries < 1000; tries++) {
		char name[32];
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		snprintf(out->marker, sizeof out->marker, "%d.%lld.%ld", (int)getpid(),
			 (long long)ts.tv_sec, ts.tv_nsec);
		int rc = store_run_begin(se->st, out);
		if (rc < 0)
			return store_error(se, rc);
		snprintf(name, sizeof name, "%lld", (long long)out->id);
		run_dir(se, out->id, dir, dir_len);
		if (mkdirat(store_runs_fd(se->st), name, 0700) == 0) {
			int fd = openat(store_runs_fd(se->st), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					O_CLOEXEC);
			if (fd >= 0)
				return fd;
		}
		rc = -errno;
		snprintf(se->errmsg, sizeof se->errmsg, "%s: cannot create the run directory: %s", dir,
			 strerror(-rc));
		int rc2 = store_run_delete(se->st, out->id);
		if (rc2 < 0) {
			/* the row stays "running": the next runner drops it */
			size_t used = strlen(se->errmsg);
			snprintf(se->errmsg + used, sizeof se->errmsg - used, " (and its row could not "
				 "be deleted: %s)", store_errmsg(se->st)[0] ? store_errmsg(se->st) :
				 strerror(-rc2));
		}
		if (rc != -EEXIST)
			return rc;
		if (rc2 < 0)
			return rc2;
		se->errmsg[0] = '\0';
		fprintf(se->out, "%s: exists already (not made by this store); the run takes the next "
			"id\n", dir);
	}
	snprintf(se->errmsg, sizeof se->errmsg, "%s/runs: 1000 run directories in a row exist "
		 "already (not made by this store)", store_dir(se->st));
	return -EEXIST;
}

/* What the runner measured of a finished run (traced or plain), its status and reason. */
static void run_finish(struct store_run *out, const struct runner_result *res)
{
	iso_now(out->finished_at, sizeof out->finished_at);
	out->exit_code = res->exit_code;
	out->signal = res->signal;
	out->t_wall_s = res->wall_s;
	out->t_user_s = res->user_s;
	out->t_sys_s = res->sys_s;
	out->max_rss_kb = res->max_rss_kb;
	snprintf(out->reason, sizeof out->reason, "%s", res->reason);
	snprintf(out->status, sizeof out->status, "%s",
		 res->timed_out ? "timeout" : res->reason[0] ? "failed" : "ok");
}

static void label_of(const char *kind, int n, const struct size_point *pt, int rep, char *buf,
		     size_t len)
{
	snprintf(buf, len, "%s N=%d %s rep %d", kind[0] == 's' ? "seq" : "run", n, pt->text, rep + 1);
}

static void join_argv(char **argv, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; argv[i] && used + 1 < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* Has this invocation counted run `id` already (made or reused)? */
static int counted(const struct series *se, int64_t id)
{
	for (int i = 0; i < se->n_counted; i++)
		if (se->counted[i] == id)
			return 1;
	return 0;
}

static int count_run(struct series *se, int64_t id)
{
	int64_t *c = realloc(se->counted, (size_t)(se->n_counted + 1) * sizeof *c);
	if (!c)
		return -ENOMEM;
	se->counted = c;
	se->counted[se->n_counted++] = id;
	return 0;
}

/* One run, or the recorded one with the same identity. Returns 0 (out filled; out->status
 * says whether it succeeded) or -EINTR / -errno. */
static int run_one(struct series *se, const char *kind, int n, const struct size_point *pt,
		   int rep, struct store_run *out)
{
	char label[320], dir[PATH_MAX], argbuf[8192], trace_dir[PATH_MAX + 8];
	char *argv[SPEC_MAX_ARGS + 1];
	struct runner_result res;
	int seq = kind[0] == 's';
	int rc;
	label_of(kind, n, pt, rep, label, sizeof label);
	rc = spec_argv(se->spec, seq ? &se->spec->sequential : &se->spec->program, n, pt->sizes,
		       argv, argbuf, sizeof argbuf);
	if (rc < 0) {
		snprintf(se->errmsg, sizeof se->errmsg, "%s: the command line is %s", label,
			 rc == -ERANGE ? "a number that does not fit"
			 : "longer than 8191 bytes with its sizes filled in");
		return rc;
	}
	if (se->dry_run) {
		char cmd[1024], key[400];
		memset(out, 0, sizeof *out);
		snprintf(out->status, sizeof out->status, "dry-run");
		out->t_para_s = NAN;
		snprintf(key, sizeof key, "%s %d %s %d", kind, n, pt->text, rep);
		for (int i = 0; i < se->n_listed; i++)
			if (!strcmp(se->listed[i], key))
				return 0;
		char **l = realloc(se->listed, (size_t)(se->n_listed + 1) * sizeof *l);
		if (!l || !(l[se->n_listed] = strdup(key))) {
			se->listed = l ? l : se->listed;
			return -ENOMEM;
		}
		se->listed = l;
		se->n_listed++;
		join_argv(argv, cmd, sizeof cmd);
		fprintf(se->out, "%-4s N=%-3d rep %d  %s%s\n", seq ? "seq" : "par", n, rep + 1, cmd,
			n > se->n_cpus ? "  [oversubscribed]" : "");
		return 0;
	}
	rc = store_run_find(se->st, kind, n, pt->text, rep, out);
	if (rc < 0 && rc != -ENOENT)
		return store_error(se, rc);
	if (rc == 0) {
		if (counted(se, out->id))
			return 0;   /* made or found a moment ago for another point */
		if ((rc = count_run(se, out->id)) < 0)
			return rc;
		se->runs_reused++;
		progress_end(&se->progress, label, 0, out->t_wall_s, out->status);
		return 0;
	}
	if (se->stop && *se->stop)
		return -EINTR;
	memset(out, 0, sizeof *out);
	snprintf(out->kind, sizeof out->kind, "%s", kind);
	out->n_threads = n;
	snprintf(out->sizes, sizeof out->sizes, "%s", pt->text);
	out->work = pt->work;
	out->rep = rep;
	out->oversubscribed = n > se->n_cpus;
	join_argv(argv, out->argv, sizeof out->argv);
	iso_now(out->started_at, sizeof out->started_at);
	int dir_fd = begin_run(se, out, dir, sizeof dir);
	if (dir_fd < 0)
		return dir_fd;   /* se->errmsg says why */
	if ((rc = count_run(se, out->id)) < 0) {
		close(dir_fd);
		return rc;
	}
	progress_start(&se->progress, label);
	struct started_ctx sctx = { se, out->id };
	rc = runner_exec(seq ? se->seq_path : se->prog_path, argv, dir_fd, dir, se->trace,
			 out->marker, se->spec->timeout_s, se->stop, on_started, &sctx, &res);
	close(dir_fd);
	if (rc < 0) {
		snprintf(se->errmsg, sizeof se->errmsg, "run %lld: %s", (long long)out->id,
			 res.reason[0] ? res.reason : strerror(-rc));
		return rc;
	}
	if (res.interrupted)
		return -EINTR; /* the "running" row is dropped by the caller */
	run_finish(out, &res);
	out->t_para_s = NAN;
	struct tmeasure tm;
	snprintf(trace_dir, sizeof trace_dir, "%s/trace", dir);
	tmeasure_run(trace_dir, res.wall_s, &tm);
	if (!res.reason[0]) {
		out->t_para_s = tm.t_para_s;
		snprintf(out->t_para_source, sizeof out->t_para_source, "%s", tm.source);
		if (tm.incomplete[0]) {
			/* a T_para from a trace that lacks events is no measurement: kept with the
			 * reason, out of every mean, made again by --retry-failed */
			snprintf(out->status, sizeof out->status, "incomplete");
			snprintf(out->reason, sizeof out->reason, "%s", tm.incomplete);
		}
	}
	const char *names[SPEC_MAX_PARAMS];
	for (int i = 0; i < se->spec->n_params; i++)
		names[i] = se->spec->param[i].name;
	rc = store_run_finish(se->st, out, se->spec->n_params, names, pt->sizes, tm.n_counters,
			      tm.counter);
	if (rc < 0 && reserve_release(se)) {
		/* the disk is full: the reserve makes room to record this run, then the series
		 * stops (the next run could not write its trace either) */
		rc = store_run_finish(se->st, out, se->spec->n_params, names, pt->sizes,
				      tm.n_counters, tm.counter);
		if (rc == 0) {
			snprintf(se->errmsg, sizeof se->errmsg, "%s: no space left on the device (run "
				 "%lld recorded %s); free space and run the same command again to "
				 "resume", store_dir(se->st), (long long)out->id, out->status);
			se->runs_made++;
			se->runs_failed += strcmp(out->status, "ok") != 0;
			rc = -ENOSPC;
		}
	}
	tmeasure_free(&tm);
	if (rc < 0 && !se->errmsg[0])
		store_error(se, rc);
	if (rc < 0)
		return rc;
	se->runs_made++;
	if (strcmp(out->status, "ok"))
		se->runs_failed++;
	char outcome[300];
	if (strcmp(out->status, "ok"))
		snprintf(outcome, sizeof outcome, "%s: %.280s", out->status, out->reason);
	else
		snprintf(outcome, sizeof outcome, "ok %.3g s", out->t_para_s);
	progress_end(&se->progress, label, 1, res.wall_s, outcome);
	return 0;
}

/* One untraced run of the plain build (spec `plain`, issue 21), or the recorded one with the
 * same identity (N, sizes, repetition). It runs with SG_TRACE=0 and no SG_TRACE_DIR, its
 * outputs in runs/<id>/ (an id of the runs' sequence), its row written once it has finished
 * (store.h). Returns 0 (out filled) or -EINTR / -errno. */
static int plain_one(struct series *se, int n, const struct size_point *pt, int rep,
		     struct store_run *out)
{
	char label[320], dir[PATH_MAX], argbuf[8192], name[32];
	char *argv[SPEC_MAX_ARGS + 1];
	struct runner_result res;
	int rc;
	snprintf(label, sizeof label, "plain N=%d %s rep %d", n, pt->text, rep + 1);
	rc = spec_argv(se->spec, &se->spec->plain, n, pt->sizes, argv, argbuf, sizeof argbuf);
	if (rc < 0) {
		snprintf(se->errmsg, sizeof se->errmsg, "%s: the command line is %s", label,
			 rc == -ERANGE ? "a number that does not fit"
			 : "longer than 8191 bytes with its sizes filled in");
		return rc;
	}
	if (se->dry_run) {
		char cmd[1024];
		memset(out, 0, sizeof *out);
		snprintf(out->status, sizeof out->status, "dry-run");
		join_argv(argv, cmd, sizeof cmd);
		fprintf(se->out, "%-4s N=%-3d rep %d  %s (untraced)\n", "pln", n, rep + 1, cmd);
		return 0;
	}
	rc = store_plain_find(se->st, n, pt->text, rep, out);
	if (rc < 0 && rc != -ENOENT)
		return store_error(se, rc);
	if (rc == 0) {
		if (counted(se, out->id))
			return 0;
		if ((rc = count_run(se, out->id)) < 0)
			return rc;
		se->runs_reused++;
		progress_end(&se->progress, label, 0, out->t_wall_s, out->status);
		return 0;
	}
	if (se->stop && *se->stop)
		return -EINTR;
	memset(out, 0, sizeof *out);
	snprintf(out->kind, sizeof out->kind, "pln");
	out->n_threads = n;
	snprintf(out->sizes, sizeof out->sizes, "%s", pt->text);
	out->rep = rep;
	out->t_para_s = NAN;
	join_argv(argv, out->argv, sizeof out->argv);
	iso_now(out->started_at, sizeof out->started_at);
	int dir_fd = -1;
	for (int tries = 0; dir_fd < 0 && tries < 1000; tries++) {
		if ((rc = store_plain_next_id(se->st, &out->id)) < 0)
			return store_error(se, rc);
		snprintf(name, sizeof name, "%lld", (long long)out->id);
		run_dir(se, out->id, dir, sizeof dir);
		if (mkdirat(store_runs_fd(se->st), name, 0700) == 0)
			dir_fd = openat(store_runs_fd(se->st), name, O_RDONLY | O_DIRECTORY |
					O_NOFOLLOW | O_CLOEXEC);
		else if (errno != EEXIST)
			break;
	}
	if (dir_fd < 0) {
		rc = -errno;
		snprintf(se->errmsg, sizeof se->errmsg, "%s: cannot create the run directory: %s", dir,
			 strerror(errno));
		return rc;
	}
	if ((rc = count_run(se, out->id)) < 0) {
		close(dir_fd);
		return rc;
	}
	progress_start(&se->progress, label);
	rc = runner_exec(se->plain_path, argv, dir_fd, dir, 0, NULL, se->spec->timeout_s,
			 se->stop, NULL, NULL, &res);
	close(dir_fd);
	if (rc < 0) {
		snprintf(se->errmsg, sizeof se->errmsg, "run %lld (plain): %s", (long long)out->id,
			 res.reason[0] ? res.reason : strerror(-rc));
		return rc;
	}
	if (res.interrupted) {
		fs_remove_tree(dir);   /* no row: the next invocation makes it again */
		return -EINTR;
	}
	run_finish(out, &res);
	if ((rc = store_plain_put(se->st, out)) < 0)
		return store_error(se, rc);
	se->runs_made++;
	if (strcmp(out->status, "ok"))
		se->runs_failed++;
	char outcome[300];
	if (strcmp(out->status, "ok"))
		snprintf(outcome, sizeof outcome, "%s: %.280s", out->status, out->reason);
	else
		snprintf(outcome, sizeof outcome, "ok %.3g s wall (untraced)", out->t_wall_s);
	progress_end(&se->progress, label, 1, res.wall_s, outcome);
	return 0;
}

/* The times of the successful runs of one size: their medians (mean of the middle two for an
 * even count), as the analyzer takes them, so that the progress lines, the searches and the
 * report divide the same numbers. Every successful run counts (no cap); tmean_end frees the
 * vectors. */
struct tmean {
	double t;          /* median T_para (or T_seq) */
	double wall;       /* median wall time */
	char source[16];   /* the runs' T_para source, "mixed" when they differ, "" when none ok */
	int ok, cap;
	double *v_t, *v_wall;
};

static int tmean_add(struct tmean *m, const struct store_run *r)
{
	if (m->ok == m->cap) {
		int nc = m->cap ? 2 * m->cap : 16;
		double *a = realloc(m->v_t, (size_t)nc * sizeof *a);
		if (!a)
			return -ENOMEM;
		m->v_t = a;
		double *b = realloc(m->v_wall, (size_t)nc * sizeof *b);
		if (!b)
			return -ENOMEM;
		m->v_wall = b;
		m->cap = nc;
	}
	m->v_t[m->ok] = r->t_para_s;
	m->v_wall[m->ok] = r->t_wall_s;
	if (!m->ok)
		snprintf(m->source, sizeof m->source, "%s", r->t_para_source);
	else if (strcmp(m->source, r->t_para_source))
		snprintf(m->source, sizeof m->source, "mixed");
	m->ok++;
	return 0;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, dbl_cmp);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void tmean_end(struct tmean *m)
{
	if (m->ok) {
		m->t = median(m->v_t, m->ok);
		m->wall = median(m->v_wall, m->ok);
	} else {
		m->t = m->wall = NAN;
	}
	free(m->v_t);
	free(m->v_wall);
	m->v_t = m->v_wall = NULL;
	m->cap = 0;
}

/* E = T_seq / (N T_para), from times measured the same way: when the program marks a region
 * but the sequential program does not (or the reverse), both wall times are used instead, never
 * one of each (docs/analyzer.md: the analyzer makes the same choice). */
static double efficiency(const struct tmean *seq, const struct tmean *par, int n, int *by_wall)
{
	*by_wall = strcmp(seq->source, par->source) != 0;
	if (!seq->ok || !par->ok)
		return NAN;
	return *by_wall ? seq->wall / (n * par->wall) : seq->t / (n * par->t);
}

static int run_ok(const struct store_run *r)
{
	return !strcmp(r->status, "ok") && !isnan(r->t_para_s);
}

/* T_para over repetitions [0, reps) of the program at the sizes of `pt`. With `plain` (not
 * NULL: the spec has a plain build) the plain build's runs at the same N and sizes are made
 * interleaved with them — traced 1, plain 1, traced 2, plain 2, ..., the plain repetitions
 * beyond `reps` after — so that a drift of the machine falls on both builds alike; *plain gets
 * their median wall time. */
static int mean_runs(struct series *se, const char *kind, int n, const struct size_point *pt,
		     int reps, struct point_runs *pr, const char *role, struct tmean *m,
		     struct tmean *plain)
{
	int n_plain = plain ? se->spec->plain_repeat : 0;
	int rc = 0;
	memset(m, 0, sizeof *m);
	if (plain)
		memset(plain, 0, sizeof *plain);
	for (int rep = 0; rc == 0 && (rep < reps || rep < n_plain); rep++) {
		struct store_run r;
		if (rep < reps) {
			rc = run_one(se, kind, n, pt, rep, &r);
			if (rc == 0 && !se->dry_run)
				rc = add_run(pr, r.id, role);
			if (rc == 0 && run_ok(&r))
				rc = tmean_add(m, &r);
		}
		if (rc == 0 && rep < n_plain) {
			rc = plain_one(se, n, pt, rep, &r);
			if (rc == 0 && !se->dry_run && !strcmp(r.status, "ok") && !isnan(r.t_wall_s)) {
				r.t_para_s = r.t_wall_s;   /* a plain run's only time is its wall time */
				snprintf(r.t_para_source, sizeof r.t_para_source, "wall");
				rc = tmean_add(plain, &r);
			}
		}
	}
	tmean_end(m);
	if (plain)
		tmean_end(plain);
	return rc;
}

/* After a point with a plain build: its measured overhead, as `scalegraph report` computes it
 * (the traced repetitions' median wall time over the plain runs' median wall time, minus 1). */
static void plain_print(struct series *se, const struct tmean *par, const struct tmean *plain)
{
	if (se->dry_run)
		return;
	if (!plain->ok) {
		fprintf(se->out, "%-21s plain build: no successful run; overhead not measured\n", "");
		return;
	}
	if (!par->ok) {
		fprintf(se->out, "%-21s plain build: %.4g s wall (%d run%s); no traced run to compare\n",
			"", plain->wall, plain->ok, plain->ok == 1 ? "" : "s");
		return;
	}
	fprintf(se->out, "%-21s plain build: %.4g s wall (%d run%s), traced %.4g s wall: measured "
		"overhead %+.1f %%\n", "", plain->wall, plain->ok, plain->ok == 1 ? "" : "s",
		par->wall, 100 * (par->wall / plain->wall - 1));
	fflush(se->out);
}

/* T_seq at the sizes of `pt`: the sequential program, else the program at N = 1. */
static int t_seq(struct series *se, const struct size_point *pt, int reps, struct point_runs *pr,
		 struct tmean *m, char *source, size_t source_len)
{
	int have_seq = se->spec->sequential.argc > 0;
	snprintf(source, source_len, "%s", have_seq ? "sequential" : "n1");
	memset(m, 0, sizeof *m);
	for (int rep = 0; rep < reps; rep++) {
		struct store_run r;
		int rc = run_one(se, have_seq ? "seq" : "par", 1, pt, rep, &r);
		if (rc == 0 && !se->dry_run)
			rc = add_run(pr, r.id, "seq");
		if (rc == 0 && run_ok(&r))
			rc = tmean_add(m, &r);
		if (rc < 0) {
			tmean_end(m);
			return rc;
		}
	}
	tmean_end(m);
	return 0;
}

static void point_print(struct series *se, const struct store_point *p)
{
	if (se->progress.tty)
		fprintf(se->out, "\r\033[K");
	fprintf(se->out, "%-12s %-8s N=%-3d s=%-8.4g %-28s T_para=%-9.4g T_seq=%-9.4g E=%-6.3f "
		"(%s%s)%s%s%s\n", p->model, p->method, p->n_threads, p->scale, p->sizes, p->t_para_s,
		p->t_seq_s, p->efficiency, p->by_wall ? "wall clock" : "trace",
		!strcmp(p->t_seq_source, "n1") ? ", T_seq = the N=1 run" : "",
		p->oversubscribed ? " oversubscribed" : "", p->note[0] ? "  -- " : "", p->note);
	if (p->search_runs)
		fprintf(se->out, "%-12s %-8s N=%-3d search: %d probe%s, %s\n", "", "", p->n_threads,
			p->search_runs, p->search_runs == 1 ? "" : "s",
			p->converged ? "converged" : "not converged");
	fflush(se->out);
}

/* Fills the point's times and E from the means, then prints and records it. */
static int point_store(struct series *se, struct store_point *p, const struct point_runs *pr,
		       const struct tmean *par, const struct tmean *seq)
{
	int by_wall = 0;
	if (par && seq) {
		p->efficiency = efficiency(seq, par, p->n_threads, &by_wall);
		/* the pair E divided, measured the same way */
		p->t_para_s = by_wall ? par->wall : par->t;
		p->t_seq_s = by_wall ? seq->wall : seq->t;
		p->by_wall = by_wall;
		if (!par->ok)
			snprintf(p->note + strlen(p->note), sizeof p->note - strlen(p->note),
				 "%sno successful run of the program at this size", p->note[0] ? "; " : "");
		if (by_wall && par->ok && seq->ok)
			snprintf(p->note + strlen(p->note), sizeof p->note - strlen(p->note),
				 "%sE from wall times (T_para by %s, T_seq by %s)", p->note[0] ? "; " : "",
				 par->source, seq->source);
	}
	p->oversubscribed = p->n_threads > se->n_cpus;
	if (se->dry_run)
		return 0;
	point_print(se, p);
	return store_point_put(se->st, p, pr->n, pr->id, pr->role);
}

/* Appends `text` to the point's note, "; " between notes (cut at the note's size). */
static void note_add(struct store_point *p, const char *text)
{
	size_t used = strlen(p->note);
	snprintf(p->note + used, sizeof p->note - used, "%s%s", used ? "; " : "", text);
}

static void point_init(struct store_point *p, const char *model, const char *method, int n,
		       const struct size_point *pt, double target)
{
	memset(p, 0, sizeof *p);
	snprintf(p->model, sizeof p->model, "%s", model);
	snprintf(p->method, sizeof p->method, "%s", method);
	p->n_threads = n;
	p->scale = pt->s;
	snprintf(p->sizes, sizeof p->sizes, "%s", pt->text);
	p->work = pt->work;
	p->target = target;
	p->t_para_s = p->t_seq_s = p->efficiency = NAN;
	p->converged = 1;
}

/* A point at fixed sizes: repetitions of the program and T_seq at the same sizes. */
static int fixed_point(struct series *se, const char *model, int method, int n,
		       const struct size_point *pt, double target, const char *note)
{
	struct store_point p;
	struct point_runs pr = { 0 };
	point_init(&p, model, se->spec->method[method].name, n, pt, target);
	if (note)
		snprintf(p.note, sizeof p.note, "%s", note);
	struct tmean par, seq, plain;
	int has_plain = se->spec->plain.argc > 0;
	int rc = mean_runs(se, "par", n, pt, se->spec->repeat, &pr, "rep", &par,
			   has_plain ? &plain : NULL);
	if (rc == 0)
		rc = t_seq(se, pt, se->spec->repeat, &pr, &seq, p.t_seq_source, sizeof p.t_seq_source);
	if (rc == 0)
		rc = point_store(se, &p, &pr, &par, &seq);
	if (rc == 0 && has_plain)
		plain_print(se, &par, &plain);
	pr_free(&pr);
	return rc;
}

/* Memory-bound (eq. 14): the scale s at which the memory of the sizes is N * B, by bisection
 * in log s (memory grows with s along any sane path). */
static int memory_scale(struct series *se, int method, int n, double bytes_per_thread,
			struct size_point *pt, char *err, size_t err_len)
{
	double want = n * bytes_per_thread, lo = 1e-6, hi = 1e9;
	struct size_point a, b;
	int rc = point_at(se, method, lo, &a, err, err_len);
	if (rc == 0)
		rc = point_at(se, method, hi, &b, err, err_len);
	/* a path whose sizes outgrow what a size may be (an integer above 2^53) is searched
	 * below that */
	while (rc < 0 && hi > lo * 10) {
		hi /= 10;
		rc = point_at(se, method, hi, &b, err, err_len);
	}
	if (rc < 0)
		return rc;
	double m_lo = spec_memory(se->spec, a.sizes), m_hi = spec_memory(se->spec, b.sizes);
	if (m_hi <= m_lo) {
		snprintf(err, err_len, "method '%s' scales no parameter that has 'bytes': memory-bound "
			 "cannot scale it", se->spec->method[method].name);
		return -EDOM;
	}
	if (want < m_lo || want > m_hi) {
		snprintf(err, err_len, "%.4g bytes at N=%d is outside what method '%s' reaches "
			 "(%.4g..%.4g bytes)", want, n, se->spec->method[method].name, m_lo, m_hi);
		return -EDOM;
	}
	for (int i = 0; i < 200 && hi / lo > 1 + 1e-12; i++) {
		double mid = sqrt(lo * hi);
		rc = point_at(se, method, mid, pt, err, err_len);
		if (rc < 0)
			return rc;
		if (spec_memory(se->spec, pt->sizes) < want)
			lo = mid;
		else
			hi = mid;
	}
	/* the rounded sizes nearest the target */
	struct size_point c;
	rc = point_at(se, method, lo, pt, err, err_len);
	if (rc == 0)
		rc = point_at(se, method, hi, &c, err, err_len);
	if (rc == 0 && fabs(spec_memory(se->spec, c.sizes) - want) <
			       fabs(spec_memory(se->spec, pt->sizes) - want))
		*pt = c;
	return rc;
}

/* d log W / d log s at s: how fast the work grows along the path (the first search step). */
static double work_exponent(struct series *se, int method, double s)
{
	struct size_point a, b;
	char err[128];
	if (point_at(se, method, s, &a, err, sizeof err) < 0 ||
	    point_at(se, method, s * 1.5, &b, err, sizeof err) < 0 || !(a.work > 0) || !(b.work > 0))
		return 0;
	return log(b.work / a.work) / log(1.5);
}

struct same_ctx {
	struct series *se;
	int method;
};

static int same_sizes(void *vctx, double s1, double s2)
{
	struct same_ctx *c = vctx;
	struct size_point a, b;
	char err[128];
	if (point_at(c->se, c->method, s1, &a, err, sizeof err) < 0 ||
	    point_at(c->se, c->method, s2, &b, err, sizeof err) < 0)
		return 0;
	return !strcmp(a.text, b.text);
}

/* Time-bound or E-conserved search at N (search.h), then the repetitions at the chosen size. */
static int search_point_in(struct series *se, const struct spec_model *m, int n,
			   struct point_runs *prp, struct point_runs *repsp)
{
	struct spec *sp = se->spec;
	int method = m->method, e_mode = m->kind == SPEC_E_CONSERVED;
	struct search sr;
	struct store_point p;
	struct size_point pt;
	char err[256], why[256] = "";
	int rc, best = -1;
	double b = work_exponent(se, method, n);
	rc = point_at(se, method, n, &pt, err, sizeof err);
	if (rc < 0)
		goto fail_expr;
	if (b < 0.05) {
		point_init(&p, spec_model_name(m->kind), sp->method[method].name, n, &pt, m->target);
		p.converged = 0;
		snprintf(p.note, sizeof p.note, "method '%s' does not change the work W; nothing to "
			 "search", sp->method[method].name);
		return point_store(se, &p, prp, NULL, NULL);
	}
	search_init(&sr, e_mode ? SEARCH_EFFICIENCY : SEARCH_TIME, m->target, 0.02, n * 1e-4,
		    n * 1e4, b, 6);
	double s = n;
	struct same_ctx sctx = { se, method };
	for (;;) {
		struct store_run r;
		rc = point_at(se, method, s, &pt, err, sizeof err);
		if (rc < 0)
			goto fail_expr;
		rc = run_one(se, "par", n, &pt, 0, &r);
		if (rc < 0)
			return rc;
		if (se->dry_run) {
			fprintf(se->out, "     ... %s along %s at N=%d: up to %d probes from s=%g\n",
				spec_model_name(m->kind), sp->method[method].name, n, sr.max_probes, s);
			return 0;
		}
		if ((rc = add_run(prp, r.id, "probe")) < 0)
			return rc;
		double tp = run_ok(&r) ? r.t_para_s : NAN, ts = NAN, y = tp;
		if (e_mode && !isnan(tp)) {
			char src[16];
			struct tmean seq, par = { 0 };
			int by_wall;
			rc = t_seq(se, &pt, 1, prp, &seq, src, sizeof src);
			if (rc < 0)
				return rc;
			rc = tmean_add(&par, &r);
			tmean_end(&par);
			if (rc < 0)
				return rc;
			ts = seq.t;
			y = efficiency(&seq, &par, n, &by_wall);
		}
		search_add(&sr, s, y);
		/* keep the next runs well inside the timeout: T grows about as s^b; an E search,
		 * whose runs have no time bound of their own, at most E_PROBE_BUDGET_S a run (E
		 * creeping toward an unreachable target made 30 s runs of a 1 s series) */
		double t_big = fmax(isnan(tp) ? 0 : tp, isnan(ts) ? 0 : ts);
		double budget = 0.5 * sp->timeout_s;
		if (e_mode && budget > E_PROBE_BUDGET_S)
			budget = E_PROBE_BUDGET_S;
		if (t_big > 0) {
			double cap = s * pow(budget / t_big, 1 / b);
			if (cap < sr.s_max)
				sr.s_max = cap > sr.s_min ? cap : sr.s_min;
		}
		enum search_state state = search_next(&sr, &s, &best, why, sizeof why, same_sizes, &sctx);
		if (state != SEARCH_CONTINUE)
			break;
	}
	if (best < 0) {
		rc = point_at(se, method, n, &pt, err, sizeof err);
		if (rc < 0)
			goto fail_expr;
		point_init(&p, spec_model_name(m->kind), sp->method[method].name, n, &pt, m->target);
		p.converged = 0;
		p.search_runs = sr.n;
		snprintf(p.note, sizeof p.note, "%s", why);
		return point_store(se, &p, prp, NULL, NULL);
	}
	rc = point_at(se, method, sr.probe[best].s, &pt, err, sizeof err);
	if (rc < 0)
		goto fail_expr;
	point_init(&p, spec_model_name(m->kind), sp->method[method].name, n, &pt, m->target);
	p.search_runs = sr.n;
	p.converged = why[0] == '\0';
	if (sr.sign < 0)
		note_add(&p, "E falls as the size grows along this path");
	if (why[0])
		note_add(&p, why);
	/* The probe is repetition 1 of the chosen size; make the others, unless the target is
	 * out of reach (the closest probe, often the largest size, is reported as measured). */
	struct tmean par, seq, plain;
	int has_plain = sp->plain.argc > 0;
	int n_reps = strstr(why, "unreachable") ? 1 : sp->repeat;
	rc = mean_runs(se, "par", n, &pt, n_reps, repsp, "rep", &par, has_plain ? &plain : NULL);
	if (rc == 0)
		rc = t_seq(se, &pt, n_reps, repsp, &seq, p.t_seq_source, sizeof p.t_seq_source);
	if (rc < 0)
		return rc;
	for (int i = 0; rc == 0 && i < repsp->n; i++)
		rc = add_run(prp, repsp->id[i], repsp->role[i]);
	if (rc < 0)
		return rc;
	if (p.converged && par.ok && seq.ok) {
		/* the verdict came from one probe: say so when the repetitions' mean disagrees */
		int by_wall;
		double y = e_mode ? efficiency(&seq, &par, n, &by_wall) : par.t;
		if (!search_within(&sr, y)) {
			p.converged = 0;
			snprintf(p.note + strlen(p.note), sizeof p.note - strlen(p.note), "%sthe probe met the target but the mean of %d "
				 "repetitions is %s = %.4g (scatter of run times)", p.note[0] ? "; " : "", par.ok,
				 e_mode ? "E" : "T_para", y);
		}
	}
	rc = point_store(se, &p, prp, &par, &seq);
	if (rc == 0 && has_plain)
		plain_print(se, &par, &plain);
	return rc;
fail_expr:
	point_init(&p, spec_model_name(m->kind), sp->method[method].name, n, &pt, m->target);
	p.converged = 0;
	snprintf(p.note, sizeof p.note, "%s", err);
	return point_store(se, &p, prp, NULL, NULL);
}

static int search_point(struct series *se, const struct spec_model *m, int n)
{
	struct point_runs pr = { 0 }, reps = { 0 };
	int rc = search_point_in(se, m, n, &pr, &reps);
	pr_free(&pr);
	pr_free(&reps);
	return rc;
}

int series_estimate(const struct series *se)
{
	const struct spec *s = se->spec;
	int per_n = s->n_threads * s->repeat;
	int seq = s->sequential.argc ? 1 : 0;
	/* each point: its repetitions and, with a sequential program, as many T_seq runs and the
	 * pattern series first (without one, T_seq is the N=1 runs already counted) */
	int total = s->n_methods * per_n * (1 + 2 * seq);
	/* the plain build's runs at every point placed */
	if (s->plain.argc)
		total += (s->n_methods + s->n_models) * s->n_threads * s->plain_repeat;
	for (int i = 0; i < s->n_models; i++) {
		int e = s->model[i].kind == SPEC_E_CONSERVED;
		if (s->model[i].kind == SPEC_MEMORY_BOUND)
			total += per_n * 2;
		else /* ~4 probes (E: each with a T_seq run), the repetitions, their T_seq */
			total += s->n_threads * (4 + (e ? 4 : 0) + 2 * s->repeat - 1);
	}
	return total;
}

/* The plain build's runs kept from earlier invocations: --retry-failed drops the failed ones;
 * a plain command other than the one they were made with (meta `plain`) drops them all, since
 * they measured another build. Their directories go with them. */
static int plain_housekeeping(struct series *se)
{
	const struct spec *sp = se->spec;
	char now[4096] = "", old[4096] = "";
	int64_t *ids = NULL;
	int n = 0, rc;
	if (!sp->plain.argc)
		return 0;
	for (int i = 0; i < sp->plain.argc; i++) {
		size_t used = strlen(now);
		snprintf(now + used, sizeof now - used, "%s%s", i ? " " : "", sp->plain.argv[i]);
	}
	int changed = store_meta_get(se->st, "plain", old, sizeof old) == 0 && strcmp(old, now);
	if (changed || se->retry_failed) {
		n = store_plain_select(se->st, changed, &ids);
		if (n < 0)
			return n;
		if (changed && n)
			fprintf(se->out, "the plain build's command changed (was: %s): its %d run%s "
				"are made again\n", old, n, n == 1 ? "" : "s");
		for (int i = 0; i < n; i++) {
			char dir[PATH_MAX];
			if ((rc = store_plain_delete(se->st, ids[i])) < 0) {
				free(ids);
				return rc;
			}
			run_dir(se, ids[i], dir, sizeof dir);
			fs_remove_tree(dir);
		}
		free(ids);
	}
	return store_meta_set(se->st, "plain", now);
}

int series_run(struct series *se, char *err, size_t err_len)
{
	struct spec *sp = se->spec;
	int rc = 0;
	se->errmsg[0] = '\0';
	if (err_len)
		err[0] = '\0';
	if (!se->dry_run) {
		rc = drop_runs(se, 0);
		if (rc == 0 && se->retry_failed)
			rc = drop_runs(se, 1);
		if (rc == 0)
			rc = plain_housekeeping(se);
		if (rc == 0)
			rc = store_run_id_floor(se->st, max_dir_id(se));
		if (rc < 0)
			goto store_fail;
		reserve_make(se);
	}
	progress_init(&se->progress, se->out, series_estimate(se));
	/* the sequential pattern series: the sequential program at every method's sizes */
	for (int m = 0; sp->sequential.argc && m < sp->n_methods; m++) {
		for (int k = 0; k < sp->n_threads; k++) {
			struct size_point pt;
			struct point_runs pr = { 0 };
			struct tmean t;
			char src[16];
			rc = point_at(se, m, sp->threads[k], &pt, err, err_len);
			if (rc < 0)
				goto out;
			rc = t_seq(se, &pt, sp->repeat, &pr, &t, src, sizeof src);
			pr_free(&pr);
			if (rc < 0)
				goto out;
		}
	}
	for (int m = 0; m < sp->n_methods; m++) {
		for (int k = 0; k < sp->n_threads; k++) {
			struct size_point pt;
			rc = point_at(se, m, sp->threads[k], &pt, err, err_len);
			if (rc == 0)
				rc = fixed_point(se, "method", m, sp->threads[k], &pt, NAN, NULL);
			if (rc < 0)
				goto out;
		}
	}
	for (int i = 0; i < sp->n_models; i++) {
		const struct spec_model *md = &sp->model[i];
		for (int k = 0; k < sp->n_threads; k++) {
			int n = sp->threads[k];
			if (md->kind == SPEC_MEMORY_BOUND) {
				struct size_point pt;
				char why[256];
				rc = memory_scale(se, md->method, n, md->target, &pt, why, sizeof why);
				if (rc == -EDOM) {
					struct store_point p;
					struct point_runs none = { 0 };
					rc = point_at(se, md->method, n, &pt, err, err_len);
					if (rc < 0)
						goto out;
					point_init(&p, "memory-bound", sp->method[md->method].name, n, &pt,
						   md->target);
					p.converged = 0;
					snprintf(p.note, sizeof p.note, "%s", why);
					rc = point_store(se, &p, &none, NULL, NULL);
				} else if (rc == 0) {
					rc = fixed_point(se, "memory-bound", md->method, n, &pt, md->target,
							 NULL);
				} else {
					snprintf(err, err_len, "%s", why);
				}
			} else {
				rc = search_point(se, md, n);
			}
			if (rc < 0)
				goto out;
		}
	}
out:
	progress_finish(&se->progress);
	for (int i = 0; i < se->n_listed; i++)
		free(se->listed[i]);
	free(se->listed);
	se->listed = NULL;
	se->n_listed = 0;
	free(se->counted);
	se->counted = NULL;
	se->n_counted = 0;
	if (rc == -EINTR && !se->dry_run)
		drop_runs(se, 0);
	if (!se->dry_run)
		reserve_release(se);
	if (rc == -EINTR)
		return rc;
	if (rc < 0 && se->errmsg[0]) {
		snprintf(err, err_len, "%s", se->errmsg);
		return rc;
	}
	if (rc < 0 && err[0] && (rc == -EINVAL || rc == -ENAMETOOLONG || rc == -ERANGE))
		return rc;   /* a located message of the spec's */
store_fail:
	/* the store is blamed only when its last statement failed (store_errmsg() is cleared by
	 * every statement): an error from elsewhere (memory) is not its */
	if (rc < 0 && se->st && store_errmsg(se->st)[0]) {
		store_error(se, rc);
		snprintf(err, err_len, "%s", se->errmsg);
	} else if (rc < 0) {
		snprintf(err, err_len, "%s", strerror(-rc));
	}
	return rc;
}
