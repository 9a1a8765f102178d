/*
 * sgt_flag.h — a flag lock: a word taken with an atomic exchange. Unlike a mutex it may be
 * tried from a signal handler (a fatal signal, the exit path) without waiting for ever; the
 * recorder's writers that a handler may interrupt (a thread's stream, the sched stream, the
 * drain of the switch records) use it. A thread with a deadline (sgt_flag_deadline) gives up at
 * it.
 */
#ifndef SGT_FLAG_H
#define SGT_FLAG_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/* A thread that finishes the trace from _exit, _Exit or an exec (sgt_core.c) may be a signal
 * handler's, interrupting the library inside one of these locks: on that thread a wait gives up
 * at this CLOCK_MONOTONIC time in ns (0, every other thread: it waits as long as it takes). */
extern __thread uint64_t sgt_flag_deadline __attribute__((tls_model("initial-exec")));

/* Has the calling thread's deadline passed? (Only ever asked after a wait.) */
static inline int sgt_flag_late(void)
{
	uint64_t d = sgt_flag_deadline;
	if (d == 0)
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec >= d;
}

/* Takes *flag: with spins < 0 it waits, yielding the CPU between tries (until the thread's
 * deadline, if it has one); else it tries spins + 1 times without yielding (in a signal
 * handler). Returns 0 when the flag stayed taken. */
static inline int sgt_flag_trylock(int *flag, int spins)
{
	for (int i = 0; spins < 0 || i <= spins; i++) {
		if (!__atomic_exchange_n(flag, 1, __ATOMIC_ACQUIRE))
			return 1;
		if (spins < 0) {
			sched_yield();
			if ((i & 63) == 63 && sgt_flag_late())
				return 0;
		}
	}
	return 0;
}

static inline void sgt_flag_unlock(int *flag)
{
	__atomic_store_n(flag, 0, __ATOMIC_RELEASE);
}

#endif
