/*
 * layout_prog.c — a program whose plain and instrumented builds differ only by the renamed
 * calls (test-layout.sh, issue 21): locks, a barrier, a condition, a semaphore, a try-lock, a
 * join, a lock in a tail position (`void lock(m) { pthread_mutex_lock(m); }` compiles to a
 * jump), a null check after a lock (glibc's nonnull lets the compiler drop it: the wrapper's
 * declaration must too), a static kept across sem_init (a leaf function), and a hot loop. With function probes off every function must keep its
 * size (nm -S) and, with SG_TRACE=0, the program its output.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define N_THREADS 2

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static sem_t sem;
static double grid[N_THREADS][256];
static long total;
static int turn;

static __attribute__((noinline)) void take(pthread_mutex_t *l)
{
	pthread_mutex_lock(l);
}

static __attribute__((noinline)) int checked_take(pthread_mutex_t *l)
{
	pthread_mutex_lock(l); /* CHECKED */
	if (!l)
		return -1;
	return 0;
}

static double sweep(double *row, int n, int rounds)
{
	double s = 0;
	for (int r = 0; r < rounds; r++)
		for (int i = 1; i < n - 1; i++) {
			row[i] = 0.5 * row[i] + 0.25 * (row[i - 1] + row[i + 1]);
			s += row[i];
		}
	return s;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int i = 0; i < 256; i++)
		grid[id][i] = (double)(i * (id + 1) % 17);
	for (int step = 0; step < 4; step++) {
		double s = sweep(grid[id], 256, 50);
		take(&m);
		total += (long)s % 1000;
		pthread_mutex_unlock(&m);
		pthread_barrier_wait(&bar);
	}
	if (checked_take(&m) != 0)
		return NULL;
	while (turn != id)
		pthread_cond_wait(&cv, &m);
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&m);
	sem_post(&sem);
	sem_wait(&sem);
	if (pthread_mutex_trylock(&m) == 0)
		pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	pthread_t t[N_THREADS];
	pthread_barrier_init(&bar, NULL, N_THREADS);
	turn = 0;
	sem_init(&sem, 0, 0);
	if (turn != 0)
		return 1;
	for (long i = 0; i < N_THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
			return 1;
	for (int i = 0; i < N_THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", total);
	return 0;
}
