/*
 * sgtrace_write.h — the low-level trace writer (prefix sgw_, library libsgtread.a).
 *
 * Writes a complete trace directory with explicit timestamps, ids and definitions, in exactly
 * the format libsgtrace records (both use the encoders of sgf.c): compact chunks with
 * sgw_options.compact, as libsgtrace writes them by default; chunks of 16-byte records
 * otherwise, which every reader reads too and tests can damage at known offsets. Its main users are tests of
 * later stages, which build synthetic traces with hand-computed answers:
 *
 *   struct sgw_trace *w;  struct sgw_stream *t0, *t1;
 *   sgw_create("trace", NULL, &w);                 // ticks are ns (SGF_CLOCK_NS)
 *   sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000);
 *   sgw_thread(w, 0, SG_NO_ID, 0, &t0);
 *   sgw_thread(w, 1, 0, 0, &t1);
 *   sgw_event(t0, 100, SG_EV_BARRIER_ARRIVE, 1, 1);  // thread 0 arrives at t=100 ns
 *   sgw_event(t1, 400, SG_EV_BARRIER_ARRIVE, 1, 1);  // thread 1 at t=400 ns
 *   ...
 *   sgw_close(w, 0);
 *
 * All functions return 0 or a negative errno. The writer does not check the meaning of events
 * (a test may write nonsense on purpose); it checks only what would make the file unreadable.
 */
#ifndef SGTRACE_WRITE_H
#define SGTRACE_WRITE_H

#include <stdint.h>

#include "sgtrace_format.h"

struct sgw_trace;
struct sgw_stream;

struct sgw_options {
	enum sgf_clock clock;    /* 0 means SGF_CLOCK_NS: ticks are ns since the epoch */
	uint32_t pid;            /* written into the headers; 0 means getpid() */
	uint32_t parent_pid;     /* non-zero for the trace of a forked child */
	uint64_t epoch_ns;       /* CLOCK_MONOTONIC ns at tick 0 */
	uint32_t chunk_recs;     /* records per chunk before an automatic flush; 0: 4096 */
	uint16_t version_minor;  /* 0: the current one; else written into every file header, for
				    a test that needs a trace of an older format (1.3: no sites) */
	uint16_t compact;        /* 1: every chunk compact (format 1.6, SGF_CHUNK_COMPACT), as
				    libsgtrace writes them, whatever their size; 0: chunks of
				    16-byte records (what formats <= 1.5 have, and what tests
				    that damage given bytes of a record expect) */
};

/* Creates directory `dir` (which may exist) and its definitions file. On success *out owns the
 * trace until sgw_close. */
int sgw_create(const char *dir, const struct sgw_options *opt, struct sgw_trace **out);

/* Definitions, written at once. Ids are chosen by the caller (functions, regions, objects and
 * counters each have their own id space; SG_NO_ID is not a valid id). */
int sgw_clock_pair(struct sgw_trace *w, uint64_t ticks, uint64_t ns);
int sgw_function(struct sgw_trace *w, uint32_t id, const char *name, const char *file, int line);
int sgw_region(struct sgw_trace *w, uint32_t id, const char *name);
/* A call site (format 1.4); func NULL or "" outside any function. Events refer to it with
 * sgw_event(s, ticks, SG_EV_SYNC_SITE, id, 0) before the wait-begin events made there. */
int sgw_site(struct sgw_trace *w, uint32_t id, const char *file, int line, const char *func);
int sgw_object(struct sgw_trace *w, uint32_t id, enum sg_obj_kind kind, uint64_t address);
/* `unavailable` NULL for a working counter, else the reason it is unavailable. */
int sgw_counter(struct sgw_trace *w, uint32_t id, const char *name, const char *unit,
		enum sg_counter_origin origin, const char *unavailable);
int sgw_counters_off(struct sgw_trace *w, const char *reason);

/* Defines thread `index` (parent index or SG_NO_ID, OS thread id or 0) and opens its stream
 * file. *out belongs to w. */
int sgw_thread(struct sgw_trace *w, uint32_t index, uint32_t parent, int32_t os_tid,
	       struct sgw_stream **out);

/* The sched stream (format 1.2): writes the SCHED definition (how the switch records were
 * recorded, or with `unavailable` why not) and, when out is not NULL, opens sched.sgs, whose
 * ticks are ns since the epoch whatever the trace's clock. Append its records with sgw_event
 * (SWITCH_OUT / SWITCH_IN, id = OS tid) and sgw_value (TASK_CPU, TASK_DELAY, SWITCH_LOST). */
int sgw_sched(struct sgw_trace *w, unsigned n_cpus, const char *text, int unavailable,
	      struct sgw_stream **out);

/* Appends one event. `ticks` must fit in 56 bits. */
int sgw_event(struct sgw_stream *s, uint64_t ticks, enum sg_ev_kind kind, uint32_t id,
	      uint32_t aux);
/* Appends a counter sample: SG_EV_COUNTER + SG_EV_VALUE, always in the same chunk. */
int sgw_counter_value(struct sgw_stream *s, uint64_t ticks, uint32_t counter, int64_t value);
/* Appends a record of a kind that carries a value (sg_kind_has_value) and its SG_EV_VALUE. */
int sgw_value(struct sgw_stream *s, uint64_t ticks, enum sg_ev_kind kind, uint32_t id,
	      int64_t value);
/* Appends a raw record as is (for tests that need malformed records). */
int sgw_raw(struct sgw_stream *s, const struct sg_event_rec *rec);

/* Writes the buffered events as one chunk now. The chunk's clock pair is the last one given to
 * sgw_stream_pair, else (latest ticks, epoch_ns + latest ticks) with the latest tick written to
 * the stream so far — exact for SGF_CLOCK_NS, and after the chunk's records as libsgtrace's
 * pair is (a reader leaves out records after their chunk's pair: docs/trace-format.md). */
int sgw_flush(struct sgw_stream *s);
int sgw_stream_pair(struct sgw_stream *s, uint64_t ticks, uint64_t ns);
/* Sets the lost-event count written into the stream's trailer. */
void sgw_set_lost(struct sgw_stream *s, uint64_t lost);

/* Flushes every stream, writes its trailer (unless flags has SGW_NO_TRAILER: the trace then
 * looks cut short, as after a SIGKILL), closes the files and frees w. */
#define SGW_NO_TRAILER 1u
int sgw_close(struct sgw_trace *w, unsigned flags);

/* Path of the stream file of thread `index` inside `dir` (for tests that damage files).
 * Returns 0 or -ENAMETOOLONG. */
int sgw_stream_path(char *out, unsigned long len, const char *dir, uint32_t index);

#endif /* SGTRACE_WRITE_H */
