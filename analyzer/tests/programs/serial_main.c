/* serial_main.c — LLNL's dotprod_mutex in shape (issue 20, item 6): main initialises alone for
 * 150 ms, then creates 4 identical workers (150 ms each, a mutex around their sum) and joins
 * them. Expected: N = 4, the workers; main, which only waits to join them in the parallel
 * phase, is no processor whatever its serial phase — also with --threads 4. */
#include <pthread.h>

#include "spin.h"

static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static double sum;

static void *worker(void *arg)
{
	spin(0.15);
	pthread_mutex_lock(&sum_lock);
	sum += 1;
	pthread_mutex_unlock(&sum_lock);
	return arg;
}

int main(void)
{
	pthread_t t[4];
	spin(0.15);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return sum == 4 ? 0 : 1;
}
