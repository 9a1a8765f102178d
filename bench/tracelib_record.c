/*
 * tracelib_record.c — what recording one event costs in libsgtrace, measured side by side in
 * one run: the raw cost of one rdtsc (the floor of a timestamped event), a function probe pair
 * (sg_func_enter + sg_func_exit: two events, the instrumenter's most frequent probe) with
 * tracing enabled in 1 and 2 threads, a mutex lock/unlock through the wrappers (three events;
 * the plain lock and the one with a call site, sg_pthread_mutex_lock_at) against the bare
 * pthread calls, and the same probes with SG_TRACE=0 (the program re-executes
 * itself with it, since libsgtrace reads its environment before main), and the cost of a
 * probe of a throttled function (SG_THROTTLE=1,1000000: counted from its second call on, not
 * recorded; docs/tracelib.md "Throttling and the trace budget").
 *
 * The recorded figures need every call recorded: tracelib-record.sh runs this with
 * SG_THROTTLE=0, else the rule throttles bench_fn after 100,000 calls.
 * Each figure is the best of ROUNDS x REPS passes of a loop, in ns per event, printed as
 *   name: value unit (target ...)
 * "enabled" runs with the default 1M buffers, so writing full buffers to the trace files is
 * part of its cost, as in a real run; "enabled_no_flush" re-runs with a buffer that holds a
 * whole pass (flushed between passes, untimed): the cost of recording alone.
 * Usage: tracelib_record [--events N]    (default 1,000,000 events per pass and thread)
 */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define read_tsc() __rdtsc()
#else
#define read_tsc() ((uint64_t)clock())   /* no TSC: the figure is then that of clock() */
#endif

#include "sgtrace.h"

#define REPS 5

static long n_events = 1000000;
static struct sg_func_desc fd_bench = { "bench_fn", "tracelib_record.c", 1, 0 };

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* A loop body measured per event; returns ns per event of one pass. */
typedef double (*loop_fn)(void);

static double loop_rdtsc(void)
{
	uint64_t sink = 0;
	double t0 = now_ns();
	for (long i = 0; i < n_events; i++)
		sink += read_tsc();
	double t1 = now_ns();
	__asm__ volatile("" : : "r"(sink));
	return (t1 - t0) / (double)n_events;
}

static double loop_probe(void)
{
	double t0 = now_ns();
	for (long i = 0; i < n_events / 2; i++) {
		sg_func_enter(&fd_bench);
		sg_func_exit(&fd_bench);
	}
	return (now_ns() - t0) / (double)(n_events / 2 * 2);
}

static pthread_mutex_t mutexes[2] = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER };
static __thread pthread_mutex_t *my_mutex;

/* A lock/unlock loop through `lock` and `unlock` (the bare pthread calls or the wrappers),
 * in ns per third of a pair: the wrappers record three events per pair. */
#define MUTEX_LOOP(name, lock, unlock)                                  \
	static double name(void)                                        \
	{                                                               \
		long n = n_events / 3;                                  \
		double t0 = now_ns();                                   \
		for (long i = 0; i < n; i++) {                          \
			lock(my_mutex);                                 \
			unlock(my_mutex);                               \
		}                                                       \
		return (now_ns() - t0) / (double)(n * 3);               \
	}
MUTEX_LOOP(loop_mutex_raw, pthread_mutex_lock, pthread_mutex_unlock)
MUTEX_LOOP(loop_mutex_wrapped, sg_pthread_mutex_lock, sg_pthread_mutex_unlock)
/* The lock as `scalegraph cc` calls it: with its call site (the same one every time, as in a
 * loop: the site is compared, not written). */
static struct sg_site_desc site_bench = { "tracelib_record.c", __LINE__, "bench", 0 };
static inline int lock_at_site(pthread_mutex_t *m)
{
	return sg_pthread_mutex_lock_at(&site_bench, m);
}
MUTEX_LOOP(loop_mutex_site, lock_at_site, sg_pthread_mutex_unlock)

struct job {
	loop_fn fn;
	int which;
	pthread_barrier_t *start;
	double best;
};

/* Best of REPS passes; threads meet at a barrier before each pass so they overlap. */
static void *job_run(void *p)
{
	struct job *j = p;
	my_mutex = &mutexes[j->which];
	j->best = 1e30;
	for (int r = 0; r < REPS; r++) {
		sg_trace_flush();   /* untimed: every pass starts with an empty buffer */
		if (j->start)
			pthread_barrier_wait(j->start);
		double ns = j->fn();
		if (ns < j->best)
			j->best = ns;
	}
	return NULL;
}

/* ns per event of fn in n_threads threads (the slower thread's best). Threads are created with
 * plain pthread_create: they get their trace state at their first event, as any thread does. */
static double measure(loop_fn fn, int n_threads)
{
	struct job jobs[2];
	pthread_t th[2];
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, (unsigned)n_threads);
	for (int i = 0; i < n_threads; i++) {
		jobs[i] = (struct job){ fn, i, n_threads > 1 ? &start : NULL, 0 };
		if (pthread_create(&th[i], NULL, job_run, &jobs[i])) {
			perror("pthread_create");
			exit(1);
		}
	}
	double worst = 0;
	for (int i = 0; i < n_threads; i++) {
		pthread_join(th[i], NULL);
		if (jobs[i].best > worst)
			worst = jobs[i].best;
	}
	pthread_barrier_destroy(&start);
	return worst;
}

/* The machine is shared: measure() in ROUNDS rounds spread over the run, keeping the best, so
 * that a burst of other work does not land on one figure only. */
#define ROUNDS 3

static double best_of_rounds(loop_fn fn, int n_threads)
{
	double best = 1e30;
	for (int r = 0; r < ROUNDS; r++) {
		double ns = measure(fn, n_threads);
		if (ns < best)
			best = ns;
		sched_yield();
	}
	return best;
}

/* The figures of one configuration, named with `suffix`. */
static void run_mode(const char *suffix, const char *target)
{
	/* rdtsc again in this process, right before: the machine is shared, so each mode is
	 * also given as its difference from the timestamp read measured beside it. */
	double tsc = best_of_rounds(loop_rdtsc, 1);
	double p1 = best_of_rounds(loop_probe, 1), p2 = best_of_rounds(loop_probe, 2);
	double raw = best_of_rounds(loop_mutex_raw, 1);
	double wrapped = best_of_rounds(loop_mutex_wrapped, 1);
	double site = best_of_rounds(loop_mutex_site, 1);
	printf("event_%s_1thread: %.2f ns/event (target %s)\n", suffix, p1, target);
	if (sg_trace_dir())
		printf("event_%s_1thread_minus_rdtsc: %.2f ns/event (rdtsc %.2f ns in this "
		       "process)\n", suffix, p1 - tsc, tsc);
	printf("event_%s_2threads: %.2f ns/event (target %s; per thread, both at once)\n", suffix,
	       p2, target);
	printf("mutex_wrapper_%s_overhead: %.2f ns/event (target %s; %.2f wrapped vs %.2f bare "
	       "per third of a lock/unlock pair)\n", suffix, wrapped - raw, target, wrapped, raw);
	printf("mutex_wrapper_site_%s_overhead: %.2f ns/event (target %s; %.2f through "
	       "sg_pthread_mutex_lock_at vs %.2f bare)\n", suffix, site - raw, target, site, raw);
}

/* A region begin/end pair samples the calling thread's counters twice: ns per sample (the two
 * region events themselves cost ~0.1 % of it). */
static double region_sample_ns(void)
{
	enum { PAIRS = 20000 };
	double best = 1e30;
	for (int r = 0; r < ROUNDS; r++) {
		sg_trace_flush();
		double t0 = now_ns();
		for (int i = 0; i < PAIRS; i++) {
			sg_region_begin("bench");
			sg_region_end("bench");
		}
		double ns = (now_ns() - t0) / (2.0 * PAIRS);
		if (ns < best)
			best = ns;
	}
	return best;
}

/* Runs this program again with one more environment variable, on the same stdout. */
static int spawn_with(char **argv, const char *name, const char *value)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setenv(name, value, 1);
		setenv("SG_BENCH_CHILD", "1", 1);
		execv("/proc/self/exe", argv);
		perror("execv");
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--events") && i + 1 < argc) {
			n_events = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--help")) {
			printf("usage: tracelib_record [--events N]\n");
			return 0;
		} else {
			fprintf(stderr, "tracelib_record: error: unexpected argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (n_events < 6 || n_events > 100000000) {
		fprintf(stderr, "tracelib_record: error: --events must be 6..100000000\n");
		return 2;
	}
	const char *trace = getenv("SG_TRACE");
	const char *thr = getenv("SG_THROTTLE");
	if (getenv("SG_BENCH_CHILD")) {
		if (thr && !strcmp(thr, "1,1000000")) {
			double tsc = best_of_rounds(loop_rdtsc, 1);
			double p1 = best_of_rounds(loop_probe, 1), p2 = best_of_rounds(loop_probe, 2);
			printf("throttled_probe_1thread: %.2f ns/probe (an enter or an exit of a "
			       "throttled function: counted, 1 outermost call in 64 timed; rdtsc %.2f "
			       "ns in this process)\n", p1, tsc);
			printf("throttled_probe_2threads: %.2f ns/probe (per thread, both at once)\n",
			       p2);
		} else if (trace && !strcmp(trace, "0")) {
			run_mode("disabled", "<= 1 ns");
		} else if (!sg_trace_dir()) {
			fprintf(stderr, "tracelib_record: error: tracing is off\n");
			return 1;
		} else {
			run_mode("enabled_no_flush", "<= 12 ns; no file writes");
		}
		return 0;
	}
	if (!sg_trace_dir()) {
		fprintf(stderr, "tracelib_record: error: tracing is off (SG_TRACE_DIR unwritable?)\n");
		return 1;
	}
	printf("rdtsc: %.2f ns (raw cost of one timestamp read, same run)\n",
	       best_of_rounds(loop_rdtsc, 1));
	printf("rdtsc_2threads: %.2f ns (per thread, both at once: the floor of the 2-thread "
	       "figures on this machine)\n", best_of_rounds(loop_rdtsc, 2));
	run_mode("enabled", "<= 12 ns; 1M buffers, flushes to the trace file included");
	const char *ev = getenv("SG_EVENTS");
	printf("counter_sample: %.2f us per sample (reported; libsgtrace's counters, SG_EVENTS=%s, "
	       "read at a region boundary: taken at thread begin and end and region boundaries "
	       "only, never per event)\n", region_sample_ns() / 1000.0, ev ? ev : "default");
	/* A buffer that holds a whole pass: the recording alone, without writing files. */
	char big[32];
	snprintf(big, sizeof big, "%ldM", (n_events * 16 >> 20) + 2);
	if (spawn_with(argv, "SG_TRACE_BUFFER", big) < 0 || spawn_with(argv, "SG_TRACE", "0") < 0 ||
	    spawn_with(argv, "SG_THROTTLE", "1,1000000") < 0) {
		fprintf(stderr, "tracelib_record: error: a child run failed\n");
		return 1;
	}
	return 0;
}
