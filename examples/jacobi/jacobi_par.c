/*
 * jacobi_par.c — jacobi, the pthreads Jacobi relaxation: a barrier-bound program. Each thread
 * owns a block of rows; per sweep it relaxes its rows, then all meet at a barrier and one thread
 * swaps the buffers, then all meet again. The largest change of the last sweep is combined under
 * a mutex (max is exact in any order, so the output does not depend on N).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_cli.h"
#include "ex_threads.h"
#include "jac_cli.h"
#include "sgtrace.h"

struct jac_shared {
	struct jac_grid *g;
	long n_threads;
	long long iters;
	pthread_barrier_t barrier;
	pthread_mutex_t lock;		/* guards change */
	double change;			/* largest change of the last sweep */
};

struct jac_worker {
	struct jac_shared *sh;
	long id;
};

static void *worker_main(void *arg)
{
	struct jac_worker *me = arg;
	struct jac_shared *sh = me->sh;
	long r0 = jac_rows_begin(sh->g->n, me->id, sh->n_threads);
	long r1 = jac_rows_begin(sh->g->n, me->id + 1, sh->n_threads);
	double change = 0;

	for (long long k = 0; k < sh->iters; k++) {
		change = jac_grid_sweep(sh->g, r0, r1);
		if (pthread_barrier_wait(&sh->barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			jac_grid_swap(sh->g);
		pthread_barrier_wait(&sh->barrier);
	}
	pthread_mutex_lock(&sh->lock);
	if (change > sh->change)
		sh->change = change;
	pthread_mutex_unlock(&sh->lock);
	return NULL;
}

int main(int argc, char **argv)
{
	struct jac_args a;
	struct jac_grid g;
	struct jac_shared sh;
	struct jac_worker *wk = NULL;
	pthread_t *tid = NULL;
	int ret;

	ret = jac_cli_parse(argc, argv, "jacobi", 1, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	ret = jac_grid_init(&g, (long)a.n);
	if (ret) {
		fprintf(stderr, "jacobi: error: cannot allocate a %lld grid: %s\n", a.n,
			strerror(-ret));
		return 1;
	}
	memset(&sh, 0, sizeof sh);
	sh.g = &g;
	sh.n_threads = (long)a.threads;
	sh.iters = a.iters;
	wk = calloc((size_t)a.threads, sizeof *wk);
	tid = calloc((size_t)a.threads, sizeof *tid);
	if (!wk || !tid) {
		fprintf(stderr, "jacobi: error: out of memory\n");
		return 1;
	}
	pthread_mutex_init(&sh.lock, NULL);
	pthread_barrier_init(&sh.barrier, NULL, (unsigned)a.threads);
	SG_REGION_BEGIN("relax");
	for (long i = 0; i < sh.n_threads; i++) {
		wk[i].sh = &sh;
		wk[i].id = i;
	}
	/* the started threads would wait at the barrier forever for a missing one */
	if (ex_threads_start(tid, sh.n_threads, worker_main, wk, sizeof *wk, "jacobi"))
		return 1;
	ex_threads_join(tid, sh.n_threads);
	SG_REGION_END("relax");
	jac_cli_report(&a, &g, sh.change);
	pthread_barrier_destroy(&sh.barrier);
	pthread_mutex_destroy(&sh.lock);
	free(wk);
	free(tid);
	jac_grid_free(&g);
	return 0;
}
