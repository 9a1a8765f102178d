/*
 * barrier_loop.c — a barrier-bound program for the hot-path bench (bench/hotpath.sh): T threads
 * do a small slice of work, then meet at a barrier, E times. With tiny slices nearly all of the
 * run is barrier episodes, so the cost of the barrier wrappers and of the function probes of the
 * step routine dominates what tracing adds. Usage: barrier_loop [THREADS [EPISODES [WORK]]].
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t bar;
static int episodes = 20000, work = 2000;
static double out[64];

static double step(int id, int e)
{
	double x = id + e;
	for (int i = 0; i < work; i++)
		x = x * 0.999 + 1.0;
	return x;
}

static void *worker(void *arg)
{
	int id = (int)(long)arg;
	double s = 0;
	for (int e = 0; e < episodes; e++) {
		s += step(id, e);
		pthread_barrier_wait(&bar);
	}
	out[id] = s;
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	if (argc > 2)
		episodes = atoi(argv[2]);
	if (argc > 3)
		work = atoi(argv[3]);
	if (threads < 1 || threads > 64 || episodes < 1 || work < 0) {
		fprintf(stderr, "usage: barrier_loop [THREADS<=64 [EPISODES [WORK]]]\n");
		return 2;
	}
	pthread_t t[64];
	pthread_barrier_init(&bar, NULL, (unsigned)threads);
	for (long i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	double s = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(t[i], NULL);
		s += out[i];
	}
	printf("checksum %.3f\n", s);
	return 0;
}
