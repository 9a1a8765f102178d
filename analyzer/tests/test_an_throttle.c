/*
 * test_an_throttle.c — overhead control and the library's own cost, on synthetic traces with
 * hand-computed answers (ns ticks, so every figure is exact): functions whose calls were counted
 * instead of recorded (format 1.3: FUNC_THROTTLED, FUNC_UNRECORDED, FUNC_UNRECORDED_TIME) in the
 * profile, the trace budget as a run note, and the tracing cost with its compensated figures.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "an_int.h"
#include "an_synth.h"

/* One record and, for the kinds that carry one, its value (the library writes the aux of
 * FUNC_THROTTLED, which sgw_value cannot: raw records, pair kept in one chunk). */
struct ev {
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
	int64_t value;
};
#define E(t, k, id) { (t), SG_EV_##k, (id), 0, 0 }
#define V(t, k, id, aux, v) { (t), SG_EV_##k, (id), (aux), (v) }
#define END { 0, SG_EV_NONE, 0, 0, 0 }

static void write_thread(struct sgw_trace *w, uint32_t index, const struct ev *ev, size_t n)
{
	struct sgw_stream *s = NULL;
	assert_int_equal(sgw_thread(w, index, SG_NO_ID, 0, &s), 0);
	for (size_t i = 0; i < n && ev[i].kind != SG_EV_NONE; i++) {
		const struct ev *e = &ev[i];
		if (!sg_kind_has_value(e->kind)) {
			assert_int_equal(sgw_event(s, e->t, e->kind, e->id, e->aux), 0);
			continue;
		}
		struct sg_event_rec a = { sg_rec_w0(e->t, e->kind), sg_rec_w1(e->id, e->aux) };
		struct sg_event_rec b = { sg_rec_w0(e->t, SG_EV_VALUE), (uint64_t)e->value };
		assert_int_equal(sgw_raw(s, &a), 0);
		assert_int_equal(sgw_raw(s, &b), 0);
	}
}

static int has_note(const struct an_run *r, const char *text)
{
	for (size_t i = 0; i < an_run_n_notes(r); i++)
		if (strstr(an_run_note(r, i), text))
			return 1;
	return 0;
}

static const struct an_func *func_named(const struct an_run *r, const char *name)
{
	for (size_t i = 0; i < an_run_n_funcs(r); i++)
		if (!strcmp(an_run_func(r, i)->name, name))
			return an_run_func(r, i);
	fail_msg("no function %s in the profile", name);
	return NULL;
}

/* walk (1) calls leaf (2) in two threads. Thread 0 records 2 calls of leaf (10 + 10 ns), is
 * throttled at 55 after them (rule) and counts 500 more (4000 ns estimated). Thread 1 records 1
 * call (5 ns), is throttled at 30 (rule), writes an intermediate count (100, 900 ns: superseded)
 * and a last one (300, 2000 ns); it also crosses the trace budget at 700 ns after 1.0 GB.
 * leaf: 3 + 800 = 803 calls, incl 25 + 6000 ns (estimated part 6000), excl 25; throttled first
 * by thread 1 at 30 ns after 1 call, in 2 threads. walk: 2 calls of 8990 ns, excl 17980 - 25:
 * the counted calls' time stays in their caller's exclusive time. Records: 14 + 18 = 32. */
static const char *throttle_trace(void)
{
	static const struct ev t0[] = {
		E(0, THREAD_BEGIN, SG_NO_ID), E(10, FUNC_ENTER, 1), E(20, FUNC_ENTER, 2),
		E(30, FUNC_EXIT, 2), E(40, FUNC_ENTER, 2), E(50, FUNC_EXIT, 2),
		V(55, FUNC_THROTTLED, 2, SG_THROTTLE_RULE, 2), E(9000, FUNC_EXIT, 1),
		V(9010, FUNC_UNRECORDED, 2, 0, 500), V(9010, FUNC_UNRECORDED_TIME, 2, 0, 4000),
		E(10000, THREAD_END, 0), END
	};
	static const struct ev t1[] = {
		E(0, THREAD_BEGIN, SG_NO_ID), E(10, FUNC_ENTER, 1), E(20, FUNC_ENTER, 2),
		E(25, FUNC_EXIT, 2), V(30, FUNC_THROTTLED, 2, SG_THROTTLE_RULE, 1),
		V(500, FUNC_UNRECORDED, 2, 0, 100), V(500, FUNC_UNRECORDED_TIME, 2, 0, 900),
		V(700, TRACE_BUDGET, 0, 0, 1000000000), E(9000, FUNC_EXIT, 1),
		V(9010, FUNC_UNRECORDED, 2, 0, 300), V(9010, FUNC_UNRECORDED_TIME, 2, 0, 2000),
		E(10000, THREAD_END, 0), END
	};
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_function(w, 1, "walk", "t.c", 1), 0);
	assert_int_equal(sgw_function(w, 2, "leaf", "t.c", 9), 0);
	write_thread(w, 0, t0, sizeof t0 / sizeof t0[0]);
	write_thread(w, 1, t1, sizeof t1 / sizeof t1[0]);
	assert_int_equal(sgw_close(w, 0), 0);
	return dir;
}

static void test_throttled_function_in_profile(void **state)
{
	const char *dir = throttle_trace();
	struct an_run *r = syn_open_run(dir, NULL);
	assert_int_equal(an_run_n_funcs(r), 2);
	const struct an_func *leaf = func_named(r, "leaf"), *walk = func_named(r, "walk");
	assert_int_equal(leaf->rec_calls, 3);
	assert_int_equal(leaf->unrec_calls, 800);
	assert_int_equal(leaf->calls, 803);
	assert_int_equal(leaf->unrec_ns, 6000);
	assert_int_equal(leaf->incl_ns, 6025);
	assert_int_equal(leaf->excl_ns, 25);
	assert_int_equal(leaf->throttled, SG_THROTTLE_RULE);
	assert_int_equal(leaf->throttled_ns, 30);
	assert_int_equal(leaf->throttled_after, 1);
	assert_int_equal(leaf->n_throttled, 2);
	assert_int_equal(walk->calls, 2);
	assert_int_equal(walk->throttled, 0);
	assert_int_equal(walk->unrec_calls, 0);
	assert_int_equal(walk->incl_ns, 2 * 8990);
	assert_int_equal(walk->excl_ns, 2 * 8990 - 25);
	assert_ptr_equal(an_run_func(r, 0), walk);   /* largest exclusive time first */
	assert_int_equal(an_run_thread(r, 0)->n_records, 14);
	assert_int_equal(an_run_thread(r, 1)->n_records, 18);
	assert_int_equal(an_run_thread(r, 0)->unrec_calls, 500);
	assert_int_equal(an_run_thread(r, 1)->unrec_calls, 300);
	assert_true(has_note(r, "1 function(s) throttled"));
	assert_true(has_note(r, "trace budget SG_TRACE_MAX reached at 7e-07 s after 1.0 GB: "
			     "function probes stopped; sync events complete"));
	assert_int_equal(an_run_n_problems(r), 0);

	/* the text profile says it; the JSON lists it */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(an_report_run_text(f, r), 0);
	fclose(f);
	assert_non_null(strstr(buf, "leaf                       ~        803"));
	assert_non_null(strstr(buf, "  throttled: after 1 calls at 3e-08 s (rule) on the first of 2 "
			       "threads; 800 calls counted, ~6.00 us estimated\n"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(an_report_run_json(f, r), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"calls\": 803, \"incl_ns\": 6025, \"excl_ns\": 25"));
	assert_non_null(strstr(buf, "\"recorded_calls\": 3, \"unrecorded_calls\": 800, "
			       "\"unrecorded_ns\": 6000, \"throttled\": {\"why\": \"rule\", "
			       "\"at_ns\": 30, \"after_calls\": 1, \"threads\": 2}"));
	free(buf);
	an_run_free(r);
	syn_rmtree(dir);
}

/* The same trace with record_ns 10 and unrecorded_call_ns 1: thread 0 costs 14 x 10 + 500 x 1
 * = 640 ns, thread 1 18 x 10 + 300 x 1 = 480 ns: 1120 ns, of N T_para = 20000 ns 5.6 %. All
 * of it falls in compute: T_para_comp = 10000 - 1120 / 2 = 9440 ns; with T_seq 15000 ns,
 * E = 0.75 and E_comp = 15000 / 18880. Without a record cost, every cost figure says why. */
static void test_trace_cost_with_counted_calls(void **state)
{
	const char *dir = throttle_trace();
	struct an_run_opts o = { .record_ns = 10, .unrecorded_call_ns = 1, .t_seq_s = 15000e-9 };
	struct an_run *r = syn_open_run(dir, &o);
	syn_assert_fig_ns(r, AN_TRACE_COST, 1120);
	syn_assert_fig(r, AN_TRACE_SHARE, 1120.0 / 20000);
	assert_int_equal(an_run_thread(r, 0)->trace_cost_ns, 640);
	assert_int_equal(an_run_thread(r, 1)->trace_cost_ns, 480);
	syn_assert_fig_ns(r, AN_T_PARA_C, 9440);
	syn_assert_fig(r, AN_E, 0.75);
	syn_assert_fig(r, AN_E_C, 15000.0 / 18880);
	syn_assert_fig_ns(r, AN_L_C, 0);
	an_run_free(r);

	r = syn_open_run(dir, NULL);
	static const enum an_metric na[] = { AN_TRACE_COST, AN_TRACE_SHARE, AN_T_PARA_C, AN_E_C,
					     AN_L_C, AN_PT_LOCK_C, AN_CLOSURE_C };
	for (size_t k = 0; k < sizeof na / sizeof na[0]; k++) {
		struct an_fig x = an_run_fig(r, na[k]);
		assert_non_null(x.unavailable);
		assert_string_equal(x.unavailable, "no calibrated record cost: run scalegraph "
				    "calibrate");
	}
	assert_int_equal(an_run_thread(r, 0)->trace_cost_ns, -1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(an_report_run_text(f, r), 0);
	fclose(f);
	assert_non_null(strstr(buf, "  tracing cost: unavailable (no calibrated record cost: run "
			       "scalegraph calibrate)\n"));
	free(buf);
	an_run_free(r);
	syn_rmtree(dir);
}

/* 2 threads of 10,000 records each, record_ns 10: 0.2 ms. Each thread (its own mutex, never
 * contended) begins at 0, enters f at 50, makes 3332 lock cycles k (request 100 + 100 k,
 * acquired + 40, release + 80), leaves f at 333500 and ends at 333600: 1 + 2 + 3 x 3332 + 1 =
 * 10000 records. T_para = 333600 ns, PT_lock = 3332 x 40 = 133280 ns per thread (no release
 * cost given). The 9996 lock records cost 99960 ns per thread, out of PT_lock (66640 ns left
 * of the two); the 4 others 40 ns, out of compute. T_para_comp = 333600 - 200000 / 2 =
 * 233600 ns; L = 266560 / 2 = 133280 ns, L_comp = 66640 / 2 = 33320 ns. With T_seq 400000 ns:
 * U = 2 x 333600 - 400000 - 266560 = 640 ns (no time budget: the residual of (3)), U_comp =
 * 2 x 233600 - 400000 - 66640 = 560 ns: the books close on both sides. */
static void test_trace_cost_hand_computed(void **state)
{
	const size_t n = 10000;
	struct ev *t[2];
	for (int th = 0; th < 2; th++) {
		struct ev *v = calloc(n + 1, sizeof *v);
		assert_non_null(v);
		size_t k = 0;
		uint32_t lock = (uint32_t)th + 1;
		v[k++] = (struct ev)E(0, THREAD_BEGIN, SG_NO_ID);
		v[k++] = (struct ev)E(50, FUNC_ENTER, 1);
		for (uint64_t c = 0; c < 3332; c++) {
			v[k++] = (struct ev){ 100 + 100 * c, SG_EV_LOCK_REQUEST, lock, SG_LOCK_MUTEX, 0 };
			v[k++] = (struct ev){ 140 + 100 * c, SG_EV_LOCK_ACQUIRED, lock, SG_LOCK_MUTEX, 0 };
			v[k++] = (struct ev){ 180 + 100 * c, SG_EV_LOCK_RELEASE, lock, SG_LOCK_MUTEX, 0 };
		}
		v[k++] = (struct ev)E(333500, FUNC_EXIT, 1);
		v[k++] = (struct ev)E(333600, THREAD_END, 0);
		assert_int_equal(k, n);
		v[k] = (struct ev)END;
		t[th] = v;
	}
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_function(w, 1, "work", "t.c", 1), 0);
	assert_int_equal(sgw_object(w, 1, SG_OBJ_MUTEX, 0x1000), 0);
	assert_int_equal(sgw_object(w, 2, SG_OBJ_MUTEX, 0x2000), 0);
	write_thread(w, 0, t[0], n + 1);
	write_thread(w, 1, t[1], n + 1);
	assert_int_equal(sgw_close(w, 0), 0);
	free(t[0]);
	free(t[1]);

	struct an_run_opts o = { .record_ns = 10, .t_seq_s = 400000e-9, .n_threads = 2 };
	struct an_run *r = syn_open_run(dir, &o);
	assert_int_equal(an_run_thread(r, 0)->n_records, 10000);
	assert_int_equal(an_run_thread(r, 1)->n_records, 10000);
	syn_assert_fig_ns(r, AN_TRACE_COST, 200000);
	syn_assert_fig(r, AN_TRACE_SHARE, 200000.0 / (2 * 333600));
	syn_assert_fig_ns(r, AN_PT_LOCK, 266560);
	syn_assert_fig_ns(r, AN_PT_LOCK_C, 66640);
	syn_assert_fig_ns(r, AN_PT_C, 66640);
	syn_assert_fig_ns(r, AN_T_PARA_C, 233600);
	syn_assert_fig_ns(r, AN_L, 133280);
	syn_assert_fig_ns(r, AN_L_C, 33320);
	syn_assert_fig_ns(r, AN_U, 640);
	syn_assert_fig_ns(r, AN_U_C, 560);
	syn_assert_fig(r, AN_E_C, 400000.0 / (2 * 233600));
	/* the compensated books: N T_para_comp = IT_comp + PT_comp + T_seq + U_comp */
	double books = an_run_fig(r, AN_IT_C).value + an_run_fig(r, AN_PT_C).value + 400000e-9 +
		       an_run_fig(r, AN_U_C).value;
	assert_true(fabs(2 * an_run_fig(r, AN_T_PARA_C).value - books) < 1e-13);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(an_report_run_text_flags(f, r, AN_REPORT_COMPENSATE), 0);
	fclose(f);
	assert_non_null(strstr(buf, "  tracing cost: 30.0 % of N·T_para (200 us): above 5 %"));
	assert_non_null(strstr(buf, "\nPT_lock                  267 us      66.6 us\n"));
	free(buf);
	an_run_free(r);
	syn_rmtree(dir);
}

/* One thread throttles 1000 functions (ids 1..1000, rule) and counts id calls of function id,
 * written in the reverse order of the throttling (the table of a thread grows and is searched
 * by function): every function gets exactly its count, the thread 500500. A count for an id the
 * definitions do not declare is skipped and counted in the problem line, as any record of one. */
static void test_many_throttled_functions(void **state)
{
	const size_t nf = 1000, n = 2 + 2 * nf + 2;
	struct ev *v = calloc(n + 1, sizeof *v);
	assert_non_null(v);
	size_t k = 0;
	v[k++] = (struct ev)E(0, THREAD_BEGIN, SG_NO_ID);
	for (uint32_t f = 1; f <= nf; f++)
		v[k++] = (struct ev){ 10 + f, SG_EV_FUNC_THROTTLED, f, SG_THROTTLE_RULE, 0 };
	for (uint32_t f = (uint32_t)nf; f >= 1; f--)
		v[k++] = (struct ev){ 5000 + (nf - f), SG_EV_FUNC_UNRECORDED, f, 0, f };
	v[k++] = (struct ev){ 7000, SG_EV_FUNC_UNRECORDED, 0x7000000, 0, 99 };
	v[k++] = (struct ev)E(8000, THREAD_END, 0);
	v[k] = (struct ev)END;
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	for (uint32_t f = 1; f <= nf; f++) {
		char name[16];
		snprintf(name, sizeof name, "f%u", f);
		assert_int_equal(sgw_function(w, f, name, "t.c", (int)f), 0);
	}
	write_thread(w, 0, v, k + 1);
	assert_int_equal(sgw_close(w, 0), 0);
	free(v);
	struct an_run *r = syn_open_run(dir, NULL);
	assert_int_equal(an_run_n_funcs(r), nf);
	for (size_t i = 0; i < nf; i++) {
		const struct an_func *x = an_run_func(r, i);
		assert_int_equal(x->unrec_calls, x->id);
		assert_int_equal(x->calls, x->id);
		assert_int_equal(x->rec_calls, 0);
		assert_int_equal(x->throttled, SG_THROTTLE_RULE);
		assert_int_equal(x->throttled_ns, 10 + x->id);
	}
	assert_int_equal(an_run_thread(r, 0)->unrec_calls, 500500);
	assert_int_equal(an_run_n_problems(r), 1);
	assert_non_null(strstr(an_run_problem(r, 0), "1 record(s) name an id the definitions"));
	an_run_free(r);
	syn_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throttled_function_in_profile),
		cmocka_unit_test(test_trace_cost_with_counted_calls),
		cmocka_unit_test(test_trace_cost_hand_computed),
		cmocka_unit_test(test_many_throttled_functions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
