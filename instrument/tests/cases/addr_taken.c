/* Taking the address of a wrapped function: a warning, and the name is left as is. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int (*lock_fn)(pthread_mutex_t *) = pthread_mutex_lock;

int main(void)
{
	int (*unlock_fn)(pthread_mutex_t *) = pthread_mutex_unlock;
	lock_fn(&m);
	unlock_fn(&m);
	printf("ok\n");
	return 0;
}
