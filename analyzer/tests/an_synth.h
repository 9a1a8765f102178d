/*
 * an_synth.h — helpers of the analyzer's tests: temporary directories and compact synthetic
 * traces written through sgtrace_write.h (ticks are ns, so every answer is exact to the ns).
 */
#ifndef AN_SYNTH_H
#define AN_SYNTH_H

#include <stdint.h>

#include "analyzer.h"
#include "sgtrace_write.h"

/* One event of a synthetic thread; a list ends with kind SG_EV_NONE. */
struct syn_ev {
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
};

/* Creates a fresh temporary directory and returns its path (static storage per call slot 0..7). */
const char *syn_tmpdir(void);
/* Removes a directory tree (tests clean up after themselves). */
void syn_rmtree(const char *path);
/* Writes thread `index` (parent SG_NO_ID) with the events of `ev` into w. 0 or -errno. */
int syn_thread(struct sgw_trace *w, uint32_t index, const struct syn_ev *ev);
/* The same with OS thread id `tid` (what the sched stream's records name). */
int syn_thread_tid(struct sgw_trace *w, uint32_t index, int32_t tid, const struct syn_ev *ev);
/* Writes the sched stream (format 1.2) with the records of `ev` (id: tid; TASK_CPU, TASK_DELAY
 * and SWITCH_LOST carry their value in aux). 0 or -errno. */
int syn_sched(struct sgw_trace *w, const struct syn_ev *ev);

/* For the cmocka tests (failing the test on an error): a trace in a fresh directory, returned,
 * with object 1 of kind obj (0: none), n threads of indexes first, first + 1, ... and OS ids
 * tid0, tid0 + 1, ... (tid0 0: none), and the sched stream of `sched` (NULL: none). */
const char *syn_trace(int obj, uint32_t first, int32_t tid0,
		      const struct syn_ev *const *threads, size_t n, const struct syn_ev *sched);

/* For the cmocka tests (an_synth.c includes cmocka): an_run_open that fails the test on error,
 * and assertions of a figure, available and equal to v (to 1e-9), or to ns nanoseconds. */
struct an_run *syn_open_run(const char *dir, const struct an_run_opts *o);
void syn_assert_fig(const struct an_run *r, int metric, double v);
void syn_assert_fig_ns(const struct an_run *r, int metric, double ns);

/* The intervals an_run_timeline reports, kept in order (the first 64): syn_timeline_cb is its
 * callback, with a struct syn_timeline (n = 0) as user data. */
struct syn_timeline {
	struct an_interval iv[64];
	int n;
};
int syn_timeline_cb(const struct an_interval *iv, void *ud);

#endif
