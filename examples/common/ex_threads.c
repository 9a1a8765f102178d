/*
 * ex_threads.c — thread start and join for the parallel examples (see ex_threads.h).
 */
#include "ex_threads.h"

#include <stdio.h>
#include <string.h>

int ex_threads_start(pthread_t *tid, long n, void *(*fn)(void *), void *args, size_t stride,
		     const char *prog)
{
	for (long i = 0; i < n; i++) {
		int err = pthread_create(&tid[i], NULL, fn, (char *)args + (size_t)i * stride);

		if (err) {
			fprintf(stderr, "%s: error: cannot start thread %ld: %s\n", prog, i,
				strerror(err));
			return -err;
		}
	}
	return 0;
}

void ex_threads_join(pthread_t *tid, long n)
{
	for (long i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
}
