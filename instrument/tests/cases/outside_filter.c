/* main and the start routines, selected by the default rule, are probed from outside their
 * bodies (SG_FUNC_OUTSIDE after the closing brace); a filter rule naming one (main here)
 * selects it for its own sake and puts the probe back in its body; the other start routine
 * (worker_b) keeps the outside form, as does a routine passed through a cast. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int hits;

static void *worker_a(void *arg)
{
	pthread_mutex_lock(&m);
	hits++;
	pthread_mutex_unlock(&m);
	return arg;
}

static void worker_b(int *arg)
{
	pthread_mutex_lock(&m);
	hits += *arg;
	pthread_mutex_unlock(&m);
}

int main(void)
{
	pthread_t t[2];
	int two = 2;
	pthread_create(&t[0], NULL, worker_a, NULL);
	pthread_create(&t[1], NULL, (void *(*)(void *))worker_b, &two);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", hits);
	return 0;
}
