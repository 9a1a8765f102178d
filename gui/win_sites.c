/*
 * win_sites.c — the "sites" window: for the selected latency source and focus (a point, a matrix
 * cell's points, the timeline's run or selected interval), the call sites and the threads behind
 * them, most time first, with their shares (sites.c makes the rows from the analyzer's figures).
 * A source chooser above the list; the other windows move the focus through xsg_sites_focus
 * (the sources window's click, the matrix cell selection, the timeline's interval selection),
 * the commands sites-source, sites-point, sites-cell, sites-run and sites-export do the same
 * for a user's keys and for tests.
 */
#include "xsg.h"
#include "sites.h"
#include "outfile.h"
#include "analyzer.h"

#include <Xm/Xm.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/List.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One sites window per app (as the run list). */
static struct {
	struct xsg_app *app;
	struct sites_view v;
	int inited;
	Widget shell, title, option, list, note;
	Widget buttons[16];
	Widget point_option, point_menu;   /* the points of every method, to choose one */
	Widget focus_entry;                /* the chooser's entry for a focus that is no point
					      (a matrix cell, the timeline's run): what it shows */
	Widget *points;
	size_t n_points;
} ws;

static void view_once(struct xsg_app *app)
{
	if (!ws.inited) {
		sites_view_init(&ws.v);
		ws.inited = 1;
		ws.app = app;
	}
}

static void set_label(Widget w, const char *text)
{
	XmString s = XmStringCreateLocalized((char *)text);

	XtVaSetValues(w, XmNlabelString, s, NULL);
	XmStringFree(s);
}

static void point_cb(Widget w, XtPointer client, XtPointer call)
{
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "sites-point:%s", XtName(w));
	xsg_command(client, cmd);
}

/* The point chooser: an entry "METHOD,N" per method and N of the model (the first W at an N,
 * as model_point_at), refilled when the data change. */
static void points_fill(struct xsg_app *app)
{
	const struct model *m = &app->model;
	size_t i, j, cap = 0;

	for (i = 0; i < ws.n_points; i++)
		XtDestroyWidget(ws.points[i]);
	ws.n_points = 0;
	for (i = 0; i < m->n_methods; i++)
		cap += m->methods[i].n_pts;
	free(ws.points);
	if (!(ws.points = calloc(cap + 1, sizeof(*ws.points))))
		return;
	for (i = 0; i < m->n_methods; i++)
		for (j = 0; j < m->methods[i].n_pts; j++) {
			const struct model_point *p = &m->methods[i].pts[j];
			char name[160], label[160];
			XmString s;
			if (j > 0 && m->methods[i].pts[j - 1].n == p->n)
				continue;   /* one entry per N */
			snprintf(name, sizeof(name), "%s,%d", m->methods[i].name, p->n);
			snprintf(label, sizeof(label), "%s N=%d", m->methods[i].name, p->n);
			s = XmStringCreateLocalized(label);
			ws.points[ws.n_points] = XtVaCreateManagedWidget(name, xmPushButtonWidgetClass,
									 ws.point_menu,
									 XmNlabelString, s, NULL);
			XmStringFree(s);
			XtAddCallback(ws.points[ws.n_points++], XmNactivateCallback, point_cb, app);
		}
}

/* Makes the chooser show what the list shows: the focused point's entry (the first entry of its
 * method for its largest N), or for a matrix cell or the timeline's run (which are no entry of
 * the chooser) its own entry naming them — a cell selected or an interval clicked elsewhere left
 * the chooser on the point chosen before, which the list no longer showed. */
static void points_show(void)
{
	char name[160], label[160] = "";
	size_t i;

	if (!ws.point_option)
		return;
	if (ws.v.focus == SITES_POINT) {
		snprintf(name, sizeof(name), "%s,%d", ws.v.method, ws.v.n);
		for (i = 0; i < ws.n_points; i++) {
			const char *x = XtName(ws.points[i]), *c = strrchr(x, ',');
			if (ws.v.n ? strcmp(x, name) == 0
				   : c && (size_t)(c - x) == strlen(ws.v.method) &&
				     strncmp(x, ws.v.method, (size_t)(c - x)) == 0 &&
				     (i + 1 == ws.n_points || strncmp(XtName(ws.points[i + 1]), name,
								      strlen(ws.v.method) + 1) != 0)) {
				XtVaSetValues(ws.point_option, XmNmenuHistory, ws.points[i], NULL);
				XtUnmanageChild(ws.focus_entry);
				return;
			}
		}
		snprintf(label, sizeof(label), "%s N=%d", ws.v.method, ws.v.n);   /* not listed */
	} else if (ws.v.focus == SITES_CELL) {
		snprintf(label, sizeof(label), "matrix cell %d -> %d", ws.v.n, ws.v.n2);
	} else if (ws.v.focus == SITES_RUN) {
		if (ws.v.run_id > 0)
			snprintf(label, sizeof(label), "run %lld%s", ws.v.run_id,
				 ws.v.window ? ", selected interval" : " (timeline)");
		else
			snprintf(label, sizeof(label), "the timeline's trace%s",
				 ws.v.window ? ", selected interval" : "");
	} else {
		snprintf(label, sizeof(label), "(none)");
	}
	set_label(ws.focus_entry, label);
	XtManageChild(ws.focus_entry);
	XtVaSetValues(ws.point_option, XmNmenuHistory, ws.focus_entry, NULL);
}

/* Recomputes the rows and shows them (when the window exists). */
static int refresh(struct xsg_app *app)
{
	struct timeline *tl = &app->timeline;
	int rc = sites_view_refresh(&ws.v, &app->model, app->dirs, app->n_dirs,
				    ws.v.focus == SITES_RUN ? tl->run : NULL, tl->t0_ns);
	size_t i;

	if (!ws.shell)
		return rc;
	set_label(ws.title, ws.v.title);
	set_label(ws.note, ws.v.note[0] ? ws.v.note : " ");
	XmListDeleteAllItems(ws.list);
	for (i = 0; i < ws.v.n_rows; i++) {
		XmString s = XmStringCreateLocalized(ws.v.rows[i].text);
		XmListAddItemUnselected(ws.list, s, 0);
		XmStringFree(s);
	}
	for (i = 0; i < sizeof(ws.buttons) / sizeof(ws.buttons[0]) && ws.buttons[i]; i++)
		if (strcmp(XtName(ws.buttons[i]), model_metric_name(ws.v.source)) == 0)
			XtVaSetValues(ws.option, XmNmenuHistory, ws.buttons[i], NULL);
	points_show();
	return rc;
}

/* The interval of the timeline's selection: its state. */
struct sel_state {
	int64_t at;
	int state;
};

static int sel_state_cb(const struct an_interval *iv, void *ud)
{
	struct sel_state *x = ud;

	if (iv->t0_ns <= x->at && x->at <= iv->t1_ns && iv->merged == 1)
		x->state = (int)iv->state;
	return 0;
}

/* The source of the state of the timeline's selected interval (a lock wait: IT_lock), or -1:
 * selecting a wait in the timeline shows that wait's source. */
static int selected_source(struct xsg_app *app)
{
	static const struct { enum an_state st; enum model_metric k; } map[] = {
		{ AN_ST_BARRIER_WAIT, MODEL_IT_BARRIER }, { AN_ST_BARRIER_OVH, MODEL_PT_BARRIER },
		{ AN_ST_LOCK_WAIT, MODEL_IT_LOCK },       { AN_ST_LOCK_OVH, MODEL_PT_LOCK },
		{ AN_ST_COND_WAIT, MODEL_IT_COND },       { AN_ST_SEM_WAIT, MODEL_IT_SEM },
		{ AN_ST_SEM_OVH, MODEL_PT_SEM },
	};
	struct timeline *tl = &app->timeline;
	struct sel_state x = { 0, -1 };
	int64_t a, b;
	size_t i;

	if (!tl->run || tl->sel_lane < 0)
		return -1;
	a = tl->t0_ns + (int64_t)(tl->sel_t0 * 1e9);
	b = tl->t0_ns + (int64_t)(tl->sel_t1 * 1e9);
	x.at = a + (b - a) / 2;
	if (an_run_timeline(tl->run, (size_t)tl->sel_lane, x.at, x.at, 0, sel_state_cb, &x) < 0)
		return -1;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if ((int)map[i].st == x.state)
			return (int)map[i].k;
	return -1;
}

void xsg_sites_focus(struct xsg_app *app, int source, const char *method, int n, int n2,
		     long long run_id)
{
	view_once(app);
	if (source >= 0 && source < MODEL_N_METRICS && sites_source_ok((enum model_metric)source))
		ws.v.source = (enum model_metric)source;
	if (run_id) {
		ws.v.focus = SITES_RUN;
		ws.v.run_id = run_id;
		ws.v.window = app->timeline.sel_lane >= 0;
		ws.v.w0 = app->timeline.sel_t0;
		ws.v.w1 = app->timeline.sel_t1;
		if (source < 0 && (source = selected_source(app)) >= 0)
			ws.v.source = (enum model_metric)source;
	} else if (n2 > 0) {
		ws.v.focus = SITES_CELL;
		ws.v.n = n;
		ws.v.n2 = n2;
	} else if (method && *method) {
		ws.v.focus = SITES_POINT;
		snprintf(ws.v.method, sizeof(ws.v.method), "%s", method);
		ws.v.n = n;
	}
	if (ws.shell)
		refresh(app);
}

static void source_cb(Widget w, XtPointer client, XtPointer call)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "sites-source:%s", XtName(w));
	xsg_command(client, cmd);
}

static void model_changed(struct model *m, unsigned what, void *arg)
{
	if (!(what & MODEL_CHANGED_DATA))
		return;
	sites_view_forget(&ws.v);   /* the store changed: its figures are read again */
	if (ws.shell) {
		points_fill(arg);
		refresh(arg);
	}
}

static Widget create(struct xsg_app *app)
{
	static const enum model_metric order[] = {
		MODEL_IT_BARRIER, MODEL_PT_BARRIER, MODEL_IT_LOCK, MODEL_PT_LOCK, MODEL_IT_COND,
		MODEL_IT_SEM, MODEL_PT_SEM, MODEL_IT_JOIN, MODEL_PT_THREAD,
	};
	Widget form, pulldown;
	Arg args[8];
	Cardinal n = 0;
	XmString s;
	size_t i;

	ws.shell = XtVaCreatePopupShell("sites", topLevelShellWidgetClass, app->top,
					XmNtitle, "xscalegraph: call sites (where in the code)",
					XmNdeleteResponse, XmUNMAP, XmNwidth, 760, XmNheight, 480,
					NULL);
	form = XtVaCreateManagedWidget("form", xmFormWidgetClass, ws.shell, XmNmarginWidth, 6,
				       XmNmarginHeight, 6, NULL);
	pulldown = XmCreatePulldownMenu(form, "sourceMenu", NULL, 0);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		char label[96];
		snprintf(label, sizeof(label), "%s  %s", model_metric_name(order[i]),
			 model_metric_title(order[i]));
		s = XmStringCreateLocalized(label);
		ws.buttons[i] = XtVaCreateManagedWidget(model_metric_name(order[i]),
							xmPushButtonWidgetClass, pulldown,
							XmNlabelString, s, NULL);
		XmStringFree(s);
		XtAddCallback(ws.buttons[i], XmNactivateCallback, source_cb, app);
	}
	s = XmStringCreateLocalized("Source");
	XtSetArg(args[n], XmNsubMenuId, pulldown); n++;
	XtSetArg(args[n], XmNlabelString, s); n++;
	XtSetArg(args[n], XmNtopAttachment, XmATTACH_FORM); n++;
	XtSetArg(args[n], XmNleftAttachment, XmATTACH_FORM); n++;
	ws.option = XmCreateOptionMenu(form, "sourceOption", args, n);
	XmStringFree(s);
	XtManageChild(ws.option);
	ws.point_menu = XmCreatePulldownMenu(form, "pointMenu", NULL, 0);
	/* first in the menu; choosing it keeps the focus it names */
	ws.focus_entry = XtVaCreateWidget("focusEntry", xmPushButtonWidgetClass, ws.point_menu, NULL);
	s = XmStringCreateLocalized("Point");
	n = 0;
	XtSetArg(args[n], XmNsubMenuId, ws.point_menu); n++;
	XtSetArg(args[n], XmNlabelString, s); n++;
	XtSetArg(args[n], XmNtopAttachment, XmATTACH_FORM); n++;
	XtSetArg(args[n], XmNleftAttachment, XmATTACH_WIDGET); n++;
	XtSetArg(args[n], XmNleftWidget, ws.option); n++;
	XtSetArg(args[n], XmNleftOffset, 12); n++;
	ws.point_option = XmCreateOptionMenu(form, "pointOption", args, n);
	XmStringFree(s);
	points_fill(app);
	XtManageChild(ws.point_option);
	ws.title = XtVaCreateManagedWidget("sitesTitle", xmLabelWidgetClass, form,
					   XmNtopAttachment, XmATTACH_WIDGET,
					   XmNtopWidget, ws.option, XmNtopOffset, 4,
					   XmNleftAttachment, XmATTACH_FORM,
					   XmNalignment, XmALIGNMENT_BEGINNING, NULL);
	ws.note = XtVaCreateManagedWidget("sitesNote", xmLabelWidgetClass, form,
					  XmNbottomAttachment, XmATTACH_FORM,
					  XmNleftAttachment, XmATTACH_FORM,
					  XmNrightAttachment, XmATTACH_FORM,
					  XmNalignment, XmALIGNMENT_BEGINNING, NULL);
	n = 0;
	XtSetArg(args[n], XmNvisibleItemCount, 18); n++;
	XtSetArg(args[n], XmNselectionPolicy, XmBROWSE_SELECT); n++;
	XtSetArg(args[n], XmNscrollBarDisplayPolicy, XmAS_NEEDED); n++;
	XtSetArg(args[n], XmNlistSizePolicy, XmCONSTANT); n++;
	ws.list = XmCreateScrolledList(form, "sitesList", args, n);
	XtVaSetValues(ws.list, XtVaTypedArg, XmNbackground, XmRString, "#ffffff", 8, NULL);
	XtVaSetValues(XtParent(ws.list), XmNtopAttachment, XmATTACH_WIDGET,
		      XmNtopWidget, ws.title, XmNtopOffset, 4,
		      XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM,
		      XmNbottomAttachment, XmATTACH_WIDGET, XmNbottomWidget, ws.note,
		      XmNbottomOffset, 4, NULL);
	XtManageChild(ws.list);
	if (model_add_listener(&app->model, model_changed, app) < 0)
		xsg_status(app, "sites: out of memory: the window will not follow changes");
	return ws.shell;
}

int win_sites_open(struct xsg_app *app)
{
	view_once(app);
	if (ws.v.focus == SITES_NONE && app->model.cur_method >= 0)   /* something to show */
		xsg_sites_focus(app, -1, app->model.methods[app->model.cur_method].name, 0, 0, 0);
	if (!ws.shell)
		create(app);
	refresh(app);
	XtPopup(ws.shell, XtGrabNone);
	XRaiseWindow(app->dpy, XtWindow(ws.shell));
	app->current = ws.shell;
	xsg_status(app, "%s", ws.v.status);
	return 0;
}

Widget win_sites_shell(void)
{
	return ws.shell;
}

/* Refreshes and reports in the status line (the commands). */
static int refresh_status(struct xsg_app *app)
{
	int rc = refresh(app);

	xsg_status(app, "%s", ws.v.status);
	return rc;
}

/* sites-resize:WxH — the window to W x H pixels (screenshots at a laptop's size) */
int xsg_cmd_sites_resize(struct xsg_app *app, const char *arg)
{
	int w, h;

	if (sscanf(arg, "%dx%d", &w, &h) != 2 || w < 200 || h < 150)
		return -EINVAL;
	win_sites_open(app);
	XtVaSetValues(ws.shell, XmNwidth, w, XmNheight, h, NULL);
	XSync(app->dpy, False);
	while (XtAppPending(app->ctx))
		XtAppProcessEvent(app->ctx, XtIMAll);
	return 0;
}

int xsg_cmd_sites_source(struct xsg_app *app, const char *arg)
{
	int k = sites_source_find(arg);

	view_once(app);
	if (k < 0) {
		xsg_status(app, "sites-source: \"%s\" is not a synchronization source (IT_barrier "
			   "PT_barrier IT_lock PT_lock IT_cond IT_sem PT_sem IT_join PT_thread)", arg);
		return -EINVAL;
	}
	ws.v.source = (enum model_metric)k;
	refresh_status(app);
	return 0;
}

int xsg_cmd_sites_point(struct xsg_app *app, const char *arg)
{
	char method[96];
	const char *comma = strrchr(arg, ',');
	char *end;
	long n = 0;

	view_once(app);
	if (comma) {
		n = strtol(comma + 1, &end, 10);
		if (*end || n <= 0 || comma == arg) {
			xsg_status(app, "sites-point: \"%s\" is not METHOD,N", arg);
			return -EINVAL;
		}
	}
	snprintf(method, sizeof(method), "%.*s", comma ? (int)(comma - arg) : (int)strlen(arg),
		 arg);
	if (model_method_find(&app->model, method) < 0 && strcmp(method, "time-bound") &&
	    strcmp(method, "e-conserved") && strcmp(method, "memory-bound")) {
		xsg_status(app, "sites-point: no method \"%s\"", method);
		return -ENOENT;
	}
	xsg_sites_focus(app, -1, method, (int)n, 0, 0);
	refresh_status(app);   /* no store, no trace: the window says why */
	return 0;
}

int xsg_cmd_sites_cell(struct xsg_app *app, const char *arg)
{
	int n, n2;

	if (sscanf(arg, "%d,%d", &n, &n2) != 2 || n <= 0 || n2 <= n) {
		xsg_status(app, "sites-cell: \"%s\" is not N,N2 with N < N2", arg);
		return -EINVAL;
	}
	xsg_sites_focus(app, -1, NULL, n, n2, 0);
	refresh_status(app);
	return 0;
}

int xsg_cmd_sites_run(struct xsg_app *app, const char *arg)
{
	if (!app->timeline.run) {
		xsg_status(app, "sites-run: no run open in the timeline (timeline-run:ID first)");
		return -ENOENT;
	}
	xsg_sites_focus(app, -1, NULL, 0, 0, app->timeline.run_id ? app->timeline.run_id : -1);
	return refresh_status(app);
}

/* test hook: what the Point chooser shows (its current entry's label) and what the list is
 * about, in the status line */
int xsg_cmd_sites_chooser(struct xsg_app *app, const char *arg)
{
	Widget cur = NULL;
	XmString xs = NULL;
	char *text = NULL;

	if (!ws.shell || !ws.point_option) {
		xsg_status(app, "sites-chooser: the call sites window is not open");
		return -ENOENT;
	}
	XtVaGetValues(ws.point_option, XmNmenuHistory, &cur, NULL);
	if (cur)
		XtVaGetValues(cur, XmNlabelString, &xs, NULL);
	if (xs)
		text = (char *)XmStringUnparse(xs, NULL, XmCHARSET_TEXT, XmCHARSET_TEXT, NULL, 0,
					       XmOUTPUT_ALL);
	xsg_status(app, "sites: the Point chooser shows \"%s\"; the list: %s", text ? text : "",
		   ws.v.title);
	XtFree(text);
	if (xs)
		XmStringFree(xs);
	return 0;
}

int xsg_cmd_sites_export(struct xsg_app *app, const char *arg)
{
	struct out_file of;
	char err[4200];
	int rc;

	view_once(app);
	refresh(app);
	if ((rc = out_file_open(&of, arg, OUT_MODE_SHARED, err, sizeof(err))) < 0) {
		xsg_status(app, "sites-export: %s", err);
		return rc;
	}
	if ((rc = sites_view_write(&ws.v, of.f)) < 0) {
		out_file_abort(&of);
		xsg_status(app, "sites-export: %s: write failed", arg);
		return rc;
	}
	if ((rc = out_file_commit(&of, 1, err, sizeof(err))) < 0)
		xsg_status(app, "sites-export: %s", err);
	else
		xsg_status(app, "sites: list written to %s", arg);
	return rc;
}
