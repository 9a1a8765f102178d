/*
 * test_rw.c — the writer API (sgtrace_write.h) and the reader (sgtrace_read.h) together:
 * synthetic traces with hand-computed answers read back exactly; chunking and the raw cursor;
 * the clock fit; and damage: a flipped payload byte, a damaged chunk header, a file cut short,
 * a missing trailer, a missing definitions file — each reported as "FILE: chunk K: reason"
 * while everything else is still read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sgtrace_read.h"
#include "sgtrace_write.h"
#include "tutil.h"

static int setup(void **state)
{
	return tu_fixture_setup(state, "rw");
}


/* "thread 0 arrives at barrier 1 at t=100 ns, thread 1 at t=400 ns; both leave at 450" */
static void write_barrier_trace(const char *dir, unsigned flags)
{
	struct sgw_trace *w;
	struct sgw_stream *t0, *t1;
	struct sgw_options o = { .pid = 4242, .epoch_ns = 1000000 };
	assert_int_equal(sgw_create(dir, &o, &w), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_BARRIER, 0x1000), 0);
	assert_int_equal(sgw_function(w, 3, "solve", "prog.c", 42), 0);
	assert_int_equal(sgw_region(w, 1, "measured"), 0);
	assert_int_equal(sgw_counter(w, 2, "items", "", SG_COUNTER_USER, NULL), 0);
	assert_int_equal(sgw_counter(w, 5, "cycles", "events", SG_COUNTER_HARDWARE,
				     "no hardware PMU (ENOENT)"), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 100, &t0), 0);
	assert_int_equal(sgw_thread(w, 1, 0, 101, &t1), 0);
	assert_int_equal(sgw_event(t0, 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), 0);
	assert_int_equal(sgw_event(t0, 10, SG_EV_REGION_BEGIN, 1, 0), 0);
	assert_int_equal(sgw_event(t0, 20, SG_EV_FUNC_ENTER, 3, 0), 0);
	assert_int_equal(sgw_event(t0, 100, SG_EV_BARRIER_ARRIVE, 1, 1), 0);
	assert_int_equal(sgw_event(t0, 450, SG_EV_BARRIER_LEAVE, 1, 1), 0);
	assert_int_equal(sgw_counter_value(t0, 460, 2, -7), 0);
	assert_int_equal(sgw_event(t0, 470, SG_EV_FUNC_EXIT, 3, 0), 0);
	assert_int_equal(sgw_event(t0, 480, SG_EV_REGION_END, 1, 0), 0);
	assert_int_equal(sgw_event(t0, 500, SG_EV_THREAD_END, 0, 0), 0);
	assert_int_equal(sgw_event(t1, 50, SG_EV_THREAD_BEGIN, 1, 0), 0);
	assert_int_equal(sgw_event(t1, 400, SG_EV_BARRIER_ARRIVE, 1, 1), 0);
	assert_int_equal(sgw_event(t1, 450, SG_EV_BARRIER_LEAVE, 1, 1), 0);
	assert_int_equal(sgw_event(t1, 490, SG_EV_THREAD_END, 1, 0), 0);
	sgw_set_lost(t1, 3);
	assert_int_equal(sgw_close(w, flags), 0);
}

static void test_roundtrip(void **state)
{
	struct tu_fixture *f = *state;
	write_barrier_trace(f->dir, 0);
	struct sgr_trace *t = tu_open_ok(f->dir);
	assert_int_equal(sgr_n_problems(t), 0);
	const struct sgr_info *in = sgr_info(t);
	assert_int_equal(in->pid, 4242);
	assert_int_equal(in->clock, SGF_CLOCK_NS);
	assert_true(in->ns_per_tick == 1.0);
	assert_null(in->counters_off);
	assert_int_equal(sgr_n_threads(t), 2);
	const struct sgr_thread *th1 = sgr_thread(t, 1);
	assert_int_equal(th1->index, 1);
	assert_int_equal(th1->parent, 0);
	assert_int_equal(th1->os_tid, 101);
	assert_true(th1->complete);
	assert_int_equal(th1->lost, 3);
	assert_int_equal(th1->n_recs, 4);
	assert_int_equal(sgr_thread_pos(t, 1), 1);
	assert_int_equal(sgr_thread_pos(t, 9), -1);

	const struct sgr_function *fn = sgr_function(t, 3);
	assert_non_null(fn);
	assert_string_equal(fn->name, "solve");
	assert_string_equal(fn->file, "prog.c");
	assert_int_equal(fn->line, 42);
	assert_null(sgr_function(t, 4));
	assert_string_equal(sgr_region(t, 1)->name, "measured");
	assert_int_equal(sgr_object(t, 1)->kind, SG_OBJ_BARRIER);
	assert_true(sgr_object(t, 1)->address == 0x1000);
	assert_null(sgr_counter(t, 2)->unavailable);
	assert_string_equal(sgr_counter(t, 5)->unavailable, "no hardware PMU (ENOENT)");
	assert_int_equal(sgr_counter(t, 5)->origin, SG_COUNTER_HARDWARE);
	assert_int_equal(sgr_n_counters(t), 2);

	struct sgr_event *e;
	size_t n = tu_events(t, 0, 0, &e);
	assert_int_equal(n, 9);   /* 10 records, the VALUE folded into its COUNTER */
	assert_int_equal(e[2].kind, SG_EV_FUNC_ENTER);
	assert_int_equal(e[3].kind, SG_EV_BARRIER_ARRIVE);
	assert_int_equal(e[3].t_ns, 100);
	assert_int_equal(e[3].id, 1);
	assert_int_equal(e[3].aux, 1);
	assert_int_equal(e[5].kind, SG_EV_COUNTER);
	assert_int_equal(e[5].value, -7);
	assert_int_equal(e[5].id, 2);
	assert_int_equal(e[8].t_ns, 500);
	free(e);
	n = tu_events(t, 1, 0, &e);
	assert_int_equal(n, 4);
	assert_int_equal(e[1].t_ns, 400);
	assert_int_equal(e[1].thread, 1);
	free(e);
	assert_false(sgr_thread(t, 0)->lost_unknown);   /* complete: the trailer counted */
	sgr_close(t);
}

/* 10 events in chunks of 4: three chunks, seen as spans by the cursor. */
static void write_chunked(const char *dir, int n_events)
{
	struct sgw_trace *w;
	struct sgw_stream *s;
	struct sgw_options o = { .chunk_recs = 4 };
	assert_int_equal(sgw_create(dir, &o, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &s), 0);
	for (int i = 0; i < n_events; i++)
		assert_int_equal(sgw_event(s, 100u * (unsigned)i, SG_EV_FUNC_ENTER, (uint32_t)i, 0), 0);
	assert_int_equal(sgw_close(w, 0), 0);
}

static void test_cursor_spans(void **state)
{
	struct tu_fixture *f = *state;
	write_chunked(f->dir, 10);
	struct sgr_trace *t = tu_open_ok(f->dir);
	struct sgr_cursor c;
	struct sgr_span sp;
	size_t sizes[4] = { 0 }, k = 0;
	uint32_t next_id = 0;
	sgr_cursor_init(&c, t, 0);
	while (sgr_cursor_next(&c, &sp)) {
		assert_true(k < 3);
		assert_int_equal(sp.seq, k);
		sizes[k++] = sp.n;
		for (size_t i = 0; i < sp.n; i++)
			assert_int_equal(sg_rec_id(&sp.recs[i]), next_id++);
	}
	assert_int_equal(k, 3);
	assert_int_equal(sizes[0], 4);
	assert_int_equal(sizes[1], 4);
	assert_int_equal(sizes[2], 2);
	assert_int_equal(sgr_thread(t, 0)->n_chunks, 3);
	assert_int_equal(sgr_n_problems(t), 0);
	assert_int_equal(sgr_verify(t), 0);
	sgr_close(t);
}

/* Offset of byte `i` of the payload of chunk k in a stream of 4-record chunks. */
static off_t payload_offset(int k, int i)
{
	return (off_t)(64 + k * (64 + 4 * 16) + 64 + i);
}

static void flip_byte(const char *dir, off_t off)
{
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, dir, 0);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	unsigned char b;
	assert_int_equal(pread(fd, &b, 1, off), 1);
	b ^= 0x10;
	assert_int_equal(pwrite(fd, &b, 1, off), 1);
	close(fd);
}

static void ids_read(struct sgr_trace *t, uint32_t *ids, size_t *n)
{
	struct sgr_event *e;
	*n = tu_events(t, 0, 0, &e);
	for (size_t i = 0; i < *n; i++)
		ids[i] = e[i].id;
	free(e);
}

static void test_flipped_byte_is_reported_by_chunk(void **state)
{
	struct tu_fixture *f = *state;
	write_chunked(f->dir, 10);
	flip_byte(f->dir, payload_offset(1, 21));
	struct sgr_trace *t = tu_open_ok(f->dir);
	uint32_t ids[16];
	size_t n;
	ids_read(t, ids, &n);
	assert_int_equal(n, 6);   /* chunks 0 and 2 */
	uint32_t want[] = { 0, 1, 2, 3, 8, 9 };
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
	assert_int_equal(sgr_n_problems(t), 1);
	assert_string_equal(sgr_problem(t, 0), "thread.0.sgs: chunk 1: bad checksum");
	assert_int_equal(sgr_thread(t, 0)->n_damaged, 1);
	assert_true(sgr_thread(t, 0)->complete);
	assert_int_equal(sgr_verify(t), 1);
	assert_int_equal(sgr_n_problems(t), 1);   /* reported once */
	sgr_close(t);
}

static void test_damaged_header_resyncs(void **state)
{
	struct tu_fixture *f = *state;
	write_chunked(f->dir, 10);
	flip_byte(f->dir, payload_offset(1, -64 + 12));   /* n_recs of chunk 1's header */
	struct sgr_trace *t = tu_open_ok(f->dir);
	uint32_t ids[16];
	size_t n;
	ids_read(t, ids, &n);
	assert_int_equal(n, 6);
	assert_int_equal(ids[4], 8);
	assert_true(sgr_n_problems(t) >= 1);
	assert_non_null(strstr(sgr_problem(t, 0), "thread.0.sgs: chunk 1: bad header at offset 192"));
	assert_true(sgr_thread(t, 0)->complete);
	sgr_close(t);
}

static void test_cut_short_reads_whole_chunks(void **state)
{
	struct tu_fixture *f = *state;
	write_chunked(f->dir, 10);
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, f->dir, 0);
	assert_int_equal(truncate(path, payload_offset(2, 10)), 0);
	struct sgr_trace *t = tu_open_ok(f->dir);
	uint32_t ids[16];
	size_t n;
	ids_read(t, ids, &n);
	assert_int_equal(n, 8);
	assert_int_equal(ids[7], 7);
	assert_false(sgr_thread(t, 0)->complete);
	assert_int_equal(sgr_n_problems(t), 2);
	assert_string_equal(sgr_problem(t, 0), "thread.0.sgs: chunk 2: cut short (74 of 96 bytes)");
	assert_non_null(strstr(sgr_problem(t, 1), "thread.0.sgs: no trailer"));
	sgr_close(t);
}

static void test_no_trailer(void **state)
{
	struct tu_fixture *f = *state;
	write_barrier_trace(f->dir, SGW_NO_TRAILER);
	struct sgr_trace *t = tu_open_ok(f->dir);
	assert_false(sgr_thread(t, 0)->complete);
	assert_false(sgr_thread(t, 1)->complete);
	assert_int_equal(sgr_thread(t, 1)->lost, 0);   /* unknown without a trailer */
	assert_true(sgr_thread(t, 1)->lost_unknown);
	assert_true(sgr_thread(t, 0)->lost_unknown);
	assert_int_equal(sgr_thread(t, 0)->n_recs, 10);
	assert_int_equal(sgr_n_problems(t), 2);
	sgr_close(t);
}

static void test_clock_fit(void **state)
{
	struct tu_fixture *f = *state;
	struct sgw_trace *w;
	struct sgw_stream *s;
	struct sgw_options o = { .clock = SGF_CLOCK_TSC, .epoch_ns = 5000 };
	assert_int_equal(sgw_create(f->dir, &o, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &s), 0);
	assert_int_equal(sgw_event(s, 400, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), 0);
	assert_int_equal(sgw_stream_pair(s, 1000, 5000 + 2500), 0);   /* 2.5 ns per tick */
	assert_int_equal(sgw_close(w, 0), 0);
	struct sgr_trace *t = tu_open_ok(f->dir);
	const struct sgr_info *in = sgr_info(t);
	assert_true(in->ns_per_tick > 2.4999 && in->ns_per_tick < 2.5001);
	assert_int_equal(sgr_ticks_to_ns(in, 400), 1000);
	struct sgr_event *e;
	assert_int_equal(tu_events(t, 0, 0, &e), 1);
	assert_int_equal(e[0].t_ns, 1000);
	free(e);
	sgr_close(t);
}

static void test_counters_off_and_errors(void **state)
{
	struct tu_fixture *f = *state;
	struct sgr_trace *t = NULL;
	char err[512] = "";
	assert_int_equal(sgr_open(f->dir, 0, &t, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "defs.sgd: no definitions file: not a trace directory"));
	struct sgw_trace *w;
	assert_int_equal(sgw_create(f->dir, NULL, &w), 0);
	assert_int_equal(sgw_counters_off(w, "counters not built"), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	t = tu_open_ok(f->dir);
	assert_string_equal(sgr_info(t)->counters_off, "counters not built");
	assert_int_equal(sgr_n_threads(t), 0);
	sgr_close(t);
}

#define CASE(fn) cmocka_unit_test_setup_teardown(fn, setup, tu_fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE(test_roundtrip),
		CASE(test_cursor_spans),
		CASE(test_flipped_byte_is_reported_by_chunk),
		CASE(test_damaged_header_resyncs),
		CASE(test_cut_short_reads_whole_chunks),
		CASE(test_no_trailer),
		CASE(test_clock_fit),
		CASE(test_counters_off_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
