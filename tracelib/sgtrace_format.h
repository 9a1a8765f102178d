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
	SG_EV_KIND_COUNT
};

enum sg_lock_mode {
	SG_LOCK_MUTEX = 1,
	SG_LOCK_RWLOCK_READ = 2,
	SG_LOCK_RWLOCK_WRITE = 3,
	SG_LOCK_SPIN = 4,
};
#define SG_LOCK_TRY     0x100u          /* flag in aux: the lock was taken by a try-lock */
#define SG_LOCK_MODE(aux) ((aux) & 0xffu)

#define SG_NO_ID        0xffffffffu
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

#endif /* SGTRACE_FORMAT_H */
