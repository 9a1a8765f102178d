/* Function-pointer casts in pthread_create, and a start routine with another signature. */
#include <pthread.h>
#include <stdio.h>

static int result;

static void work(int *arg)
{
	result = *arg * 2;
}

int main(void)
{
	pthread_t t;
	int v = 21;
	if (pthread_create(&t, NULL, (void *(*)(void *))(void (*)(void))work, &v) != 0)
		return 1;
	pthread_join(t, NULL);
	printf("%d\n", result);
	return 0;
}
