/* Parenthesised function names are definitions like any other: `int (f)(void)` (which the
 * island grammar sees as a call of `int`), `T *(f)(...)` and a thread start routine written
 * `static void *(worker)(void *a)` get probes under the rule, and the start routine is
 * recognised (issue 14: it was skipped silently, even with --all-functions). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total;

int (answer)(void) { return 42; }

#include <sgtrace.h>
#line 13 "defect14-paren-names.c"
static int *(pick)(int *v, int n)
{ static struct sg_func_desc sg_fd__ = { "pick", "defect14-paren-names.c", 13, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int *best = v;
	for (int i = 1; i < n; i++)
		if (v[i] > *best && answer() > 0)
			best = &v[i];
	return best;
}

static void *(worker)(void *a)
{
	sg_pthread_mutex_lock(&m);
	total += *(int *)a;
	sg_pthread_mutex_unlock(&m);
	return a;
} SG_FUNC_OUTSIDE(worker, "defect14-paren-names.c", 22, 0);

static int ( spaced ) ( int x ) { static struct sg_func_desc sg_fd__ = { "spaced", "defect14-paren-names.c", 30, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); while (x > 10) x = answer() - x; return x; }

int main(void)
{
	pthread_t t;
	int v[3] = { 1, 7, 3 };
	sg_pthread_create(&t, NULL, worker, &v[1]);
	sg_pthread_join(t, NULL);
	printf("%d %d %d %d\n", answer(), *pick(v, 3), total, spaced(5));
	return 0;
} SG_FUNC_OUTSIDE(main, "defect14-paren-names.c", 32, 1);
