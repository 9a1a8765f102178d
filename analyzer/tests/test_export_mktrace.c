/*
 * test_export_mktrace.c — writes the synthetic trace the export tests check (test-export.sh):
 * three threads with every event kind, known counts and a known lock acquisition order, and
 * the process's sched stream (format 1.2) with known off-CPU spans.
 * Usage: test_export_mktrace DIR [damage|empty]
 *   damage  flips a byte in the payload of chunk 1 of thread 0 (chunks hold 4 records)
 *   empty   cuts every stream after its header: nothing is readable
 *
 * Per kind (what `scalegraph dump --summary` must print): thread_begin 3, thread_end 3,
 * func_enter 4, func_exit 4, region_begin 1, region_end 1, barrier_arrive 3, barrier_leave 3,
 * lock_request 5, lock_acquired 5, lock_failed 1, lock_release 5, cond_wait_begin 1,
 * cond_wait_end 1, cond_signal 1, cond_broadcast 1, create_begin 2, create_end 2,
 * join_begin 2, join_end 2, counter 2, sem_wait_begin 4, sem_wait_end 4, sem_post 1,
 * sem_init 1; in the sched stream switch_out 11, switch_in 11, task_cpu 6, task_delay 6,
 * switch_lost 1. Mutex 2 is acquired by thread 0 (t=420), thread 1 (455), thread 0 again after
 * its condition wait (600): acquisition orders 1, 2, 3. Semaphore 6 starts at 0; its waits
 * end busy (thread 2, trywait, 428), taken (thread 2, 436), timed out (thread 1, 548) and
 * interrupted (thread 0, 690).
 *
 * Off-CPU spans the exports must show (tids 5000 + thread index), 8 in all, 2 runnable:
 *   thread 0: blocked 250-390 (barrier), 440-590 (cond wait), 630-680 (sem wait: switched out
 *             at 625, before its own sem_wait_begin at 630, as a clock skew would show it; the
 *             span is fitted to its longest stretch free of the thread's events), 720-790 (join)
 *   thread 1: runnable 200-280 (in work), blocked 310-395 (barrier)
 *   thread 2: runnable 200-380 (in work), blocked 432-436 (sem wait; its switch-in at 437
 *             comes after the thread's own event at 436: fitted to 432-436)
 * and 2 dropped: thread 2's 181-184 (before its first event) and its switch-out at 455 (after
 * its end, never switched in). Tid 6000 is no thread of the trace (2 records), 3 switch records
 * were lost. CPU samples: 2 per thread; thread 1's at 150 comes before its first event (155)
 * and is raised to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgtrace_write.h"

enum { BARRIER = 1, MUTEX = 2, RWLOCK = 3, COND = 4, SPIN = 5, SEM = 6 };

struct ev {
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
};

#define N SG_NO_ID
#define MX SG_LOCK_MUTEX

static const struct ev thread0[] = {
	{ 100, SG_EV_THREAD_BEGIN, 0, N }, { 110, SG_EV_FUNC_ENTER, 1, 0 },
	{ 120, SG_EV_REGION_BEGIN, 1, 0 }, { 125, SG_EV_SEM_INIT, SEM, 0 },
	{ 130, SG_EV_CREATE_BEGIN, N, 0 },
	{ 150, SG_EV_CREATE_END, 1, 0 }, { 160, SG_EV_CREATE_BEGIN, N, 0 },
	{ 180, SG_EV_CREATE_END, 2, 0 }, { 200, SG_EV_BARRIER_ARRIVE, BARRIER, 1 },
	{ 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 }, { 410, SG_EV_LOCK_REQUEST, MUTEX, MX },
	{ 420, SG_EV_LOCK_ACQUIRED, MUTEX, MX }, { 430, SG_EV_COND_WAIT_BEGIN, COND, MUTEX },
	{ 431, SG_EV_LOCK_RELEASE, MUTEX, MX }, { 600, SG_EV_LOCK_ACQUIRED, MUTEX, MX },
	{ 601, SG_EV_COND_WAIT_END, COND, 0 }, { 610, SG_EV_LOCK_RELEASE, MUTEX, MX },
	{ 620, SG_EV_COUNTER, 1, 5 }, { 630, SG_EV_SEM_WAIT_BEGIN, SEM, 0 },
	{ 690, SG_EV_SEM_WAIT_END, SEM, EINTR }, { 700, SG_EV_JOIN_BEGIN, 1, 0 },
	{ 800, SG_EV_JOIN_END, 1, 0 }, { 810, SG_EV_JOIN_BEGIN, 2, 0 },
	{ 820, SG_EV_JOIN_END, 2, 0 }, { 830, SG_EV_REGION_END, 1, 0 },
	{ 840, SG_EV_FUNC_EXIT, 1, 0 }, { 850, SG_EV_THREAD_END, 0, 0 },
};

static const struct ev thread1[] = {
	{ 155, SG_EV_THREAD_BEGIN, 1, 0 }, { 160, SG_EV_FUNC_ENTER, 2, 0 },
	{ 170, SG_EV_FUNC_ENTER, 3, 0 }, { 180, SG_EV_FUNC_EXIT, 3, 0 },
	{ 300, SG_EV_BARRIER_ARRIVE, BARRIER, 1 }, { 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 },
	{ 434, SG_EV_SEM_POST, SEM, 0 },
	{ 450, SG_EV_LOCK_REQUEST, MUTEX, MX }, { 455, SG_EV_LOCK_ACQUIRED, MUTEX, MX },
	{ 500, SG_EV_COND_SIGNAL, COND, 0 }, { 505, SG_EV_LOCK_RELEASE, MUTEX, MX },
	{ 510, SG_EV_LOCK_REQUEST, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 520, SG_EV_LOCK_ACQUIRED, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 530, SG_EV_LOCK_RELEASE, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 540, SG_EV_COUNTER, 1, 7 }, { 541, SG_EV_SEM_WAIT_BEGIN, SEM, SG_SEM_TIMED },
	{ 548, SG_EV_SEM_WAIT_END, SEM, ETIMEDOUT }, { 550, SG_EV_FUNC_EXIT, 2, 0 },
	{ 560, SG_EV_THREAD_END, 1, 0 },
};

static const struct ev thread2[] = {
	{ 185, SG_EV_THREAD_BEGIN, 2, 0 }, { 190, SG_EV_FUNC_ENTER, 2, 0 },
	{ 390, SG_EV_BARRIER_ARRIVE, BARRIER, 1 }, { 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 },
	{ 410, SG_EV_LOCK_REQUEST, RWLOCK, SG_LOCK_RWLOCK_READ | SG_LOCK_TRY },
	{ 415, SG_EV_LOCK_FAILED, RWLOCK, SG_LOCK_RWLOCK_READ | SG_LOCK_TRY },
	{ 420, SG_EV_LOCK_REQUEST, SPIN, SG_LOCK_SPIN },
	{ 425, SG_EV_LOCK_ACQUIRED, SPIN, SG_LOCK_SPIN },
	{ 426, SG_EV_LOCK_RELEASE, SPIN, SG_LOCK_SPIN },
	{ 427, SG_EV_SEM_WAIT_BEGIN, SEM, SG_SEM_TRY }, { 428, SG_EV_SEM_WAIT_END, SEM, EAGAIN },
	{ 430, SG_EV_COND_BROADCAST, COND, 0 }, { 431, SG_EV_SEM_WAIT_BEGIN, SEM, 0 },
	{ 436, SG_EV_SEM_WAIT_END, SEM, 0 },
	{ 440, SG_EV_FUNC_EXIT, 2, 0 }, { 450, SG_EV_THREAD_END, 2, 0 },
};

/* The sched stream as the library writes it: samples as they are taken, then the switch
 * records CPU by CPU (out of time order). id: OS tid; aux of a sample: its value. */
#define OUT_B(cpu) (cpu)                          /* switched out, blocked */
#define OUT_R(cpu) ((cpu) | SG_SWITCH_PREEMPTED)  /* switched out, still runnable */
static const struct ev sched[] = {
	{ 102, SG_EV_TASK_CPU, 5000, 1000 }, { 102, SG_EV_TASK_DELAY, 5000, 0 },
	{ 150, SG_EV_TASK_CPU, 5001, 200 }, { 150, SG_EV_TASK_DELAY, 5001, 0 },
	{ 186, SG_EV_TASK_CPU, 5002, 300 }, { 186, SG_EV_TASK_DELAY, 5002, 10 },
	{ 449, SG_EV_TASK_CPU, 5002, 5300 }, { 449, SG_EV_TASK_DELAY, 5002, 190 },
	{ 559, SG_EV_TASK_CPU, 5001, 9000 }, { 559, SG_EV_TASK_DELAY, 5001, 90 },
	{ 849, SG_EV_TASK_CPU, 5000, 20000 }, { 849, SG_EV_TASK_DELAY, 5000, 10 },
	/* CPU 0 */
	{ 181, SG_EV_SWITCH_OUT, 5002, OUT_B(0) }, { 184, SG_EV_SWITCH_IN, 5002, 0 },
	{ 200, SG_EV_SWITCH_OUT, 5002, OUT_R(0) }, { 250, SG_EV_SWITCH_OUT, 5000, OUT_B(0) },
	{ 300, SG_EV_SWITCH_OUT, 6000, OUT_B(0) }, { 301, SG_EV_SWITCH_IN, 6000, 0 },
	{ 380, SG_EV_SWITCH_IN, 5002, 0 }, { 395, SG_EV_SWITCH_IN, 5001, 0 },
	{ 432, SG_EV_SWITCH_OUT, 5002, OUT_B(0) }, { 590, SG_EV_SWITCH_IN, 5000, 0 },
	{ 625, SG_EV_SWITCH_OUT, 5000, OUT_B(0) }, { 680, SG_EV_SWITCH_IN, 5000, 0 },
	{ 720, SG_EV_SWITCH_OUT, 5000, OUT_B(0) },
	/* CPU 1 */
	{ 154, SG_EV_SWITCH_IN, 5001, 1 }, { 200, SG_EV_SWITCH_OUT, 5001, OUT_R(1) },
	{ 280, SG_EV_SWITCH_IN, 5001, 1 }, { 310, SG_EV_SWITCH_OUT, 5001, OUT_B(1) },
	{ 390, SG_EV_SWITCH_IN, 5000, 1 }, { 437, SG_EV_SWITCH_IN, 5002, 1 },
	{ 440, SG_EV_SWITCH_OUT, 5000, OUT_B(1) }, { 455, SG_EV_SWITCH_OUT, 5002, OUT_B(1) },
	{ 790, SG_EV_SWITCH_IN, 5000, 1 },
	{ 800, SG_EV_SWITCH_LOST, 0, 3 },
};

static int check(int rc, const char *what)
{
	if (rc < 0)
		fprintf(stderr, "test_export_mktrace: error: %s: %s\n", what, strerror(-rc));
	return rc < 0;
}

static int write_thread(struct sgw_trace *w, uint32_t index, uint32_t parent,
			const struct ev *e, size_t n)
{
	struct sgw_stream *s;
	int bad = check(sgw_thread(w, index, parent, (int32_t)(5000 + index), &s), "thread");
	for (size_t i = 0; !bad && i < n; i++)
		bad = e[i].kind == SG_EV_COUNTER
		      ? check(sgw_counter_value(s, e[i].t, e[i].id, e[i].aux), "counter value")
		      : check(sgw_event(s, e[i].t, e[i].kind, e[i].id, e[i].aux), "event");
	return bad;
}

/* The sched stream, with its SCHED definition (sgw_sched). */
static int write_sched(struct sgw_trace *w)
{
	struct sgw_stream *s;
	int bad = check(sgw_sched(w, 2, "synthetic switch records (test_export_mktrace)", 0, &s),
			"sched stream");
	for (size_t i = 0; !bad && i < sizeof sched / sizeof *sched; i++) {
		const struct ev *e = &sched[i];
		bad = sg_kind_has_value(e->kind)
		      ? check(sgw_value(s, e->t, e->kind, e->id, e->aux), "sched value")
		      : check(sgw_event(s, e->t, e->kind, e->id, e->aux), "sched event");
	}
	return bad;
}

/* Changes the file `path` after writing: flips the byte at `off`, or cuts it to `off` bytes. */
static int spoil(const char *path, long off, int cut)
{
	int fd = open(path, O_RDWR), bad = fd < 0;
	unsigned char b;
	if (!bad && cut)
		bad = ftruncate(fd, off) < 0;
	else if (!bad)
		bad = pread(fd, &b, 1, off) != 1 || (b ^= 0x5a, pwrite(fd, &b, 1, off) != 1);
	if (fd >= 0)
		close(fd);
	if (bad)
		fprintf(stderr, "test_export_mktrace: error: %s: cannot change\n", path);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (argc == 3 && strcmp(argv[2], "damage") && strcmp(argv[2], "empty"))) {
		fprintf(stderr, "usage: test_export_mktrace DIR [damage|empty]\n");
		return 2;
	}
	struct sgw_trace *w;
	struct sgw_options o = { .pid = 4242, .epoch_ns = 1000000, .chunk_recs = 4 };
	if (check(sgw_create(argv[1], &o, &w), argv[1]))
		return 1;
	int bad = check(sgw_object(w, BARRIER, SG_OBJ_BARRIER, 0x1000), "object");
	bad |= check(sgw_object(w, MUTEX, SG_OBJ_MUTEX, 0x2000), "object");
	bad |= check(sgw_object(w, RWLOCK, SG_OBJ_RWLOCK, 0x3000), "object");
	bad |= check(sgw_object(w, COND, SG_OBJ_COND, 0x4000), "object");
	bad |= check(sgw_object(w, SPIN, SG_OBJ_SPIN, 0x5000), "object");
	bad |= check(sgw_object(w, SEM, SG_OBJ_SEM, 0x6000), "object");
	bad |= check(sgw_function(w, 1, "main", "main.c", 10), "function");
	bad |= check(sgw_function(w, 2, "work", "work \"x\".c", 20), "function");
	bad |= check(sgw_function(w, 3, "helper", "work.c", 30), "function");
	bad |= check(sgw_region(w, 1, "measured"), "region");
	bad |= check(sgw_counter(w, 1, "items", "", SG_COUNTER_USER, NULL), "counter");
	bad |= check(sgw_counter(w, 2, "cycles", "events", SG_COUNTER_HARDWARE,
				 "no hardware PMU (ENOENT)"), "counter");
	bad |= write_thread(w, 0, SG_NO_ID, thread0, sizeof thread0 / sizeof *thread0);
	bad |= write_thread(w, 1, 0, thread1, sizeof thread1 / sizeof *thread1);
	bad |= write_thread(w, 2, 0, thread2, sizeof thread2 / sizeof *thread2);
	bad |= write_sched(w);
	bad |= check(sgw_close(w, 0), "close");
	if (!bad && argc == 3 && !strcmp(argv[2], "empty")) {
		char path[4200];
		snprintf(path, sizeof path, "%s/%s", argv[1], SGF_SCHED_NAME);
		bad = spoil(path, 64, 1);
	}
	for (uint32_t i = 0; !bad && argc == 3 && i < 3; i++) {
		char path[4096];
		bad = check(sgw_stream_path(path, sizeof path, argv[1], i), "path");
		if (!bad && !strcmp(argv[2], "empty"))
			bad = spoil(path, 64, 1);
		/* file header 64, chunk 0: 64 + 4 * 16, chunk 1: header 64, payload */
		else if (!bad && i == 0)
			bad = spoil(path, 64 + 128 + 64 + 20, 0);
	}
	return bad;
}
