/*
 * record_cost.c — the recording cost of a wrapped mutex lock/unlock (3 events: request,
 * acquired, release) beside the bare pthread pair and a bare rdtsc loop, each timed with the
 * thread's CPU clock (CLOCK_THREAD_CPUTIME_ID): on a machine shared with other jobs the time
 * the thread waits for a CPU is not counted, where wall-clock loops (tracelib_record.c) swing
 * by 2x under load. write() and the compaction of full chunks run on the thread and count.
 * Prints, best of ROUNDS interleaved passes, ns per event and the ratio to one rdtsc.
 * Usage: record_cost [EVENTS]   (default 3,000,000 events a pass; run under SG_TRACE_DIR)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

#include "sgtrace.h"

#define ROUNDS 7

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile uint64_t sink;

static double loop_rdtsc(long n)
{
	double t0 = cpu_ns();
	uint64_t s = 0;
	for (long i = 0; i < n; i++)
		s += __rdtsc();
	sink = s;
	return (cpu_ns() - t0) / (double)n;
}

static double loop_bare(long pairs)
{
	double t0 = cpu_ns();
	for (long i = 0; i < pairs; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	return (cpu_ns() - t0) / (double)(3 * pairs);
}

static double loop_wrapped(long pairs)
{
	double t0 = cpu_ns();
	for (long i = 0; i < pairs; i++) {
		sg_pthread_mutex_lock(&m);
		sg_pthread_mutex_unlock(&m);
	}
	return (cpu_ns() - t0) / (double)(3 * pairs);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000000;
	if (n < 3 || !sg_trace_dir()) {
		fprintf(stderr, "usage: record_cost [EVENTS], traced (SG_TRACE_DIR)\n");
		return 2;
	}
	double tsc = 1e30, bare = 1e30, wrapped = 1e30;
	loop_wrapped(n / 3);   /* warm: the thread's buffer, its file */
	for (int r = 0; r < ROUNDS; r++) {
		double a = loop_rdtsc(n), b = loop_bare(n / 3), c = loop_wrapped(n / 3);
		tsc = a < tsc ? a : tsc;
		bare = b < bare ? b : bare;
		wrapped = c < wrapped ? c : wrapped;
	}
	printf("rdtsc %.2f ns, bare %.2f ns/event, wrapped %.2f ns/event, recording %.2f "
	       "ns/event = %.2f x rdtsc (CPU time, best of %d)\n", tsc, bare, wrapped,
	       wrapped - bare, (wrapped - bare) / tsc, ROUNDS);
	return 0;
}
