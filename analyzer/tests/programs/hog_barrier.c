/* hog_barrier.c — two workers pinned to CPUs 0 and 1 meet at a barrier after each 2 ms of
 * compute, 100 times; test-budget.sh runs a CPU hog pinned to CPU 0 beside it. Worker 0 then gets
 * about half of its CPU: the time it loses is CPU contention (IT_sched), not barrier overhead,
 * and the parallelism stays at most 2. Main only starts and joins them. With --one-cpu both
 * workers are pinned to CPU 0: they share it, each runnable while the other computes. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "spin.h"

static pthread_barrier_t bar;
static int one_cpu;

static void *worker(void *arg)
{
	long cpu = (long)arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(one_cpu ? 0 : (int)cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	for (int i = 0; i < 100; i++) {
		spin(0.002);
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	one_cpu = argc > 1 && !strcmp(argv[1], "--one-cpu");
	pthread_barrier_init(&bar, NULL, 2);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
