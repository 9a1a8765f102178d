/* Function-pointer casts in pthread_create, and a start routine with another signature. */
#include <pthread.h>
#include <stdio.h>

static int result;

#include <sgtrace.h>
#line 7 "create_cast.c"
static void work(int *arg)
{
	result = *arg * 2;
} SG_FUNC_OUTSIDE(work, "create_cast.c", 7, 0);

int main(void)
{
	pthread_t t;
	int v = 21;
	if (sg_pthread_create(&t, NULL, (void *(*)(void *))(void (*)(void))work, &v) != 0)
		return 1;
	sg_pthread_join(t, NULL);
	printf("%d\n", result);
	return 0;
} SG_FUNC_OUTSIDE(main, "create_cast.c", 12, 1);
