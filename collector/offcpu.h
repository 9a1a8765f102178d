/*
 * offcpu.h — the off-CPU record's entry points for the counter code beside it in libsgtrace
 * (counters.c); its hooks for libsgtrace itself are sgc_sched_* in tracelib/sg_counters_int.h.
 * Private to collector/ and libsgtrace.
 */
#ifndef OFFCPU_H
#define OFFCPU_H

/* Once per process (and in a forked child), before the first thread sample. */
void offcpu_process_init(void);
/* A sample of the calling thread's CPU time and run delay into the sched stream (thread begin
 * and end). */
void offcpu_thread_sample(void);

#endif /* OFFCPU_H */
