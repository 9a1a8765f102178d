/* Parenthesised function names are definitions like any other: `int (f)(void)` (which the
 * island grammar sees as a call of `int`), `T *(f)(...)` and a thread start routine written
 * `static void *(worker)(void *a)` get probes under the rule, and the start routine is
 * recognised (issue 14: it was skipped silently, even with --all-functions). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total;

int (answer)(void) { return 42; }

static int *(pick)(int *v, int n)
{
	int *best = v;
	for (int i = 1; i < n; i++)
		if (v[i] > *best && answer() > 0)
			best = &v[i];
	return best;
}

static void *(worker)(void *a)
{
	pthread_mutex_lock(&m);
	total += *(int *)a;
	pthread_mutex_unlock(&m);
	return a;
}

static int ( spaced ) ( int x ) { while (x > 10) x = answer() - x; return x; }

int main(void)
{
	pthread_t t;
	int v[3] = { 1, 7, 3 };
	pthread_create(&t, NULL, worker, &v[1]);
	pthread_join(t, NULL);
	printf("%d %d %d %d\n", answer(), *pick(v, 3), total, spaced(5));
	return 0;
}
