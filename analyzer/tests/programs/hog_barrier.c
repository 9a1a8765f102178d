/* hog_barrier.c — two workers pinned to CPUs 0 and 1 meet at a barrier after each 2 ms of
 * compute, 100 times; test-budget.sh runs a CPU hog pinned to CPU 0 beside it. Worker 0 then gets
 * about half of its CPU: the time it loses is CPU contention (IT_sched), not barrier overhead,
 * and the parallelism stays at most 2. Main only starts and joins them. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "spin.h"

static pthread_barrier_t bar;

static void *worker(void *arg)
{
	long cpu = (long)arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	for (int i = 0; i < 100; i++) {
		spin(0.002);
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&bar, NULL, 2);
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
