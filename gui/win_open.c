/*
 * win_open.c — how the user chooses what xscalegraph shows: File > Open (a file selection box
 * that picks an experiment directory), File > Open Recent (the last experiments opened, kept in
 * $XDG_CONFIG_HOME/scalegraph/recent, else ~/.config/scalegraph/recent, one absolute path per
 * line, newest first) and Run > New series (a spec and the output directory of `scalegraph
 * run`). Every one is a named command (open-experiment:DIR, open-dialog, open-recent:K,
 * run-dialog), so that tests play what a click does.
 */
#include "xsg.h"
#include "outfile.h"

#include <Xm/Xm.h>
#include <Xm/FileSB.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/MessageB.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>
#include <Xm/TextF.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECENT_MAX 10

/* The directory of the recent file, $XDG_CONFIG_HOME/scalegraph else ~/.config/scalegraph;
 * -ENOENT when neither XDG_CONFIG_HOME nor HOME is set. */
static int recent_dir(char *dir, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')
		snprintf(dir, len, "%s/scalegraph", xdg);
	else if (home && *home)
		snprintf(dir, len, "%s/.config/scalegraph", home);
	else
		return -ENOENT;
	return 0;
}

/* The recent file's path. */
static int recent_path(char *buf, size_t len)
{
	char dir[PATH_MAX];
	int rc = recent_dir(dir, sizeof(dir));

	if (rc == 0)
		snprintf(buf, len, "%s/recent", dir);
	return rc;
}

/* Reads the recent list into v (at most RECENT_MAX paths); returns how many. */
static size_t recent_read(char v[RECENT_MAX][PATH_MAX])
{
	char path[PATH_MAX + 32];
	size_t n = 0;
	FILE *f;

	if (recent_path(path, sizeof(path)) < 0 || !(f = fopen(path, "r")))
		return 0;
	while (n < RECENT_MAX && fgets(v[n], PATH_MAX, f)) {
		v[n][strcspn(v[n], "\n")] = '\0';
		if (v[n][0] == '/')
			n++;
	}
	fclose(f);
	return n;
}

void win_open_recent_fill(struct xsg_app *app)
{
	static char v[RECENT_MAX][PATH_MAX];
	static char cmds[RECENT_MAX][32];
	WidgetList kids;
	Cardinal nk = 0, i;
	size_t n, k;

	if (!app->recent_menu)
		return;
	XtVaGetValues(app->recent_menu, XmNchildren, &kids, XmNnumChildren, &nk, NULL);
	for (i = nk; i > 0; i--)
		XtDestroyWidget(kids[i - 1]);
	n = recent_read(v);
	for (k = 0; k < n; k++) {
		char label[PATH_MAX + 8];
		Widget b;
		snprintf(label, sizeof(label), "%zu  %s", k + 1, v[k]);
		snprintf(cmds[k], sizeof(cmds[k]), "open-recent:%u", (unsigned)(k + 1));
		b = XtVaCreateManagedWidget("recent", xmPushButtonWidgetClass, app->recent_menu, NULL);
		XmString s = XmStringCreateLocalized(label);
		XtVaSetValues(b, XmNlabelString, s, NULL);
		XmStringFree(s);
		XtAddCallback(b, XmNactivateCallback, xsg_menu_cb, (XtPointer)cmds[k]);
	}
	if (n == 0) {
		Widget b = XtVaCreateManagedWidget("(no experiment opened yet)", xmLabelWidgetClass,
						   app->recent_menu, NULL);
		(void)b;
	}
}

int win_open_recent_add(struct xsg_app *app, const char *dir)
{
	static char v[RECENT_MAX][PATH_MAX];
	char cdir[PATH_MAX], parent[PATH_MAX], abs[PATH_MAX], err[PATH_MAX + 200];
	struct out_file of;
	size_t n, k;
	int rc, dfd;

	if (!realpath(dir, abs) || recent_dir(cdir, sizeof(cdir)) < 0)
		return -ENOENT;
	n = recent_read(v);
	/* ~/.config may be missing; the list's own directory is the user's (0700) and refused
	 * when it is a link, its file private (0600), made as every file the GUI writes */
	snprintf(parent, sizeof(parent), "%s", cdir);
	*strrchr(parent, '/') = '\0';
	mkdir(parent, OUT_DIR_MODE_PRIVATE);
	if ((dfd = out_dir_open(cdir, OUT_DIR_MODE_PRIVATE, err, sizeof(err))) < 0) {
		fprintf(stderr, "xscalegraph: recent experiments not kept: %s\n", err);
		return dfd;
	}
	if ((rc = out_file_open_at(&of, dfd, cdir, "recent", OUT_MODE_PRIVATE, err, sizeof(err))) < 0)
		goto out;
	fprintf(of.f, "%s\n", abs);
	for (k = 0; k < n && k < RECENT_MAX - 1; k++)
		if (strcmp(v[k], abs) != 0)
			fprintf(of.f, "%s\n", v[k]);
	rc = out_file_commit(&of, 1, err, sizeof(err));
out:
	close(dfd);
	if (rc < 0) {
		fprintf(stderr, "xscalegraph: recent experiments not kept: %s\n", err);
		return rc;
	}
	win_open_recent_fill(app);
	return 0;
}

int xsg_cmd_open_experiment(struct xsg_app *app, const char *arg)
{
	if (!arg || !*arg)
		return -EINVAL;
	return xsg_open_experiment(app, arg);
}

int xsg_cmd_open_recent(struct xsg_app *app, const char *arg)
{
	static char v[RECENT_MAX][PATH_MAX];
	size_t n = recent_read(v);
	long k = strtol(arg ? arg : "", NULL, 10);

	if (k < 1 || (size_t)k > n) {
		xsg_status(app, "open-recent: no experiment %s in File > Open Recent (%zu there)",
			   arg ? arg : "", n);
		return -ENOENT;
	}
	return xsg_open_experiment(app, v[k - 1]);
}

/* OK of the open dialog: the directory chosen (the selection's text, trailing slashes off). */
static void open_ok(Widget w, XtPointer client, XtPointer call)
{
	XmFileSelectionBoxCallbackStruct *cbs = call;
	struct xsg_app *app = client;
	char *answer = NULL;

	if (XmStringGetLtoR(cbs->value, XmFONTLIST_DEFAULT_TAG, &answer) && answer && *answer) {
		size_t n = strlen(answer);
		while (n > 1 && answer[n - 1] == '/')
			answer[--n] = '\0';
		xsg_open_experiment(app, answer);
	}
	XtFree(answer);
	XtDestroyWidget(w);
}

int xsg_cmd_open_dialog(struct xsg_app *app, const char *arg)
{
	Widget d = XmCreateFileSelectionDialog(app->top, "openExperiment", NULL, 0);
	XmString s = XmStringCreateLocalized("Experiment to open (a directory made by scalegraph "
					     "run, or one with report.csv):");

	XtVaSetValues(d, XmNfileTypeMask, XmFILE_DIRECTORY, XmNselectionLabelString, s, NULL);
	XmStringFree(s);
	XtVaSetValues(XtParent(d), XmNtitle, "Open experiment", NULL);
	XtUnmanageChild(XmFileSelectionBoxGetChild(d, XmDIALOG_HELP_BUTTON));
	XtAddCallback(d, XmNokCallback, open_ok, app);
	XtAddCallback(d, XmNcancelCallback, xsg_destroy_cb, NULL);
	XtManageChild(d);
	app->current = XtParent(d);
	return 0;
}

/* Run > New series: the spec, and where the runner writes (default: the open experiment, else
 * the spec's name with .exp, as `scalegraph run` names it). */
struct run_dialog {
	struct xsg_app *app;
	Widget spec, out;
};

static void run_dialog_ok(Widget w, XtPointer client, XtPointer call)
{
	struct run_dialog *rd = client;
	char *spec = XmTextFieldGetString(rd->spec), *out = XmTextFieldGetString(rd->out);
	char def[PATH_MAX], cmd[2 * PATH_MAX + 8];

	if (spec && *spec) {
		if (!out || !*out) {
			const char *base = strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec;
			size_t n = strlen(base);
			if (n > 4 && strcmp(base + n - 4, ".sgx") == 0)
				n -= 4;
			snprintf(def, sizeof(def), "%.*s.exp", (int)n, base);
		} else {
			snprintf(def, sizeof(def), "%s", out);
		}
		snprintf(cmd, sizeof(cmd), "run:%s -o %s", spec, def);
		xsg_command(rd->app, cmd);
	} else {
		xsg_status(rd->app, "New series: no spec given");
	}
	XtFree(spec);
	XtFree(out);
}

static void run_dialog_destroyed(Widget w, XtPointer client, XtPointer call)
{
	free(client);
}

static Widget field_row(Widget form, Widget above, const char *label, const char *value,
			Widget *text)
{
	Widget l = XtVaCreateManagedWidget(label, xmLabelWidgetClass, form,
					   XmNleftAttachment, XmATTACH_FORM,
					   XmNtopAttachment, above ? XmATTACH_WIDGET : XmATTACH_FORM,
					   XmNtopWidget, above, XmNtopOffset, 6, NULL);

	*text = XtVaCreateManagedWidget("field", xmTextFieldWidgetClass, form,
					XmNleftAttachment, XmATTACH_FORM,
					XmNrightAttachment, XmATTACH_FORM,
					XmNtopAttachment, XmATTACH_WIDGET, XmNtopWidget, l,
					XmNcolumns, 60, XmNvalue, value, NULL);
	return *text;
}

int xsg_cmd_run_dialog(struct xsg_app *app, const char *arg)
{
	struct run_dialog *rd = calloc(1, sizeof(*rd));
	Widget d, form, w;

	if (!rd)
		return -ENOMEM;
	rd->app = app;
	{
		/* a template dialog makes the buttons whose labels it gets at creation */
		XmString ok = XmStringCreateLocalized("Run"), cancel = XmStringCreateLocalized("Cancel");
		Arg args[2];
		XtSetArg(args[0], XmNokLabelString, ok);
		XtSetArg(args[1], XmNcancelLabelString, cancel);
		d = XmCreateTemplateDialog(app->top, "newSeries", args, 2);
		XmStringFree(ok);
		XmStringFree(cancel);
	}
	XtVaSetValues(XtParent(d), XmNtitle, "New series (scalegraph run)", NULL);
	form = XtVaCreateManagedWidget("form", xmFormWidgetClass, d, NULL);
	w = field_row(form, NULL, "Experiment spec (.sgx):", "", &rd->spec);
	field_row(form, w, "Output directory (the experiment store; empty: SPEC.exp here):",
		  app->n_dirs && !app->demo ? app->source : "", &rd->out);
	XtAddCallback(d, XmNokCallback, run_dialog_ok, rd);
	XtAddCallback(d, XmNokCallback, xsg_destroy_cb, NULL);
	XtAddCallback(d, XmNcancelCallback, xsg_destroy_cb, NULL);
	XtAddCallback(d, XmNdestroyCallback, run_dialog_destroyed, rd);
	XtManageChild(d);
	app->current = XtParent(d);
	return 0;
}
