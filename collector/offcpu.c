/*
 * offcpu.c — the off-CPU record of libsgtrace (hooks sgc_sched_* of tracelib/sg_counters_int.h):
 * when each traced thread left its CPU and got it back, and whether it left blocked or
 * preempted (still runnable), from the kernel's own context-switch records; plus samples of
 * each thread's CPU time and run delay (/proc/self/task/TID/schedstat) at thread begin and end
 * and at region boundaries. The analyzer splits every thread's time into on CPU, runnable and
 * blocked from these (docs/analyzer.md, "The time budget").
 *
 * How: the per-CPU context-switch events of swrec.h, opened on the main thread in the
 * constructor, inherited by every thread created later. Nothing happens per traced event; the
 * kernel writes 32 bytes per switch. A drain thread,
 * blocked in poll() until a ring is an eighth full, moves the records into the sched stream
 * (sched.sgs); the destructor and the fatal-signal handler drain the rest. The drain thread
 * is never traced and its own switches are dropped.
 *
 * It needs only the rights to observe one's own threads (perf_event_paranoid <= 2 with
 * exclude_kernel); where the kernel refuses, the trace says why in its SCHED definition and
 * reports say "unavailable" for what depends on it. SG_SCHED=0 turns it off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "offcpu.h"
#include "pmu_int.h"
#include "pmu_open.h"
#include "sg_counters_int.h"
#include "sgt_flag.h"
#include "sgtrace_format.h"
#include "swrec.h"

#define OC_BATCH 512                 /* records converted per trace_sched_put */

static struct {
	struct swrec sw;
	int wake_fd;                     /* eventfd: stop or wake the drain thread */
	pthread_t drain;
	int drain_started;
	int drain_ready;                 /* set by the drain thread once it runs its own code */
	sigset_t prog_mask;              /* the signal mask of the thread that started it */
	int lock;                        /* flag lock around draining */
	int wake_lock;                   /* flag lock around wake_fd's writes and its close */
	int stopping;
	int32_t drain_tid;
	uint32_t pid;
	uint64_t epoch_ns;
} oc = { .wake_fd = -1 };

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Ticks of the sched stream: ns since the trace's epoch. */
static uint64_t oc_ticks(uint64_t ns)
{
	uint64_t t = ns > oc.epoch_ns ? ns - oc.epoch_ns : 0;
	return t & SG_TICKS_MAX;
}

/* Appends a record carrying a value (TASK_CPU, TASK_DELAY, SWITCH_LOST) to recs at *n. */
static void put_value(struct sg_event_rec *recs, size_t *n, uint64_t ticks,
		      enum sg_ev_kind kind, uint32_t id, int64_t value)
{
	recs[*n].w0 = sg_rec_w0(ticks, kind);
	recs[*n].w1 = sg_rec_w1(id, 0);
	recs[*n + 1].w0 = sg_rec_w0(ticks, SG_EV_VALUE);
	recs[*n + 1].w1 = (uint64_t)value;
	*n += 2;
}

/* ---- schedstat samples ---- */

/* Reads /proc/self/task/TID/schedstat (tid 0: the calling thread). 0 or -errno. */
static int schedstat_read(int32_t tid, struct pmu_schedstat *s)
{
	char path[64], line[128];
	if (tid > 0)
		snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)tid);
	else
		snprintf(path, sizeof path, "/proc/thread-self/schedstat");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t k = pread(fd, line, sizeof line - 1, 0);
	int err = errno;
	close(fd);
	if (k <= 0)
		return k < 0 ? -err : -EIO;
	line[k] = '\0';
	return pmu_schedstat_parse(line, s);
}

/* The CPU-time clock of thread tid of this process (the kernel's MAKE_THREAD_CPUCLOCK with
 * CPUCLOCK_SCHED, as glibc's pthread_getcpuclockid makes it): unlike schedstat's first field it
 * includes the running thread's current slice. */
static clockid_t thread_cpu_clock(int32_t tid)
{
	return (clockid_t)((~(unsigned)tid << 3) | 6u);
}

/* A sample of thread tid's CPU time and run delay into recs (4 records). The sample's time
 * lies between two reads of schedstat that show the same number of switches in: a thread
 * preempted while it read /proc (some 10 us) would otherwise stamp a run delay read before the
 * preemption with a time after it, and the budget would see run delay where the switch
 * records show none (a -1.7 % closure on a 1 ms sequential run). A few tries, then the second
 * read as it is. */
static int sample_into(int32_t tid, int32_t self_tid, struct sg_event_rec *recs, size_t *n)
{
	struct pmu_schedstat a, b;
	struct timespec ts;
	int32_t which = tid == self_tid ? 0 : tid;
	uint64_t t = 0;
	int have_cpu = 0;
	if (schedstat_read(which, &a) < 0)
		return -1;
	for (int k = 0; k < 3; k++) {
		have_cpu = clock_gettime(tid == self_tid ? CLOCK_THREAD_CPUTIME_ID
							 : thread_cpu_clock(tid), &ts) == 0;
		t = oc_ticks(mono_ns());
		if (schedstat_read(which, &b) < 0)
			return -1;
		if (b.timeslices == a.timeslices && b.run_delay_ns == a.run_delay_ns)
			break;
		a = b;
	}
	if (have_cpu)
		a.run_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	put_value(recs, n, t, SG_EV_TASK_CPU, (uint32_t)tid, (int64_t)a.run_ns);
	put_value(recs, n, t, SG_EV_TASK_DELAY, (uint32_t)tid, (int64_t)a.run_delay_ns);
	return 0;
}

void offcpu_process_init(void)
{
	oc.pid = trace_pid();
	oc.epoch_ns = trace_epoch_ns();
}

void offcpu_thread_sample(void)
{
	if (oc.epoch_ns == 0)
		return;
	struct sg_event_rec recs[4];
	size_t n = 0;
	int32_t tid = (int32_t)syscall(SYS_gettid);
	if (sample_into(tid, tid, recs, &n) == 0)
		trace_sched_put(recs, n, 0);
}

void sgc_sched_sample_all(void)
{
	int32_t tids[256];
	struct sg_event_rec recs[4 * 64];
	if (oc.epoch_ns == 0)
		return;
	int32_t self = (int32_t)syscall(SYS_gettid);
	size_t n_t = trace_thread_tids(tids, sizeof tids / sizeof *tids), n = 0;
	for (size_t i = 0; i < n_t; i++) {
		if (n + 4 > sizeof recs / sizeof *recs) {
			trace_sched_put(recs, n, 0);
			n = 0;
		}
		sample_into(tids[i], self, recs, &n);
	}
	if (n)
		trace_sched_put(recs, n, 0);
}

/* ---- the ring buffers ---- */

/* A batch of converted records on its way into the sched stream. */
struct batch {
	struct sg_event_rec recs[OC_BATCH + 2];
	size_t n;
	int in_signal;
};

/* One kernel record into the batch: this process's threads only, never the drain thread. */
static void convert(const struct swrec_ev *ev, void *ud)
{
	struct batch *b = ud;
	if (ev->tid == 0) {
		put_value(b->recs, &b->n, oc_ticks(ev->time_ns ? ev->time_ns : mono_ns()),
			  SG_EV_SWITCH_LOST, 0, (int64_t)ev->lost);
	} else {
		if (ev->pid != oc.pid || (int32_t)ev->tid == oc.drain_tid)
			return;
		uint32_t aux = (ev->cpu & 0xffffu) | (ev->preempted ? SG_SWITCH_PREEMPTED : 0);
		b->recs[b->n].w0 = sg_rec_w0(oc_ticks(ev->time_ns), ev->out ? SG_EV_SWITCH_OUT
									    : SG_EV_SWITCH_IN);
		b->recs[b->n].w1 = sg_rec_w1(ev->tid, aux);
		b->n++;
	}
	if (b->n >= OC_BATCH) {
		trace_sched_put(b->recs, b->n, b->in_signal);
		b->n = 0;
	}
}

static void drain_all(int in_signal)
{
	if (!sgt_flag_trylock(&oc.lock, in_signal ? 100000 : -1))
		return;
	struct batch b;
	b.n = 0;
	b.in_signal = in_signal;
	for (int k = 0; k < oc.sw.n; k++)
		swrec_drain_ring(&oc.sw, k, convert, &b);
	if (b.n)
		trace_sched_put(b.recs, b.n, in_signal);
	sgt_flag_unlock(&oc.lock);
}

/* Is the calling thread (the drain thread) the only one of the process still running? The
 * others have left /proc/self/task, or are zombies: the initial thread after pthread_exit stays
 * one, as thread group leader, until the whole process ends. */
static int alone(void)
{
	char path[64], buf[512];
	int32_t self = (int32_t)syscall(SYS_gettid);
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int others = 0;
	if (!d)
		return 0;
	while (!others && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid <= 0 || tid == self)
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;   /* gone meanwhile */
		ssize_t k = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (k <= 0)
			continue;
		buf[k] = '\0';
		const char *p = strrchr(buf, ')');   /* "tid (comm) S ...": comm may hold ')' */
		if (p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X' && p[2] != 'x')
			others = 1;
	}
	closedir(d);
	return !others;
}

/* The drain thread: moves switch records into the sched stream whenever a ring is half full,
 * until stopped (sgc_sched_stop). Woken when main has called pthread_exit and the last thread
 * recording ended (sgc_sched_wake), it looks every few ms whether it is the last thread of the
 * process; then nothing else will end the trace (glibc ends such a process when its last
 * thread exits, and this one would never exit): it ends the trace itself, takes back the
 * program's signal mask (a SIGTERM sent meanwhile acts now) and returns, and glibc calls
 * exit(0) on it, which runs the program's atexit handlers and flushes its stdio, as its last
 * thread would have. docs/tracelib.md "Life cycle". */
static void *drain_main(void *arg)
{
	(void)arg;
	static struct pollfd pfd[SWREC_MAX_CPUS + 1];
	int n = oc.sw.n, wait_ms = -1, last = 0;
	trace_thread_ignore();
	oc.drain_tid = (int32_t)syscall(SYS_gettid);
	/* 15 bytes at most: a stuck process shows what this thread is (ps -L, top -H, gdb) */
	prctl(PR_SET_NAME, "sgtrace-drain", 0, 0, 0);
	for (int k = 0; k < n; k++)
		pfd[k] = (struct pollfd){ .fd = oc.sw.fd[k], .events = POLLIN };
	pfd[n] = (struct pollfd){ .fd = oc.wake_fd, .events = POLLIN };
	__atomic_store_n(&oc.drain_ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&oc.stopping, __ATOMIC_ACQUIRE)) {
		int r = poll(pfd, (nfds_t)n + 1, wait_ms);
		if (r < 0 && errno != EINTR)
			break;
		if (pfd[n].revents) {
			uint64_t v;
			if (read(oc.wake_fd, &v, sizeof v) < 0 && errno != EAGAIN)
				break;
		}
		if (__atomic_load_n(&oc.stopping, __ATOMIC_ACQUIRE))
			break;
		drain_all(0);
		if (!trace_main_gone()) {
			wait_ms = -1;
		} else if (alone()) {
			last = 1;
			break;
		} else {
			/* the threads that ended are on their way out, or others run untraced */
			wait_ms = wait_ms < 0 ? 1 : wait_ms < 32 ? wait_ms * 2 : 32;
		}
	}
	if (last) {
		trace_process_end();
		pthread_sigmask(SIG_SETMASK, &oc.prog_mask, NULL);
	}
	return NULL;
}

void sgc_sched_wake(void)
{
	uint64_t one = 1;
	if (!sgt_flag_trylock(&oc.wake_lock, -1))
		return;   /* past a deadline (sgt_flag.h): the process is ending anyway */
	if (oc.wake_fd >= 0 && !__atomic_load_n(&oc.stopping, __ATOMIC_ACQUIRE) &&
	    write(oc.wake_fd, &one, sizeof one) < 0) {
		/* the counter is full: the drain thread has a wake-up pending anyway */
	}
	sgt_flag_unlock(&oc.wake_lock);
}

/* ---- start and stop ---- */

static void close_all(void)
{
	swrec_close(&oc.sw);
	/* under wake_lock: a thread ending now (sgc_sched_wake) must not write into a descriptor
	 * number that something else may have been given meanwhile */
	sgt_flag_trylock(&oc.wake_lock, -1);
	if (oc.wake_fd >= 0)
		close(oc.wake_fd);
	oc.wake_fd = -1;
	sgt_flag_unlock(&oc.wake_lock);
}

static void unavailable(const char *what, int err)
{
	char reason[200], why[128];
	snprintf(reason, sizeof reason, "%s: %s", what,
		 pmu_unavailable_reason(-err, 0, pmu_paranoid(), why, sizeof why));
	trace_sched_define(SGF_SCHED_UNAVAILABLE, 0, reason);
}

/* Waits (1 s at most) until the drain thread runs drain_main. A thread being born may hold
 * locks that fork does not take: AddressSanitizer's allocator, for one, is locked while the
 * new thread sets itself up, and a program that forks at the top of main then had a child
 * whose own drain thread waited on that lock for ever (and the child's exit on its drain
 * thread). With this wait, the program's first instruction runs beside a drain thread that is
 * in poll(), holding nothing. */
static void drain_wait_ready(void)
{
	for (int i = 0; i < 20000 && !__atomic_load_n(&oc.drain_ready, __ATOMIC_ACQUIRE); i++)
		nanosleep(&(struct timespec){ .tv_nsec = 50000 }, NULL);
}

int sgc_sched_start(void)
{
	const char *env = secure_getenv("SG_SCHED");
	const char *what = "";
	offcpu_process_init();
	oc.drain_tid = -1;
	oc.stopping = 0;
	oc.drain_ready = 0;
	if (env && !strcmp(env, "0")) {
		trace_sched_define(SGF_SCHED_UNAVAILABLE, 0, "turned off (SG_SCHED=0)");
		return 0;
	}
	int rc = swrec_open(&oc.sw, &what);
	if (rc == 0) {
		oc.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (oc.wake_fd < 0) {
			rc = -errno;
			what = "eventfd";
		}
	}
	if (rc == 0) {
		/* the drain thread inherits a mask with every signal blocked: the program's
		 * signals go to its own threads */
		sigset_t all;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &oc.prog_mask);
		rc = -pthread_create(&oc.drain, NULL, drain_main, NULL);
		pthread_sigmask(SIG_SETMASK, &oc.prog_mask, NULL);
		if (rc == 0) {
			oc.drain_started = 1;
			drain_wait_ready();
		} else
			what = "the drain thread";
	}
	if (rc < 0) {
		close_all();
		unavailable(what, rc);
		return rc;
	}
	char text[200];
	snprintf(text, sizeof text, "kernel context-switch records (perf_event_open software "
		 "event, one per CPU, inherited by %s), %zu KiB ring per CPU",
		 oc.sw.inherit_thread ? "threads" : "threads and children", oc.sw.data_size >> 10);
	trace_sched_define(0, (unsigned)oc.sw.n, text);
	return 0;
}

/* Waits for the drain thread to end: as long as it takes, or on a thread with a deadline
 * (sgt_flag.h: the trace ended from _exit or an exec) until then; 0 when it ended. */
static int drain_join(void)
{
	if (!sgt_flag_deadline)
		return pthread_join(oc.drain, NULL);
	uint64_t now = mono_ns(), left = sgt_flag_deadline > now ? sgt_flag_deadline - now : 0;
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_sec += (time_t)(left / 1000000000u);
	at.tv_nsec += (long)(left % 1000000000u);
	if (at.tv_nsec >= 1000000000L) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(oc.drain, NULL, &at);
}

void sgc_sched_stop(int in_signal)
{
	if (oc.sw.n == 0)
		return;
	__atomic_store_n(&oc.stopping, 1, __ATOMIC_RELEASE);
	int joined = 1;
	if (!in_signal && oc.drain_started) {
		uint64_t one = 1;
		if (pthread_equal(pthread_self(), oc.drain))
			pthread_detach(oc.drain);   /* the drain thread ends the trace itself */
		else if (write(oc.wake_fd, &one, sizeof one) != (ssize_t)sizeof one ||
			 drain_join() != 0)
			joined = 0;   /* still running: it must find its descriptors open */
		oc.drain_started = 0;
	}
	drain_all(in_signal);
	if (!in_signal && joined)
		close_all();
}

void sgc_sched_fork_child(void)
{
	/* the parent's events, rings and drain thread are the parent's */
	oc.wake_lock = 0;
	close_all();
	oc.drain_started = 0;
	oc.lock = 0;
	oc.epoch_ns = 0;
}
