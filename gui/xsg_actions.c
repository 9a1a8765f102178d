/*
 * xsg_actions.c — xscalegraph's named commands. Menus, keys (the Xt action xsg(CMD) in
 * translations and accelerators) and the test hook (--action, SG_GUI_ACTIONS) all call
 * xsg_command, so a test exercises exactly what a user's click does. A command is "name" or
 * "name:argument"; the table below is also printed by --help and listed in docs/gui.md.
 */
#include "xsg.h"
#include "outfile.h"

#include <Xm/Xm.h>
#include <Xm/FileSB.h>
#include <Xm/MessageB.h>
#include <Xm/SelectioB.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct command {
	const char *name;
	const char *arg;        /* argument synopsis, NULL: none */
	const char *help;
	int (*fn)(struct xsg_app *app, const char *arg);
};

/* The view behind the window opened or raised last (export-window, resize). */
static struct win_plot *current_plot(struct xsg_app *app)
{
	int i;

	for (i = 0; i < VIEW_COUNT; i++)
		if (app->plots[i] && win_plot_shell(app->plots[i]) == app->current)
			return app->plots[i];
	return app->plots[VIEW_BROWSER];
}

static int cmd_open(struct xsg_app *app, const char *arg)
{
	if (strcmp(arg, "timeline") == 0)
		return win_timeline_open(app);
	if (strcmp(arg, "sites") == 0)
		return win_sites_open(app);
	if (xsg_open(app, arg) < 0) {
		xsg_status(app, "open: no window called \"%s\"", arg);
		return -ENOENT;
	}
	return 0;
}

static int cmd_close(struct xsg_app *app, const char *arg)
{
	Widget w = arg && *arg ? xsg_window(app, arg) : app->current;

	if (!w || w == app->top)
		return arg && *arg ? -ENOENT : 0;
	XtPopdown(w);
	app->current = app->top;
	return 0;
}

static void wake_up(XtPointer arg, XtIntervalId *id)
{
}

static int cmd_quit(struct xsg_app *app, const char *arg)
{
	XtAppSetExitFlag(app->ctx);
	/* a work proc may have called us inside XtAppProcessEvent's wait: make it return */
	XtAppAddTimeOut(app->ctx, 1, wake_up, NULL);
	return 0;
}

static int cmd_reload(struct xsg_app *app, const char *arg)
{
	return xsg_load(app);
}

static int cmd_poll(struct xsg_app *app, const char *arg)
{
	if (!xsg_live_check(app))
		xsg_status(app, "%s: no change since the last load", app->source);
	return 0;
}

static int find_method(struct xsg_app *app, const char *arg)
{
	int i = model_method_find(&app->model, arg);

	if (i < 0)
		xsg_status(app, "no method called \"%s\"", arg);
	return i;
}

static int method_set(struct xsg_app *app, const char *arg, int shown)
{
	int i = find_method(app, arg);

	if (i < 0)
		return -ENOENT;
	model_set_shown(&app->model, i, shown);
	return 0;
}

static int cmd_method_show(struct xsg_app *app, const char *arg)
{
	return method_set(app, arg, 1);
}

static int cmd_method_hide(struct xsg_app *app, const char *arg)
{
	return method_set(app, arg, 0);
}

static int cmd_method_only(struct xsg_app *app, const char *arg)
{
	int i = find_method(app, arg);
	size_t k;

	if (i < 0)
		return -ENOENT;
	for (k = 0; k < app->model.n_methods; k++)
		model_set_shown(&app->model, (int)k, (int)k == i);
	model_set_current(&app->model, i);
	return 0;
}

static int cmd_methods_all(struct xsg_app *app, const char *arg)
{
	size_t k;

	for (k = 0; k < app->model.n_methods; k++)
		model_set_shown(&app->model, (int)k, 1);
	return 0;
}

static int source_set(struct xsg_app *app, const char *arg, int shown)
{
	int k;

	for (k = MODEL_FIRST_SOURCE; k <= MODEL_LAST_SOURCE; k++)
		if (strcmp(model_metric_name((enum model_metric)k), arg) == 0) {
			model_set_source_shown(&app->model, (enum model_metric)k, shown);
			return 0;
		}
	{
		char names[256] = "";
		size_t i;
		for (i = 0; i < MODEL_N_SOURCES; i++)
			plot_note_add(names, sizeof(names), "", " ", model_metric_name(model_source_order[i]));
		xsg_status(app, "no latency source called \"%s\" (%s)", arg, names);
	}
	return -ENOENT;
}

static int cmd_source_show(struct xsg_app *app, const char *arg)
{
	return source_set(app, arg, 1);
}

static int cmd_source_hide(struct xsg_app *app, const char *arg)
{
	return source_set(app, arg, 0);
}

static int cmd_matrix_select(struct xsg_app *app, const char *arg)
{
	int n, n2, exp = 0;

	if (sscanf(arg, "%d,%d,%d", &n, &n2, &exp) < 2)
		return -EINVAL;
	if (xsg_open(app, "matrix") < 0)
		return -ENOENT;
	if (win_matrix_select(app, exp, n, n2) < 0) {
		xsg_status(app, "matrix: no cell %d -> %d", n, n2);
		return -ENOENT;
	}
	return 0;
}

static int cmd_teach_set(struct xsg_app *app, const char *arg)
{
	int rc = win_teach_set(app, arg);

	if (rc < 0)
		xsg_status(app, "teach-set: cannot set \"%s\"", arg);
	return rc;
}

static int cmd_resize(struct xsg_app *app, const char *arg)
{
	int w, h;
	double t0 = xsg_now_ms();
	struct win_plot *wp = current_plot(app);

	if (sscanf(arg, "%dx%d", &w, &h) != 2 || w < 50 || h < 50)
		return -EINVAL;
	win_plot_resize(wp, w, h);
	XSync(app->dpy, False);
	while (XtAppPending(app->ctx))
		XtAppProcessEvent(app->ctx, XtIMAll);
	if (app->timing)
		printf("resize %dx%d: %.2f ms (draw %.2f ms)\n", w, h, xsg_now_ms() - t0,
		       win_plot_last_ms(wp));
	return 0;
}

static int cmd_shot(struct xsg_app *app, const char *arg)
{
	char path[4096];
	const char *colon = strchr(arg, '=');
	Widget w = app->current;
	int rc;

	/* "shot:NAME=PATH" shoots window NAME, "shot:PATH" the current one */
	if (colon) {
		snprintf(path, sizeof(path), "%.*s", (int)(colon - arg), arg);
		if (!(w = xsg_window(app, path)))
			return -ENOENT;
		arg = colon + 1;
	}
	/* on top first: the server keeps no contents of obscured parts (no backing store) */
	XRaiseWindow(app->dpy, XtWindow(w));
	XSync(app->dpy, False);
	while (XtAppPending(app->ctx))
		XtAppProcessEvent(app->ctx, XtIMAll);
	rc = xsg_screenshot(app, w, arg);
	if (rc < 0)
		xsg_error(app, "%s: error: screenshot failed (%s)", arg, strerror(-rc));
	return rc;
}

static int cmd_wait(struct xsg_app *app, const char *arg)
{
	app->wait_until_ms = xsg_now_ms() + atof(arg);
	return 0;
}

/* --- export ------------------------------------------------------------------------------
 * The command forms write without a dialog but never replace a file: export-window:PATH fails
 * naming PATH when it exists, export-window!:PATH replaces it (the same for export-csv and
 * export: a directory that already holds a window's file). File > Export window..., Export
 * all windows... and Export data as CSV... ask for the file in a file selection box (the
 * format from the extension) and, when it exists, ask before replacing it (XmQuestionDialog);
 * their OK runs export-ask:KIND:PATH, which tests call directly, and the question's buttons
 * run export-replace:yes|no. */

static int refuse_existing(struct xsg_app *app, const char *cmd, const char *path)
{
	struct stat sb;

	if (lstat(path, &sb) < 0)   /* a link counts, dangling or not: it is never written through */
		return 0;
	xsg_status(app, "%s: error: %s exists, not replaced (%s!:%s replaces it; File > Export window... asks)",
		   path, S_ISDIR(sb.st_mode) ? "a directory" : S_ISLNK(sb.st_mode) ? "a link" : "the file",
		   cmd, path);
	fprintf(stderr, "xscalegraph: %s: error: exists, not replaced\n", path);
	return -EEXIST;
}

/* The files `export:DIR` writes, in DIR; the first that exists (a link too), or NULL. */
static const char *export_all_clash(const char *dir, char *path, size_t len)
{
	static const char *const ext[] = { "png", "svg", "pdf" };
	int i, f;

	for (i = 0; i < VIEW_COUNT; i++)
		for (f = 0; f < 3; f++) {
			snprintf(path, len, "%s/%s.%s", dir, view_get((enum view_id)i)->name, ext[f]);
			if (out_exists(path))
				return path;
		}
	return NULL;
}

static int export_all(struct xsg_app *app, const char *arg, int force)
{
	char err[1024], clash[4200];
	const char *dir = arg && *arg ? arg : "xscalegraph-export";
	int rc;

	if (!force && export_all_clash(dir, clash, sizeof(clash)))
		return refuse_existing(app, "export", clash);
	if ((rc = view_export_all(dir, &app->vctx, 1, force, err, sizeof(err))) < 0)
		xsg_error(app, "%s", err);
	else
		xsg_status(app, "wrote every window to %s/ as PNG, SVG and PDF", dir);
	return rc;
}

static int cmd_export(struct xsg_app *app, const char *arg)
{
	return export_all(app, arg, 0);
}

static int cmd_export_force(struct xsg_app *app, const char *arg)
{
	return export_all(app, arg, 1);
}

struct one_view {
	struct xsg_app *app;
	enum view_id id;
};

static int draw_one(cairo_t *cr, double w, double h, void *arg)
{
	struct one_view *o = arg;

	return view_draw(o->id, cr, w, h, &o->app->vctx);
}

/* The view of the current window (the teaching window's drawing when it is current). */
static enum view_id current_view(struct xsg_app *app)
{
	struct win_plot *wp = current_plot(app);
	enum view_id id = VIEW_BROWSER;
	int i;

	for (i = 0; i < VIEW_COUNT; i++)
		if (app->plots[i] == wp)
			id = (enum view_id)i;
	if (app->teach_win && app->current == win_teach_shell(app->teach_win))
		id = VIEW_TEACH;
	return id;
}

static int export_window(struct xsg_app *app, const char *arg, int force)
{
	enum view_id id = current_view(app);
	struct one_view o;
	char path[4096], err[1024], title[256];
	const char *ext = arg && *arg ? arg : "png";
	int rc, fmt;

	if (strchr(ext, '.'))
		snprintf(path, sizeof(path), "%s", ext);
	else
		snprintf(path, sizeof(path), "%s.%s", view_get(id)->name, ext);
	if ((fmt = plot_format_from_path(path)) < 0) {
		xsg_status(app, "%s: error: unknown format (the name must end in .png, .svg or .pdf)",
			   path);
		return -EINVAL;
	}
	if (!force && (rc = refuse_existing(app, "export-window", path)) < 0)
		return rc;
	o = (struct one_view){ app, id };
	view_title(title, sizeof(title), &app->vctx, view_get(id)->title);
	rc = plot_render_path(path, force, (enum plot_format)fmt, view_get(id)->w, view_get(id)->h,
			      title, draw_one, &o, err, sizeof(err));
	if (rc < 0)
		xsg_error(app, "%s", err);
	else
		xsg_status(app, "wrote %s", path);
	return rc;
}

static int cmd_export_window(struct xsg_app *app, const char *arg)
{
	return export_window(app, arg, 0);
}

static int cmd_export_window_force(struct xsg_app *app, const char *arg)
{
	return export_window(app, arg, 1);
}

/* The data behind the curve windows, in report.csv's column order. */
static int export_csv(struct xsg_app *app, const char *arg, int force)
{
	const char *path = arg && *arg ? arg : "xscalegraph-data.csv";
	struct out_file of;
	char err[4200];
	FILE *f;
	size_t i, k;
	int j, rc = 0;

	if (!force && (rc = refuse_existing(app, "export-csv", path)) < 0)
		return rc;
	if ((rc = out_file_open(&of, path, OUT_MODE_SHARED, err, sizeof(err))) < 0) {
		xsg_error(app, "%s", err);
		return rc;
	}
	f = of.f;
	fprintf(f, "method,N,W,reps");
	for (j = 0; j < MODEL_N_METRICS; j++)
		fprintf(f, ",%s", model_metric_name((enum model_metric)j));
	fprintf(f, ",oversubscribed\n");
	for (i = 0; i < app->model.n_methods; i++) {
		const struct model_method *me = &app->model.methods[i];
		for (k = 0; k < me->n_pts; k++) {
			const struct model_point *p = &me->pts[k];
			fprintf(f, "%s,%d,%.17g,%d", me->name, p->n, p->w, p->reps);
			for (j = 0; j < MODEL_N_METRICS; j++) {
				if (p->fig[j].why)
					fputc(',', f);
				else
					fprintf(f, ",%.9g", p->fig[j].v);
			}
			fprintf(f, ",%d\n", p->oversubscribed);
		}
	}
	if ((rc = out_file_commit(&of, force, err, sizeof(err))) < 0)
		xsg_error(app, "%s", err);
	else
		xsg_status(app, "wrote %s (empty field = unavailable)", path);
	return rc;
}

static int cmd_export_csv(struct xsg_app *app, const char *arg)
{
	return export_csv(app, arg, 0);
}

static int cmd_export_csv_force(struct xsg_app *app, const char *arg)
{
	return export_csv(app, arg, 1);
}

/* The export kinds the dialogs offer: the command that writes, and how the box asks. */
static const struct export_kind {
	const char *kind, *cmd, *title, *pattern;
	int dirs;
} export_kinds[] = {
	{ "window", "export-window", "Export the window to a file (.png, .svg or .pdf):", "*", 0 },
	{ "csv", "export-csv", "Export the data behind the curve windows (.csv):", "*", 0 },
	{ "all", "export", "Export every window to a directory (PNG, SVG, PDF):", "*", 1 },
};

static const struct export_kind *export_kind_find(const char *kind, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(export_kinds) / sizeof(export_kinds[0]); i++)
		if (strlen(export_kinds[i].kind) == len && strncmp(export_kinds[i].kind, kind, len) == 0)
			return &export_kinds[i];
	return NULL;
}

static Widget replace_question;          /* the open "replace?" question, NULL: none */
static char replace_cmd[4300];           /* what Yes runs: "export-window!:PATH" */
static Widget export_from;               /* the window being exported while a dialog asks */

static void replace_answer_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = NULL;
	XmAnyCallbackStruct *cbs = call;

	XtVaGetValues(w, XmNuserData, &app, NULL);
	if (app)
		xsg_command(app, cbs->reason == XmCR_OK ? "export-replace:yes" : "export-replace:no");
}

static void replace_destroyed_cb(Widget w, XtPointer client, XtPointer call)
{
	if (replace_question == w)
		replace_question = NULL;
}

/* export-ask:KIND:PATH — what OK of an export dialog does: writes PATH, or when it exists asks
 * whether to replace it. */
static int cmd_export_ask(struct xsg_app *app, const char *arg)
{
	const char *colon = strchr(arg, ':'), *path;
	const struct export_kind *k;
	char msg[4400], clash[4200];
	const char *exists = NULL;
	XmString s;

	if (!colon || !(k = export_kind_find(arg, (size_t)(colon - arg))) || !colon[1]) {
		xsg_status(app, "export-ask: KIND:PATH, KIND window, csv or all (got \"%s\")", arg);
		return -EINVAL;
	}
	path = colon + 1;
	if (k->dirs)
		exists = export_all_clash(path, clash, sizeof(clash));
	else if (out_exists(path))
		exists = path;
	if (!k->dirs && strcmp(k->kind, "window") == 0 && plot_format_from_path(path) < 0) {
		xsg_error(app, "%s: error: unknown format: the name must end in .png, .svg or .pdf", path);
		return -EINVAL;
	}
	snprintf(replace_cmd, sizeof(replace_cmd), "%s!:%s", k->cmd, path);
	if (!exists)
		return xsg_command(app, replace_cmd);
	if (replace_question)
		XtDestroyWidget(replace_question);
	else
		export_from = app->current;   /* the answer exports this window, not the dialog */
	replace_question = XmCreateQuestionDialog(app->top, "replaceFile", NULL, 0);
	snprintf(msg, sizeof(msg), "%s already exists.\nReplace it?", exists);
	s = XmStringCreateLocalized(msg);
	XtVaSetValues(replace_question, XmNmessageString, s, XmNuserData, (XtPointer)app,
		      XmNdialogStyle, XmDIALOG_MODELESS,
		      /* Enter keeps the file: replacing takes a deliberate click */
		      XmNdefaultButtonType, XmDIALOG_CANCEL_BUTTON, NULL);
	XmStringFree(s);
	s = XmStringCreateLocalized((char *)"Replace the file?");
	XtVaSetValues(replace_question, XmNdialogTitle, s, NULL);
	XmStringFree(s);
	s = XmStringCreateLocalized((char *)"Replace");
	XtVaSetValues(replace_question, XmNokLabelString, s, NULL);
	XmStringFree(s);
	XtUnmanageChild(XmMessageBoxGetChild(replace_question, XmDIALOG_HELP_BUTTON));
	XtAddCallback(replace_question, XmNokCallback, replace_answer_cb, NULL);
	XtAddCallback(replace_question, XmNcancelCallback, replace_answer_cb, NULL);
	XtAddCallback(replace_question, XmNdestroyCallback, replace_destroyed_cb, NULL);
	XtManageChild(replace_question);
	app->current = XtParent(replace_question);
	xsg_status(app, "%s exists: replace it? (export-replace:yes|no)", exists);
	return 0;
}

/* export-replace:yes|no — the question's buttons. */
static int cmd_export_replace(struct xsg_app *app, const char *arg)
{
	int yes = strcmp(arg, "yes") == 0, rc = 0;
	char cmd[sizeof(replace_cmd)];

	if (!replace_question) {
		xsg_status(app, "export-replace: no question open");
		return -ENOENT;
	}
	if (!yes && strcmp(arg, "no") != 0)
		return -EINVAL;
	snprintf(cmd, sizeof(cmd), "%s", replace_cmd);
	XtDestroyWidget(replace_question);
	replace_question = NULL;
	app->current = export_from ? export_from : app->top;
	if (yes)
		rc = xsg_command(app, cmd);
	else
		xsg_status(app, "export: nothing written (%s kept)", strchr(cmd, ':') + 1);
	return rc;
}

static void export_ok_cb(Widget w, XtPointer client, XtPointer call)
{
	XmFileSelectionBoxCallbackStruct *cbs = call;
	const struct export_kind *k = client;
	struct xsg_app *app = NULL;
	char *path = NULL, cmd[4300];

	XtVaGetValues(w, XmNuserData, &app, NULL);
	if (app && XmStringGetLtoR(cbs->value, XmFONTLIST_DEFAULT_TAG, &path) && path && *path) {
		size_t n = strlen(path);
		while (k->dirs && n > 1 && path[n - 1] == '/')
			path[--n] = '\0';
		XtDestroyWidget(w);
		app->current = export_from ? export_from : app->top;
		snprintf(cmd, sizeof(cmd), "export-ask:%s:%s", k->kind, path);
		xsg_command(app, cmd);
	}
	XtFree(path);
}

/* export-dialog[:KIND] — the file selection box of File > Export window... (KIND window by default),
 * proposing <window>.png (data.csv, xscalegraph-export/) in the current directory. */
static int cmd_export_dialog(struct xsg_app *app, const char *arg)
{
	const struct export_kind *k = export_kind_find(*arg ? arg : "window", strlen(*arg ? arg : "window"));
	Widget d;
	XmString s;
	char *cwd, proposal[4400];

	if (!k)
		return -EINVAL;
	d = XmCreateFileSelectionDialog(app->top, "exportFile", NULL, 0);
	s = XmStringCreateLocalized((char *)k->title);
	XtVaSetValues(d, XmNselectionLabelString, s, XmNuserData, (XtPointer)app, NULL);
	XmStringFree(s);
	s = XmStringCreateLocalized((char *)(k->dirs ? "Export all windows" : "Export"));
	XtVaSetValues(d, XmNdialogTitle, s, NULL);
	XmStringFree(s);
	s = XmStringCreateLocalized((char *)k->pattern);
	XtVaSetValues(d, XmNpattern, s, NULL);
	XmStringFree(s);
	if (k->dirs)
		XtVaSetValues(d, XmNfileTypeMask, XmFILE_DIRECTORY, NULL);
	cwd = getcwd(NULL, 0);
	snprintf(proposal, sizeof(proposal), "%s/%s%s", cwd ? cwd : ".",
		 k->dirs ? "xscalegraph-export" : strcmp(k->kind, "csv") == 0 ? "xscalegraph-data" :
		 view_get(current_view(app))->name, k->dirs ? "" : strcmp(k->kind, "csv") == 0 ? ".csv" : ".png");
	free(cwd);
	XtUnmanageChild(XmSelectionBoxGetChild(d, XmDIALOG_HELP_BUTTON));
	XtAddCallback(d, XmNokCallback, export_ok_cb, (XtPointer)k);
	XtAddCallback(d, XmNcancelCallback, xsg_destroy_cb, NULL);
	XtManageChild(d);
	export_from = app->current;
	s = XmStringCreateLocalized(proposal);
	XtVaSetValues(d, XmNtextString, s, NULL);
	XmStringFree(s);
	app->current = XtParent(d);
	return 0;
}

/* Window 10 with experiments: the methods of DIR join the curve windows as "EXP:method". */
static int cmd_compare_add(struct xsg_app *app, const char *arg)
{
	int rc;

	if (xsg_dirs_add(app, arg) < 0)
		return -ENOMEM;
	if ((rc = xsg_load(app)) < 0) {
		free(app->dirs[--app->n_dirs]);   /* unreadable: leave the comparison as it was */
		xsg_load(app);
		return rc;
	}
	xsg_status(app, "comparing %zu experiments: %s and %zu more; the curve windows (4-7) "
		   "overlay their methods", app->n_dirs, app->source, app->n_dirs - 1);
	return 0;
}

static int cmd_compare_clear(struct xsg_app *app, const char *arg)
{
	while (app->n_dirs > 1)
		free(app->dirs[--app->n_dirs]);
	return xsg_load(app);
}

/* "SPEC" or "SPEC -o OUT" */
static int cmd_run(struct xsg_app *app, const char *arg)
{
	const char *o = strstr(arg, " -o ");
	char spec[4096];

	if (!o)
		return xsg_run_series(app, arg, NULL);
	snprintf(spec, sizeof(spec), "%.*s", (int)(o - arg), arg);
	return xsg_run_series(app, spec, o + 4);
}

/* OK of an ask dialog: runs "PREFIX:answer" (the prefix is the client data, the app the
 * dialog's user data); trailing slashes of a directory answer are dropped. The file selection
 * box's callback struct begins as the selection box's, so one handler serves both. */
static void ask_ok(Widget w, XtPointer client, XtPointer call)
{
	XmSelectionBoxCallbackStruct *cbs = call;
	struct xsg_app *app = NULL;
	char *answer = NULL;
	char cmd[4200];

	XtVaGetValues(w, XmNuserData, &app, NULL);
	if (app && XmStringGetLtoR(cbs->value, XmFONTLIST_DEFAULT_TAG, &answer) && answer && *answer) {
		size_t n = strlen(answer);
		while (n > 1 && answer[n - 1] == '/')
			answer[--n] = '\0';
		snprintf(cmd, sizeof(cmd), "%s:%s", (const char *)client, answer);
		xsg_command(app, cmd);
	}
	XtFree(answer);
	XtDestroyWidget(w);
}

/* Shows dialog d (a prompt or file selection box) asking `question`; OK runs PREFIX:answer. */
static int ask(struct xsg_app *app, Widget d, const char *question, const char *prefix)
{
	XmString s = XmStringCreateLocalized((char *)question);

	XtVaSetValues(d, XmNselectionLabelString, s, XmNuserData, (XtPointer)app, NULL);
	XmStringFree(s);
	XtUnmanageChild(XmSelectionBoxGetChild(d, XmDIALOG_HELP_BUTTON));
	XtAddCallback(d, XmNokCallback, ask_ok, (XtPointer)prefix);
	XtAddCallback(d, XmNcancelCallback, xsg_destroy_cb, NULL);
	XtManageChild(d);
	app->current = XtParent(d);
	return 0;
}

static int cmd_compare_dialog(struct xsg_app *app, const char *arg)
{
	Widget d = XmCreateFileSelectionDialog(app->top, "compareExperiment", NULL, 0);

	XtVaSetValues(d, XmNfileTypeMask, XmFILE_DIRECTORY, NULL);
	return ask(app, d, "Experiment to compare (a store or CSV directory):", "compare-add");
}

static int cmd_about(struct xsg_app *app, const char *arg)
{
	xsg_status(app, "xscalegraph — Scale-Graph's windows (IEEE TSE 1997) for scalegraph "
		   "experiments; Help > Metrics and formulas explains every figure");
	return 0;
}

/* test hook: "expect:runs=N[,MS]" fails the command list unless the model has N runs,
 * waiting up to MS ms for the live monitor to see them. */
static int cmd_expect(struct xsg_app *app, const char *arg)
{
	static double deadline;
	long want, ms = 0;
	double now = xsg_now_ms();

	if (sscanf(arg, "runs=%ld,%ld", &want, &ms) < 1)
		return -EINVAL;
	if ((long)app->model.n_runs == want) {
		deadline = 0;
		return 0;
	}
	if (ms > 0 && !deadline)
		deadline = now + (double)ms;
	if (deadline && now < deadline) {
		app->next_action--;             /* try again after a pause */
		app->wait_until_ms = now + 50;
		return 0;
	}
	deadline = 0;
	fprintf(stderr, "xscalegraph: expect: %zu runs, wanted %ld\n", app->model.n_runs, want);
	return -EDOM;
}

/* test hook: creates an empty file, so a test script knows the GUI got this far */
static int cmd_touch(struct xsg_app *app, const char *arg)
{
	struct out_file of;
	char err[4200];
	int rc = out_file_open(&of, arg, OUT_MODE_SHARED, err, sizeof(err));

	if (rc == 0)
		rc = out_file_commit(&of, 1, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "xscalegraph: touch: %s\n", err);
	return rc;
}

static const struct command commands[] = {
	{ "open", "WINDOW", "open or raise a window: browser profile patterns time latency "
	  "sources parallelism matrix timeline sites teach help", cmd_open },
	{ "close", "[WINDOW]", "close a window (default: the current one)", cmd_close },
	{ "reload", NULL, "read the experiment again", cmd_reload },
	{ "poll", NULL, "reload if the store changed (the live monitor does this every second)", cmd_poll },
	{ "method-show", "METHOD", "draw a scaling method in the curve windows", cmd_method_show },
	{ "method-hide", "METHOD", "hide a scaling method", cmd_method_hide },
	{ "method-only", "METHOD", "show only this method and make it current", cmd_method_only },
	{ "methods-all", NULL, "show every method (compare)", cmd_methods_all },
	{ "source-show", "SOURCE", "draw a latency source (IT_edge ... U, as its toggle) in window 6", cmd_source_show },
	{ "source-hide", "SOURCE", "hide a latency source", cmd_source_hide },
	{ "matrix-select", "N,N2[,EXP]", "select a matrix cell (of compared experiment EXP) and show its operands and runs", cmd_matrix_select },
	{ "matrix-run", "K", "open the K-th run of the matrix readout's list in the timeline", xsg_cmd_matrix_run },
	{ "matrix-hover", "X,Y", "the matrix value at pixel X,Y of the drawing: tip and status line", xsg_cmd_matrix_hover },
	{ "matrix-where", "N,N2,K[,EXP]", "test hook: the pixel where value K of a matrix cell is drawn", xsg_cmd_matrix_where },
	{ "matrix-readout", "PATH", "test hook: the matrix readout and its run list to a file", xsg_cmd_matrix_readout },
	{ "sources-method", "METHOD", "the method window 6 draws (Fig. 11: fixed, Fig. 13: e-conserved)", xsg_cmd_sources_method },
	{ "parallelism-method", "METHOD", "the method window 7 draws (Fig. 12)", xsg_cmd_parallelism_method },
	{ "hover", "X,Y|K", "the value of the chart point at pixel X,Y (or the K-th point drawn) of the current window, in the status line", xsg_cmd_hover },
	{ "toggles", NULL, "list the current window's toggles and whether each is inside the window", xsg_cmd_toggles },
	{ "run-select", "ID", "select run ID (the browser's run list)", xsg_cmd_run_select },
	{ "timeline-run", "ID|selected|default", "show run ID in the timeline (window 9)", xsg_cmd_timeline_run },
	{ "timeline-zoom", "in|out|full|T0,T1", "zoom the timeline (T0,T1: seconds since the run's start)", xsg_cmd_timeline_zoom },
	{ "timeline-pan", "FRACTION", "pan the timeline by a fraction of its width (negative: earlier)", xsg_cmd_timeline_pan },
	{ "timeline-click", "X,Y", "click the timeline's drawing at pixel X,Y (readout)", xsg_cmd_timeline_click },
	{ "timeline-select", "THREAD,T", "select the interval of lane THREAD at T seconds (readout)", xsg_cmd_timeline_select },
	{ "sites-source", "SOURCE", "call sites window: show the sites of SOURCE (IT_barrier ... PT_thread)", xsg_cmd_sites_source },
	{ "sites-point", "METHOD[,N]", "call sites window: the sites at METHOD's point N (default: its largest N)", xsg_cmd_sites_point },
	{ "sites-cell", "N,N2", "call sites window: the sites at a matrix cell's points", xsg_cmd_sites_cell },
	{ "sites-run", NULL, "call sites window: the timeline's run (its selected interval, if any)", xsg_cmd_sites_run },
	{ "sites-export", "PATH", "call sites window: write its list to a text file", xsg_cmd_sites_export },
	{ "sites-chooser", NULL, "test hook: what the call sites window's Point chooser shows, in the status line", xsg_cmd_sites_chooser },
	{ "sites-resize", "WxH", "call sites window: resize it", xsg_cmd_sites_resize },
	{ "help-find", "TEXT", "find the next TEXT in the help, select it and say its line", xsg_cmd_help_find },
	{ "teach-set", "KEY=VALUE", "set a teaching parameter (t_serial t_work c beta e_target "
	  "t_bound mem n_max growth model)", cmd_teach_set },
	{ "resize", "WxH", "resize the current window's plot", cmd_resize },
	{ "export", "[DIR]", "every window to DIR/<window>.png/.svg/.pdf; fails if one exists", cmd_export },
	{ "export!", "[DIR]", "the same, replacing existing files", cmd_export_force },
	{ "export-window", "png|svg|pdf|PATH", "the current window to a file; fails if it exists", cmd_export_window },
	{ "export-window!", "png|svg|pdf|PATH", "the same, replacing an existing file", cmd_export_window_force },
	{ "export-csv", "[PATH]", "the data behind the curve windows as CSV; fails if it exists", cmd_export_csv },
	{ "export-csv!", "[PATH]", "the same, replacing an existing file", cmd_export_csv_force },
	{ "export-dialog", "[window|csv|all]", "ask for the file (directory) to export to, then ask before replacing", cmd_export_dialog },
	{ "export-ask", "KIND:PATH", "what the export dialog's OK does: export, or ask before replacing PATH", cmd_export_ask },
	{ "export-replace", "yes|no", "answer the open \"replace?\" question", cmd_export_replace },
	{ "compare-add", "DIR", "overlay the methods of experiment DIR on windows 4-7", cmd_compare_add },
	{ "compare-clear", NULL, "stop comparing: only the experiment opened first", cmd_compare_clear },
	{ "compare-dialog", NULL, "choose an experiment directory to compare", cmd_compare_dialog },
	{ "run", "SPEC[ -o OUT]", "start `scalegraph run SPEC` into OUT (default: the open experiment)", cmd_run },
	{ "run-dialog", NULL, "ask for a spec and an output directory, then run", xsg_cmd_run_dialog },
	{ "open-experiment", "DIR", "open experiment DIR in place of the open one", xsg_cmd_open_experiment },
	{ "open-dialog", NULL, "choose an experiment directory to open", xsg_cmd_open_dialog },
	{ "open-recent", "K", "open the K-th experiment of File > Open Recent (1: the last one)", xsg_cmd_open_recent },
	{ "runs-sort", "id|method|n|w|status|time[-]", "sort the run list (- : descending)", xsg_cmd_runs_sort },
	{ "runs-scroll", "LINES", "scroll the run list (negative: up), as the mouse wheel does", xsg_cmd_runs_scroll },
	{ "shot", "[WINDOW=]PATH", "screenshot a window as the X server shows it (PNG)", cmd_shot },
	{ "wait", "MS", "test hook: pause the command list", cmd_wait },
	{ "expect", "runs=N[,MS]", "test hook: fail unless the model has N runs (within MS)", cmd_expect },
	{ "touch", "PATH", "test hook: create an empty file", cmd_touch },
	{ "expect-reloads", "K[,MS]", "test hook: fail unless the live monitor reloaded K times (within MS)", xsg_cmd_expect_reloads },
	{ "wait-file", "PATH[,MS]", "test hook: pause the command list until PATH exists", xsg_cmd_wait_file },
	{ "about", NULL, "what this is", cmd_about },
	{ "quit", NULL, "leave", cmd_quit },
};

int xsg_command(struct xsg_app *app, const char *cmd)
{
	const char *colon = strchr(cmd, ':');
	size_t len = colon ? (size_t)(colon - cmd) : strlen(cmd);
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strlen(commands[i].name) == len && strncmp(commands[i].name, cmd, len) == 0) {
			if (commands[i].arg && commands[i].arg[0] != '[' && !colon) {
				xsg_status(app, "%s needs an argument: %s:%s", commands[i].name,
					   commands[i].name, commands[i].arg);
				return -EINVAL;
			}
			return commands[i].fn(app, colon ? colon + 1 : "");
		}
	xsg_status(app, "unknown command \"%s\" (xscalegraph --help lists them)", cmd);
	return -ENOENT;
}

void xsg_commands_list(FILE *f)
{
	size_t i;
	char syn[64];

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		snprintf(syn, sizeof(syn), "%s%s%s", commands[i].name, commands[i].arg ? ":" : "",
			 commands[i].arg ? commands[i].arg : "");
		fprintf(f, "  %-26s %s\n", syn, commands[i].help);
	}
}

void xsg_menu_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = NULL;

	XtVaGetValues(XtParent(w), XmNuserData, &app, NULL);
	if (app)
		xsg_command(app, (const char *)client);
}

static struct xsg_app *action_app;

/* xsg(open, time) or xsg(open:time): parameters joined with ':' then ','. */
static void xsg_action(Widget w, XEvent *ev, String *params, Cardinal *n)
{
	char cmd[512];
	size_t len = 0;
	Cardinal k;

	if (!action_app || !*n)
		return;
	for (k = 0; k < *n && len < sizeof(cmd); k++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
					k == 0 ? "" : (k == 1 && !strchr(params[0], ':') ? ":" : ","),
					params[k]);
	xsg_command(action_app, cmd);
}

void xsg_actions_register(struct xsg_app *app)
{
	static XtActionsRec actions[] = { { "xsg", xsg_action } };

	action_app = app;
	XtAppAddActions(app->ctx, actions, XtNumber(actions));
}
