/*
 * sgtrace_format.h — the event record shared by the writer (libsgtrace), the reader library and
 * every tool that reads traces. docs/trace-format.md describes the files byte by byte; this
 * header is the one place the record layout and the event kinds are defined in code.
 *
 * An event is 16 bytes, two little-endian 64-bit words:
 *   word0 = (ticks << 8) | kind      ticks: 56-bit timestamp in clock ticks since the trace's
 *                                    epoch (TSC ticks, or ns with the clock_gettime fallback)
 *   word1 = ((uint64_t)aux << 32) | id
 * A record of kind SG_EV_VALUE carries a full 64-bit word1 (a counter value) and belongs to the
 * record before it.
 */
#ifndef SGTRACE_FORMAT_H
#define SGTRACE_FORMAT_H

#include <stdint.h>

enum sg_ev_kind {
	SG_EV_NONE = 0,
	SG_EV_THREAD_BEGIN,   /* id: thread index, aux: parent thread index or SG_NO_ID */
	SG_EV_THREAD_END,     /* id: thread index */
	SG_EV_FUNC_ENTER,     /* id: function id */
	SG_EV_FUNC_EXIT,      /* id: function id */
	SG_EV_REGION_BEGIN,   /* id: region id */
	SG_EV_REGION_END,     /* id: region id */
	SG_EV_BARRIER_ARRIVE, /* id: barrier object id, aux: episode (this thread's n-th wait, 1..) */
	SG_EV_BARRIER_LEAVE,  /* id: barrier object id, aux: episode */
	SG_EV_LOCK_REQUEST,   /* id: lock object id, aux: enum sg_lock_mode | SG_LOCK_TRY */
	SG_EV_LOCK_ACQUIRED,  /* id, aux: as LOCK_REQUEST */
	SG_EV_LOCK_FAILED,    /* a try-lock that found the lock busy; id, aux as LOCK_REQUEST */
	SG_EV_LOCK_RELEASE,   /* id, aux: as LOCK_REQUEST */
	SG_EV_COND_WAIT_BEGIN,/* id: condition object id, aux: mutex object id */
	SG_EV_COND_WAIT_END,  /* id: condition object id, aux: return code (0, ETIMEDOUT, ...) */
	SG_EV_COND_SIGNAL,    /* id: condition object id */
	SG_EV_COND_BROADCAST, /* id: condition object id */
	SG_EV_CREATE_BEGIN,   /* id: SG_NO_ID */
	SG_EV_CREATE_END,     /* id: child thread index, aux: return code */
	SG_EV_JOIN_BEGIN,     /* id: joined thread index or SG_NO_ID when unknown */
	SG_EV_JOIN_END,       /* id: joined thread index or SG_NO_ID, aux: return code */
	SG_EV_COUNTER,        /* id: counter id; the next record (SG_EV_VALUE) holds the value */
	SG_EV_VALUE,          /* word1: int64 value of the record before */
	/* format 1.2: POSIX semaphores */
	SG_EV_SEM_WAIT_BEGIN, /* id: semaphore object id, aux: SG_SEM_TRY / SG_SEM_TIMED or 0 */
	SG_EV_SEM_WAIT_END,   /* id, aux: 0 taken, else the errno (EAGAIN, ETIMEDOUT, EINTR) */
	SG_EV_SEM_POST,       /* id, aux: 0, else the errno of a failed post */
	SG_EV_SEM_INIT,       /* id, aux: initial value (sem_init; sem_open that created it) */
	/* format 1.2: the process's sched stream (sched.sgs) only; id: OS thread id (tid) */
	SG_EV_SWITCH_OUT,     /* the thread left its CPU; aux: CPU | SG_SWITCH_PREEMPTED */
	SG_EV_SWITCH_IN,      /* the thread got a CPU; aux: CPU */
	SG_EV_TASK_CPU,       /* the next record (SG_EV_VALUE): the thread's on-CPU ns so far */
	SG_EV_TASK_DELAY,     /* the next record (SG_EV_VALUE): its run delay ns so far */
	SG_EV_SWITCH_LOST,    /* id 0; the next record (SG_EV_VALUE): switch records the kernel
				 dropped (its ring buffer was full) */
	/* format 1.3: function probes under overhead control (docs/tracelib.md "Throttling") */
	SG_EV_FUNC_THROTTLED, /* id: function id, aux: SG_THROTTLE_RULE or SG_THROTTLE_BUDGET; the
				 next record (SG_EV_VALUE): calls of it this thread recorded as
				 events before; from here on its calls on this thread are counted,
				 not recorded (an exit whose entry was recorded still is) */
	SG_EV_FUNC_UNRECORDED,/* id: function id; the next record (SG_EV_VALUE): calls of it this
				 thread made without recording them, so far (cumulative: the last
				 one in the stream counts) */
	SG_EV_FUNC_UNRECORDED_TIME, /* id: function id; the next record (SG_EV_VALUE): estimated
				 inclusive time of those calls, in ticks of the trace's clock
				 (cumulative, as above) */
	SG_EV_TRACE_BUDGET,   /* id 0, aux 0; the next record (SG_EV_VALUE): bytes of trace the
				 process had written when SG_TRACE_MAX stopped function probes */
	/* format 1.4: call sites of synchronization calls (docs/trace-format.md "Call sites") */
	SG_EV_SYNC_SITE,      /* id: site id (SGF_DEF_SITE), or SG_NO_ID: a call whose site is not
				 known (not renamed by the instrumenter, or called through a
				 pointer); aux 0. The thread's sync calls that begin a wait
				 (SG_EV_BARRIER_ARRIVE, LOCK_REQUEST, COND_WAIT_BEGIN,
				 SEM_WAIT_BEGIN, JOIN_BEGIN) from here on, with the events that
				 end them (leave, acquired or failed, and the release of that
				 hold; wait end; join end), were made at this site, until the next
				 SG_EV_SYNC_SITE of the stream. Written only when the site
				 changes, just before the wait-begin event it applies to; a stream
				 without any (format <= 1.3, or a program not instrumented) has
				 no known site. */
	SG_EV_KIND_COUNT
};

/* aux of SG_EV_SEM_WAIT_BEGIN */
#define SG_SEM_TRY      1u              /* sem_trywait */
#define SG_SEM_TIMED    2u              /* sem_timedwait, sem_clockwait */
/* aux of SG_EV_SWITCH_OUT: the thread was preempted (still runnable), not blocked */
#define SG_SWITCH_PREEMPTED 0x10000u
#define SG_SWITCH_CPU(aux) ((aux) & 0xffffu)

/* Does a record of this kind carry its value in the SG_EV_VALUE record after it? */
static inline int sg_kind_has_value(unsigned kind)
{
	return kind == SG_EV_COUNTER || kind == SG_EV_TASK_CPU || kind == SG_EV_TASK_DELAY ||
	       kind == SG_EV_SWITCH_LOST || kind == SG_EV_FUNC_THROTTLED ||
	       kind == SG_EV_FUNC_UNRECORDED || kind == SG_EV_FUNC_UNRECORDED_TIME ||
	       kind == SG_EV_TRACE_BUDGET;
}

/* aux of SG_EV_FUNC_THROTTLED: why the function's calls stopped being recorded */
#define SG_THROTTLE_RULE   1u           /* many short calls (SG_THROTTLE) */
#define SG_THROTTLE_BUDGET 2u           /* the trace reached SG_TRACE_MAX */

enum sg_lock_mode {
	SG_LOCK_MUTEX = 1,
	SG_LOCK_RWLOCK_READ = 2,
	SG_LOCK_RWLOCK_WRITE = 3,
	SG_LOCK_SPIN = 4,
};
#define SG_LOCK_TRY     0x100u          /* flag in aux: the lock was taken by a try-lock */
#define SG_LOCK_MODE(aux) ((aux) & 0xffu)

/* Short name of the lock mode in a lock event's aux ("mutex", "read", "write", "spin"), "?" for
 * an unknown one; the SG_LOCK_TRY flag is ignored. */
const char *sg_lock_mode_name(uint32_t aux);

#define SG_NO_ID        0xffffffffu
/* Every id a definition gives (function, region, object, counter) and every thread index is
 * below SG_ID_LIMIT: readers reject definitions and streams beyond it, so that a damaged file
 * cannot make a tool size a table by an id in the billions. Events may still carry any 32-bit
 * id (damage, or SG_NO_ID): look it up (sgr_function, ...) before using it as an index. */
#define SG_ID_LIMIT     (UINT32_C(1) << 24)
#define SG_TICKS_MAX    ((UINT64_C(1) << 56) - 1)

struct sg_event_rec {
	uint64_t w0;
	uint64_t w1;
};

_Static_assert(sizeof(struct sg_event_rec) == 16, "an event is 16 bytes");

static inline uint64_t sg_rec_w0(uint64_t ticks, enum sg_ev_kind kind)
{
	return (ticks << 8) | (uint64_t)kind;
}

static inline uint64_t sg_rec_w1(uint32_t id, uint32_t aux)
{
	return ((uint64_t)aux << 32) | id;
}

static inline enum sg_ev_kind sg_rec_kind(const struct sg_event_rec *r)
{
	return (enum sg_ev_kind)(r->w0 & 0xffu);
}

static inline uint64_t sg_rec_ticks(const struct sg_event_rec *r) { return r->w0 >> 8; }
static inline uint32_t sg_rec_id(const struct sg_event_rec *r) { return (uint32_t)r->w1; }
static inline uint32_t sg_rec_aux(const struct sg_event_rec *r) { return (uint32_t)(r->w1 >> 32); }

/* Short lower-case name of a kind ("barrier_arrive"), "?" for an unknown value. */
const char *sg_ev_kind_name(enum sg_ev_kind kind);

/* Kinds of synchronization objects (object definitions). */
enum sg_obj_kind {
	SG_OBJ_MUTEX = 1,
	SG_OBJ_RWLOCK = 2,
	SG_OBJ_SPIN = 3,
	SG_OBJ_BARRIER = 4,
	SG_OBJ_COND = 5,
	SG_OBJ_SEM = 6,          /* POSIX semaphore (format 1.2) */
};

enum sg_counter_origin {
	SG_COUNTER_HARDWARE = 1, /* perf_event hardware/PMU event */
	SG_COUNTER_SOFTWARE = 2, /* perf software event, or task-clock, context-switches and
				    page-faults from the kernel's per-thread accounting */
	SG_COUNTER_SCHED = 3,    /* /proc/self/task/TID/schedstat */
	SG_COUNTER_USER = 4,     /* sg_counter_add */
};

/* Short lower-case name of an object kind ("mutex"), "?" for an unknown value. */
const char *sg_obj_kind_name(enum sg_obj_kind kind);

/*
 * The files of a trace directory (docs/trace-format.md has the full description). All integers
 * are little-endian; every structure below is a multiple of 16 bytes so that event records in a
 * stream stay 16-byte aligned. Hashes are SGF_HASH (XXH64, seed 0) of the bytes named.
 *
 *   defs.sgd          definitions: struct sgf_file_header, then definition records
 *   thread.<N>.sgs    stream of thread N: struct sgf_file_header, then chunks
 *                     (struct sgf_chunk_header + n_recs event records, 16 bytes each or
 *                     compact: SGF_CHUNK_COMPACT), then struct sgf_trailer
 *   sched.sgs         the process's sched stream (format 1.2): context switches and
 *                     per-thread CPU time and run delay, ticks in ns (clock SGF_CLOCK_NS)
 *   fork.<pid>/       the complete trace of a child process forked by this one (format 1.1)
 * A trace root (format 1.2, SG_TRACE_DIR) holds one such directory per process, proc.<pid>/
 * (proc.<pid>.<k>/ when that name was taken), linked by the parent_pid of their headers.
 */
#define SGF_DEFS_NAME        "defs.sgd"
#define SGF_STREAM_FMT       "thread.%u.sgs"
#define SGF_SCHED_NAME       "sched.sgs"
#define SGF_SCHED_THREAD     0xfffffffeu     /* `thread` of the sched stream's headers */
#define SGF_PROC_PREFIX      "proc."
#define SGF_MAGIC_DEFS       "SGTDEFS\0"
#define SGF_MAGIC_STREAM     "SGTSTRM\0"
#define SGF_CHUNK_MAGIC      UINT32_C(0x4b434753)   /* "SGCK" */
#define SGF_TRAILER_MAGIC    UINT32_C(0x444e4547)   /* "GEND" */
#define SGF_VERSION_MAJOR    1
#define SGF_VERSION_MINOR    6

enum sgf_clock {
	SGF_CLOCK_TSC = 1,   /* ticks are TSC cycles since the epoch; convert with clock pairs */
	SGF_CLOCK_NS = 2,    /* ticks are CLOCK_MONOTONIC ns since the epoch */
};

/* First 64 bytes of defs.sgd and of every stream file. */
struct sgf_file_header {
	char magic[8];           /* SGF_MAGIC_DEFS or SGF_MAGIC_STREAM */
	uint16_t version_major;  /* a reader refuses a different major version */
	uint16_t version_minor;
	uint32_t clock;          /* enum sgf_clock */
	uint32_t pid;            /* process that wrote the trace */
	uint32_t parent_pid;     /* defs: pid of the process this one was forked from, else 0 */
	uint32_t thread;         /* stream: thread index; defs: SG_NO_ID */
	uint32_t reserved0;
	uint64_t epoch_ns;       /* CLOCK_MONOTONIC ns at tick 0 (the epoch clock pair) */
	uint64_t epoch_real_ns;  /* CLOCK_REALTIME ns at the epoch (for humans) */
	uint64_t reserved1;
	uint64_t hash;           /* of bytes 0..55 */
};

/* Header of a chunk of n_recs event records. */
struct sgf_chunk_header {
	uint32_t magic;          /* SGF_CHUNK_MAGIC */
	uint32_t thread;         /* thread index, as in the file header */
	uint64_t seq;            /* chunk sequence number in this stream, 0.. */
	uint32_t n_recs;         /* event records in the payload */
	uint32_t flags;          /* 0: the payload is n_recs 16-byte records; SGF_CHUNK_COMPACT */
	uint64_t pair_ticks;     /* clock pair taken at flush time: ticks ... */
	uint64_t pair_ns;        /* ... and CLOCK_MONOTONIC ns */
	uint64_t payload_hash;   /* of the payload: n_recs * 16 bytes, or payload_bytes */
	uint64_t payload_bytes;  /* compact chunks: the payload's length, a multiple of 16; else 0
				    (format <= 1.5: `reserved`, always 0) */
	uint64_t hash;           /* of bytes 0..55 of this header */
};

/*
 * Compact chunks (format 1.6, flags SGF_CHUNK_COMPACT): the payload is n_recs records encoded
 * one after the other, then zero bytes up to payload_bytes (a multiple of 16, so that the next
 * header stays 16-byte aligned). Each chunk decodes on its own: the "previous record" below
 * starts as ticks 0, id 0, aux 0 at every chunk. A record (docs/trace-format.md "Compact
 * chunks"):
 *   tag      1 byte: bits 0..5 the kind, 63 for a kind >= 63 (a byte with the kind follows);
 *            bit 6 (SGF_CT_SAME_ID): id as the previous record's, not written;
 *            bit 7 (SGF_CT_SAME_AUX): aux as the previous record's, not written
 *   [kind]   1 byte, only after tag kind 63
 *   dt       varint: (ticks - previous ticks) mod 2^56
 *   [id]     varint: (id + 1) mod 2^32, unless SGF_CT_SAME_ID
 *   [aux]    varint: (aux + 1) mod 2^32, unless SGF_CT_SAME_AUX
 * A varint is LEB128: 7 bits a byte, low bits first, bit 7 set on every byte but the last; at
 * most 8 bytes for dt, 5 for id and aux. The encoding knows nothing of the kinds: a VALUE
 * record's 64-bit word is its id (low half) and aux (high half) like any other.
 */
#define SGF_CHUNK_COMPACT    1u
#define SGF_CT_KIND_ESC      63u
#define SGF_CT_SAME_ID       0x40u
#define SGF_CT_SAME_AUX      0x80u
#define SGF_CT_REC_MAX       20u     /* bytes of one encoded record at most */

/* End of a stream, written when the thread finishes. A stream without it was cut short. */
struct sgf_trailer {
	uint32_t magic;          /* SGF_TRAILER_MAGIC */
	uint32_t thread;
	uint64_t n_chunks;       /* chunks written before the trailer */
	uint64_t n_recs;         /* records written in those chunks */
	uint64_t lost;           /* events this thread could not record */
	uint64_t pair_ticks;     /* a last clock pair */
	uint64_t pair_ns;
	uint64_t reserved;
	uint64_t hash;           /* of bytes 0..55 */
};

/* A definition record in defs.sgd: this 16-byte header, then `len` payload bytes, then zero
 * padding to a multiple of 8 bytes. *
 * hash = SGF_HASH(bytes 0..7 of this header) XOR SGF_HASH(padded payload). */
struct sgf_def_header {
	uint16_t type;           /* enum sgf_def_type */
	uint16_t reserved;
	uint32_t len;            /* payload bytes, without padding */
	uint64_t hash;           /* see above */
};

enum sgf_def_type {
	SGF_DEF_CLOCK = 1,        /* u64 ticks, u64 ns: a clock pair */
	SGF_DEF_THREAD = 2,       /* u32 index, u32 parent index (SG_NO_ID), i32 os tid, u32 0 */
	SGF_DEF_FUNCTION = 3,     /* u32 id, i32 line, name NUL, file NUL */
	SGF_DEF_REGION = 4,       /* u32 id, u32 0, name NUL */
	SGF_DEF_OBJECT = 5,       /* u32 id, u32 enum sg_obj_kind, u64 address */
	SGF_DEF_COUNTER = 6,      /* u32 id, u16 origin, u16 flags (1: unavailable), name NUL,
				     unit NUL, reason NUL (empty unless unavailable) */
	SGF_DEF_COUNTERS_OFF = 7, /* reason NUL: no counter could be set up in this process */
	SGF_DEF_LOST = 8,         /* u32 thread index, u32 0, u64 events lost (format 1.1): written
				     when a stream could not carry its trailer's count (the disk
				     was full) or lost events after its trailer; a reader adds it
				     to the trailer's count */
	SGF_DEF_SCHED = 9,        /* u32 flags (1: unavailable), u32 CPUs, text NUL (format 1.2):
				     how the sched stream was recorded, or why it could not be */
	SGF_DEF_SITE = 10,        /* u32 id, i32 line, function NUL, file NUL (format 1.4): a call
				     site of synchronization calls (SG_EV_SYNC_SITE); function is
				     the enclosing function as written in the source, "" outside
				     any (a macro body); file as the compiler was given it */
	SGF_DEF_STOPPED = 11,     /* u64 ticks, i32 errno, u32 0, text NUL (format 1.5): tracing
				     stopped at `ticks` before the process ended, and why: an exec
				     that failed after the trace was finished for it ("execve
				     /no/such/prog", errno ENOENT); what the process did afterwards
				     is not in the trace */
	SGF_DEF_SITE_PC = 12,     /* u32 id, u32 0, u64 address, object NUL, build-id NUL (format
				     1.6): a call site known by its return address (the plain
				     wrappers, which `scalegraph cc` calls since 1.6): `address` is
				     the return address minus the object's load bias, i.e. the
				     address in the object's own ELF numbering (what addr2line
				     takes); object is its path (the executable's /proc/self/exe);
				     build-id its NT_GNU_BUILD_ID in hex, "" when it has none.
				     Readers resolve it to file, line and function through the
				     object's line table; ids share SITE's id space */
};

/*
 * The open buffers of a process's streams (threads.sgo: a slot per thread; sched.sgo: one for
 * the sched stream): libsgtrace records a stream's next chunk into a shared mapping of its
 * slot, so that what a thread recorded is in the page cache even when the process is killed
 * with SIGKILL, and notes there why the stream stopped when its file could not be written (a
 * full disk). The files are removed when every stream ended normally. A slot: struct
 * sgf_open_status (64 bytes), a chunk header (64), then the records; the next slot starts
 * slot_bytes after it. The chunk header is SGF_OPEN_MAGIC while the chunk is being filled (seq:
 * the chunk it will be; pair_ticks: a tick count not after its first record), a sealed chunk
 * header while it is written to the stream. Only the status block may be written (the rest did
 * not fit on the disk); a slot of thread SG_NO_ID is free (its stream ended cleanly).
 */
#define SGF_THREADS_OPEN_NAME "threads.sgo"
#define SGF_SCHED_OPEN_NAME  "sched.sgo"
#define SGF_MAGIC_OPEN       "SGTOPEN\0"
#define SGF_OPEN_MAGIC       UINT32_C(0x4f434753)   /* "SGCO": a chunk still open */

struct sgf_open_status {
	char magic[8];           /* SGF_MAGIC_OPEN */
	uint32_t thread;         /* thread index, SGF_SCHED_THREAD for sched.sgo, SG_NO_ID: free */
	uint32_t write_errno;    /* 0, or the errno of the write that stopped the stream */
	uint64_t n_written;      /* events in the stream file when it stopped */
	uint64_t lost;           /* events the stream lost so far (kept up to date) */
	uint32_t n_open;         /* sched.sgo: records in the open chunk; thread streams: 0 (the
				    reader takes records while their ticks rise from pair_ticks) */
	uint32_t capacity;       /* records the open chunk can hold; 0: status block only */
	uint64_t epoch_ns;       /* as the stream's file header */
	uint64_t slot_bytes;     /* this slot's size in the file: the next one starts there */
	uint64_t reserved;
};

#define SGF_COUNTER_UNAVAILABLE 1u
#define SGF_SCHED_UNAVAILABLE 1u

_Static_assert(sizeof(struct sgf_file_header) == 64, "file header is 64 bytes");
_Static_assert(sizeof(struct sgf_chunk_header) == 64, "chunk header is 64 bytes");
_Static_assert(sizeof(struct sgf_trailer) == 64, "trailer is 64 bytes");
_Static_assert(sizeof(struct sgf_def_header) == 16, "definition header is 16 bytes");
_Static_assert(sizeof(struct sgf_open_status) == 64, "open status is 64 bytes");
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "scalegraph trace files are little-endian; this reader/writer assumes a little-endian host"
#endif

/* The checksum of every hashed part of a trace: XXH64 with seed 0 over `len` bytes, len a
 * multiple of 8 (identical to the reference XXH64 for such lengths). Detects every change
 * confined to one 8-byte word, hence every flipped byte. */
uint64_t sgf_hash(const void *data, uint64_t len);

#endif /* SGTRACE_FORMAT_H */
