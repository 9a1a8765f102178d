/* Call sites (issue 15): a wrapped name that is not called here keeps the plain name (calls
 * through a function pointer are not traced, said once), and a parenthesised name is not a call
 * of it; called ones get their sites. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
#define LOCK_FN pthread_mutex_lock

static int (*const lock_fn)(pthread_mutex_t *) = LOCK_FN;

int main(void)
{
	int (*unlock_fn)(pthread_mutex_t *) = &pthread_mutex_unlock;
	lock_fn(&m);
	unlock_fn(&m);
	(pthread_mutex_lock)(&m);
	pthread_mutex_unlock(&m);
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	printf("ok\n");
	return 0;
}
