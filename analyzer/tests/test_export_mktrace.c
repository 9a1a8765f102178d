/*
 * test_export_mktrace.c — writes the synthetic trace the export tests check (test-export.sh):
 * three threads with every event kind, known counts and a known lock acquisition order.
 * Usage: test_export_mktrace DIR [damage|empty]
 *   damage  flips a byte in the payload of chunk 1 of thread 0 (chunks hold 4 records)
 *   empty   cuts every stream after its header: nothing is readable
 *
 * Per kind (what `scalegraph dump --summary` must print): thread_begin 3, thread_end 3,
 * func_enter 4, func_exit 4, region_begin 1, region_end 1, barrier_arrive 3, barrier_leave 3,
 * lock_request 5, lock_acquired 5, lock_failed 1, lock_release 5, cond_wait_begin 1,
 * cond_wait_end 1, cond_signal 1, cond_broadcast 1, create_begin 2, create_end 2,
 * join_begin 2, join_end 2, counter 2. Mutex 2 is acquired by thread 0 (t=420), thread 1
 * (455), thread 0 again after its condition wait (600): acquisition orders 1, 2, 3.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgtrace_write.h"

enum { BARRIER = 1, MUTEX = 2, RWLOCK = 3, COND = 4, SPIN = 5 };

struct ev {
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
};

#define N SG_NO_ID
#define MX SG_LOCK_MUTEX

static const struct ev thread0[] = {
	{ 100, SG_EV_THREAD_BEGIN, 0, N }, { 110, SG_EV_FUNC_ENTER, 1, 0 },
	{ 120, SG_EV_REGION_BEGIN, 1, 0 }, { 130, SG_EV_CREATE_BEGIN, N, 0 },
	{ 150, SG_EV_CREATE_END, 1, 0 }, { 160, SG_EV_CREATE_BEGIN, N, 0 },
	{ 180, SG_EV_CREATE_END, 2, 0 }, { 200, SG_EV_BARRIER_ARRIVE, BARRIER, 1 },
	{ 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 }, { 410, SG_EV_LOCK_REQUEST, MUTEX, MX },
	{ 420, SG_EV_LOCK_ACQUIRED, MUTEX, MX }, { 430, SG_EV_COND_WAIT_BEGIN, COND, MUTEX },
	{ 431, SG_EV_LOCK_RELEASE, MUTEX, MX }, { 600, SG_EV_LOCK_ACQUIRED, MUTEX, MX },
	{ 601, SG_EV_COND_WAIT_END, COND, 0 }, { 610, SG_EV_LOCK_RELEASE, MUTEX, MX },
	{ 620, SG_EV_COUNTER, 1, 5 }, { 700, SG_EV_JOIN_BEGIN, 1, 0 },
	{ 800, SG_EV_JOIN_END, 1, 0 }, { 810, SG_EV_JOIN_BEGIN, 2, 0 },
	{ 820, SG_EV_JOIN_END, 2, 0 }, { 830, SG_EV_REGION_END, 1, 0 },
	{ 840, SG_EV_FUNC_EXIT, 1, 0 }, { 850, SG_EV_THREAD_END, 0, 0 },
};

static const struct ev thread1[] = {
	{ 155, SG_EV_THREAD_BEGIN, 1, 0 }, { 160, SG_EV_FUNC_ENTER, 2, 0 },
	{ 170, SG_EV_FUNC_ENTER, 3, 0 }, { 180, SG_EV_FUNC_EXIT, 3, 0 },
	{ 300, SG_EV_BARRIER_ARRIVE, BARRIER, 1 }, { 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 },
	{ 450, SG_EV_LOCK_REQUEST, MUTEX, MX }, { 455, SG_EV_LOCK_ACQUIRED, MUTEX, MX },
	{ 500, SG_EV_COND_SIGNAL, COND, 0 }, { 505, SG_EV_LOCK_RELEASE, MUTEX, MX },
	{ 510, SG_EV_LOCK_REQUEST, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 520, SG_EV_LOCK_ACQUIRED, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 530, SG_EV_LOCK_RELEASE, RWLOCK, SG_LOCK_RWLOCK_WRITE },
	{ 540, SG_EV_COUNTER, 1, 7 }, { 550, SG_EV_FUNC_EXIT, 2, 0 },
	{ 560, SG_EV_THREAD_END, 1, 0 },
};

static const struct ev thread2[] = {
	{ 185, SG_EV_THREAD_BEGIN, 2, 0 }, { 190, SG_EV_FUNC_ENTER, 2, 0 },
	{ 390, SG_EV_BARRIER_ARRIVE, BARRIER, 1 }, { 400, SG_EV_BARRIER_LEAVE, BARRIER, 1 },
	{ 410, SG_EV_LOCK_REQUEST, RWLOCK, SG_LOCK_RWLOCK_READ | SG_LOCK_TRY },
	{ 415, SG_EV_LOCK_FAILED, RWLOCK, SG_LOCK_RWLOCK_READ | SG_LOCK_TRY },
	{ 420, SG_EV_LOCK_REQUEST, SPIN, SG_LOCK_SPIN },
	{ 425, SG_EV_LOCK_ACQUIRED, SPIN, SG_LOCK_SPIN },
	{ 426, SG_EV_LOCK_RELEASE, SPIN, SG_LOCK_SPIN }, { 430, SG_EV_COND_BROADCAST, COND, 0 },
	{ 440, SG_EV_FUNC_EXIT, 2, 0 }, { 450, SG_EV_THREAD_END, 2, 0 },
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
	bad |= check(sgw_close(w, 0), "close");
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
