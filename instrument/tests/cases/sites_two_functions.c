/* Call sites (issue 15): each call that begins a wait passes its own descriptor (file, line,
 * enclosing function); unlock, signal and create take none. Two lock sites in two functions, a
 * barrier and a join; a call in an #if branch that is not compiled leaves its descriptor
 * unused (no warning); an extern inline function keeps the plain wrapper (it may not refer to a
 * static descriptor). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t b;
static int total;

inline int peek(pthread_mutex_t *mx, const int *p)
{
	int v;
	pthread_mutex_lock(mx);
	v = *p;
	pthread_mutex_unlock(mx);
	return v;
}

static void add(int x)
{
	pthread_mutex_lock(&m);
	total += x;
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
	add(1);
	pthread_barrier_wait(&b);
#ifdef SITES_NEVER_DEFINED
	pthread_barrier_wait(&b);
#endif
	if (pthread_mutex_trylock(&m) == 0) {
		total += 10;
		pthread_mutex_unlock(&m);
	} else {
		pthread_mutex_lock(&m); total += 10; pthread_mutex_unlock(&m);
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
		pthread_join(t[i],
			     NULL);
	printf("%d\n", peek(&m, &total));
	return 0;
}
extern inline int peek(pthread_mutex_t *mx, const int *p);
