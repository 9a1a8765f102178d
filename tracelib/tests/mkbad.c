/*
 * mkbad.c — writes traces that are damaged in ways no checksum can see, with the writer API
 * (every chunk, definition and trailer sealed with valid checksums), for the reader's
 * regression tests (test-reader-defects.sh). Usage: mkbad KIND DIR
 *
 *   clock-ok        TSC clock, 2 threads, a region from 0 to 100 ms, 0.4 ns per tick: the
 *                   baseline the others damage
 *   clock-absurd    as clock-ok, but the last clock pair of thread 1 (its last chunk's and its
 *                   trailer's, the last of the trace by ticks) is 269,885,913 s late (issue 13,
 *                   defect 8: the fit through it made T_para that long)
 *   clock-overflow  as clock-ok, but the headers' epoch_ns is 0 while every pair says
 *                   1.7e19 ns: ticks times the fitted rate overflowed an int64 (defect 8)
 *   big-id          a function, an object and a thread whose ids are beyond SG_ID_LIMIT
 *                   (0xfffffff0 and 0x10000000, defect 5's ids), used by events
 *   time-back       ns clock, 2 threads over 7 ms starting 405 s after the epoch, 42 records
 *                   each in 6 chunks (10, 8, 8, 8, 8, 2); in thread 1 the first record of
 *                   chunk 2 (record 0, the 17th function event) has tick 1000: 405 s back, every
 *                   checksum valid (issue 20, item 13: T_para read 405 s, "problems: 0")
 *   time-spike      as time-back, but that record is 405 s late instead (a forward jump; the
 *                   records after it then go back)
 */
#include <stdio.h>
#include <string.h>

#include "sgtrace_write.h"

#define NS_PER_TICK 0.4
#define EPOCH_NS 1000000000ull

static int check(int rc, const char *what)
{
	if (rc < 0)
		fprintf(stderr, "mkbad: error: %s: %s\n", what, strerror(-rc));
	return rc < 0;
}

/* Thread `s` with region 1 from tick `from` to `to`, 40 events in between, a chunk every 8
 * records, each chunk with the clock pair of its last tick; the last pair (of the last chunk
 * and the trailer) has its ns off by `skew`. */
static int thread_events(struct sgw_stream *s, uint32_t index, uint64_t from, uint64_t to,
			 uint64_t ns0, uint64_t skew)
{
	int bad = 0;
	uint64_t step = (to - from) / 41;
	bad |= check(sgw_event(s, from, SG_EV_THREAD_BEGIN, index, index ? 0 : SG_NO_ID), "event");
	bad |= check(sgw_event(s, from, SG_EV_REGION_BEGIN, 1, 0), "event");
	for (int i = 1; i <= 40; i++) {
		uint64_t tk = from + (uint64_t)i * step;
		bad |= check(sgw_event(s, tk, i % 2 ? SG_EV_FUNC_ENTER : SG_EV_FUNC_EXIT, 1, 0),
			     "event");
		if (i % 8 == 0) {
			uint64_t ns = ns0 + (uint64_t)((double)tk * NS_PER_TICK);
			bad |= check(sgw_stream_pair(s, tk, ns), "pair");
			bad |= check(sgw_flush(s), "flush");
		}
	}
	bad |= check(sgw_event(s, to, SG_EV_REGION_END, 1, 0), "event");
	bad |= check(sgw_event(s, to, SG_EV_THREAD_END, index, 0), "event");
	bad |= check(sgw_stream_pair(s, to, ns0 + (uint64_t)((double)to * NS_PER_TICK) + skew),
		     "pair");
	return bad;
}

static int clock_trace(const char *dir, const char *kind)
{
	uint64_t ns0 = EPOCH_NS, skew = 0;
	struct sgw_options o = { .clock = SGF_CLOCK_TSC, .pid = 4243, .epoch_ns = EPOCH_NS,
				 .chunk_recs = 1000 };
	if (!strcmp(kind, "clock-absurd"))
		skew = 269885913ull * 1000000000ull;
	else if (!strcmp(kind, "clock-overflow"))
		ns0 = 17000000000000000000ull, o.epoch_ns = 0;
	else if (strcmp(kind, "clock-ok"))
		return 2;
	struct sgw_trace *w;
	struct sgw_stream *t0, *t1;
	if (check(sgw_create(dir, &o, &w), dir))
		return 1;
	int bad = check(sgw_function(w, 1, "work", "prog.c", 7), "function");
	bad |= check(sgw_region(w, 1, "measured"), "region");
	bad |= check(sgw_thread(w, 0, SG_NO_ID, 100, &t0), "thread");
	bad |= check(sgw_thread(w, 1, 0, 101, &t1), "thread");
	/* 100.4 ms at 0.4 ns per tick */
	bad |= thread_events(t0, 0, 0, 250000000, ns0, 0);
	bad |= thread_events(t1, 1, 1000, 251000000, ns0, skew);
	bad |= check(sgw_close(w, 0), "close");
	return bad;
}

static int big_id_trace(const char *dir)
{
	struct sgw_options o = { .pid = 4244, .epoch_ns = EPOCH_NS };
	struct sgw_trace *w;
	struct sgw_stream *t0, *tb;
	if (check(sgw_create(dir, &o, &w), dir))
		return 1;
	int bad = check(sgw_function(w, 0xfffffff0u, "huge", "prog.c", 1), "function");
	bad |= check(sgw_object(w, 0x10000000u, SG_OBJ_MUTEX, 0x1000), "object");
	bad |= check(sgw_function(w, 1, "work", "prog.c", 2), "function");
	bad |= check(sgw_thread(w, 0, SG_NO_ID, 100, &t0), "thread");
	bad |= check(sgw_thread(w, 0x10000000u, 0, 101, &tb), "thread");
	bad |= check(sgw_event(t0, 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), "event");
	bad |= check(sgw_event(t0, 10, SG_EV_FUNC_ENTER, 0xfffffff0u, 0), "event");
	bad |= check(sgw_event(t0, 20, SG_EV_LOCK_REQUEST, 0x10000000u, SG_LOCK_MUTEX), "event");
	bad |= check(sgw_event(t0, 30, SG_EV_FUNC_EXIT, 0xfffffff0u, 0), "event");
	bad |= check(sgw_event(t0, 40, SG_EV_FUNC_ENTER, 1, 0), "event");
	bad |= check(sgw_event(t0, 50, SG_EV_FUNC_EXIT, 1, 0), "event");
	bad |= check(sgw_event(t0, 100, SG_EV_THREAD_END, 0, 0), "event");
	bad |= check(sgw_event(tb, 5, SG_EV_THREAD_BEGIN, 0x10000000u, 0), "event");
	bad |= check(sgw_close(w, 0), "close");
	return bad;
}

/* time-back / time-spike: each thread's 40 function events over [from, to], flushed every 8,
 * each chunk's clock pair the time of its flush (as libsgtrace takes it); in thread 1 the 17th
 * event's tick is `bad` instead. */
static int time_trace(const char *dir, uint64_t bad)
{
	struct sgw_options o = { .clock = SGF_CLOCK_NS, .pid = 4245, .epoch_ns = EPOCH_NS,
				 .chunk_recs = 1000 };
	const uint64_t from = 405000000000ull, to = from + 7000000;
	struct sgw_trace *w;
	struct sgw_stream *s[2];
	if (check(sgw_create(dir, &o, &w), dir))
		return 1;
	int rc = check(sgw_function(w, 1, "work", "prog.c", 7), "function");
	for (uint32_t k = 0; k < 2; k++) {
		rc |= check(sgw_thread(w, k, k ? 0 : SG_NO_ID, (int32_t)(100 + k), &s[k]), "thread");
		uint64_t step = (to - from) / 41;
		rc |= check(sgw_event(s[k], from + k, SG_EV_THREAD_BEGIN, k, k ? 0 : SG_NO_ID),
			    "event");
		for (int i = 1; i <= 40; i++) {
			uint64_t tk = k == 1 && i == 17 ? bad : from + (uint64_t)i * step;
			rc |= check(sgw_event(s[k], tk, i % 2 ? SG_EV_FUNC_ENTER : SG_EV_FUNC_EXIT, 1,
					      0), "event");
			if (i % 8 == 0) {
				/* the pair libsgtrace takes at the flush: the time then */
				uint64_t now = from + (uint64_t)i * step;
				rc |= check(sgw_stream_pair(s[k], now, EPOCH_NS + now), "pair");
				rc |= check(sgw_flush(s[k]), "flush");
			}
		}
		rc |= check(sgw_event(s[k], to, SG_EV_THREAD_END, k, 0), "event");
		rc |= check(sgw_stream_pair(s[k], to, EPOCH_NS + to), "pair");
	}
	rc |= check(sgw_close(w, 0), "close");
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkbad clock-ok|clock-absurd|clock-overflow|big-id|time-back|time-spike DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "big-id"))
		return big_id_trace(argv[2]);
	if (!strcmp(argv[1], "time-back"))
		return time_trace(argv[2], 1000);
	if (!strcmp(argv[1], "time-spike"))
		return time_trace(argv[2], 810000000000ull);
	int rc = clock_trace(argv[2], argv[1]);
	if (rc == 2)
		fprintf(stderr, "mkbad: error: unknown kind '%s'\n", argv[1]);
	return rc;
}
