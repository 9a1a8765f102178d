/*
 * xsg_live.c — loading an experiment into the running GUI and the live monitor. A load builds
 * a fresh model and swaps it in, keeping the listeners (the open windows) and what the user was
 * doing (selections, the matrix cell, the status message), then notifies MODEL_CHANGED_DATA.
 * The monitor polls the store's generation (model_dir_stamp: it moves only when runs, points,
 * methods or the machine change; the CSV files' times for a CSV experiment) with an Xt timer
 * and reloads when it moved, so windows follow a `scalegraph run` filling the store and stay
 * still otherwise. A store that fails to load is said once in a dialog, then retried quietly.
 * The first open of a store nobody analysed runs the analysis one run per work-proc call with
 * the window up. Run > New series starts that runner itself, shows its progress line in the
 * status bar and keeps its last lines when it fails.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Text.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Carries the user's selection from the old model to the new one: methods shown and the
 * current method by name, hidden sources, the selected run by its store id. */
static void keep_selection(struct model *fresh, const struct model *old)
{
	size_t i;
	int k;

	for (i = 0; i < fresh->n_methods; i++) {
		k = model_method_find(old, fresh->methods[i].name);
		if (k >= 0)
			fresh->methods[i].shown = old->methods[k].shown;
	}
	if (old->cur_method >= 0 && (size_t)old->cur_method < old->n_methods) {
		k = model_method_find(fresh, old->methods[old->cur_method].name);
		if (k >= 0)
			fresh->cur_method = k;
	}
	fresh->sources_hidden = old->sources_hidden;
	if (old->sel_run >= 0 && (size_t)old->sel_run < old->n_runs)
		for (i = 0; i < fresh->n_runs; i++)
			if (fresh->runs[i].id > 0 && fresh->runs[i].id == old->runs[old->sel_run].id)
				fresh->sel_run = (int)i;
}

static void status_summary(struct xsg_app *app)
{
	size_t i, running = 0, failed = 0, interrupted = 0;

	for (i = 0; i < app->model.n_runs; i++) {
		running += app->model.runs[i].status == MODEL_RUN_RUNNING;
		failed += app->model.runs[i].status == MODEL_RUN_FAILED;
		interrupted += app->model.runs[i].status == MODEL_RUN_INTERRUPTED;
	}
	xsg_status(app, "%s: %zu methods, %zu runs (%zu running, %zu failed, %zu interrupted)%s%s%s",
		   app->source, app->model.n_methods, app->model.n_runs, running, failed,
		   interrupted, app->model.n_runs && failed + interrupted == app->model.n_runs ?
		   "; no run gave a measurement (the run list shows why)" : "",
		   app->n_dirs > 1 ? "; compared with the methods of further experiments" : "",
		   app->poll_ms ? "; watching for new runs" : "");
	app->status_summary = 1;
}

static int prewarm_start(struct xsg_app *app);
static int prewarm_restart(struct xsg_app *app);

/* Peak resident set size so far in MB (VmHWM), for --timing; -1 when unknown. */
static long peak_rss_mb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

/* Loads app->dirs into a fresh model and swaps it in. live: a reload of the monitor, which
 * keeps what the user was doing — selections (keep_selection), the run list's scroll position
 * (win_runs.c keeps it by run id), the matrix cell, the status message unless it was the last
 * load's summary — and shows a failure in a dialog only once (then in the status line, retried
 * at every change of the store until it opens). */
static int load(struct xsg_app *app, int live)
{
	struct model fresh;
	char err[1024], saved[sizeof(app->status_text)];
	long long stamp;
	double t0 = xsg_now_ms();
	int rc, ns[64], cell_n = 0, cell_n2 = 0, keep_status = live && !app->status_summary;
	size_t cnt;

	if (app->n_dirs == 0) {
		if (!live)
			xsg_status(app, "No experiment open: File > Open experiment (Ctrl+O)");
		return 0;
	}
	if (app->prewarm)
		return live ? 0 : prewarm_restart(app);
	if (!live && prewarm_start(app))
		return 0;
	stamp = model_dirs_stamp(app->dirs, app->n_dirs);
	snprintf(saved, sizeof(saved), "%s", app->status_text);
	cnt = view_matrix_ns(&app->model, ns, 64);
	if (app->vctx.mat_sel_i >= 0 && (size_t)app->vctx.mat_sel_j < cnt) {
		cell_n = ns[app->vctx.mat_sel_i];
		cell_n2 = ns[app->vctx.mat_sel_j];
	}
	model_init(&fresh);
	rc = model_load_compare(&fresh, app->dirs, app->n_dirs, err, sizeof(err));
	if (app->timing)
		printf("%s: %.1f ms (experiment read through the analyzer, %zu runs), done %.1f ms "
		       "after start, peak RSS %ld MB\n", live ? "reload" : "load", xsg_now_ms() - t0,
		       fresh.n_runs, xsg_now_ms() - app->t_start_ms, peak_rss_mb());
	app->stamp = stamp;
	if (rc < 0) {
		model_clear(&fresh);
		if (!err[0])
			snprintf(err, sizeof(err), "%s: error: %s", app->source, strerror(-rc));
		if (!live || !app->load_failed || stamp != app->err_stamp)
			xsg_error(app, "%s", err);
		app->load_failed = 1;
		app->err_stamp = stamp;
		xsg_status(app, "%s%s", err, app->poll_ms ? " (retried when the store changes; "
			   "File > Reload to retry now)" : " (File > Reload to retry)");
		app->status_summary = 0;
		return rc;
	}
	if (live)
		app->n_reloads++;
	keep_selection(&fresh, &app->model);
	fresh.listeners = app->model.listeners;
	app->model.listeners = NULL;
	model_clear(&app->model);
	app->model = fresh;
	model_notify(&app->model, MODEL_CHANGED_DATA);
	if (cell_n && app->plots[VIEW_MATRIX])
		win_plot_matrix_select(app->plots[VIEW_MATRIX], cell_n, cell_n2);
	if (keep_status && !app->load_failed) {
		xsg_status(app, "%s", saved);
		app->status_summary = 0;
	} else {
		status_summary(app);
	}
	app->load_failed = 0;
	return 0;
}

int xsg_load(struct xsg_app *app)
{
	return load(app, 0);
}

/* --- the first analysis of a store, with the window up ------------------------------------
 * A store whose runs were never analysed (made with --no-analyze, or copied without its
 * metrics) used to block the start for seconds with no window, holding every trace's analysis
 * at once. The runs are analysed one per work-proc call instead (model_prewarm_*: each run's
 * figures go into the store's cache and its trace is freed), the status line counting them;
 * then the normal load reads everything from the cache. Events are handled between runs. */
static Boolean prewarm_work(XtPointer arg)
{
	struct xsg_app *app = arg;
	size_t done = 0;
	int rc;

	if (!app->prewarm)
		return True;
	rc = model_prewarm_step(app->prewarm, &done);
	if (rc > 0) {
		xsg_status(app, "%s: first analysis of this store: %zu of %zu runs (each run's "
			   "figures are cached in the store; the windows fill when all are done)",
			   app->source, done, app->prewarm_total);
		return False;   /* called again once events are handled */
	}
	model_prewarm_close(app->prewarm);
	app->prewarm = NULL;
	if (app->timing)
		printf("analysis: %zu runs analysed, done %.1f ms after start, peak RSS %ld MB%s\n",
		       done, xsg_now_ms() - app->t_start_ms, peak_rss_mb(), rc < 0 ? " (stopped: "
		       "the store cannot be written; the load analyses the rest)" : "");
	load(app, 0);
	return True;
}

/* Starts the first analysis when dirs[0] is a store with runs not analysed yet: the model is
 * emptied (the windows say nothing is loaded yet) and 1 returned; 0 when there is nothing to
 * analyse or it cannot be done this way (a store we may not write: load analyses it). */
static int prewarm_start(struct xsg_app *app)
{
	struct model_prewarm *p = NULL;
	struct model empty;
	char err[1024];
	size_t total = 0;

	if (model_prewarm_open(app->dirs[0], &p, &total, err, sizeof(err)) < 0)
		return 0;
	if (total == 0) {
		model_prewarm_close(p);
		return 0;
	}
	app->prewarm = p;
	app->prewarm_total = total;
	model_init(&empty);
	empty.listeners = app->model.listeners;
	app->model.listeners = NULL;
	model_clear(&app->model);
	app->model = empty;
	model_notify(&app->model, MODEL_CHANGED_DATA);
	xsg_status(app, "%s: first analysis of this store: 0 of %zu runs", app->source, total);
	if (app->timing)
		printf("analysis: %zu runs to analyse, started %.1f ms after start\n", total,
		       xsg_now_ms() - app->t_start_ms);
	XtAppAddWorkProc(app->ctx, prewarm_work, app);
	return 1;
}

/* Another experiment opened while the first analysis runs: the analysis of the old one stops
 * (what it cached stays cached). */
static int prewarm_restart(struct xsg_app *app)
{
	model_prewarm_close(app->prewarm);
	app->prewarm = NULL;
	return load(app, 0);
}

int xsg_dirs_add(struct xsg_app *app, const char *dir)
{
	return model_strv_add(&app->dirs, &app->n_dirs, dir);
}

int xsg_live_check(struct xsg_app *app)
{
	if (app->n_dirs == 0) {
		xsg_status(app, "No experiment open: File > Open experiment (Ctrl+O)");
		return 1;   /* said so: nothing to add */
	}
	/* a store that failed to load is retried when it changes, and every fifth poll besides:
	 * one restored from a backup can have the generation the damaged one had */
	if (model_dirs_stamp(app->dirs, app->n_dirs) == app->stamp &&
	    !(app->load_failed && ++app->fail_polls % 5 == 0))
		return 0;
	return load(app, 1) == 0;
}

/* Opens the output directory of the series started by Run > New series once its store exists
 * (before, there is nothing to show, and a runner that fails at once leaves the experiment open
 * as it was). */
static void run_pending(struct xsg_app *app)
{
	char path[sizeof(app->run_out) + 16];

	if (!app->run_out[0])
		return;
	snprintf(path, sizeof(path), "%s/experiment.db", app->run_out);
	if (access(path, R_OK) == 0) {
		snprintf(path, sizeof(path), "%s", app->run_out);
		app->run_out[0] = '\0';
		xsg_open_experiment(app, path);
	}
}

static void live_tick(XtPointer arg, XtIntervalId *id)
{
	struct xsg_app *app = arg;

	run_pending(app);
	if (app->n_dirs)
		xsg_live_check(app);
	XtAppAddTimeOut(app->ctx, (unsigned long)app->poll_ms, live_tick, app);
}

void xsg_live_start(struct xsg_app *app)
{
	if (app->poll_ms > 0)
		XtAppAddTimeOut(app->ctx, (unsigned long)app->poll_ms, live_tick, app);
}

int xsg_open_experiment(struct xsg_app *app, const char *dir)
{
	char **old = app->dirs;
	size_t n_old = app->n_dirs, i;
	long long old_stamp = app->stamp;
	int rc, old_failed = app->load_failed;

	app->dirs = NULL;
	app->n_dirs = 0;
	if (xsg_dirs_add(app, dir) < 0) {
		app->dirs = old;
		app->n_dirs = n_old;
		return -ENOMEM;
	}
	app->source = app->dirs[0];
	app->demo = 0;
	app->load_failed = 0;
	if ((rc = load(app, 0)) < 0) {
		/* keep what was open: the error stays in the status line and its dialog */
		free(app->dirs[0]);
		free(app->dirs);
		app->dirs = old;
		app->n_dirs = n_old;
		app->source = n_old ? old[0] : "";
		app->stamp = old_stamp;
		app->load_failed = old_failed;
		return rc;
	}
	for (i = 0; i < n_old; i++)
		free(old[i]);
	free(old);
	win_open_recent_add(app, dir);
	XtVaSetValues(app->top, XmNtitle, app->source, NULL);
	return 0;
}

static void run_log_add(struct xsg_app *app, const char *line, size_t len);

/* The runner's output: the last line (progress bars redraw with '\r') goes to the status
 * line; the last lines are kept so that a failure's whole message stays in the detail pane. */
static void run_output(XtPointer arg, int *fd, XtInputId *id)
{
	struct xsg_app *app = arg;
	char buf[512];
	ssize_t n = read(*fd, buf, sizeof(buf));
	ssize_t k;
	int status = 0;

	if (n <= 0) {
		XtRemoveInput(app->run_input);
		close(app->run_fd);
		app->run_fd = -1;
		waitpid(app->run_pid, &status, 0);
		app->run_pid = 0;
		if (app->run_line_len)
			run_log_add(app, app->run_line, app->run_line_len);
		run_pending(app);
		app->run_out[0] = '\0';
		if (app->n_dirs)
			xsg_live_check(app);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			xsg_status(app, "scalegraph run finished: %zu runs in %s", app->model.n_runs,
				   app->source);
			return;
		}
		/* the runner's reason stays: in the detail pane and a dialog, not only in a status
		 * line the next message replaces */
		xsg_details(app, "scalegraph run %s %d:\n%s",
			    WIFEXITED(status) ? "failed with exit status" : "killed by signal",
			    WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), app->run_log);
		xsg_error(app, "scalegraph run %s %d:\n%s",
			  WIFEXITED(status) ? "failed with exit status" : "killed by signal",
			  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), app->run_log);
		return;
	}
	for (k = 0; k < n; k++) {
		if (buf[k] == '\r' || buf[k] == '\n') {
			if (app->run_line_len) {
				xsg_status(app, "scalegraph run: %.*s", (int)app->run_line_len, app->run_line);
				if (buf[k] == '\n')
					run_log_add(app, app->run_line, app->run_line_len);
			}
			app->run_line_len = 0;
		} else if (app->run_line_len < sizeof(app->run_line) - 1) {
			app->run_line[app->run_line_len++] = buf[k];
		}
	}
}

/* Appends one line of the runner's output to app->run_log, dropping the oldest lines when full. */
static void run_log_add(struct xsg_app *app, const char *line, size_t len)
{
	size_t have = strlen(app->run_log), cap = sizeof(app->run_log);

	if (len > cap / 2)
		len = cap / 2;
	while (have + len + 2 > cap) {
		char *nl = strchr(app->run_log, '\n');
		size_t cut = nl ? (size_t)(nl - app->run_log) + 1 : have;
		memmove(app->run_log, app->run_log + cut, have - cut + 1);
		have -= cut;
	}
	memcpy(app->run_log + have, line, len);
	app->run_log[have + len] = '\n';
	app->run_log[have + len + 1] = '\0';
}

/* bin/scalegraph beside our own executable. */
static void scalegraph_path(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	snprintf(out, len, "scalegraph");
	if (n <= 0)
		return;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/'))) {
		*slash = '\0';
		snprintf(out, len, "%s/scalegraph", exe);
	}
}

int xsg_run_series(struct xsg_app *app, const char *spec, const char *out)
{
	char prog[PATH_MAX + 16];
	int fds[2];
	pid_t pid;

	if (!out || !*out)
		out = app->source;
	if (app->run_pid) {
		xsg_error(app, "a series is already running (pid %d)", (int)app->run_pid);
		return -EBUSY;
	}
	if (!out || !*out) {
		xsg_error(app, "%s: error: no experiment open: give an output directory", spec);
		return -EINVAL;
	}
	if (access(spec, R_OK) < 0) {
		int e = errno;
		xsg_error(app, "%s: error: %s", spec, strerror(e));
		return -e;
	}
	scalegraph_path(prog, sizeof(prog));
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if ((pid = fork()) < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execl(prog, prog, "run", spec, "-o", out, (char *)NULL);
		dprintf(2, "%s: cannot execute: %s\n", prog, strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	app->run_pid = pid;
	app->run_fd = fds[0];
	app->run_line_len = 0;
	app->run_log[0] = '\0';
	app->run_input = XtAppAddInput(app->ctx, fds[0], (XtPointer)XtInputReadMask, run_output, app);
	xsg_status(app, "started scalegraph run %s -o %s (pid %d)", spec, out, (int)pid);
	/* a new experiment: shown once its store exists (run_pending), followed from there */
	snprintf(app->run_out, sizeof(app->run_out), "%s",
		 strcmp(out, app->source ? app->source : "") != 0 ? out : "");
	return 0;
}

/* Test hooks of the live monitor. "expect-reloads:K[,MS]" fails the command list unless the
 * monitor has reloaded at least K times (waiting up to MS ms); "wait-file:PATH[,MS]" pauses it
 * until PATH exists (a test script's signal), failing after MS ms. */
static int hook_wait(struct xsg_app *app, int done, long ms, double *deadline)
{
	double now = xsg_now_ms();

	if (done) {
		*deadline = 0;
		return 0;
	}
	if (ms > 0 && !*deadline)
		*deadline = now + (double)ms;
	if (*deadline && now < *deadline) {
		app->next_action--;             /* try again after a pause */
		app->wait_until_ms = now + 50;
		return 0;
	}
	*deadline = 0;
	return -ETIMEDOUT;
}

int xsg_cmd_expect_reloads(struct xsg_app *app, const char *arg)
{
	static double deadline;
	long want, ms = 0;

	if (sscanf(arg, "%ld,%ld", &want, &ms) < 1)
		return -EINVAL;
	if (hook_wait(app, app->n_reloads >= want, ms, &deadline) == 0)
		return 0;
	fprintf(stderr, "xscalegraph: expect-reloads: %d reloads, wanted %ld\n", app->n_reloads, want);
	return -EDOM;
}

int xsg_cmd_wait_file(struct xsg_app *app, const char *arg)
{
	static double deadline;
	char path[4096];
	const char *comma = strrchr(arg, ',');
	long ms = comma ? strtol(comma + 1, NULL, 10) : 60000;

	snprintf(path, sizeof(path), "%.*s", (int)(comma ? comma - arg : (long)strlen(arg)), arg);
	if (hook_wait(app, access(path, F_OK) == 0, ms, &deadline) == 0)
		return 0;
	fprintf(stderr, "xscalegraph: wait-file: %s did not appear\n", path);
	return -ETIMEDOUT;
}
