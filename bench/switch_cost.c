/*
 * switch_cost.c — what the off-CPU record costs per context switch (docs/tracelib.md): two
 * threads pinned to one CPU pass a byte back and forth through two pipes, so that every round
 * is two context switches between them; with a second argument "2cpus" each has a CPU of its
 * own and every round wakes a thread on an idle CPU. Linked with libsgtrace (static) like an
 * instrumented program, whose constructor opens the context-switch events unless SG_SCHED=0
 * (or SG_TRACE=0): bench/offcpu-cost.sh runs it both ways, interleaved. The pipe calls are not
 * traced: only the kernel's records differ between the runs.
 *
 * usage: switch_cost ROUNDS [2cpus]   prints ns per switch
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int a2b[2], b2a[2];
static long rounds;
static int two_cpus;

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *b_main(void *arg)
{
	char c;
	pin(two_cpus ? 1 : 0);
	for (long i = 0; i < rounds; i++)
		if (read(a2b[0], &c, 1) != 1 || write(b2a[1], &c, 1) != 1)
			break;
	return arg;
}

int main(int argc, char **argv)
{
	rounds = argc > 1 ? atol(argv[1]) : 100000;
	two_cpus = argc > 2 && !strcmp(argv[2], "2cpus");
	if (pipe(a2b) < 0 || pipe(b2a) < 0)
		return 1;
	pthread_t b;
	pin(0);
	pthread_create(&b, NULL, b_main, NULL);
	struct timespec t0, t1;
	char c = 'x';
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < rounds; i++)
		if (write(a2b[1], &c, 1) != 1 || read(b2a[0], &c, 1) != 1)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(b, NULL);
	double ns = (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
	printf("%.1f\n", ns / (2.0 * (double)rounds));
	return 0;
}
