/*
 * taskfarm_par.c — taskfarm, a processor farm (seeds/004) on pthreads. The main thread is the
 * farmer: it puts task ids into a bounded ring of Q slots, waiting on `not_full` when the ring is
 * full; N workers take ids, waiting on `not_empty` when it is empty, run the task and store the
 * result in the task's own slot. The overhead shapes it shows: lock contention on the queue,
 * condition waits when tasks are short (workers starve) or the ring is small (the farmer
 * blocks), and imbalance at the end when tasks are long. Results are stored by task id, so the
 * checksum does not depend on N, Q or scheduling.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_cli.h"
#include "ex_threads.h"
#include "farm_cli.h"
#include "farm_task.h"
#include "sgtrace.h"

struct farm_queue {
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	long long *slot;	/* ring of task ids */
	long cap, head, count;
	int closed;		/* no more tasks will come */
};

struct farm_shared {
	struct farm_queue q;
	uint64_t size;
	uint64_t *results;	/* by task id; each written by exactly one worker */
};

struct farm_worker {
	struct farm_shared *sh;
	long long n_done;
};

/* Blocks until a task id is available; returns it, or -1 when the queue is closed and empty. */
static long long queue_take(struct farm_queue *q)
{
	long long id = -1;

	pthread_mutex_lock(&q->lock);
	while (q->count == 0 && !q->closed)
		pthread_cond_wait(&q->not_empty, &q->lock);
	if (q->count > 0) {
		id = q->slot[q->head];
		q->head = (q->head + 1) % q->cap;
		q->count--;
		pthread_cond_signal(&q->not_full);
	}
	pthread_mutex_unlock(&q->lock);
	return id;
}

/* Blocks until there is room, then appends task `id`. */
static void queue_put(struct farm_queue *q, long long id)
{
	pthread_mutex_lock(&q->lock);
	while (q->count == q->cap)
		pthread_cond_wait(&q->not_full, &q->lock);
	q->slot[(q->head + q->count) % q->cap] = id;
	q->count++;
	pthread_cond_signal(&q->not_empty);
	pthread_mutex_unlock(&q->lock);
}

/* Tells the workers no task will follow. */
static void queue_close(struct farm_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->closed = 1;
	pthread_cond_broadcast(&q->not_empty);
	pthread_mutex_unlock(&q->lock);
}

static void *worker_main(void *arg)
{
	struct farm_worker *me = arg;
	struct farm_shared *sh = me->sh;
	long long id;

	while ((id = queue_take(&sh->q)) >= 0) {
		sh->results[id] = farm_task_run((uint64_t)id, sh->size);
		me->n_done++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct farm_args a;
	struct farm_shared sh;
	struct farm_worker *wk;
	long long *per_worker;
	pthread_t *tid;
	int ret;

	ret = farm_cli_parse(argc, argv, "taskfarm", 1, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	memset(&sh, 0, sizeof sh);
	sh.size = (uint64_t)a.size;
	sh.q.cap = (long)a.queue;
	sh.q.slot = calloc((size_t)a.queue, sizeof *sh.q.slot);
	sh.results = calloc((size_t)a.tasks, sizeof *sh.results);
	wk = calloc((size_t)a.threads, sizeof *wk);
	tid = calloc((size_t)a.threads, sizeof *tid);
	per_worker = calloc((size_t)a.threads, sizeof *per_worker);
	if (!sh.q.slot || !sh.results || !wk || !tid || !per_worker) {
		fprintf(stderr, "taskfarm: error: out of memory for %lld tasks\n", a.tasks);
		return 1;
	}
	pthread_mutex_init(&sh.q.lock, NULL);
	pthread_cond_init(&sh.q.not_empty, NULL);
	pthread_cond_init(&sh.q.not_full, NULL);
	SG_REGION_BEGIN("farm");
	for (long i = 0; i < (long)a.threads; i++)
		wk[i].sh = &sh;
	if (ex_threads_start(tid, (long)a.threads, worker_main, wk, sizeof *wk, "taskfarm"))
		return 1;
	for (long long id = 0; id < a.tasks; id++)
		queue_put(&sh.q, id);
	queue_close(&sh.q);
	ex_threads_join(tid, (long)a.threads);
	for (long i = 0; i < (long)a.threads; i++)
		per_worker[i] = wk[i].n_done;
	SG_REGION_END("farm");
	farm_cli_report(&a, sh.results, per_worker, (long)a.threads);
	pthread_cond_destroy(&sh.q.not_full);
	pthread_cond_destroy(&sh.q.not_empty);
	pthread_mutex_destroy(&sh.q.lock);
	free(per_worker);
	free(tid);
	free(wk);
	free(sh.results);
	free(sh.q.slot);
	return 0;
}
