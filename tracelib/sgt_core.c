/*
 * sgt_core.c — the life of libsgtrace in a process: the constructor reads the environment,
 * creates the trace directory and starts the main thread as thread 0; the destructor finishes
 * every stream at exit; fatal signals flush what was recorded before the process dies; a forked
 * child records into its own trace directory <dir>/fork.<pid>/, created on its first event.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sg_counters_int.h"
#include "sgt_int.h"
#include "sgt_io.h"

SG_EXPORT volatile int sg_trace_active;
struct sgt_global sgt_g;

static int configured;   /* the constructor set tracing up successfully */
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
		struct sgt_thread *me = sgt_self;
		if (me)
			sgt_thread_finish_foreign(me, 0);
		for (struct sgt_thread *t = sgt_thread_list(); t; t = t->next)
			if (t != me)
				sgt_thread_finish_foreign(t, 0);
		sgt_thread_failed_report(0);
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
}

static void atfork_parent(void)
{
	sgt_registry_atfork_parent();
}

static void atfork_child(void)
{
	sgt_registry_atfork_child();
	if (!configured)
		return;
	sgt_g.parent_pid = sgt_g.pid;
	sgt_g.pid = (uint32_t)getpid();
	sgt_g.fork_pending = 1;
	struct sgt_thread *self = sgt_self;
	sgt_thread_fork_child(self);
	if (!self)
		sgt_thread_done = 0;
}

/* Called on a forked child's first event: creates <parent dir>/fork.<pid>/ with definitions
 * replayed from the parent. 0 or -errno (the child then records nothing). */
int sgt_core_fork_start(void);
int sgt_core_fork_start(void)
{
	if (!sgt_g.fork_pending)
		return 0;
	sgt_g.fork_pending = 0;
	char dir[PATH_MAX];
	int n = snprintf(dir, sizeof dir, "%s/fork.%u", sgt_g.dir, sgt_g.pid);
	if (n < 0 || (size_t)n >= sizeof dir)
		return -ENAMETOOLONG;
	memcpy(sgt_g.dir, dir, (size_t)n + 1);
	int rc = sgt_mkdir_p(sgt_g.dir);
	if (rc == 0)
		rc = sgt_registry_open(1);
	if (rc < 0) {
		sg_trace_active = 0;
		return rc;
	}
	sgc_process_init();
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
	sgt_g.pid = (uint32_t)getpid();
	sgt_g.buf_recs = (cfg.buf_bytes - sizeof(struct sgf_chunk_header)) /
			 sizeof(struct sg_event_rec);
	sgt_g.counters_barrier = cfg.counters_barrier;
	snprintf(sgt_g.dir, sizeof sgt_g.dir, "%s", cfg.dir);
	int rc = sgt_mkdir_p(sgt_g.dir);
	const char *what = "cannot create the trace directory";
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
	sgt_g.started = 1;
	configured = 1;
	sg_trace_active = 1;
	sgc_process_init();
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
