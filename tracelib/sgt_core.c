/*
 * sgt_core.c — the life of libsgtrace in a process: the constructor reads the environment,
 * creates the process's own trace directory <root>/proc.<pid>/ under the trace root
 * (SG_TRACE_DIR) and starts the main thread as thread 0; the destructor finishes every stream
 * at exit; fatal signals flush what was recorded before the process dies. Every process writes
 * its own directory, never one another process wrote: a forked child gets <root>/proc.<pid>/
 * on its first event, and a program it executes (fork+exec, system()) finds the root and its
 * traced parent in SG_TRACE_ROOT and SG_TRACE_PARENT, which the constructor exports (the
 * program's own SG_TRACE_DIR is left as it was).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sg_counters_int.h"
#include "sgt_int.h"
#include "sgt_io.h"

SG_EXPORT volatile int sg_trace_active;
struct sgt_global sgt_g;
__thread uint64_t sgt_flag_deadline __attribute__((tls_model("initial-exec")));

static int configured;   /* the constructor set tracing up successfully */

/* The trace of a process ends once, whoever gets there first: the destructor (exit), a wrapper
 * of _exit, _Exit or an exec (sgt_end.c), the drain thread when it is the last thread of a
 * process whose main called pthread_exit, or a fatal signal. Whoever comes second waits (at
 * most END_WAIT_NS) until the first is done, so that the process does not vanish half-way. */
enum { END_RUNNING, END_BUSY, END_DONE };
static int end_state;
static __thread int end_here __attribute__((tls_model("initial-exec")));   /* ending it */
static volatile sig_atomic_t end_deferred;   /* a fatal signal that came meanwhile, to raise */
#define END_WAIT_NS 1000000000u

static int end_claim(void)
{
	int want = END_RUNNING;
	return __atomic_compare_exchange_n(&end_state, &want, END_BUSY, 0, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

/* Waits, yielding, until the thread ending the trace is done (or a second has passed).
 * Async-signal-safe. */
static void end_wait(void)
{
	uint64_t until = sgt_mono_ns() + END_WAIT_NS;
	while (__atomic_load_n(&end_state, __ATOMIC_ACQUIRE) == END_BUSY && sgt_mono_ns() < until)
		sched_yield();
}

/* A traced program is quiet (docs/tracelib.md "Messages"): warnings whose facts the trace
 * records anyway go to stderr only with SG_VERBOSE=1. */
void sgt_warn(const char *fmt, ...)
{
	if (!sgt_g.verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGTERM, SIGINT };
#define N_FATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction old_actions[N_FATAL];
static int installed[N_FATAL];

/* Restores sig's original disposition and raises it: the process dies as it would have. */
static void fatal_raise(int sig)
{
	for (size_t i = 0; i < N_FATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	raise(sig);
}

/* Fatal signal: flush this thread's buffer first, then every other thread's (each only if
 * its io lock can be had: a thread caught inside its own flush keeps its last chunk), then die
 * the way the original disposition says. When another thread is ending the trace (exit, _exit,
 * the last thread), wait until it is done; when this one is, a SIGTERM or SIGINT waits until it
 * is done (trace_end raises it then), a fault kills at once. Async-signal-safe: write, close,
 * clock_gettime, sched_yield. */
static void fatal_handler(int sig)
{
	int saved = errno;
	if (end_here) {
		if (sig == SIGTERM || sig == SIGINT) {
			end_deferred = sig;
			errno = saved;
			return;
		}
	} else if (end_claim()) {
		sg_trace_active = 0;
		sgc_sched_stop(1);
		sgt_sched_close(1);
		struct sgt_thread *me = sgt_self;
		if (me)
			sgt_thread_finish_foreign(me, 0);
		for (struct sgt_thread *t = sgt_thread_list(); t; t = t->next)
			if (t != me)
				sgt_thread_finish_foreign(t, 0);
		sgt_thread_failed_report(0);
		sgt_obuf_process_end();
		__atomic_store_n(&end_state, END_DONE, __ATOMIC_RELEASE);
	} else {
		end_wait();
	}
	errno = saved;
	fatal_raise(sig);
}

/* Installs the handler only where the disposition is the default one: a program that handles
 * or ignores a signal itself keeps doing so (and then the signal is not fatal). */
static void signals_install(void)
{
	for (size_t i = 0; i < N_FATAL; i++) {
		struct sigaction sa;
		if (sigaction(fatal_signals[i], NULL, &old_actions[i]) < 0 ||
		    old_actions[i].sa_handler != SIG_DFL || (old_actions[i].sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = fatal_handler;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_ONSTACK;
		installed[i] = sigaction(fatal_signals[i], &sa, NULL) == 0;
	}
}

static void atfork_prepare(void)
{
	sgt_registry_atfork_prepare();
	sgt_obuf_atfork_prepare();
}

static void atfork_parent(void)
{
	sgt_obuf_atfork_parent();
	sgt_registry_atfork_parent();
}

void sgt_sched_fork_child(void);

static void atfork_child(void)
{
	sgt_registry_atfork_child();
	sgt_obuf_atfork_child();
	if (!configured)
		return;
	sgc_sched_fork_child();
	sgt_sched_fork_child();
	sgt_g.parent_pid = sgt_g.pid;
	sgt_g.pid = (uint32_t)getpid();
	/* the child's trace has a budget of its own */
	sgt_g.bytes = sgt_g.budget_bytes = 0;
	sgt_g.budget_said = 0;
	sgt_g.func_stop = 0;
	sgt_g.func_fast = SGT_FAST_CLOCK;
	sgt_g.fork_pending = 1;
	end_state = END_RUNNING;   /* the child's trace ends on its own */
	end_deferred = 0;
	sgt_thread_main_mark();   /* the forking thread is the child's initial thread */
	struct sgt_thread *self = sgt_self;
	sgt_thread_fork_child(self);
	if (!self)
		sgt_thread_done = 0;
}

/* Tells the programs this process starts where to trace and whom they descend from: the root
 * as an absolute path (a child may change directory) and this process's pid. */
static void env_export(void)
{
	char abs[PATH_MAX], pid[16];
	const char *root = realpath(sgt_g.root, abs) ? abs : sgt_g.root;
	setenv("SG_TRACE_ROOT", root, 1);
	snprintf(pid, sizeof pid, "%u", sgt_g.pid);
	setenv("SG_TRACE_PARENT", pid, 1);
}

/* The traced process that started this one through exec (SG_TRACE_PARENT), else 0. Its own
 * pid when this program replaced a traced image of the same process by an exec: that image's
 * trace is proc.<pid>/ and this one's proc.<pid>.2/ (docs/trace-format.md). */
static uint32_t env_parent(void)
{
	const char *v = secure_getenv("SG_TRACE_PARENT");
	char *end;
	if (!v || !*v)
		return 0;
	unsigned long p = strtoul(v, &end, 10);
	return *end == '\0' && p > 0 && p < UINT32_MAX ? (uint32_t)p : 0;
}

/* Called on a forked child's first event: creates <root>/proc.<pid>/ with definitions
 * replayed from the parent. 0 or -errno (the child then records nothing). */
int sgt_core_fork_start(void);
int sgt_core_fork_start(void)
{
	if (!sgt_g.fork_pending)
		return 0;
	sgt_g.fork_pending = 0;
	int rc = sgt_proc_dir_make();
	if (rc == 0)
		rc = sgt_registry_open(1);
	if (rc < 0) {
		sg_trace_active = 0;
		return rc;
	}
	env_export();
	sgc_process_init();
	sgc_sched_start();
	return 0;
}

/* main, when the instrumenter left its probes to us (sgtrace.h SG_FUNC_OUTSIDE): entered here,
 * before it runs, by the thread and process that run it; left at exit() on that thread (a
 * return from main, or exit() called below it). The other ends record no exit for it, as a
 * probe's cleanup in its body records none: pthread_exit, _exit, exec, a fatal signal, exit()
 * on another thread (the analyzer closes the frame at the thread's end). */
static struct sg_func_desc *main_fd;
static struct sgt_thread *main_thread;
static pid_t main_pid;

static void main_enter(void)
{
	struct sg_func_desc *fd = sgt_outside_find(NULL, 1);
	if (!fd || !sgt_self)
		return;
	sg_func_enter_rec(fd);
	main_fd = fd;
	main_thread = sgt_self;
	main_pid = getpid();
}

static void main_exit(void)
{
	if (main_fd && sg_trace_active && sgt_self && sgt_self == main_thread &&
	    getpid() == main_pid)
		sg_func_exit_rec(main_fd);
	main_fd = NULL;
}

__attribute__((constructor)) static void sgt_init(void)
{
	struct sgt_config cfg;
	char err[512];
	/* A set-uid or set-gid program, or one with file capabilities (AT_SECURE): its environment
	 * is its caller's, who must not choose where a privileged process writes, nor make it
	 * write at all. Tracing is off, silently (docs/tracelib.md "Files and rights"). */
	if (getauxval(AT_SECURE))
		return;
	if (sgt_env_parse(secure_getenv, &cfg, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	if (!cfg.enabled)
		return;
	sgt_clock_init(cfg.clock);
	sgt_g.verbose = cfg.verbose;
	sgt_g.compact = cfg.compact;
	sgt_g.throttle_calls = cfg.throttle_calls;
	sgt_g.throttle_ns = cfg.throttle_usec * 1000u;
	sgt_g.trace_max = cfg.trace_max;
	sgt_g.func_fast = SGT_FAST_CLOCK;
	sgt_g.pid = (uint32_t)getpid();
	sgt_g.buf_recs = (cfg.buf_bytes - sizeof(struct sgf_chunk_header)) /
			 sizeof(struct sg_event_rec);
	sgt_g.counters_barrier = cfg.counters_barrier;
	sgt_g.parent_pid = env_parent();
	sgt_g.rootfd = sgt_g.dirfd = -1;
	if (sgt_root_open(cfg.dir, cfg.dir_var, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	snprintf(sgt_g.dir, sizeof sgt_g.dir, "%s", sgt_g.root);
	const char *what = "cannot create the process's trace directory";
	int rc = sgt_proc_dir_make();
	if (rc == 0) {
		what = "cannot write the definitions file";
		rc = sgt_registry_open(0);
	}
	if (rc == 0) {
		what = "cannot set up threads";
		rc = sgt_thread_key_init();
	}
	if (rc < 0) {
		fprintf(stderr, "sgtrace: error: %s: %s: %s; tracing is off\n", sgt_g.dir, what,
			strerror(-rc));
		return;
	}
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	signals_install();
	env_export();
	sgt_g.started = 1;
	configured = 1;
	sg_trace_active = 1;
	sgc_process_init();
	sgc_sched_start();   /* before thread 0 begins: its switches from its first event on */
	sgt_thread_start(SG_NO_ID, SG_NO_ID);   /* the main thread is thread 0 */
	main_enter();
}

/* Ends the process's trace (see end_state): the calling thread's stream gets its THREAD_END,
 * every stream its last chunk and trailer, the sched stream its last records and trailer, the
 * definitions a last clock pair; the open buffer files go. Recording is off from here on.
 *   SGT_END_EXIT  the destructor (exit), or the drain thread as the process's last thread: as
 *                 long as it takes; nothing is left allocated.
 *   SGT_END_NOW   _exit, _Exit, an exec: possibly inside a signal handler (both are
 *                 async-signal-safe), which may have interrupted the library or malloc on this
 *                 thread: no memory is freed, and no lock is waited for beyond END_WAIT_NS (a
 *                 stream whose lock stays taken keeps its open buffer for the reader).
 * With keep_defs the definitions file stays open (an exec that may fail: sgt_core_exec_failed
 * writes why tracing stopped). Returns 1 when this call ended the trace. */
int sgt_core_end(enum sgt_end how, int keep_defs)
{
	if (!configured || sgt_g.fork_pending || sgt_g.pid != (uint32_t)getpid())
		return 0;   /* off, a forked child that recorded nothing, a vfork child */
	if (!end_claim()) {
		if (!end_here)
			end_wait();
		return 0;
	}
	end_here = 1;
	if (how == SGT_END_NOW)
		sgt_flag_deadline = sgt_mono_ns() + END_WAIT_NS;
	struct sgt_thread *me = sgt_self;
	if (me && !me->fork_reset) {
		if (how != SGT_END_NOW)
			sgt_thread_finish(me);
		else if (__atomic_load_n(&me->io_lock, __ATOMIC_ACQUIRE) == 0)
			sgt_thread_finish_now(me);   /* not interrupted inside its own flush */
	}
	sg_trace_active = 0;
	for (struct sgt_thread *t = sgt_thread_list(); t; t = t->next) {
		if (t != me)
			sgt_thread_finish_foreign(t, 1);
		sgt_thread_lost_report(t);   /* events dropped after a stream ended */
	}
	sgt_thread_failed_report(how != SGT_END_NOW);
	sgt_obuf_process_end();
	sgc_sched_stop(0);
	sgt_sched_close(0);
	sgt_registry_clock_pair();
	if (!keep_defs)
		sgt_registry_close();
	configured = 0;
	sgt_flag_deadline = 0;
	end_here = 0;
	__atomic_store_n(&end_state, END_DONE, __ATOMIC_RELEASE);
	int sig = end_deferred;
	if (sig)
		fatal_raise(sig);   /* a SIGTERM or SIGINT that came while this thread ended it */
	return 1;
}

/* ---- the drain thread's part (sg_counters_int.h) ---- */

int trace_main_gone(void)
{
	return sgt_thread_main_exited() && sgt_threads_live() == 0;
}

void trace_process_end(void)
{
	sgt_core_end(SGT_END_EXIT, 0);
}

void sgt_core_exec_failed(const char *what, int err)
{
	sgt_registry_stopped(sgt_ticks(), err, what);
	sgt_registry_close();
}

__attribute__((destructor)) static void sgt_fini(void)
{
	main_exit();
	sgt_core_end(SGT_END_EXIT, 0);
}

SG_EXPORT void sg_trace_flush(void)
{
	struct sgt_thread *t = sg_trace_active ? sgt_me() : NULL;
	if (t)
		sgt_thread_flush(t);
}

SG_EXPORT const char *sg_trace_dir(void)
{
	return configured && sg_trace_active ? sgt_g.dir : NULL;
}

SG_EXPORT int sg_trace_enable(int on)
{
	if (!configured)
		return -1;
	int was = sg_trace_active;
	sg_trace_active = on ? 1 : 0;
	return was;
}
