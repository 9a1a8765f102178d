/*
 * plain_prog.c — the program of the measured-overhead tests (issue 21, part 2), built twice as
 * the README's tour says: with the ordinary compiler (the spec's `plain`) and with `scalegraph
 * cc` (its `program`). N threads each sleep MS milliseconds between two barrier episodes (a few
 * records: the estimated tracing cost is tiny); before they start, main sleeps EXTRA
 * milliseconds. The spec gives the traced build an EXTRA the plain one does not get, so the
 * traced runs are slower by a known amount that no record shows: the measured overhead must find
 * it (traced / plain - 1 = (MS + EXTRA) / MS - 1, plus the start of the processes), the estimate
 * must not, and the report must mark the point.
 *   plain_prog --threads N --ms MS [--extra-ms EXTRA]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_barrier_t bar;
static long ms;

static void nap(long m)
{
	struct timespec ts = { m / 1000, (m % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);
	nap(ms);
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = 1, extra = 0;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--threads"))
			n = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--ms"))
			ms = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--extra-ms"))
			extra = strtol(argv[i + 1], NULL, 10);
		else {
			fprintf(stderr, "plain_prog: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (n < 1 || n > 64) {
		fprintf(stderr, "plain_prog: --threads must be in 1..64\n");
		return 2;
	}
	nap(extra);
	pthread_t t[64];
	pthread_barrier_init(&bar, NULL, (unsigned)n);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	return 0;
}
