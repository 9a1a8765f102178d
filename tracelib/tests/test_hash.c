/*
 * test_hash.c — the chunk checksum the recorder keeps while it stores records (sgt_hash.h)
 * against the reader's XXH64 (sgf_hash): the same value for every record count, odd and even,
 * short and long; then for real, chunks of 0 to 40 records flushed by this thread, by the
 * counter-value pair path and by a full buffer, must all read back with no damaged chunk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sgf_int.h"
#include "sgt_hash.h"
#include "sgtrace.h"
#include "sgtrace_read.h"
#include "tutil.h"

/* The kept checksum of n records, stripe by stripe as the recorder adds them. */
static uint64_t kept_hash(const struct sg_event_rec *buf, size_t n)
{
	uint64_t v[4];
	sgt_hash_init(v);
	for (size_t i = 1; i < n; i += 2)
		sgt_hash_stripe(v, &buf[i - 1], buf[i].w0, buf[i].w1);
	return sgt_hash_finish(v, buf, n);
}

static void kept_equals_xxh64(void **state)
{
	(void)state;
	enum { N = 300 };
	struct sg_event_rec *buf = malloc(N * sizeof *buf);
	assert_non_null(buf);
	uint64_t x = UINT64_C(0x243F6A8885A308D3);
	for (size_t i = 0; i < N; i++) {   /* xorshift: fixed, full-width words */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i].w0 = x;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i].w1 = x;
	}
	for (size_t n = 0; n <= N; n++)
		if (kept_hash(buf, n) != sgf_hash(buf, (uint64_t)n * sizeof *buf))
			fail_msg("%zu records: kept checksum differs from XXH64", n);
	free(buf);
}

static void recorded_chunks_verify(void **state)
{
	(void)state;
	static struct sg_func_desc fd = { "hashed", "test_hash.c", 1, 0 };
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	for (int k = 0; k <= 40; k++) {   /* one chunk of each length, with each parity */
		for (int i = 0; i < k; i++)
			sg_func_enter_rec(&fd);
		sg_trace_flush();
	}
	for (int k = 0; k < 5; k++) {     /* counter pairs at both parities */
		sg_counter_add_rec("hash-test", k);
		sg_func_enter_rec(&fd);
		sg_counter_add_rec("hash-test", k);
		sg_trace_flush();
	}
	for (int i = 0; i < 300000; i++) {    /* fills 64 KiB buffers: flushes from the hot path */
		sg_pthread_mutex_lock(&m);
		sg_pthread_mutex_unlock(&m);
	}
	sg_trace_flush();
	struct sgr_trace *t = tu_open_ok(sg_trace_dir());
	assert_int_equal(sgr_verify(t), 0);
	const struct sgr_thread *st = sgr_thread(t, 0);
	assert_int_equal(st->n_damaged, 0);
	assert_true(st->n_chunks > 100);
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		if (!tu_problem_live(sgr_problem(t, i)))   /* still running */
			fail_msg("%s", sgr_problem(t, i));
	sgr_close(t);
}

int main(int argc, char **argv)
{
	setenv("SG_TRACE_BUFFER", "64K", 0);
	tu_reexec_traced(argc, argv, "hash", sg_trace_dir());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_equals_xxh64),
		cmocka_unit_test(recorded_chunks_verify),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_reexec_cleanup("hash");
	return rc;
}
