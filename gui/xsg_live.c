/*
 * xsg_live.c — loading an experiment into the running GUI and the live monitor. A reload
 * builds a fresh model and swaps it in, keeping the listeners (the open windows) and the
 * selection (methods shown, current method, hidden sources), then notifies MODEL_CHANGED_DATA.
 * The monitor polls the store's files (experiment.db and its WAL, or the CSV files) with an Xt
 * timer and reloads when they change, so windows follow a `scalegraph run` filling the store.
 * Run > New series starts that runner itself and shows its progress line in the status bar.
 */
#include "xsg.h"

#include <Xm/Xm.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Carries the user's selection from the old model to the new one, by method name. */
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

int xsg_load(struct xsg_app *app)
{
	struct model fresh;
	char err[1024];
	long long stamp = model_dirs_stamp(app->dirs, app->n_dirs);
	size_t i, running = 0, failed = 0;
	double t0 = xsg_now_ms();
	int rc;

	model_init(&fresh);
	rc = model_load_compare(&fresh, app->dirs, app->n_dirs, err, sizeof(err));
	if (app->timing)
		printf("load: %.1f ms (experiment read through the analyzer, %zu runs)\n",
		       xsg_now_ms() - t0, fresh.n_runs);
	if (rc < 0) {
		model_clear(&fresh);
		xsg_error(app, "%s", err);
		return rc;
	}
	keep_selection(&fresh, &app->model);
	fresh.listeners = app->model.listeners;
	app->model.listeners = NULL;
	model_clear(&app->model);
	app->model = fresh;
	app->stamp = stamp;
	model_notify(&app->model, MODEL_CHANGED_DATA);
	for (i = 0; i < app->model.n_runs; i++) {
		running += app->model.runs[i].status == MODEL_RUN_RUNNING;
		failed += app->model.runs[i].status == MODEL_RUN_FAILED;
	}
	xsg_status(app, "%s: %zu methods, %zu runs (%zu running, %zu failed)%s%s", app->source,
		   app->model.n_methods, app->model.n_runs, running, failed,
		   app->n_dirs > 1 ? "; compared with the methods of further experiments" : "",
		   app->poll_ms ? "; watching for new runs" : "");
	return 0;
}

int xsg_dirs_add(struct xsg_app *app, const char *dir)
{
	return model_strv_add(&app->dirs, &app->n_dirs, dir);
}

int xsg_live_check(struct xsg_app *app)
{
	if (model_dirs_stamp(app->dirs, app->n_dirs) == app->stamp)
		return 0;
	return xsg_load(app) == 0;
}

static void live_tick(XtPointer arg, XtIntervalId *id)
{
	struct xsg_app *app = arg;

	xsg_live_check(app);
	XtAppAddTimeOut(app->ctx, (unsigned long)app->poll_ms, live_tick, app);
}

void xsg_live_start(struct xsg_app *app)
{
	if (app->poll_ms > 0)
		XtAppAddTimeOut(app->ctx, (unsigned long)app->poll_ms, live_tick, app);
}

/* The runner's output: keeps its last line (progress bars redraw with '\r') for the status. */
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
		xsg_live_check(app);
		xsg_status(app, "scalegraph run finished: %s%d; %zu runs in %s",
			   WIFEXITED(status) ? "exit status " : "signal ",
			   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			   app->model.n_runs, app->source);
		return;
	}
	for (k = 0; k < n; k++) {
		if (buf[k] == '\r' || buf[k] == '\n') {
			if (app->run_line_len)
				xsg_status(app, "scalegraph run: %.*s", (int)app->run_line_len, app->run_line);
			app->run_line_len = 0;
		} else if (app->run_line_len < sizeof(app->run_line) - 1) {
			app->run_line[app->run_line_len++] = buf[k];
		}
	}
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

int xsg_run_series(struct xsg_app *app, const char *spec)
{
	char prog[PATH_MAX + 16];
	int fds[2];
	pid_t pid;

	if (app->run_pid) {
		xsg_error(app, "a series is already running (pid %d)", (int)app->run_pid);
		return -EBUSY;
	}
	if (access(spec, R_OK) < 0) {
		xsg_error(app, "%s: error: %s", spec, strerror(errno));
		return -errno;
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
		execl(prog, prog, "run", spec, "-o", app->source, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	app->run_pid = pid;
	app->run_fd = fds[0];
	app->run_line_len = 0;
	app->run_input = XtAppAddInput(app->ctx, fds[0], (XtPointer)XtInputReadMask, run_output, app);
	xsg_status(app, "started scalegraph run %s -o %s (pid %d)", spec, app->source, (int)pid);
	return 0;
}
