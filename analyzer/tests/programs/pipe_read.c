/* pipe_read.c — main sleeps in read() on a pipe (no traced primitive) for the 200 ms its worker
 * computes before writing, then computes 100 ms. Expected: IT_blocked about 200 ms, N = 2. */
#include <pthread.h>
#include <unistd.h>

#include "spin.h"

static int fds[2];

static void *writer(void *arg)
{
	spin(0.2);
	if (write(fds[1], "x", 1) != 1)
		return arg;
	return NULL;
}

int main(void)
{
	pthread_t t;
	char c;
	if (pipe(fds) < 0)
		return 1;
	pthread_create(&t, NULL, writer, NULL);
	if (read(fds[0], &c, 1) != 1)
		return 1;
	spin(0.1);
	pthread_join(t, NULL);
	return 0;
}
