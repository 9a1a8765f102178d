/*
 * an_mkn1.c — writes a synthetic experiment store on the "N = 1 runs as T_seq" basis (no
 * sequential program), whose figures are known by hand, for test-n1-identity.sh (issue 20,
 * item 7: the point's T_para (1 - E) = L + U/N - L(W,1)/N, stated and holding):
 *
 *   an_mkn1 DIR
 *
 * Method "fixed", sizes w=1, ticks are ns, every thread on CPU whenever it is not waiting (the
 * sched stream's samples say so). Main (thread 0) creates the workers and joins them; it is no
 * processor.
 *
 *   N=1, run 1: main creates worker 1 over [0, 10], joins it until 1000. The worker runs over
 *     [10, 1000] and passes a barrier alone over [500, 600] (PT_barrier 100). T_para 1000,
 *     IT_edge 10, L(1) = 110, compute(1) = 990 - 100 = 890. T_seq = 1000: E(1) = 1, and
 *     L(W,1) = T_seq - compute(1) = 110, the program's own overhead at one thread.
 *   N=2, runs 2, 3, 4 (time scales 1, 2, 0.5: the median repetition is run 2): main creates
 *     workers 1 and 2 over [0, 10] and [10, 20], joins them until 700 and 710. Worker 1 runs
 *     [10, 700], arrives at the barrier at 300 and leaves at 400; worker 2 runs [20, 705],
 *     arrives at 350 (the last arrival) and leaves at 400. At scale 1: T_para 710, IT_edge =
 *     1420 - 690 - 685 = 45, IT_barrier 50, PT_barrier 100: L = 97.5; compute = 590 + 635 =
 *     1225, U = 1225 - compute(1) = 335, U/N = 167.5; L(W,1)/N = 55; T_para (1 - E) = 710 -
 *     1000/2 = 210 = 97.5 + 167.5 - 55. The runner's T_para is the trace's, so check10 is 0 too.
 *     (Before issue 20 the report printed "T_para (1 - E) = 210 ns: L + U/N" — which is 265 —
 *     and the run's own check3 was -55/710 = -0.077.)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgtrace_write.h"
#include "store.h"

struct ev {
	double t;                  /* ns at scale 1 */
	enum sg_ev_kind kind;
	uint32_t id, aux;
	int64_t value;             /* TASK_CPU, TASK_DELAY: ns at scale 1 */
};

#define V(t, k, tid, v) { (t), SG_EV_##k, (tid), 0, (v) }

static void die(const char *what, int rc)
{
	fprintf(stderr, "an_mkn1: %s failed (%d)\n", what, rc);
	exit(1);
}

static void events(struct sgw_stream *s, const struct ev *ev, size_t n, double scale)
{
	int rc = 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		uint64_t t = (uint64_t)llround(ev[k].t * scale);
		rc = sg_kind_has_value(ev[k].kind)
			     ? sgw_value(s, t, ev[k].kind, ev[k].id, llround((double)ev[k].value * scale))
			     : sgw_event(s, t, ev[k].kind, ev[k].id, ev[k].aux);
	}
	if (rc)
		die("writing events", rc);
}

#define N_OF(a) (sizeof (a) / sizeof (a)[0])

static void trace(const char *dir, int n, double scale)
{
	static const struct ev m1[] = {
		{ 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID, 0 }, { 0, SG_EV_CREATE_BEGIN, SG_NO_ID, 0, 0 },
		{ 10, SG_EV_CREATE_END, 1, 0, 0 }, { 10, SG_EV_JOIN_BEGIN, 1, 0, 0 },
		{ 1000, SG_EV_JOIN_END, 1, 0, 0 }, { 1000, SG_EV_THREAD_END, 0, 0, 0 },
	};
	static const struct ev w1[] = {
		{ 10, SG_EV_THREAD_BEGIN, 1, 0, 0 }, { 500, SG_EV_BARRIER_ARRIVE, 1, 1, 0 },
		{ 600, SG_EV_BARRIER_LEAVE, 1, 1, 0 }, { 1000, SG_EV_THREAD_END, 1, 0, 0 },
	};
	static const struct ev s1[] = {
		V(0, TASK_CPU, 100, 0), V(0, TASK_DELAY, 100, 0), V(10, TASK_CPU, 101, 0),
		V(10, TASK_DELAY, 101, 0), V(1000, TASK_CPU, 101, 990), V(1000, TASK_DELAY, 101, 0),
		V(1000, TASK_CPU, 100, 20), V(1000, TASK_DELAY, 100, 0),
	};
	static const struct ev m2[] = {
		{ 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID, 0 }, { 0, SG_EV_CREATE_BEGIN, SG_NO_ID, 0, 0 },
		{ 10, SG_EV_CREATE_END, 1, 0, 0 }, { 10, SG_EV_CREATE_BEGIN, SG_NO_ID, 0, 0 },
		{ 20, SG_EV_CREATE_END, 2, 0, 0 }, { 20, SG_EV_JOIN_BEGIN, 1, 0, 0 },
		{ 700, SG_EV_JOIN_END, 1, 0, 0 }, { 700, SG_EV_JOIN_BEGIN, 2, 0, 0 },
		{ 710, SG_EV_JOIN_END, 2, 0, 0 }, { 710, SG_EV_THREAD_END, 0, 0, 0 },
	};
	static const struct ev w21[] = {
		{ 10, SG_EV_THREAD_BEGIN, 1, 0, 0 }, { 300, SG_EV_BARRIER_ARRIVE, 1, 1, 0 },
		{ 400, SG_EV_BARRIER_LEAVE, 1, 1, 0 }, { 700, SG_EV_THREAD_END, 1, 0, 0 },
	};
	static const struct ev w22[] = {
		{ 20, SG_EV_THREAD_BEGIN, 2, 0, 0 }, { 350, SG_EV_BARRIER_ARRIVE, 1, 1, 0 },
		{ 400, SG_EV_BARRIER_LEAVE, 1, 1, 0 }, { 705, SG_EV_THREAD_END, 2, 0, 0 },
	};
	static const struct ev s2[] = {
		V(0, TASK_CPU, 100, 0), V(0, TASK_DELAY, 100, 0), V(10, TASK_CPU, 101, 0),
		V(10, TASK_DELAY, 101, 0), V(20, TASK_CPU, 102, 0), V(20, TASK_DELAY, 102, 0),
		V(700, TASK_CPU, 101, 690), V(700, TASK_DELAY, 101, 0), V(705, TASK_CPU, 102, 685),
		V(705, TASK_DELAY, 102, 0), V(710, TASK_CPU, 100, 30), V(710, TASK_DELAY, 100, 0),
	};
	struct sgw_trace *w;
	struct sgw_stream *t0, *t1, *t2, *sc;
	int rc = sgw_create(dir, NULL, &w);
	if (rc)
		die(dir, rc);
	if ((rc = sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000)) ||
	    (rc = sgw_thread(w, 0, SG_NO_ID, 100, &t0)) || (rc = sgw_thread(w, 1, 0, 101, &t1)) ||
	    (n == 2 && (rc = sgw_thread(w, 2, 0, 102, &t2))) ||
	    (rc = sgw_sched(w, 2, "synthetic: on CPU whenever not waiting", 0, &sc)))
		die("definitions", rc);
	if (n == 1) {
		events(t0, m1, N_OF(m1), scale);
		events(t1, w1, N_OF(w1), scale);
		events(sc, s1, N_OF(s1), scale);
	} else {
		events(t0, m2, N_OF(m2), scale);
		events(t1, w21, N_OF(w21), scale);
		events(t2, w22, N_OF(w22), scale);
		events(sc, s2, N_OF(s2), scale);
	}
	if ((rc = sgw_close(w, 0)))
		die("sgw_close", rc);
}

static int64_t add_run(struct store *st, const char *dir, int n, int rep, double scale)
{
	struct store_run r;
	memset(&r, 0, sizeof r);
	snprintf(r.kind, sizeof r.kind, "par");
	r.n_threads = n;
	snprintf(r.sizes, sizeof r.sizes, "w=1");
	r.rep = rep;
	if (store_run_begin(st, &r))
		die("store_run_begin", -1);
	snprintf(r.status, sizeof r.status, "ok");
	r.t_wall_s = r.t_para_s = (n == 1 ? 1000e-9 : 710e-9 * scale);
	snprintf(r.t_para_source, sizeof r.t_para_source, "threads");
	if (store_run_finish(st, &r, 0, NULL, NULL, 0, NULL))
		die("store_run_finish", -1);
	char tdir[4096];
	snprintf(tdir, sizeof tdir, "%s/runs/%lld/trace", dir, (long long)r.id);
	trace(tdir, n, scale);
	return r.id;
}

static void add_point(struct store *st, int n, int n_ids, const int64_t *ids)
{
	struct store_point p;
	const char *roles[3] = { "rep", "rep", "rep" };
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "method");
	snprintf(p.method, sizeof p.method, "fixed");
	snprintf(p.sizes, sizeof p.sizes, "w=1");
	p.n_threads = n;
	p.scale = n;
	p.work = 1;
	p.target = NAN;
	p.t_para_s = n == 1 ? 1000e-9 : 710e-9;
	p.t_seq_s = 1000e-9;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "n1");
	p.efficiency = p.t_seq_s / (n * p.t_para_s);
	p.converged = 1;
	if (store_point_put(st, &p, n_ids, ids, roles))
		die("store_point_put", -1);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: an_mkn1 DIR\n");
		return 2;
	}
	struct store *st;
	if (store_open(argv[1], STORE_WRITE, &st))
		die(argv[1], -1);
	if (store_machine_set(st, "test cpu", 2, "test", 1e9, "{\"n_cpus\": 2}") ||
	    store_method_add(st, "fixed", "w=1", 0))
		die("store setup", -1);
	int64_t ids[3];
	ids[0] = add_run(st, argv[1], 1, 0, 1.0);
	add_point(st, 1, 1, ids);
	ids[0] = add_run(st, argv[1], 2, 0, 1.0);
	ids[1] = add_run(st, argv[1], 2, 1, 2.0);
	ids[2] = add_run(st, argv[1], 2, 2, 0.5);
	add_point(st, 2, 3, ids);
	store_close(st);
	return 0;
}
