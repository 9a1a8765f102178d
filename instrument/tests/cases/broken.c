/* A macro that opens a brace the parser cannot see: the unbalanced part is left as is
 * (with a warning) and the file still compiles exactly as before. */
#include <pthread.h>
#include <stdio.h>

#define OPEN_SCOPE(x) if (x) {

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int guarded(int x)
{
	int r = 0;
	OPEN_SCOPE(x)
		pthread_mutex_lock(&m);
		r = x;
		pthread_mutex_unlock(&m);
	}
	return r;
}

static int fine(int n)
{
	int s = 0;
	while (n--)
		s++;
	return s;
}

int main(void)
{
	printf("%d %d\n", guarded(3), fine(2));
	return 0;
}
