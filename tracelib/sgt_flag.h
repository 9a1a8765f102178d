/*
 * sgt_flag.h — a flag lock: a word taken with an atomic exchange. Unlike a mutex it may be
 * tried from a signal handler (a fatal signal, the exit path) without waiting for ever; the
 * recorder's writers that a handler may interrupt (a thread's stream, the sched stream, the
 * drain of the switch records) use it.
 */
#ifndef SGT_FLAG_H
#define SGT_FLAG_H

#include <sched.h>

/* Takes *flag: with spins < 0 it waits, yielding the CPU between tries; else it tries spins + 1
 * times without yielding (in a signal handler) and returns 0 when the flag stayed taken. */
static inline int sgt_flag_trylock(int *flag, int spins)
{
	for (int i = 0; spins < 0 || i <= spins; i++) {
		if (!__atomic_exchange_n(flag, 1, __ATOMIC_ACQUIRE))
			return 1;
		if (spins < 0)
			sched_yield();
	}
	return 0;
}

static inline void sgt_flag_unlock(int *flag)
{
	__atomic_store_n(flag, 0, __ATOMIC_RELEASE);
}

#endif
