/*
 * lock_heavy.c — a SPLASH-like lock- and barrier-heavy program for the trace-size bench
 * (bench/tracelib-compact.sh): T threads run P phases separated by barriers; in each phase every
 * thread takes work items from a shared queue under one lock (SPLASH's GETSUB idiom), does a
 * little work on each and adds its result into one of 16 cells, each under its own lock (the
 * cell locks of BARNES or RADIOSITY), with a call site per lock as `scalegraph cc` gives them.
 * Calls the libsgtrace wrappers directly, so it builds against any tree of the library.
 * Usage: lock_heavy [THREADS [PHASES [ITEMS]]]   (default 2 threads, 200 phases, 2000 items)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtrace.h"

#define CELLS 16

static pthread_barrier_t bar;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cell_lock[CELLS];
static double cell[CELLS];
static int phases = 200, items = 2000, next_item;

static struct sg_site_desc site_q = { "lock_heavy.c", 40, "worker", 0 };
static struct sg_site_desc site_c = { "lock_heavy.c", 50, "worker", 0 };
static struct sg_site_desc site_b = { "lock_heavy.c", 55, "worker", 0 };

static double work(int i)
{
	double x = i;
	for (int k = 0; k < 50; k++)
		x = x * 0.999 + 1.0;
	return x;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int p = 0; p < phases; p++) {
		for (;;) {
			sg_pthread_mutex_lock_at(&site_q, &qlock);
			int i = next_item < items ? next_item++ : -1;
			sg_pthread_mutex_unlock(&qlock);
			if (i < 0)
				break;
			double v = work(i);
			int c = (int)((unsigned)(i * 7 + id) % CELLS);
			sg_pthread_mutex_lock_at(&site_c, &cell_lock[c]);
			cell[c] += v;
			sg_pthread_mutex_unlock(&cell_lock[c]);
		}
		if (sg_pthread_barrier_wait_at(&site_b, &bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			next_item = 0;   /* the next phase's queue, before anyone leaves the next one */
		sg_pthread_barrier_wait_at(&site_b, &bar);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	if (argc > 2)
		phases = atoi(argv[2]);
	if (argc > 3)
		items = atoi(argv[3]);
	if (threads < 1 || threads > 256 || phases < 1 || items < 1) {
		fprintf(stderr, "usage: lock_heavy [THREADS [PHASES [ITEMS]]]\n");
		return 2;
	}
	for (int c = 0; c < CELLS; c++)
		pthread_mutex_init(&cell_lock[c], NULL);
	pthread_barrier_init(&bar, NULL, (unsigned)threads);
	pthread_t th[256];
	for (long i = 0; i < threads; i++)
		sg_pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < threads; i++)
		sg_pthread_join(th[i], NULL);
	double s = 0;
	for (int c = 0; c < CELLS; c++)
		s += cell[c];
	printf("%g\n", s);
	return 0;
}
