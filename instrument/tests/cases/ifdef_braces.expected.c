/* Function headers that differ per #if branch: braces only balance one branch at a time. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#include <sgtrace.h>
#line 7 "ifdef_braces.c"
#ifdef TWO_ARGS
static int sum(int a, int b) { static struct sg_func_desc sg_fd__ = { "sum", "ifdef_braces.c", 8, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
#else
static int sum(int a) {
	int b = 1;
#endif
	int s = 0;
	sg_pthread_mutex_lock(&m);
	for (int i = 0; i < a + b; i++)
		s += i;
	sg_pthread_mutex_unlock(&m);
	return s;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "ifdef_braces.c", 21, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
#ifdef TWO_ARGS
	printf("%d\n", sum(2, 2));
#else
	printf("%d\n", sum(3));
#endif
	return 0;
}
