/*
 * throttlee.c — a call-heavy traced program for the throttling tests (test-throttle.sh), its
 * probes written as the instrumenter writes them (sg_func_scope guards, sg_pthread wrappers).
 *   throttlee flat CALLS THREADS     each thread calls tiny() CALLS times; every 16th call
 *                                    takes a mutex shared by all threads inside tiny()
 *   throttlee tree DEPTH THREADS     each thread walks a binary tree of DEPTH levels with the
 *                                    recursive walk() (2^(DEPTH+1)-1 calls), each call calling
 *                                    leaf() once and taking the mutex at every 64th call
 *   throttlee sleepy CALLS           the main thread calls slow_fn() CALLS times, each call
 *                                    sleeping 20 us (over the rule's 5 us: never throttled)
 *   throttlee kill CALLS             the main thread calls tiny() CALLS times, flushes its
 *                                    buffer (sg_trace_flush), calls it 1000 times more, prints
 *                                    "ready" and waits to be killed (SIGKILL)
 * On stdout it prints one line of its own results ("flat: 2000000 calls, 125000 locks"), so
 * that the tests can check that the library adds nothing to stdout nor stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgtrace.h"

#define SCOPE(desc) \
	struct sg_func_scope sg_scope __attribute__((cleanup(sg_func_scope_exit))) = \
		sg_func_scope_enter(&desc)

static struct sg_func_desc fd_tiny = { "tiny", "throttlee.c", 30, 0 };
static struct sg_func_desc fd_worker = { "worker", "throttlee.c", 40, 0 };
static struct sg_func_desc fd_walk = { "walk", "throttlee.c", 50, 0 };
static struct sg_func_desc fd_leaf = { "leaf", "throttlee.c", 60, 0 };
static struct sg_func_desc fd_slow = { "slow_fn", "throttlee.c", 70, 0 };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long locks;
static long n_arg;
static volatile unsigned long sink;

static __attribute__((noinline)) void tiny(long i)
{
	SCOPE(fd_tiny);
	sink += (unsigned long)i;
	if ((i & 15) == 0) {
		sg_pthread_mutex_lock(&m);
		locks++;
		sg_pthread_mutex_unlock(&m);
	}
}

static __attribute__((noinline)) void leaf(long i)
{
	SCOPE(fd_leaf);
	sink ^= (unsigned long)i;
}

static long walk_calls;   /* per thread below: only the main thread's are counted */

static __attribute__((noinline)) void walk(int depth, long *calls)
{
	SCOPE(fd_walk);
	long c = ++*calls;
	leaf(c);
	if ((c & 63) == 0) {
		sg_pthread_mutex_lock(&m);
		locks++;
		sg_pthread_mutex_unlock(&m);
	}
	if (depth > 0) {
		walk(depth - 1, calls);
		walk(depth - 1, calls);
	}
}

static void *flat_worker(void *arg)
{
	SCOPE(fd_worker);
	for (long i = 0; i < n_arg; i++)
		tiny(i);
	return arg;
}

static void *tree_worker(void *arg)
{
	SCOPE(fd_worker);
	long calls = 0;
	walk((int)n_arg, &calls);
	if (arg)
		walk_calls = calls;
	return NULL;
}

static void slow_calls(long n)
{
	for (long i = 0; i < n; i++) {
		SCOPE(fd_slow);
		struct timespec ts = { 0, 20000 };
		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: throttlee flat CALLS THREADS | tree DEPTH THREADS | "
			"sleepy CALLS\n");
		return 2;
	}
	n_arg = atol(argv[2]);
	int n_threads = argc > 3 ? atoi(argv[3]) : 1;
	if (n_threads < 1 || n_threads > 64)
		n_threads = 1;
	if (!strcmp(argv[1], "kill")) {
		for (long i = 0; i < n_arg; i++)
			tiny(i);
		sg_trace_flush();
		for (long i = 0; i < 1000; i++)
			tiny(i);
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (!strcmp(argv[1], "sleepy")) {
		slow_calls(n_arg);
		printf("sleepy: %ld calls\n", n_arg);
		return 0;
	}
	int tree = !strcmp(argv[1], "tree");
	if (!tree && strcmp(argv[1], "flat")) {
		fprintf(stderr, "throttlee: error: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	pthread_t th[64];
	for (int i = 1; i < n_threads; i++)
		sg_pthread_create(&th[i], NULL, tree ? tree_worker : flat_worker, NULL);
	if (tree)
		tree_worker(&n_arg);
	else
		flat_worker(NULL);
	for (int i = 1; i < n_threads; i++)
		sg_pthread_join(th[i], NULL);
	if (tree)
		printf("tree: %ld calls per thread, %ld locks\n", walk_calls, locks);
	else
		printf("flat: %ld calls, %ld locks\n", n_arg * n_threads, locks);
	return 0;
}
