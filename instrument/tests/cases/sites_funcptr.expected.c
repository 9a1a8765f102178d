/* Call sites (issue 15): a wrapped name that is not called here keeps the plain name (calls
 * through a function pointer are not traced, said once), and a parenthesised name is not a call
 * of it; called ones get their sites. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
#define LOCK_FN pthread_mutex_lock

static int (*const lock_fn)(pthread_mutex_t *) = LOCK_FN;

#include <sgtrace.h>
static struct sg_site_desc sg_site_1 __attribute__((unused)) = { "sites_funcptr.c", 19, "main", 0 };
#line 12 "sites_funcptr.c"
int main(void)
{
	int (*unlock_fn)(pthread_mutex_t *) = &pthread_mutex_unlock;
	lock_fn(&m);
	unlock_fn(&m);
	(pthread_mutex_lock)(&m);
	sg_pthread_mutex_unlock(&m);
	sg_pthread_mutex_lock_at(&sg_site_1, &m);
	sg_pthread_mutex_unlock(&m);
	printf("ok\n");
	return 0;
} SG_FUNC_OUTSIDE(main, "sites_funcptr.c", 12, 1);
