/*
 * sg_counters_int.h — the contract between libsgtrace and the counter code that samples
 * hardware/software counters per thread (collector/, linked into libsgtrace).
 *
 * libsgtrace calls these at the points DESIGN.md allows — never per event:
 *   sgc_process_init  once, after the trace directory exists (and again in a forked child)
 *   sgc_thread_begin  on the thread itself, right after its THREAD_BEGIN event
 *   sgc_sample        at region begin/end (and barrier episodes when SG_COUNTERS_BARRIER=1)
 *   sgc_thread_end    on the thread itself, right before its THREAD_END event
 * The counter code records through the two trace_counter_* functions libsgtrace provides.
 * All of these are internal (hidden visibility): not part of the exported sg_* API.
 */
#ifndef SG_COUNTERS_INT_H
#define SG_COUNTERS_INT_H

#include <stdint.h>

#include "sgtrace_format.h"   /* enum sg_counter_origin, SG_NO_ID */

/* Implemented by the counter code. Return 0 or a negative errno; a failure turns counters off,
 * never tracing. */
int sgc_process_init(void);
void sgc_thread_begin(void);
void sgc_sample(void);
void sgc_thread_end(void);

/* Implemented by libsgtrace. Defines a counter (once per process) and returns its id, or
 * SG_NO_ID on failure. `unavailable` is NULL for a working counter, else the reason it could not
 * be opened ("no hardware PMU (ENOENT)"): the definition is written so that reports can say
 * "unavailable" with the reason instead of showing zero. */
uint32_t trace_counter_define(const char *name, const char *unit, enum sg_counter_origin origin,
			      const char *unavailable);
/* Records a sample of counter `id` for the calling thread (an SG_EV_COUNTER + SG_EV_VALUE pair). */
void trace_counter_record(uint32_t id, int64_t value);
/* Implemented by libsgtrace. Records, once per process, that no counter could be set up at all
 * and why ("counters not built", "perf_event_open: EACCES"): reports then say "unavailable:
 * <reason>" for every counter. */
void trace_counters_unavailable(const char *reason);

#endif /* SG_COUNTERS_INT_H */
