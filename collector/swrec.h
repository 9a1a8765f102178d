/*
 * swrec.h — the kernel's context-switch records of this process's threads: one perf_event_open
 * software event per CPU (PERF_COUNT_SW_DUMMY with context_switch; sample_id_all: pid/tid,
 * time, CPU; use_clockid CLOCK_MONOTONIC), opened on the calling thread with `inherit` (and
 * `inherit_thread` where the kernel has it), so that every thread it creates afterwards is
 * recorded too, each record in the ring buffer of the CPU it happened on. Shared by the
 * off-CPU record of libsgtrace (offcpu.c) and `scalegraph calibrate` (the switch-in time).
 * Private to collector/ and libsgtrace; nothing here prints or allocates after swrec_open.
 */
#ifndef SWREC_H
#define SWREC_H

#include <stddef.h>
#include <stdint.h>

#define SWREC_MAX_CPUS 1024

struct swrec {
	int n;                           /* events open, one per CPU */
	int fd[SWREC_MAX_CPUS];
	unsigned char *map[SWREC_MAX_CPUS];
	size_t data_size;                /* bytes of each ring's data area (a power of 2) */
	size_t map_size;
	int inherit_thread;              /* forked processes are not recorded */
};

/* One record: a switch of thread tid (out: it left its CPU; preempted: still runnable), or
 * `lost` records the kernel dropped (tid 0). */
struct swrec_ev {
	uint32_t pid, tid, cpu;
	uint64_t time_ns;                /* CLOCK_MONOTONIC */
	int out, preempted;
	uint64_t lost;
};

/* Opens the events on the calling thread, with rings of up to 4 MiB per CPU (8 MiB over the
 * CPUs, at least 1 MiB each; less where the limits allow less). Returns 0, or -errno with what
 * failed ("perf_event_open", "mmap") in *what. */
int swrec_open(struct swrec *s, const char **what);
/* Unmaps and closes everything (in a forked child: forgets the parent's). */
void swrec_close(struct swrec *s);
/* Hands every record now in ring k to fn, in order, and frees their space. Async-signal-safe
 * when fn is. */
void swrec_drain_ring(struct swrec *s, int k, void (*fn)(const struct swrec_ev *ev, void *ud),
		      void *ud);

#endif /* SWREC_H */
