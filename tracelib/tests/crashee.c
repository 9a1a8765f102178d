/*
 * crashee.c — a traced program for the crash tests (test_crash.c). Usage:
 *   crashee MODE N        MODE: ok | segv | bus | term | int | abort | kill | hold | plant
 * Thread 0 and a worker (thread 1) each lock and unlock their own mutex N times (3N lock
 * events each); then thread 0 exits normally (ok), dereferences NULL (segv), raises SIGBUS (bus),
 * SIGTERM (term) or SIGINT (int), calls abort() (abort), or (kill) flushes its buffer, prints
 * "ready", records N more lock/unlock pairs that stay in its buffer, and waits to be killed
 * with SIGKILL; (hold) records its pairs and the worker's without any flush, prints "ready" and
 * waits to be killed; (plant) prints its trace directory and waits for a line on stdin before
 * it starts the worker (a test plants files there first), then runs as ok. A program that
 * survives its signal (it was ignored when the program started)
 * prints "survived", lets the worker finish and exits with status 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgtrace.h"

static pthread_barrier_t done, never;
static long n_pairs;
static int exit_normally;

static void lock_pairs(pthread_mutex_t *m, long n)
{
	for (long i = 0; i < n; i++) {
		sg_pthread_mutex_lock(m);
		sg_pthread_mutex_unlock(m);
	}
}

static void *worker(void *arg)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	lock_pairs(&m, n_pairs);
	pthread_barrier_wait(&done);
	if (!exit_normally)
		pthread_barrier_wait(&never);   /* blocks until the process dies */
	return arg;
}

/* A real fault, not raise(SIGSEGV): the library's handler must cope with a fault's context.
 * UBSan (make check-sanitize) would stop the store before it faults. */
__attribute__((noinline, no_sanitize("undefined"))) static void store_to_null(void)
{
	volatile int *volatile bad = NULL;
	*bad = 1;
}

int main(int argc, char **argv)
{
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	if (argc != 3) {
		fprintf(stderr, "usage: crashee ok|segv|bus|term|int|abort|kill|hold|plant N\n");
		return 2;
	}
	const char *mode = argv[1];
	n_pairs = atol(argv[2]);
	exit_normally = !strcmp(mode, "ok") || !strcmp(mode, "plant");
	pthread_barrier_init(&done, NULL, 2);
	pthread_barrier_init(&never, NULL, 2);
	if (!strcmp(mode, "plant")) {
		char line[16];
		printf("%s\n", sg_trace_dir() ? sg_trace_dir() : "-");
		fflush(stdout);
		if (!fgets(line, sizeof line, stdin))
			return 2;
	}
	pthread_t th;
	sg_pthread_create(&th, NULL, worker, NULL);
	lock_pairs(&m, n_pairs);
	pthread_barrier_wait(&done);
	if (exit_normally) {
		sg_pthread_join(th, NULL);
		return 0;
	}
	if (!strcmp(mode, "segv"))
		store_to_null();
	if (!strcmp(mode, "bus"))
		raise(SIGBUS);
	if (!strcmp(mode, "term"))
		raise(SIGTERM);
	if (!strcmp(mode, "int"))
		raise(SIGINT);
	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "hold")) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "kill")) {
		sg_trace_flush();
		printf("ready\n");
		fflush(stdout);
		lock_pairs(&m, n_pairs);
		for (;;)
			pause();
	}
	if (strcmp(mode, "segv") && strcmp(mode, "bus") && strcmp(mode, "term") &&
	    strcmp(mode, "int") && strcmp(mode, "abort") && strcmp(mode, "hold")) {
		fprintf(stderr, "crashee: unknown mode '%s'\n", mode);
		return 2;
	}
	printf("survived\n");
	pthread_barrier_wait(&never);   /* releases the worker */
	sg_pthread_join(th, NULL);
	return 0;
}
