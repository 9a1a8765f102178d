/* main and the start routines, selected by the default rule, are probed from outside their
 * bodies (SG_FUNC_OUTSIDE after the closing brace); a filter rule naming one (main here)
 * selects it for its own sake and puts the probe back in its body; the other start routine
 * (worker_b) keeps the outside form, as does a routine passed through a cast. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

#include <sgtrace.h>
#line 11 "outside_filter.c"
static void *worker_a(void *arg)
{
	sg_pthread_mutex_lock(&m);
	hits++;
	sg_pthread_mutex_unlock(&m);
	return arg;
} SG_FUNC_OUTSIDE(worker_a, "outside_filter.c", 11, 0);

static void worker_b(int *arg)
{
	sg_pthread_mutex_lock(&m);
	hits += *arg;
	sg_pthread_mutex_unlock(&m);
} SG_FUNC_OUTSIDE(worker_b, "outside_filter.c", 19, 0);

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "outside_filter.c", 26, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	pthread_t t[2];
	int two = 2;
	sg_pthread_create(&t[0], NULL, worker_a, NULL);
	sg_pthread_create(&t[1], NULL, (void *(*)(void *))worker_b, &two);
	for (int i = 0; i < 2; i++)
		sg_pthread_join(t[i], NULL);
	printf("%d\n", hits);
	return 0;
}
