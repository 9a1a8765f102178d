/*
 * analyzer_bench.c — speed of the analyzer (DESIGN.md target: >= 500 M events/s on one core).
 * Generates a 100 M-event trace with the writer (8 threads: function calls, mutexes, barrier
 * episodes every few thousand events) into a temporary directory, then measures end to end
 * an_run_open — one pass per thread plus the joins, every per-run metric — with and without the
 * payload checksums, beside the plain memory scan of the same records (the ceiling), all in one
 * run. Deletes the trace afterwards. Prints `name: value unit (target ...)` lines. Given a trace
 * directory instead (a run's `trace/` of a store), measures that trace the same way and leaves
 * it alone.
 *
 * usage: analyzer_bench [EVENTS | TRACE-DIR]   (default 100000000 events)
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analyzer.h"
#include "sgtrace_read.h"
#include "sgtrace_write.h"

#define N_THREADS 8

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One thread's events: calls of 16 functions, a lock every 50 calls, a barrier every 1000. */
static int gen_thread(struct sgw_trace *w, uint32_t th, uint64_t n_events)
{
	struct sgw_stream *s;
	int rc = sgw_thread(w, th, SG_NO_ID, 0, &s);
	uint64_t t = 1000 + th * 7, n = 0;
	uint32_t ep = 0;
	if (rc == 0)
		rc = sgw_event(s, t, SG_EV_THREAD_BEGIN, th, SG_NO_ID);
	for (uint64_t i = 0; rc == 0 && n + 8 < n_events; i++) {
		uint32_t f = (uint32_t)(i & 15);
		rc |= sgw_event(s, t += 13, SG_EV_FUNC_ENTER, f, 0);
		rc |= sgw_event(s, t += 40, SG_EV_FUNC_EXIT, f, 0);
		n += 2;
		if (i % 50 == 0) {
			uint32_t l = (uint32_t)(i / 50 % 4) + 1;
			rc |= sgw_event(s, t += 5, SG_EV_LOCK_REQUEST, l, SG_LOCK_MUTEX);
			rc |= sgw_event(s, t += 20 + th, SG_EV_LOCK_ACQUIRED, l, SG_LOCK_MUTEX);
			rc |= sgw_event(s, t += 30, SG_EV_LOCK_RELEASE, l, SG_LOCK_MUTEX);
			n += 3;
		}
		if (i % 1000 == 999) {
			ep++;
			rc |= sgw_event(s, t += 3 + th * 11, SG_EV_BARRIER_ARRIVE, 100, ep);
			rc |= sgw_event(s, t += 90, SG_EV_BARRIER_LEAVE, 100, ep);
			n += 2;
		}
	}
	if (rc == 0)
		rc = sgw_event(s, t + 10, SG_EV_THREAD_END, th, 0);
	return rc;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* The ceiling: reading every record of every thread once (no analysis). */
static double scan_only(const char *dir, uint64_t *n_out)
{
	struct sgr_trace *t;
	char err[256];
	if (sgr_open(dir, SGR_NO_VERIFY, &t, err, sizeof err) < 0)
		return -1;
	double t0 = now_s();
	uint64_t n = 0, x = 0;
	for (size_t p = 0; p < sgr_n_threads(t); p++) {
		struct sgr_cursor c;
		struct sgr_span sp;
		sgr_cursor_init(&c, t, p);
		while (sgr_cursor_next(&c, &sp)) {
			for (size_t i = 0; i < sp.n; i++)
				x += sp.recs[i].w0 ^ sp.recs[i].w1;
			n += sp.n;
		}
	}
	double dt = now_s() - t0;
	sgr_close(t);
	*n_out = n + (x == 42);   /* keep the loop */
	return dt;
}

static double analyze(const char *dir, unsigned flags, uint64_t *n_out)
{
	struct an_run_opts o = { .flags = flags, .t_seq_s = 1.0 };
	struct an_run *r;
	char err[512];
	double t0 = now_s();
	if (an_run_open(dir, &o, &r, err, sizeof err) < 0) {
		fprintf(stderr, "analyzer_bench: %s\n", err);
		return -1;
	}
	double dt = now_s() - t0;
	*n_out = an_run_n_events(r);
	an_run_free(r);
	return dt;
}

/* The best of 3 runs of each: the plain scan, the analysis with and without the checksums.
 * `target`: the generated trace (the DESIGN.md target applies to it). -1 when the trace cannot
 * be analyzed. */
static int measure(const char *dir, const char *what, int target)
{
	uint64_t n = 0;
	double best_scan = 1e9, best_nv = 1e9, best_v = 1e9, best_nb = 1e9;
	for (int k = 0; k < 3; k++) {
		double d = scan_only(dir, &n);
		if (d > 0 && d < best_scan)
			best_scan = d;
		d = analyze(dir, AN_NO_VERIFY, &n);
		if (d < 0)
			return -1;
		if (d < best_nv)
			best_nv = d;
		d = analyze(dir, AN_NO_VERIFY | AN_NO_BUDGET, &n);
		if (d > 0 && d < best_nb)
			best_nb = d;
		d = analyze(dir, 0, &n);
		if (d < 0)
			return -1;
		if (d < best_v)
			best_v = d;
	}
	printf("analyzer_events: %llu events (%s)\n", (unsigned long long)n, what);
	printf("analyzer_scan_ceiling: %.0f M events/s (reading every record, no analysis)\n",
	       (double)n / best_scan * 1e-6);
	printf("analyzer_end_to_end: %.0f M events/s (%sall per-run metrics, checksums skipped)\n",
	       (double)n / best_nv * 1e-6, target ? "target >= 500; " : "");
	printf("analyzer_end_to_end_verified: %.0f M events/s (checksums of every chunk checked)\n",
	       (double)n / best_v * 1e-6);
	printf("analyzer_share_of_ceiling: %.0f %% (of the scan rate)\n", 100.0 * best_scan / best_nv);
	printf("analyzer_budget_cost: %+.1f %% (end to end with the time budget against the same "
	       "analysis with the sched stream left unread: %.0f vs %.0f M events/s; 0 for a trace "
	       "without a sched stream; target <= 20 %%)\n", 100.0 * (best_nv - best_nb) / best_nb,
	       (double)n / best_nv * 1e-6, (double)n / best_nb * 1e-6);
	return 0;
}

int main(int argc, char **argv)
{
	struct stat st;
	if (argc > 1 && stat(argv[1], &st) == 0 && S_ISDIR(st.st_mode))
		return measure(argv[1], argv[1], 0) < 0;
	uint64_t total = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000ull;
	char dir[] = "/tmp/sg-bench-analyzer.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("analyzer_bench: mkdtemp");
		return 1;
	}
	int rc = 1;
	struct sgw_trace *w;
	struct sgw_options opt = { .chunk_recs = 65536 };   /* libsgtrace's default 1 MiB buffer */
	double g0 = now_s();
	if (sgw_create(dir, &opt, &w) < 0 || sgw_object(w, 100, SG_OBJ_BARRIER, 0x100) < 0)
		goto out;
	for (uint32_t l = 1; l <= 4; l++)
		sgw_object(w, l, SG_OBJ_MUTEX, 0x1000 + l);
	for (uint32_t f = 0; f < 16; f++) {
		char name[16];
		snprintf(name, sizeof name, "func%u", f);
		sgw_function(w, f, name, "bench.c", (int)f);
	}
	for (uint32_t th = 0; th < N_THREADS; th++)
		if (gen_thread(w, th, total / N_THREADS) < 0)
			goto out;
	if (sgw_close(w, 0) < 0)
		goto out;
	printf("analyzer_generate: %.1f M events/s (%.2f s to write the trace; not a target)\n",
	       (double)total / (now_s() - g0) * 1e-6, now_s() - g0);
	char what[64];
	snprintf(what, sizeof what, "%d threads, barriers and locks", N_THREADS);
	if (measure(dir, what, 1) < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "analyzer_bench: failed\n");
	if (getenv("ANALYZER_BENCH_KEEP"))   /* to measure it again: analyzer_bench DIR */
		printf("analyzer_trace_kept: %s\n", dir);
	else
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}
