/*
 * ex_threads.h — starting and joining the worker threads of the parallel examples.
 *
 * The calls are plain pthread_create/pthread_join, so `scalegraph cc` traces them like any
 * user code.
 */
#ifndef EX_THREADS_H
#define EX_THREADS_H

#include <pthread.h>
#include <stddef.h>

/*
 * Starts n threads running `fn`; thread i gets (char *)args + i * stride as its argument (an
 * array of per-thread structs owned by the caller). Returns 0, or -errno after printing
 * "PROG: error: cannot start thread I: ..." with PROG = `prog`. On failure the threads already
 * started keep running: a program whose threads wait for one another (barriers) must exit.
 */
int ex_threads_start(pthread_t *tid, long n, void *(*fn)(void *), void *args, size_t stride,
		     const char *prog);

/* Joins threads tid[0..n-1], ignoring their return values. */
void ex_threads_join(pthread_t *tid, long n);

#endif /* EX_THREADS_H */
