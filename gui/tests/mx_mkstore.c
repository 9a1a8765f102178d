/*
 * mx_mkstore.c — writes the synthetic experiment store of defect15-matrix-colours
 * (gui/tests/test-xvfb-matrix.sh): a program whose efficiency is at most 0.011 at N >= 2, as the
 * billiards demo of issue 15, with every answer computable by hand. Each run's trace has its N
 * threads spanning [0, T] (T_para = T exactly, nothing else in it); each point has one repetition
 * and a traced sequential run at its sizes (T_seq = its T). So E = T_seq / (N T_para) and
 * L = T_para (1 - E) = T_para - T_seq / N, in ns:
 *
 *   model         N  T_para     T_seq    E       L          converged
 *   time-bound    1  1000000    150000   0.15    850000     yes (the bound: 1 ms)
 *                 2  1000000    22000    0.011   989000     yes
 *                 4  1000000    32000    0.008   992000     yes
 *   e-conserved   1  100000     20000    0.2     80000      no (E 0.3 unreachable)
 *                 2  400000     8000     0.01    396000     no
 *                 4  1600000    16000    0.0025  1596000    no
 *   memory-bound  1  100000     20000    0.2     80000      yes
 *                 2  500000     11000    0.011   494500     yes
 *                 4  540000     8640     0.004   537840     yes
 *                 8  500000     16000    0.004   498000     yes
 *   method fixed  1, 2, 4 at one size: T_para 100000, 60000, 80000 (p_x = 2), T_seq 20000
 *
 * Cells (scale = L / L'): time-bound 1->2 0.859454, 1->4 0.856855, 2->4 0.996976, all with the
 * paper's caveat (E and E' both below 0.2; 2->4 also within 0.1); e-conserved 1->2 0.202020,
 * 1->4 0.050125, 2->4 0.248120, all off target; memory-bound 1->2 0.161779, 1->4 0.148743,
 * 2->4 0.919418, 1->8 0.160643, 2->8 0.992972, 4->8 1.080000 (above 1: the latency fell);
 * time-bound and e-conserved n/a at N' = 8 (no point there).
 *
 * usage: mx_mkstore DIR (DIR must not exist)
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
	fprintf(stderr, "mx_mkstore: %s: error: %s (%d)\n", dir, what, rc);
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
	snprintf(r.sizes, sizeof(r.sizes), "%s", sizes);
	if (store_run_begin(st, &r) < 0)
		return -1;
	snprintf(r.status, sizeof(r.status), "ok");
	r.t_wall_s = r.t_para_s = (double)t_ns * 1e-9;
	snprintf(r.t_para_source, sizeof(r.t_para_source), "threads");
	if (store_run_finish(st, &r, 0, NULL, NULL, 0, NULL) < 0)
		return -1;
	snprintf(tdir, sizeof(tdir), "%s/runs/%lld/trace", dir, (long long)r.id);
	if (sgw_create(tdir, NULL, &w) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct sgw_stream *s;
		if (sgw_thread(w, (uint32_t)i, SG_NO_ID, 0, &s) < 0 ||
		    sgw_event(s, 0, SG_EV_THREAD_BEGIN, (uint32_t)i, 0) < 0 ||
		    sgw_event(s, t_ns, SG_EV_THREAD_END, (uint32_t)i, 0) < 0)
			return -1;
	}
	if (sgw_close(w, 0) < 0)
		return -1;
	return r.id;
}

/* A point of (model, method) at N: one repetition of T_para and a sequential run of T_seq. */
static int point(struct store *st, const char *model, const char *method, int n, int k,
		 double t_para, double t_seq, int converged)
{
	struct store_point p;
	const char *roles[2] = { "rep", "seq" };
	int64_t ids[2];

	memset(&p, 0, sizeof(p));
	snprintf(p.model, sizeof(p.model), "%s", model);
	snprintf(p.method, sizeof(p.method), "%s", method);
	snprintf(p.sizes, sizeof(p.sizes), "w=%c%d", model[0], k);
	p.n_threads = n;
	p.scale = n;
	p.work = 1000.0 * k;
	p.target = strcmp(model, "time-bound") == 0 ? 1e-3 : strcmp(model, "e-conserved") == 0 ?
		   0.3 : NAN;
	p.t_para_s = t_para * 1e-9;
	p.t_seq_s = t_seq * 1e-9;
	snprintf(p.t_seq_source, sizeof(p.t_seq_source), "sequential");
	p.efficiency = t_seq / (n * t_para);
	p.converged = converged;
	if (!converged)
		snprintf(p.note, sizeof(p.note), "E does not move toward 0.3 along this path: "
			 "target unreachable at this N");
	if ((ids[0] = run(st, "par", n, p.sizes, (uint64_t)t_para)) < 0 ||
	    (ids[1] = run(st, "seq", 1, p.sizes, (uint64_t)t_seq)) < 0)
		return -1;
	return store_point_put(st, &p, 2, ids, roles);
}

int main(int argc, char **argv)
{
	static const struct { const char *model, *method; int n, k; double t, ts; int conv; } pts[] = {
		{ "time-bound", "both", 1, 1, 1000000, 150000, 1 },
		{ "time-bound", "both", 2, 2, 1000000, 22000, 1 },
		{ "time-bound", "both", 4, 4, 1000000, 32000, 1 },
		{ "e-conserved", "both", 1, 1, 100000, 20000, 0 },
		{ "e-conserved", "both", 2, 2, 400000, 8000, 0 },
		{ "e-conserved", "both", 4, 4, 1600000, 16000, 0 },
		{ "memory-bound", "balls", 1, 1, 100000, 20000, 1 },
		{ "memory-bound", "balls", 2, 2, 500000, 11000, 1 },
		{ "memory-bound", "balls", 4, 4, 540000, 8640, 1 },
		{ "memory-bound", "balls", 8, 8, 500000, 16000, 1 },
	};
	static const double fixed_t[3] = { 100000, 60000, 80000 };
	struct store *st;
	size_t i;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: mx_mkstore DIR\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0777) < 0)
		return die("cannot create the directory", -errno);
	if ((rc = store_open(dir, STORE_WRITE, &st)) < 0)
		return die("cannot create the store", rc);
	if ((rc = store_machine_set(st, "synthetic cpu", 8, "test", 1e9, "{\"n_cpus\": 8}")) < 0 ||
	    (rc = store_method_add(st, "fixed", "w=1", 0)) < 0)
		return die("cannot write the machine or the method", rc);
	for (i = 0; i < sizeof(pts) / sizeof(pts[0]); i++)
		if ((rc = point(st, pts[i].model, pts[i].method, pts[i].n, pts[i].k, pts[i].t,
				pts[i].ts, pts[i].conv)) < 0)
			return die("cannot write a point", rc);
	{
		int64_t seq = run(st, "seq", 1, "w=f", 20000);
		for (i = 0; i < 3 && seq > 0; i++) {
			struct store_point p;
			const char *roles[2] = { "rep", "seq" };
			int64_t ids[2] = { run(st, "par", 1 << i, "w=f", (uint64_t)fixed_t[i]), seq };
			memset(&p, 0, sizeof(p));
			snprintf(p.model, sizeof(p.model), "method");
			snprintf(p.method, sizeof(p.method), "fixed");
			snprintf(p.sizes, sizeof(p.sizes), "w=f");
			p.n_threads = 1 << i;
			p.scale = p.n_threads;
			p.work = 1000;
			p.target = NAN;
			p.t_para_s = fixed_t[i] * 1e-9;
			p.t_seq_s = 20000e-9;
			snprintf(p.t_seq_source, sizeof(p.t_seq_source), "sequential");
			p.efficiency = 20000 / (p.n_threads * fixed_t[i]);
			p.converged = 1;
			if (ids[0] < 0 || (rc = store_point_put(st, &p, 2, ids, roles)) < 0)
				return die("cannot write the fixed method", ids[0] < 0 ? -1 : rc);
		}
		if (seq < 0)
			return die("cannot write the sequential run", -1);
	}
	store_close(st);
	return 0;
}
