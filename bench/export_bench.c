/*
 * export_bench.c — speed of `scalegraph export`: generates a trace of 10 M events (8 threads:
 * nested functions, mutex lock/unlock, barrier episodes, counter samples; a sched stream in
 * which every barrier wait blocks, one off-CPU span each) with the trace writer, exports it to
 * Chrome JSON (to a file and to /dev/null) and to OTF2 side by side in one run, each in a child
 * process whose anonymous memory is sampled (the exports stream thread events: memory must not
 * grow with them; the sched stream's spans are held, about 65 bytes each), prints events/s of
 * each, then deletes what it wrote. Usage: export_bench [EVENTS] (default 10000000).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../analyzer/export.h"
#include "sgtrace_write.h"

#define THREADS 8

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* RssAnon of process `pid` in kB (the exporter's own memory, without the mapped trace), or -1. */
static long rss_anon_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "RssAnon: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

enum fmt { CHROME, OTF2 };

/* Runs one export in a child, sampling its anonymous memory every 5 ms. Returns 0 or -1;
 * *secs: wall time, *peak_kb: the largest RssAnon seen, *n: events exported. */
static int timed_export(struct sgr_trace *t, enum fmt fmt, const char *out, const char *src,
			double *secs, long *peak_kb, uint64_t *n)
{
	int pfd[2];
	if (pipe(pfd) < 0)
		return -1;
	double t0 = now_s();
	pid_t pid = fork();
	if (pid == 0) {
		struct export_stats st = { 0 };
		char err[1024];
		int rc;
		close(pfd[0]);
		if (fmt == CHROME) {
			FILE *f = fopen(out, "w");
			rc = f ? export_chrome(t, f, src, 0, &st, err, sizeof err) : -errno;
			if (f && fclose(f) != 0)
				rc = -EIO;
		} else {
			rc = export_otf2(t, out, src, 0, &st, err, sizeof err);
		}
		if (rc < 0)
			fprintf(stderr, "export_bench: error: %s\n", err);
		if (write(pfd[1], &st.n_read, sizeof st.n_read) != sizeof st.n_read)
			rc = -EIO;
		_exit(rc < 0);
	}
	close(pfd[1]);
	if (pid < 0)
		return -1;
	int status = 0;
	*peak_kb = 0;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		long kb = rss_anon_kb(pid);
		if (kb > *peak_kb)
			*peak_kb = kb;
		usleep(5000);
	}
	*secs = now_s() - t0;
	int got = read(pfd[0], n, sizeof *n) == sizeof *n;
	close(pfd[0]);
	return got && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One thread's share: iterations of enter f, lock, unlock, exit f (6 events with the inner
 * function), a barrier every 8th and a counter sample every 64th iteration; in the sched
 * stream, the thread (tid 5000 + index) is off its CPU inside each barrier wait. */
static int write_thread(struct sgw_trace *w, struct sgw_stream *sched, uint32_t index,
			uint64_t n_events)
{
	struct sgw_stream *s;
	uint64_t t = 1000 + index * 7, n = 0, it = 0;
	uint32_t tid = 5000 + index;
	int rc = sgw_thread(w, index, index ? 0 : SG_NO_ID, (int32_t)tid, &s);
	if (!rc)
		rc = sgw_event(s, t, SG_EV_THREAD_BEGIN, index, index ? 0 : SG_NO_ID);
	for (n = 1; !rc && n + 10 < n_events; it++) {
		uint32_t m = 1 + (uint32_t)(it % 4);
		rc |= sgw_event(s, t += 50, SG_EV_FUNC_ENTER, 1, 0);
		rc |= sgw_event(s, t += 20, SG_EV_FUNC_ENTER, 2, 0);
		rc |= sgw_event(s, t += 30, SG_EV_LOCK_REQUEST, m, SG_LOCK_MUTEX);
		rc |= sgw_event(s, t += 40, SG_EV_LOCK_ACQUIRED, m, SG_LOCK_MUTEX);
		rc |= sgw_event(s, t += 90, SG_EV_LOCK_RELEASE, m, SG_LOCK_MUTEX);
		rc |= sgw_event(s, t += 10, SG_EV_FUNC_EXIT, 2, 0);
		n += 6;
		if (it % 8 == 7) {
			rc |= sgw_event(s, t += 15, SG_EV_BARRIER_ARRIVE, 9, (uint32_t)(it / 8 + 1));
			rc |= sgw_event(sched, t + 5, SG_EV_SWITCH_OUT, tid, index % 2);
			rc |= sgw_event(sched, t + 395, SG_EV_SWITCH_IN, tid, index % 2);
			rc |= sgw_event(s, t += 400, SG_EV_BARRIER_LEAVE, 9, (uint32_t)(it / 8 + 1));
			n += 4;
		}
		if (it % 64 == 63) {
			rc |= sgw_counter_value(s, t += 5, 1, (int64_t)it * 100);
			n++;
		}
		rc |= sgw_event(s, t += 25, SG_EV_FUNC_EXIT, 1, 0);
		n++;
	}
	if (!rc)
		rc = sgw_event(s, t + 10, SG_EV_THREAD_END, index, 0);
	return rc;
}

static int generate(const char *dir, uint64_t n_events)
{
	struct sgw_trace *w;
	struct sgw_stream *sched;
	int rc = sgw_create(dir, NULL, &w);
	if (rc)
		return rc;
	rc |= sgw_sched(w, 2, "export_bench", 0, &sched);
	rc |= sgw_function(w, 1, "step", "bench.c", 10);
	rc |= sgw_function(w, 2, "update", "bench.c", 20);
	for (uint32_t m = 1; m <= 4; m++)
		rc |= sgw_object(w, m, SG_OBJ_MUTEX, 0x1000 * m);
	rc |= sgw_object(w, 9, SG_OBJ_BARRIER, 0x9000);
	rc |= sgw_counter(w, 1, "task-clock", "ns", SG_COUNTER_SOFTWARE, NULL);
	for (uint32_t i = 0; !rc && i < THREADS; i++)
		rc = write_thread(w, sched, i, n_events / THREADS);
	int rc2 = sgw_close(w, 0);
	return rc ? rc : rc2;
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static uint64_t tree_bytes;
static int add_size(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	tree_bytes += flag == FTW_F ? (uint64_t)sb->st_size : 0;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n_events = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	char base[] = "/tmp/export_bench.XXXXXX", trace[64], json[64], otf2[64], err[1024];
	struct sgr_trace *t = NULL;
	int rc = 1;
	if (!mkdtemp(base)) {
		perror("export_bench: mkdtemp");
		return 1;
	}
	snprintf(trace, sizeof trace, "%s/trace", base);
	snprintf(json, sizeof json, "%s/trace.json", base);
	snprintf(otf2, sizeof otf2, "%s/otf2", base);

	double t0 = now_s();
	if (generate(trace, n_events) != 0) {
		fprintf(stderr, "export_bench: error: cannot write the trace in %s\n", trace);
		goto out;
	}
	double t_gen = now_s() - t0;
	if (sgr_open(trace, 0, &t, err, sizeof err) < 0) {
		fprintf(stderr, "export_bench: error: %s\n", err);
		goto out;
	}
	double t_json, t_null, t_otf2;
	long kb_json, kb_null, kb_otf2;
	uint64_t n, n2, n3;
	struct stat sb;
	if (timed_export(t, CHROME, json, trace, &t_json, &kb_json, &n) < 0 ||
	    stat(json, &sb) < 0 || remove(json) < 0 ||
	    timed_export(t, CHROME, "/dev/null", trace, &t_null, &kb_null, &n2) < 0 ||
	    timed_export(t, OTF2, otf2, trace, &t_otf2, &kb_otf2, &n3) < 0) {
		fprintf(stderr, "export_bench: error: an export failed\n");
		goto out;
	}
	nftw(otf2, add_size, 16, FTW_PHYS);
	printf("export_trace_events: %llu events (%d threads, %.0f MB, written in %.2f s)\n",
	       (unsigned long long)n, THREADS, n * 16 / 1e6, t_gen);
	printf("export_chrome_rate: %.2f M events/s (target: report; %.2f s, %.0f MB of JSON "
	       "written to a file in /tmp)\n", n / t_json / 1e6, t_json, sb.st_size / 1e6);
	printf("export_chrome_rate_devnull: %.2f M events/s (target: report; the same JSON to "
	       "/dev/null: the exporter without the disk)\n", n2 / t_null / 1e6);
	printf("export_otf2_rate: %.2f M events/s (target: report; %.2f s, %.0f MB archive)\n",
	       n3 / t_otf2 / 1e6, t_otf2, tree_bytes / 1e6);
	printf("export_memory: chrome %.1f MB, otf2 %.1f MB peak anonymous memory (target: "
	       "independent of the number of thread events; the mapped trace is not counted, the "
	       "sched stream's off-CPU spans are held, about 65 B each)\n",
	       kb_json / 1024.0, kb_otf2 / 1024.0);
	rc = 0;
out:
	if (t)
		sgr_close(t);
	nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}
