/*
 * win_runs.c — the run list of the main window (window 1, below the browser drawing): every run
 * of the experiment with its id, method, N, W, sizes, repetition, status and wall time, sorted
 * by any of them (runs-sort:KEY, the "Sort" buttons above it; the same key again reverses),
 * scrolled by the mouse wheel (runs-scroll:LINES). Selecting a row selects the run in the model
 * (run-select:ID) and shows it whole in the detail pane below the list: a failed run's reason
 * and the last lines of its stderr (as `scalegraph report` prints them), an interrupted run's
 * runner. A double-click opens it in the run timeline (window 9).
 *
 * The list follows the model (live monitor): a reload keeps the selected run and the row at
 * the top of the list by their run ids, so that the list does not jump while runs arrive.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/List.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>
#include <Xm/Text.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sort_key { SORT_ID, SORT_METHOD, SORT_N, SORT_W, SORT_STATUS, SORT_TIME, SORT_COUNT };
static const char *const sort_names[SORT_COUNT] = { "id", "method", "n", "w", "status", "time" };
static const char *const sort_labels[SORT_COUNT] = { "id", "method", "N", "W", "status", "time" };

/* One main window per app: the list and its order live here. */
static Widget list;
static size_t *order;          /* order[row] = index into model.runs */
static size_t n_order;
static enum sort_key key = SORT_ID;
static int descending;
static const struct model *sort_model;   /* for the comparator */

static int cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);    /* unknown last */
	return (a > b) - (a < b);
}

static int cmp_runs(const void *pa, const void *pb)
{
	const struct model_run *a = &sort_model->runs[*(const size_t *)pa];
	const struct model_run *b = &sort_model->runs[*(const size_t *)pb];
	int c = 0;

	switch (key) {
	case SORT_METHOD: c = strcmp(a->method, b->method); break;
	case SORT_N: c = (a->n > b->n) - (a->n < b->n); break;
	case SORT_W: c = cmp_num(a->w, b->w); break;
	case SORT_STATUS:
		c = strcmp(model_run_status_name(a->status), model_run_status_name(b->status));
		break;
	case SORT_TIME: c = cmp_num(a->t_s, b->t_s); break;
	default: break;
	}
	if (descending)
		c = -c;
	if (!c)   /* ties (and the id key) by id, so the order is total and stable */
		c = descending && key == SORT_ID ? (a->id < b->id) - (a->id > b->id)
						 : (a->id > b->id) - (a->id < b->id);
	if (!c)
		c = (*(const size_t *)pa > *(const size_t *)pb) - (*(const size_t *)pa < *(const size_t *)pb);
	return c;
}

/* The row of model run k, 0-based; -1 when not listed. */
static int row_of(size_t k)
{
	size_t i;

	for (i = 0; i < n_order; i++)
		if (order[i] == k)
			return (int)i;
	return -1;
}

/* The point run r is a repetition of (its method, N and W), or NULL (a sequential run, a
 * search's probe at another size). */
static const struct model_point *run_point(const struct model *m, const struct model_run *r)
{
	size_t i, j;

	if (r->seq)
		return NULL;
	for (i = 0; i < m->n_methods; i++) {
		const struct model_method *me = &m->methods[i];
		if (me->exp != 0 || strcmp(me->name, r->method))
			continue;
		for (j = 0; j < me->n_pts; j++)
			if (me->pts[j].n == r->n && fabs(me->pts[j].w - r->w) <= 1e-9 * fabs(r->w))
				return &me->pts[j];
	}
	return NULL;
}

/* What the run's report says of it beside its figures, as lines for the detail pane: its tracing
 * cost (`scalegraph report STORE/runs/<id>`'s line, with the mark's words when above it) and
 * whether it was oversubscribed (its N above the CPUs). */
static void run_flags_text(char *buf, size_t len, const struct model *m, const struct model_run *r)
{
	char c[32];
	int n = 0;

	buf[0] = '\0';
	if (!r->trace_share.why && !r->trace_cost.why && m->cost_mark > 0) {
		plot_format_seconds(c, sizeof(c), r->trace_cost.v);
		n = snprintf(buf, len, "\ntracing cost: %.1f %% of N\xc2\xb7T_para (%s)",
			     100 * r->trace_share.v, c);
		if (r->cost_marked && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ": above %.0f %%, the latency sources "
				      "hold that much of the library's own time (report: ! on its "
				      "point's sources)", 100 * m->cost_mark);
	}
	if (r->oversubscribed && n >= 0 && (size_t)n < len) {
		if (m->n_cpus > 0)
			n += snprintf(buf + n, len - (size_t)n, "\noversubscribed: N = %d threads on %d "
				      "CPUs (report: oversub yes)", r->n, m->n_cpus);
		else
			n += snprintf(buf + n, len - (size_t)n, "\noversubscribed: N above the CPUs "
				      "(report: oversub yes)");
	}
	/* its point's distortion measured against the plain build (issue 21), the report's line,
	 * and why the point is marked */
	const struct model_point *pt = run_point(m, r);
	if (pt && pt->ovh_text && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, "\nat its point, %s", pt->ovh_text);
	if (pt && pt->ovh_why && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "\n\xe2\x89\xa0 %s", pt->ovh_why);
}

/* The report's marks of a run as a short column of the run list: "!" (tracing cost above the
 * mark) and "oversub". */
static const char *run_marks(const struct model *m, const struct model_run *r)
{
	int cost = r->cost_marked && m->cost_mark > 0;
	const struct model_point *pt = run_point(m, r);

	if (pt && pt->ovh_marked)   /* its point's measured and estimated overhead disagree */
		return cost && r->oversubscribed ? "! \xe2\x89\xa0 oversub" : cost ? "! \xe2\x89\xa0"
		       : r->oversubscribed ? "\xe2\x89\xa0 oversub" : "\xe2\x89\xa0";
	return cost && r->oversubscribed ? "! oversub" : cost ? "!" : r->oversubscribed ? "oversub" : "";
}

static void show_details(struct xsg_app *app, int k)
{
	const struct model_run *r;
	char t[32] = "", flags[2000];

	if (k < 0 || (size_t)k >= app->model.n_runs)
		return;
	r = &app->model.runs[k];
	if (!isnan(r->t_s) && r->t_s > 0) {
		char sec[24];
		plot_format_seconds(sec, sizeof(sec), r->t_s);
		snprintf(t, sizeof(t), ", %s wall", sec);
	}
	run_flags_text(flags, sizeof(flags), &app->model, r);
	xsg_details(app, "run %lld: %s%s N=%d%s%s rep %d: %s%s%s%s%s%s%s%s", r->id, r->method,
		    r->seq ? " (sequential program)" : "", r->n, r->sizes[0] ? " " : "", r->sizes,
		    r->rep, model_run_status_name(r->status), r->reason[0] ? " (" : "", r->reason,
		    r->reason[0] ? ")" : "", t, flags, r->stderr_tail[0] ? "\nits stderr ends:\n" : "",
		    r->stderr_tail);
}

/* An experiment whose every run failed or was interrupted says so where its runs are listed
 * (its plots have nothing to draw). */
static void no_measurement(struct xsg_app *app)
{
	size_t i, bad = 0;

	for (i = 0; i < app->model.n_runs; i++)
		bad += app->model.runs[i].status == MODEL_RUN_FAILED ||
		       app->model.runs[i].status == MODEL_RUN_INTERRUPTED;
	if (app->model.n_runs && bad == app->model.n_runs)
		xsg_details(app, "No run of this experiment gave a measurement: all %zu failed or "
			    "were interrupted, so the plots are empty. Select a run for its reason and "
			    "the end of its stderr.", bad);
	else
		xsg_details(app, "%s", "");
}

static void select_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = client;
	XmListCallbackStruct *cbs = call;
	int row = cbs->item_position - 1;
	size_t k;
	char cmd[64];

	if (row < 0 || (size_t)row >= n_order)
		return;
	k = order[row];
	snprintf(cmd, sizeof(cmd), "run-select:%lld", app->model.runs[k].id);
	if (app->model.runs[k].id > 0)
		xsg_command(app, cmd);
	else
		model_select_run(&app->model, (int)k);
	show_details(app, (int)k);
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
	char line[512], wbuf[32], tbuf[32];
	int row, w_method = 6, w_sizes = 5, w_marks = 0;
	size_t i, *o;

	XmListDeleteAllItems(list);
	if (!(o = realloc(order, (m->n_runs + 1) * sizeof(*o))))
		return;
	order = o;
	n_order = m->n_runs;
	for (i = 0; i < n_order; i++)
		order[i] = i;
	sort_model = m;
	qsort(order, n_order, sizeof(*order), cmp_runs);
	if (!(items = calloc(n_order + 1, sizeof(*items))))
		return;
	/* columns as wide as their widest entry (a narrow window shows more of each row) */
	for (i = 0; i < n_order; i++) {
		const struct model_run *r = &m->runs[i];
		size_t sl = strlen(r->sizes[0] ? r->sizes : "-");
		w_method = (int)fmax(w_method, fmin((double)strlen(r->method), 13));
		w_sizes = (int)fmax(w_sizes, fmin((double)sl, 24));
		w_marks = (int)fmax(w_marks, (double)strlen(run_marks(m, r)));
	}
	for (i = 0; i < n_order; i++) {
		const struct model_run *r = &m->runs[order[i]];
		if (isnan(r->w))
			snprintf(wbuf, sizeof(wbuf), "-");
		else
			plot_format_si(wbuf, sizeof(wbuf), r->w);
		if (isnan(r->t_s) || r->t_s <= 0)
			snprintf(tbuf, sizeof(tbuf), "-");
		else
			plot_format_seconds(tbuf, sizeof(tbuf), r->t_s);
		/* the report's marks beside N (what they are about), where a narrow window shows
		 * them */
		snprintf(line, sizeof(line),
			 "run %-4lld %-*s %-3s N=%-3d %-*s%sW=%-6s %-*s rep %-2d %-11s %9s%s%s",
			 r->id, w_method, r->method, r->seq ? "seq" : "", r->n, w_marks, run_marks(m, r),
			 w_marks ? " " : "", wbuf, w_sizes, r->sizes[0] ? r->sizes : "-", r->rep,
			 model_run_status_name(r->status), tbuf, r->reason[0] ? "  " : "", r->reason);
		items[i] = XmStringCreateLocalized(line);
	}
	XmListAddItemsUnselected(list, items, (int)n_order, 1);
	for (i = 0; i < n_order; i++)
		XmStringFree(items[i]);
	free(items);
	if (m->sel_run >= 0 && (row = row_of((size_t)m->sel_run)) >= 0)
		XmListSelectPos(list, row + 1, False);
}

/* Run id at the top of the list (0: empty), from the current model and order. */
static long long top_run_id(const struct model *m)
{
	int top = 0;

	XtVaGetValues(list, XmNtopItemPosition, &top, NULL);
	if (top < 1 || (size_t)top > n_order || order[top - 1] >= m->n_runs)
		return 0;
	return m->runs[order[top - 1]].id;
}

static void set_top_id(const struct model *m, long long id)
{
	size_t i;

	for (i = 0; id && i < n_order; i++)
		if (m->runs[order[i]].id == id) {
			XmListSetPos(list, (int)i + 1);
			return;
		}
}

static long long kept_top;   /* the top row's run id, taken before a reload swaps the model */
static int filling;          /* the list is being refilled: its scroll bar moves by itself */

static void model_changed(struct model *m, unsigned what, void *arg)
{
	struct xsg_app *app = arg;
	int row;

	if (what & MODEL_CHANGED_DATA) {
		long long top = kept_top;   /* the refill moves the scroll bar (scroll_cb) */
		filling = 1;
		fill(app);
		set_top_id(m, top);
		filling = 0;
		if (m->sel_run >= 0)
			show_details(app, m->sel_run);
		else
			no_measurement(app);
	} else if (what & MODEL_CHANGED_RUN && m->sel_run >= 0 &&
		   (row = row_of((size_t)m->sel_run)) >= 0) {
		int top = 0, visible = 0;
		XmListSelectPos(list, row + 1, False);
		XtVaGetValues(list, XmNtopItemPosition, &top, XmNvisibleItemCount, &visible, NULL);
		if (row + 1 < top || row + 1 >= top + visible)
			XmListSetBottomPos(list, row + 1);
	}
	kept_top = top_run_id(m);
}

/* The list's top row before the model is replaced: the reload calls the listeners of the new
 * model, whose indices the old order does not describe — so the top is kept by run id on every
 * scroll and change instead (kept_top), read here by the wheel and the scroll bar. */
static void scrolled(struct xsg_app *app)
{
	kept_top = top_run_id(&app->model);
}

static void scroll_cb(Widget w, XtPointer client, XtPointer call)
{
	if (!filling)
		scrolled(client);
}

int xsg_cmd_runs_scroll(struct xsg_app *app, const char *arg)
{
	int top = 0, visible = 0, n = (int)strtol(arg ? arg : "0", NULL, 10), sel;
	int *pos = NULL, npos = 0;

	XtVaGetValues(list, XmNtopItemPosition, &top, XmNvisibleItemCount, &visible, NULL);
	top += n;
	if (top > (int)n_order - visible + 1)
		top = (int)n_order - visible + 1;
	if (top < 1)
		top = 1;
	if (n)
		XmListSetPos(list, top);
	scrolled(app);
	sel = XmListGetSelectedPos(list, &pos, &npos) && npos > 0 ? pos[0] : 0;
	XtFree((char *)pos);
	xsg_status(app, "run list: rows %d-%d of %zu, top run %lld, selected run %lld", top,
		   top + visible - 1 < (int)n_order ? top + visible - 1 : (int)n_order, n_order,
		   kept_top, sel > 0 && (size_t)sel <= n_order ?
		   app->model.runs[order[sel - 1]].id : 0LL);
	return 0;
}

/* The mouse wheel (buttons 4 and 5) scrolls the list three rows a notch: the list's own
 * translations do it once it has a fixed size (XmNlistSizePolicy XmCONSTANT; it did not
 * before). The top row is noted after Motif has moved it. */
static void wheel_done(XtPointer client, XtIntervalId *id)
{
	scrolled(client);
}

static void wheel_cb(Widget w, XtPointer client, XEvent *ev, Boolean *cont)
{
	struct xsg_app *app = client;

	if (ev->type == ButtonPress && (ev->xbutton.button == Button4 || ev->xbutton.button == Button5))
		XtAppAddTimeOut(app->ctx, 0, wheel_done, app);
}

int xsg_cmd_runs_sort(struct xsg_app *app, const char *arg)
{
	char name[32];
	size_t len = arg ? strlen(arg) : 0;
	int k, desc = len > 0 && arg[len - 1] == '-';
	long long sel = app->model.sel_run >= 0 ? app->model.runs[app->model.sel_run].id : 0;

	snprintf(name, sizeof(name), "%.*s", (int)(desc ? len - 1 : len), arg ? arg : "");
	for (k = 0; k < SORT_COUNT; k++)
		if (strcasecmp(name, sort_names[k]) == 0)
			break;
	if (k == SORT_COUNT) {
		xsg_status(app, "runs-sort: no key \"%s\" (id, method, n, w, status, time; a "
			   "trailing - sorts descending)", name);
		return -ENOENT;
	}
	key = (enum sort_key)k;
	descending = desc;
	fill(app);
	if (sel && app->model.sel_run >= 0)
		XmListSetBottomPos(list, row_of((size_t)app->model.sel_run) + 1);
	else
		XmListSetPos(list, 1);
	scrolled(app);
	xsg_status(app, "run list sorted by %s%s", sort_labels[k], desc ? ", descending" : "");
	return 0;
}

/* A sort button: its key; pressing the current key again reverses the order. */
static void sort_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = NULL;
	char cmd[32];
	int k = (int)(long)client;

	XtVaGetValues(w, XmNuserData, &app, NULL);
	snprintf(cmd, sizeof(cmd), "runs-sort:%s%s", sort_names[k],
		 (enum sort_key)k == key && !descending ? "-" : "");
	xsg_command(app, cmd);
}

void xsg_details(struct xsg_app *app, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (getenv("SG_GUI_ECHO_STATUS"))
		printf("details: %s\n", buf);
	if (!app->details)
		return;
	XmTextSetString(app->details, buf);
	XmTextSetInsertionPosition(app->details, 0);
}

Widget win_runs_create(struct xsg_app *app, Widget form, Widget below)
{
	Arg args[8];
	Cardinal n = 0;
	Widget row, label, sw;
	int k;

	/* the detail pane: the selected run whole, a failed runner's message */
	n = 0;
	XtSetArg(args[n], XmNeditMode, XmMULTI_LINE_EDIT); n++;
	XtSetArg(args[n], XmNeditable, False); n++;
	XtSetArg(args[n], XmNrows, 3); n++;
	XtSetArg(args[n], XmNwordWrap, True); n++;
	XtSetArg(args[n], XmNscrollHorizontal, False); n++;
	XtSetArg(args[n], XmNcursorPositionVisible, False); n++;
	app->details = XmCreateScrolledText(form, "runDetails", args, n);
	XtVaSetValues(XtParent(app->details), XmNleftAttachment, XmATTACH_FORM,
		      XmNrightAttachment, XmATTACH_FORM, XmNbottomAttachment, XmATTACH_WIDGET,
		      XmNbottomWidget, below, NULL);
	XtManageChild(app->details);

	n = 0;
	XtSetArg(args[n], XmNvisibleItemCount, 6); n++;
	XtSetArg(args[n], XmNselectionPolicy, XmBROWSE_SELECT); n++;
	XtSetArg(args[n], XmNscrollBarDisplayPolicy, XmSTATIC); n++;
	XtSetArg(args[n], XmNlistSizePolicy, XmCONSTANT); n++;   /* wide rows: a scroll bar */
	list = XmCreateScrolledList(form, "runList", args, n);
	sw = XtParent(list);
	XtVaSetValues(sw, XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM,
		      XmNbottomAttachment, XmATTACH_WIDGET, XmNbottomWidget, XtParent(app->details),
		      NULL);
	XtAddCallback(list, XmNbrowseSelectionCallback, select_cb, app);
	XtAddCallback(list, XmNdefaultActionCallback, default_cb, app);
	XtAddEventHandler(list, ButtonPressMask, False, wheel_cb, app);
	{
		Widget vsb = NULL;
		XtVaGetValues(sw, XmNverticalScrollBar, &vsb, NULL);
		if (vsb) {
			XtAddCallback(vsb, XmNvalueChangedCallback, scroll_cb, app);
			XtAddCallback(vsb, XmNdragCallback, scroll_cb, app);
			XtAddEventHandler(vsb, ButtonPressMask, False, wheel_cb, app);
		}
	}
	XtManageChild(list);
	if (model_add_listener(&app->model, model_changed, app) < 0)
		xsg_status(app, "run list: out of memory: it will not follow changes");

	/* the header: what the list is for, and its sort keys */
	row = XtVaCreateManagedWidget("runHeader", xmFormWidgetClass, form,
				      XmNleftAttachment, XmATTACH_FORM,
				      XmNrightAttachment, XmATTACH_FORM,
				      XmNbottomAttachment, XmATTACH_WIDGET, XmNbottomWidget, sw, NULL);
	/* short, so that the sort buttons beside it fit an 800 px window; the rest is its tip */
	label = XtVaCreateManagedWidget("Runs (double-click: timeline)", xmLabelWidgetClass, row,
					XmNleftAttachment, XmATTACH_FORM, XmNmarginWidth, 6,
					XmNtopAttachment, XmATTACH_FORM,
					XmNbottomAttachment, XmATTACH_FORM, NULL);
	{
		Widget rc = XtVaCreateManagedWidget("sortRow", xmRowColumnWidgetClass, row,
						    XmNorientation, XmHORIZONTAL,
						    XmNpacking, XmPACK_TIGHT, XmNmarginHeight, 0,
						    XmNspacing, 2, XmNrightAttachment, XmATTACH_FORM,
						    XmNtopAttachment, XmATTACH_FORM,
						    XmNbottomAttachment, XmATTACH_FORM, NULL);
		XtVaCreateManagedWidget("Sort:", xmLabelWidgetClass, rc, NULL);
		for (k = 0; k < SORT_COUNT; k++) {
			Widget b = XtVaCreateManagedWidget(sort_labels[k], xmPushButtonWidgetClass, rc,
							   XmNuserData, (XtPointer)app,
							   XmNmarginHeight, 1, NULL);
			XtAddCallback(b, XmNactivateCallback, sort_cb, (XtPointer)(long)k);
		}
		XmString tip = XmStringCreateLocalized("Select a run: its details below; View > 9 Run "
						       "timeline or a double-click shows its threads");
		XtVaSetValues(label, XmNtoolTipString, tip, NULL);
		XmStringFree(tip);
	}
	return row;
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
	show_details(app, k);
	xsg_status(app, "run %lld selected (%s N=%d%s%s, %s): View > 9 Run timeline or a "
		   "double-click shows its threads", r->id, r->method, r->n, r->sizes[0] ? " " : "",
		   r->sizes, model_run_status_name(r->status));
	return 0;
}
