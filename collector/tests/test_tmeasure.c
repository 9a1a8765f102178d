/*
 * test_tmeasure.c — what `scalegraph run` takes from a run's trace, on synthetic traces written
 * with the trace writer (tracelib/sgtrace_write.h) whose answers are computed by hand: T_para
 * from the "measured" region, else the threads' span, else the wall time; each thread's counter
 * total as its last running-total sample; an unavailable counter as one row with its reason
 * and no value (never zero); a chunk whose payload fails its checksum makes the run incomplete.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sgtrace_format.h"
#include "sgtrace_write.h"
#include "tmeasure.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/sg-test-tmeasure.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Two threads: thread 0 from 100 to 9000 ns, thread 1 from 500 to 8000 ns. With `region`, a
 * region "measured" (id 2, after an earlier region "setup" id 1) from 1000 (thread 0) to 7000
 * (thread 1). task-clock (id 1) running totals 100, 250, 400 on thread 0 and 50, 80 on
 * thread 1; cycles (id 2) unavailable. */
static void write_trace(const char *path, int region)
{
	struct sgw_trace *w;
	struct sgw_stream *t0, *t1;
	assert_int_equal(sgw_create(path, NULL, &w), 0);
	if (region) {
		assert_int_equal(sgw_region(w, 1, "setup"), 0);
		assert_int_equal(sgw_region(w, 2, "measured"), 0);
	}
	assert_int_equal(sgw_counter(w, 1, "task-clock", "ns", SG_COUNTER_SOFTWARE, NULL), 0);
	assert_int_equal(sgw_counter(w, 2, "cycles", "events", SG_COUNTER_HARDWARE,
				     "no hardware PMU (ENOENT)"), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &t0), 0);
	assert_int_equal(sgw_thread(w, 1, 0, 0, &t1), 0);
	assert_int_equal(sgw_event(t0, 100, SG_EV_THREAD_BEGIN, 0, SG_NO_ID), 0);
	assert_int_equal(sgw_counter_value(t0, 100, 1, 100), 0);
	if (region) {
		assert_int_equal(sgw_event(t0, 200, SG_EV_REGION_BEGIN, 1, 0), 0);
		assert_int_equal(sgw_event(t0, 900, SG_EV_REGION_END, 1, 0), 0);
		assert_int_equal(sgw_event(t0, 1000, SG_EV_REGION_BEGIN, 2, 0), 0);
	}
	assert_int_equal(sgw_counter_value(t0, 1000, 1, 250), 0);
	assert_int_equal(sgw_event(t1, 500, SG_EV_THREAD_BEGIN, 1, 0), 0);
	assert_int_equal(sgw_counter_value(t1, 500, 1, 50), 0);
	if (region)
		assert_int_equal(sgw_event(t1, 7000, SG_EV_REGION_END, 2, 0), 0);
	assert_int_equal(sgw_counter_value(t1, 8000, 1, 80), 0);
	assert_int_equal(sgw_event(t1, 8000, SG_EV_THREAD_END, 1, 0), 0);
	assert_int_equal(sgw_counter_value(t0, 9000, 1, 400), 0);
	assert_int_equal(sgw_event(t0, 9000, SG_EV_THREAD_END, 0, 0), 0);
	assert_int_equal(sgw_close(w, 0), 0);
}

static const struct store_counter *find(const struct tmeasure *m, const char *name, int thread)
{
	for (int i = 0; i < m->n_counters; i++)
		if (!strcmp(m->counter[i].name, name) && m->counter[i].thread == thread)
			return &m->counter[i];
	return NULL;
}

static void check_counters(const struct tmeasure *m)
{
	const struct store_counter *c;
	assert_int_equal(m->n_counters, 3);
	c = find(m, "task-clock", 0);
	assert_non_null(c);
	assert_true(c->value == 400);
	assert_string_equal(c->unit, "ns");
	assert_null(c->unavailable);
	c = find(m, "task-clock", 1);
	assert_non_null(c);
	assert_true(c->value == 80);
	c = find(m, "cycles", -1);
	assert_non_null(c);
	assert_true(isnan(c->value));
	assert_string_equal(c->unavailable, "no hardware PMU (ENOENT)");
}

static void t_para_from_measured_region(void **state)
{
	char path[128];
	struct tmeasure m;
	(void)state;
	snprintf(path, sizeof path, "%s/region", dir);
	write_trace(path, 1);
	tmeasure_run(path, 1.5, &m);
	assert_string_equal(m.source, "region");
	assert_string_equal(m.region, "measured");
	assert_true(fabs(m.t_para_s - 6000e-9) < 1e-15);
	check_counters(&m);
	tmeasure_free(&m);
}

static void t_para_from_thread_span(void **state)
{
	char path[128];
	struct tmeasure m;
	(void)state;
	snprintf(path, sizeof path, "%s/span", dir);
	write_trace(path, 0);
	tmeasure_run(path, 1.5, &m);
	assert_string_equal(m.source, "threads");
	assert_true(fabs(m.t_para_s - 8900e-9) < 1e-15);
	check_counters(&m);
	tmeasure_free(&m);
}

static void t_para_from_wall_without_trace(void **state)
{
	char path[128];
	struct tmeasure m;
	(void)state;
	snprintf(path, sizeof path, "%s/none", dir);
	tmeasure_run(path, 1.5, &m);
	assert_string_equal(m.source, "wall");
	assert_true(m.t_para_s == 1.5);
	assert_int_equal(m.n_counters, 0);
	tmeasure_free(&m);
}

/* A byte flipped in the payload of thread 1's chunk: its checksum fails, its events are not
 * taken as measured, and the run says why it is incomplete (the trace was opened without
 * payload checks once: the damage went unseen and the run was stored ok). */
static void damaged_chunk_makes_run_incomplete(void **state)
{
	char path[128], file[160];
	struct tmeasure m;
	(void)state;
	snprintf(path, sizeof path, "%s/damaged", dir);
	write_trace(path, 0);
	snprintf(file, sizeof file, "%s/thread.1.sgs", path);
	FILE *f = fopen(file, "r+b");
	assert_non_null(f);
	long off = (long)(sizeof(struct sgf_file_header) + sizeof(struct sgf_chunk_header) + 2);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	int c = fgetc(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	fputc(c ^ 0x40, f);
	fclose(f);
	tmeasure_run(path, 1.5, &m);
	assert_non_null(strstr(m.incomplete, "thread.1.sgs: chunk 0: bad checksum"));
	tmeasure_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_para_from_measured_region),
		cmocka_unit_test(t_para_from_thread_span),
		cmocka_unit_test(t_para_from_wall_without_trace),
		cmocka_unit_test(damaged_chunk_makes_run_incomplete),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
