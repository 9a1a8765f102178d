/*
 * rf_mkstore.c — writes the synthetic experiment store of issue 20's "the GUI says what the
 * report says" (gui/tests/test-xvfb-report-flags.sh): the report's flags on points and runs, a
 * matrix with nothing to pair, and runs neither ok nor failed. A machine of 2 CPUs whose
 * calibrated cost of one trace record is 1 µs; one method "fixed" at one size (no scaling model:
 * the matrix has no series), each point one repetition and a traced sequential run at its size.
 * Each run's trace has its N threads spanning [0, T] (a begin and an end record each) and, at
 * N > 1, one barrier episode (an arrival and a leave each: the latency the report's mark goes
 * on), so T_para = T and the tracing cost is the processors' records x 1 µs:
 *
 *   N  T        records  tracing cost  share of N T_para       report
 *   1  1 ms     2        2 µs          0.2 %
 *   2  40 µs    8        8 µs          10 %                     L and sources marked `!`
 *   4  1 ms     16       16 µs         0.4 %                    oversub yes (4 > 2 CPUs)
 *
 * The exact record count is the analyzer's (its trace_cost); the test reads every figure from
 * `scalegraph report` of the store and checks that the N = 2 point carries the `!` and the N = 4
 * one `oversub yes` there before it compares the GUI with them. Beside the points: a failed run
 * (exit status 3) and a run begun and never finished (status running; the test holds the store's
 * runner lock while the GUI reads it, so that it is a run in progress, not an interrupted one).
 *
 * usage: rf_mkstore DIR (DIR must not exist)
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sgtrace_write.h"
#include "store.h"

static const char *dir;

static int die(const char *what, int rc)
{
	fprintf(stderr, "rf_mkstore: %s: error: %s (%d)\n", dir, what, rc);
	return 1;
}

/* A finished run of n threads (kind "par" or "seq") at `sizes`, its trace spanning [0, t_ns]. */
static int64_t run(struct store *st, const char *kind, int n, const char *sizes, uint64_t t_ns)
{
	struct store_run r;
	struct sgw_trace *w;
	char tdir[4096];
	int i;

	memset(&r, 0, sizeof(r));
	snprintf(r.kind, sizeof(r.kind), "%s", kind);
	r.n_threads = n;
	r.work = 1000;
	r.oversubscribed = n > 2;
	snprintf(r.sizes, sizeof(r.sizes), "%s", sizes);
	if (store_run_begin(st, &r) < 0)
		return -1;
	snprintf(r.status, sizeof(r.status), "ok");
	r.t_wall_s = r.t_para_s = (double)t_ns * 1e-9;
	snprintf(r.t_para_source, sizeof(r.t_para_source), "threads");
	if (store_run_finish(st, &r, 0, NULL, NULL, 0, NULL) < 0)
		return -1;
	snprintf(tdir, sizeof(tdir), "%s/runs/%lld/trace", dir, (long long)r.id);
	if (sgw_create(tdir, NULL, &w) < 0 || (n > 1 && sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000) < 0))
		return -1;
	for (i = 0; i < n; i++) {
		struct sgw_stream *s;
		if (sgw_thread(w, (uint32_t)i, SG_NO_ID, 0, &s) < 0 ||
		    sgw_event(s, 0, SG_EV_THREAD_BEGIN, (uint32_t)i, 0) < 0)
			return -1;
		/* one barrier episode: thread i arrives at (i + 1) T / (n + 1), all leave at
		 * n T / (n + 1), so the point has a latency the mark can go on */
		if (n > 1 && (sgw_event(s, t_ns * (uint64_t)(i + 1) / (uint64_t)(n + 1),
					SG_EV_BARRIER_ARRIVE, 1, 1) < 0 ||
			      sgw_event(s, t_ns * (uint64_t)n / (uint64_t)(n + 1), SG_EV_BARRIER_LEAVE,
					1, 1) < 0))
			return -1;
		if (sgw_event(s, t_ns, SG_EV_THREAD_END, (uint32_t)i, 0) < 0)
			return -1;
	}
	if (sgw_close(w, 0) < 0)
		return -1;
	return r.id;
}

int main(int argc, char **argv)
{
	static const struct { int n; uint64_t t; } pts[] = {
		{ 1, 1000000 }, { 2, 40000 }, { 4, 1000000 },
	};
	const uint64_t t_seq = 100000;
	struct store *st;
	struct store_run r;
	size_t i;
	int64_t seq;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: rf_mkstore DIR\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0777) < 0)
		return die("cannot create the directory", -errno);
	if ((rc = store_open(dir, STORE_WRITE, &st)) < 0)
		return die("cannot create the store", rc);
	if ((rc = store_machine_set(st, "synthetic cpu", 2, "test", 1e9,
				    "{\"n_cpus\": 2, \"record_ns\": 1000}")) < 0 ||
	    (rc = store_method_add(st, "fixed", "w=1", 0)) < 0)
		return die("cannot write the machine or the method", rc);
	if ((seq = run(st, "seq", 1, "w=1", t_seq)) < 0)
		return die("cannot write the sequential run", -1);
	for (i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		struct store_point p;
		const char *roles[2] = { "rep", "seq" };
		int64_t ids[2] = { run(st, "par", pts[i].n, "w=1", pts[i].t), seq };
		memset(&p, 0, sizeof(p));
		snprintf(p.model, sizeof(p.model), "method");
		snprintf(p.method, sizeof(p.method), "fixed");
		snprintf(p.sizes, sizeof(p.sizes), "w=1");
		p.n_threads = pts[i].n;
		p.scale = p.n_threads;
		p.work = 1000;
		p.target = NAN;
		p.t_para_s = (double)pts[i].t * 1e-9;
		p.t_seq_s = (double)t_seq * 1e-9;
		snprintf(p.t_seq_source, sizeof(p.t_seq_source), "sequential");
		p.efficiency = p.t_seq_s / (p.n_threads * p.t_para_s);
		p.converged = 1;
		p.oversubscribed = p.n_threads > 2;
		if (ids[0] < 0 || (rc = store_point_put(st, &p, 2, ids, roles)) < 0)
			return die("cannot write a point", ids[0] < 0 ? -1 : rc);
	}
	/* a run that failed, and one begun and never finished */
	memset(&r, 0, sizeof(r));
	snprintf(r.kind, sizeof(r.kind), "par");
	r.n_threads = 2;
	r.rep = 1;
	r.work = 1000;
	snprintf(r.sizes, sizeof(r.sizes), "w=1");
	if (store_run_begin(st, &r) < 0)
		return die("cannot begin the failed run", -1);
	snprintf(r.status, sizeof(r.status), "failed");
	snprintf(r.reason, sizeof(r.reason), "exit status 3");
	r.exit_code = 3;
	if (store_run_finish(st, &r, 0, NULL, NULL, 0, NULL) < 0)
		return die("cannot finish the failed run", -1);
	memset(&r, 0, sizeof(r));
	snprintf(r.kind, sizeof(r.kind), "par");
	r.n_threads = 4;
	r.rep = 1;
	r.work = 1000;
	r.oversubscribed = 1;
	snprintf(r.sizes, sizeof(r.sizes), "w=1");
	if (store_run_begin(st, &r) < 0)
		return die("cannot begin the running run", -1);
	store_close(st);
	return 0;
}
