/* The default rule: probes on main, loops, sync callers and thread start routines only. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;

static int leaf(int x) { return x * 2; }
int caller(int x) { return leaf(x) + 1; }
#include <sgtrace.h>
#line 10 "default_filter.c"
static inline int tiny_loop(int x) { static struct sg_func_desc sg_fd__ = { "tiny_loop", "default_filter.c", 10, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); while (x > 10) x -= 10; return x; }
inline int ext_inline(int x) { for (;;) return x; }
static void locked(void) { static struct sg_func_desc sg_fd__ = { "locked", "default_filter.c", 12, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); sg_pthread_mutex_lock(&m); n++; sg_pthread_mutex_unlock(&m); }
static void *start(void *arg) { static struct sg_func_desc sg_fd__ = { "start", "default_filter.c", 13, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); locked(); return arg; }

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "default_filter.c", 15, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	pthread_t t;
	sg_pthread_create(&t, NULL, start, NULL);
	sg_pthread_join(t, NULL);
	printf("%d %d %d %d\n", caller(n), tiny_loop(25), ext_inline(1), n);
	return 0;
}
int ext_inline(int x);
