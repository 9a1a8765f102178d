/* Wrapped calls inside #define bodies are renamed too; the macro's own name is not. */
#include <pthread.h>
#include <stdio.h>

#define LOCK(mx)   pthread_mutex_lock(mx)
#define UNLOCK(mx) pthread_mutex_unlock(mx)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void)
{
	int n = 0;
	LOCK(&m);
	n++;
	UNLOCK(&m);
	printf("%d\n", n);
	return 0;
}
