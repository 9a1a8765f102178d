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
	"  Each cell shows time-bound / E-conserved / memory-bound. Time-bound equals\n"
	"  (1 - E) / (1 - E'); when E and E' are both low and close it overestimates\n"
	"  scalability: such values carry a '*'. Click a cell for the runs behind it.\n"
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
