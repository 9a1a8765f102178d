/*
 * an_mksites.c — writes a synthetic experiment store whose waits are known per call site, for
 * test-sites-report.sh (the report's call-site section) and the GUI's sites pane test:
 *
 *   an_mksites DIR [--no-sites | --plain | --no-sync]
 *
 * Method "fixed" and the time-bound model (the same runs: a matrix cell 1 -> 2 for the GUI):
 * an N=1 point (one thread, no synchronization) and an N=2 point of three repetitions, the same program at time scales 2, 1 and 0.5 (every time multiplied): the
 * median repetition of every source is the scale-1 one (run 3). Its threads, over [0, 10 ms],
 * objects barrier 1, locks 2 and 3, sites A = lu.c:412 in daxpy_sweep, B = lu.c:500 in update,
 * C = solve.c:77 (a macro body: no function):
 *
 *   thread 1: at B waits 1 ms for lock 2 (1..2 ms, thread 2 holds it), releases it at 2.5 ms;
 *             at the unknown site takes lock 3 at once (2.6 ms) and holds it until 5 ms; at A
 *             waits 3 ms at the barrier (5..8 ms), leaves at 8.5 ms.
 *   thread 2: at C takes lock 2 at 0.5 ms, releases it at 2 ms; requests lock 3 at 3 ms, gets
 *             it at 5 ms (waited 2 ms at C), releases it at 5.5 ms; at A arrives last at 8 ms,
 *             leaves at 8.5 ms.
 *
 * So at N=2 (run 3): IT_barrier 3 ms, 100 % at A (thread 1); PT_barrier 1 ms at A (threads 1
 * and 2); IT_lock 3 ms: C 2 ms (67 %, thread 2), B 1 ms (33 %, thread 1); PT_lock the release
 * part, 4 releases x 5 ns (half the store's calibrated mutex_lock_unlock_ns of 10): C 10 ns
 * (50 %), B 5 ns (25 %), unknown 5 ns (25 %). With --no-sites the same events without any site
 * in a trace of format 1.3 (a program built before call sites); with --plain the same in a
 * format 1.4 trace (every wait through a wrapper without a site); with --no-sync a format 1.4
 * trace whose two threads only compute (no object: no wrapped call but the thread creation).
 * The N=1 run is one thread without synchronization in every mode (format 1.3 with --no-sites).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgtrace_write.h"
#include "store.h"

#define MS 1000000.0

struct ev {
	double t;                  /* ns at scale 1 */
	enum sg_ev_kind kind;
	uint32_t id, aux;
};

static int no_sites;            /* no SITE definition, no SYNC_SITE record */
static int no_sync;             /* the N=2 threads without any synchronization */
static struct sgw_options opts; /* version_minor 3 with --no-sites */

static void die(const char *what, int rc)
{
	fprintf(stderr, "an_mksites: %s failed (%d)\n", what, rc);
	exit(1);
}

static void thread_events(struct sgw_trace *w, uint32_t index, const struct ev *ev, size_t n,
			  double scale)
{
	struct sgw_stream *s;
	int rc = sgw_thread(w, index, SG_NO_ID, 0, &s);
	for (size_t k = 0; rc == 0 && k < n; k++) {
		if (no_sites && ev[k].kind == SG_EV_SYNC_SITE)
			continue;
		rc = sgw_event(s, (uint64_t)llround(ev[k].t * scale), ev[k].kind, ev[k].id,
			       ev[k].aux);
	}
	if (rc)
		die("writing a thread", rc);
}

static void trace_two(const char *tdir, double scale)
{
	static const struct ev t1[] = {
		{ 0, SG_EV_THREAD_BEGIN, 1, SG_NO_ID },
		{ 1 * MS, SG_EV_SYNC_SITE, 11, 0 }, { 1 * MS, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX },
		{ 2 * MS, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX },
		{ 2.5 * MS, SG_EV_LOCK_RELEASE, 2, 0 },
		{ 2.6 * MS, SG_EV_SYNC_SITE, SG_NO_ID, 0 },
		{ 2.6 * MS, SG_EV_LOCK_REQUEST, 3, SG_LOCK_MUTEX },
		{ 2.6 * MS, SG_EV_LOCK_ACQUIRED, 3, SG_LOCK_MUTEX },
		{ 5 * MS, SG_EV_LOCK_RELEASE, 3, 0 },
		{ 5 * MS, SG_EV_SYNC_SITE, 10, 0 }, { 5 * MS, SG_EV_BARRIER_ARRIVE, 1, 1 },
		{ 8.5 * MS, SG_EV_BARRIER_LEAVE, 1, 1 },
		{ 10 * MS, SG_EV_THREAD_END, 1, 0 },
	};
	static const struct ev t2[] = {
		{ 0, SG_EV_THREAD_BEGIN, 2, SG_NO_ID },
		{ 0.5 * MS, SG_EV_SYNC_SITE, 12, 0 },
		{ 0.5 * MS, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX },
		{ 0.5 * MS, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX },
		{ 2 * MS, SG_EV_LOCK_RELEASE, 2, 0 },
		{ 3 * MS, SG_EV_LOCK_REQUEST, 3, SG_LOCK_MUTEX },
		{ 5 * MS, SG_EV_LOCK_ACQUIRED, 3, SG_LOCK_MUTEX },
		{ 5.5 * MS, SG_EV_LOCK_RELEASE, 3, 0 },
		{ 8 * MS, SG_EV_SYNC_SITE, 10, 0 }, { 8 * MS, SG_EV_BARRIER_ARRIVE, 1, 1 },
		{ 8.5 * MS, SG_EV_BARRIER_LEAVE, 1, 1 },
		{ 10 * MS, SG_EV_THREAD_END, 2, 0 },
	};
	static const struct ev c1[] = {
		{ 0, SG_EV_THREAD_BEGIN, 1, SG_NO_ID }, { 10 * MS, SG_EV_THREAD_END, 1, 0 },
	};
	static const struct ev c2[] = {
		{ 0, SG_EV_THREAD_BEGIN, 2, SG_NO_ID }, { 10 * MS, SG_EV_THREAD_END, 2, 0 },
	};
	struct sgw_trace *w;
	int rc = sgw_create(tdir, &opts, &w);
	if (rc)
		die(tdir, rc);
	if (no_sync) {
		thread_events(w, 1, c1, 2, scale);
		thread_events(w, 2, c2, 2, scale);
		if ((rc = sgw_close(w, 0)))
			die("sgw_close", rc);
		return;
	}
	if (sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000) || sgw_object(w, 2, SG_OBJ_MUTEX, 0x2000) ||
	    sgw_object(w, 3, SG_OBJ_MUTEX, 0x3000))
		die("objects", -1);
	if (!no_sites && (sgw_site(w, 10, "lu.c", 412, "daxpy_sweep") ||
			  sgw_site(w, 11, "lu.c", 500, "update") ||
			  sgw_site(w, 12, "solve.c", 77, NULL)))
		die("sites", -1);
	thread_events(w, 1, t1, sizeof t1 / sizeof t1[0], scale);
	thread_events(w, 2, t2, sizeof t2 / sizeof t2[0], scale);
	if ((rc = sgw_close(w, 0)))
		die("sgw_close", rc);
}

static void trace_one(const char *tdir)
{
	static const struct ev t1[] = {
		{ 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID }, { 15 * MS, SG_EV_THREAD_END, 0, 0 },
	};
	struct sgw_trace *w;
	int rc = sgw_create(tdir, &opts, &w);
	if (rc)
		die(tdir, rc);
	thread_events(w, 0, t1, 2, 1.0);
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
	r.t_wall_s = r.t_para_s = (n == 1 ? 15e-3 : 10e-3 * scale);
	snprintf(r.t_para_source, sizeof r.t_para_source, "threads");
	if (store_run_finish(st, &r, 0, NULL, NULL, 0, NULL))
		die("store_run_finish", -1);
	char tdir[4096];
	snprintf(tdir, sizeof tdir, "%s/runs/%lld/trace", dir, (long long)r.id);
	if (n == 1)
		trace_one(tdir);
	else
		trace_two(tdir, scale);
	return r.id;
}

static void add_point(struct store *st, const char *model, int n, int n_ids, const int64_t *ids)
{
	struct store_point p;
	const char *roles[3] = { "rep", "rep", "rep" };
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "%s", model);
	snprintf(p.method, sizeof p.method, "fixed");
	p.n_threads = n;
	p.scale = n;
	p.work = 1;
	p.target = strcmp(model, "method") ? 10e-3 : NAN;
	p.t_para_s = n == 1 ? 15e-3 : 10e-3;
	p.t_seq_s = 15e-3;
	snprintf(p.t_seq_source, sizeof p.t_seq_source, "n1");
	p.efficiency = p.t_seq_s / (n * p.t_para_s);
	p.converged = 1;
	if (store_point_put(st, &p, n_ids, ids, roles))
		die("store_point_put", -1);
}

int main(int argc, char **argv)
{
	const char *mode = argc == 3 ? argv[2] : "";
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(mode, "--no-sites") &&
				     strcmp(mode, "--plain") && strcmp(mode, "--no-sync"))) {
		fprintf(stderr, "usage: an_mksites DIR [--no-sites | --plain | --no-sync]\n");
		return 2;
	}
	no_sites = argc == 3;
	no_sync = !strcmp(mode, "--no-sync");
	if (!strcmp(mode, "--no-sites"))
		opts.version_minor = 3;
	struct store *st;
	if (store_open(argv[1], STORE_WRITE, &st))
		die(argv[1], -1);
	if (store_machine_set(st, "test cpu", 2, "test", 1e9,
			      "{\"n_cpus\": 2, \"mutex_lock_unlock_ns\": 10.0}") ||
	    store_method_add(st, "fixed", "w=1", 0))
		die("store setup", -1);
	int64_t ids[3];
	ids[0] = add_run(st, argv[1], 1, 0, 1.0);
	add_point(st, "method", 1, 1, ids);
	add_point(st, "time-bound", 1, 1, ids);
	ids[0] = add_run(st, argv[1], 2, 0, 2.0);
	ids[1] = add_run(st, argv[1], 2, 1, 1.0);
	ids[2] = add_run(st, argv[1], 2, 2, 0.5);
	add_point(st, "method", 2, 3, ids);
	add_point(st, "time-bound", 2, 3, ids);
	store_close(st);
	return 0;
}
