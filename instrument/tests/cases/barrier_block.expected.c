/* Sync calls inside bare blocks, in macro arguments, in conditions and expressions. */
#include <pthread.h>
#include <stdio.h>

#define CHECK(call) do { if ((call) != 0) return NULL; } while (0)

static pthread_barrier_t b;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

#include <sgtrace.h>
#line 11 "barrier_block.c"
static void *worker(void *arg)
{
	{ sg_pthread_barrier_wait(&b); }
	CHECK(sg_pthread_mutex_lock(&m));
	hits++;
	if (sg_pthread_mutex_unlock(&m) != 0)
		return NULL;
	{
		{ int rc = sg_pthread_barrier_wait(&b); (void)rc; }
	}
	return arg;
} SG_FUNC_OUTSIDE(worker, "barrier_block.c", 11, 0);

int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&b, NULL, 2);
	for (int i = 0; i < 2; i++)
		sg_pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		sg_pthread_join(t[i], NULL);
	pthread_barrier_destroy(&b);
	printf("%d\n", hits);
	return 0;
} SG_FUNC_OUTSIDE(main, "barrier_block.c", 24, 1);
