/* sem_pool.c — a worker waits 200 ms in sem_wait for the post main makes after computing 200 ms,
 * then computes 100 ms while main waits to join it. Expected (test-budget.sh): N = 2, IT_sem
 * about 200 ms, IT_join about 100 ms, one semaphore with one blocked wait and one post. */
#include <pthread.h>
#include <semaphore.h>

#include "spin.h"

static sem_t ready;

static void *worker(void *arg)
{
	sem_wait(&ready);
	spin(0.1);
	return arg;
}

int main(void)
{
	pthread_t t;
	sem_init(&ready, 0, 0);
	pthread_create(&t, NULL, worker, NULL);
	spin(0.2);
	sem_post(&ready);
	pthread_join(t, NULL);
	return 0;
}
