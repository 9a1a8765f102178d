/*
 * test_compact.c — compact chunks (format 1.6, docs/trace-format.md "Compact chunks"): the
 * encoder and decoder of sgf.c round-trip every record whatever its kind and values (extreme
 * ticks, deltas that wrap, zero deltas, ids and aux at their limits, 64-bit values), refuse
 * malformed payloads; traces written compact by the writer API read back exactly through the
 * cursor and the iterator; a damaged compact chunk (a flipped byte), a damaged chunk header and
 * a file cut inside a compact chunk each lose only that chunk, reported, while the reader reads
 * everything else; and traces of the older formats (chunks of 16-byte records, minor 5) still
 * read the same.
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

#include "sgf_int.h"
#include "sgtrace_read.h"
#include "sgtrace_write.h"
#include "tutil.h"

static int setup(void **state)
{
	return tu_fixture_setup(state, "compact");
}

static struct sg_event_rec rec(uint64_t ticks, unsigned kind, uint32_t id, uint32_t aux)
{
	struct sg_event_rec r = { ((ticks & SG_TICKS_MAX) << 8) | kind,
				  ((uint64_t)aux << 32) | id };
	return r;
}

/* Records of every kind byte 0..255 with ticks, ids and aux that stress the encoding. */
static size_t make_records(struct sg_event_rec *r, size_t cap)
{
	static const uint64_t ticks[] = { 0, 0, 1, SG_TICKS_MAX, SG_TICKS_MAX, 0, 5,
					  (UINT64_C(1) << 55), 3, UINT64_C(0x123456789abcd) };
	static const uint32_t vals[] = { 0, SG_NO_ID, 1, 0x7fffffffu, 0x80000000u, 127, 128,
					 0xfffffffeu, 16383, 16384 };
	size_t n = 0, nv = sizeof vals / sizeof vals[0], nt = sizeof ticks / sizeof ticks[0];
	for (unsigned k = 0; k < 256 && n < cap; k++) {
		uint64_t t = ticks[k % nt] + k;   /* forward, zero, backward and wrapping deltas */
		r[n++] = rec(t, k, vals[k % nv], vals[(k / nv) % nv]);
	}
	/* the same id and aux as the record before (the tag's flags), zero delta */
	r[n] = r[n - 1];
	n++;
	/* a VALUE record carries a 64-bit word: its extremes */
	static const uint64_t w1s[] = { 0, UINT64_MAX, (uint64_t)INT64_MIN, (uint64_t)INT64_MAX,
					UINT64_C(0xffffffff00000000), UINT64_C(0x00000000ffffffff) };
	for (size_t i = 0; i < sizeof w1s / sizeof w1s[0]; i++) {
		r[n] = rec(1000, SG_EV_COUNTER, 7, 0);
		n++;
		r[n].w0 = ((uint64_t)1000 << 8) | SG_EV_VALUE;
		r[n].w1 = w1s[i];
		n++;
	}
	return n;
}

static void test_codec_round_trip(void **state)
{
	(void)state;
	struct sg_event_rec in[300], out[300];
	size_t n = make_records(in, 280);
	size_t cap = n * SGF_CT_REC_MAX + 16;
	unsigned char *buf = malloc(cap);
	assert_non_null(buf);
	size_t len = sgf_compact_encode(in, n, buf, cap);
	assert_true(len > 0);
	assert_int_equal(len % 16, 0);
	uint64_t back = 0;
	assert_int_equal(sgf_compact_decode(buf, len, out, (uint32_t)n, &back), 0);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(out[i].w0, in[i].w0);
		assert_int_equal(out[i].w1, in[i].w1);
	}
	assert_true(back >> 63);   /* some of them go back in time */
	/* each record of the set alone (a chunk of one: absolute ticks) */
	for (size_t i = 0; i < n; i++) {
		len = sgf_compact_encode(&in[i], 1, buf, cap);
		assert_true(len > 0 && len <= 32);
		assert_int_equal(sgf_compact_decode(buf, len, out, 1, &back), 0);
		assert_int_equal(out[0].w0, in[i].w0);
		assert_int_equal(out[0].w1, in[i].w1);
		assert_false(back >> 63);
	}
	/* too little room: 0, the caller writes the records as they are */
	assert_int_equal(sgf_compact_encode(in, n, buf, 64), 0);
	assert_int_equal(sgf_compact_encode(in, 0, buf, cap), 0);
	free(buf);
}

/* A typical lock-heavy stretch compacts to few bytes per record. */
static void test_codec_size(void **state)
{
	(void)state;
	struct sg_event_rec in[3000];
	uint64_t t = UINT64_C(1) << 40;
	size_t n = 0;
	for (int i = 0; i < 1000; i++) {
		uint32_t lock = 1u + (uint32_t)(i % 4);
		in[n++] = rec(t += 300, SG_EV_LOCK_REQUEST, lock, SG_LOCK_MUTEX);
		in[n++] = rec(t += 40, SG_EV_LOCK_ACQUIRED, lock, SG_LOCK_MUTEX);
		in[n++] = rec(t += 90, SG_EV_LOCK_RELEASE, lock, SG_LOCK_MUTEX);
	}
	unsigned char buf[3000 * 16];
	size_t len = sgf_compact_encode(in, n, buf, sizeof buf);
	assert_true(len > 0);
	assert_true(len <= n * 4 + 16);   /* <= 4 bytes a record */
}

static void test_codec_malformed(void **state)
{
	(void)state;
	struct sg_event_rec out[4];
	uint64_t back;
	/* a dt of 9 bytes */
	unsigned char a[16] = { 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1 };
	assert_int_equal(sgf_compact_decode(a, 16, out, 1, &back), -EINVAL);
	/* an id beyond 32 bits */
	unsigned char b[16] = { 1, 0, 0xff, 0xff, 0xff, 0xff, 0x7f, 1 };
	assert_int_equal(sgf_compact_decode(b, 16, out, 1, &back), -EINVAL);
	/* fewer records than n (zero bytes read as records of kind 0: 4 bytes each) */
	unsigned char c[16] = { 1 | SGF_CT_SAME_ID | SGF_CT_SAME_AUX, 5 };
	struct sg_event_rec many[8];
	assert_int_equal(sgf_compact_decode(c, 16, out, 1, &back), 0);
	assert_int_equal(sgf_compact_decode(c, 16, many, 5, &back), -EINVAL);
	/* bytes other than zero after the records */
	c[9] = 1;
	assert_int_equal(sgf_compact_decode(c, 16, out, 1, &back), -EINVAL);
	/* an escaped kind below 63 */
	unsigned char d[16] = { SGF_CT_KIND_ESC | SGF_CT_SAME_ID | SGF_CT_SAME_AUX, 5, 0 };
	assert_int_equal(sgf_compact_decode(d, 16, out, 1, &back), -EINVAL);
	/* a record cut by the end of the payload */
	unsigned char e[2] = { 1, 0x80 };
	assert_int_equal(sgf_compact_decode(e, 2, out, 1, &back), -EINVAL);
}

/* Writes thread 0 with every valid event kind and values, in chunks of `chunk` records,
 * compact or not, at minor version `minor` (0: the current one); returns the records in
 * `recs` as written. */
static size_t write_all_kinds(const char *dir, int compact, uint16_t minor, uint32_t chunk,
			      struct sg_event_rec *recs)
{
	struct sgw_trace *w;
	struct sgw_stream *s;
	struct sgw_options o = { .chunk_recs = chunk, .compact = (uint16_t)compact,
				 .version_minor = minor, .clock = SGF_CLOCK_TSC,
				 .epoch_ns = 1000 };
	assert_int_equal(sgw_create(dir, &o, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &s), 0);
	size_t n = 0;
	uint64_t t = 0;
	static const uint32_t vals[] = { 0, SG_NO_ID, 1, 0x7fffffffu, 0xfffffffeu, 300 };
	for (int round = 0; round < 3; round++) {
		for (unsigned k = 1; k < SG_EV_KIND_COUNT; k++) {
			if (k == SG_EV_VALUE)
				continue;
			uint32_t id = vals[(k + (unsigned)round) % 6];
			uint32_t aux = vals[(k * 5u + (unsigned)round) % 6];
			/* zero, small and large deltas */
			t += k % 3 == 0 ? 0 : k % 3 == 1 ? 17 : (UINT64_C(1) << (20 + k % 20));
			if (sg_kind_has_value((enum sg_ev_kind)k)) {
				int64_t v = round == 0 ? INT64_MIN : round == 1 ? INT64_MAX : -1;
				assert_int_equal(sgw_value(s, t, (enum sg_ev_kind)k, id, v), 0);
				recs[n++] = rec(t, k, id, 0);
				recs[n].w0 = (t << 8) | SG_EV_VALUE;
				recs[n++].w1 = (uint64_t)v;
			} else {
				assert_int_equal(sgw_event(s, t, (enum sg_ev_kind)k, id, aux), 0);
				recs[n++] = rec(t, k, id, aux);
			}
		}
	}
	/* the last tick the format holds */
	assert_int_equal(sgw_event(s, SG_TICKS_MAX, SG_EV_THREAD_END, 0, 0), 0);
	recs[n++] = rec(SG_TICKS_MAX, SG_EV_THREAD_END, 0, 0);
	assert_int_equal(sgw_close(w, 0), 0);
	return n;
}

/* Reads thread 0 through the cursor and checks it against recs; also through the iterator. */
static void read_back(const char *dir, const struct sg_event_rec *recs, size_t n)
{
	struct sgr_trace *t = tu_open_ok(dir);
	struct sgr_cursor c;
	struct sgr_span sp;
	size_t k = 0;
	sgr_cursor_init(&c, t, 0);
	while (sgr_cursor_next(&c, &sp)) {
		for (size_t i = 0; i < sp.n; i++, k++) {
			assert_true(k < n);
			assert_int_equal(sp.recs[i].w0, recs[k].w0);
			assert_int_equal(sp.recs[i].w1, recs[k].w1);
		}
	}
	assert_int_equal(k, n);
	struct sgr_event *e;
	size_t ne = tu_events(t, 0, 0, &e);
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		if (sg_rec_kind(&recs[i]) == SG_EV_VALUE)
			continue;
		assert_true(j < ne);
		assert_int_equal(e[j].kind, sg_rec_kind(&recs[i]));
		assert_int_equal(e[j].ticks, sg_rec_ticks(&recs[i]));
		assert_int_equal(e[j].id, sg_rec_id(&recs[i]));
		if (sg_kind_has_value(e[j].kind))
			assert_int_equal((uint64_t)e[j].value, recs[i + 1].w1);
		else
			assert_int_equal(e[j].aux, sg_rec_aux(&recs[i]));
		j++;
	}
	assert_int_equal(j, ne);
	free(e);
	assert_int_equal(sgr_verify(t), 0);
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		fprintf(stderr, "problem: %s\n", sgr_problem(t, i));
	assert_int_equal(sgr_n_problems(t), 0);
	assert_true(sgr_thread(t, 0)->complete);
	sgr_close(t);
}

/* The flags of chunk 0 and its payload length, read from the file. */
static void chunk0(const char *dir, uint32_t *flags, uint64_t *payload_bytes)
{
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, dir, 0);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	struct sgf_chunk_header h;
	assert_int_equal(pread(fd, &h, sizeof h, 64), (ssize_t)sizeof h);
	close(fd);
	*flags = h.flags;
	*payload_bytes = h.payload_bytes;
}

static void test_trace_every_kind(void **state)
{
	struct tu_fixture *f = *state;
	struct sg_event_rec recs[512];
	/* one chunk, then chunks of 7 (values never split), compact */
	for (int pass = 0; pass < 2; pass++) {
		tu_rm_rf(f->dir);
		size_t n = write_all_kinds(f->dir, 1, 0, pass ? 7 : 4096, recs);
		uint32_t flags;
		uint64_t pb;
		chunk0(f->dir, &flags, &pb);
		assert_int_equal(flags, SGF_CHUNK_COMPACT);
		assert_true(pb > 0 && pb % 16 == 0);
		read_back(f->dir, recs, n);
	}
}

/* Traces of the older formats still read: 16-byte records, minor version 5 (what libsgtrace
 * wrote before 1.6) and the current minor without compaction (SG_TRACE_COMPACT=0). */
static void test_old_format_reads(void **state)
{
	struct tu_fixture *f = *state;
	struct sg_event_rec recs[512];
	static const uint16_t minors[] = { 5, 0 };
	for (int i = 0; i < 2; i++) {
		tu_rm_rf(f->dir);
		size_t n = write_all_kinds(f->dir, 0, minors[i], 7, recs);
		uint32_t flags;
		uint64_t pb;
		chunk0(f->dir, &flags, &pb);
		assert_int_equal(flags, 0);
		assert_int_equal(pb, 0);
		read_back(f->dir, recs, n);
		struct sgr_trace *t = tu_open_ok(f->dir);
		assert_int_equal(sgr_info(t)->version_minor, minors[i] ? minors[i] : SGF_VERSION_MINOR);
		sgr_close(t);
	}
}

/* 40 lock events in compact chunks of 8: five chunks. Returns their file offsets in off[]
 * (6: the last is the trailer's). */
static void write_locks(const char *dir, off_t *off)
{
	struct sgw_trace *w;
	struct sgw_stream *s;
	struct sgw_options o = { .chunk_recs = 8, .compact = 1 };
	assert_int_equal(sgw_create(dir, &o, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &s), 0);
	for (uint32_t i = 0; i < 40; i++)
		assert_int_equal(sgw_event(s, 1000u + 100u * i, SG_EV_LOCK_REQUEST + i % 3, i,
					   SG_LOCK_MUTEX), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, dir, 0);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	off[0] = 64;
	for (int k = 0; k < 5; k++) {
		struct sgf_chunk_header h;
		assert_int_equal(pread(fd, &h, sizeof h, off[k]), (ssize_t)sizeof h);
		assert_int_equal(h.flags, SGF_CHUNK_COMPACT);
		assert_int_equal(h.n_recs, 8);
		off[k + 1] = off[k] + 64 + (off_t)h.payload_bytes;
	}
	close(fd);
}

static void flip(const char *dir, off_t at)
{
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, dir, 0);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	unsigned char b;
	assert_int_equal(pread(fd, &b, 1, at), 1);
	b ^= 0x10;
	assert_int_equal(pwrite(fd, &b, 1, at), 1);
	close(fd);
}

/* The ids read from thread 0, in order. */
static size_t ids(const char *dir, struct sgr_trace **tp, uint32_t *out)
{
	struct sgr_trace *t = tu_open_ok(dir);
	struct sgr_event *e;
	size_t n = tu_events(t, 0, 0, &e);
	for (size_t i = 0; i < n; i++)
		out[i] = e[i].id;
	free(e);
	*tp = t;
	return n;
}

static void test_damaged_compact_chunk(void **state)
{
	struct tu_fixture *f = *state;
	off_t off[6];
	write_locks(f->dir, off);
	flip(f->dir, off[2] + 64 + 5);   /* a byte of chunk 2's payload */
	struct sgr_trace *t;
	uint32_t got[64];
	size_t n = ids(f->dir, &t, got);
	assert_int_equal(n, 32);
	for (uint32_t i = 0, k = 0; i < 40; i++)
		if (i / 8 != 2)
			assert_int_equal(got[k++], i);
	assert_int_equal(sgr_n_problems(t), 1);
	assert_string_equal(sgr_problem(t, 0), "thread.0.sgs: chunk 2: bad checksum");
	assert_int_equal(sgr_thread(t, 0)->n_damaged, 1);
	assert_true(sgr_thread(t, 0)->complete);
	sgr_close(t);
	/* with the payload checks skipped the damage is found by the decoder or not at all, but
	 * the reader stays total: it reads what it can and never more than the chunk says */
	struct sgr_trace *u = NULL;
	char err[256];
	assert_int_equal(sgr_open(f->dir, SGR_NO_VERIFY, &u, err, sizeof err), 0);
	struct sgr_event *e;
	assert_true(tu_events(u, 0, 0, &e) <= 40);
	free(e);
	sgr_close(u);
}

static void test_damaged_compact_header_resyncs(void **state)
{
	struct tu_fixture *f = *state;
	off_t off[6];
	write_locks(f->dir, off);
	flip(f->dir, off[1] + 48);   /* chunk 1's payload_bytes */
	struct sgr_trace *t;
	uint32_t got[64];
	size_t n = ids(f->dir, &t, got);
	assert_int_equal(n, 32);
	assert_int_equal(got[7], 7);
	assert_int_equal(got[8], 16);
	char want[128];
	snprintf(want, sizeof want, "thread.0.sgs: chunk 1: bad header at offset %lld",
		 (long long)off[1]);
	assert_non_null(strstr(sgr_problem(t, 0), want));
	assert_true(sgr_thread(t, 0)->complete);
	sgr_close(t);
}

static void test_cut_compact_chunk(void **state)
{
	struct tu_fixture *f = *state;
	off_t off[6];
	write_locks(f->dir, off);
	char path[PATH_MAX];
	sgw_stream_path(path, sizeof path, f->dir, 0);
	assert_int_equal(truncate(path, off[3] + 64 + 3), 0);   /* inside chunk 3's payload */
	struct sgr_trace *t;
	uint32_t got[64];
	size_t n = ids(f->dir, &t, got);
	assert_int_equal(n, 24);
	assert_int_equal(got[23], 23);
	assert_false(sgr_thread(t, 0)->complete);
	assert_int_equal(sgr_n_problems(t), 2);
	char want[128];
	snprintf(want, sizeof want, "thread.0.sgs: chunk 3: cut short (67 of %lld bytes)",
		 (long long)(off[4] - off[3]));
	assert_string_equal(sgr_problem(t, 0), want);
	assert_non_null(strstr(sgr_problem(t, 1), "thread.0.sgs: no trailer"));
	sgr_close(t);
}

#define CASE(fn) cmocka_unit_test_setup_teardown(fn, setup, tu_fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_round_trip),
		cmocka_unit_test(test_codec_size),
		cmocka_unit_test(test_codec_malformed),
		CASE(test_trace_every_kind),
		CASE(test_old_format_reads),
		CASE(test_damaged_compact_chunk),
		CASE(test_damaged_compact_header_resyncs),
		CASE(test_cut_compact_chunk),
	};
	return cmocka_run_group_tests_name("compact", tests, NULL, NULL);
}
