/*
 * win_plot.c — one xscalegraph window showing one view (view.h) in an XmDrawingArea. The view
 * is drawn with cairo-xlib into a pixmap the size of the area and copied to the window, so an
 * expose costs one XCopyArea; the pixmap is redrawn when the model changes and on resize
 * (XmDrawingArea gets no expose when it shrinks). The curve windows carry one toggle per
 * scaling method (window 10, compare: overlay any chosen methods), the sources window one per
 * latency source; the sources and parallelism windows draw one method, picked in an option
 * menu (Figs. 11, 12, 13). Toggle rows wrap onto more rows when the window is narrow. Every
 * chart answers the pointer with the value of the point under it in the status line (value on
 * hover: the points' positions are the ones the drawing recorded, plot_hits); the matrix
 * window answers clicks with the runs behind the cell.
 */
#include "xsg.h"
#include "sites.h"

#include <Xm/Xm.h>
#include <Xm/DrawingA.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>
#include <Xm/ToggleB.h>
#include <cairo-xlib.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct win_plot {
	struct xsg_app *app;
	enum view_id id;
	Widget shell;          /* own shell, or the main window's for the browser */
	Widget form, methods, sources, da;
	Widget chooser;        /* sources, parallelism: the row with the method option menu */
	Widget chooser_menu;   /* its pulldown */
	Pixmap pix;
	int pw, ph;
	int dirty;
	double last_ms;
	struct plot_hits hits; /* where the last drawing put its points (value on hover) */
	const struct plot_hit *hover; /* the point the status line shows, NULL: none */
};

/* Keys every plot window understands (the main window has the menu accelerators). */
static const char plot_keys[] =
	"Ctrl<Key>q: xsg(quit)\n"
	"Ctrl<Key>r: xsg(reload)\n"
	"Ctrl<Key>w: xsg(close)\n"
	"Ctrl<Key>s: xsg(export-dialog:window)\n"
	"Ctrl<Key>e: xsg(export-dialog:all)\n"
	"<Key>F1: xsg(open:help)\n";

static int has_method_toggles(enum view_id id)
{
	return id == VIEW_TIME || id == VIEW_LATENCY || id == VIEW_PATTERNS;
}

/* Windows that draw one method at a time, chosen in an option menu. */
static int has_method_chooser(enum view_id id)
{
	return id == VIEW_SOURCES || id == VIEW_PARALLELISM;
}

Widget win_plot_shell(struct win_plot *wp)
{
	return wp->shell;
}

double win_plot_last_ms(const struct win_plot *wp)
{
	return wp->last_ms;
}

static void render(struct win_plot *wp)
{
	struct xsg_app *app = wp->app;
	Dimension w = 0, h = 0;
	Screen *scr = XtScreen(wp->da);
	cairo_surface_t *surf;
	cairo_t *cr;
	double t0;
	GC gc;

	if (!XtIsRealized(wp->da))
		return;
	XtVaGetValues(wp->da, XmNwidth, &w, XmNheight, &h, NULL);
	if (w < 2 || h < 2)
		return;
	t0 = xsg_now_ms();
	if (!wp->pix || wp->pw != w || wp->ph != h) {
		if (wp->pix)
			XFreePixmap(app->dpy, wp->pix);
		wp->pix = XCreatePixmap(app->dpy, XtWindow(wp->da), w, h,
					(unsigned)DefaultDepthOfScreen(scr));
		wp->pw = w;
		wp->ph = h;
	}
	surf = cairo_xlib_surface_create(app->dpy, wp->pix, DefaultVisualOfScreen(scr), w, h);
	cr = cairo_create(surf);
	plot_hits_reset(&wp->hits);
	wp->hover = NULL;
	plot_hits_attach(cr, &wp->hits);
	if (view_draw(wp->id, cr, w, h, &app->vctx) < 0)
		xsg_status(app, "%s: drawing failed", view_get(wp->id)->name);
	cairo_destroy(cr);
	cairo_surface_flush(surf);
	cairo_surface_destroy(surf);
	gc = DefaultGCOfScreen(scr);
	XCopyArea(app->dpy, wp->pix, XtWindow(wp->da), gc, 0, 0, w, h, 0, 0);
	XSync(app->dpy, False); /* the draw is complete when the server has done it */
	wp->dirty = 0;
	wp->last_ms = xsg_now_ms() - t0;
	xsg_drawn(app, view_get(wp->id)->name, wp->last_ms, w, h);
}

void win_plot_redraw(struct win_plot *wp)
{
	wp->dirty = 1;
	if (wp->shell && XtIsRealized(wp->shell))
		render(wp);
}

static void expose_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	XmDrawingAreaCallbackStruct *cbs = call;
	XExposeEvent *ev = cbs && cbs->event ? &cbs->event->xexpose : NULL;
	Dimension dw = 0, dh = 0;

	XtVaGetValues(wp->da, XmNwidth, &dw, XmNheight, &dh, NULL);
	if (wp->dirty || !wp->pix || wp->pw != dw || wp->ph != dh || !ev) {
		render(wp);
		return;
	}
	XCopyArea(wp->app->dpy, wp->pix, XtWindow(wp->da), DefaultGCOfScreen(XtScreen(w)),
		  ev->x, ev->y, (unsigned)ev->width, (unsigned)ev->height, ev->x, ev->y);
}

static void resize_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;

	wp->dirty = 1;
	if (XtIsRealized(wp->da))
		render(wp);
}

/* The matrix window's readout and runs of cell (n, n2) of the experiment opened (win_matrix.c). */
int win_plot_matrix_select(struct win_plot *wp, int n, int n2)
{
	return win_matrix_select(wp->app, 0, n, n2);
}

static const struct plot_hit *hover_at(struct win_plot *wp, int x, int y, int force);

static void input_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	XmDrawingAreaCallbackStruct *cbs = call;

	if (!cbs->event || cbs->event->type != ButtonPress)
		return;
	if (wp->id != VIEW_MATRIX) {
		/* a click reads the point under it out, as hovering does */
		const struct plot_hit *h = hover_at(wp, cbs->event->xbutton.x, cbs->event->xbutton.y, 1);
		int me = view_chosen_method(&wp->app->model, VIEW_SOURCES);
		if (wp->id == VIEW_SOURCES && me >= 0)   /* the call sites of that source and point */
			xsg_sites_focus(wp->app, h ? sites_source_find(h->series) : -1,
					wp->app->model.methods[me].name, h ? (int)h->x : 0, 0, 0);
		return;
	}
	win_matrix_click(wp->app, cbs->event->xbutton.x, cbs->event->xbutton.y);
}

/* Value on hover: the status line gives the point nearest the pointer (within 10 px), or the
 * stacked column layer under it, as the drawing recorded it; quiet while the pointer stays on
 * the same point or on none. */
#define HOVER_PX 10

static const struct plot_hit *hover_at(struct win_plot *wp, int x, int y, int force)
{
	const struct plot_hit *h = plot_hits_nearest(&wp->hits, x, y, HOVER_PX);
	char text[400];

	if (h == wp->hover && !force)
		return h;
	wp->hover = h;
	if (h) {
		plot_hit_text(h, text, sizeof(text));
		xsg_status(wp->app, "%s: %s", view_get(wp->id)->name, text);
	} else if (force)
		xsg_status(wp->app, "%s: no point within %d px of %d,%d", view_get(wp->id)->name,
			   HOVER_PX, x, y);
	return h;
}

static void motion_handler(Widget w, XtPointer client, XEvent *ev, Boolean *cont)
{
	if (ev->type == MotionNotify)
		hover_at(client, ev->xmotion.x, ev->xmotion.y, 0);
}

/* The plot window the user worked in last, or NULL. */
static struct win_plot *current_win(struct xsg_app *app)
{
	int i;

	for (i = 0; i < VIEW_COUNT; i++)
		if (app->plots[i] && app->plots[i]->shell == app->current)
			return app->plots[i];
	return NULL;
}

int xsg_cmd_hover(struct xsg_app *app, const char *arg)
{
	struct win_plot *wp = current_win(app);
	int x, y;

	if (!wp) {
		xsg_status(app, "hover: no plot window open");
		return -ENOENT;
	}
	if (wp->dirty)
		render(wp);
	if (!strchr(arg, ',')) {
		/* hover:K — where the K-th point was drawn (tests then move the real pointer
		 * there) */
		char *end;
		long k = strtol(arg, &end, 10);
		if (*end || k < 0 || (size_t)k >= wp->hits.n) {
			xsg_status(app, "hover: no point %s (%zu drawn)", arg, wp->hits.n);
			return -ENOENT;
		}
		Position rx = 0, ry = 0;
		/* a marker's centre, or a column layer's */
		x = (int)lround(wp->hits.v[k].px + wp->hits.v[k].pw / 2);
		y = (int)lround(wp->hits.v[k].py + wp->hits.v[k].ph / 2);
		XtTranslateCoords(wp->da, (Position)x, (Position)y, &rx, &ry);
		xsg_status(app, "hover: point %ld at %d,%d (screen %d,%d)", k, x, y, rx, ry);
	} else if (sscanf(arg, "%d,%d", &x, &y) != 2)
		return -EINVAL;
	return hover_at(wp, x, y, 1) ? 0 : -ENOENT;
}

static void method_toggle_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	XmToggleButtonCallbackStruct *cbs = call;
	char *name = XtName(w);
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "%s:%s", cbs->set ? "method-show" : "method-hide", name);
	xsg_command(wp->app, cmd);
}

static void source_toggle_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	XmToggleButtonCallbackStruct *cbs = call;
	char cmd[160];

	snprintf(cmd, sizeof(cmd), "%s:%s", cbs->set ? "source-show" : "source-hide", XtName(w));
	xsg_command(wp->app, cmd);
}

/* "barrier waiting" for "IT_barrier": a source toggle's tooltip. */
static const char *source_title(const char *name)
{
	size_t i;

	for (i = 0; i < MODEL_N_SOURCES; i++)
		if (strcmp(model_metric_name(model_source_order[i]), name) == 0)
			return model_metric_title(model_source_order[i]);
	return "latency source";
}

/* A toggle with a tooltip (Motif 2.3's XmNtoolTipString, shown when the shell enables them). */
static Widget toggle(Widget parent, const char *name, const char *label, int set,
		     XtCallbackProc cb, XtPointer arg, const char *tip)
{
	XmString s = XmStringCreateLocalized((char *)label);
	XmString ts = XmStringCreateLocalized((char *)tip);
	Widget t = XtVaCreateManagedWidget(name, xmToggleButtonWidgetClass, parent,
					   XmNlabelString, s, XmNset, set ? XmSET : XmUNSET,
					   XmNtoolTipString, ts, NULL);
	XmStringFree(s);
	XmStringFree(ts);
	XtAddCallback(t, XmNvalueChangedCallback, cb, arg);
	return t;
}

/* Makes the toggle row hold a label and `names` (a toggle each, state from shown()): sets the
 * states when the names are already there, else rebuilds the row (methods appear in a live
 * experiment). Rebuilding never happens from a toggle's own callback: those change states only. */
static void sync_row(struct win_plot *wp, Widget row, const char *title, const char *const *names,
		     const int *shown, size_t n, XtCallbackProc cb)
{
	WidgetList kids;
	Cardinal nk = 0, k;
	Widget *copy;
	size_t i;
	int same;

	XtVaGetValues(row, XmNchildren, &kids, XmNnumChildren, &nk, NULL);
	same = nk == n + 1;
	for (i = 0; same && i < n; i++)
		same = strcmp(XtName(kids[i + 1]), names[i]) == 0;
	if (same) {
		for (i = 0; i < n; i++)
			XmToggleButtonSetState(kids[i + 1], shown[i], False);
		return;
	}
	if (nk > 0 && (copy = malloc(nk * sizeof(*copy)))) {   /* a new row has no children */
		memcpy(copy, kids, nk * sizeof(*copy));
		for (k = 0; k < nk; k++)
			XtDestroyWidget(copy[k]);
		free(copy);
	}
	XtVaCreateManagedWidget(title, xmLabelWidgetClass, row, NULL);
	for (i = 0; i < n; i++) {
		char tip[300];
		if (cb == source_toggle_cb)
			snprintf(tip, sizeof(tip), "%s: %s. Draw or hide it (lines and stacked columns)",
				 names[i], source_title(names[i]));
		else
			snprintf(tip, sizeof(tip), "Draw or hide method %s in this window's charts",
				 names[i]);
		toggle(row, names[i], names[i], shown[i], cb, wp, tip);
	}
}

static void chooser_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	char cmd[200];

	snprintf(cmd, sizeof(cmd), "%s-method:%s", wp->id == VIEW_SOURCES ? "sources" : "parallelism",
		 XtName(w));
	xsg_command(wp->app, cmd);
}

/* The option menu lists the model's methods (compared ones too); rebuilt when the names
 * change, its shown entry set from the window's chosen method. */
static void sync_chooser(struct win_plot *wp)
{
	struct model *m = &wp->app->model;
	WidgetList kids;
	Cardinal nk = 0, k;
	Widget *copy, sel = NULL;
	int same, cur = view_chosen_method(m, wp->id);
	size_t i;

	if (!wp->chooser_menu)
		return;
	XtVaGetValues(wp->chooser_menu, XmNchildren, &kids, XmNnumChildren, &nk, NULL);
	same = nk == m->n_methods;
	for (i = 0; same && i < m->n_methods; i++)
		same = strcmp(XtName(kids[i]), m->methods[i].name) == 0;
	if (!same) {
		if (nk > 0 && (copy = malloc(nk * sizeof(*copy)))) {
			memcpy(copy, kids, nk * sizeof(*copy));
			for (k = 0; k < nk; k++)
				XtDestroyWidget(copy[k]);
			free(copy);
		}
		for (i = 0; i < m->n_methods; i++) {
			Widget b = XtVaCreateManagedWidget(m->methods[i].name, xmPushButtonWidgetClass,
							   wp->chooser_menu, NULL);
			XtAddCallback(b, XmNactivateCallback, chooser_cb, wp);
		}
		XtVaGetValues(wp->chooser_menu, XmNchildren, &kids, XmNnumChildren, &nk, NULL);
	}
	if (cur >= 0 && (Cardinal)cur < nk)
		sel = kids[cur];
	if (sel)
		XtVaSetValues(XtNameToWidget(wp->chooser, "method"), XmNmenuHistory, sel, NULL);
}

static void update_toggles(struct win_plot *wp)
{
	struct model *m = &wp->app->model;
	const char *names[64];
	int shown[64];
	size_t i, n;

	if (wp->methods) {
		for (n = 0; n < m->n_methods && n < 64; n++) {
			names[n] = m->methods[n].name;
			shown[n] = m->methods[n].shown;
		}
		sync_row(wp, wp->methods, "Methods:", names, shown, n, method_toggle_cb);
	}
	if (wp->sources) {
		/* in the order of the legend and the stacked columns */
		for (i = 0; i < MODEL_N_SOURCES; i++) {
			names[i] = model_metric_name(model_source_order[i]);
			shown[i] = model_source_shown(m, model_source_order[i]);
		}
		sync_row(wp, wp->sources, "Sources:", names, shown, i, source_toggle_cb);
	}
	sync_chooser(wp);
}

static void model_changed(struct model *m, unsigned what, void *arg)
{
	struct win_plot *wp = arg;

	if (what & (MODEL_CHANGED_DATA | MODEL_CHANGED_SHOWN | MODEL_CHANGED_SOURCES))
		update_toggles(wp);
	if (what & MODEL_CHANGED_DATA && wp->id == VIEW_MATRIX)
		wp->app->vctx.mat_sel_i = wp->app->vctx.mat_sel_j = -1;
	win_plot_redraw(wp);
}

static Widget control_row(Widget form, const char *name, Widget above, int width)
{
	return XtVaCreateManagedWidget(name, xmRowColumnWidgetClass, form,
				       XmNorientation, XmHORIZONTAL, XmNpacking, XmPACK_TIGHT,
				       XmNtopAttachment, above ? XmATTACH_WIDGET : XmATTACH_FORM,
				       XmNtopWidget, above, XmNleftAttachment, XmATTACH_FORM,
				       XmNrightAttachment, XmATTACH_FORM, XmNspacing, 2,
				       /* the plot sets the width: toggles wrap onto more rows
					  instead of widening the window (many compared methods) */
				       XmNresizeWidth, False, XmNwidth, (Dimension)width, NULL);
}

struct win_plot *win_plot_create(struct xsg_app *app, enum view_id id, Widget parent)
{
	const struct view_desc *vd = view_get(id);
	struct win_plot *wp = calloc(1, sizeof(*wp));
	Widget above = NULL;
	char title[256];
	int dw, dh;

	if (!wp)
		return NULL;
	wp->app = app;
	wp->id = id;
	wp->dirty = 1;
	if (parent) {
		for (wp->shell = parent; !XtIsShell(wp->shell); wp->shell = XtParent(wp->shell))
			;
		wp->form = parent;
	} else {
		view_title(title, sizeof(title), &app->vctx, vd->title);
		wp->shell = XtVaCreatePopupShell(vd->name, topLevelShellWidgetClass, app->top,
						 XmNtitle, title, XmNallowShellResize, True,
						 XmNdeleteResponse, XmUNMAP, XmNtoolTipEnable, True,
						 NULL);
		wp->form = XtVaCreateWidget("form", xmFormWidgetClass, wp->shell, NULL);
	}
	dw = vd->w;
	dh = id == VIEW_BROWSER ? 520 : vd->h;
	xsg_fit_screen(app, id, &dw, &dh);
	if (has_method_toggles(id))
		above = wp->methods = control_row(wp->form, "methods", NULL, dw);
	if (has_method_chooser(id)) {
		/* Figs. 11 and 13 are the sources of "fixed" and "e-conserved", Fig. 12 one
		 * method's parallelism: an option menu, one method at a time */
		Arg a[2];
		XmString lbl = XmStringCreateLocalized(id == VIEW_SOURCES ? "Sources of method:" :
						       "Parallelism of method:");
		above = wp->chooser = control_row(wp->form, "chooser", NULL, dw);
		wp->chooser_menu = XmCreatePulldownMenu(wp->chooser, "methodMenu", NULL, 0);
		XtSetArg(a[0], XmNsubMenuId, wp->chooser_menu);
		XtSetArg(a[1], XmNlabelString, lbl);
		XtManageChild(XmCreateOptionMenu(wp->chooser, "method", a, 2));
		XmStringFree(lbl);
		lbl = XmStringCreateLocalized(id == VIEW_SOURCES ?
					      "The method whose latency sources are drawn: Fig. 11 "
					      "is fixed, Fig. 13 e-conserved" :
					      "The method whose parallelism is drawn, one line per N "
					      "(Fig. 12)");
		/* on the menu's button: the option menu (a manager) shows none of its own */
		XtVaSetValues(XmOptionButtonGadget(XtNameToWidget(wp->chooser, "method")),
			      XmNtoolTipString, lbl, NULL);
		XmStringFree(lbl);
	}
	if (id == VIEW_SOURCES)
		above = wp->sources = control_row(wp->form, "sources", above, dw);
	if (id == VIEW_TIMELINE)
		above = win_timeline_controls(app, wp->form);
	wp->da = XtVaCreateManagedWidget("plot", xmDrawingAreaWidgetClass, wp->form,
					 XmNwidth, (Dimension)dw, XmNheight, (Dimension)dh,
					 XmNresizePolicy, XmRESIZE_NONE,
					 XmNtopAttachment, above ? XmATTACH_WIDGET : XmATTACH_FORM,
					 XmNtopWidget, above, XmNleftAttachment, XmATTACH_FORM,
					 XmNrightAttachment, XmATTACH_FORM,
					 XmNbottomAttachment, XmATTACH_FORM, NULL);
	XtOverrideTranslations(wp->da, XtParseTranslationTable(plot_keys));
	XtAddCallback(wp->da, XmNexposeCallback, expose_cb, wp);
	XtAddCallback(wp->da, XmNresizeCallback, resize_cb, wp);
	if (id == VIEW_MATRIX)
		win_matrix_attach(app, wp->form, wp->da);
	if (id == VIEW_TIMELINE)
		win_timeline_attach(app, wp->da);
	else
		XtAddCallback(wp->da, XmNinputCallback, input_cb, wp);
	if (id != VIEW_TIMELINE && id != VIEW_MATRIX && id != VIEW_BROWSER)
		XtAddEventHandler(wp->da, PointerMotionMask, False, motion_handler, wp);
	update_toggles(wp);
	if (!parent)
		XtManageChild(wp->form);
	if (model_add_listener(&app->model, model_changed, wp) < 0)
		xsg_status(app, "%s: out of memory: it will not follow changes", vd->name);
	return wp;
}

Widget win_plot_area(struct win_plot *wp)
{
	return wp->da;
}

void win_plot_show(struct win_plot *wp)
{
	if (wp->form != XtParent(wp->da) || XtParent(wp->form) != wp->shell)
		return; /* embedded in another window */
	XtPopup(wp->shell, XtGrabNone);
	XRaiseWindow(wp->app->dpy, XtWindow(wp->shell));
	win_plot_redraw(wp);
}

void win_plot_resize(struct win_plot *wp, int w, int h)
{
	/* the toggle rows first: at their new width they ask for the rows they wrap into */
	if (wp->methods)
		XtVaSetValues(wp->methods, XmNwidth, (Dimension)w, NULL);
	if (wp->sources)
		XtVaSetValues(wp->sources, XmNwidth, (Dimension)w, NULL);
	if (wp->chooser)
		XtVaSetValues(wp->chooser, XmNwidth, (Dimension)w, NULL);
	if (wp->id == VIEW_TIMELINE && XtNameToWidget(wp->form, "timelineControls"))
		XtVaSetValues(XtNameToWidget(wp->form, "timelineControls"), XmNwidth, (Dimension)w, NULL);
	XtVaSetValues(wp->da, XmNwidth, (Dimension)w, XmNheight, (Dimension)h, NULL);
}

/* sources-method:NAME, parallelism-method:NAME — the method window 6 or 7 draws. */
static int choose_method(struct xsg_app *app, enum view_id id, const char *arg)
{
	int k = model_method_find(&app->model, arg);

	if (k < 0) {
		xsg_status(app, "%s-method: no method \"%s\" in this experiment",
			   id == VIEW_SOURCES ? "sources" : "parallelism", arg);
		return -ENOENT;
	}
	view_set_method(id, arg);
	xsg_status(app, "%s: method %s", view_get(id)->name, arg);
	/* every open window follows (the chooser's shown entry, the drawing) */
	model_notify(&app->model, MODEL_CHANGED_SHOWN);
	return 0;
}

int xsg_cmd_sources_method(struct xsg_app *app, const char *arg)
{
	return choose_method(app, VIEW_SOURCES, arg);
}

int xsg_cmd_parallelism_method(struct xsg_app *app, const char *arg)
{
	return choose_method(app, VIEW_PARALLELISM, arg);
}

/* toggles — every toggle and option menu above the current window's plot, with whether it
 * lies wholly inside the window (a test of the wrapping rows at 800 px):
 * "toggles: sources 800x600: IT_edge in, ..., U in; 16 of 16 inside". */
int xsg_cmd_toggles(struct xsg_app *app, const char *arg)
{
	struct win_plot *wp = current_win(app);
	Widget rows[3];
	char msg[1024];
	size_t len, r;
	Dimension sw = 0, sh = 0;
	Position sx = 0, sy = 0;
	XmString tip = NULL;
	int n = 0, in = 0, tips = 0, scr_w, scr_h;

	if (!wp) {
		xsg_status(app, "toggles: no plot window open");
		return -ENOENT;
	}
	rows[0] = wp->methods;
	rows[1] = wp->sources;
	rows[2] = wp->chooser;
	XtVaGetValues(wp->shell, XmNwidth, &sw, XmNheight, &sh, NULL);
	XtTranslateCoords(wp->shell, 0, 0, &sx, &sy);
	scr_w = WidthOfScreen(XtScreen(wp->shell));
	scr_h = HeightOfScreen(XtScreen(wp->shell));
	len = (size_t)snprintf(msg, sizeof(msg), "toggles: %s %dx%d on %dx%d:", view_get(wp->id)->name,
			       sw, sh, scr_w, scr_h);
	for (r = 0; r < 3; r++) {
		WidgetList kids;
		Cardinal nk = 0, k;
		if (!rows[r])
			continue;
		XtVaGetValues(rows[r], XmNchildren, &kids, XmNnumChildren, &nk, NULL);
		for (k = 0; k < nk; k++) {
			Position x = 0, y = 0;
			Dimension w = 0, h = 0;
			int inside;
			/* the toggles and the option menu, not the rows' titles */
			if (!XtIsManaged(kids[k]) || (XtIsSubclass(kids[k], xmLabelWidgetClass) &&
						      !XtIsSubclass(kids[k], xmToggleButtonWidgetClass)))
				continue;
			/* inside the window and on the screen: a window wider than the screen
			 * hides its last toggles as surely as a row that does not wrap */
			XtTranslateCoords(kids[k], 0, 0, &x, &y);
			XtVaGetValues(kids[k], XmNwidth, &w, XmNheight, &h, NULL);
			XtVaGetValues(XtIsSubclass(kids[k], xmRowColumnWidgetClass) ?
				      XmOptionButtonGadget(kids[k]) : kids[k], XmNtoolTipString, &tip, NULL);
			tips += tip != NULL;
			tip = NULL;
			inside = x >= sx && y >= sy && x + w <= sx + sw && y + h <= sy + sh &&
				 x >= 0 && y >= 0 && x + w <= scr_w && y + h <= scr_h;
			n++;
			in += inside;
			if (len < sizeof(msg))
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, " %s %s,",
							XtName(kids[k]), inside ? "in" : "OUT");
		}
	}
	xsg_status(app, "%s %d of %d inside (%d with a tooltip)", msg, in, n, tips);
	return in == n ? 0 : -ERANGE;
}
