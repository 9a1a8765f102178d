/*
 * export_int.h — what the two exporters share: the event walk (threads merged in time order,
 * begin/end pairs checked so that every format receives properly nested slices) and a small
 * integer hash map for id lookups on the per-event path.
 */
#ifndef EXPORT_INT_H
#define EXPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "export.h"

/*
 * The walk. Events of all threads come in time order (ties: lower thread position first); a
 * thread's timestamps never go back (a stray earlier one is raised to the previous one).
 * Events that open a slice (FUNC_ENTER, REGION_BEGIN, BARRIER_ARRIVE, LOCK_REQUEST,
 * COND_WAIT_BEGIN, SEM_WAIT_BEGIN, CREATE_BEGIN, JOIN_BEGIN) go to begin(); their ends
 * (FUNC_EXIT, REGION_END, BARRIER_LEAVE, LOCK_ACQUIRED or LOCK_FAILED, COND_WAIT_END,
 * SEM_WAIT_END, CREATE_END, JOIN_END) go to end() with the slice they close. An end that
 * matches an outer slice first closes the inner ones (repaired = 1, at the end's time); an end
 * that matches nothing is dropped, except LOCK_ACQUIRED, which is then a point (the
 * re-acquisition after a condition wait). THREAD_END and the end of a stream close what is
 * still open. Everything else goes to point().
 *
 * The sched stream (unless EXPORT_NO_SCHED) adds to each thread, by its OS tid:
 *   - off-CPU spans, from a SWITCH_OUT to the thread's next SWITCH_IN: begin() with a
 *     SWITCH_OUT event (id: tid, aux: CPU | SG_SWITCH_PREEMPTED, value: 1 when the span was
 *     fitted), end() with a SWITCH_IN event (aux: the CPU, or SG_NO_ID when cut). A thread
 *     records nothing while off its CPU, so a span lies between two of its events and is a
 *     leaf slice inside whatever is open. Where events of the thread's own fall inside a span
 *     all the same (the kernel's clock and the thread's disagree by a few µs: the burst just
 *     before it left or just after it came back lands inside), the slice is fitted: it becomes
 *     the longest stretch of the span between them. A span with more than a few dozen of its
 *     events inside, or without a switch-in, is cut at the first one. So the slice stack stays
 *     properly nested. Spans before the thread's first event or after its last are dropped
 *     (the thread is not in the trace then).
 *   - CPU samples: point() with TASK_CPU / TASK_DELAY events (id: tid, value: cumulative ns),
 *     never before the thread's first event (an earlier one is raised to it).
 * A callback returning non-zero stops the walk with that value.
 */
struct export_slice {
	enum sg_ev_kind begin;      /* the kind that opened it */
	uint32_t id, aux;           /* of the opening event */
	int64_t t_ns;               /* when it opened */
};

struct export_ops {
	int (*begin)(void *ctx, size_t pos, const struct sgr_event *ev);
	/* ev: the closing event; for a repaired slice a made-up one with the slice's id, kind
	 * FUNC_EXIT, REGION_END, BARRIER_LEAVE, LOCK_FAILED, COND_WAIT_END, SEM_WAIT_END,
	 * CREATE_END (id SG_NO_ID) or JOIN_END (id SG_NO_ID) and aux SG_NO_ID. */
	int (*end)(void *ctx, size_t pos, const struct export_slice *s, const struct sgr_event *ev,
		   int repaired);
	int (*point)(void *ctx, size_t pos, const struct sgr_event *ev);
};

/* Walks every readable event of t (st is cleared first and filled). flags: EXPORT_NO_SCHED or
 * 0. Returns 0, -ENOMEM, or what a callback returned. */
int export_walk(struct sgr_trace *t, const struct export_ops *ops, void *ctx, unsigned flags,
		struct export_stats *st);

/* What a semaphore wait's end says (SEM_WAIT_END aux): "taken", "busy" (EAGAIN: a trywait on
 * a zero semaphore), "timed out", "interrupted" (EINTR), else "error N" written into buf. */
const char *export_sem_result(uint32_t aux, char *buf, size_t len);

/* "thread 3 (tid 4711)", or "thread 3" when the OS thread id is unknown: how both formats
 * name a thread. */
void export_thread_name(const struct sgr_thread *th, char *out, size_t len);

/* Open-addressing map from 64-bit keys (never UINT64_MAX) to 32-bit values. Zero-initialise. */
struct export_map {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap, n;
};

/* The value of key, or NULL when absent. The pointer is valid until the next insertion. */
uint32_t *export_map_find(const struct export_map *m, uint64_t key);
/* The value of key, inserted as `init` when absent (*created set to 1 then, else 0); NULL when
 * out of memory. The pointer is valid until the next insertion. */
uint32_t *export_map_slot(struct export_map *m, uint64_t key, uint32_t init, int *created);
void export_map_free(struct export_map *m);

/* Keys of the per-kind id spaces of a trace. */
static inline uint64_t export_key(unsigned space, uint32_t id)
{
	return ((uint64_t)space << 32) | id;
}

#endif /* EXPORT_INT_H */
