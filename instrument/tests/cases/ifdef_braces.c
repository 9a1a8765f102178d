/* Function headers that differ per #if branch: braces only balance one branch at a time. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#ifdef TWO_ARGS
static int sum(int a, int b) {
#else
static int sum(int a) {
	int b = 1;
#endif
	int s = 0;
	pthread_mutex_lock(&m);
	for (int i = 0; i < a + b; i++)
		s += i;
	pthread_mutex_unlock(&m);
	return s;
}

int main(void)
{
#ifdef TWO_ARGS
	printf("%d\n", sum(2, 2));
#else
	printf("%d\n", sum(3));
#endif
	return 0;
}
