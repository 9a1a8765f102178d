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
#include <sgtrace.h>
#line 14 "default_filter.c"
static void locked(void) { sg_pthread_mutex_lock(&m); n++; sg_pthread_mutex_unlock(&m); }
static int sum(int k) { static struct sg_func_desc sg_fd__ = { "sum", "default_filter.c", 15, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); int s = 0; for (int i = 0; i < k; i++) s += leaf(i); return s; }
static void bump(void) { static struct sg_func_desc sg_fd__ = { "bump", "default_filter.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); sg_pthread_mutex_lock(&m); n += leaf(1); sg_pthread_mutex_unlock(&m); }
static void *start(void *arg) { locked(); bump(); return arg; } SG_FUNC_OUTSIDE(start, "default_filter.c", 17, 0);

int main(void)
{
	pthread_t t;
	sg_pthread_create(&t, NULL, start, NULL);
	sg_pthread_join(t, NULL);
	printf("%d %d %d %d %d\n", caller(n), tiny_loop(25), ext_inline(1), sum(3), n);
	return 0;
} SG_FUNC_OUTSIDE(main, "default_filter.c", 19, 1);
int ext_inline(int x);
