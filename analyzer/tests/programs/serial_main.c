/* serial_main.c — LLNL's dotprod_mutex in shape (issue 20, item 6): main initialises alone for
 * 300 ms of CPU, then creates 4 identical workers (50 ms of CPU each, a mutex around their sum:
 * on 2 CPUs about 100 ms of parallel phase, shorter than the serial one; CPU times, so that
 * a loaded machine stretches both alike) and joins them. Expected:
 * N = 4, the workers; main, which only waits to join them in the parallel phase, is no processor
 * whatever its serial phase — also with --threads 4. (The rule before counted main's serial
 * phase: N = 5 here, and with --threads 4 main and three workers.) */
#include <pthread.h>
#include <time.h>

static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static double sum;

/* Computes until the calling thread has had `s` seconds of CPU. */
static void spin_cpu(double s)
{
	volatile double x = 0;
	struct timespec ts;
	for (;;) {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		if ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 >= s)
			return;
		for (int i = 0; i < 1000; i++)
			x += i * 0.5;
	}
}

static void *worker(void *arg)
{
	spin_cpu(0.05);
	pthread_mutex_lock(&sum_lock);
	sum += 1;
	pthread_mutex_unlock(&sum_lock);
	return arg;
}

int main(void)
{
	pthread_t t[4];
	spin_cpu(0.3);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return sum == 4 ? 0 : 1;
}
