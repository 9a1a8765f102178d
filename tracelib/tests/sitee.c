/*
 * sitee.c — a pthreads program with known call sites, built by tracelib/tests/test-sites.sh with
 * `scalegraph cc` (never by make: its calls must go through the instrumenter). The lines the
 * test looks for are marked SITE_<name>.
 *
 *   sitee basic N     N workers, each ROUNDS times: lock in add_a (site A), lock in add_b
 *                     (site B), barrier wait in worker (site C); then one lock through a
 *                     function pointer to the plain wrapper (site not known). main joins them
 *                     (site J).
 *   sitee all N       the same, then every other wait that takes a site: try-locks, rwlocks,
 *                     a spinlock, a semaphore (also through a macro: site M, in no function),
 *                     a condition wait and a timed one.
 *   sitee fork N      basic, then a forked child locks in add_a once: its trace must define the
 *                     site its event names.
 * Prints the final total, which the plain build prints too.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sgtrace.h>

#define ROUNDS 3

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t b;
static long total;
static int all;

/* a call in a macro body: its site is in no function */
#define TAKE(s) sem_wait(s) /* SITE_M */

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static sem_t sem[16];   /* one per worker: another's timed wait never takes its post */
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn;

static void add_a(int x)
{
	pthread_mutex_lock(&m); /* SITE_A */
	total += x;
	pthread_mutex_unlock(&m);
}

static void add_b(int x)
{
	pthread_mutex_lock(&m); /* SITE_B */
	total += 2 * x;
	pthread_mutex_unlock(&m);
}

/* Every other wait that takes a site, once each (sitee all). */
static void every_kind(long id)
{
	if (pthread_mutex_trylock(&m) == 0)
		pthread_mutex_unlock(&m);
	pthread_rwlock_rdlock(&rw);
	pthread_rwlock_unlock(&rw);
	pthread_rwlock_wrlock(&rw);
	pthread_rwlock_unlock(&rw);
	if (pthread_rwlock_tryrdlock(&rw) == 0)
		pthread_rwlock_unlock(&rw);
	if (pthread_rwlock_trywrlock(&rw) == 0)
		pthread_rwlock_unlock(&rw);
	pthread_spin_lock(&spin);
	pthread_spin_unlock(&spin);
	if (pthread_spin_trylock(&spin) == 0)
		pthread_spin_unlock(&spin);
	sem_t *s = &sem[id];
	sem_post(s);
	sem_wait(s);
	sem_post(s);
	if (sem_trywait(s) != 0)
		sem_wait(s);
	sem_post(s);
	TAKE(s); /* SITE_T */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	sem_timedwait(s, &ts);   /* times out: nobody posts */
	/* each worker waits for its turn: a real wait on the condition */
	pthread_mutex_lock(&m);
	while (turn != id)
		pthread_cond_wait(&cv, &m);
	turn++;
	pthread_cond_broadcast(&cv);
	pthread_cond_timedwait(&cv, &m, &ts);   /* past: returns at once */
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
	int (*lock_fn)(pthread_mutex_t *) = sg_pthread_mutex_lock;   /* not a call site */
	for (int r = 0; r < ROUNDS; r++) {
		add_a(1);
		add_b(1);
		pthread_barrier_wait(&b); /* SITE_C */
	}
	lock_fn(&m); /* SITE_P */
	total += 100;
	pthread_mutex_unlock(&m);
	if (all)
		every_kind((long)arg);
	return arg;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: sitee basic|all|fork N\n");
		return 2;
	}
	int n = atoi(argv[2]);
	all = !strcmp(argv[1], "all");
	pthread_t t[16];
	if (n < 1 || n > 16)
		return 2;
	pthread_barrier_init(&b, NULL, (unsigned)n);
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	for (int i = 0; i < n; i++)
		sem_init(&sem[i], 0, 0);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL); /* SITE_J */
	if (!strcmp(argv[1], "fork")) {
		pid_t pid = fork();
		if (pid == 0) {
			add_a(1000);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	printf("%ld\n", total);
	return 0;
}
