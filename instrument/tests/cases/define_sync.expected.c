/* Wrapped calls inside #define bodies are renamed too; the macro's own name is not. */
#include <pthread.h>
#include <stdio.h>

#define LOCK(mx)   sg_pthread_mutex_lock(mx)
#define UNLOCK(mx) sg_pthread_mutex_unlock(mx)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#include <sgtrace.h>
#line 10 "define_sync.c"
int main(void)
{
	int n = 0;
	LOCK(&m);
	n++;
	UNLOCK(&m);
	printf("%d\n", n);
	return 0;
} SG_FUNC_OUTSIDE(main, "define_sync.c", 10, 1);
