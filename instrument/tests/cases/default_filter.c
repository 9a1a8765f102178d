/* The default rule: probes on main, loops, sync callers and thread start routines only. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;

static int leaf(int x) { return x * 2; }
int caller(int x) { return leaf(x) + 1; }
static inline int tiny_loop(int x) { while (x > 10) x -= 10; return x; }
inline int ext_inline(int x) { for (;;) return x; }
static void locked(void) { pthread_mutex_lock(&m); n++; pthread_mutex_unlock(&m); }
static void *start(void *arg) { locked(); return arg; }

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, start, NULL);
	pthread_join(t, NULL);
	printf("%d %d %d %d\n", caller(n), tiny_loop(25), ext_inline(1), n);
	return 0;
}
int ext_inline(int x);
