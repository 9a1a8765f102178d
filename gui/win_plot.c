/*
 * win_plot.c — one xscalegraph window showing one view (view.h) in an XmDrawingArea. The view
 * is drawn with cairo-xlib into a pixmap the size of the area and copied to the window, so an
 * expose costs one XCopyArea; the pixmap is redrawn when the model changes and on resize
 * (XmDrawingArea gets no expose when it shrinks). The curve windows carry one toggle per
 * scaling method (window 10, compare: overlay any chosen methods), the sources window one per
 * latency source; the matrix window answers clicks with the runs behind the cell.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/DrawingA.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
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
	Pixmap pix;
	int pw, ph;
	int dirty;
	double last_ms;
};

/* Keys every plot window understands (the main window has the menu accelerators). */
static const char plot_keys[] =
	"Ctrl<Key>q: xsg(quit)\n"
	"Ctrl<Key>r: xsg(reload)\n"
	"Ctrl<Key>w: xsg(close)\n"
	"Ctrl<Key>p: xsg(export-window:png)\n"
	"Ctrl<Key>s: xsg(export-window:svg)\n"
	"<Key>F1: xsg(open:help)\n";

static int has_method_toggles(enum view_id id)
{
	return id == VIEW_TIME || id == VIEW_LATENCY || id == VIEW_SOURCES ||
	       id == VIEW_PARALLELISM || id == VIEW_PATTERNS;
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

static void input_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_plot *wp = client;
	XmDrawingAreaCallbackStruct *cbs = call;

	if (!cbs->event || cbs->event->type != ButtonPress)
		return;
	if (wp->id != VIEW_MATRIX) {
		xsg_status(wp->app, "%s: the matrix window answers clicks; use the toggles above "
			   "the plot to compare methods", view_get(wp->id)->name);
		return;
	}
	win_matrix_click(wp->app, cbs->event->xbutton.x, cbs->event->xbutton.y);
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

static Widget toggle(Widget parent, const char *name, const char *label, int set,
		     XtCallbackProc cb, XtPointer arg)
{
	XmString s = XmStringCreateLocalized((char *)label);
	Widget t = XtVaCreateManagedWidget(name, xmToggleButtonWidgetClass, parent,
					   XmNlabelString, s, XmNset, set ? XmSET : XmUNSET, NULL);
	XmStringFree(s);
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
	for (i = 0; i < n; i++)
		toggle(row, names[i], names[i], shown[i], cb, wp);
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
						 XmNdeleteResponse, XmUNMAP, NULL);
		wp->form = XtVaCreateWidget("form", xmFormWidgetClass, wp->shell, NULL);
	}
	if (has_method_toggles(id))
		above = wp->methods = control_row(wp->form, "methods", NULL, vd->w);
	if (id == VIEW_SOURCES)
		above = wp->sources = control_row(wp->form, "sources", above, vd->w);
	if (id == VIEW_TIMELINE)
		above = win_timeline_controls(app, wp->form);
	wp->da = XtVaCreateManagedWidget("plot", xmDrawingAreaWidgetClass, wp->form,
					 XmNwidth, vd->w, XmNheight, id == VIEW_BROWSER ? 520 : vd->h,
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
	if (wp->id == VIEW_TIMELINE && XtNameToWidget(wp->form, "timelineControls"))
		XtVaSetValues(XtNameToWidget(wp->form, "timelineControls"), XmNwidth, (Dimension)w, NULL);
	XtVaSetValues(wp->da, XmNwidth, (Dimension)w, XmNheight, (Dimension)h, NULL);
}
