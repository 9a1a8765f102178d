/*
 * win_help.c — Help > Metrics and formulas: every figure xscalegraph draws, explained in a
 * sentence with its formula (METRICS.md restated for users; docs/gui.md carries the same text).
 * A read-only XmText in a scrolled window, monospaced so the formulas line up, under a row
 * with a search field (Enter or "Find next": the next match, case-insensitive, selected and
 * scrolled to, wrapping at the end) and a Close button; Escape and Ctrl+W close it too. The
 * search is the command help-find:TEXT, so tests drive what the field does.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Form.h>
#include <Xm/Label.h>
#include <Xm/PushB.h>
#include <Xm/Text.h>
#include <Xm/TextF.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char xsg_help_text[] =
	"xscalegraph: why a parallel program stops scaling (after Scale-Graph, IEEE TSE 1997)\n"
	"\n"
	"A run executes a program of problem size W on N threads. All times are seconds,\n"
	"shown with an automatic unit (s, ms, us). A figure that could not be measured is\n"
	"listed as \"unavailable\" with the reason; it is never drawn as zero.\n"
	"\n"
	"RUN FIGURES\n"
	"  T_para   parallel time: end minus start of the measured region.\n"
	"  T_i      effective time of thread i: its first to its last event in the region.\n"
	"  T_seq    time of the sequential program at the same size W (or of the N=1 run;\n"
	"           the report says which).\n"
	"  S        speedup            S = T_seq / T_para           (ideal: S = N)\n"
	"  E        efficiency         E = T_seq / (N * T_para)     (ideal: E = 1)\n"
	"  p_x      the N with the smallest T_para for a fixed size: beyond it, adding\n"
	"           threads costs more latency than it saves (window 4 marks it).\n"
	"\n"
	"AVERAGE OVERHEAD LATENCY (window 5)\n"
	"  L(W,N) = (IT + PT + ML) / N        the time each thread loses, on average\n"
	"  The books:  T_para * (1 - E) = T_para - T_seq / N = L + U / N + closure * T_para\n"
	"  (U, the extra work, and closure, the share the parts miss: below).\n"
	"\n"
	"THE TIME BUDGET: from the kernel's context-switch records every processor's\n"
	"  time T_i is on CPU (compute, or inside a primitive), runnable but not running\n"
	"  (no CPU free), or asleep (in a wait, or blocked elsewhere). Each part below\n"
	"  counts once; summed with the compute they give N * T_para.\n"
	"\n"
	"LATENCY SOURCES (window 6), each summed over the N threads\n"
	"  IT_edge     idle at the edges: N*T_para - sum_i T_i (threads that start late or\n"
	"              end early).\n"
	"  IT_barrier  barrier waiting: from a thread's arrival to the last arrival.\n"
	"  IT_lock     lock waiting: blocked while another thread holds the lock.\n"
	"  IT_cond     condition waiting: in a condition wait until it is signalled.\n"
	"  IT_sem      semaphore waiting: in sem_wait until the post that gave its token.\n"
	"  IT_join     join waiting: a processor waiting in join for a thread still running.\n"
	"  IT_sched    runnable, not running (CPU contention): ready to run but no CPU was\n"
	"              free, wherever it fell (in compute or in a primitive); grows when\n"
	"              N > CPUs. Without switch records it is the run-delay counter, which\n"
	"              overlaps the waits: then a line only, not stacked.\n"
	"  IT_blocked  blocked outside primitives: off CPU, asleep, but in no traced\n"
	"              primitive (I/O, page faults, untraced locks or sleeps).\n"
	"  PT_barrier  barrier overhead: last arrival to each thread's exit.\n"
	"  PT_lock     lock overhead: acquire time not explained by contention + release.\n"
	"  PT_sem      semaphore overhead: sem_wait/sem_post time not spent waiting for a\n"
	"              post.\n"
	"  PT_thread   thread create and join time (the join's wait is IT_join).\n"
	"  ML          memory reference latency: stall time of the parallel run minus that of\n"
	"              the same work on one thread, ML(N) - ML(1), from hardware counters.\n"
	"              Without a PMU it is unavailable (as on virtual machines).\n"
	"  U           extra work: CPU time in compute - T_seq - ML: work the parallel\n"
	"              program does beyond the sequential one (redundant computation,\n"
	"              spinning). Negative: less work than the sequential program\n"
	"              (superlinear, e.g. caches); it stacks below zero.\n"
	"  closure     not a source but a check: (N*T_para - every part) / (N*T_para), the\n"
	"              share of time the parts miss; window 6 names the largest. Near 0:\n"
	"              the books close.\n"
	"  Window 6 draws each source / N per thread; the stacked columns show what a\n"
	"  thread's latency is made of. Sources zero at every N are only named.\n"
	"\n"
	"THE REPORT'S MARKS (as scalegraph report prints them)\n"
	"  !        the tracing cost (the library's own time) is above 5 % of N*T_para at\n"
	"           this point: its latency sources hold that much of it. Drawn beside L\n"
	"           (windows 5, 6) and in every readout of the point.\n"
	"  oversub  N is above the machine's CPUs: the grey band over those N in the\n"
	"           charts against N; the readouts and the run list say it too.\n"
	"  \xe2\x89\xa0        the measured overhead (traced / plain - 1: the traced runs' wall\n"
	"           time over the plain build's, spec 'plain') and the estimated tracing\n"
	"           cost differ by more than 5 points: the estimate from record counts\n"
	"           does not hold there. Beside the point's markers, in its readouts,\n"
	"           the run list and run details; windows 4-6 list the measured overhead\n"
	"           (or 'not measured (no plain build in the spec)').\n"
	"\n"
	"PARALLELISM (window 7)\n"
	"  average parallelism = CPU time of the processors / T_para: how many are on a\n"
	"  CPU at once, between 0 and min(N, CPUs).\n"
	"\n"
	"SEQUENTIAL PATTERNS (windows 2, 3), on the sequential program\n"
	"  profile             share of time per function (exclusive time).\n"
	"  CPU utilization     CPU busy time / total time.\n"
	"  memory access rate  memory access (stall) time / total time.\n"
	"  miss rate           cache misses / cache references.\n"
	"\n"
	"SCALING MODELS: how the size W grows with N\n"
	"  fixed         W fixed (Amdahl).\n"
	"  memory-bound  memory per thread held: N * B = C * size.\n"
	"  time-bound    W grows so that T_para stays at a bound T.\n"
	"  E-conserved   W grows so that E stays at a target (isoefficiency).\n"
	"\n"
	"SCALABILITY MATRIX (window 8)\n"
	"  For N < N' and the sizes W, W' a model picks:\n"
	"      scale(N, N') = L(W, N) / L(W', N')\n"
	"  near 1: latency does not grow (scalable); small: latency grows fast.\n"
	"  Each cell shows time-bound / E-conserved / memory-bound, each L(W,N) / L(W',N')\n"
	"  of the two points the model chose. When E and E' are both low (below 0.5 and\n"
	"  within 0.1, or both below 0.2) the time-bound value is near 1 whatever the\n"
	"  latency does (it is at least 1 - E): such values carry a '*' (the paper's\n"
	"  caveat, 6.4); '~' marks a value whose size search missed its target. Flagged\n"
	"  values are drawn hatched and muted; above 1 (the latency fell) is green.\n"
	"  Click a cell for its operands and the runs behind them (double-click a run:\n"
	"  its timeline); scalegraph report --matrix prints the same readout.\n"
	"\n"
	"RUN TIMELINE (window 9): one lane per thread of the run selected in the browser\n"
	"  busy          on CPU, computing (none of the states below).\n"
	"  barrier wait  arrival to the last thread's arrival (IT_barrier).\n"
	"  barrier ovh.  last arrival to this thread's leave (PT_barrier).\n"
	"  lock wait     blocked while another thread holds the lock (IT_lock).\n"
	"  lock ovh.     acquiring not explained by contention (PT_lock).\n"
	"  sem. wait     in sem_wait until a post (IT_sem); sem. overhead: the rest (PT_sem).\n"
	"  cond. wait    in a condition wait (IT_cond).\n"
	"  create/join   creating or joining threads (PT_thread, IT_join).\n"
	"  runnable      off CPU but ready to run, in any of the states above: CPU\n"
	"                contention (IT_sched), black.\n"
	"  blocked       off CPU, asleep outside any primitive (IT_blocked), dark grey.\n"
	"  idle          before the thread's first or after its last event (IT_edge).\n"
	"  A pixel shows the state that fills most of it, or a wait, primitive or\n"
	"  off-CPU state that fills a quarter of it. Zoom: + - Home, buttons or wheel;\n"
	"  pan: Left Right, drag or the scrollbar; click an interval for its state,\n"
	"  object, start, duration, and where its thread's time went (compute, waits,\n"
	"  primitives, runnable, blocked).\n"
	"\n"
	"COMPARE (window 10): the method toggles overlay any scaling methods on windows\n"
	"  3-7; File > Add experiment to compare overlays other experiments' methods too,\n"
	"  named EXPERIMENT:method (dashed).\n"
	"\n"
	"TEACHING MODEL (window 11)\n"
	"  T_para(W,N) = t_serial + W*t_work/N + c*W^beta*g(N),\n"
	"  g(1) = 0, and for N > 1 the growth chosen: g(N) = 1, log2 N, N - 1 or\n"
	"  N log2 N (the window's radio box names them the same way; its formula shows\n"
	"  the sliders' values, with the W^beta term whenever beta is not 0). Move the\n"
	"  sliders and compare the model's speedup, efficiency, L(W,N) and matrix with\n"
	"  the measured ones.\n"
	"\n"
	"EXPORT: File > Export window... asks for a file (PNG, SVG or PDF by its\n"
	"  extension) and asks before replacing an existing one.\n"
	"\n"
	"KEYS: Ctrl+1..9 windows, Ctrl+0 teaching, Ctrl+R reload, Ctrl+E export all,\n"
	"Ctrl+W or Escape close window, Ctrl+Q quit, F1 this help. In this help: type\n"
	"in Find and press Enter for the next match.\n";

/* Escape and Ctrl+W close the help from any of its widgets; F1 on it is harmless. */
static const char help_keys[] =
	"Ctrl<Key>w: xsg(close,help)\n"
	"<Key>Escape: xsg(close,help)\n"
	"<Key>osfCancel: xsg(close,help)\n"
	"Ctrl<Key>q: xsg(quit)\n";

static Widget help_text, help_field;
static long help_pos;    /* where the next search starts: after the last match */

static struct xsg_app *app_of(Widget w)
{
	struct xsg_app *app = NULL;

	XtVaGetValues(XtParent(w), XmNuserData, &app, NULL);
	return app;
}

static void close_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = app_of(w);

	if (app)
		xsg_command(app, "close:help");
}

/* Enter in the field and "Find next": the command with the field's text. */
static void find_cb(Widget w, XtPointer client, XtPointer call)
{
	struct xsg_app *app = app_of(w);
	char *s = XmTextFieldGetString(help_field), cmd[300];

	if (app && s && *s) {
		snprintf(cmd, sizeof(cmd), "help-find:%s", s);
		xsg_command(app, cmd);
	}
	XtFree(s);
}

/* The next match of `what` at or after `from` in text (case-insensitive), wrapping to the
 * start; -1 when there is none. */
long xsg_help_find(const char *text, const char *what, long from)
{
	const char *p;
	size_t len = strlen(text);

	if (!*what)
		return -1;
	if (from < 0 || (size_t)from > len)
		from = 0;
	if ((p = strcasestr(text + from, what)) || (p = strcasestr(text, what)))
		return p - text;
	return -1;
}

int xsg_cmd_help_find(struct xsg_app *app, const char *arg)
{
	char line[200];
	long at, ln = 1, bol;
	const char *p;

	win_help_open(app);
	app->current = app->help_shell;
	{
		/* the field shows what is searched, whoever asked (the field, a test) */
		char *cur = XmTextFieldGetString(help_field);
		if (!cur || strcmp(cur, arg) != 0)
			XmTextFieldSetString(help_field, (char *)arg);
		XtFree(cur);
	}
	if ((at = xsg_help_find(xsg_help_text, arg, help_pos)) < 0) {
		xsg_status(app, "help: \"%s\" not found", arg);
		return -ENOENT;
	}
	for (p = xsg_help_text, bol = 0; p < xsg_help_text + at; p++)
		if (*p == '\n') {
			ln++;
			bol = p + 1 - xsg_help_text;
		}
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(xsg_help_text + bol, "\n"),
		 xsg_help_text + bol);
	help_pos = at + (long)strlen(arg);
	XmTextSetSelection(help_text, (XmTextPosition)at, (XmTextPosition)help_pos,
			   XtLastTimestampProcessed(app->dpy));
	XmTextShowPosition(help_text, (XmTextPosition)help_pos);
	XmTextSetInsertionPosition(help_text, (XmTextPosition)help_pos);
	xsg_status(app, "help: \"%s\" at line %ld: %s", arg, ln, line);
	return 0;
}

/* A button in the search row, attached right of `left` (NULL: the form's right edge). */
static Widget button(Widget form, const char *name, const char *label, Widget left,
		     XtCallbackProc cb)
{
	XmString s = XmStringCreateLocalized((char *)label);
	Widget b = XtVaCreateManagedWidget(name, xmPushButtonWidgetClass, form, XmNlabelString, s,
					   XmNtopAttachment, XmATTACH_FORM, NULL);

	XmStringFree(s);
	if (left)
		XtVaSetValues(b, XmNleftAttachment, XmATTACH_WIDGET, XmNleftWidget, left, NULL);
	else
		XtVaSetValues(b, XmNrightAttachment, XmATTACH_FORM, NULL);
	XtAddCallback(b, XmNactivateCallback, cb, NULL);
	XtOverrideTranslations(b, XtParseTranslationTable(help_keys));
	return b;
}

Widget win_help_open(struct xsg_app *app)
{
	if (!app->help_shell) {
		Screen *scr = XtScreen(app->top);
		/* at most 90 % of the screen: 18 px a line of DejaVu Sans Mono 10 and 8.5 px a
		 * character, 110 px for the search row, the scrollbar and a window manager's title
		 * (a 800-pixel screen gets 80 columns and a horizontal scrollbar) */
		int rows = (HeightOfScreen(scr) * 9 / 10 - 110) / 18;
		int cols = (WidthOfScreen(scr) * 9 / 10 - 50) * 2 / 17;
		Widget form, label, find, close;
		Arg args[16];
		Cardinal n = 0;
		XmString s;

		app->help_shell = XtVaCreatePopupShell("help", topLevelShellWidgetClass, app->top,
						       XmNtitle, "xscalegraph: metrics and formulas",
						       XmNdeleteResponse, XmUNMAP, NULL);
		form = XtVaCreateWidget("helpForm", xmFormWidgetClass, app->help_shell,
					XmNuserData, (XtPointer)app, XmNhorizontalSpacing, 4,
					XmNverticalSpacing, 4, NULL);
		s = XmStringCreateLocalized((char *)"Find:");
		label = XtVaCreateManagedWidget("findLabel", xmLabelWidgetClass, form,
						XmNlabelString, s, XmNtopAttachment, XmATTACH_FORM,
						XmNtopOffset, 8, XmNleftAttachment, XmATTACH_FORM, NULL);
		XmStringFree(s);
		close = button(form, "close", "Close (Esc)", NULL, close_cb);
		help_field = XtVaCreateManagedWidget("helpFind", xmTextFieldWidgetClass, form,
						     XmNcolumns, 24, XmNtopAttachment, XmATTACH_FORM,
						     XmNleftAttachment, XmATTACH_WIDGET,
						     XmNleftWidget, label, NULL);
		XtAddCallback(help_field, XmNactivateCallback, find_cb, NULL);
		XtOverrideTranslations(help_field, XtParseTranslationTable(help_keys));
		find = button(form, "findNext", "Find next", help_field, find_cb);
		(void)find;
		XtSetArg(args[n], XmNeditable, False); n++;
		XtSetArg(args[n], XmNeditMode, XmMULTI_LINE_EDIT); n++;
		XtSetArg(args[n], XmNrows, rows < 40 ? rows : 40); n++;
		XtSetArg(args[n], XmNcolumns, cols < 88 ? cols : 88); n++;
		XtSetArg(args[n], XmNcursorPositionVisible, False); n++;
		/* a narrow screen: long lines wrap instead of hiding behind a scrollbar */
		XtSetArg(args[n], XmNwordWrap, True); n++;
		XtSetArg(args[n], XmNscrollHorizontal, False); n++;
		XtSetArg(args[n], XmNvalue, xsg_help_text); n++;
		XtSetArg(args[n], XmNtopAttachment, XmATTACH_WIDGET); n++;
		XtSetArg(args[n], XmNtopWidget, close); n++;
		XtSetArg(args[n], XmNleftAttachment, XmATTACH_FORM); n++;
		XtSetArg(args[n], XmNrightAttachment, XmATTACH_FORM); n++;
		XtSetArg(args[n], XmNbottomAttachment, XmATTACH_FORM); n++;
		help_text = XmCreateScrolledText(form, (char *)"helpText", args, n);
		XtOverrideTranslations(help_text, XtParseTranslationTable(help_keys));
		XtManageChild(help_text);
		XtManageChild(form);
		help_pos = 0;
	}
	XtPopup(app->help_shell, XtGrabNone);
	XRaiseWindow(app->dpy, XtWindow(app->help_shell));
	return app->help_shell;
}
