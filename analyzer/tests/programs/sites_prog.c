/* sites_prog.c — waits known per call site, for test-sites-e2e.sh (issue 15 part 4): N worker
 * threads, ROUNDS rounds. Each round worker 0 sleeps 20 ms and then reaches the barrier of
 * phase_sync (site A) where the others have waited since the end of the previous round: about
 * 20 ms each (N - 1 waits a round). Then worker 0 takes the mutex in hold_lock (site H) and keeps
 * it 10 ms, while each other worker sleeps 2 ms and asks for it in wait_lock (site B): it waits
 * about 8 ms (plus the other waiters' short holds). Expected per run: IT_barrier about
 * ROUNDS (N - 1) 20 ms, all of it at A; IT_lock about ROUNDS (N - 1) 8 ms, almost all at B.
 * Sleeping, not spinning: the test's 2 CPUs are shared, and a sleep never ends early.
 * Usage: sites_prog THREADS ROUNDS */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t bar;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int rounds;

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void phase_sync(void)
{
	pthread_barrier_wait(&bar);   /* SITE_A */
}

static void hold_lock(void)
{
	pthread_mutex_lock(&m);   /* SITE_H */
	nap(10);
	pthread_mutex_unlock(&m);
}

static void wait_lock(void)
{
	nap(2);
	pthread_mutex_lock(&m);   /* SITE_B */
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
	long me = (long)arg;
	for (int r = 0; r < rounds; r++) {
		if (me == 0)
			nap(20);
		phase_sync();
		if (me == 0)
			hold_lock();
		else
			wait_lock();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	rounds = argc > 2 ? atoi(argv[2]) : 5;
	if (n < 2 || n > 64 || rounds < 1) {
		fprintf(stderr, "usage: sites_prog THREADS(2..64) ROUNDS\n");
		return 2;
	}
	pthread_t t[64];
	pthread_barrier_init(&bar, NULL, (unsigned)n);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
