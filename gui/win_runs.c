/*
 * win_runs.c — the run list of the main window (window 1, below the browser drawing): every run
 * of the experiment with its id, method, N, sizes, repetition and status, refilled when the
 * model changes (live monitor). Selecting a row selects the run in the model (model_select_run,
 * the command run-select:ID); a double-click opens it in the run timeline (window 9). A label
 * above the list says so.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Label.h>
#include <Xm/List.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Widget list;   /* one main window per app */

static void select_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = client;
	XmListCallbackStruct *cbs = call;
	int k = cbs->item_position - 1;
	char cmd[64];

	if (k < 0 || (size_t)k >= app->model.n_runs)
		return;
	snprintf(cmd, sizeof(cmd), "run-select:%lld", app->model.runs[k].id);
	if (app->model.runs[k].id > 0)
		xsg_command(app, cmd);
	else
		model_select_run(&app->model, k);
}

static void default_cb(Widget w, XtPointer client, XtPointer call)
{
	select_cb(w, client, call);
	xsg_command(client, "timeline-run:selected");
}

static void fill(struct xsg_app *app)
{
	const struct model *m = &app->model;
	XmString *items;
	char line[512];
	size_t i;

	XmListDeleteAllItems(list);
	if (!(items = calloc(m->n_runs + 1, sizeof(*items))))
		return;
	for (i = 0; i < m->n_runs; i++) {
		const struct model_run *r = &m->runs[i];
		snprintf(line, sizeof(line), "run %-4lld %-14s %-5s N=%-3d %-28s rep %d  %s%s%s",
			 r->id, r->method, r->seq ? "seq" : "", r->n, r->sizes[0] ? r->sizes : "-", r->rep,
			 model_run_status_name(r->status), r->reason[0] ? ": " : "", r->reason);
		items[i] = XmStringCreateLocalized(line);
	}
	XmListAddItemsUnselected(list, items, (int)m->n_runs, 1);
	for (i = 0; i < m->n_runs; i++)
		XmStringFree(items[i]);
	free(items);
	if (m->sel_run >= 0)
		XmListSelectPos(list, m->sel_run + 1, False);
}

static void model_changed(struct model *m, unsigned what, void *arg)
{
	struct xsg_app *app = arg;

	if (what & MODEL_CHANGED_DATA)
		fill(app);
	else if (what & MODEL_CHANGED_RUN && m->sel_run >= 0) {
		XmListSelectPos(list, m->sel_run + 1, False);
		XmListSetBottomPos(list, m->sel_run + 1);
	}
}

Widget win_runs_create(struct xsg_app *app, Widget form, Widget below)
{
	Arg args[8];
	Cardinal n = 0;

	XtSetArg(args[n], XmNvisibleItemCount, 6); n++;
	XtSetArg(args[n], XmNselectionPolicy, XmBROWSE_SELECT); n++;
	XtSetArg(args[n], XmNscrollBarDisplayPolicy, XmSTATIC); n++;
	list = XmCreateScrolledList(form, "runList", args, n);
	XtVaSetValues(XtParent(list), XmNleftAttachment, XmATTACH_FORM,
		      XmNrightAttachment, XmATTACH_FORM, XmNbottomAttachment, XmATTACH_WIDGET,
		      XmNbottomWidget, below, NULL);
	XtAddCallback(list, XmNbrowseSelectionCallback, select_cb, app);
	XtAddCallback(list, XmNdefaultActionCallback, default_cb, app);
	XtManageChild(list);
	if (model_add_listener(&app->model, model_changed, app) < 0)
		xsg_status(app, "run list: out of memory: it will not follow changes");
	return XtVaCreateManagedWidget("Runs: select one for View > 9 Run timeline (Ctrl+9), or "
				       "double-click it", xmLabelWidgetClass, form,
				       XmNleftAttachment, XmATTACH_FORM, XmNmarginWidth, 6,
				       XmNbottomAttachment, XmATTACH_WIDGET,
				       XmNbottomWidget, XtParent(list), NULL);
}

int xsg_cmd_run_select(struct xsg_app *app, const char *arg)
{
	char *end;
	long long id = strtoll(arg, &end, 10);
	int k = *end ? -1 : timeline_run_by_id(&app->model, id);
	const struct model_run *r;

	if (k < 0) {
		xsg_status(app, "run-select: no run \"%s\"", arg);
		return -ENOENT;
	}
	model_select_run(&app->model, k);
	r = &app->model.runs[k];
	xsg_status(app, "run %lld selected (%s N=%d %s, %s): View > 9 Run timeline or a "
		   "double-click shows its threads", r->id, r->method, r->n, r->sizes,
		   model_run_status_name(r->status));
	return 0;
}
