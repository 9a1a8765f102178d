/*
 * xsg.h — private interface of xscalegraph's Motif front end (xscalegraph.c, xsg_app.c,
 * xsg_actions.c, xsg_live.c, win_*.c). The front end is thin: the model (model.h) holds the
 * experiment and the selection, the drawings are in view*.c; this layer makes windows, forwards
 * user input to named commands, and redraws on model changes, exposure and resize.
 */
#ifndef GUI_XSG_H
#define GUI_XSG_H

#include <X11/Intrinsic.h>
#include <stdio.h>
#include <sys/types.h>
#include <cairo.h>

#include "model.h"
#include "teach.h"
#include "timeline.h"
#include "view.h"

struct win_plot;
struct win_teach;

struct xsg_app {
	XtAppContext ctx;
	Widget top;                 /* the main window's shell */
	Widget main_win;            /* XmMainWindow: menu bar + browser */
	Widget status;              /* status line under the browser */
	Display *dpy;

	char *source;               /* fixture/CSV or experiment store directory */
	char **dirs;                /* dirs[0] = source, then the experiments compared with it */
	size_t n_dirs;
	struct model model;
	struct teach_params teach;
	struct view_ctx vctx;
	struct timeline timeline;   /* the run of window 9 (vctx.tl points here) */

	struct win_plot *plots[VIEW_COUNT]; /* plots[VIEW_BROWSER] lives in the main window */
	struct win_teach *teach_win;
	Widget help_shell;
	Widget current;             /* shell of the window opened or raised last */

	char **actions;             /* test hook: commands run in order after start-up */
	size_t n_actions, next_action;
	double wait_until_ms;       /* the action runner pauses until then (wait:MS) */
	int timing;                 /* print first-draw and redraw times on stdout */
	double t_start_ms;          /* CLOCK_MONOTONIC at main() */
	int first_draw_done;        /* the experiment drawn (after a first analysis, if any) */
	int window_drawn;           /* the main window drawn at all */
	int x_errors;
	int exit_code;

	int poll_ms;                /* live monitor period, 0: off */
	long long stamp;            /* store/CSV change stamp seen at the last load */
	int load_failed;            /* the last load failed: the monitor retries it quietly */
	struct model_prewarm *prewarm; /* first analysis of the store under way, or NULL */
	size_t prewarm_total;       /* runs it analyses */
	long long err_stamp;        /* stamp of the failure already shown in a dialog */
	unsigned fail_polls;        /* polls since, for the periodic retry */
	int n_reloads;              /* live reloads so far (--timing prints each) */
	int demo;                   /* --demo: the bundled synthetic fixture */
	int status_summary;         /* the status line shows the load summary, not a message */
	char status_text[1024];     /* what the status line shows */
	Widget recent_menu;         /* File > Open Recent's pulldown */
	Widget details;             /* the run list's detail pane: the selected run, runner errors */
	pid_t run_pid;              /* `scalegraph run` started by Run > New series, 0: none */
	int run_fd;                 /* its output pipe, -1: none */
	XtInputId run_input;
	char run_line[256];         /* last progress line of that run */
	size_t run_line_len;
	char run_log[4096];         /* its last lines, shown whole when it fails */
	char run_out[4096];         /* its output directory, opened once its store exists */
};

/* Milliseconds on CLOCK_MONOTONIC. */
double xsg_now_ms(void);

/* xsg_app.c: runs the GUI on app->source until quit; returns the exit status. */
int xsg_app_run(struct xsg_app *app, int *argc, char **argv);
void xsg_status(struct xsg_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error shown in a dialog (and on stderr). */
void xsg_error(struct xsg_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* XtCallbackProc that destroys the widget (dialogs' OK and Cancel). */
void xsg_destroy_cb(Widget w, XtPointer client, XtPointer call);
/* Called by every plot window after a complete draw (timing, first draw). */
void xsg_drawn(struct xsg_app *app, const char *what, double ms, int w, int h);
/* Writes the X window of shell `w` (as the server shows it) to a PNG. Returns 0 or -errno. */
int xsg_screenshot(struct xsg_app *app, Widget w, const char *path);
/* Opens the window of view `name` ("time", "teach", "help", ...). Returns 0 or -ENOENT. */
int xsg_open(struct xsg_app *app, const char *name);
/* The shell of window `name` when it exists, else NULL. */
Widget xsg_window(struct xsg_app *app, const char *name);

/* xsg_live.c: loading and the live monitor. xsg_load (re)reads app->source into the model,
 * keeping the selection and the listeners; returns 0 or -errno (message shown). */
int xsg_load(struct xsg_app *app);
/* Starts the store watch timer (period app->poll_ms). */
void xsg_live_start(struct xsg_app *app);
/* Reloads when the store or CSV changed since the last load; returns 1 if it did. */
int xsg_live_check(struct xsg_app *app);
/* Starts `scalegraph run SPEC -o OUT` (OUT NULL: the open experiment), progress in the status
 * line; its last lines stay in the detail pane when it fails. */
int xsg_run_series(struct xsg_app *app, const char *spec, const char *out);
/* Opens experiment `dir` in place of the one open (keeping it when dir cannot be read), and
 * adds it to the recent list. */
int xsg_open_experiment(struct xsg_app *app, const char *dir);
/* Shows text in the detail pane under the run list (persistent until replaced). */
void xsg_details(struct xsg_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Test hooks: expect-reloads:K[,MS], wait-file:PATH[,MS]. */
int xsg_cmd_expect_reloads(struct xsg_app *app, const char *arg);
int xsg_cmd_wait_file(struct xsg_app *app, const char *arg);
/* Adds experiment directory `dir` to app->dirs (compare); -ENOMEM. Does not reload. */
int xsg_dirs_add(struct xsg_app *app, const char *dir);

/* xsg_actions.c: the named commands. "name" or "name:argument". Returns 0 or -errno; unknown
 * names are -ENOENT with a message. */
int xsg_command(struct xsg_app *app, const char *cmd);
/* Registers the Xt action xsg(command) so translations and accelerators reach the commands. */
void xsg_actions_register(struct xsg_app *app);
/* Prints the command table (for --help). */
void xsg_commands_list(FILE *f);
/* XtCallbackProc for menu items: client_data is the command string. */
void xsg_menu_cb(Widget w, XtPointer client, XtPointer call);

/* win_plot.c: a window that shows one view in an XmDrawingArea, with method toggles on the
 * curve windows (compare) and source toggles on window 6. parent NULL: a new top-level shell,
 * else created as a child of parent (the browser in the main window). */
struct win_plot *win_plot_create(struct xsg_app *app, enum view_id id, Widget parent);
void win_plot_show(struct win_plot *wp);
/* The drawing area (to attach an embedded plot beside other widgets). */
Widget win_plot_area(struct win_plot *wp);
void win_plot_redraw(struct win_plot *wp);
Widget win_plot_shell(struct win_plot *wp);
/* Sets the drawing area to w x h (the shell follows). */
void win_plot_resize(struct win_plot *wp, int w, int h);
/* Selects a matrix cell by N and N' (matrix window) and says which runs are behind it.
 * Returns 0 or -ENOENT. */
int win_plot_matrix_select(struct win_plot *wp, int n, int n2);
/* Time of the last complete draw, ms. */
double win_plot_last_ms(const struct win_plot *wp);
/* Commands of the plot windows: hover:X,Y (the value under pixel X,Y of the current window in
 * the status line), sources-method:M, parallelism-method:M (the method of window 6 / 7),
 * toggles (every toggle of the current window and whether it is inside the window). */
int xsg_cmd_hover(struct xsg_app *app, const char *arg);
int xsg_cmd_sources_method(struct xsg_app *app, const char *arg);
int xsg_cmd_parallelism_method(struct xsg_app *app, const char *arg);
int xsg_cmd_toggles(struct xsg_app *app, const char *arg);

/* win_matrix.c: window 8's readout of the selected cell and its runs (under the drawing),
 * hover and clicks on the drawing, and its commands. */
void win_matrix_attach(struct xsg_app *app, Widget form, Widget da);
void win_matrix_update(struct xsg_app *app);
void win_matrix_click(struct xsg_app *app, int x, int y);
/* Selects cell (n, n2) of experiment exp (0 the one opened); -ENOENT when it has none. */
int win_matrix_select(struct xsg_app *app, int exp, int n, int n2);
int xsg_cmd_matrix_run(struct xsg_app *app, const char *arg);
int xsg_cmd_matrix_hover(struct xsg_app *app, const char *arg);
int xsg_cmd_matrix_where(struct xsg_app *app, const char *arg);
int xsg_cmd_matrix_readout(struct xsg_app *app, const char *arg);

/* win_teach.c: window 11, sliders beside the teaching drawing. */
struct win_teach *win_teach_open(struct xsg_app *app);
Widget win_teach_shell(struct win_teach *wt);
/* Sets one parameter by name ("growth=n", "e_target=0.5"); -EINVAL when unknown/bad. */
int win_teach_set(struct xsg_app *app, const char *assignment);

/* win_timeline.c: window 9's controls (button row and scrollbar above the drawing; returns the
 * widget the drawing attaches below), mouse and keys on its drawing area, and its commands. */
Widget win_timeline_controls(struct xsg_app *app, Widget form);
void win_timeline_attach(struct xsg_app *app, Widget da);
/* Redraws window 9 after the visible window changed (scrollbar set from it when asked). */
void win_timeline_refresh(struct xsg_app *app, int scrollbar);
/* open:timeline — the browser's selected run, else the one open, else the default run. */
int win_timeline_open(struct xsg_app *app);
int xsg_cmd_timeline_run(struct xsg_app *app, const char *arg);
int xsg_cmd_timeline_zoom(struct xsg_app *app, const char *arg);
int xsg_cmd_timeline_pan(struct xsg_app *app, const char *arg);
int xsg_cmd_timeline_click(struct xsg_app *app, const char *arg);
int xsg_cmd_timeline_select(struct xsg_app *app, const char *arg);

/* win_runs.c: the run list under the browser (attached above `below`) with its label; returns
 * the topmost widget (the browser attaches above it). */
Widget win_runs_create(struct xsg_app *app, Widget form, Widget below);
int xsg_cmd_run_select(struct xsg_app *app, const char *arg);
int xsg_cmd_runs_sort(struct xsg_app *app, const char *arg);
int xsg_cmd_runs_scroll(struct xsg_app *app, const char *arg);

/* win_open.c: File > Open, File > Open Recent ($XDG_CONFIG_HOME/scalegraph/recent) and the
 * Run > New series dialog (spec and output directory). */
void win_open_recent_fill(struct xsg_app *app);
int win_open_recent_add(struct xsg_app *app, const char *dir);
int xsg_cmd_open_experiment(struct xsg_app *app, const char *arg);
int xsg_cmd_open_dialog(struct xsg_app *app, const char *arg);
int xsg_cmd_open_recent(struct xsg_app *app, const char *arg);
int xsg_cmd_run_dialog(struct xsg_app *app, const char *arg);

/* xsg_screen.c: the drawing size of window id (its default w x h pixels in, the size to open
 * with out): grown with a screen larger than 1366x768 (plot windows, at most 1600x1000), then
 * shrunk so the window with its controls takes at most 90 % of the screen. */
void xsg_fit_screen(struct xsg_app *app, enum view_id id, int *w, int *h);

/* win_sites.c: the call sites behind a latency source (sites.h). Other windows move its focus
 * with xsg_sites_focus: source a model_metric (-1: keep; a source not split by site is kept
 * too); then run_id != 0: the timeline's run (-1 a bare trace) with its selected interval, if
 * any; else n2 > 0: the matrix cell (n, n2)'s points; else method: that point at N = n (0: its
 * largest N). Updates the window when it is open; else only remembers. */
void xsg_sites_focus(struct xsg_app *app, int source, const char *method, int n, int n2,
		     long long run_id);
int win_sites_open(struct xsg_app *app);
Widget win_sites_shell(void);
int xsg_cmd_sites_source(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_point(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_cell(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_run(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_export(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_chooser(struct xsg_app *app, const char *arg);
int xsg_cmd_sites_resize(struct xsg_app *app, const char *arg);

/* win_help.c: the metrics explained, with formulas; a search field and a Close button. */
Widget win_help_open(struct xsg_app *app);
extern const char xsg_help_text[];
/* help-find:TEXT — selects the next match in the help (opened if needed) and says its line. */
int xsg_cmd_help_find(struct xsg_app *app, const char *arg);
/* The next case-insensitive match of what in text at or after from, wrapping; -1: none. */
long xsg_help_find(const char *text, const char *what, long from);

#endif /* GUI_XSG_H */
