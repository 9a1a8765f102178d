/*
 * billiards_par.c — billiards, the pthreads billiards simulation (seeds/001 §5.2, the parallel
 * procedure). Each of N threads, per iteration:
 *   1. finds the N earliest collisions in the queue (every thread the same list, read-only)
 *      and computes the effect of its own one (bil_collide, no writes to shared state);
 *   2. after a barrier, finds k-1, the number of leading collisions with no data dependence
 *      (overlap or early recollision), the same in every thread;
 *   3. if its collision is among them, executes it: balls and queue (bin locks);
 *   4. meets the others at a barrier; i = i + k - 1.
 * The collisions executed, and their bits, are those of billiards-seq: the checksum is the same
 * for every N. Barrier and lock calls are plain pthread calls so `scalegraph cc` can trace them.
 *
 * --coarse runs the coarse-grained decomposition of bil_coarse.h instead (segments advanced
 * through windows of simulated time), with the same checksum.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bil_cli.h"
#include "bil_coarse.h"
#include "ex_cli.h"
#include "ex_threads.h"
#include "sgtrace.h"

/* Bin locks, striped over the bins (a few per thread is plenty). */
#define LOCKS_PER_THREAD 16

struct par_shared {
	struct bil_world *w;
	long n_threads;
	double t_end;
	pthread_barrier_t barrier;
	struct bil_result *res;		/* one per thread, written in phase 1 */
};

struct par_worker {
	struct par_shared *sh;
	long id;
	long *cand;			/* n_threads candidate pairs */
	long long collisions, iterations;
};

static void *worker_main(void *arg)
{
	struct par_worker *me = arg;
	struct par_shared *sh = me->sh;
	uint64_t cur = 0;

	for (;;) {
		long n = bil_queue_peek(&sh->w->q, &cur, sh->t_end, me->cand, sh->n_threads);
		long k;

		if (n == 0)
			break;
		if (me->id < n)
			bil_collide(sh->w, me->cand[me->id], &sh->res[me->id]);
		pthread_barrier_wait(&sh->barrier);
		k = bil_independent_prefix(sh->res, n);
		if (me->id < k)
			bil_apply(sh->w, &sh->res[me->id]);
		pthread_barrier_wait(&sh->barrier);
		me->collisions += k;
		me->iterations++;
	}
	return NULL;
}

/* Runs the simulation on N threads; fills the totals. Returns 0 or -errno. */
static int run_parallel(struct par_shared *sh, long long *collisions, long long *iterations)
{
	struct par_worker *wk = calloc((size_t)sh->n_threads, sizeof *wk);
	pthread_t *tid = calloc((size_t)sh->n_threads, sizeof *tid);
	int ret = -ENOMEM;

	sh->res = calloc((size_t)sh->n_threads, sizeof *sh->res);
	if (!wk || !tid || !sh->res)
		goto out;
	for (long i = 0; i < sh->n_threads; i++) {
		wk[i].sh = sh;
		wk[i].id = i;
		wk[i].cand = calloc((size_t)sh->n_threads, sizeof *wk[i].cand);
		if (!wk[i].cand)
			goto out;
	}
	ret = -pthread_barrier_init(&sh->barrier, NULL, (unsigned)sh->n_threads);
	if (ret)
		goto out;
	SG_REGION_BEGIN("simulate");
	/* a thread that failed to start would leave the others waiting at the barrier forever */
	if (ex_threads_start(tid, sh->n_threads, worker_main, wk, sizeof *wk, "billiards"))
		exit(1);
	ex_threads_join(tid, sh->n_threads);
	SG_REGION_END("simulate");
	pthread_barrier_destroy(&sh->barrier);
	*collisions = wk[0].collisions;
	*iterations = wk[0].iterations;
out:
	if (wk) {
		for (long i = 0; i < sh->n_threads; i++)
			free(wk[i].cand);
	}
	free(wk);
	free(tid);
	free(sh->res);
	sh->res = NULL;
	return ret;
}

/* The coarse decomposition: the segments are set up outside the measured region, like the
 * world itself; their queues are built inside it, by their threads (bil_coarse_run). */
static int run_coarse(struct bil_world *w, long n_threads, double t_end, long long *collisions,
		      long long *windows)
{
	struct bil_coarse *c;
	int ret = bil_coarse_init(&c, w, n_threads);

	if (ret)
		return ret;
	SG_REGION_BEGIN("simulate");
	ret = bil_coarse_run(c, t_end, collisions, windows);
	SG_REGION_END("simulate");
	bil_coarse_free(c);
	return ret;
}

int main(int argc, char **argv)
{
	struct bil_args a;
	struct bil_world w;
	struct par_shared sh;
	long long collisions = 0, iterations = 0;
	int ret;

	ret = bil_cli_parse(argc, argv, "billiards", 1, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	if (a.coarse && a.threads > 1 && a.balls < a.threads * BIL_COARSE_MIN_BALLS) {
		fprintf(stderr, "billiards: error: --coarse needs at least %d balls per thread "
			"(%lld balls, %lld threads)\n", BIL_COARSE_MIN_BALLS, a.balls, a.threads);
		return EX_EXIT_USAGE;
	}
	ret = bil_world_init(&w, (long)a.balls, (long)a.bins,
			     a.coarse ? 0 : (long)a.threads * LOCKS_PER_THREAD);
	if (ret) {
		fprintf(stderr, "billiards: error: cannot set up %lld balls: %s\n", a.balls,
			strerror(-ret));
		return 1;
	}
	if (a.coarse) {
		ret = run_coarse(&w, (long)a.threads, BIL_STEP_TIME * (double)a.steps, &collisions,
				 &iterations);
		if (ret) {
			fprintf(stderr, "billiards: error: %s\n", strerror(-ret));
			bil_world_free(&w);
			return 1;
		}
		bil_cli_report(&a, &w, BIL_STEP_TIME * (double)a.steps, collisions, iterations);
		bil_world_free(&w);
		return 0;
	}
	memset(&sh, 0, sizeof sh);
	sh.w = &w;
	sh.n_threads = (long)a.threads;
	sh.t_end = BIL_STEP_TIME * (double)a.steps;
	ret = run_parallel(&sh, &collisions, &iterations);
	if (ret) {
		fprintf(stderr, "billiards: error: %s\n", strerror(-ret));
		bil_world_free(&w);
		return 1;
	}
	bil_cli_report(&a, &w, sh.t_end, collisions, iterations);
	bil_world_free(&w);
	return 0;
}
