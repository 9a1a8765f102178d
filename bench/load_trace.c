/*
 * load_trace.c — writes the synthetic trace of bench/load.sh: T threads sharing E events in
 * all, with the writer library (sgtrace_write.h), so that `report` and `dump` can be timed at
 * 4, 256 and 1024 threads on the same number of events. The threads overlap in time: they all
 * run the same loop and meet at a barrier every 50 iterations, so every thread is alive over the
 * whole measured region, as the workers of a real program are.
 *
 * One iteration of thread j (37 events): ENTER outer, 16 leaf calls (ENTER f / EXIT f), one of 4
 * mutexes (lock (j + iteration) % 4) taken and released, EXIT outer. A lock's holds never
 * overlap: a thread acquires at its request or at the lock's previous release, whichever is
 * later — so with many threads the locks are contended, as in a real program where hundreds of
 * threads share a few locks (each wait then spans many other threads' holds). Every 50th
 * iteration a barrier episode: each thread arrives when it gets there and all leave 100 ns after
 * the last arrival.
 * The sched stream (format 1.2) has each thread switched out in its barrier waits (blocked) and
 * back in at the leave, on CPU j % 2, with CPU-time and run-delay samples at its begin and end;
 * thread 0 opens and closes the region "measured". Ticks are ns.
 *
 * usage: load_trace DIR THREADS EVENTS [LOCKS [LEAF [BLOCK_NS]]]
 * (LOCKS mutexes, default 4; LEAF leaf calls an iteration, default 16; BLOCK_NS: a lock wait
 * longer than this is switched out and back in on the sched stream, and a lock is handed over
 * 15 ns after its release, default 0: never, at once)
 * DIR must not exist (it is created). Prints the events written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sgtrace_write.h"

#define MAX_LOCKS   1024u
#define BAR_EVERY   50u     /* iterations between barrier episodes */
#define EV_PER_ITER (2 + 2 * N_LEAF + 3)

/* The shape of an iteration (defaults: 16 leaf calls, 4 locks, no switch records in waits);
 * the optional arguments make a lock-heavy trace, e.g. 64 locks, 0 leaf calls, waits over
 * 100 ns blocked (switched out and in) as a futex wait is. */
static uint32_t N_LEAF = 16, N_LOCKS = 4;
static uint64_t BLOCK_NS;   /* 0: lock waits stay on CPU */
#define TID0        20000
#define F_OUTER     1u
#define BARRIER     1000u
#define REGION      1u

struct sched_rec {
	uint64_t t;
	uint32_t tid, aux;
	int kind;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct sched_rec *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* The running state of the threads between iterations: each thread's clock, and when each
 * lock is free again (holds of one lock never overlap: a thread acquires at its request or at
 * the previous release, whichever is later). */
struct state {
	uint64_t *t;               /* per thread: its time */
	uint64_t free_at[MAX_LOCKS];
	struct sched_rec *sr;      /* switch records since the last barrier episode */
	size_t n_sr;
};

/* Iteration `it` of thread j up to its barrier arrival (or its end): the calls and one lock. */
static int iteration(struct sgw_stream *s, struct state *S, uint32_t j, uint64_t it)
{
	int rc = 0;
	uint64_t t = S->t[j];
	rc |= sgw_event(s, t += 5, SG_EV_FUNC_ENTER, F_OUTER, 0);
	for (uint32_t k = 0; k < N_LEAF; k++) {
		uint32_t f = 2 + (uint32_t)((k + j + it) % N_LEAF);
		rc |= sgw_event(s, t += 10, SG_EV_FUNC_ENTER, f, 0);
		rc |= sgw_event(s, t += 30 + (k & 3), SG_EV_FUNC_EXIT, f, 0);
	}
	uint32_t l = (uint32_t)((j + it) % N_LOCKS);
	uint64_t req = t += 10, q = req + 20;
	if (q < S->free_at[l] + (BLOCK_NS ? 15 : 0))   /* a futex hand-over takes a while */
		q = S->free_at[l] + (BLOCK_NS ? 15 : 0);
	if (BLOCK_NS && q - req > BLOCK_NS) {
		S->sr[S->n_sr++] = (struct sched_rec){ req + 5, TID0 + j, j % 2, SG_EV_SWITCH_OUT };
		S->sr[S->n_sr++] = (struct sched_rec){ q - 3, TID0 + j, j % 2, SG_EV_SWITCH_IN };
	}
	rc |= sgw_event(s, req, SG_EV_LOCK_REQUEST, l + 1, SG_LOCK_MUTEX);
	rc |= sgw_event(s, q, SG_EV_LOCK_ACQUIRED, l + 1, SG_LOCK_MUTEX);
	rc |= sgw_event(s, t = q + 30, SG_EV_LOCK_RELEASE, l + 1, SG_LOCK_MUTEX);
	S->free_at[l] = t;
	rc |= sgw_event(s, t += 20, SG_EV_FUNC_EXIT, F_OUTER, 0);
	S->t[j] = t + 5;
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 7) {
		fprintf(stderr, "usage: load_trace DIR THREADS EVENTS [LOCKS [LEAF [BLOCK_NS]]]\n");
		return 2;
	}
	if (argc > 4)
		N_LOCKS = (uint32_t)strtoul(argv[4], NULL, 10);
	if (argc > 5)
		N_LEAF = (uint32_t)strtoul(argv[5], NULL, 10);
	if (argc > 6)
		BLOCK_NS = strtoull(argv[6], NULL, 10);
	if (N_LOCKS < 1 || N_LOCKS > MAX_LOCKS || N_LEAF > 1024) {
		fprintf(stderr, "load_trace: need 1..%u locks and 0..1024 leaf calls\n", MAX_LOCKS);
		return 2;
	}
	const char *dir = argv[1];
	uint32_t n_threads = (uint32_t)strtoul(argv[2], NULL, 10);
	uint64_t events = strtoull(argv[3], NULL, 10);
	if (n_threads < 1 || n_threads > 65536 || events < (uint64_t)n_threads * EV_PER_ITER * 2) {
		fprintf(stderr, "load_trace: need 1..65536 threads and at least %u events a thread\n",
			EV_PER_ITER * 2);
		return 2;
	}
	if (mkdir(dir, 0700) < 0) {
		fprintf(stderr, "load_trace: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	/* the iterations of each thread; the rest of its share is made of the begin/end events */
	uint64_t iters = events / n_threads / EV_PER_ITER;
	struct sgw_trace *w = NULL;
	struct sgw_options opt = { .chunk_recs = 65536 };   /* libsgtrace's 1 MiB buffers */
	struct sgw_stream **st = calloc(n_threads, sizeof *st), *sched = NULL;
	struct sched_rec *sr = calloc(2 * (size_t)n_threads * (BAR_EVERY + 1) + 2, sizeof *sr);
	struct state S = { .t = calloc(n_threads, sizeof *S.t), .sr = sr };
	uint64_t *arrive = calloc(n_threads, sizeof *arrive);
	int rc = -ENOMEM;
	if (!st || !sr || !S.t || !arrive)
		goto out;
	if ((rc = sgw_create(dir, &opt, &w)) < 0)
		goto out;
	rc = sgw_object(w, BARRIER, SG_OBJ_BARRIER, 0x100);
	rc |= sgw_region(w, REGION, "measured");
	rc |= sgw_function(w, F_OUTER, "outer", "load.c", 10);
	for (uint32_t f = 0; f < N_LEAF; f++) {
		char name[32];
		snprintf(name, sizeof name, "leaf%u", f);
		rc |= sgw_function(w, 2 + f, name, "load.c", 20 + (int)f);
	}
	for (uint32_t l = 0; l < N_LOCKS; l++)
		rc |= sgw_object(w, l + 1, SG_OBJ_MUTEX, 0x1000 + 64 * l);
	rc |= sgw_sched(w, 2, "synthetic (bench/load_trace.c)", 0, &sched);
	for (uint32_t j = 0; rc == 0 && j < n_threads; j++)
		rc = sgw_thread(w, j, j ? 0 : SG_NO_ID, (int32_t)(TID0 + j), &st[j]);
	if (rc < 0)
		goto out;
	uint64_t base = 1000000;
	for (uint32_t j = 0; j < n_threads; j++) {
		S.t[j] = base + j % 40;
		rc |= sgw_event(st[j], base - 50 + j % 40, SG_EV_THREAD_BEGIN, j, 0);
		rc |= sgw_value(sched, base - 60, SG_EV_TASK_CPU, TID0 + j, 0);
		rc |= sgw_value(sched, base - 60, SG_EV_TASK_DELAY, TID0 + j, 0);
		rc |= sgw_event(sched, base - 55, SG_EV_SWITCH_IN, TID0 + j, j % 2);
	}
	rc |= sgw_event(st[0], base - 1, SG_EV_REGION_BEGIN, REGION, 0);
	for (uint64_t it = 0; rc == 0 && it < iters; it++) {
		for (uint32_t j = 0; rc == 0 && j < n_threads; j++)
			rc = iteration(st[j], &S, j, it);
		if (it % BAR_EVERY != BAR_EVERY - 1)
			continue;
		/* a barrier episode: each thread arrives when it gets there, blocks (switched
		 * out), and all leave after the last arrival, woken in turn */
		uint32_t ep = (uint32_t)(it / BAR_EVERY) + 1;
		uint64_t last = 0;
		size_t n_sr = S.n_sr;
		for (uint32_t j = 0; j < n_threads; j++) {
			arrive[j] = S.t[j] + 3;
			if (arrive[j] > last)
				last = arrive[j];
			rc |= sgw_event(st[j], arrive[j], SG_EV_BARRIER_ARRIVE, BARRIER, ep);
		}
		for (uint32_t j = 0; j < n_threads; j++) {
			uint64_t leave = last + 100 + j % 7;
			rc |= sgw_event(st[j], leave, SG_EV_BARRIER_LEAVE, BARRIER, ep);
			if (leave > arrive[j] + 10) {
				sr[n_sr++] = (struct sched_rec){ arrive[j] + 2, TID0 + j, j % 2,
								 SG_EV_SWITCH_OUT };
				sr[n_sr++] = (struct sched_rec){ leave - 3, TID0 + j, j % 2,
								 SG_EV_SWITCH_IN };
			}
			S.t[j] = leave + 5;
		}
		if (n_sr > 1)
			qsort(sr, n_sr, sizeof *sr, rec_cmp);
		for (size_t k = 0; rc == 0 && k < n_sr; k++)
			rc = sgw_event(sched, sr[k].t, (enum sg_ev_kind)sr[k].kind, sr[k].tid, sr[k].aux);
		S.n_sr = 0;
	}
	if (S.n_sr > 1)
		qsort(sr, S.n_sr, sizeof *sr, rec_cmp);
	for (size_t k = 0; rc == 0 && k < S.n_sr; k++)
		rc = sgw_event(sched, sr[k].t, (enum sg_ev_kind)sr[k].kind, sr[k].tid, sr[k].aux);
	uint64_t end = 0;
	for (uint32_t j = 0; j < n_threads; j++)
		if (S.t[j] > end)
			end = S.t[j];
	rc |= sgw_event(st[0], end, SG_EV_REGION_END, REGION, 0);
	for (uint32_t j = 0; j < n_threads; j++) {
		rc |= sgw_event(st[j], end + 10 + j % 40, SG_EV_THREAD_END, j, 0);
		rc |= sgw_event(sched, end + 60, SG_EV_SWITCH_OUT, TID0 + j, j % 2);
		rc |= sgw_value(sched, end + 70, SG_EV_TASK_CPU, TID0 + j,
				(int64_t)(end + 60 - base));
		rc |= sgw_value(sched, end + 70, SG_EV_TASK_DELAY, TID0 + j, 0);
	}
	if (rc < 0)
		goto out;
	rc = sgw_close(w, 0);
	w = NULL;
	if (rc == 0)
		printf("%llu events, %u threads, %llu iterations each, %.3f s traced\n",
		       (unsigned long long)((uint64_t)n_threads * (iters * EV_PER_ITER +
								 2 * (iters / BAR_EVERY) + 2) + 2),
		       n_threads, (unsigned long long)iters, (double)(end - base) * 1e-9);
out:
	if (rc < 0)
		fprintf(stderr, "load_trace: %s: %s\n", dir, strerror(-rc));
	if (w)
		sgw_close(w, 0);
	free(st);
	free(sr);
	free(S.t);
	free(arrive);
	return rc < 0;
}
