/*
 * sgtrace_read.h — the trace reader (prefix sgr_, library libsgtread.a), shared by the analyzer,
 * the exporters, the collector, `scalegraph dump` and the tests.
 *
 * sgr_open maps a trace directory (docs/trace-format.md), reads its definitions and walks the
 * chunk headers of every thread's stream. Event payloads are checked lazily, chunk by chunk,
 * the first time an iterator reaches them. Damage never stops reading: each problem is recorded
 * as one line "FILE: chunk K: reason" (sgr_problem) and reading goes on with the next readable
 * chunk; a stream cut short by a crash reads back up to its last whole chunk.
 *
 * The reader is total (docs/trace-format.md "Reading rules"): it opens only regular files
 * (never blocking on a FIFO, never following a link), range-checks every id and count before
 * it sizes anything (definitions with ids at or beyond SG_ID_LIMIT are rejected), reads a
 * duplicated chunk once, and leaves out of the time fit any clock pair that disagrees with the
 * others. Events carry their ids as recorded: look each up (sgr_function, ...) before using it
 * as an index — in a damaged trace it may be undefined.
 *
 * Two ways to read events, both in each thread's recorded order:
 *   - sgr_cursor: spans of raw 16-byte records straight from the mapped file, decoded in place
 *     with the helpers of sgtrace_format.h (the fast path: no copies); a compact chunk (format
 *     1.6) is decoded into the same records once, the first time a cursor reaches it, and its
 *     span points there (valid until sgr_close, as the mapped file's);
 *   - sgr_iter: one decoded struct sgr_event at a time, with the time in ns and counter values
 *     folded in (for tools and tests).
 * Timestamps convert from ticks to ns since the trace's epoch with sgr_ticks_to_ns.
 *
 * Thread safety: after sgr_open, any number of threads may iterate concurrently (each with its
 * own cursor); sgr_close must not race with them.
 */
#ifndef SGTRACE_READ_H
#define SGTRACE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sgtrace_format.h"

struct sgr_trace;

struct sgr_info {
	uint32_t pid;
	uint32_t parent_pid;       /* non-zero for the trace of a forked child */
	enum sgf_clock clock;
	uint64_t epoch_ns;         /* CLOCK_MONOTONIC ns at tick 0 */
	uint64_t epoch_real_ns;    /* CLOCK_REALTIME ns at tick 0 (0 when unknown) */
	double ns_per_tick;        /* the linear clock fit (1.0 for SGF_CLOCK_NS) */
	double offset_ns;          /* t_ns = offset_ns + ticks * ns_per_tick */
	uint32_t n_clock_pairs;    /* pairs the fit could choose from */
	const char *counters_off;  /* why no counter exists in this process, or NULL */
	unsigned version_minor;    /* the format's minor version of defs.sgd (1.4: 4): what the
				      program could record (call sites since 4) */
	const char *stopped;       /* format 1.5: tracing stopped before the process ended, because
				      of this call ("execve /no/such/prog": an exec that failed),
				      or NULL; what the process did afterwards is not in the trace */
	int stopped_errno;         /* the errno that call failed with */
	int64_t stopped_ns;        /* when, in ns since the epoch */
};

struct sgr_function {
	uint32_t id;
	int line;
	const char *name;
	const char *file;
};

/* A call site of synchronization calls (format 1.4): where in the source a barrier, lock,
 * condition, semaphore or join call was written. */
struct sgr_site {
	uint32_t id;
	int line;
	const char *func;          /* enclosing function, "" when none (a macro body) */
	const char *file;
	uint32_t same;             /* 0, or the id of an earlier site at the same file, line and
				      function (return-address sites, format 1.6: one source line
				      inlined or unrolled into several calls): count them as one */
};

struct sgr_region {
	uint32_t id;
	const char *name;
};

struct sgr_object {
	uint32_t id;
	enum sg_obj_kind kind;
	uint64_t address;
};

struct sgr_counter {
	uint32_t id;
	enum sg_counter_origin origin;
	const char *name;
	const char *unit;
	const char *unavailable;   /* NULL for a working counter, else the reason */
};

struct sgr_thread {
	uint32_t index;
	uint32_t parent;           /* parent thread index or SG_NO_ID */
	int32_t os_tid;            /* 0 when unknown */
	const char *file;          /* stream file name, "thread.3.sgs" */
	int defined;               /* has a definition in defs.sgd */
	int readable;              /* the stream file exists and its header is valid */
	int complete;              /* the stream ends with a valid trailer */
	uint64_t n_chunks;         /* whole chunks with a valid header */
	uint64_t n_recs;           /* records in those chunks (before payload checks) */
	uint64_t lost;             /* events lost: the trailer's count plus SGF_DEF_LOST records */
	int lost_unknown;          /* no trailer (the writer was killed, the file is missing or
				      unreadable): more may have been lost than `lost` says */
	uint64_t n_damaged;        /* chunks found damaged (grows as payloads are checked) */
	int write_errno;           /* the writer stopped on this write error (ENOSPC), else 0 */
	uint64_t n_recovered;      /* records (in n_recs) read back from a killed writer's buffer */
	uint64_t n_out_of_order;   /* records (in n_recs) left out for breaking time order: before
				      the record before them, before the clock pair of the chunk
				      before, or after their chunk's own (grows as chunks are read,
				      as n_damaged does; docs/trace-format.md "Reading rules") */
};

/* The process's sched stream (sched.sgs, format 1.2): kernel context-switch records of its
 * threads (SWITCH_OUT / SWITCH_IN, id = OS tid) and samples of each thread's CPU time and run
 * delay (TASK_CPU / TASK_DELAY), with ticks in ns since the epoch. */
struct sgr_sched {
	int defined;               /* the trace has a SCHED definition (format 1.2) */
	int unavailable;           /* the switch records could not be recorded: see `text` */
	const char *text;          /* how they were recorded, or why not ("" when undefined) */
	unsigned n_cpus;           /* CPUs with a switch event */
	int present;               /* sched.sgs exists and its header is valid */
	int complete;              /* it ends with a valid trailer */
	uint64_t n_recs;           /* records in its whole chunks */
	uint64_t lost;             /* records lost by the writer (trailer) */
	int write_errno;           /* the writer stopped on this write error (ENOSPC), else 0 */
};

/* One process of a multi-process trace: SG_TRACE_DIR (the trace root) holds a directory
 * proc.<pid>[.<k>]/ per traced process (format 1.2); format 1.1 had fork.<pid>/ inside the
 * parent's directory. */
struct sgr_process {
	const char *dir;           /* its directory */
	const char *name;          /* "proc.1234", "fork.1234", or "." for a single process */
	uint32_t pid, parent_pid;  /* parent_pid: the traced process it descends from, or 0 */
	uint64_t epoch_ns;         /* when it started (CLOCK_MONOTONIC) */
	int read;                  /* the process this handle reads */
};

/* sgr_open flags */
#define SGR_NO_VERIFY 1u   /* do not check payload checksums (headers are always checked) */
#define SGR_RELEASE   2u   /* drop each stream's pages from this process once the open has
			      walked it (the page cache keeps them; a later read maps them
			      again): a reader that then reads the streams one at a time, calling
			      sgr_release after each, keeps one stream resident, not the trace;
			      a compact chunk's span then holds until the next span of its
			      stream is read: one cursor on a stream at a time) */

/* Opens the trace in directory `dir`: a process's directory (it holds defs.sgd), or a trace
 * root holding one directory per process, of which it reads the main one: the first started
 * of the processes whose parent is not traced there (a series run's program). On success *out
 * owns it until sgr_close. On failure returns -errno and, when err is not NULL, writes a
 * message "PATH: reason" into err. */
int sgr_open(const char *dir, unsigned flags, struct sgr_trace **out, char *err, size_t errlen);
void sgr_close(struct sgr_trace *t);
/* Drops the pages of the stream at position pos (a thread's, or SGR_POS_SCHED) from this
 * process's memory: nothing read from it changes, a later read maps them again from the page
 * cache (or the file). For a reader done with a stream, to keep its resident memory below the
 * trace's size. */
void sgr_release(const struct sgr_trace *t, size_t pos);

const struct sgr_info *sgr_info(const struct sgr_trace *t);
/* The directory of the process read (dir itself, or dir/proc.<pid> under a root). */
const char *sgr_dir(const struct sgr_trace *t);
/* The processes of the trace, the one read among them (one entry for a single process). */
size_t sgr_n_processes(const struct sgr_trace *t);
const struct sgr_process *sgr_process(const struct sgr_trace *t, size_t i);
/* The sched stream's summary; read its records with sgr_cursor_init_sched / sgr_iter_init on
 * position SGR_POS_SCHED. */
const struct sgr_sched *sgr_sched(const struct sgr_trace *t);
#define SGR_POS_SCHED ((size_t)-2)
/* Ticks of the trace's clock at `ns` since the epoch (the inverse of sgr_ticks_to_ns), for
 * times of the sched stream; 0 before tick 0. */
static inline uint64_t sgr_ns_to_ticks(const struct sgr_info *info, int64_t ns)
{
	double t = ((double)ns - info->offset_ns) / info->ns_per_tick;
	return !(t > 0) ? 0 : t >= (double)SG_TICKS_MAX ? SG_TICKS_MAX : (uint64_t)(t + 0.5);
}

/* Converts a timestamp in ticks to ns since the trace's epoch, saturated to the range of an
 * int64_t (sgr_open rejects clock pairs that disagree with the others, but a damaged record's
 * ticks can still be anything up to 2^56). */
static inline int64_t sgr_ticks_to_ns(const struct sgr_info *info, uint64_t ticks)
{
	double t = info->offset_ns + (double)ticks * info->ns_per_tick;
	/* 2^63 is exact in a double; every double below it converts */
	if (t >= 9223372036854775808.0)
		return INT64_MAX;
	if (t <= -9223372036854775808.0)
		return INT64_MIN;
	return t == t ? (int64_t)t : 0;   /* NaN: 0 */
}

/* Problems found so far (damage, cut-short streams, ...), in the order found. The string
 * belongs to t. sgr_verify checks every payload now, so that the list is complete. */
size_t sgr_n_problems(struct sgr_trace *t);
const char *sgr_problem(struct sgr_trace *t, size_t i);
/* Checks every chunk payload not yet checked; returns the number of damaged chunks. */
uint64_t sgr_verify(struct sgr_trace *t);

/* Definitions, looked up by id (NULL when not defined); pointers belong to t. */
const struct sgr_function *sgr_function(const struct sgr_trace *t, uint32_t id);
const struct sgr_region *sgr_region(const struct sgr_trace *t, uint32_t id);
const struct sgr_object *sgr_object(const struct sgr_trace *t, uint32_t id);
const struct sgr_counter *sgr_counter(const struct sgr_trace *t, uint32_t id);
const struct sgr_site *sgr_site(const struct sgr_trace *t, uint32_t id);
/* All definitions of a kind, in id order. */
size_t sgr_n_functions(const struct sgr_trace *t);
const struct sgr_function *sgr_function_at(const struct sgr_trace *t, size_t i);
size_t sgr_n_regions(const struct sgr_trace *t);
const struct sgr_region *sgr_region_at(const struct sgr_trace *t, size_t i);
size_t sgr_n_objects(const struct sgr_trace *t);
const struct sgr_object *sgr_object_at(const struct sgr_trace *t, size_t i);
size_t sgr_n_counters(const struct sgr_trace *t);
const struct sgr_counter *sgr_counter_at(const struct sgr_trace *t, size_t i);
size_t sgr_n_sites(const struct sgr_trace *t);
const struct sgr_site *sgr_site_at(const struct sgr_trace *t, size_t i);

/* Threads, in index order: position 0..sgr_n_threads-1. The struct belongs to t. */
size_t sgr_n_threads(const struct sgr_trace *t);
const struct sgr_thread *sgr_thread(const struct sgr_trace *t, size_t pos);
/* Position of thread `index`, or -1. */
long sgr_thread_pos(const struct sgr_trace *t, uint32_t index);

/* Fast path: spans of checked raw records, one chunk at a time. */
struct sgr_span {
	const struct sg_event_rec *recs;
	size_t n;
	uint64_t seq;              /* the chunk's sequence number */
};

struct sgr_cursor {
	struct sgr_trace *t;
	size_t pos;                /* thread position */
	size_t chunk;              /* next chunk */
};

/* thread_pos SGR_POS_SCHED: the sched stream (its ticks are ns since the epoch). */
void sgr_cursor_init(struct sgr_cursor *c, struct sgr_trace *t, size_t thread_pos);
/* Sets *span to the next undamaged chunk; returns 1, or 0 at the end of the stream. */
int sgr_cursor_next(struct sgr_cursor *c, struct sgr_span *span);
/* Backward walk: sgr_cursor_init_end puts the cursor after the stream's last chunk, and
 * sgr_cursor_prev sets *span to the previous undamaged chunk (1), or returns 0 at the start. For
 * finding the last event of a kind without reading the whole stream. */
void sgr_cursor_init_end(struct sgr_cursor *c, struct sgr_trace *t, size_t thread_pos);
int sgr_cursor_prev(struct sgr_cursor *c, struct sgr_span *span);

/* Simple path: decoded events. */
struct sgr_event {
	int64_t t_ns;              /* ns since the epoch */
	uint64_t ticks;
	uint32_t thread;           /* thread index (SGF_SCHED_THREAD in the sched stream) */
	enum sg_ev_kind kind;      /* never SG_EV_VALUE: values are folded into the record before
				      (COUNTER, TASK_CPU, TASK_DELAY, SWITCH_LOST) */
	uint32_t id;
	uint32_t aux;
	int64_t value;             /* the folded value (sg_kind_has_value); else 0 */
};

struct sgr_iter {
	struct sgr_cursor cur;
	struct sgr_span span;
	size_t i;
	uint32_t thread;
};

void sgr_iter_init(struct sgr_iter *it, struct sgr_trace *t, size_t thread_pos);
/* Sets *ev to the next event; returns 1, or 0 at the end. */
int sgr_iter_next(struct sgr_iter *it, struct sgr_event *ev);

/* JSON strings, for every tool that writes JSON (sgr_json.c): s (NULL: "") as a JSON string
 * literal, quotes included, always valid UTF-8 — each byte of s that is not part of a
 * well-formed UTF-8 sequence becomes U+FFFD ("\ufffd"), '"' and '\\' are escaped, control
 * characters written "\u00XX" (docs/report-json.md "Strings"). sgr_json_quote writes into out,
 * which holds SGR_JSON_MAX(strlen(s)) bytes, and returns the length without the NUL;
 * sgr_json_fput writes to f and returns 0 or -EIO. */
#define SGR_JSON_MAX(len) (6 * (len) + 3)
size_t sgr_json_quote(char *out, const char *s);
int sgr_json_fput(FILE *f, const char *s);

#endif /* SGTRACE_READ_H */
