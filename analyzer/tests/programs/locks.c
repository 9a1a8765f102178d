/* locks.c — a recursive mutex held twice for 100 ms by worker A; worker B, once A holds it, tries
 * it (fails: busy) and then waits for it until A lets go, and computes 50 ms. Expected: IT_lock
 * about 100 ms, one failed try-lock, the books closed. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>

#include "spin.h"

static pthread_mutex_t m;
static sem_t held;

static void *a(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	sem_post(&held);
	spin(0.1);
	pthread_mutex_unlock(&m);
	pthread_mutex_unlock(&m);
	spin(0.05);
	return arg;
}

static void *b(void *arg)
{
	sem_wait(&held);
	if (pthread_mutex_trylock(&m) == 0)
		pthread_mutex_unlock(&m);
	pthread_mutex_lock(&m);
	spin(0.05);
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	pthread_mutexattr_t at;
	pthread_t ta, tb;
	pthread_mutexattr_init(&at);
	pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&m, &at);
	sem_init(&held, 0, 0);
	pthread_create(&ta, NULL, a, NULL);
	pthread_create(&tb, NULL, b, NULL);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	return 0;
}
