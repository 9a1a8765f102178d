/* main_works.c — main computes 200 ms beside its one worker, then joins it: a main thread that
 * works is a processor. Expected: N = 2 with main counted, parallelism <= 2. */
#include <pthread.h>

#include "spin.h"

static void *worker(void *arg)
{
	spin(0.2);
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	spin(0.2);
	pthread_join(t, NULL);
	return 0;
}
