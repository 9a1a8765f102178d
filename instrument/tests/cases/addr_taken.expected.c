/* Taking the address of a wrapped function: a warning, and the name is left as is. A struct
 * member with a wrapped name is named (a warning) and called through `.`/`->`: not renamed. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int (*lock_fn)(pthread_mutex_t *) = pthread_mutex_lock;

#include <sgtrace.h>
#line 9 "addr_taken.c"
int main(void)
{
	int (*unlock_fn)(pthread_mutex_t *) = pthread_mutex_unlock;
	struct { int (*pthread_mutex_unlock)(pthread_mutex_t *); } ops = { unlock_fn }, *o = &ops;
	lock_fn(&m);
	ops.pthread_mutex_unlock(&m);
	lock_fn(&m);
	o->pthread_mutex_unlock(&m);
	printf("ok\n");
	return 0;
} SG_FUNC_OUTSIDE(main, "addr_taken.c", 9, 1);
