/*
 * export.h — `scalegraph export`: turns one run's trace into formats other tools read, OTF2
 * (Vampir, Scalasca, otf2-print) and the Chrome trace-event JSON (Perfetto, chrome://tracing).
 *
 * The exporters need only the trace reader (sgtrace_read.h), never the analyzer's metrics. They
 * stream: events are merged across threads in time order one at a time (memory grows with the
 * number of threads and definitions, never with the number of events). The mapping of every
 * event kind to each format is documented in docs/export.md.
 *
 * All functions return 0 or a negative errno; a message for people goes into `err`.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtrace_read.h"

/* What an export read and wrote. */
struct export_stats {
	uint64_t n_read;                     /* events read (counter samples count once) */
	uint64_t n_kind[SG_EV_KIND_COUNT];   /* events read per kind */
	uint64_t n_written;                  /* records written in the target format */
	uint64_t n_repaired;                 /* open regions/waits closed by the exporter because
						their end was missing (damage, bad nesting) */
	uint64_t n_dropped;                  /* ends without a begin, unknown kinds: not written */
	int64_t t_first_ns, t_last_ns;       /* first and last event, ns since the trace epoch */
};

/*
 * Finds the trace directory of `run`: `run` itself when it holds defs.sgd (a bare trace
 * directory, sgtrace.<pid>/), else `run`/trace (a run directory of an experiment store,
 * runs/<id>/, where `scalegraph run` points SG_TRACE_DIR). Writes the path into dir[len].
 * Returns -ENOENT when `run` does not exist, -ENODATA when it exists but holds no trace,
 * -ENAMETOOLONG; err receives "RUN: reason".
 */
int export_locate(const char *run, char *dir, size_t len, char *err, size_t errlen);

/*
 * Writes the OTF2 archive `out_dir`/traces.otf2 (with traces.def and traces/) for trace t.
 * `out_dir` is created when missing; an existing traces.otf2 in it is an error (-EEXIST).
 * Timestamps are CLOCK_MONOTONIC ns (timer resolution 1e9), with the clock properties set.
 * `source` (the RUN argument) goes into the archive's description. Fills *st.
 */
int export_otf2(struct sgr_trace *t, const char *out_dir, const char *source,
		struct export_stats *st, char *err, size_t errlen);

/*
 * Writes trace t to `out` as one Chrome trace-event JSON object (ts in µs since the trace
 * epoch, three decimals: exact ns). The caller owns and closes `out`; a write error returns
 * -EIO. Fills *st.
 */
int export_chrome(struct sgr_trace *t, FILE *out, const char *source, struct export_stats *st,
		  char *err, size_t errlen);

#endif /* EXPORT_H */
