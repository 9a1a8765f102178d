/*
 * sgtrace.h — the public interface of libsgtrace, the library linked into measured programs.
 *
 * Programs rarely include this by hand: `scalegraph cc` rewrites their pthread calls into the
 * sg_pthread_* wrappers below and adds sg_func_enter/exit probes. Every wrapper has the exact
 * signature and return value of the pthread function it wraps, records the synchronization
 * events of DESIGN.md, and calls the real function.
 *
 * The library starts itself (constructor) and finishes itself (destructor, thread exit, fatal
 * signals, _exit and exec through the wrappers below, the last thread of a process whose main
 * called pthread_exit). Environment, parsed strictly (a bad value is reported once on stderr and tracing is
 * turned off; the program itself runs on unchanged):
 *   SG_TRACE=0|1          0 disables recording (default 1)
 *   SG_TRACE_DIR=PATH     trace root (default ./sgtrace-<program>-<YYYYmmdd_HHMMSS>-<pid>)
 *   SG_TRACE_BUFFER=SIZE  per-thread buffer, bytes with optional K/M suffix (default 1M)
 *   SG_TRACE_CLOCK=auto|tsc|ns  timestamps: the invariant TSC where the CPU has one (auto,
 *                         default), forced TSC, or clock_gettime(CLOCK_MONOTONIC)
 *   SG_THROTTLE=CALLS,USEC|0|off  a function called CALLS times on a thread at a mean of under
 *                         USEC us is counted there from then on, not recorded (100000,5)
 *   SG_TRACE_MAX=SIZE     budget of the thread streams, K/M/G, 0: none (1G); reached, function
 *                         probes stop (counted), sync events never
 *   SG_VERBOSE=0|1        1: also say on stderr what the trace records anyway (0)
 * and SG_EVENTS, SG_SCHED, SG_COUNTERS_BARRIER: docs/tracelib.md has the table of all of
 * them, what each wrapper records and what it costs.
 *
 * Only sg_* symbols are exported. Nothing here ever calls exit() or prints on stdout; on
 * stderr only when tracing cannot be done (or with SG_VERBOSE=1). On an internal failure the
 * library turns itself off and counts the events it dropped.
 */
#ifndef SGTRACE_H
#define SGTRACE_H

/* Included into user code compiled with any -std: no C99-only syntax below, and the
 * instrumenter places the #include after the user's own feature macros and includes. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SGTRACE_VERSION_MAJOR 1
#define SGTRACE_VERSION_MINOR 3   /* 1: the _at wrappers and struct sg_site_desc; 2: the
				     wrappers of _exit, _Exit and the exec family; 3:
				     SG_FUNC_OUTSIDE, main and start routines probed from outside */

/* Non-zero while recording is on. Read by the inline probes below so that a disabled probe is
 * one predictable branch in the caller. Written only by the library. */
extern volatile int sg_trace_active;

/* One static descriptor per instrumented function, emitted by the instrumenter:
 *   static struct sg_func_desc sg_fd_main = { "main", "prog.c", 12, 0 };
 * `id` is 0 until the library registers the function on its first call. */
struct sg_func_desc {
	const char *name;
	const char *file;
	int line;
	volatile uint32_t id;
};

/* One static descriptor per call site of a synchronization call that begins a wait, emitted by
 * the instrumenter beside the call (docs/instrumenter.md "Call sites"):
 *   static struct sg_site_desc sg_site_3 = { "lu.c", 412, "daxpy_sweep", 0 };
 *   ... sg_pthread_barrier_wait_at(&sg_site_3, &b) ...
 * `func` is the enclosing function as written, "" outside any (a call in a macro body). `id` is
 * 0 until the library registers the site, on the first call made there that records, and
 * writes its SITE definition (docs/trace-format.md). */
struct sg_site_desc {
	const char *file;
	int line;
	const char *func;
	volatile uint32_t id;
};

/* Out-of-line recorders behind the inline probes; call the probes, not these. */
void sg_func_enter_rec(struct sg_func_desc *fd);
void sg_func_exit_rec(struct sg_func_desc *fd);
void sg_region_begin_rec(const char *name);
void sg_region_end_rec(const char *name);
void sg_counter_add_rec(const char *name, int64_t value);

/* main and the thread start routines, when the default rule selects them, are probed from
 * outside their bodies, so that their code (and the place of every function after them) is
 * the plain build's: the instrumenter writes, after the definition's closing brace,
 *   } SG_FUNC_OUTSIDE(main, "prog.c", 12, 1);
 * a descriptor in the section sg_probes, keyed by the function's address. The library finds
 * the program's through sg_func_outside_table (a weak definition in every file that includes
 * this header; the linker gives the bounds of the section) and records main's entry when the
 * trace starts (before main runs) and its exit when main returns (exit() on the thread that
 * entered it); a start routine's entry and exit in the pthread_create trampoline around its
 * call. is_main: 1 for main. */
struct sg_func_outside {
	void (*fn)(void);
	struct sg_func_desc *fd;
	unsigned long is_main;
	void (*rec)(struct sg_func_desc *);   /* sg_func_enter_rec: the reference that links
						 libsgtrace in, as a probe in the body did */
}
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((aligned(32)))   /* its size: the section is an array, never padded */
#endif
	;

struct sg_func_outside_table {
	struct sg_func_outside *begin, *end;
};

#if (defined(__GNUC__) || defined(__clang__)) && !defined(SGTRACE_LIBRARY)
extern struct sg_func_outside __start_sg_probes[] __attribute__((weak, visibility("hidden")));
extern struct sg_func_outside __stop_sg_probes[] __attribute__((weak, visibility("hidden")));
extern struct sg_func_outside_table sg_func_outside_table;
struct sg_func_outside_table sg_func_outside_table
	__attribute__((weak, visibility("default"))) = { __start_sg_probes, __stop_sg_probes };
#define SG_FUNC_OUTSIDE(fn, file, line, is_main) \
	static struct sg_func_desc sg_fdo_##fn = { #fn, file, line, 0 }; \
	static struct sg_func_outside sg_fo_##fn \
		__attribute__((used, section("sg_probes"))) = \
		{ (void (*)(void))(fn), &sg_fdo_##fn, is_main, sg_func_enter_rec }
#endif

/* Function entry and exit. Sync wrappers, regions and counters are always recorded; a function
 * probe may be throttled (SG_THROTTLE, SG_TRACE_MAX): its calls are then counted instead. */
static __inline__ void sg_func_enter(struct sg_func_desc *fd)
{
	if (__builtin_expect(sg_trace_active, 1))
		sg_func_enter_rec(fd);
}

static __inline__ void sg_func_exit(struct sg_func_desc *fd)
{
	if (__builtin_expect(sg_trace_active, 1))
		sg_func_exit_rec(fd);
}

/* Scope guard for function probes (GNU C cleanup attribute), used by the instrumenter so that
 * every path out of a function, including `return expr;` after expr is evaluated, records the
 * exit:
 *   struct sg_func_scope sg_scope __attribute__((cleanup(sg_func_scope_exit))) =
 *       sg_func_scope_enter(&sg_fd);
 * The exit is recorded only if the entry was. */
struct sg_func_scope {
	struct sg_func_desc *fd;
};

static __inline__ struct sg_func_scope sg_func_scope_enter(struct sg_func_desc *fd)
{
	struct sg_func_scope s = { 0 };
	if (__builtin_expect(sg_trace_active, 1)) {
		sg_func_enter_rec(fd);
		s.fd = fd;
	}
	return s;
}

static __inline__ void sg_func_scope_exit(struct sg_func_scope *s)
{
	if (s->fd)
		sg_func_exit_rec(s->fd);
}

/* A named region (e.g. the measured region that defines T_para). `name` is usually a string
 * literal; regions are identified by their text, so begin and end must use the same name. */
static __inline__ void sg_region_begin(const char *name)
{
	if (__builtin_expect(sg_trace_active, 1))
		sg_region_begin_rec(name);
}

static __inline__ void sg_region_end(const char *name)
{
	if (__builtin_expect(sg_trace_active, 1))
		sg_region_end_rec(name);
}

/* Adds `value` to the user counter `name` of the calling thread and records a sample of the
 * thread's running total. */
static __inline__ void sg_counter_add(const char *name, int64_t value)
{
	if (__builtin_expect(sg_trace_active, 1))
		sg_counter_add_rec(name, value);
}

/* Writes the calling thread's buffered events to its trace file now. */
void sg_trace_flush(void);

/* The trace directory of this process, or NULL when tracing is off. */
const char *sg_trace_dir(void);

/* Turns recording on (1) or off (0) at run time, e.g. around a set-up phase. Returns the
 * previous state, or -1 when tracing is off for the whole process (SG_TRACE=0, a bad
 * environment, a failed set-up): nothing changes then. */
int sg_trace_enable(int on);

/* The plain wrappers carry the attributes glibc gives the functions they replace (nonnull,
 * nothrow, leaf), so that a renamed call is compiled exactly as the original: the same null
 * checks dropped after it, the same values kept in registers across it (issue 21: a renamed
 * call must not change the code around it). */
#if defined(__GNUC__) || defined(__clang__)
#define SG_NN1_      __attribute__((__nonnull__(1)))
#define SG_NN12_     __attribute__((__nonnull__(1, 2)))
#define SG_NN13_     __attribute__((__nonnull__(1, 3)))
#define SG_NN123_    __attribute__((__nonnull__(1, 2, 3)))
#define SG_THROWNL_  __attribute__((__nothrow__))
#define SG_THROW_    __attribute__((__nothrow__, __leaf__))
#else
#define SG_NN1_
#define SG_NN12_
#define SG_NN13_
#define SG_NN123_
#define SG_THROWNL_
#define SG_THROW_
#endif

/* pthread wrappers: same signatures and return values as pthreads.
 *
 * Every wrapper whose call begins a wait (a lock or try-lock, a barrier wait, a condition wait,
 * a semaphore wait, a join) records where it was called from (SG_EV_SYNC_SITE; only when a
 * thread's site changes: an unchanged one costs a compare). The plain NAME takes the site from
 * its return address, resolved to file:line through the program's line table when the trace is
 * read (format 1.6): `scalegraph cc` calls these, so that a renamed call costs exactly the
 * bytes of the original and no function of the program changes size. NAME_at takes a static
 * descriptor as its first argument (never NULL): what `scalegraph cc` called before format
 * 1.6, kept for programs built then and for `scalegraph instrument --site-args`. */
SG_THROWNL_ SG_NN13_
int sg_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
		      void *(*start)(void *), void *arg);
int sg_pthread_join(pthread_t thread, void **retval);
int sg_pthread_join_at(struct sg_site_desc *site, pthread_t thread, void **retval);
SG_THROWNL_ SG_NN1_
int sg_pthread_mutex_lock(pthread_mutex_t *mutex);
int sg_pthread_mutex_lock_at(struct sg_site_desc *site, pthread_mutex_t *mutex);
SG_THROWNL_ SG_NN1_
int sg_pthread_mutex_trylock(pthread_mutex_t *mutex);
int sg_pthread_mutex_trylock_at(struct sg_site_desc *site, pthread_mutex_t *mutex);
SG_THROWNL_ SG_NN1_
int sg_pthread_mutex_unlock(pthread_mutex_t *mutex);
/* Barriers, spinlocks and rwlocks exist only under POSIX feature macros; declare their wrappers
 * when the program can see the types (glibc's __USE_* macros; any other libc: always). */
#if !defined(__GLIBC__) || defined(__USE_XOPEN2K)
SG_THROWNL_ SG_NN1_
int sg_pthread_barrier_wait(pthread_barrier_t *barrier);
int sg_pthread_barrier_wait_at(struct sg_site_desc *site, pthread_barrier_t *barrier);
SG_THROWNL_ SG_NN1_
int sg_pthread_spin_lock(pthread_spinlock_t *lock);
int sg_pthread_spin_lock_at(struct sg_site_desc *site, pthread_spinlock_t *lock);
SG_THROWNL_ SG_NN1_
int sg_pthread_spin_trylock(pthread_spinlock_t *lock);
int sg_pthread_spin_trylock_at(struct sg_site_desc *site, pthread_spinlock_t *lock);
SG_THROWNL_ SG_NN1_
int sg_pthread_spin_unlock(pthread_spinlock_t *lock);
#endif
#if !defined(__GLIBC__) || defined(__USE_UNIX98) || defined(__USE_XOPEN2K)
SG_THROWNL_ SG_NN1_
int sg_pthread_rwlock_rdlock(pthread_rwlock_t *rwlock);
int sg_pthread_rwlock_rdlock_at(struct sg_site_desc *site, pthread_rwlock_t *rwlock);
SG_THROWNL_ SG_NN1_
int sg_pthread_rwlock_tryrdlock(pthread_rwlock_t *rwlock);
int sg_pthread_rwlock_tryrdlock_at(struct sg_site_desc *site, pthread_rwlock_t *rwlock);
SG_THROWNL_ SG_NN1_
int sg_pthread_rwlock_wrlock(pthread_rwlock_t *rwlock);
int sg_pthread_rwlock_wrlock_at(struct sg_site_desc *site, pthread_rwlock_t *rwlock);
SG_THROWNL_ SG_NN1_
int sg_pthread_rwlock_trywrlock(pthread_rwlock_t *rwlock);
int sg_pthread_rwlock_trywrlock_at(struct sg_site_desc *site, pthread_rwlock_t *rwlock);
SG_THROWNL_ SG_NN1_
int sg_pthread_rwlock_unlock(pthread_rwlock_t *rwlock);
#endif
SG_NN12_
int sg_pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex);
int sg_pthread_cond_wait_at(struct sg_site_desc *site, pthread_cond_t *cond,
			    pthread_mutex_t *mutex);
SG_NN123_
int sg_pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
			      const struct timespec *abstime);
int sg_pthread_cond_timedwait_at(struct sg_site_desc *site, pthread_cond_t *cond,
				 pthread_mutex_t *mutex, const struct timespec *abstime);
SG_THROWNL_ SG_NN1_
int sg_pthread_cond_signal(pthread_cond_t *cond);
SG_THROWNL_ SG_NN1_
int sg_pthread_cond_broadcast(pthread_cond_t *cond);

/* POSIX semaphore wrappers: same signatures, return values and errno as the <semaphore.h>
 * functions. A wait records SEM_WAIT_BEGIN/END around the real call (END carries 0 or the
 * errno), a post SEM_POST before the real call, sem_init (and a sem_open that creates the
 * semaphore with O_EXCL) SEM_INIT with the initial value. */
SG_THROW_ SG_NN1_
int sg_sem_init(sem_t *sem, int pshared, unsigned int value);
SG_THROW_ SG_NN1_
sem_t *sg_sem_open(const char *name, int oflag, ...);
SG_NN1_
int sg_sem_wait(sem_t *sem);
int sg_sem_wait_at(struct sg_site_desc *site, sem_t *sem);
SG_THROWNL_ SG_NN1_
int sg_sem_trywait(sem_t *sem);
int sg_sem_trywait_at(struct sg_site_desc *site, sem_t *sem);
SG_THROWNL_ SG_NN1_
int sg_sem_post(sem_t *sem);
#if !defined(__GLIBC__) || defined(__USE_XOPEN2K)
SG_NN12_
int sg_sem_timedwait(sem_t *sem, const struct timespec *abstime);
int sg_sem_timedwait_at(struct sg_site_desc *site, sem_t *sem, const struct timespec *abstime);
#endif
#if defined(__GLIBC__) && defined(__USE_GNU) && \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 30))
SG_NN13_
int sg_sem_clockwait(sem_t *sem, clockid_t clock, const struct timespec *abstime);
int sg_sem_clockwait_at(struct sg_site_desc *site, sem_t *sem, clockid_t clock,
			const struct timespec *abstime);
#endif

/* Programs that end their own way (docs/tracelib.md "Life cycle"): _exit, _Exit and the exec
 * family never return through exit(), whose destructor finishes the trace. These wrappers
 * finish it first (every stream gets its trailer), then call the real function: same
 * signatures, return values and errno. A failed exec returns -1 as the real one does, and the
 * process runs on with tracing off, which its trace says (a STOPPED definition). Safe in a
 * signal handler, as the real functions are. The variadic ones take their argument list up to
 * the NULL as glibc's do. */
#if defined(__GNUC__) || defined(__clang__)
#define SG_NORETURN_ __attribute__((__noreturn__))
#define SG_SENTINEL_(n) __attribute__((__sentinel__(n)))
#else
#define SG_NORETURN_
#define SG_SENTINEL_(n)
#endif
void sg__exit(int status) SG_NORETURN_;
void sg__Exit(int status) SG_NORETURN_;
int sg_execve(const char *path, char *const argv[], char *const envp[]);
int sg_execv(const char *path, char *const argv[]);
int sg_execvp(const char *file, char *const argv[]);
int sg_execl(const char *path, const char *arg, ...) SG_SENTINEL_(0);
int sg_execlp(const char *file, const char *arg, ...) SG_SENTINEL_(0);
int sg_execle(const char *path, const char *arg, ...) SG_SENTINEL_(1);
#if !defined(__GLIBC__) || defined(__USE_GNU)
int sg_execvpe(const char *file, char *const argv[], char *const envp[]);
#endif
#if !defined(__GLIBC__) || defined(__USE_XOPEN2K8)
int sg_fexecve(int fd, char *const argv[], char *const envp[]);
#endif

/* Markers for hand-instrumented code: nothing at all unless compiled with -DSG_TRACE. */
#ifdef SG_TRACE
#define SG_REGION_BEGIN(name)     sg_region_begin(name)
#define SG_REGION_END(name)       sg_region_end(name)
#define SG_COUNTER_ADD(name, v)   sg_counter_add((name), (v))
#else
#define SG_REGION_BEGIN(name)     ((void)0)
#define SG_REGION_END(name)       ((void)0)
#define SG_COUNTER_ADD(name, v)   ((void)0)
#endif

#ifdef __cplusplus
}
#endif
#endif /* SGTRACE_H */
