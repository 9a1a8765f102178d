/*
 * sgt_int.h — internals of the recorder (libsgtrace), shared by its files:
 *   sgt_env.c       strict parsing of the SG_* environment (docs/tracelib.md has the table)
 *   sgt_clock.c     clock choice (invariant TSC or CLOCK_MONOTONIC) and clock pairs
 *   sgt_registry.c  ids for functions, objects, regions, counters; the definitions file
 *   sgt_thread.c    per-thread state: buffers, chunks, flush, finish, object caches
 *   sgt_core.c      start/finish of the process, fatal signals, fork
 *   sgt_dir.c       the trace root, the process's directory and the files created in it
 *   sgt_obuf.c      the streams' open buffers (threads.sgo): the chunk being filled, the status
 *   sgt_wrap.c      the sg_pthread_* wrappers; sgt_probe.c the other recorders
 *   sgt_throttle.c  function probes under overhead control: the rule (SG_THROTTLE), the trace
 *                   budget (SG_TRACE_MAX), counting the calls no longer recorded
 * The hot path is sgt_rec_t below: a TLS load, a bounds check, rdtsc and three stores, and every
 * second record a stripe of the chunk checksum (sgt_hash.h); a function probe also updates its
 * function's per-thread slot (struct sgt_fn: a count, a sum of ticks, a depth). No locks or atomic
 * read-modify-writes; `pos` is published with a release store (a plain store on x86) so that a
 * fatal-signal handler on another thread flushes only whole records.
 */
#ifndef SGT_INT_H
#define SGT_INT_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define SGT_HAVE_TSC 1
#else
#define SGT_HAVE_TSC 0
#endif

#include "sgf_int.h"
#include "sgt_export.h"
#include "sgt_hash.h"
#define SGTRACE_LIBRARY 1   /* sgtrace.h: not the program's sg_func_outside_table */
#include "sgtrace.h"

/* Everything declared below is internal: hidden, so that the library reaches it directly
 * rather than through the GOT. */
#pragma GCC visibility push(hidden)

#define SGT_LIKELY(x) __builtin_expect(!!(x), 1)
#define SGT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- configuration (sgt_env.c) ---- */
struct sgt_config {
	int enabled;
	char dir[PATH_MAX - 96];   /* room left for "/proc.<pid>.<k>/thread.<N>.sgs" */
	const char *dir_var;       /* where dir came from: "SG_TRACE_DIR", "SG_TRACE_ROOT" or NULL
				      for the default ./sgtrace-<program>-<time>-<pid> */
	size_t buf_bytes;
	int counters_barrier;      /* SG_COUNTERS_BARRIER=1: sample counters at barrier episodes */
	int clock;                 /* SG_TRACE_CLOCK: 0 auto, else the enum sgf_clock asked for */
	uint64_t throttle_calls;   /* SG_THROTTLE: calls recorded before the rule looks; 0: off */
	uint64_t throttle_usec;    /* ... and the mean inclusive time under which it throttles */
	uint64_t trace_max;        /* SG_TRACE_MAX: bytes of thread streams; 0: unlimited */
	int compact;               /* SG_TRACE_COMPACT (default 1): chunks written compact */
	int verbose;               /* SG_VERBOSE=1: warnings on stderr too */
};

#define SGT_BUF_MIN ((size_t)4 << 10)
#define SGT_BUF_MAX ((size_t)1 << 30)
#define SGT_BUF_DEFAULT ((size_t)1 << 20)
/* The throttling rule's default: 100,000 calls of a function on one thread at under 5 us each
 * on average (docs/tracelib.md "Throttling and the trace budget" says why these numbers). */
#define SGT_THROTTLE_CALLS_DEFAULT 100000u
#define SGT_THROTTLE_USEC_DEFAULT 5u
/* SG_TRACE_MAX's default: 1 GiB of thread streams per process. */
#define SGT_TRACE_MAX_DEFAULT ((uint64_t)1 << 30)

/* The default trace root, ./sgtrace-<program>-<YYYYmmdd_HHMMSS>-<pid>: `exe` is the program's
 * path (its base name is kept, sanitised to [A-Za-z0-9._-] and cut to 48 bytes), `when` the
 * local time. Returns snprintf's count. */
int sgt_default_root(char *out, size_t len, const char *exe, time_t when, long pid);

/* Parses the environment through `get` (getenv, or a test's lookup). Returns 0, or -EINVAL
 * with one message ("sgtrace: error: ...; tracing is off") in err; cfg->enabled is then 0. */
int sgt_env_parse(char *(*get)(const char *name), struct sgt_config *cfg, char *err,
		  size_t errlen);

/* ---- process-wide state (sgt_core.c) ---- */
struct sgt_global {
	enum sgf_clock clock;
	volatile int func_fast;    /* function entries may take their fast path: the TSC clock
				      and the budget not spent (read by every entry) */
	volatile int func_stop;    /* the trace budget is spent: function probes stop */
	uint64_t epoch_tsc;        /* TSC at tick 0 (SGF_CLOCK_TSC) */
	uint64_t epoch_ns;         /* CLOCK_MONOTONIC at tick 0 */
	uint64_t epoch_real_ns;
	uint32_t pid, parent_pid;
	size_t buf_recs;           /* records per thread buffer */
	int counters_barrier;
	int started;               /* the trace directory exists */
	int fork_pending;          /* forked child: its trace is created on its first event */
	char root[PATH_MAX - 96];  /* the trace root (SG_TRACE_DIR): one directory per process */
	char dir[PATH_MAX];        /* this process's own: <root>/proc.<pid>[.<k>] */
	int rootfd, dirfd;         /* the two directories, opened once checked (-1: none) */
	int verbose;               /* SG_VERBOSE=1 */
	int compact;               /* SG_TRACE_COMPACT: write compact chunks (format 1.6) */
	uint64_t throttle_calls;   /* the rule (SG_THROTTLE): first look after this many calls, */
	uint64_t throttle_ns;      /* throttle when the mean inclusive time is under this; */
				   /* throttle_calls 0: the rule is off */
	uint64_t trace_max;        /* SG_TRACE_MAX, 0: no budget */
	uint64_t bytes;            /* bytes of thread-stream chunks written (atomic) */
	uint64_t budget_bytes;     /* `bytes` when the budget was crossed */
	int budget_said;           /* the TRACE_BUDGET record is written (atomic claim) */
};
extern struct sgt_global sgt_g;

/* Says a warning on stderr only with SG_VERBOSE=1: its facts are in the trace already. */
void sgt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* How the process's trace ends (sgt_core.c, sgt_core_end): at exit, or by the drain thread
 * as the process's last thread (SGT_END_EXIT); at _exit, _Exit or an exec, perhaps in a signal
 * handler (SGT_END_NOW: bounded waits, nothing freed). */
enum sgt_end { SGT_END_EXIT, SGT_END_NOW };
int sgt_core_end(enum sgt_end how, int keep_defs);
/* An exec that sgt_core_end ended the trace for failed with errno err: writes why tracing
 * stopped into the definitions and closes them; the process runs on untraced (sgt_end.c). */
void sgt_core_exec_failed(const char *what, int err);

/* ---- where the files go (sgt_dir.c) ---- */
/* Sets up the trace root `dir` (from `var`, NULL for the default
 * ./sgtrace-<program>-<time>-<pid>): the default is created fresh (a new name with .<k> appended
 * when that one exists, said with SG_VERBOSE=1); an explicit root is created, or accepted when it exists only as a real directory
 * owned by this user or a sticky one of root's. Sets sgt_g.root and sgt_g.rootfd. 0, or -errno
 * with one line "sgtrace: error: ...; tracing is off" in err. */
int sgt_root_open(const char *dir, const char *var, char *err, size_t errlen);
/* Creates this process's own trace directory <root>/proc.<pid> (proc.<pid>.2, .3, ... when a
 * directory of that name exists already: another process's trace is never written into), mode
 * 0700, opens it and checks it is the directory just made; sets sgt_g.dir and sgt_g.dirfd (a
 * forked child replaces its parent's). 0 or -errno. */
int sgt_proc_dir_make(void);
/* Creates file `name` in the process's directory: O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, plus
 * `flags` (O_WRONLY, O_RDWR, O_APPEND). A file descriptor or -errno. Async-signal-safe. */
int sgt_file_create(const char *name, int flags);

/* ---- a stream's open buffer (sgt_obuf.c, sgtrace_format.h: struct sgf_open_status) ---- */
struct sgt_obuf {
	struct sgf_open_status *st;       /* status block: in the file, else in memory */
	struct sgf_chunk_header *chunk;   /* header space, then the records (64-byte aligned) */
	void *map;                        /* the shared mapping (status, maybe chunk), or NULL */
	size_t map_bytes;
	size_t filled_bytes;              /* the part of the file written (stores go only there) */
	size_t n_recs, n_filled;          /* records the chunk holds; those that may be stored now */
	int grow_failed;
	void *mem;                        /* what was allocated in memory instead, or NULL */
	long slot;                        /* its slot of threads.sgo, -1: none */
	int fd;                           /* threads.sgo (kept by sgt_obuf.c), to grow the slot */
	size_t file_off;                  /* the slot's offset in it */
	char name[32];                    /* its own file (sched.sgo), "" when none */
	char stream[32];                  /* the stream it buffers, "thread.3.sgs" (messages) */
	int done;
};
/* Gives thread stream `stream` (thread `thread`) a buffer of n_recs records in a slot of the
 * process's threads.sgo when it can be had (a full disk: the status block alone, or nothing),
 * else in memory. 0 or -ENOMEM. */
int sgt_obuf_open_thread(struct sgt_obuf *b, const char *stream, uint32_t thread, size_t n_recs);
/* The same in a file of its own, `name`, written in full now (the sched stream). */
int sgt_obuf_open_file(struct sgt_obuf *b, const char *name, const char *stream, uint32_t thread,
		       size_t n_recs);
/* Writes more of the file (twice as much, up to the whole buffer) so that more records may be
 * stored; returns how many may be now (n_filled). Not async-signal-safe. */
size_t sgt_obuf_grow(struct sgt_obuf *b);
/* Marks the buffer's chunk open: chunk `seq` of the stream, no record before `ticks`. */
void sgt_obuf_open_mark(struct sgt_obuf *b, uint64_t seq, uint64_t ticks, uint64_t ns);
/* The stream's file failed with errno `err` after n_written events: notes it in the status
 * block and says so once per process on stderr. Async-signal-safe. */
void sgt_obuf_failed(struct sgt_obuf *b, int err, uint64_t n_written, uint64_t lost);
/* The stream ended cleanly (unless its status says why it failed): its slot is marked free, its
 * own file removed. Async-signal-safe; the mapping stays valid. */
void sgt_obuf_done(struct sgt_obuf *b);
/* Unmaps and frees the buffer (its slot goes to the next thread when done). Owner only. */
void sgt_obuf_free(struct sgt_obuf *b);
/* In a forked child: the mapping is not inherited (MADV_DONTFORK), forget it. */
void sgt_obuf_forget(struct sgt_obuf *b);
/* At the process's end (exit, fatal signal): removes threads.sgo when every stream ended
 * cleanly. Async-signal-safe. */
void sgt_obuf_process_end(void);
void sgt_obuf_atfork_prepare(void);
void sgt_obuf_atfork_parent(void);
void sgt_obuf_atfork_child(void);
/* Says once per process on stderr that file `name` could not be written (a full disk), and that
 * what would have gone into it is lost. Async-signal-safe. */
void sgt_say_write_failed(const char *name, int err);

/* ---- sched stream (sgt_sched.c): the process's context switches and per-thread CPU time and
 * run delay, written by the counter code's drain (collector/offcpu.c) into sched.sgs ---- */
int sgt_sched_open(void);
/* Appends records (ticks in ns since the epoch) to the sched stream; whole chunks are written
 * as the buffer fills. `in_signal`: from a fatal-signal handler (no lock is waited for). */
void sgt_sched_put(const struct sg_event_rec *recs, size_t n, int in_signal);
/* Writes what is buffered and the trailer, and closes the stream. */
void sgt_sched_close(int in_signal);

/* ---- clock (sgt_clock.c) ---- */
/* Chooses the clock (`want`: 0 for the invariant TSC where the CPU promises one, else
 * CLOCK_MONOTONIC; or an enum sgf_clock to force) and sets the epoch in sgt_g. */
void sgt_clock_init(int want);
/* Does this CPU have a TSC at all (x86)? */
static inline int sgt_clock_have_tsc(void)
{
	return SGT_HAVE_TSC;
}
/* A (ticks, CLOCK_MONOTONIC ns) pair taken now. Async-signal-safe. */
void sgt_clock_pair(uint64_t *ticks, uint64_t *ns);
uint64_t sgt_mono_ns(void);

static inline uint64_t sgt_ticks(void)
{
#if SGT_HAVE_TSC
	if (SGT_LIKELY(sgt_g.clock == SGF_CLOCK_TSC))
		return (__rdtsc() - sgt_g.epoch_tsc) & SG_TICKS_MAX;
#endif
	return (sgt_mono_ns() - sgt_g.epoch_ns) & SG_TICKS_MAX;
}

/* ---- per-thread state of function probes (sgt_throttle.c) ---- */
/* The calling thread's state of function id, one cache line, indexed by the function's id
 * (dense from 1); slot 0 stands for "not registered yet" and sends every probe to the slow
 * path. A recorded call touches the first four words; an unrecorded one n, depth and outer,
 * and 1 in SGT_TIME_EVERY of them the timing words. */
struct sgt_fn {
	uint64_t n;                /* calls (entries) of it on this thread so far */
	uint64_t lim;              /* an entry with n >= lim leaves the fast path: the rule's next
				      look (UINT64_MAX: never), 0 once throttled */
	int64_t sum;               /* sum of exit ticks minus sum of entry ticks, recorded calls */
	uint64_t depth;            /* calls open: recorded ones in bits 0..31, unrecorded ones
				      (nested inside them, LIFO) in bits 32..63 */
	uint64_t outer;            /* throttled: outermost unrecorded calls */
	uint64_t t0;               /* start of the timed outermost call open now (odd), 0: none */
	uint64_t t_timed;          /* inclusive ticks of the timed ones */
	uint64_t timed;            /* how many were timed */
};
#define SGT_DEPTH_UNREC (UINT64_C(1) << 32)
/* The first SGT_TIME_FIRST outermost unrecorded calls are timed, then one in SGT_TIME_EVERY
 * (a power of two): docs/tracelib.md. The first ones because a recursive function throttled in
 * the middle of a recursion has a few big outermost unrecorded calls (the subtrees under its
 * recorded calls), which a sample of 1 in 64 would miss. */
#define SGT_TIME_FIRST 64u
#define SGT_TIME_EVERY 64u

/* The cold part, written when the function is throttled and read when its counts are. */
struct sgt_fn_cold {
	uint32_t reason;           /* 0, SG_THROTTLE_RULE or SG_THROTTLE_BUDGET */
	uint32_t reserved;
	uint64_t n_rec;            /* calls recorded before it was throttled */
	int64_t sum_rec;           /* their sum of exit minus entry ticks then */
	uint64_t n_said;           /* n when its counts were last written */
};

/* Timing of an unrecorded call (sgt_throttle.c): start, and stop with the time added. */
void sgt_fn_time_start(struct sgt_fn *f) __attribute__((cold, noinline));
void sgt_fn_time_stop(struct sgt_fn *f) __attribute__((cold, noinline));

/* An entry of a throttled function: counted; an outermost one timed as said above. */
static inline void sgt_fn_unrec_enter(struct sgt_fn *f)
{
	f->n++;
	f->depth += SGT_DEPTH_UNREC;
	if ((f->depth >> 32) == 1) {
		uint64_t o = f->outer++;
		if (o < SGT_TIME_FIRST || (o & (SGT_TIME_EVERY - 1)) == 0)
			sgt_fn_time_start(f);
	}
}

/* The exit of an unrecorded call (depth >> 32 > 0); the outermost one stops its timing. */
static inline void sgt_fn_unrec_exit(struct sgt_fn *f)
{
	f->depth -= SGT_DEPTH_UNREC;
	if ((f->depth >> 32) == 0 && f->t0)
		sgt_fn_time_stop(f);
}

/* The function probes' fast path reads the TSC inline and leaves the clock_gettime clock to
 * its slow path: a call there would cost the fast path a stack frame. */
#if SGT_HAVE_TSC
#define SGT_FAST_CLOCK (sgt_g.clock == SGF_CLOCK_TSC)
static inline uint64_t sgt_tsc_ticks(void)
{
	return (__rdtsc() - sgt_g.epoch_tsc) & SG_TICKS_MAX;
}
#else
#define SGT_FAST_CLOCK 0
static inline uint64_t sgt_tsc_ticks(void)
{
	return 0;
}
#endif

/* ---- per-thread state (sgt_thread.c) ---- */
struct sgt_slot {
	uintptr_t key;             /* 0: empty */
	uint32_t id;
	uint32_t mode;             /* rwlock: mode of this thread's last acquisition */
	int64_t n;                 /* barrier: episodes so far; user counter: running total */
	const char *name;          /* regions and counters: the registry's copy of the name */
};

struct sgt_map {
	struct sgt_slot *slots;
	uint32_t mask;
	uint32_t used;
};

struct sgt_thread {
	struct sg_event_rec *pos;  /* next free record (hot) */
	struct sg_event_rec *end;  /* end of the buffer (hot) */
	struct sgt_fn *fns;        /* function probes' state by id (hot; sgt_throttle.c) */
	uint32_t n_fns;            /* its length (0: none yet) */
	uint32_t n_throttled;      /* functions throttled on this thread */
	uint64_t hv[4];            /* payload checksum of buf..pos, whole stripes (hot, sgt_hash.h) */
	uint32_t site_last;        /* the call site the stream's wait-begin events are at now: the
				      last SYNC_SITE written, SG_NO_ID before any (hot, sgt_wrap.c) */
	uintptr_t site_pc_last;    /* the return address whose site site_last is, 0: none (the
				      plain wrappers' fast path compares it; sgt_wrap.c) */
	struct sg_event_rec *buf;  /* 64-byte aligned */
	struct sgf_chunk_header *chunk;  /* header space right before buf: one write per chunk */
	struct sgt_obuf ob;        /* where chunk and buf are: a slot of threads.sgo, mapped shared */
	uint32_t index, parent;
	int fd;
	int io_lock;               /* taken around file writes (owner, exit, fatal signal) */
	int finished;              /* trailer written; under io_lock */
	int fork_reset;            /* forked child: restart as thread 0 of the child's trace */
	int in_lib;                /* recursion guard around registry calls */
	int in_notes;              /* writing its throttle notes (sgt_throttle_notes) */
	struct sgt_fn_cold *fn_cold;   /* the cold part of fns, same length */
	uint64_t seq, n_written, lost;
	uint64_t file_bytes;       /* bytes written to the stream file so far */
	uint64_t lost_written;     /* part of `lost` already in the trailer or a LOST definition */
	pid_t tid;
	int live;                  /* counted among the threads recording now (sgt_threads_live);
				      here, in the hole before objs: the hot fields keep their offsets */
	struct sgt_map objs;       /* sync objects: (address, kind) -> id, episodes */
	struct sgt_map names;      /* regions and user counters: name pointer -> id */
	struct sgt_thread *next;   /* all threads, for exit and fatal-signal flushing */
	unsigned char *cbuf;       /* where a chunk is compacted before it is written (format
				      1.6; sgt_chunk_compact), NULL: chunks go as they are */
	size_t cbuf_bytes;
};

extern __thread struct sgt_thread *sgt_self __attribute__((tls_model("initial-exec")));

/* Slow path of recording: starts the thread's state on its first event, or flushes a full
 * buffer so that `need` records fit. Returns the state, or NULL when nothing can be recorded
 * now (tracing off, thread finished, out of memory: counted as lost where possible). */
struct sgt_thread *sgt_slow(unsigned need);

static inline struct sgt_thread *sgt_me(void)
{
	struct sgt_thread *t = sgt_self;
	if (SGT_UNLIKELY(!t || t->fork_reset))
		t = sgt_slow(0);
	return t;
}

/* Adds the stripe that record r (stored as w0, w1) completes, if it completes one, to the
 * payload checksum: every second record, found from its address (sgt_hash.h). */
static inline void sgt_rec_hash(struct sgt_thread *t, struct sg_event_rec *r, uint64_t w0,
				uint64_t w1)
{
	if (((uintptr_t)(r + 1) & 31) == 0)
		sgt_hash_stripe(t->hv, r - 1, w0, w1);
}

/* Empties t's buffer: the next record goes to its start, with a new payload checksum. */
static inline void sgt_buf_restart(struct sgt_thread *t)
{
	sgt_hash_init(t->hv);
	__atomic_store_n(&t->pos, t->buf, __ATOMIC_RELEASE);
}

/* Stores one event at r, the calling thread's next free record, timestamped now. */
static inline void sgt_rec_put(struct sgt_thread *t, struct sg_event_rec *r, uint64_t ticks,
			       enum sg_ev_kind kind, uint32_t id, uint32_t aux)
{
	uint64_t w0 = sg_rec_w0(ticks, kind), w1 = sg_rec_w1(id, aux);
	/* w0 last: a process killed between the two stores leaves the record's old time, which
	 * the reader of an open chunk takes for its end (sgtrace_format.h, sgf_open_status) */
	r->w1 = w1;
	__atomic_store_n(&r->w0, w0, __ATOMIC_RELEASE);
	__atomic_store_n(&t->pos, r + 1, __ATOMIC_RELEASE);
	sgt_rec_hash(t, r, w0, w1);
}

/* sgt_rec_put with the clock_gettime fallback clock, out of line. */
void sgt_rec_put_ns(struct sgt_thread *t, struct sg_event_rec *r, enum sg_ev_kind kind,
		    uint32_t id, uint32_t aux) __attribute__((cold, noinline));

static inline void sgt_rec_store(struct sgt_thread *t, struct sg_event_rec *r,
				 enum sg_ev_kind kind, uint32_t id, uint32_t aux)
{
#if SGT_HAVE_TSC
	if (SGT_LIKELY(sgt_g.clock == SGF_CLOCK_TSC)) {
		sgt_rec_put(t, r, (__rdtsc() - sgt_g.epoch_tsc) & SG_TICKS_MAX, kind, id, aux);
		return;
	}
#endif
	sgt_rec_put_ns(t, r, kind, id, aux);
}

/* Records one event when the fast path cannot: no state yet, a full buffer, a forked child's
 * first event. Out of line and cold, so that the fast path below needs no stack frame. */
void sgt_rec_slow(enum sg_ev_kind kind, uint32_t id, uint32_t aux)
	__attribute__((cold, noinline));

/* Records one event on the calling thread `t` (from sgt_me). A forked child's state has
 * pos == end, so its first event takes the slow path too. */
static inline void sgt_rec_t(struct sgt_thread *t, enum sg_ev_kind kind, uint32_t id,
			     uint32_t aux)
{
	struct sg_event_rec *r = t->pos;
	if (SGT_UNLIKELY(r == t->end)) {
		sgt_rec_slow(kind, id, aux);
		return;
	}
	sgt_rec_store(t, r, kind, id, aux);
}

/* Records one event on the calling thread: a TLS load, a compare, rdtsc and three stores (and
 * every second event a checksum stripe). */
static inline void sgt_rec(enum sg_ev_kind kind, uint32_t id, uint32_t aux)
{
	struct sgt_thread *t = sgt_self;
	if (SGT_UNLIKELY(!t)) {
		sgt_rec_slow(kind, id, aux);
		return;
	}
	sgt_rec_t(t, kind, id, aux);
}

/* A wait-begin event is about to be recorded at call site sd (NULL: a plain wrapper, site not
 * known) whose id differs from t->site_last: registers the site on its first use and writes
 * SG_EV_SYNC_SITE (sgt_wrap.c). */
void sgt_site_change(struct sgt_thread *t, struct sg_site_desc *sd) __attribute__((cold, noinline));
/* The same for a plain wrapper called from return address pc that differs from
 * t->site_pc_last: finds (or registers, SITE_PC definition) the site of pc. */
void sgt_site_pc_change(struct sgt_thread *t, uintptr_t pc) __attribute__((cold, noinline));

/* Records SG_EV_COUNTER + SG_EV_VALUE in one chunk. */
void sgt_rec_value(struct sgt_thread *t, uint32_t counter, int64_t value);
/* Records `kind` (id, aux) + SG_EV_VALUE `value` in one chunk (kinds of sg_kind_has_value). */
void sgt_rec_kv(struct sgt_thread *t, enum sg_ev_kind kind, uint32_t id, uint32_t aux,
		int64_t value);

/* ---- throttling (sgt_throttle.c) ---- */
/* The slow paths of sg_func_enter_rec / sg_func_exit_rec: first call of a thread or of a
 * function, a full buffer, a throttled function, the rule's look, the budget. */
void sgt_func_enter_slow(struct sg_func_desc *fd) __attribute__((cold, noinline));
void sgt_func_exit_slow(struct sg_func_desc *fd) __attribute__((cold, noinline));
/* Writes the cumulative FUNC_UNRECORDED and FUNC_UNRECORDED_TIME of t's throttled functions
 * (with `all`, every one, room made as needed: before THREAD_END; without, only those whose
 * count changed, and only when they fit in what is left of the buffer: after a flush), and the
 * process's TRACE_BUDGET when the budget is spent and nobody wrote it yet. Owner only. */
void sgt_throttle_notes(struct sgt_thread *t, int all);
/* Counts `len` more bytes written to a thread stream against SG_TRACE_MAX. Async-signal-safe. */
void sgt_budget_add(uint64_t len);
/* Frees (or in a forked child, forgets the counts in) t's function states. */
void sgt_fns_reset(struct sgt_thread *t, int free_them);

/* Starts the calling thread's state with `index` (SG_NO_ID: assign one) and `parent`, and
 * records THREAD_BEGIN. NULL on failure. */
struct sgt_thread *sgt_thread_start(uint32_t index, uint32_t parent);
/* Finishes the calling thread: THREAD_END, last chunk, trailer; frees its buffer. */
void sgt_thread_finish(struct sgt_thread *t);
/* The same, freeing nothing (the process is about to end: _exit, an exec; sgt_core_end). */
void sgt_thread_finish_now(struct sgt_thread *t);
/* Writes the calling thread's buffer as a chunk now. */
void sgt_thread_flush(struct sgt_thread *t);
/* Finishes another thread's stream from outside (process exit, fatal signal): writes what it
 * has recorded so far and the trailer. `wait`: spin for its io lock (exit) or give up after a
 * bounded try (signal handler). Async-signal-safe. */
void sgt_thread_finish_foreign(struct sgt_thread *t, int wait);
/* Writes what t lost beyond lost_written as a LOST definition. Async-signal-safe. */
void sgt_thread_lost_report(struct sgt_thread *t);
/* Writes the lost events of threads that could not start recording (counted process-wide) as a
 * LOST definition of thread 0, and with `say` reports them once on stderr. Async-signal-safe
 * when !say. */
void sgt_thread_failed_report(int say);
/* The list of all thread states of this process (only grows). */
struct sgt_thread *sgt_thread_list(void);
void sgt_thread_list_add(struct sgt_thread *t);
/* In a forked child: forgets the parent's other threads and arms the restart of `self`. */
void sgt_thread_fork_child(struct sgt_thread *self);
/* pthread key whose destructor finishes threads not created through sg_pthread_create, and
 * every thread that ends with pthread_exit. */
int sgt_thread_key_init(void);
/* The process's initial thread ended through pthread_exit (the process lives on until its last
 * thread ends); the threads recording now. The drain thread asks both (collector/offcpu.c). */
int sgt_thread_main_exited(void);
/* Marks the calling thread as the process's initial one (a forked child's forking thread). */
void sgt_thread_main_mark(void);
unsigned sgt_threads_live(void);
extern __thread int sgt_thread_done __attribute__((tls_model("initial-exec")));

/* Per-thread map lookup: the slot of `key`, inserting it with id from `make` on a miss. */
struct sgt_slot *sgt_map_slow(struct sgt_map *m, uintptr_t key, uint32_t (*make)(uintptr_t key,
			      const void *arg), const void *arg);

static inline uint32_t sgt_map_hash(uintptr_t key, uint32_t mask)
{
	return (uint32_t)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}

/* The slot of `key` when it sits in its home slot (almost always: a thread's maps are small
 * and half empty), else NULL: the lookups' inline part. */
static inline struct sgt_slot *sgt_map_home(const struct sgt_map *m, uintptr_t key)
{
	if (SGT_LIKELY(m->slots != NULL)) {
		struct sgt_slot *s = &m->slots[sgt_map_hash(key, m->mask)];
		if (SGT_LIKELY(s->key == key))
			return s;
	}
	return NULL;
}

static inline struct sgt_slot *sgt_map_get(struct sgt_map *m, uintptr_t key,
					   uint32_t (*make)(uintptr_t key, const void *arg),
					   const void *arg)
{
	struct sgt_slot *s = sgt_map_home(m, key);
	return SGT_LIKELY(s != NULL) ? s : sgt_map_slow(m, key, make, arg);
}

/* sgt_object when the object is not in its home slot: probes further, or registers it. */
struct sgt_slot *sgt_object_slow(struct sgt_thread *t, uintptr_t key) __attribute__((noinline));

/* The slot of sync object `addr` of `kind` for thread t (NULL only when out of memory). Inline
 * up to the home slot, where a thread's few objects almost always are: a wrapper then makes no
 * call but the real pthread one. */
static inline struct sgt_slot *sgt_object(struct sgt_thread *t, const void *addr,
					  enum sg_obj_kind kind)
{
	uintptr_t key = ((uintptr_t)addr << 3) | (uintptr_t)kind;
	struct sgt_slot *s = sgt_map_home(&t->objs, key);
	return SGT_LIKELY(s != NULL) ? s : sgt_object_slow(t, key);
}

/* ---- registry (sgt_registry.c) ---- */
/* Opens the definitions file of sgt_g.dir (writing its header), replaying earlier definitions
 * when `replay` (forked child). 0 or -errno. */
int sgt_registry_open(int replay);
void sgt_registry_close(void);
uint32_t sgt_registry_next_index(void);
uint32_t sgt_registry_function(struct sg_func_desc *fd);
/* The descriptor of main (want_main) or of the start routine `start` when the program's
 * instrumenter probes it from outside its body (sgtrace.h SG_FUNC_OUTSIDE), or NULL. */
struct sg_func_desc *sgt_outside_find(void *(*start)(void *), int want_main);
/* The id of call site sd, registered (SITE definition written) on its first use. */
uint32_t sgt_registry_site(struct sg_site_desc *sd);
/* The id of the call site whose return address is pc (a plain wrapper's caller), registered
 * (SITE_PC definition: the address within its object, the object's path and build-id) on its
 * first use; SG_NO_ID when the table of such sites is full or the registry is busy on this
 * thread. Lock-free once registered. */
uint32_t sgt_registry_site_pc(uintptr_t pc);
uint32_t sgt_registry_object(const void *addr, enum sg_obj_kind kind);
uint32_t sgt_registry_region(const char *name, const char **stored);
uint32_t sgt_registry_counter(const char *name, const char *unit, enum sg_counter_origin origin,
			      const char *unavailable, const char **stored);
int sgt_registry_thread(uint32_t index, uint32_t parent, pid_t tid);
int sgt_registry_clock_pair(void);
/* The STOPPED definition (format 1.5): tracing stopped at `ticks` before the process ended,
 * because of `what` (an exec that failed with errno err after its trace was ended). `what` is
 * short (under 400 bytes): written from the stack. */
int sgt_registry_stopped(uint64_t ticks, int err, const char *what);
/* The SCHED definition: how this process's sched stream is recorded, or why it is not. */
int sgt_registry_sched(unsigned flags, unsigned n_cpus, const char *text);
/* Appends a LOST definition (thread `index` lost `n` more events): one write() to the
 * append-only definitions file, no lock, so async-signal-safe. 0 or -errno. */
int sgt_registry_lost(uint32_t index, uint64_t n);
void sgt_registry_counters_off(const char *reason);
/* Join table: pthread_t -> thread index. */
void sgt_registry_join_put(pthread_t th, uint32_t index);
uint32_t sgt_registry_join_take(pthread_t th);
void sgt_registry_atfork_prepare(void);
void sgt_registry_atfork_parent(void);
void sgt_registry_atfork_child(void);

#pragma GCC visibility pop

#endif /* SGT_INT_H */
