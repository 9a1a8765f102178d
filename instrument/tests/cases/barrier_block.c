/* Sync calls inside bare blocks, in macro arguments, in conditions and expressions. */
#include <pthread.h>
#include <stdio.h>

#define CHECK(call) do { if ((call) != 0) return NULL; } while (0)

static pthread_barrier_t b;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

static void *worker(void *arg)
{
	{ pthread_barrier_wait(&b); }
	CHECK(pthread_mutex_lock(&m));
	hits++;
	if (pthread_mutex_unlock(&m) != 0)
		return NULL;
	{
		{ int rc = pthread_barrier_wait(&b); (void)rc; }
	}
	return arg;
}

int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&b, NULL, 2);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&b);
	printf("%d\n", hits);
	return 0;
}
