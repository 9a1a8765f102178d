/*
 * ex_sgwrap.h — force-included (cc -include) to build a traced example by hand, before
 * `scalegraph cc` can do it: maps the program's pthread calls onto libsgtrace's sg_pthread_*
 * wrappers, exactly the renaming the instrumenter performs, and turns on the SG_REGION_*
 * markers. Function enter/exit probes are the instrumenter's job and are not added here.
 *
 * Included first, it pulls in <pthread.h> (through sgtrace.h) before defining the macros, so the
 * system declarations are not renamed.
 */
#ifndef EX_SGWRAP_H
#define EX_SGWRAP_H

#ifndef SG_TRACE
#define SG_TRACE 1
#endif
#include "sgtrace.h"

#define pthread_create sg_pthread_create
#define pthread_join sg_pthread_join
#define pthread_mutex_lock sg_pthread_mutex_lock
#define pthread_mutex_trylock sg_pthread_mutex_trylock
#define pthread_mutex_unlock sg_pthread_mutex_unlock
#define pthread_barrier_wait sg_pthread_barrier_wait
#define pthread_cond_wait sg_pthread_cond_wait
#define pthread_cond_timedwait sg_pthread_cond_timedwait
#define pthread_cond_signal sg_pthread_cond_signal
#define pthread_cond_broadcast sg_pthread_cond_broadcast

#endif /* EX_SGWRAP_H */
