/*
 * win_matrix.c — window 8's widgets beyond the drawing: under it the readout of the selected cell
 * (the analyzer's text for each of the three values: formula, the operands it divided, the runs
 * behind them, what the flags mean — what `scalegraph report --matrix` prints) and the list of
 * those runs, each opening in the timeline (window 9) on a double-click; over the drawing, the
 * value under the pointer (a tip in the drawing and the status line). The selection's experiment
 * and the hover live in a struct view_matrix_state the drawing reads (view_matrix_set_state).
 * One matrix window per application, as one timeline window.
 */
#include "xsg.h"
#include "outfile.h"
#include "view_matrix.h"

#include <Xm/Xm.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/List.h>
#include <Xm/Text.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the readout and the run list: more on a taller screen (each row ~17 px, labels and
 * margins ~70 px), and the drawing gets the rest of 90 % of the screen. */
#define READOUT_ROWS(sh) ((sh) >= 1000 ? 10 : (sh) >= 760 ? 6 : 5)
#define LIST_ROWS(sh) ((sh) >= 1000 ? 5 : 3)
#define READOUT_H(sh) (70 + 17 * (READOUT_ROWS(sh) + LIST_ROWS(sh)))

struct list_run {
	long long id;
	int exp;           /* the experiment it is of: the timeline opens runs of 0 only */
	char label[200];
};

static struct {
	struct xsg_app *app;
	struct view_matrix_state st;
	Widget da, text, list;
	struct list_run runs[MODEL_CELL_MAX_RUNS];
	int n_runs;
	int sel_n, sel_n2;     /* the selected cell by its N and N' (0: none): indices into the
				  N of the matrix change when a reload brings a new N */
} wm = { .st = { .hover_k = -1 } };

/* The cell the window has selected, or NULL. */
static const struct model_cell *selected_cell(struct xsg_app *app)
{
	int ns[64];
	size_t n = view_matrix_ns(&app->model, ns, 64);
	int i = app->vctx.mat_sel_i, j = app->vctx.mat_sel_j;

	if (i < 0 || j <= i || (size_t)j >= n)
		return NULL;
	return model_cell_find(&app->model, wm.st.sel_exp, ns[i], ns[j]);
}

/* The runs behind cell c, one entry per run id (a run behind several operands says all). */
static void collect_runs(const struct model_cell *c)
{
	static const char *const short_names[3] = { "time-bound", "E-conserved", "memory-bound" };
	int r, k;

	wm.n_runs = 0;
	for (r = 0; c && r < c->n_runs; r++) {
		const struct model_cell_run *x = &c->runs[r];
		char part[80];
		for (k = 0; k < wm.n_runs && wm.runs[k].id != x->id; k++)
			;
		snprintf(part, sizeof(part), "%s N%s=%d %s", short_names[x->value],
			 x->side ? "'" : "", x->side ? c->n2 : c->n,
			 x->t_seq ? "T_seq" : "repetition");
		if (k == wm.n_runs) {
			wm.runs[wm.n_runs].id = x->id;
			wm.runs[wm.n_runs].exp = c->exp;
			snprintf(wm.runs[wm.n_runs].label, sizeof(wm.runs[0].label), "run %lld%s%s: %s",
				 x->id, c->exp ? " of " : "",
				 c->exp ? view_matrix_exp_name(&wm.app->model, c->exp) : "", part);
			wm.n_runs++;
		} else {
			size_t len = strlen(wm.runs[k].label);
			snprintf(wm.runs[k].label + len, sizeof(wm.runs[0].label) - len, ", %s", part);
		}
	}
}

/* The readout text of cell c (NULL: the hint). Caller frees. */
static char *readout_text(const struct model_cell *c)
{
	size_t len = 256, used = 0;
	char *buf;
	int k;

	for (k = 0; c && k < 3; k++)
		len += (c->explain[k] ? strlen(c->explain[k]) : 0) + 200;
	if (!(buf = malloc(len)))
		return NULL;
	if (!c && wm.app->model.n_cells == 0) {   /* no cell to click: the drawing says why */
		snprintf(buf, len, "No cell to select: this experiment has no scalability matrix "
			 "(the reason above, as scalegraph report --matrix gives it).");
		return buf;
	}
	if (!c) {
		snprintf(buf, len, "Click a cell (or matrix-select:N,N2) to see the operands of its "
			 "three values and the runs behind them.");
		return buf;
	}
	used += (size_t)snprintf(buf + used, len - used, "Cell N = %d -> N' = %d%s%s\n", c->n,
				 c->n2, c->exp ? " of " : "",
				 c->exp ? view_matrix_exp_name(&wm.app->model, c->exp) : "");
	for (k = 0; k < 3 && used < len; k++) {
		const struct model_fig *f;
		double v = view_matrix_value(c, k, &f);
		if (c->explain[k])
			used += (size_t)snprintf(buf + used, len - used, "%s\n", c->explain[k]);
		else if (isfinite(v))
			used += (size_t)snprintf(buf + used, len - used, "%s  %.4g%s (a CSV experiment "
						 "holds the values only: open its store for the "
						 "operands)\n", view_matrix_value_names[k], v,
						 view_matrix_marks(c, k));
		else
			used += (size_t)snprintf(buf + used, len - used, "%s  n/a: %s\n",
						 view_matrix_value_names[k], f->why);
	}
	if (used > 0 && used < len)
		buf[used - 1] = '\0';
	return buf;
}

/* Refills the readout and the run list from the selection (after a selection or a reload). */
void win_matrix_update(struct xsg_app *app)
{
	const struct model_cell *c = selected_cell(app);
	char *text;
	int i;

	collect_runs(c);
	if (!wm.text || !wm.list)
		return;
	if ((text = readout_text(c))) {
		XmTextSetString(wm.text, text);
		XmTextShowPosition(wm.text, 0);
		free(text);
	}
	XmListDeleteAllItems(wm.list);
	for (i = 0; i < wm.n_runs; i++) {
		char item[240];
		XmString s;
		snprintf(item, sizeof(item), "%d. %s", i + 1, wm.runs[i].label);
		s = XmStringCreateLocalized(item);
		XmListAddItemUnselected(wm.list, s, 0);
		XmStringFree(s);
	}
}

static void model_changed(struct model *m, unsigned what, void *arg)
{
	struct xsg_app *app = arg;

	if (what & MODEL_CHANGED_DATA) {
		/* a reload (the live monitor's, a new run) keeps the cell the user selected, found
		 * again by its N and N', with its readout: it runs after the plot window's listener
		 * and redraws what that one drew without it */
		int ns[64], i = -1, j = -1, had = app->vctx.mat_sel_i >= 0;
		size_t c, cnt = view_matrix_ns(m, ns, 64);
		for (c = 0; c < cnt && wm.sel_n; c++) {
			if (ns[c] == wm.sel_n)
				i = (int)c;
			if (ns[c] == wm.sel_n2)
				j = (int)c;
		}
		if (i >= 0 && j > i && model_cell_find(m, wm.st.sel_exp, wm.sel_n, wm.sel_n2)) {
			app->vctx.mat_sel_i = i;
			app->vctx.mat_sel_j = j;
		} else {
			app->vctx.mat_sel_i = app->vctx.mat_sel_j = -1;
			wm.sel_n = wm.sel_n2 = wm.st.sel_exp = 0;
		}
		if (wm.st.hover_exp > view_matrix_n_exps(m) - 1 || (size_t)wm.st.hover_j >= cnt)
			wm.st.hover_k = -1;
		win_matrix_update(app);
		if ((had || app->vctx.mat_sel_i >= 0) && app->plots[VIEW_MATRIX])
			win_plot_redraw(app->plots[VIEW_MATRIX]);
	}
}

/* One line per value for the status line: "time-bound 1.07*~ = 0.500497 s / 0.469793 s". */
static void status_values(const struct model_cell *c, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < 3 && used < len; k++) {
		const struct model_fig *f;
		double v = view_matrix_value(c, k, &f);
		const char *eq = c->explain[k] ? strstr(c->explain[k], "= ") : NULL;
		char paint[160];
		view_matrix_paint_name(v, view_matrix_marks(c, k), paint, sizeof(paint));
		if (!isfinite(v))
			used += (size_t)snprintf(buf + used, len - used, "%s%s: n/a [%s]",
						 k ? "; " : "", view_matrix_value_names[k], paint);
		else {
			char val[48];
			view_matrix_format(val, sizeof(val), v, view_matrix_marks(c, k));
			used += (size_t)snprintf(buf + used, len - used, "%s%s: %s%s%.*s [%s]",
						 k ? "; " : "", view_matrix_value_names[k], val,
						 eq ? " = L/L' = " : "",
						 eq ? (int)strcspn(eq + 2, ",\n") : 0,
						 eq ? eq + 2 : "", paint);
		}
	}
}

int win_matrix_select(struct xsg_app *app, int exp, int n, int n2)
{
	int ns[64], i = -1, j = -1;
	size_t c, cnt = view_matrix_ns(&app->model, ns, 64);
	const struct model_cell *cell = model_cell_find(&app->model, exp, n, n2);
	char msg[1000];

	for (c = 0; c < cnt; c++) {
		if (ns[c] == n)
			i = (int)c;
		if (ns[c] == n2)
			j = (int)c;
	}
	if (i < 0 || j < 0 || i >= j || !cell)
		return -ENOENT;
	app->vctx.mat_sel_i = i;
	app->vctx.mat_sel_j = j;
	wm.st.sel_exp = exp;
	wm.sel_n = n;
	wm.sel_n2 = n2;
	win_matrix_update(app);
	status_values(cell, msg, sizeof(msg));
	xsg_status(app, "cell %d -> %d%s%s: %s; %d run(s) behind it", n, n2, exp ? " of " : "",
		   exp ? view_matrix_exp_name(&app->model, exp) : "", msg, wm.n_runs);
	if (exp == 0)   /* the call-site pane reads the experiment opened: its cell's points */
		xsg_sites_focus(app, -1, NULL, n, n2, 0);
	if (app->plots[VIEW_MATRIX])
		win_plot_redraw(app->plots[VIEW_MATRIX]);
	return 0;
}

int xsg_cmd_matrix_run(struct xsg_app *app, const char *arg)
{
	char *end, cmd[64];
	long k = strtol(arg, &end, 10);

	if (*end || k < 1 || k > wm.n_runs) {
		xsg_status(app, "matrix-run: no run %s in the readout's list (1..%d; select a cell "
			   "first)", arg, wm.n_runs);
		return -ENOENT;
	}
	if (wm.list)
		XmListSelectPos(wm.list, (int)k, False);
	if (wm.runs[k - 1].exp) {
		/* run ids are per store, and the timeline reads the experiment opened first */
		xsg_status(app, "matrix-run: run %lld is of %s; the timeline shows runs of %s, the "
			   "experiment opened first: open %s itself to see it", wm.runs[k - 1].id,
			   view_matrix_exp_name(&app->model, wm.runs[k - 1].exp),
			   view_matrix_exp_name(&app->model, 0),
			   view_matrix_exp_name(&app->model, wm.runs[k - 1].exp));
		return -EXDEV;
	}
	snprintf(cmd, sizeof(cmd), "timeline-run:%lld", wm.runs[k - 1].id);
	return xsg_command(app, cmd);
}

static void list_activate_cb(Widget w, XtPointer client, XtPointer call)
{
	XmListCallbackStruct *cbs = call;
	char cmd[32];

	snprintf(cmd, sizeof(cmd), "matrix-run:%d", cbs->item_position);
	xsg_command(wm.app, cmd);
}

/* The value under (x, y) becomes the hovered one; says it in the status line. Returns 1 when
 * the hovered value changed (the drawing shows its tip). */
static int hover_at(struct xsg_app *app, int x, int y, int say)
{
	struct view_matrix_hit hit;
	Dimension w = 0, h = 0;
	int on, changed;

	if (!wm.da)
		return 0;
	XtVaGetValues(wm.da, XmNwidth, &w, XmNheight, &h, NULL);
	on = view_matrix_hit_value(&app->vctx, w, h, x, y, &hit);
	changed = on ? wm.st.hover_k != hit.k || wm.st.hover_exp != hit.exp ||
		       wm.st.hover_i != hit.i || wm.st.hover_j != hit.j
		     : wm.st.hover_k >= 0;
	wm.st.hover_x = x;
	wm.st.hover_y = y;
	if (!on) {
		wm.st.hover_k = -1;
		if (say)
			xsg_status(app, "matrix: no value at %d,%d", x, y);
		return changed;
	}
	wm.st.hover_exp = hit.exp;
	wm.st.hover_i = hit.i;
	wm.st.hover_j = hit.j;
	wm.st.hover_k = hit.k;
	if (changed || say) {
		const struct model_cell *c = model_cell_find(&app->model, hit.exp, hit.n, hit.n2);
		const struct model_fig *f;
		double v = view_matrix_value(c, hit.k, &f);
		char paint[160], val[48], line[400] = "";
		view_matrix_paint_name(v, view_matrix_marks(c, hit.k), paint, sizeof(paint));
		if (isfinite(v))
			snprintf(val, sizeof(val), "%.4g%s", v, view_matrix_marks(c, hit.k));
		else
			snprintf(val, sizeof(val), "n/a");
		if (c->explain[hit.k])
			snprintf(line, sizeof(line), ": %.*s", (int)strcspn(c->explain[hit.k], "\n"),
				 c->explain[hit.k]);
		else if (f->why)
			snprintf(line, sizeof(line), ": %s", f->why);
		xsg_status(app, "hover %s%s%d -> %d %s %s, drawn %s%s", hit.exp ? view_matrix_exp_name(
			   &app->model, hit.exp) : "", hit.exp ? " " : "", hit.n, hit.n2,
			   view_matrix_value_names[hit.k], val, paint, line);
	}
	return changed;
}

int xsg_cmd_matrix_hover(struct xsg_app *app, const char *arg)
{
	int x, y;

	if (sscanf(arg, "%d,%d", &x, &y) != 2)
		return -EINVAL;
	if (xsg_open(app, "matrix") < 0)
		return -ENOENT;
	hover_at(app, x, y, 1);
	win_plot_redraw(app->plots[VIEW_MATRIX]);
	return 0;
}

/* test hook: where value K of cell N -> N2 (of experiment EXP) is drawn, "matrix-where:N,N2,K[,EXP]" */
int xsg_cmd_matrix_where(struct xsg_app *app, const char *arg)
{
	int n, n2, k, exp = 0, x, y, found = 0;
	Dimension w = 0, h = 0;
	struct view_matrix_hit hit;

	if (sscanf(arg, "%d,%d,%d,%d", &n, &n2, &k, &exp) < 3)
		return -EINVAL;
	if (xsg_open(app, "matrix") < 0 || !wm.da)
		return -ENOENT;
	XtVaGetValues(wm.da, XmNwidth, &w, XmNheight, &h, NULL);
	/* scan the drawing on a grid: the layout is the view's, not repeated here */
	for (y = 2; y < h && !found; y += 3)
		for (x = 2; x < w && !found; x += 3)
			found = view_matrix_hit_value(&app->vctx, w, h, x, y, &hit) && hit.n == n &&
				hit.n2 == n2 && hit.k == k && hit.exp == exp;
	if (!found) {
		xsg_status(app, "matrix-where: no value %d of cell %d -> %d", k, n, n2);
		return -ENOENT;
	}
	/* the centre of that value: step on until it ends */
	{
		int x0 = x - 3, y0 = y - 3, x1 = x0, y1 = y0;
		while (x1 + 1 < w && view_matrix_hit_value(&app->vctx, w, h, x1 + 1, y0, &hit) &&
		       hit.n == n && hit.n2 == n2 && hit.k == k && hit.exp == exp)
			x1++;
		while (y1 + 1 < h && view_matrix_hit_value(&app->vctx, w, h, x0, y1 + 1, &hit) &&
		       hit.n == n && hit.n2 == n2 && hit.k == k && hit.exp == exp)
			y1++;
		xsg_status(app, "matrix-where: %d -> %d value %d at %d,%d", n, n2, k, (x0 + x1) / 2,
			   (y0 + y1) / 2);
	}
	return 0;
}

/* test hook: the readout and the run list as the widgets hold them, to a file */
int xsg_cmd_matrix_readout(struct xsg_app *app, const char *arg)
{
	struct out_file of;
	char *text, err[4200];
	int i, rc;

	if (!wm.text) {
		xsg_status(app, "matrix-readout: the matrix window is not open");
		return -ENOENT;
	}
	if ((rc = out_file_open(&of, arg, OUT_MODE_SHARED, err, sizeof(err))) < 0) {
		xsg_error(app, "%s (the readout is not written)", err);
		return rc;
	}
	text = XmTextGetString(wm.text);
	fprintf(of.f, "%s\n", text ? text : "");
	XtFree(text);
	for (i = 0; i < wm.n_runs; i++)
		fprintf(of.f, "run-list %d: %s\n", i + 1, wm.runs[i].label);
	if ((rc = out_file_commit(&of, 1, err, sizeof(err))) < 0)
		xsg_error(app, "%s", err);
	return rc;
}

static void motion_cb(Widget w, XtPointer client, XEvent *ev, Boolean *cont)
{
	struct xsg_app *app = client;
	int changed = 0;

	if (ev->type == MotionNotify)
		changed = hover_at(app, ev->xmotion.x, ev->xmotion.y, 0);
	else if (ev->type == LeaveNotify && wm.st.hover_k >= 0) {
		wm.st.hover_k = -1;
		changed = 1;
	}
	if (changed && app->plots[VIEW_MATRIX])
		win_plot_redraw(app->plots[VIEW_MATRIX]);
}

/* Scrolls the readout to value k's lines (the value clicked). */
static void show_value(int k)
{
	static const char *const heads[3][2] = { { "\ntime-bound  ", NULL },
		{ "\ne-conserved  ", "\nE-conserved  " }, { "\nmemory-bound  ", NULL } };
	char *text = XmTextGetString(wm.text), *at = NULL;
	int h;

	for (h = 0; text && h < 2 && !at; h++)
		at = heads[k][h] ? strstr(text, heads[k][h]) : NULL;
	if (at)
		XmTextSetTopCharacter(wm.text, (XmTextPosition)(at + 1 - text));
	XtFree(text);
}

/* Clicks on the drawing: select the cell (of the experiment whose matrix was clicked). */
void win_matrix_click(struct xsg_app *app, int x, int y)
{
	struct view_matrix_hit hit;
	Dimension w = 0, h = 0;

	XtVaGetValues(wm.da, XmNwidth, &w, XmNheight, &h, NULL);
	if (!view_matrix_hit_value(&app->vctx, w, h, x, y, &hit)) {
		xsg_status(app, "no matrix cell there");
		return;
	}
	if (win_matrix_select(app, hit.exp, hit.n, hit.n2) == 0)
		show_value(hit.k);
}

static Widget label(Widget parent, const char *name, const char *text, Widget above)
{
	XmString s = XmStringCreateLocalized((char *)text);
	Widget l = XtVaCreateManagedWidget(name, xmLabelWidgetClass, parent, XmNlabelString, s,
					   XmNalignment, XmALIGNMENT_BEGINNING,
					   XmNtopAttachment, above ? XmATTACH_WIDGET : XmATTACH_FORM,
					   XmNtopWidget, above, XmNleftAttachment, XmATTACH_FORM,
					   XmNrightAttachment, XmATTACH_FORM, NULL);
	XmStringFree(s);
	return l;
}

void win_matrix_attach(struct xsg_app *app, Widget form, Widget da)
{
	Widget box, l1, l2;
	Arg args[12];
	int n;
	Screen *scr = XtScreen(form);
	int sw = WidthOfScreen(scr), sh = HeightOfScreen(scr);

	wm.app = app;
	wm.da = da;
	wm.st.hover_k = -1;
	view_matrix_set_state(&wm.st);
	box = XtVaCreateManagedWidget("readout", xmFormWidgetClass, form,
				      XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM,
				      XmNbottomAttachment, XmATTACH_FORM, XmNleftOffset, 4,
				      XmNrightOffset, 4, XmNbottomOffset, 4, NULL);
	l1 = label(box, "readoutLabel", "Readout (as scalegraph report --matrix prints it):", NULL);
	n = 0;
	XtSetArg(args[n], XmNeditMode, XmMULTI_LINE_EDIT); n++;
	XtSetArg(args[n], XmNeditable, False); n++;
	XtSetArg(args[n], XmNcursorPositionVisible, False); n++;
	XtSetArg(args[n], XmNwordWrap, True); n++;
	XtSetArg(args[n], XmNscrollHorizontal, False); n++;
	XtSetArg(args[n], XmNrows, READOUT_ROWS(sh)); n++;
	/* the window sets the width, not the text: Motif sizes columns by the font's widest glyph
	 * (40 columns of DejaVu asked for 1058 px, wider than an 800 px screen) */
	XtSetArg(args[n], XmNcolumns, 8); n++;
	XtSetArg(args[n], XmNresizeWidth, False); n++;
	XtSetArg(args[n], XmNresizeHeight, False); n++;
	wm.text = XmCreateScrolledText(box, "readoutText", args, n);
	XtVaSetValues(XtParent(wm.text), XmNtopAttachment, XmATTACH_WIDGET, XmNtopWidget, l1,
		      XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM, NULL);
	XtManageChild(wm.text);
	l2 = label(box, "runsLabel", "Runs behind it (double-click: open in the timeline):",
		   XtParent(wm.text));
	n = 0;
	XtSetArg(args[n], XmNvisibleItemCount, LIST_ROWS(sh)); n++;
	XtSetArg(args[n], XmNselectionPolicy, XmBROWSE_SELECT); n++;
	XtSetArg(args[n], XmNlistSizePolicy, XmCONSTANT); n++;   /* long items: a scrollbar */
	XtSetArg(args[n], XmNscrollBarDisplayPolicy, XmAS_NEEDED); n++;
	XtSetArg(args[n], XmNwidth, 300); n++;
	wm.list = XmCreateScrolledList(box, "readoutRuns", args, n);
	XtVaSetValues(XtParent(wm.list), XmNtopAttachment, XmATTACH_WIDGET, XmNtopWidget, l2,
		      XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM,
		      XmNbottomAttachment, XmATTACH_FORM, NULL);
	XtManageChild(wm.list);
	XtAddCallback(wm.list, XmNdefaultActionCallback, list_activate_cb, NULL);
	/* the drawing above the readout, at a size that leaves the whole window on the screen
	 * (800x600 included) and uses a large one; the cells follow the window when it grows */
	XtVaSetValues(da, XmNbottomAttachment, XmATTACH_WIDGET, XmNbottomWidget, box,
		      XmNwidth, (Dimension)fmin(sw * 0.85, 1500),
		      XmNheight, (Dimension)fmax(fmin(sh * 0.9 - READOUT_H(sh) - 30, 760), 260), NULL);
	XtAddEventHandler(da, PointerMotionMask | LeaveWindowMask, False, motion_cb, app);
	if (model_add_listener(&app->model, model_changed, app) < 0)
		xsg_status(app, "matrix: out of memory: its readout will not follow changes");
	win_matrix_update(app);
}
