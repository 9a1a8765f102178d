/*
 * win_teach.c — window 11, the teaching model: sliders for the parameters of teach.h (serial
 * time, parallel work, overhead coefficient and its growth with W, target E, time bound,
 * memory per thread, largest N), radio boxes for the overhead growth and the scaling model the
 * curves follow, and the teaching drawing (view_teach.c: model curves next to the measured
 * ones, the model's t/E/m matrix) in an embedded plot. Sliders and the teach-set command share
 * one parameter table, so tests move the same knobs a student does.
 *
 * The window takes at most 90 % of the screen (teach_window_size): on a 1366x768 laptop or a
 * 800x600 screen the sliders scroll in their column, the radio boxes are 2 x 2 grids (one
 * column on a small screen) that keep their labels, and the drawing switches to its narrow layout (teach_layout).
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Form.h>
#include <Xm/Frame.h>
#include <Xm/Label.h>
#include <Xm/RowColumn.h>
#include <Xm/Scale.h>
#include <Xm/ScrolledW.h>
#include <Xm/ToggleB.h>

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A slider: the parameter is value * factor (n_max: 2^value). */
struct knob {
	const char *key, *label;
	size_t off;          /* offsetof(struct teach_params, ...) of a double, or SIZE_MAX */
	int min, max, decimals;
	double factor;
};

#define N_MAX_KNOB SIZE_MAX
static const struct knob knobs[] = {
	{ "t_serial", "serial time t_serial [s]", offsetof(struct teach_params, t_serial_s), 0, 200, 3, 0.001 },
	{ "t_work", "parallel work t_work [s]", offsetof(struct teach_params, t_work_s), 1, 100, 0, 1 },
	{ "c", "overhead factor c [s]", offsetof(struct teach_params, c_s), 0, 500, 4, 0.0001 },
	{ "beta", "overhead \xe2\x88\x9d W^\xce\xb2: \xce\xb2", offsetof(struct teach_params, beta), 0, 90, 2, 0.01 },
	{ "e_target", "target efficiency E", offsetof(struct teach_params, e_target), 10, 95, 2, 0.01 },
	{ "t_bound", "time bound T [s]", offsetof(struct teach_params, t_bound_s), 1, 100, 0, 1 },
	{ "mem", "memory per thread m", offsetof(struct teach_params, mem_per_thread), 5, 400, 2, 0.01 },
	{ "n_max", "largest N = 2^k", N_MAX_KNOB, 1, 10, 0, 1 },
};
#define N_KNOBS (sizeof(knobs) / sizeof(knobs[0]))

static const char *const growth_keys[] = { "const", "logn", "n", "nlogn" };
static const char *const model_keys[] = { "fixed", "memory", "time", "eff" };

struct win_teach {
	struct xsg_app *app;
	Widget shell, scales[N_KNOBS], growth[4], model[4];
	struct win_plot *plot;
};

Widget win_teach_shell(struct win_teach *wt)
{
	return wt->shell;
}

static int knob_value(const struct knob *k, const struct teach_params *p)
{
	double v;

	if (k->off == N_MAX_KNOB)
		return (int)lround(log2(p->n_max));
	v = *(const double *)((const char *)p + k->off) / k->factor;
	v = v < k->min ? k->min : v > k->max ? k->max : v;
	return (int)lround(v);
}

static void knob_apply(const struct knob *k, struct teach_params *p, double v)
{
	if (k->off == N_MAX_KNOB)
		p->n_max = 1 << (int)v;
	else
		*(double *)((char *)p + k->off) = v * k->factor;
}

static void redraw(struct xsg_app *app)
{
	if (app->teach_win && app->teach_win->plot)
		win_plot_redraw(app->teach_win->plot);
	if (app->plots[VIEW_TEACH] && (!app->teach_win || app->plots[VIEW_TEACH] != app->teach_win->plot))
		win_plot_redraw(app->plots[VIEW_TEACH]);
}

static void scale_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_teach *wt = client;
	XmScaleCallbackStruct *cbs = call;
	size_t i;

	for (i = 0; i < N_KNOBS; i++)
		if (wt->scales[i] == w)
			knob_apply(&knobs[i], &wt->app->teach, cbs->value);
	redraw(wt->app);
}

static void radio_cb(Widget w, XtPointer client, XtPointer call)
{
	struct win_teach *wt = client;
	XmToggleButtonCallbackStruct *cbs = call;
	char cmd[64];
	int k;

	if (!cbs->set)
		return;
	for (k = 0; k < 4; k++) {
		if (w == wt->growth[k])
			snprintf(cmd, sizeof(cmd), "teach-set:growth=%s", growth_keys[k]);
		if (w == wt->model[k])
			snprintf(cmd, sizeof(cmd), "teach-set:model=%s", model_keys[k]);
	}
	xsg_command(wt->app, cmd);
}

static void sync_widgets(struct win_teach *wt)
{
	const struct teach_params *p = &wt->app->teach;
	size_t i;
	int k;

	for (i = 0; i < N_KNOBS; i++)
		XmScaleSetValue(wt->scales[i], knob_value(&knobs[i], p));
	for (k = 0; k < 4; k++) {
		XmToggleButtonSetState(wt->growth[k], (int)p->growth == k, False);
		XmToggleButtonSetState(wt->model[k], (int)p->model == k, False);
	}
}

int win_teach_set(struct xsg_app *app, const char *assignment)
{
	const char *eq = strchr(assignment, '=');
	size_t klen, i;
	char *end;
	double v;
	int k;

	if (!eq)
		return -EINVAL;
	klen = (size_t)(eq - assignment);
	for (k = 0; k < 4; k++) {
		if (klen == 6 && strncmp(assignment, "growth", 6) == 0 && strcmp(eq + 1, growth_keys[k]) == 0)
			app->teach.growth = (enum teach_growth)k;
		else if (klen == 5 && strncmp(assignment, "model", 5) == 0 && strcmp(eq + 1, model_keys[k]) == 0)
			app->teach.model = (enum teach_model)k;
		else
			continue;
		goto done;
	}
	v = strtod(eq + 1, &end);
	if (*end || end == eq + 1)
		return -EINVAL;
	for (i = 0; i < N_KNOBS; i++)
		if (strlen(knobs[i].key) == klen && strncmp(knobs[i].key, assignment, klen) == 0) {
			if (knobs[i].off == N_MAX_KNOB) {
				int e = (int)lround(log2(v));
				if (e < knobs[i].min || e > knobs[i].max || (1 << e) != (int)v)
					return -EINVAL;
				app->teach.n_max = (int)v;
			} else {
				double s = v / knobs[i].factor;
				if (s < knobs[i].min - 1e-9 || s > knobs[i].max + 1e-9)
					return -EINVAL;
				*(double *)((char *)&app->teach + knobs[i].off) = v;
			}
			goto done;
		}
	return -EINVAL;
done:
	if (app->teach_win)
		sync_widgets(app->teach_win);
	redraw(app);
	return 0;
}

static Widget radio_box(Widget parent, const char *name, const char *title,
			const char *const *labels, Widget *out, struct win_teach *wt, int cols)
{
	Widget frame = XtVaCreateManagedWidget(name, xmFrameWidgetClass, parent, NULL);
	Widget box;
	int k;

	XtVaCreateManagedWidget(title, xmLabelWidgetClass, frame, XmNchildType, XmFRAME_TITLE_CHILD, NULL);
	box = XmCreateRadioBox(frame, (char *)"radio", NULL, 0);
	/* columns of toggles (two of two, or one of four in a narrow slider column): a row of
	 * four squeezed into the column lost its labels */
	XtVaSetValues(box, XmNorientation, XmVERTICAL, XmNpacking, XmPACK_COLUMN,
		      XmNnumColumns, (short)cols, NULL);
	for (k = 0; k < 4; k++) {
		XmString s = XmStringCreateLocalized((char *)labels[k]);
		out[k] = XtVaCreateManagedWidget(labels[k], xmToggleButtonWidgetClass, box,
						 XmNlabelString, s, NULL);
		XmStringFree(s);
		XtAddCallback(out[k], XmNvalueChangedCallback, radio_cb, wt);
	}
	XtManageChild(box);
	return frame;
}

struct win_teach *win_teach_open(struct xsg_app *app)
{
	static const char *const model_labels[] = { "fixed", "memory", "time", "E-cons." };
	const char *growth_labels[4];
	struct win_teach *wt = calloc(1, sizeof(*wt));
	Screen *scr = XtScreen(app->top);
	Widget form, sw, col;
	int dw, dh, col_w, k;
	size_t i;

	if (!wt)
		return NULL;
	for (k = 0; k < 4; k++)
		growth_labels[k] = teach_growth_name((enum teach_growth)k);
	teach_window_size(WidthOfScreen(scr), HeightOfScreen(scr), &dw, &dh, &col_w);
	wt->app = app;
	wt->shell = XtVaCreatePopupShell("teach", topLevelShellWidgetClass, app->top,
					 XmNtitle, "Teaching model", XmNdeleteResponse, XmUNMAP,
					 XmNallowShellResize, True, NULL);
	form = XtVaCreateWidget("form", xmFormWidgetClass, wt->shell, NULL);
	/* the sliders scroll when the window is shorter than they are (a 600-line screen) */
	sw = XtVaCreateManagedWidget("knobsScroll", xmScrolledWindowWidgetClass, form,
				     XmNscrollingPolicy, XmAUTOMATIC,
				     XmNscrollBarDisplayPolicy, XmAS_NEEDED,
				     XmNwidth, (Dimension)col_w, XmNtopAttachment, XmATTACH_FORM,
				     XmNleftAttachment, XmATTACH_FORM, XmNbottomAttachment, XmATTACH_FORM,
				     NULL);
	/* as wide as the scrolled window less its vertical scrollbar: no horizontal one */
	col = XtVaCreateManagedWidget("knobs", xmRowColumnWidgetClass, sw,
				      XmNorientation, XmVERTICAL, XmNmarginWidth, 6, XmNspacing, 2,
				      XmNwidth, (Dimension)(col_w - 40), XmNresizeWidth, False, NULL);
	for (i = 0; i < N_KNOBS; i++) {
		XmString s = XmStringCreateLocalized((char *)knobs[i].label);
		wt->scales[i] = XtVaCreateManagedWidget(knobs[i].key, xmScaleWidgetClass, col,
							XmNorientation, XmHORIZONTAL, XmNminimum, knobs[i].min,
							XmNmaximum, knobs[i].max, XmNdecimalPoints, knobs[i].decimals,
							XmNshowValue, True, XmNtitleString, s,
							XmNwidth, (Dimension)(col_w - 70), NULL);
		XmStringFree(s);
		XtAddCallback(wt->scales[i], XmNvalueChangedCallback, scale_cb, wt);
		XtAddCallback(wt->scales[i], XmNdragCallback, scale_cb, wt);
	}
	radio_box(col, "growth", "overhead growth g(N)", growth_labels, wt->growth, wt, col_w >= 240 ? 2 : 1);
	radio_box(col, "model", "curves follow", model_labels, wt->model, wt, col_w >= 240 ? 2 : 1);
	wt->plot = win_plot_create(app, VIEW_TEACH, form);
	XtVaSetValues(win_plot_area(wt->plot), XmNleftAttachment, XmATTACH_WIDGET, XmNleftWidget, sw,
		      XmNwidth, (Dimension)dw, XmNheight, (Dimension)dh, NULL);
	app->plots[VIEW_TEACH] = wt->plot;
	sync_widgets(wt);
	XtManageChild(form);
	XtPopup(wt->shell, XtGrabNone);
	return wt;
}
