/*
 * win_timeline.c — window 9, the run timeline, in Motif: a win_plot showing VIEW_TIMELINE (the
 * drawing is timeline.c's) with a button row (zoom in/out, whole run, pan left/right) and a
 * scrollbar above it, and on the drawing area: mouse wheel zooms around the pointer, a drag with
 * button 1 pans, a click selects the interval under the pointer and shows its details in the
 * readout line (and the status line). Keys: + - Home Left Right. Every control goes through a
 * named command (timeline-zoom, timeline-pan, timeline-click, ...), so tests reach the same code.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>
#include <Xm/ScrollBar.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCROLL_MAX 100000

/* Keys of the drawing area (on top of the plot windows' keys). */
static const char timeline_keys[] =
	"<Key>plus: xsg(timeline-zoom:in)\n"
	"<Key>KP_Add: xsg(timeline-zoom:in)\n"
	"<Key>minus: xsg(timeline-zoom:out)\n"
	"<Key>KP_Subtract: xsg(timeline-zoom:out)\n"
	"<Key>Home: xsg(timeline-zoom:full)\n"
	"<Key>Left: xsg(timeline-pan:-0.25)\n"
	"<Key>Right: xsg(timeline-pan:0.25)\n";

static const struct {
	const char *name, *label, *cmd;
} buttons[] = {
	{ "zoomIn", "Zoom in (+)", "timeline-zoom:in" },
	{ "zoomOut", "Zoom out (-)", "timeline-zoom:out" },
	{ "whole", "Whole run (Home)", "timeline-zoom:full" },
	{ "left", "\xe2\x97\x80 Earlier (Left)", "timeline-pan:-0.5" },
	{ "right", "Later (Right) \xe2\x96\xb6", "timeline-pan:0.5" },
	{ "selected", "Show the browser's selected run", "timeline-run:selected" },
};

struct drag {
	int down;
	int x0, y0, moved;
	double v0, v1;      /* window when the drag began */
};

static struct drag drag;
static Widget scroll;    /* the timeline window's scrollbar; one timeline window per app */

static void button_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = NULL;

	XtVaGetValues(XtParent(w), XmNuserData, &app, NULL);
	if (app)
		xsg_command(app, (const char *)client);
}

static void scroll_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = client;
	XmScrollBarCallbackStruct *cbs = call;
	double d = timeline_duration(&app->timeline), wv = app->timeline.v1 - app->timeline.v0;

	timeline_set_window(&app->timeline, d * cbs->value / SCROLL_MAX,
			    d * cbs->value / SCROLL_MAX + wv);
	win_timeline_refresh(app, 0);
}

Widget win_timeline_controls(struct xsg_app *app, Widget form)
{
	int w = view_get(VIEW_TIMELINE)->w, h = view_get(VIEW_TIMELINE)->h;
	Widget row;
	size_t i;

	xsg_fit_screen(app, VIEW_TIMELINE, &w, &h);   /* as wide as the drawing will be */
	row = XtVaCreateManagedWidget("timelineControls", xmRowColumnWidgetClass, form,
				      XmNorientation, XmHORIZONTAL, XmNpacking, XmPACK_TIGHT,
				      XmNtopAttachment, XmATTACH_FORM,
				      XmNleftAttachment, XmATTACH_FORM,
				      XmNrightAttachment, XmATTACH_FORM, XmNspacing, 4,
				      XmNuserData, (XtPointer)app,
				      /* buttons wrap in a narrow window instead of widening it */
				      XmNresizeWidth, False, XmNwidth, (Dimension)w, NULL);

	for (i = 0; i < sizeof(buttons) / sizeof(buttons[0]); i++) {
		XmString s = XmStringCreateLocalized((char *)buttons[i].label);
		Widget b = XtVaCreateManagedWidget(buttons[i].name, xmPushButtonWidgetClass, row,
						   XmNlabelString, s, NULL);
		XmStringFree(s);
		XtAddCallback(b, XmNactivateCallback, button_cb, (XtPointer)buttons[i].cmd);
	}
	scroll = XtVaCreateManagedWidget("timelineScroll", xmScrollBarWidgetClass, form,
					 XmNorientation, XmHORIZONTAL, XmNminimum, 0,
					 XmNmaximum, SCROLL_MAX, XmNsliderSize, SCROLL_MAX,
					 XmNvalue, 0, XmNtopAttachment, XmATTACH_WIDGET,
					 XmNtopWidget, row, XmNleftAttachment, XmATTACH_FORM,
					 XmNrightAttachment, XmATTACH_FORM, NULL);
	XtAddCallback(scroll, XmNvalueChangedCallback, scroll_cb, app);
	XtAddCallback(scroll, XmNdragCallback, scroll_cb, app);
	return scroll;
}

/* Scrollbar slider = the visible share of the run. */
static void sync_scroll(struct xsg_app *app)
{
	const struct timeline *tl = &app->timeline;
	double d = timeline_duration(tl);
	int size, value;

	if (!scroll || !(d > 0))
		return;
	size = (int)fmax(1, fmin(SCROLL_MAX, (tl->v1 - tl->v0) / d * SCROLL_MAX));
	value = (int)fmin(SCROLL_MAX - size, fmax(0, tl->v0 / d * SCROLL_MAX));
	XtVaSetValues(scroll, XmNsliderSize, size, XmNvalue, value, XmNpageIncrement, size, NULL);
}

void win_timeline_refresh(struct xsg_app *app, int scrollbar)
{
	struct win_plot *wp = app->plots[VIEW_TIMELINE];

	if (scrollbar)
		sync_scroll(app);
	if (wp)
		win_plot_redraw(wp);
}

static void area_size(struct xsg_app *app, double *w, double *h)
{
	Dimension dw = 0, dh = 0;

	XtVaGetValues(win_plot_area(app->plots[VIEW_TIMELINE]), XmNwidth, &dw, XmNheight, &dh, NULL);
	*w = dw;
	*h = dh;
}

/* The visible range in the status line, after the mouse moved it. */
static void say_range(struct xsg_app *app)
{
	char range[112], d[32];

	timeline_format_range(range, sizeof(range), app->timeline.v0, app->timeline.v1);
	plot_format_seconds(d, sizeof(d), timeline_duration(&app->timeline));
	xsg_status(app, "timeline: showing %s of %s", range, d);
}

/* Mouse on the drawing area: wheel zooms at the pointer, drag pans, click selects. */
static void mouse_handler(Widget w, XtPointer client, XEvent *ev, Boolean *cont)
{
	struct xsg_app *app = client;
	struct timeline *tl = &app->timeline;
	char cmd[96];
	double aw, ah, t;
	size_t lane;
	struct plot_rect la;
	double lane_h;

	if (!tl->run)
		return;
	area_size(app, &aw, &ah);
	timeline_lanes(tl, timeline_plot_rect(aw, ah), &la, &lane_h);
	if (ev->type == ButtonPress && (ev->xbutton.button == Button4 || ev->xbutton.button == Button5)) {
		if (timeline_hit(tl, timeline_plot_rect(aw, ah), ev->xbutton.x, la.y, &lane, &t))
			timeline_zoom(tl, ev->xbutton.button == Button4 ? 1.5 : 1 / 1.5, t);
		else
			timeline_zoom(tl, ev->xbutton.button == Button4 ? 1.5 : 1 / 1.5, NAN);
		win_timeline_refresh(app, 1);
		say_range(app);
	} else if (ev->type == ButtonPress && ev->xbutton.button == Button1) {
		drag = (struct drag){ 1, ev->xbutton.x, ev->xbutton.y, 0, tl->v0, tl->v1 };
	} else if (ev->type == MotionNotify && drag.down) {
		int dx = ev->xmotion.x - drag.x0;
		if (abs(dx) > 3 || abs(ev->xmotion.y - drag.y0) > 3)
			drag.moved = 1;
		if (drag.moved && la.w > 0) {
			double dv = -dx / la.w * (drag.v1 - drag.v0);
			timeline_set_window(tl, drag.v0 + dv, drag.v1 + dv);
			win_timeline_refresh(app, 1);
		}
	} else if (ev->type == ButtonRelease && ev->xbutton.button == Button1 && drag.down) {
		drag.down = 0;
		if (drag.moved)
			say_range(app);
		if (!drag.moved) {
			snprintf(cmd, sizeof(cmd), "timeline-click:%d,%d", ev->xbutton.x, ev->xbutton.y);
			xsg_command(app, cmd);
		}
	}
}

void win_timeline_attach(struct xsg_app *app, Widget da)
{
	XtOverrideTranslations(da, XtParseTranslationTable(timeline_keys));
	XtAddEventHandler(da, ButtonPressMask | ButtonReleaseMask | Button1MotionMask, False,
			  mouse_handler, app);
}

/* --- commands -------------------------------------------------------------------------- */

/* Opens run index `k` of the model in the timeline and shows the window. */
static int open_run(struct xsg_app *app, int k)
{
	char err[1024];
	int rc;

	if (k < 0) {
		xsg_status(app, "timeline: no traced run in %s (a CSV experiment has no traces)",
			   app->source);
		return -ENOENT;
	}
	if ((rc = timeline_open_run(&app->timeline, &app->model, k, app->source, err, sizeof(err))) < 0) {
		xsg_error(app, "%s", err);
		return rc;
	}
	xsg_status(app, "timeline: %s, %zu threads, %.6g s", app->timeline.label,
		   app->timeline.n_lanes, timeline_duration(&app->timeline));
	return xsg_open(app, "timeline");
}

int win_timeline_open(struct xsg_app *app)
{
	int k;

	k = app->model.sel_run;
	if (app->timeline.run && (k < 0 || app->model.runs[k].id == app->timeline.run_id))
		return xsg_open(app, "timeline") < 0 ? -ENOENT : 0;
	if (k < 0)
		k = timeline_default_run(&app->model, app->source);
	if (k < 0) {
		/* nothing to show: the window says how to get a run */
		xsg_status(app, "timeline: no traced run in %s", app->source);
		return xsg_open(app, "timeline");
	}
	return open_run(app, k);
}

int xsg_cmd_timeline_run(struct xsg_app *app, const char *arg)
{
	char *end;
	long long id;

	if (strcmp(arg, "selected") == 0) {
		if (app->model.sel_run < 0) {
			xsg_status(app, "timeline: select a run in the browser's run list first");
			return -ENOENT;
		}
		return open_run(app, app->model.sel_run);
	}
	if (strcmp(arg, "default") == 0)
		return open_run(app, timeline_default_run(&app->model, app->source));
	id = strtoll(arg, &end, 10);
	if (*end || id <= 0 || timeline_run_by_id(&app->model, id) < 0) {
		xsg_status(app, "timeline-run: no run \"%s\" (a run id, selected or default)", arg);
		return -ENOENT;
	}
	return open_run(app, timeline_run_by_id(&app->model, id));
}

static int need_run(struct xsg_app *app)
{
	if (app->timeline.run)
		return 0;
	xsg_status(app, "timeline: no run open (timeline-run:ID or View > 9 Run timeline (selected run))");
	return -ENOENT;
}

int xsg_cmd_timeline_zoom(struct xsg_app *app, const char *arg)
{
	double a, b;

	if (need_run(app) < 0)
		return -ENOENT;
	if (strcmp(arg, "in") == 0)
		timeline_zoom(&app->timeline, 2, NAN);
	else if (strcmp(arg, "out") == 0)
		timeline_zoom(&app->timeline, 0.5, NAN);
	else if (strcmp(arg, "full") == 0)
		timeline_full(&app->timeline);
	else if (sscanf(arg, "%lf,%lf", &a, &b) == 2 && b > a)
		timeline_set_window(&app->timeline, a, b);
	else
		return -EINVAL;
	win_timeline_refresh(app, 1);
	return 0;
}

int xsg_cmd_timeline_pan(struct xsg_app *app, const char *arg)
{
	char *end;
	double f = strtod(arg, &end);

	if (need_run(app) < 0)
		return -ENOENT;
	if (*end || !isfinite(f))
		return -EINVAL;
	timeline_pan(&app->timeline, f);
	win_timeline_refresh(app, 1);
	return 0;
}

/* The readout goes to the drawing and the status line (tests read the status echo). */
static int show_readout(struct xsg_app *app, int rc)
{
	xsg_status(app, "timeline: %s", app->timeline.readout[0] ? app->timeline.readout :
		   "no interval there");
	win_timeline_refresh(app, 0);
	if (app->timeline.run)   /* the call sites pane follows the selected interval */
		xsg_sites_focus(app, -1, NULL, 0, 0, app->timeline.run_id ? app->timeline.run_id : -1);
	return rc == -ENOENT ? 0 : rc;
}

int xsg_cmd_timeline_click(struct xsg_app *app, const char *arg)
{
	double w, h, t;
	size_t lane;
	int x, y;

	if (need_run(app) < 0 || !app->plots[VIEW_TIMELINE])
		return -ENOENT;
	if (sscanf(arg, "%d,%d", &x, &y) != 2)
		return -EINVAL;
	area_size(app, &w, &h);
	if (!timeline_hit(&app->timeline, timeline_plot_rect(w, h), x, y, &lane, &t)) {
		timeline_unselect(&app->timeline);
		return show_readout(app, 0);
	}
	return show_readout(app, timeline_select(&app->timeline, lane, t));
}

int xsg_cmd_timeline_select(struct xsg_app *app, const char *arg)
{
	unsigned lane;
	double t;

	if (need_run(app) < 0)
		return -ENOENT;
	if (sscanf(arg, "%u,%lf", &lane, &t) != 2)
		return -EINVAL;
	return show_readout(app, timeline_select(&app->timeline, lane, t));
}
