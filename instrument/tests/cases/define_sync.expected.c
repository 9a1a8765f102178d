/* Wrapped calls inside #define bodies are renamed too; the macro's own name is not. */
#include <pthread.h>
#include <stdio.h>

#define LOCK(mx)   sg_pthread_mutex_lock(mx)
#define UNLOCK(mx) sg_pthread_mutex_unlock(mx)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#include <sgtrace.h>
#line 10 "define_sync.c"
int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "define_sync.c", 10, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int n = 0;
	LOCK(&m);
	n++;
	UNLOCK(&m);
	printf("%d\n", n);
	return 0;
}
