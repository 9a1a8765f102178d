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

#include <sgtrace.h>
#line 13 "sites_two_functions.c"
inline int peek(pthread_mutex_t *mx, const int *p)
{
	int v;
	sg_pthread_mutex_lock(mx);
	v = *p;
	sg_pthread_mutex_unlock(mx);
	return v;
}

static struct sg_site_desc sg_site_1 __attribute__((unused)) = { "sites_two_functions.c", 24, "add", 0 };
#line 22 "sites_two_functions.c"
static void add(int x)
{
	sg_pthread_mutex_lock_at(&sg_site_1, &m);
	total += x;
	sg_pthread_mutex_unlock(&m);
}

static struct sg_site_desc sg_site_2 __attribute__((unused)) = { "sites_two_functions.c", 32, "worker", 0 };
static struct sg_site_desc sg_site_3 __attribute__((unused)) = { "sites_two_functions.c", 34, "worker", 0 };
static struct sg_site_desc sg_site_4 __attribute__((unused)) = { "sites_two_functions.c", 36, "worker", 0 };
static struct sg_site_desc sg_site_5 __attribute__((unused)) = { "sites_two_functions.c", 40, "worker", 0 };
#line 29 "sites_two_functions.c"
static void *worker(void *arg)
{
	add(1);
	sg_pthread_barrier_wait_at(&sg_site_2, &b);
#ifdef SITES_NEVER_DEFINED
	sg_pthread_barrier_wait_at(&sg_site_3, &b);
#endif
	if (sg_pthread_mutex_trylock_at(&sg_site_4, &m) == 0) {
		total += 10;
		sg_pthread_mutex_unlock(&m);
	} else {
		sg_pthread_mutex_lock_at(&sg_site_5, &m); total += 10; sg_pthread_mutex_unlock(&m);
	}
	return arg;
} SG_FUNC_OUTSIDE(worker, "sites_two_functions.c", 29, 0);

static struct sg_site_desc sg_site_6 __attribute__((unused)) = { "sites_two_functions.c", 52, "main", 0 };
#line 45 "sites_two_functions.c"
int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&b, NULL, 2);
	for (int i = 0; i < 2; i++)
		sg_pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		sg_pthread_join_at(&sg_site_6, t[i],
			     NULL);
	printf("%d\n", peek(&m, &total));
	return 0;
} SG_FUNC_OUTSIDE(main, "sites_two_functions.c", 45, 1);
extern inline int peek(pthread_mutex_t *mx, const int *p);
