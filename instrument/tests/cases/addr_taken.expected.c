/* Taking the address of a wrapped function: a warning, and the name is left as is. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int (*lock_fn)(pthread_mutex_t *) = pthread_mutex_lock;

#include <sgtrace.h>
#line 8 "addr_taken.c"
int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "addr_taken.c", 8, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int (*unlock_fn)(pthread_mutex_t *) = pthread_mutex_unlock;
	lock_fn(&m);
	unlock_fn(&m);
	printf("ok\n");
	return 0;
}
