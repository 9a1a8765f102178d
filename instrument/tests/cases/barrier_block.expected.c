/* Sync calls inside bare blocks, in macro arguments, in conditions and expressions. */
#include <pthread.h>
#include <stdio.h>

#define CHECK(call) do { if ((call) != 0) return NULL; } while (0)

static pthread_barrier_t b;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

#include <sgtrace.h>
static struct sg_site_desc sg_site_1 __attribute__((unused)) = { "barrier_block.c", 13, "worker", 0 };
static struct sg_site_desc sg_site_2 __attribute__((unused)) = { "barrier_block.c", 14, "worker", 0 };
static struct sg_site_desc sg_site_3 __attribute__((unused)) = { "barrier_block.c", 19, "worker", 0 };
#line 11 "barrier_block.c"
static void *worker(void *arg)
{ static struct sg_func_desc sg_fd__ = { "worker", "barrier_block.c", 11, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	{ sg_pthread_barrier_wait_at(&sg_site_1, &b); }
	CHECK(sg_pthread_mutex_lock_at(&sg_site_2, &m));
	hits++;
	if (sg_pthread_mutex_unlock(&m) != 0)
		return NULL;
	{
		{ int rc = sg_pthread_barrier_wait_at(&sg_site_3, &b); (void)rc; }
	}
	return arg;
}

static struct sg_site_desc sg_site_4 __attribute__((unused)) = { "barrier_block.c", 31, "main", 0 };
#line 24 "barrier_block.c"
int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "barrier_block.c", 24, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	pthread_t t[2];
	pthread_barrier_init(&b, NULL, 2);
	for (int i = 0; i < 2; i++)
		sg_pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		sg_pthread_join_at(&sg_site_4, t[i], NULL);
	pthread_barrier_destroy(&b);
	printf("%d\n", hits);
	return 0;
}
