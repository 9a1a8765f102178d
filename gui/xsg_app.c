/*
 * xsg_app.c — the Motif application of xscalegraph: resources (Xft render tables), the main
 * window (menu bar with File > Open Recent's cascade, experiment browser, run list, status
 * line; empty until an experiment is opened), the window table behind `open:NAME`, the
 * test-hook runner that plays app->actions once the experiment is drawn, error dialogs, X
 * error counting and screenshots of windows as the X server shows them.
 */
#include "xsg.h"
#include "outfile.h"

#include <Xm/Xm.h>
#include <Xm/CascadeB.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/MainW.h>
#include <Xm/MessageB.h>
#include <Xm/PushB.h>
#include <Xm/RowColumn.h>
#include <Xm/Separator.h>
#include <X11/Xutil.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Xft fonts everywhere through one render table; the help text uses a monospaced one. */
static String fallback_resources[] = {
	"*renderTable: rt",
	"*rt*fontType: FONT_IS_XFT",
	"*rt*fontName: DejaVu Sans",
	"*rt*fontSize: 10",
	"*helpText.renderTable: mono",
	"*runList.renderTable: mono",
	"*sitesList.renderTable: mono",
	"*mono*fontType: FONT_IS_XFT",
	"*mono*fontName: DejaVu Sans Mono",
	"*mono*fontSize: 10",
	"*background: #e8e8e4",
	"*XmText.background: #ffffff",
	"*XmDrawingArea.background: #ffffff",
	"*XmToggleButton.selectColor: #0072b2",
	"*status.alignment: XmALIGNMENT_BEGINNING",
	NULL
};

/* Menus: label, mnemonic, accelerator (Xt syntax), its text, the command. */
struct menu_item {
	const char *label;
	char mnemonic;
	const char *accel, *accel_text;
	const char *cmd;        /* NULL: separator */
};

static const struct menu_item file_menu[] = {
	{ "Open experiment...", 'O', "Ctrl<Key>o", "Ctrl+O", "open-dialog" },
	{ "Open Recent", 'n', NULL, NULL, "open-recent" },
	{ "Reload", 'R', "Ctrl<Key>r", "Ctrl+R", "reload" },
	{ "Export window...", 'x', "Ctrl<Key>s", "Ctrl+S", "export-dialog:window" },
	{ "Export all windows (PNG, SVG, PDF)...", 'E', "Ctrl<Key>e", "Ctrl+E", "export-dialog:all" },
	{ "Export data as CSV...", 'C', NULL, NULL, "export-dialog:csv" },
	{ NULL, 0, NULL, NULL, NULL },
	{ "Add experiment to compare...", 'A', NULL, NULL, "compare-dialog" },
	{ "Stop comparing", 'o', NULL, NULL, "compare-clear" },
	{ NULL, 0, NULL, NULL, NULL },
	{ "Quit", 'Q', "Ctrl<Key>q", "Ctrl+Q", "quit" },
};
static const struct menu_item view_menu[] = {
	{ "1 Experiment browser", 'B', "Ctrl<Key>1", "Ctrl+1", "open:browser" },
	{ "2 Execution profile", 'x', "Ctrl<Key>2", "Ctrl+2", "open:profile" },
	{ "3 Sequential patterns", 'q', "Ctrl<Key>3", "Ctrl+3", "open:patterns" },
	{ "4 Time, speedup, efficiency", 'T', "Ctrl<Key>4", "Ctrl+4", "open:time" },
	{ "5 Average latency", 'L', "Ctrl<Key>5", "Ctrl+5", "open:latency" },
	{ "6 Latency sources", 'S', "Ctrl<Key>6", "Ctrl+6", "open:sources" },
	{ "7 Parallelism", 'P', "Ctrl<Key>7", "Ctrl+7", "open:parallelism" },
	{ "8 Scalability matrix", 'M', "Ctrl<Key>8", "Ctrl+8", "open:matrix" },
	{ "9 Run timeline (selected run)", 'R', "Ctrl<Key>9", "Ctrl+9", "open:timeline" },
	{ "Call sites (where in the code)", 'C', NULL, NULL, "open:sites" },
	{ "11 Teaching model", 'g', "Ctrl<Key>0", "Ctrl+0", "open:teach" },
	{ NULL, 0, NULL, NULL, NULL },
	{ "Show all methods", 'a', NULL, NULL, "methods-all" },
};
static const struct menu_item run_menu[] = {
	{ "New series...", 'N', NULL, NULL, "run-dialog" },
	{ "Check the store now", 'C', "Ctrl<Key>u", "Ctrl+U", "poll" },
};
static const struct menu_item help_menu[] = {
	{ "Metrics and formulas", 'M', "<Key>F1", "F1", "open:help" },
	{ "About", 'A', NULL, NULL, "about" },
};

static struct xsg_app *the_app; /* for the X error handler, which gets no closure */

static int x_error_handler(Display *dpy, XErrorEvent *ev)
{
	char text[256];

	XGetErrorText(dpy, ev->error_code, text, sizeof(text));
	fprintf(stderr, "xscalegraph: X error: %s (request %d.%d, resource 0x%lx)\n", text,
		ev->request_code, ev->minor_code, ev->resourceid);
	if (the_app)
		the_app->x_errors++;
	return 0;
}

void xsg_status(struct xsg_app *app, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	XmString s;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!app->status) {
		fprintf(stderr, "xscalegraph: %s\n", buf);
		return;
	}
	snprintf(app->status_text, sizeof(app->status_text), "%s", buf);
	app->status_summary = 0;   /* a message; the load's summary sets it again after */
	s = XmStringCreateLocalized(buf);
	XtVaSetValues(app->status, XmNlabelString, s, NULL);
	XmStringFree(s);
	if (getenv("SG_GUI_ECHO_STATUS"))
		printf("status: %s\n", buf);
}

void xsg_destroy_cb(Widget w, XtPointer client, XtPointer call)
{
	XtDestroyWidget(w);
}

void xsg_error(struct xsg_app *app, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	Widget d;
	XmString s;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "xscalegraph: %s\n", buf);
	if (!app->top || !XtIsRealized(app->top))
		return;
	d = XmCreateErrorDialog(app->top, "error", NULL, 0);
	s = XmStringCreateLocalized(buf);
	XtVaSetValues(d, XmNmessageString, s, XmNdialogStyle, XmDIALOG_MODELESS, NULL);
	XmStringFree(s);
	XtUnmanageChild(XmMessageBoxGetChild(d, XmDIALOG_CANCEL_BUTTON));
	XtUnmanageChild(XmMessageBoxGetChild(d, XmDIALOG_HELP_BUTTON));
	XtAddCallback(d, XmNokCallback, xsg_destroy_cb, NULL);
	XtManageChild(d);
	app->current = XtParent(d);
}

void xsg_drawn(struct xsg_app *app, const char *what, double ms, int w, int h)
{
	if (!app->window_drawn && strcmp(what, "browser") == 0) {
		app->window_drawn = 1;
		if (app->timing)
			printf("window: %.1f ms (start to the main window drawn)\n",
			       xsg_now_ms() - app->t_start_ms);
	}
	/* the first draw of the experiment: after its first analysis when it needed one (the
	 * window was drawn before it); the test hook's commands wait for it */
	if (!app->first_draw_done && !app->prewarm && strcmp(what, "browser") == 0) {
		app->first_draw_done = 1;
		if (app->timing)
			printf("first-draw: %.1f ms (start to complete browser draw, %d runs)\n",
			       xsg_now_ms() - app->t_start_ms, (int)app->model.n_runs);
	}
	if (app->timing)
		printf("draw %s %dx%d: %.2f ms (done %.1f ms after start)\n", what, w, h, ms,
		       xsg_now_ms() - app->t_start_ms);
}

/* Position of the least significant set bit and the width of a channel mask. */
static void mask_shift(unsigned long mask, int *shift, int *bits)
{
	*shift = 0;
	*bits = 0;
	if (!mask)
		return;
	while (!(mask & 1)) {
		mask >>= 1;
		(*shift)++;
	}
	while (mask & 1) {
		mask >>= 1;
		(*bits)++;
	}
}

static unsigned channel(unsigned long px, unsigned long mask)
{
	int shift, bits;
	unsigned long v;

	mask_shift(mask, &shift, &bits);
	if (!bits)
		return 0;
	v = (px & mask) >> shift;
	return (unsigned)(bits >= 8 ? v >> (bits - 8) : (v * 255) / ((1ul << bits) - 1));
}

static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* The PNG of s into a file made as outfile.h says (replacing one of that name, never writing
 * through a link). */
static int screenshot_write(cairo_surface_t *s, const char *path)
{
	struct out_file of;
	char err[4200];
	int rc;

	if ((rc = out_file_open(&of, path, OUT_MODE_SHARED, err, sizeof(err))) < 0)
		goto out;
	if (cairo_surface_write_to_png_stream(s, png_write, of.f) != CAIRO_STATUS_SUCCESS) {
		out_file_abort(&of);
		snprintf(err, sizeof(err), "%s: error: cannot write the PNG", path);
		rc = -EIO;
		goto out;
	}
	rc = out_file_commit(&of, 1, err, sizeof(err));
out:
	if (rc < 0)
		fprintf(stderr, "xscalegraph: shot: %s\n", err);
	return rc;
}

int xsg_screenshot(struct xsg_app *app, Widget w, const char *path)
{
	Window win = XtWindow(w);
	XWindowAttributes wa;
	XImage *img = NULL;
	cairo_surface_t *s = NULL;
	int x, y, rc = 0;

	XSync(app->dpy, False);
	if (!win || !XGetWindowAttributes(app->dpy, win, &wa) || wa.map_state != IsViewable) {
		rc = -ENOENT;
		goto out;
	}
	if (!(img = XGetImage(app->dpy, win, 0, 0, (unsigned)wa.width, (unsigned)wa.height,
			      AllPlanes, ZPixmap))) {
		rc = -EIO;
		goto out;
	}
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, wa.width, wa.height);
	cairo_surface_flush(s);
	for (y = 0; y < wa.height; y++) {
		uint32_t *row = (uint32_t *)(cairo_image_surface_get_data(s) +
					     (size_t)y * (size_t)cairo_image_surface_get_stride(s));
		for (x = 0; x < wa.width; x++) {
			unsigned long px = XGetPixel(img, x, y);
			row[x] = (uint32_t)channel(px, img->red_mask) << 16 |
				 (uint32_t)channel(px, img->green_mask) << 8 |
				 (uint32_t)channel(px, img->blue_mask);
		}
	}
	cairo_surface_mark_dirty(s);
	rc = screenshot_write(s, path);
out:
	if (img)
		XDestroyImage(img);
	if (s)
		cairo_surface_destroy(s);
	return rc;
}

int xsg_open(struct xsg_app *app, const char *name)
{
	const struct view_desc *vd;
	enum view_id id;

	if (strcmp(name, "help") == 0) {
		app->current = win_help_open(app);
		return 0;
	}
	if (strcmp(name, "teach") == 0) {
		if (!app->teach_win)
			app->teach_win = win_teach_open(app);
		if (!app->teach_win)
			return -ENOMEM;
		XtPopup(win_teach_shell(app->teach_win), XtGrabNone);
		XRaiseWindow(app->dpy, XtWindow(win_teach_shell(app->teach_win)));
		app->current = win_teach_shell(app->teach_win);
		return 0;
	}
	if (!(vd = view_find(name)))
		return -ENOENT;
	id = (enum view_id)(vd - view_get(0));
	if (!app->plots[id])
		app->plots[id] = win_plot_create(app, id, NULL);
	win_plot_show(app->plots[id]);
	app->current = win_plot_shell(app->plots[id]);
	return 0;
}

Widget xsg_window(struct xsg_app *app, const char *name)
{
	const struct view_desc *vd;

	if (strcmp(name, "main") == 0)
		return app->top;
	if (strcmp(name, "help") == 0)
		return app->help_shell;
	if (strcmp(name, "teach") == 0)
		return app->teach_win ? win_teach_shell(app->teach_win) : NULL;
	if (strcmp(name, "sites") == 0)
		return win_sites_shell();
	if (!(vd = view_find(name)) || !app->plots[vd - view_get(0)])
		return NULL;
	return win_plot_shell(app->plots[vd - view_get(0)]);
}

static void menu_add(struct xsg_app *app, Widget bar, const char *title, char mnemonic,
		     const struct menu_item *items, size_t n, int help)
{
	Widget pd = XmCreatePulldownMenu(bar, (char *)title, NULL, 0);
	Widget cb;
	size_t i;

	XtVaSetValues(pd, XmNuserData, (XtPointer)app, NULL); /* read by xsg_menu_cb */

	cb = XtVaCreateManagedWidget(title, xmCascadeButtonWidgetClass, bar, XmNsubMenuId, pd,
				     XmNmnemonic, (KeySym)mnemonic, NULL);
	if (help)
		XtVaSetValues(bar, XmNmenuHelpWidget, cb, NULL);
	for (i = 0; i < n; i++) {
		Widget b;
		if (!items[i].cmd) {
			XtCreateManagedWidget("sep", xmSeparatorWidgetClass, pd, NULL, 0);
			continue;
		}
		if (strcmp(items[i].cmd, "open-recent") == 0) {
			/* a cascade, refilled from the recent file (win_open.c) */
			app->recent_menu = XmCreatePulldownMenu(pd, "recentMenu", NULL, 0);
			XtVaSetValues(app->recent_menu, XmNuserData, (XtPointer)app, NULL);
			XtVaCreateManagedWidget(items[i].label, xmCascadeButtonWidgetClass, pd,
						XmNsubMenuId, app->recent_menu,
						XmNmnemonic, (KeySym)items[i].mnemonic, NULL);
			continue;
		}
		b = XtVaCreateManagedWidget(items[i].label, xmPushButtonWidgetClass, pd,
					    XmNmnemonic, (KeySym)items[i].mnemonic, NULL);
		if (items[i].accel) {
			XmString at = XmStringCreateLocalized((char *)items[i].accel_text);
			XtVaSetValues(b, XmNaccelerator, items[i].accel, XmNacceleratorText, at, NULL);
			XmStringFree(at);
		}
		XtAddCallback(b, XmNactivateCallback, xsg_menu_cb, (XtPointer)items[i].cmd);
	}
}

#define MENU(app, bar, t, m, items, help) \
	menu_add(app, bar, t, m, items, sizeof(items) / sizeof(items[0]), help)

static Boolean action_runner(XtPointer arg);

static void action_rearm(XtPointer arg, XtIntervalId *id)
{
	struct xsg_app *app = arg;

	XtAppAddWorkProc(app->ctx, action_runner, app);
}

/* The test hook: one command per call, once nothing else is pending, until the list ends.
 * Before the first draw and during wait:MS it steps aside for a timer instead of spinning. */
static Boolean action_runner(XtPointer arg)
{
	struct xsg_app *app = arg;
	const char *cmd;
	double now = xsg_now_ms();

	if (!app->first_draw_done || now < app->wait_until_ms) {
		unsigned long ms = app->first_draw_done ? (unsigned long)(app->wait_until_ms - now) + 1 : 10;
		XtAppAddTimeOut(app->ctx, ms, action_rearm, app);
		return True;
	}
	if (app->next_action >= app->n_actions)
		return True;
	cmd = app->actions[app->next_action++];
	if (getenv("SG_GUI_ECHO_STATUS"))
		printf("action: %s\n", cmd);
	if (xsg_command(app, cmd) < 0 && !app->exit_code)
		app->exit_code = 3;
	XSync(app->dpy, False);
	return app->next_action >= app->n_actions;
}

int xsg_app_run(struct xsg_app *app, int *argc, char **argv)
{
	Widget form, bar, runs;
	int rc;

	the_app = app;
	app->run_fd = -1;
	XtSetLanguageProc(NULL, NULL, NULL);
	app->top = XtVaOpenApplication(&app->ctx, "XScalegraph", NULL, 0, argc, argv,
				       fallback_resources, applicationShellWidgetClass,
				       XmNtitle, "xscalegraph", NULL);
	app->dpy = XtDisplay(app->top);
	XSetErrorHandler(x_error_handler);
	if (*argc > 1) {
		fprintf(stderr, "xscalegraph: error: unknown X option %s\n", argv[1]);
		return 2;
	}
	model_init(&app->model);
	teach_defaults(&app->teach);
	timeline_init(&app->timeline);
	app->vctx = (struct view_ctx){ &app->model, &app->teach, -1, -1, &app->timeline };
	xsg_actions_register(app);

	app->main_win = XtVaCreateManagedWidget("main", xmMainWindowWidgetClass, app->top, NULL);
	bar = XmCreateMenuBar(app->main_win, "menubar", NULL, 0);
	MENU(app, bar, "File", 'F', file_menu, 0);
	MENU(app, bar, "View", 'V', view_menu, 0);
	MENU(app, bar, "Run", 'R', run_menu, 0);
	MENU(app, bar, "Help", 'H', help_menu, 1);
	XtManageChild(bar);

	form = XtVaCreateManagedWidget("form", xmFormWidgetClass, app->main_win, NULL);
	app->status = XtVaCreateManagedWidget("status", xmLabelWidgetClass, form,
					      XmNleftAttachment, XmATTACH_FORM, XmNrightAttachment, XmATTACH_FORM,
					      XmNbottomAttachment, XmATTACH_FORM, XmNmarginWidth, 6,
					      XmNmarginHeight, 4, NULL);
	runs = win_runs_create(app, form, app->status);
	app->plots[VIEW_BROWSER] = win_plot_create(app, VIEW_BROWSER, form);
	XtVaSetValues(win_plot_area(app->plots[VIEW_BROWSER]), XmNbottomAttachment, XmATTACH_WIDGET,
		      XmNbottomWidget, runs, NULL);
	XtVaSetValues(app->main_win, XmNmenuBar, bar, XmNworkWindow, form, NULL);

	win_open_recent_fill(app);
	if (app->demo)
		XtVaSetValues(app->top, XmNtitle, "xscalegraph — DEMO: synthetic example data, not a "
			      "measurement", NULL);
	else if (app->n_dirs)
		XtVaSetValues(app->top, XmNtitle, app->source, NULL);
	XtRealizeWidget(app->top);
	app->current = app->top;
	/* after the window exists: a failure is a dialog over it, naming the path */
	if (app->n_dirs == 0)
		xsg_status(app, "No experiment open: File > Open experiment (Ctrl+O) or File > Open "
			   "Recent; xscalegraph --demo shows a synthetic example");
	else
		xsg_load(app);
	xsg_live_start(app);
	if (app->n_actions)
		XtAppAddWorkProc(app->ctx, action_runner, app);

	while (!XtAppGetExitFlag(app->ctx))
		XtAppProcessEvent(app->ctx, XtIMAll);
	if (app->x_errors) {
		fprintf(stderr, "xscalegraph: %d X errors\n", app->x_errors);
		if (!app->exit_code)
			app->exit_code = 4;
	}
	rc = app->exit_code;
	timeline_clear(&app->timeline);
	model_clear(&app->model);
	XtDestroyApplicationContext(app->ctx);
	return rc;
}
