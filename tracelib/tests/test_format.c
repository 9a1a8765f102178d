/*
 * test_format.c — the encoding layer shared by writer and reader (sgf.c): the XXH64 checksum
 * (reference value, every flipped byte detected), chunk headers, trailers, file headers and
 * definition records (sealed, checked, damage and truncation detected), kind names; the JSON
 * string writer every tool shares (sgr_json.c: valid UTF-8 whatever the bytes).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sgf_int.h"
#include "sgtrace_read.h"

static void test_hash_reference(void **state)
{
	(void)state;
	/* XXH64("", 0) from the reference implementation. */
	assert_true(sgf_hash("", 0) == UINT64_C(0xEF46DB3751D8E999));
	/* Deterministic and length-sensitive. */
	uint64_t w[8] = { 0 };
	assert_true(sgf_hash(w, 64) == sgf_hash(w, 64));
	assert_true(sgf_hash(w, 64) != sgf_hash(w, 56));
}

static void test_hash_detects_every_flipped_byte(void **state)
{
	(void)state;
	unsigned char buf[1024];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	uint64_t h = sgf_hash(buf, sizeof buf);
	for (size_t i = 0; i < sizeof buf; i++) {
		for (int bit = 0; bit < 8; bit++) {
			buf[i] ^= (unsigned char)(1u << bit);
			assert_true(sgf_hash(buf, sizeof buf) != h);
			buf[i] ^= (unsigned char)(1u << bit);
		}
	}
	/* Every value of one byte, at a few places (lanes 0..3 and the tail). */
	size_t places[] = { 0, 9, 18, 27, 1000, 1023 };
	for (size_t k = 0; k < sizeof places / sizeof places[0]; k++) {
		unsigned char orig = buf[places[k]];
		for (int v = 0; v < 256; v++) {
			if (v == orig)
				continue;
			buf[places[k]] = (unsigned char)v;
			assert_true(sgf_hash(buf, sizeof buf) != h);
		}
		buf[places[k]] = orig;
	}
}

static void test_chunk_seal_and_check(void **state)
{
	(void)state;
	struct sg_event_rec recs[3] = {
		{ sg_rec_w0(10, SG_EV_LOCK_REQUEST), sg_rec_w1(1, SG_LOCK_MUTEX) },
		{ sg_rec_w0(20, SG_EV_LOCK_ACQUIRED), sg_rec_w1(1, SG_LOCK_MUTEX) },
		{ sg_rec_w0(30, SG_EV_LOCK_RELEASE), sg_rec_w1(1, SG_LOCK_MUTEX) },
	};
	struct sgf_chunk_header h = { .thread = 2, .seq = 5, .n_recs = 3, .pair_ticks = 30,
				      .pair_ns = 1030 };
	sgf_chunk_seal(&h, recs);
	assert_int_equal(h.magic, SGF_CHUNK_MAGIC);
	assert_int_equal(sgf_chunk_header_check(&h), 0);
	assert_int_equal(sgf_chunk_payload_check(&h, recs), 0);
	recs[1].w1 ^= UINT64_C(1) << 40;
	assert_int_equal(sgf_chunk_payload_check(&h, recs), -EINVAL);
	recs[1].w1 ^= UINT64_C(1) << 40;
	h.seq = 6;
	assert_int_equal(sgf_chunk_header_check(&h), -EINVAL);
	assert_int_equal(sg_rec_kind(&recs[2]), SG_EV_LOCK_RELEASE);
	assert_int_equal(sg_rec_ticks(&recs[2]), 30);
	assert_int_equal(sg_rec_id(&recs[2]), 1);
	assert_int_equal(sg_rec_aux(&recs[2]), SG_LOCK_MUTEX);
}

static void test_trailer_and_file_header(void **state)
{
	(void)state;
	struct sgf_trailer t = { .thread = 1, .n_chunks = 2, .n_recs = 9, .lost = 3 };
	sgf_trailer_seal(&t);
	assert_int_equal(sgf_trailer_check(&t), 0);
	t.lost = 4;
	assert_int_equal(sgf_trailer_check(&t), -EINVAL);

	struct sgf_file_header h;
	const char *why = NULL;
	sgf_file_header_make(&h, SGF_MAGIC_STREAM, SGF_CLOCK_TSC, 77, 0, 3, 1000, 2000);
	assert_int_equal(sgf_file_header_check(&h, SGF_MAGIC_STREAM, &why), 0);
	assert_int_equal(sgf_file_header_check(&h, SGF_MAGIC_DEFS, &why), -EINVAL);
	assert_string_equal(why, "not a scalegraph trace file (bad magic)");
	h.pid = 78;
	assert_int_equal(sgf_file_header_check(&h, SGF_MAGIC_STREAM, &why), -EINVAL);
	assert_string_equal(why, "file header: bad checksum");
}

static void test_def_encode_check(void **state)
{
	(void)state;
	unsigned char buf[256];
	uint32_t f[2] = { 7, 42 };
	const char *s[2] = { "solve", "prog.c" };
	long n = sgf_def_encode(buf, sizeof buf, SGF_DEF_FUNCTION, f, sizeof f, s, 2);
	assert_int_equal(n, (long)sgf_def_size(8 + 6 + 7));
	assert_int_equal(n % 8, 0);
	assert_int_equal(sgf_def_check(buf, (size_t)n), 0);
	assert_int_equal(sgf_def_check(buf, (size_t)n - 1), -ENODATA);
	assert_int_equal(sgf_def_check(buf, 10), -ENODATA);
	struct sgf_def_header h;
	memcpy(&h, buf, sizeof h);
	assert_int_equal(h.type, SGF_DEF_FUNCTION);
	assert_int_equal(h.len, 21);
	assert_string_equal((char *)buf + 16 + 8, "solve");
	assert_string_equal((char *)buf + 16 + 8 + 6, "prog.c");
	for (long i = 0; i < n; i++) {
		if (i >= 8 && i < 16)
			continue;   /* the hash itself: any change there is a mismatch too */
		buf[i] ^= 0x20;
		int rc = sgf_def_check(buf, (size_t)n);
		assert_true(rc == -EINVAL || rc == -ENODATA);
		buf[i] ^= 0x20;
	}
	assert_int_equal(sgf_def_encode(buf, 20, SGF_DEF_FUNCTION, f, sizeof f, s, 2), -ENOSPC);
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(sg_ev_kind_name(SG_EV_BARRIER_ARRIVE), "barrier_arrive");
	assert_string_equal(sg_ev_kind_name(SG_EV_VALUE), "value");
	assert_string_equal(sg_ev_kind_name((enum sg_ev_kind)200), "?");
	for (int k = 0; k < SG_EV_KIND_COUNT; k++)
		assert_string_not_equal(sg_ev_kind_name((enum sg_ev_kind)k), "?");
	assert_string_equal(sg_obj_kind_name(SG_OBJ_SPIN), "spinlock");
	assert_string_equal(sg_obj_kind_name((enum sg_obj_kind)99), "?");
	assert_string_equal(sg_lock_mode_name(SG_LOCK_RWLOCK_WRITE | SG_LOCK_TRY), "write");
	assert_string_equal(sg_lock_mode_name(SG_LOCK_SPIN), "spin");
	assert_string_equal(sg_lock_mode_name(0), "?");
}

/* Issue 20, item 11: every byte that is not part of a well-formed UTF-8 sequence becomes
 * U+FFFD, well-formed sequences of every length stay as they are (RFC 3629's table). */
static void defect20_json_utf8_bytes(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"" },
		{ "q\"b\\n\x01\x1f", "\"q\\\"b\\\\n\\u0001\\u001f\"" },
		{ "\xff\xfe", "\"\\ufffd\\ufffd\"" },
		{ "a\xc3\xa9z", "\"a\xc3\xa9z\"" },                     /* é */
		{ "\xe2\x82\xac", "\"\xe2\x82\xac\"" },                 /* € */
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },         /* U+1F600 */
		{ "\xe2\x82x", "\"\\ufffd\\ufffdx\"" },                 /* truncated */
		{ "\xc3", "\"\\ufffd\"" },                              /* cut at the end */
		{ "\x80\xbf", "\"\\ufffd\\ufffd\"" },                   /* stray continuations */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },                   /* overlong '/' */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },        /* overlong */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },        /* a surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* above U+10FFFF */
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },         /* U+10FFFF */
		{ "\x7f", "\"\x7f\"" },
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char out[SGR_JSON_MAX(16)];
		size_t n = sgr_json_quote(out, cases[k].in);
		assert_string_equal(out, cases[k].out);
		assert_int_equal(n, strlen(cases[k].out));
		assert_true(n < SGR_JSON_MAX(strlen(cases[k].in)));
	}
	char out[8];
	sgr_json_quote(out, NULL);
	assert_string_equal(out, "\"\"");
	/* the FILE form: the same bytes, also across its buffer (a long name of bad bytes) */
	char big[1000], want[SGR_JSON_MAX(1000)], *got = NULL;
	size_t len = 0;
	memset(big, 0xff, sizeof big - 1);
	big[sizeof big - 1] = 0;
	sgr_json_quote(want, big);
	FILE *f = open_memstream(&got, &len);
	assert_non_null(f);
	assert_int_equal(sgr_json_fput(f, big), 0);
	fclose(f);
	assert_string_equal(got, want);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_reference),
		cmocka_unit_test(test_hash_detects_every_flipped_byte),
		cmocka_unit_test(test_chunk_seal_and_check),
		cmocka_unit_test(test_trailer_and_file_header),
		cmocka_unit_test(test_def_encode_check),
		cmocka_unit_test(test_kind_names),
		cmocka_unit_test(defect20_json_utf8_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
