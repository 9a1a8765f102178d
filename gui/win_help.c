/*
 * win_help.c — Help > Metrics: every figure xscalegraph draws, explained in a sentence with its
 * formula (METRICS.md restated for users; docs/gui.md carries the same text). A read-only
 * XmText in a scrolled window, monospaced so the formulas line up.
 */
#include "xsg.h"

#include <Xm/Xm.h>
#include <Xm/Text.h>

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
	"  Identities used as checks:  L = T_para * (1 - E)      and\n"
	"                              T_para = T_seq / N + L\n"
	"\n"
	"LATENCY SOURCES (window 6), each summed over the N threads\n"
	"  IT_edge     idle at the edges: N*T_para - sum_i T_i (threads that start late or\n"
	"              end early).\n"
	"  IT_barrier  barrier waiting: from a thread's arrival to the last arrival.\n"
	"  IT_lock     lock waiting: blocked while another thread holds the lock.\n"
	"  IT_cond     condition waiting: blocked in a condition wait.\n"
	"  IT_sched    runnable but not running (schedstat); matters when N > CPUs.\n"
	"  PT_barrier  barrier overhead: last arrival to each thread's exit.\n"
	"  PT_lock     lock overhead: acquire time not explained by contention + release.\n"
	"  PT_thread   thread create and join time.\n"
	"  ML          memory reference latency: stall time of the parallel run minus that of\n"
	"              the same work on one thread, ML(N) - ML(1), from hardware counters.\n"
	"              Without a PMU it is unavailable (as on virtual machines).\n"
	"  U           unattributed: N*T_para - T_seq - (IT + PT + ML): extra work, imbalance\n"
	"              inside computation, measurement error. It closes the books.\n"
	"\n"
	"PARALLELISM (window 7)\n"
	"  average parallelism = busy thread time / T_para: how many threads compute at once.\n"
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
	"  Each cell shows time-bound / E-conserved / memory-bound. Time-bound equals\n"
	"  (1 - E) / (1 - E'); when E and E' are both low and close it overestimates\n"
	"  scalability: such values carry a '*'. Click a cell for the runs behind it.\n"
	"\n"
	"RUN TIMELINE (window 9): one lane per thread of the run selected in the browser\n"
	"  busy          computing (none of the states below).\n"
	"  barrier wait  arrival to the last thread's arrival (IT_barrier).\n"
	"  barrier ovh.  last arrival to this thread's leave (PT_barrier).\n"
	"  lock wait     blocked while another thread holds the lock (IT_lock).\n"
	"  lock ovh.     acquiring not explained by contention (PT_lock).\n"
	"  cond. wait    blocked in a condition wait (IT_cond).\n"
	"  create/join   creating or joining threads (PT_thread).\n"
	"  idle          before the thread's first or after its last event (IT_edge).\n"
	"  A pixel shows the state that fills most of it, or a wait or primitive that\n"
	"  fills a quarter of it. Zoom: + - Home, buttons or wheel; pan: Left Right, drag\n"
	"  or the scrollbar; click an interval for its state, object, start, duration.\n"
	"\n"
	"COMPARE (window 10): the method toggles overlay any scaling methods on windows\n"
	"  3-7; File > Add experiment to compare overlays other experiments' methods too,\n"
	"  named EXPERIMENT:method (dashed).\n"
	"\n"
	"TEACHING MODEL (window 11)\n"
	"  T_para(W,N) = t_serial + W*t_work/N + c*W^beta*g(N),\n"
	"  g = 1, log2 N, N - 1 or N log2 N. Move the sliders and compare the model's\n"
	"  speedup, efficiency, L(W,N) and matrix with the measured ones.\n"
	"\n"
	"KEYS: Ctrl+1..9 windows, Ctrl+0 teaching, Ctrl+R reload, Ctrl+E export all,\n"
	"Ctrl+W close window, Ctrl+Q quit, F1 this help.\n";

Widget win_help_open(struct xsg_app *app)
{
	Widget text;

	if (!app->help_shell) {
		Arg args[8];
		Cardinal n = 0;

		app->help_shell = XtVaCreatePopupShell("help", topLevelShellWidgetClass, app->top,
						       XmNtitle, "xscalegraph: metrics and formulas",
						       XmNdeleteResponse, XmUNMAP, NULL);
		XtSetArg(args[n], XmNeditable, False); n++;
		XtSetArg(args[n], XmNeditMode, XmMULTI_LINE_EDIT); n++;
		XtSetArg(args[n], XmNrows, 40); n++;
		XtSetArg(args[n], XmNcolumns, 88); n++;
		XtSetArg(args[n], XmNcursorPositionVisible, False); n++;
		XtSetArg(args[n], XmNvalue, xsg_help_text); n++;
		text = XmCreateScrolledText(app->help_shell, (char *)"helpText", args, n);
		XtManageChild(text);
	}
	XtPopup(app->help_shell, XtGrabNone);
	XRaiseWindow(app->dpy, XtWindow(app->help_shell));
	return app->help_shell;
}
