/*
 * export.h — `scalegraph export`: turns one run's trace into formats other tools read, OTF2
 * (Vampir, Scalasca, otf2-print) and the Chrome trace-event JSON (Perfetto, chrome://tracing).
 *
 * The exporters need only the trace reader (sgtrace_read.h), never the analyzer's metrics. They
 * stream: events are merged across threads in time order one at a time (memory grows with the
 * number of threads and definitions, never with the number of thread events). The process's
 * sched stream (format 1.2: context switches, CPU time and run delay samples) is read first and
 * held per thread as off-CPU spans and samples (32 bytes each; about 65 bytes per span while
 * it is read), because the kernel's records of several CPUs arrive out of time order. The
 * mapping of every event kind to each format is documented in docs/export.md.
 *
 * All functions return 0 or a negative errno; a message for people goes into `err`.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtrace_read.h"

/* export_otf2 / export_chrome flags */
#define EXPORT_NO_SCHED 1u   /* leave the sched stream out: no off-CPU spans, no CPU samples */

/* What an export read and wrote. */
struct export_stats {
	uint64_t n_read;                     /* events read (counter samples count once), the
						sched stream's records included */
	uint64_t n_kind[SG_EV_KIND_COUNT];   /* events read per kind */
	uint64_t n_written;                  /* records written in the target format */
	uint64_t n_repaired;                 /* open regions/waits closed by the exporter because
						their end was missing (damage, bad nesting) */
	uint64_t n_dropped;                  /* ends without a begin, unknown kinds: not written */
	/* The sched stream (zero with EXPORT_NO_SCHED or a trace without one): */
	uint64_t n_sched_read;               /* its records read (part of n_read) */
	uint64_t n_off_cpu;                  /* off-CPU slices written, one per span */
	uint64_t n_off_fitted;               /* of those, moved or shortened to the longest stretch
						free of the thread's own events (clock skew between
						the kernel's stamps and the thread's) */
	uint64_t n_off_cut;                  /* of those, closed at an event of the thread's own
						before their switch-in (a lost switch-in) */
	uint64_t n_off_dropped;              /* spans outside the thread's first..last event */
	uint64_t n_sched_foreign;            /* records of threads not in the trace */
	uint64_t n_sched_lost;               /* switch records the kernel dropped (SWITCH_LOST) */
	int64_t t_first_ns, t_last_ns;       /* first and last event, ns since the trace epoch */
};

/*
 * Finds the trace directory of `run`: `run` itself when it is a trace (it holds defs.sgd: a
 * process's directory, sgtrace.<pid>/ or proc.<pid>/; or it is a trace root holding
 * proc.<pid>/ directories, format 1.2), else `run`/trace (a run directory of an experiment
 * store, runs/<id>/, where `scalegraph run` points SG_TRACE_DIR). Writes the path into
 * dir[len]; sgr_open reads the main process of a root. Returns -ENOENT when `run` does not
 * exist, -ENODATA when it exists but holds no trace, -ENAMETOOLONG; err receives "RUN: reason".
 */
int export_locate(const char *run, char *dir, size_t len, char *err, size_t errlen);

/*
 * Writes the OTF2 archive `out_dir`/traces.otf2 (with traces.def and traces/) for trace t.
 * `out_dir` is created when missing; an existing traces.otf2 in it is an error (-EEXIST).
 * Timestamps are CLOCK_MONOTONIC ns (timer resolution 1e9), with the clock properties set.
 * `source` (the RUN argument) goes into the archive's description. flags: EXPORT_NO_SCHED or
 * 0. Fills *st.
 */
int export_otf2(struct sgr_trace *t, const char *out_dir, const char *source, unsigned flags,
		struct export_stats *st, char *err, size_t errlen);

/*
 * Writes trace t to `out` as one Chrome trace-event JSON object (ts in µs since the trace
 * epoch, three decimals: exact ns). The caller owns and closes `out`; a write error returns
 * -EIO. flags: EXPORT_NO_SCHED or 0. Fills *st.
 */
int export_chrome(struct sgr_trace *t, FILE *out, const char *source, unsigned flags,
		  struct export_stats *st, char *err, size_t errlen);

#endif /* EXPORT_H */
