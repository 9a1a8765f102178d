/* The default rule: probes on main, thread start routines, and functions that loop or
 * synchronise and also call other functions; leaf helpers (even looping or locking ones) and
 * straight-line callers are left alone. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;

static int leaf(int x) { return x * 2; }
int caller(int x) { return leaf(x) + 1; }
static inline int tiny_loop(int x) { while (x > 10) x -= 10; return x; }
inline int ext_inline(int x) { for (;;) return x; }
static void locked(void) { pthread_mutex_lock(&m); n++; pthread_mutex_unlock(&m); }
static int sum(int k) { int s = 0; for (int i = 0; i < k; i++) s += leaf(i); return s; }
static void bump(void) { pthread_mutex_lock(&m); n += leaf(1); pthread_mutex_unlock(&m); }
static void *start(void *arg) { locked(); bump(); return arg; }

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, start, NULL);
	pthread_join(t, NULL);
	printf("%d %d %d %d %d\n", caller(n), tiny_loop(25), ext_inline(1), sum(3), n);
	return 0;
}
int ext_inline(int x);
