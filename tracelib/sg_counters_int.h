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

#include <stddef.h>

#include "sgtrace_format.h"   /* enum sg_counter_origin, SG_NO_ID, struct sg_event_rec */

/* Implemented by the counter code. Return 0 or a negative errno; a failure turns counters off,
 * never tracing. */
int sgc_process_init(void);
void sgc_thread_begin(void);
void sgc_sample(void);
void sgc_thread_end(void);

/* The off-CPU record (collector/offcpu.c): the kernel's context-switch records of this
 * process's threads and samples of each thread's CPU time and run delay, into the sched stream.
 *   sgc_sched_start       once after sgc_process_init (and in a forked child after its own):
 *                         opens the switch events and starts the drain thread, or defines the
 *                         sched stream as unavailable with the reason
 *   sgc_sched_sample_all  at region begin/end: CPU time and run delay of every traced thread
 *   sgc_sched_stop        at exit (in_signal 0) or in a fatal-signal handler (1): the last
 *                         records are drained and the stream closed
 *   sgc_sched_fork_child  in a forked child, before anything else: forget the parent's */
int sgc_sched_start(void);
void sgc_sched_sample_all(void);
void sgc_sched_stop(int in_signal);
void sgc_sched_fork_child(void);
/*   sgc_sched_wake        main has called pthread_exit and no thread records any more: the
 *                         drain thread looks whether it is the process's last thread, and if
 *                         so ends the trace (trace_process_end) and returns, so that the
 *                         process ends (glibc's last thread calls exit(0)). Async-signal-safe.
 * sgc_sched_stop called on the drain thread itself (trace_process_end) does not join it; on a
 * thread with a deadline (sgt_flag.h) it waits for the drain thread until then only. */
void sgc_sched_wake(void);

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

/* Implemented by libsgtrace: SG_VERBOSE=1 was given. A traced program is quiet: what the
 * counter code could not do goes into the trace (definitions above) and is said on stderr only
 * when this is non-zero (docs/tracelib.md "Messages"). */
int trace_verbose(void);

/* Implemented by libsgtrace, for the off-CPU record. */
/* Appends records (ticks: ns since the epoch) to the sched stream. Async-signal-safe with
 * in_signal (no lock is waited for). */
void trace_sched_put(const struct sg_event_rec *recs, size_t n, int in_signal);
/* The SCHED definition: flags SGF_SCHED_UNAVAILABLE and the reason, or how it is recorded. */
void trace_sched_define(unsigned flags, unsigned n_cpus, const char *text);
/* CLOCK_MONOTONIC ns at tick 0 of the trace; the process id the trace is written for. */
uint64_t trace_epoch_ns(void);
uint32_t trace_pid(void);
/* OS thread ids of the threads being traced now (at most max). */
size_t trace_thread_tids(int32_t *tids, size_t max);
/* The calling thread is never traced (the drain thread). */
void trace_thread_ignore(void);
/* Main has called pthread_exit and no thread records now (the drain thread may be the last). */
int trace_main_gone(void);
/* Ends the process's trace as the destructor does: called by the drain thread once it is the
 * process's last thread, before it returns (the process then ends through exit(0)). */
void trace_process_end(void);

#endif /* SG_COUNTERS_INT_H */
