/* Call sites (issue 15) in macro bodies: the call is renamed inside the #define, its descriptor
 * (enclosing function "", the #define's line) goes before the first item that uses it, and
 * every expansion shares it. A call continued on the next line of the body keeps that line. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define LOCKED(mx, stmt) do { pthread_mutex_lock(mx); stmt; pthread_mutex_unlock(mx); } while (0)
#define WAIT(s) \
	sem_wait \
	(s)

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t sem;
static int n;

static void one(void)
{
	LOCKED(&m, n++);
}

int main(void)
{
	sem_init(&sem, 0, 1);
	WAIT(&sem);
	one();
	LOCKED(&m, n += 2);
	printf("%d\n", n);
	return 0;
}
