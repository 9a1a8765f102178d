/* untraced_lib.c — built with plain cc (no probes, the real pthread_create): n threads that
 * compute s seconds beside the caller, which computes as long, then joins them
 * (untraced_main.c). */
#include <pthread.h>

#include "spin.h"

void lib_run_workers(int n, double s);

static double secs;

static void *work(void *arg)
{
	spin(secs);
	return arg;
}

void lib_run_workers(int n, double s)
{
	pthread_t t[16];
	secs = s;
	n = n > 16 ? 16 : n;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, work, NULL);
	spin(s);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}
