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
#include <sys/stat.h>
#include <unistd.h>

#include "sg_counters_int.h"
#include "sgt_int.h"
#include "sgt_io.h"

SG_EXPORT volatile int sg_trace_active;
struct sgt_global sgt_g;

static int configured;   /* the constructor set tracing up successfully */

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
static int in_fatal;

/* Fatal signal: flush this thread's buffer first, then every other thread's (each only if
 * its io lock can be had: a thread caught inside its own flush keeps its last chunk), then die
 * the way the original disposition says. Async-signal-safe: write, close, clock_gettime. */
static void fatal_handler(int sig)
{
	int saved = errno;
	if (!__atomic_exchange_n(&in_fatal, 1, __ATOMIC_ACQ_REL)) {
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
	}
	for (size_t i = 0; i < N_FATAL; i++)
		if (fatal_signals[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	errno = saved;
	raise(sig);
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

/* The traced process that started this one through exec (SG_TRACE_PARENT), else 0. */
static uint32_t env_parent(void)
{
	const char *v = getenv("SG_TRACE_PARENT");
	char *end;
	if (!v || !*v)
		return 0;
	unsigned long p = strtoul(v, &end, 10);
	return *end == '\0' && p > 0 && p < UINT32_MAX && p != (unsigned long)getpid()
	       ? (uint32_t)p : 0;
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

__attribute__((constructor)) static void sgt_init(void)
{
	struct sgt_config cfg;
	char err[512];
	if (sgt_env_parse(getenv, &cfg, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	if (!cfg.enabled)
		return;
	sgt_clock_init(cfg.clock);
	sgt_g.verbose = cfg.verbose;
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
}

__attribute__((destructor)) static void sgt_fini(void)
{
	if (!configured || sgt_g.fork_pending)
		return;
	struct sgt_thread *me = sgt_self;
	if (me && sg_trace_active)
		sgt_thread_finish(me);
	sg_trace_active = 0;
	for (struct sgt_thread *t = sgt_thread_list(); t; t = t->next) {
		if (t != me)
			sgt_thread_finish_foreign(t, 1);
		sgt_thread_lost_report(t);   /* events dropped after a stream ended */
	}
	sgt_thread_failed_report(1);
	sgt_obuf_process_end();
	sgc_sched_stop(0);
	sgt_sched_close(0);
	sgt_registry_clock_pair();
	sgt_registry_close();
	configured = 0;
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
