/*
 * mktrace.c — writes a small known trace with the writer API, for the `scalegraph dump`
 * golden test (test-dump.sh). Usage: mktrace DIR [damage]
 * With "damage", a byte of chunk 1 of thread 0 is flipped after writing.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgtrace_write.h"

static int check(int rc, const char *what)
{
	if (rc < 0)
		fprintf(stderr, "mktrace: error: %s: %s\n", what, strerror(-rc));
	return rc < 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: mktrace DIR [damage]\n");
		return 2;
	}
	struct sgw_trace *w;
	struct sgw_stream *t0, *t1;
	struct sgw_options o = { .pid = 4242, .epoch_ns = 1000000, .chunk_recs = 8 };
	int bad = check(sgw_create(argv[1], &o, &w), argv[1]);
	if (bad)
		return 1;
	bad |= check(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), "object");
	bad |= check(sgw_object(w, 2, SG_OBJ_MUTEX, 0x2000), "object");
	bad |= check(sgw_object(w, 3, SG_OBJ_COND, 0x3000), "object");
	bad |= check(sgw_function(w, 1, "solve", "prog.c", 42), "function");
	bad |= check(sgw_region(w, 1, "measured"), "region");
	bad |= check(sgw_counter(w, 1, "items", "", SG_COUNTER_USER, NULL), "counter");
	bad |= check(sgw_counter(w, 2, "cycles", "events", SG_COUNTER_HARDWARE,
				 "no hardware PMU (ENOENT)"), "counter");
	bad |= check(sgw_thread(w, 0, SG_NO_ID, 100, &t0), "thread");
	bad |= check(sgw_thread(w, 1, 0, 101, &t1), "thread");
	sgw_event(t0, 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID);
	sgw_event(t0, 10, SG_EV_REGION_BEGIN, 1, 0);
	sgw_event(t0, 20, SG_EV_CREATE_BEGIN, SG_NO_ID, 0);
	sgw_event(t0, 40, SG_EV_CREATE_END, 1, 0);
	sgw_event(t0, 60, SG_EV_FUNC_ENTER, 1, 0);
	sgw_event(t0, 100, SG_EV_BARRIER_ARRIVE, 1, 1);
	sgw_event(t0, 450, SG_EV_BARRIER_LEAVE, 1, 1);
	sgw_event(t0, 455, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX | SG_LOCK_TRY);
	sgw_event(t0, 456, SG_EV_LOCK_FAILED, 2, SG_LOCK_MUTEX | SG_LOCK_TRY);
	sgw_counter_value(t0, 460, 1, 12);
	sgw_event(t0, 470, SG_EV_FUNC_EXIT, 1, 0);
	sgw_event(t0, 480, SG_EV_JOIN_BEGIN, 1, 0);
	sgw_event(t0, 600, SG_EV_JOIN_END, 1, 0);
	sgw_event(t0, 610, SG_EV_REGION_END, 1, 0);
	sgw_event(t0, 700, SG_EV_THREAD_END, 0, 0);
	sgw_event(t1, 50, SG_EV_THREAD_BEGIN, 1, 0);
	sgw_event(t1, 300, SG_EV_LOCK_REQUEST, 2, SG_LOCK_MUTEX);
	sgw_event(t1, 310, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX);
	sgw_event(t1, 320, SG_EV_COND_WAIT_BEGIN, 3, 2);
	sgw_event(t1, 321, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX);
	sgw_event(t1, 380, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX);
	sgw_event(t1, 381, SG_EV_COND_WAIT_END, 3, 0);
	sgw_event(t1, 390, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX);
	sgw_event(t1, 400, SG_EV_BARRIER_ARRIVE, 1, 1);
	sgw_event(t1, 450, SG_EV_BARRIER_LEAVE, 1, 1);
	sgw_event(t1, 590, SG_EV_THREAD_END, 1, 0);
	bad |= check(sgw_close(w, 0), "close");
	if (argc > 2 && !strcmp(argv[2], "damage")) {
		char path[PATH_MAX];
		sgw_stream_path(path, sizeof path, argv[1], 0);
		int fd = open(path, O_RDWR);
		unsigned char b = 0;
		off_t off = 64 + (64 + 8 * 16) + 64 + 5;   /* byte 5 of chunk 1's payload */
		if (fd < 0 || pread(fd, &b, 1, off) != 1 || (b ^= 1, pwrite(fd, &b, 1, off)) != 1)
			bad = 1;
		if (fd >= 0)
			close(fd);
	}
	return bad;
}
