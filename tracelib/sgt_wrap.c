/*
 * sgt_wrap.c — the sg_pthread_* wrappers of sgtrace.h. Each has the signature and return value
 * of the pthread function it wraps, calls it, and records around it:
 *   lock:     LOCK_REQUEST, then LOCK_ACQUIRED (or LOCK_FAILED: busy try-lock or error)
 *   unlock:   LOCK_RELEASE, recorded just before the real unlock (so it precedes any
 *             acquisition it allows)
 *   barrier:  BARRIER_ARRIVE and BARRIER_LEAVE with this thread's episode number (1, 2, ...)
 *   cond:     COND_WAIT_BEGIN(cond, aux = mutex id), LOCK_RELEASE(mutex); after the wait
 *             LOCK_ACQUIRED(mutex), COND_WAIT_END(cond, aux = return code)
 *   create:   CREATE_BEGIN, CREATE_END(child index, rc); the child records THREAD_BEGIN/END
 *   join:     JOIN_BEGIN(index), JOIN_END(index, rc)
 *   sem:      SEM_WAIT_BEGIN(aux: try/timed) and SEM_WAIT_END(0 | errno) around a wait,
 *             SEM_POST before a post, SEM_INIT(value) after sem_init
 * With tracing off (or in a thread that cannot record) a wrapper only calls the real function.
 *
 * Call sites: each wrapper that begins a wait (lock, try-lock, barrier, cond wait, sem wait,
 * join) is one always-inline body taking the site descriptor, expanded twice: NAME passes NULL
 * (site not known), NAME_at the instrumenter's descriptor. Just before the wait-begin event the
 * site's id is compared with the last one written on the thread's stream; only a change costs
 * more (sgt_site_change: the site's first registration, one SYNC_SITE record). A thread that
 * waits at the same place over and over pays the compare alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdlib.h>

#include "sg_counters_int.h"
#include "sgt_int.h"

/* The recording state of the calling thread, or NULL when nothing is to be recorded. */
static inline struct sgt_thread *tracing(void)
{
	return SGT_LIKELY(sg_trace_active) ? sgt_me() : NULL;
}

static inline uint32_t obj_id(struct sgt_thread *t, const volatile void *addr,
			      enum sg_obj_kind kind)
{
	struct sgt_slot *s = sgt_object(t, (const void *)(uintptr_t)addr, kind);
	return s ? s->id : SG_NO_ID;
}

#define SGT_INLINE static inline __attribute__((always_inline))

/* The plain wrapper's return address: the instruction after the user's call, which the reader
 * maps back to file:line through the program's line table (SITE_PC definitions). */
#define SG_RET_PC ((uintptr_t)__builtin_return_address(0))

/* Before a wait-begin event: the site it is made at, written when it is not the stream's current
 * one. NAME_at passes its descriptor sd and the id `site` it read (pc 0); the plain NAME passes
 * its return address pc (sd NULL), each expansion a constant branch away from the other. An
 * unregistered site's id 0 never equals site_last, and a pc never equals site_pc_last unless
 * site_last is that pc's site. */
SGT_INLINE void site_at(struct sgt_thread *t, struct sg_site_desc *sd, uint32_t site, uintptr_t pc)
{
	if (pc) {
		if (SGT_UNLIKELY(pc != t->site_pc_last))
			sgt_site_pc_change(t, pc);
	} else if (SGT_UNLIKELY(site != t->site_last)) {
		sgt_site_change(t, sd);
	}
}

static void site_write(struct sgt_thread *t, uint32_t id)
{
	if (id == t->site_last)
		return;
	t->site_last = id;
	sgt_rec_t(t, SG_EV_SYNC_SITE, id, 0);
}

void sgt_site_change(struct sgt_thread *t, struct sg_site_desc *sd)
{
	uint32_t id = SG_NO_ID;
	if (sd) {
		id = __atomic_load_n(&sd->id, __ATOMIC_ACQUIRE);
		if (id == 0)
			id = sgt_registry_site(sd);
	}
	t->site_pc_last = 0;
	site_write(t, id);   /* a refused registration (re-entered): still no known site */
}

void sgt_site_pc_change(struct sgt_thread *t, uintptr_t pc)
{
	uint32_t id = sgt_registry_site_pc(pc);
	if (id != SG_NO_ID)
		t->site_pc_last = pc;   /* else ask again next time (the registry was busy) */
	site_write(t, id);
}

/* The exported pair of a wrapper with a call site: NAME(params) and NAME_at(site, params), both
 * the inline body BODY(descriptor, its id, args). NAME_at reads the id here, so that the body's
 * fast path is one compare; its site is never NULL (the instrumenter passes its descriptor,
 * sgtrace.h says so). */
#define SITE_PAIR1(fn, body, t1)                                                  \
	SG_EXPORT int fn(t1 a1)                                                  \
	{                                                                        \
		return body(NULL, SG_NO_ID, SG_RET_PC, a1);                                 \
	}                                                                        \
	SG_EXPORT int fn##_at(struct sg_site_desc *sd, t1 a1)                    \
	{                                                                        \
		return body(sd, sd->id, 0, a1);                                     \
	}
#define SITE_PAIR2(fn, body, t1, t2)                                              \
	SG_EXPORT int fn(t1 a1, t2 a2)                                           \
	{                                                                        \
		return body(NULL, SG_NO_ID, SG_RET_PC, a1, a2);                             \
	}                                                                        \
	SG_EXPORT int fn##_at(struct sg_site_desc *sd, t1 a1, t2 a2)             \
	{                                                                        \
		return body(sd, sd->id, 0, a1, a2);                                 \
	}
#define SITE_PAIR3(fn, body, t1, t2, t3)                                          \
	SG_EXPORT int fn(t1 a1, t2 a2, t3 a3)                                    \
	{                                                                        \
		return body(NULL, SG_NO_ID, SG_RET_PC, a1, a2, a3);                         \
	}                                                                        \
	SG_EXPORT int fn##_at(struct sg_site_desc *sd, t1 a1, t2 a2, t3 a3)      \
	{                                                                        \
		return body(sd, sd->id, 0, a1, a2, a3);                             \
	}

/* lock -> REQUEST, real lock, ACQUIRED | FAILED; fn and fn_at */
#define LOCK_WRAPPER(fn, type, real, kind, aux)                                  \
	SGT_INLINE int fn##_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, type *l) \
	{                                                                        \
		struct sgt_thread *t = tracing();                                \
		if (!t)                                                          \
			return real(l);                                          \
		uint32_t id = obj_id(t, l, kind);                                \
		site_at(t, sd, site, pc);                                            \
		sgt_rec_t(t, SG_EV_LOCK_REQUEST, id, aux);                       \
		int rc = real(l);                                                \
		sgt_rec_t(t, rc ? SG_EV_LOCK_FAILED : SG_EV_LOCK_ACQUIRED, id, aux); \
		return rc;                                                       \
	}                                                                        \
	SITE_PAIR1(fn, fn##_body, type *)

/* unlock -> RELEASE, real unlock */
#define UNLOCK_WRAPPER(fn, type, real, kind, aux)                                \
	SG_EXPORT int fn(type *l)                                                \
	{                                                                        \
		struct sgt_thread *t = tracing();                                \
		if (t)                                                           \
			sgt_rec_t(t, SG_EV_LOCK_RELEASE, obj_id(t, l, kind), aux);  \
		return real(l);                                                  \
	}

LOCK_WRAPPER(sg_pthread_mutex_lock, pthread_mutex_t, pthread_mutex_lock, SG_OBJ_MUTEX,
	     SG_LOCK_MUTEX)
LOCK_WRAPPER(sg_pthread_mutex_trylock, pthread_mutex_t, pthread_mutex_trylock, SG_OBJ_MUTEX,
	     SG_LOCK_MUTEX | SG_LOCK_TRY)
UNLOCK_WRAPPER(sg_pthread_mutex_unlock, pthread_mutex_t, pthread_mutex_unlock, SG_OBJ_MUTEX,
	       SG_LOCK_MUTEX)
LOCK_WRAPPER(sg_pthread_spin_lock, pthread_spinlock_t, pthread_spin_lock, SG_OBJ_SPIN,
	     SG_LOCK_SPIN)
LOCK_WRAPPER(sg_pthread_spin_trylock, pthread_spinlock_t, pthread_spin_trylock, SG_OBJ_SPIN,
	     SG_LOCK_SPIN | SG_LOCK_TRY)
UNLOCK_WRAPPER(sg_pthread_spin_unlock, pthread_spinlock_t, pthread_spin_unlock, SG_OBJ_SPIN,
	       SG_LOCK_SPIN)

/* rwlock lock: as LOCK_WRAPPER, and remembers the mode for the unlock's RELEASE. */
SGT_INLINE int rwlock_wrap(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, pthread_rwlock_t *l,
			   int (*real)(pthread_rwlock_t *), uint32_t aux)
{
	struct sgt_thread *t = tracing();
	if (!t)
		return real(l);
	struct sgt_slot *s = sgt_object(t, l, SG_OBJ_RWLOCK);
	uint32_t id = s ? s->id : SG_NO_ID;
	site_at(t, sd, site, pc);
	sgt_rec_t(t, SG_EV_LOCK_REQUEST, id, aux);
	int rc = real(l);
	sgt_rec_t(t, rc ? SG_EV_LOCK_FAILED : SG_EV_LOCK_ACQUIRED, id, aux);
	if (rc == 0 && s)
		s->mode = SG_LOCK_MODE(aux);
	return rc;
}

#define RWLOCK_WRAPPER(fn, real, aux)                                            \
	SGT_INLINE int fn##_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc,         \
				 pthread_rwlock_t *l)                            \
	{                                                                        \
		return rwlock_wrap(sd, site, pc, l, real, aux);                      \
	}                                                                        \
	SITE_PAIR1(fn, fn##_body, pthread_rwlock_t *)

RWLOCK_WRAPPER(sg_pthread_rwlock_rdlock, pthread_rwlock_rdlock, SG_LOCK_RWLOCK_READ)
RWLOCK_WRAPPER(sg_pthread_rwlock_tryrdlock, pthread_rwlock_tryrdlock,
	       SG_LOCK_RWLOCK_READ | SG_LOCK_TRY)
RWLOCK_WRAPPER(sg_pthread_rwlock_wrlock, pthread_rwlock_wrlock, SG_LOCK_RWLOCK_WRITE)
RWLOCK_WRAPPER(sg_pthread_rwlock_trywrlock, pthread_rwlock_trywrlock,
	       SG_LOCK_RWLOCK_WRITE | SG_LOCK_TRY)

SG_EXPORT int sg_pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	struct sgt_thread *t = tracing();
	if (t) {
		struct sgt_slot *s = sgt_object(t, l, SG_OBJ_RWLOCK);
		uint32_t mode = s && s->mode ? s->mode : SG_LOCK_RWLOCK_READ;
		sgt_rec_t(t, SG_EV_LOCK_RELEASE, s ? s->id : SG_NO_ID, mode);
	}
	return pthread_rwlock_unlock(l);
}

SGT_INLINE int barrier_wait(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, pthread_barrier_t *b)
{
	struct sgt_thread *t = tracing();
	if (!t)
		return pthread_barrier_wait(b);
	struct sgt_slot *s = sgt_object(t, b, SG_OBJ_BARRIER);
	uint32_t id = s ? s->id : SG_NO_ID;
	uint32_t episode = s ? (uint32_t)++s->n : 0;
	if (sgt_g.counters_barrier)
		sgc_sample();
	site_at(t, sd, site, pc);
	sgt_rec_t(t, SG_EV_BARRIER_ARRIVE, id, episode);
	int rc = pthread_barrier_wait(b);
	sgt_rec_t(t, SG_EV_BARRIER_LEAVE, id, episode);
	if (sgt_g.counters_barrier)
		sgc_sample();
	return rc;
}

SITE_PAIR1(sg_pthread_barrier_wait, barrier_wait, pthread_barrier_t *)

/* cond wait: BEGIN + RELEASE(mutex), real wait, ACQUIRED(mutex) + END(rc) */
SGT_INLINE int cond_wrap(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, pthread_cond_t *c,
			 pthread_mutex_t *m, const struct timespec *abstime)
{
	struct sgt_thread *t = tracing();
	if (!t)
		return abstime ? pthread_cond_timedwait(c, m, abstime) : pthread_cond_wait(c, m);
	uint32_t cid = obj_id(t, c, SG_OBJ_COND);
	uint32_t mid = obj_id(t, m, SG_OBJ_MUTEX);
	site_at(t, sd, site, pc);
	sgt_rec_t(t, SG_EV_COND_WAIT_BEGIN, cid, mid);
	sgt_rec_t(t, SG_EV_LOCK_RELEASE, mid, SG_LOCK_MUTEX);
	int rc = abstime ? pthread_cond_timedwait(c, m, abstime) : pthread_cond_wait(c, m);
	sgt_rec_t(t, SG_EV_LOCK_ACQUIRED, mid, SG_LOCK_MUTEX);
	sgt_rec_t(t, SG_EV_COND_WAIT_END, cid, (uint32_t)rc);
	return rc;
}

SGT_INLINE int cond_wait(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, pthread_cond_t *c,
			 pthread_mutex_t *m)
{
	return cond_wrap(sd, site, pc, c, m, NULL);
}

SITE_PAIR2(sg_pthread_cond_wait, cond_wait, pthread_cond_t *, pthread_mutex_t *)
SITE_PAIR3(sg_pthread_cond_timedwait, cond_wrap, pthread_cond_t *, pthread_mutex_t *,
	   const struct timespec *)

SG_EXPORT int sg_pthread_cond_signal(pthread_cond_t *c)
{
	struct sgt_thread *t = tracing();
	if (t)
		sgt_rec_t(t, SG_EV_COND_SIGNAL, obj_id(t, c, SG_OBJ_COND), 0);
	return pthread_cond_signal(c);
}

SG_EXPORT int sg_pthread_cond_broadcast(pthread_cond_t *c)
{
	struct sgt_thread *t = tracing();
	if (t)
		sgt_rec_t(t, SG_EV_COND_BROADCAST, obj_id(t, c, SG_OBJ_COND), 0);
	return pthread_cond_broadcast(c);
}

struct trampoline {
	void *(*start)(void *);
	void *arg;
	uint32_t index, parent;
	struct sg_func_desc *fd;   /* the start routine's, when probed from here, or NULL */
};

/* The child's first frame: THREAD_BEGIN with the index its parent chose, the start routine's
 * FUNC_ENTER when the instrumenter left its probes to us (SG_FUNC_OUTSIDE), the user's start
 * routine, its FUNC_EXIT, THREAD_END and the last flush. pthread_exit and cancellation skip the
 * exit and the end, as they skip a probe's cleanup in the body: the thread-key destructor
 * finishes those threads instead. */
static void *trampoline_run(void *p)
{
	struct trampoline tr = *(struct trampoline *)p;
	free(p);
	sgt_thread_start(tr.index, tr.parent);
	int entered = tr.fd && sg_trace_active;
	if (entered)
		sg_func_enter_rec(tr.fd);
	void *ret = tr.start(tr.arg);
	if (entered)
		sg_func_exit_rec(tr.fd);
	struct sgt_thread *t = sgt_self;
	if (t)
		sgt_thread_finish(t);
	return ret;
}

SG_EXPORT int sg_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
				void *(*start)(void *), void *arg)
{
	struct sgt_thread *t = tracing();
	struct trampoline *tr = t ? malloc(sizeof *tr) : NULL;
	if (!tr)
		return pthread_create(thread, attr, start, arg);
	*tr = (struct trampoline){ start, arg, sgt_registry_next_index(), t->index,
				    sgt_outside_find(start, 0) };
	uint32_t index = tr->index;
	sgt_rec_t(t, SG_EV_CREATE_BEGIN, SG_NO_ID, 0);
	int rc = pthread_create(thread, attr, trampoline_run, tr);
	if (rc) {
		free(tr);
		sgt_rec_t(t, SG_EV_CREATE_END, SG_NO_ID, (uint32_t)rc);
		return rc;
	}
	sgt_registry_join_put(*thread, index);
	sgt_rec_t(t, SG_EV_CREATE_END, index, 0);
	return rc;
}

SGT_INLINE int join(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, pthread_t thread, void **retval)
{
	struct sgt_thread *t = tracing();
	if (!t)
		return pthread_join(thread, retval);
	uint32_t index = sgt_registry_join_take(thread);
	site_at(t, sd, site, pc);
	sgt_rec_t(t, SG_EV_JOIN_BEGIN, index, 0);
	int rc = pthread_join(thread, retval);
	sgt_rec_t(t, SG_EV_JOIN_END, index, (uint32_t)rc);
	if (rc && index != SG_NO_ID)
		sgt_registry_join_put(thread, index);
	return rc;
}

SITE_PAIR2(sg_pthread_join, join, pthread_t, void **)

/* ---- POSIX semaphores ---- */

/* The calling thread's state and the semaphore's id, or NULL when nothing is recorded. */
static inline struct sgt_thread *sem_tracing(sem_t *s, uint32_t *id)
{
	struct sgt_thread *t = tracing();
	if (t)
		*id = obj_id(t, s, SG_OBJ_SEM);
	return t;
}

/* A wait at site sd: SEM_WAIT_BEGIN(aux), the real call (rc 0 or -1 with errno),
 * SEM_WAIT_END(0 | errno). errno is the real call's after recording. */
#define SEM_WAIT_RECORD(t, sd, site, id, aux, call)                              \
	do {                                                                     \
		site_at(t, sd, site, pc);                                            \
		sgt_rec_t(t, SG_EV_SEM_WAIT_BEGIN, id, aux);                     \
		int rc_ = (call);                                                \
		int err_ = rc_ ? errno : 0;                                      \
		sgt_rec_t(t, SG_EV_SEM_WAIT_END, id, (uint32_t)err_);            \
		errno = err_ ? err_ : errno;                                     \
		return rc_;                                                      \
	} while (0)

SGT_INLINE int sem_wait_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, sem_t *s)
{
	uint32_t id;
	struct sgt_thread *t = sem_tracing(s, &id);
	if (!t)
		return sem_wait(s);
	SEM_WAIT_RECORD(t, sd, site, id, 0, sem_wait(s));
}

SGT_INLINE int sem_trywait_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, sem_t *s)
{
	uint32_t id;
	struct sgt_thread *t = sem_tracing(s, &id);
	if (!t)
		return sem_trywait(s);
	SEM_WAIT_RECORD(t, sd, site, id, SG_SEM_TRY, sem_trywait(s));
}

SGT_INLINE int sem_timedwait_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, sem_t *s,
				  const struct timespec *abstime)
{
	uint32_t id;
	struct sgt_thread *t = sem_tracing(s, &id);
	if (!t)
		return sem_timedwait(s, abstime);
	SEM_WAIT_RECORD(t, sd, site, id, SG_SEM_TIMED, sem_timedwait(s, abstime));
}

SITE_PAIR1(sg_sem_wait, sem_wait_body, sem_t *)
SITE_PAIR1(sg_sem_trywait, sem_trywait_body, sem_t *)
SITE_PAIR2(sg_sem_timedwait, sem_timedwait_body, sem_t *, const struct timespec *)

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))
SGT_INLINE int sem_clockwait_body(struct sg_site_desc *sd, uint32_t site, uintptr_t pc, sem_t *s,
				  clockid_t clock, const struct timespec *abstime)
{
	uint32_t id;
	struct sgt_thread *t = sem_tracing(s, &id);
	if (!t)
		return sem_clockwait(s, clock, abstime);
	SEM_WAIT_RECORD(t, sd, site, id, SG_SEM_TIMED, sem_clockwait(s, clock, abstime));
}

SITE_PAIR3(sg_sem_clockwait, sem_clockwait_body, sem_t *, clockid_t, const struct timespec *)
#endif

/* SEM_POST before the real post, so that it precedes the wait it lets through. */
SG_EXPORT int sg_sem_post(sem_t *s)
{
	uint32_t id;
	struct sgt_thread *t = sem_tracing(s, &id);
	if (t)
		sgt_rec_t(t, SG_EV_SEM_POST, id, 0);
	return sem_post(s);
}

SG_EXPORT int sg_sem_init(sem_t *s, int pshared, unsigned int value)
{
	int rc = sem_init(s, pshared, value);
	uint32_t id;
	struct sgt_thread *t;
	if (rc == 0 && (t = sem_tracing(s, &id)) != NULL) {
		int err = errno;
		sgt_rec_t(t, SG_EV_SEM_INIT, id, value);
		errno = err;
	}
	return rc;
}

/* sem_open(name, oflag) or sem_open(name, oflag | O_CREAT, mode, value): the value is recorded
 * only when O_EXCL guarantees that this call created the semaphore. */
SG_EXPORT sem_t *sg_sem_open(const char *name, int oflag, ...)
{
	unsigned int mode = 0, value = 0;
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		mode = va_arg(ap, unsigned int);
		value = va_arg(ap, unsigned int);
		va_end(ap);
	}
	sem_t *s = (oflag & O_CREAT) ? sem_open(name, oflag, (mode_t)mode, value)
				     : sem_open(name, oflag);
	uint32_t id;
	struct sgt_thread *t;
	if (s != SEM_FAILED && (oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) &&
	    (t = sem_tracing(s, &id)) != NULL) {
		int err = errno;
		sgt_rec_t(t, SG_EV_SEM_INIT, id, value);
		errno = err;
	}
	return s;
}
