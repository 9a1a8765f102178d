/*
 * fuzz_trace.c — libFuzzer harness of the trace reader and the analyzer behind `scalegraph
 * report DIR` (analyzer/fuzz.mk, analyzer/tests/test-fuzz-trace.sh).
 *
 * An input is a tiny archive of the files of one process's trace directory, so that mutations
 * reach every file and every field while the files keep their shape:
 *
 *   input  -> entry*
 *   entry  -> u8 name, u24 length (little-endian), length bytes
 *
 * name % 8 picks defs.sgd, thread.0.sgs ... thread.3.sgs, sched.sgs, or the open buffers a
 * killed writer leaves, threads.sgo and sched.sgo (sgr_status.c reads them); a length beyond the
 * input takes the rest; a later entry for the same name replaces the earlier one. The files
 * are written to a directory of this process (on tmpfs when /dev/shm exists), then the trace is
 * read the ways the tools read it: sgr_open, sgr_verify, every thread and the sched stream with
 * sgr_iter and with cursors both ways (looking up each event's id), and an_run_open with the
 * text report of the result. Nothing is checked but that this ends without a sanitizer report,
 * a crash or a hang, and that every problem line says something.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer.h"
#include "sgtrace_read.h"

static const char *const names[] = { "defs.sgd", "thread.0.sgs", "thread.1.sgs", "thread.2.sgs",
				     "thread.3.sgs", "sched.sgs", SGF_THREADS_OPEN_NAME,
				     SGF_SCHED_OPEN_NAME };
#define N_NAMES (sizeof names / sizeof names[0])

static char dir[256];

/* Removes the directory at exit (libFuzzer leaves through exit() at the end of a run). */
static void cleanup(void)
{
	for (size_t k = 0; k < N_NAMES; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		unlink(path);
	}
	rmdir(dir);
}

static void setup(void)
{
	if (dir[0])
		return;
	const char *tmp = getenv("TMPDIR");
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp && *tmp ? tmp : "/tmp";
	snprintf(dir, sizeof dir, "%s/sg-fuzz-trace.%d", base, (int)getpid());
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		abort();
	atexit(cleanup);
	/* a SITE_PC definition names an object on disk: no addr2line runs on whatever file a
	 * fuzzed path names (the sites read "not resolved"; their decoding is still fuzzed) */
	setenv("SG_SITE_RESOLVE", "0", 1);
}

static void put(const char *name, const uint8_t *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void check_problems(struct sgr_trace *t)
{
	for (size_t i = 0; i < sgr_n_problems(t); i++) {
		const char *s = sgr_problem(t, i);
		if (!s || !*s)
			abort();   /* a problem that says nothing */
	}
}


/* Reads stream `pos` every way a tool does. */
static void read_stream(struct sgr_trace *t, size_t pos)
{
	struct sgr_iter it;
	struct sgr_event e;
	uint64_t n = 0;
	sgr_iter_init(&it, t, pos);
	while (sgr_iter_next(&it, &e)) {
		n++;
		/* the lookups a tool makes of an event's id */
		(void)sgr_function(t, e.id);
		(void)sgr_object(t, e.id);
		(void)sgr_region(t, e.id);
		(void)sgr_counter(t, e.id);
		(void)sgr_ns_to_ticks(sgr_info(t), e.t_ns);
	}
	struct sgr_cursor c;
	struct sgr_span sp;
	uint64_t fwd = 0, back = 0;
	sgr_cursor_init(&c, t, pos);
	while (sgr_cursor_next(&c, &sp))
		fwd += sp.n;
	sgr_cursor_init_end(&c, t, pos);
	while (sgr_cursor_prev(&c, &sp))
		back += sp.n;
	if (fwd != back)
		abort();   /* both ways read the same checked chunks */
	(void)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	const uint8_t *file[N_NAMES] = { 0 };
	size_t len[N_NAMES] = { 0 };
	int present[N_NAMES] = { 0 };
	size_t off = 0;
	while (off + 4 <= size) {
		unsigned k = data[off] % N_NAMES;
		size_t n = (size_t)data[off + 1] | (size_t)data[off + 2] << 8 |
			   (size_t)data[off + 3] << 16;
		off += 4;
		if (n > size - off)
			n = size - off;
		file[k] = data + off;
		len[k] = n;
		present[k] = 1;
		off += n;
	}
	for (size_t k = 0; k < N_NAMES; k++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		unlink(path);
		if (present[k])
			put(names[k], file[k], len[k]);
	}

	struct sgr_trace *t;
	char err[1024] = "";
	if (sgr_open(dir, 0, &t, err, sizeof err) == 0) {
		(void)sgr_verify(t);
		for (size_t pos = 0; pos < sgr_n_threads(t); pos++)
			read_stream(t, pos);
		read_stream(t, SGR_POS_SCHED);
		check_problems(t);
		sgr_close(t);
	} else if (!err[0]) {
		abort();   /* a failure that does not say why */
	}

	struct an_run *r;
	struct an_run_opts o = { .n_cpus = 2 };
	err[0] = '\0';
	if (an_run_open(dir, &o, &r, err, sizeof err) == 0) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			an_report_run_text(f, r);
			fclose(f);
		}
		an_run_free(r);
	} else if (!err[0]) {
		abort();   /* `scalegraph report` would print "error: " and nothing */
	}
	return 0;
}
