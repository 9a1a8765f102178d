/* POSIX semaphores: calls of sem_init, sem_open, sem_wait, sem_trywait, sem_timedwait,
 * sem_clockwait and sem_post are renamed to libsgtrace's sg_sem_* wrappers, also in #define
 * bodies. Left as they are: sem_getvalue, sem_destroy, sem_close and sem_unlink (not wrapped),
 * identifiers that merely contain a wrapped name, struct members named like one (a member
 * declaration is warned about, as for pthread names; an access is not), and a name only taken
 * as a function pointer (warned about: calls through it are not traced). */
#define _GNU_SOURCE /* sem_clockwait */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define N_WORKERS 2
#define N_ITEMS 2000
#define RING 4
#define ACQUIRE(s) sg_sem_wait(s)
#define RELEASE(s) do { sg_sem_post(s); } while (0)

#include <sgtrace.h>
#line 22 "semaphores.c"
struct pool_stats {
	long sem_post;     /* a counter named like a wrapped function */
	long taken;
};

static sem_t free_slots, filled;   /* a bounded pool of RING slots */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ring[RING];
static unsigned head, tail;
static struct pool_stats stats;
static long my_sem_wait_count;
static int (*try_fn)(sem_t *) = sem_trywait;

static long work(int v)
{
	return (long)v * v % 7;
}

static void *consumer(void *arg)
{
	long *sum = arg;
	for (int i = 0; i < N_ITEMS / N_WORKERS; i++) {
		ACQUIRE(&filled);
		sg_pthread_mutex_lock(&lock);
		int v = ring[tail++ % RING];
		stats.taken++;
		sg_pthread_mutex_unlock(&lock);
		RELEASE(&free_slots);
		*sum += work(v);
	}
	return NULL;
} SG_FUNC_OUTSIDE(consumer, "semaphores.c", 40, 0);

static const char *err_name(int rc)
{
	return rc == 0 ? "0" : errno == EAGAIN ? "EAGAIN" : errno == ETIMEDOUT ? "ETIMEDOUT" : "?";
}

static int named_semaphore(void)
{ static struct sg_func_desc sg_fd__ = { "named_semaphore", "semaphores.c", 60, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	char name[64];
	int value = -1;
	snprintf(name, sizeof name, "/sg_golden_sem_%ld", (long)getpid());
	sem_t *ns = sg_sem_open(name, O_CREAT, 0600, 2);
	if (ns == SEM_FAILED)
		return -1;
	sg_sem_wait(ns);
	sem_getvalue(ns, &value);
	sg_sem_post(ns);
	sem_close(ns);
	sem_unlink(name);
	return value;
}

int main(void)
{
	pthread_t t[N_WORKERS];
	long sums[N_WORKERS] = { 0 }, total = 0;
	struct timespec ts;
	if (sg_sem_init(&free_slots, 0, RING) != 0 || sg_sem_init(&filled, 0, 0) != 0)
		return 1;
	for (int k = 0; k < N_WORKERS; k++)
		sg_pthread_create(&t[k], NULL, consumer, &sums[k]);
	for (int i = 0; i < N_ITEMS; i++) {
		sg_sem_wait(&free_slots);
		sg_pthread_mutex_lock(&lock);
		ring[head++ % RING] = i;
		sg_pthread_mutex_unlock(&lock);
		sg_sem_post(&filled);
		stats.sem_post++;
		my_sem_wait_count += i & 1;
	}
	for (int k = 0; k < N_WORKERS; k++) {
		sg_pthread_join(t[k], NULL);
		total += sums[k];
	}
	printf("items %ld posted %ld odd %ld sum %ld\n", stats.taken, stats.sem_post,
	       my_sem_wait_count, total);
	printf("trywait %s\n", err_name(sg_sem_trywait(&filled)));
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("timedwait %s\n", err_name(sg_sem_timedwait(&filled, &ts)));
	sg_sem_post(&filled);
	printf("timedwait %s\n", err_name(sg_sem_timedwait(&filled, &ts)));
	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("clockwait %s\n", err_name(sg_sem_clockwait(&filled, CLOCK_MONOTONIC, &ts)));
	printf("try_fn %s\n", err_name(try_fn(&free_slots)));
	printf("named %d\n", named_semaphore());
	sem_destroy(&filled);
	sem_destroy(&free_slots);
	return 0;
} SG_FUNC_OUTSIDE(main, "semaphores.c", 76, 1);
