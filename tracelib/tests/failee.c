/*
 * failee.c — a traced program whose worker threads cannot start recording, for test-lost.sh.
 * Usage:  failee nofile|memory K M
 * Thread 0 records one lock/unlock pair, then lowers a resource limit so that a new thread's
 * state cannot be set up — `nofile`: no file descriptor left for its stream file; `memory`: an
 * address-space limit below the size of its buffer (run it with SG_TRACE_BUFFER=256M) — and
 * starts K workers through sg_pthread_create, each making M lock/unlock pairs through the
 * wrappers. With the limit lifted again it prints "workers K pairs M" and exits normally: the
 * trace must count the workers' probe calls as lost events (K * (1 + 2M)) instead of dropping
 * them silently.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sgtrace.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long n_pairs;

static void *worker(void *arg)
{
	for (long i = 0; i < n_pairs; i++) {
		sg_pthread_mutex_lock(&lock);
		sg_pthread_mutex_unlock(&lock);
	}
	return arg;
}

/* Lowers the soft limit `res` to `cur`; returns the old limits in *old. */
static int limit_set(int res, rlim_t cur, struct rlimit *old)
{
	struct rlimit r;
	if (getrlimit(res, old) < 0)
		return -errno;
	r = *old;
	r.rlim_cur = cur;
	return setrlimit(res, &r) < 0 ? -errno : 0;
}

/* The address space in use now, in bytes (/proc/self/statm, first field). */
static rlim_t vm_size(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");
	if (f) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "nofile") && strcmp(argv[1], "memory"))) {
		fprintf(stderr, "usage: failee nofile|memory K M\n");
		return 2;
	}
	int k = atoi(argv[2]);
	n_pairs = atol(argv[3]);
	sg_pthread_mutex_lock(&lock);
	sg_pthread_mutex_unlock(&lock);

	int res = !strcmp(argv[1], "nofile") ? RLIMIT_NOFILE : RLIMIT_AS;
	rlim_t cur;
	if (res == RLIMIT_NOFILE) {
		int fd = dup(0);             /* the lowest free descriptor: none from here on */
		if (fd < 0)
			return 1;
		close(fd);
		cur = (rlim_t)fd;
	} else {
		cur = vm_size() + ((rlim_t)128 << 20);   /* room for stacks, not for a buffer */
	}
	struct rlimit old;
	if (limit_set(res, cur, &old) < 0) {
		perror("failee: setrlimit");
		return 1;
	}
	pthread_t th[64];
	if (k < 1 || k > 64)
		return 2;
	for (int i = 0; i < k; i++)
		if (sg_pthread_create(&th[i], NULL, worker, NULL)) {
			fprintf(stderr, "failee: cannot create a thread\n");
			return 1;
		}
	for (int i = 0; i < k; i++)
		sg_pthread_join(th[i], NULL);
	setrlimit(res, &old);
	printf("workers %d pairs %ld\n", k, n_pairs);
	return 0;
}
