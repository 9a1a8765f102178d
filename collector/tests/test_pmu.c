/*
 * test_pmu.c — the counter arithmetic on PMU mocks. This machine has no PMU, so the hardware
 * path is exercised on hand-made buffers in the exact layout a PERF_FORMAT_GROUP |
 * TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING read returns (perf_event_open(2)); "mock_pmu" in the
 * test names says so. The unavailable path runs for real in test-counters.sh and
 * test-calibrate.sh, the software events' available path in test-counters.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pmu_int.h"

static void events_default_parses(void **state)
{
	struct pmu_event_list l;
	char err[128];
	(void)state;
	assert_int_equal(pmu_events_parse(PMU_DEFAULT_EVENTS, &l, err, sizeof err), 0);
	assert_int_equal(l.n, 9);
	assert_string_equal(l.name[0], "cycles");
	assert_string_equal(l.name[4], "PERF_COUNT_HW_CACHE_L1D:READ:MISS");
	assert_string_equal(l.name[8], "page-faults");
}

static void events_strict_errors(void **state)
{
	static const struct { const char *in, *msg; } cases[] = {
		{ "", "SG_EVENTS:1: empty event list (SG_EVENTS=none turns counters off)" },
		{ "cycles,none", "SG_EVENTS:8: 'none' stands alone (it turns counters off)" },
		{ "none,", "SG_EVENTS:1: 'none' stands alone (it turns counters off)" },
		{ "cycles,", "SG_EVENTS:8: empty event name" },
		{ ",cycles", "SG_EVENTS:1: empty event name" },
		{ "cycles,,instructions", "SG_EVENTS:8: empty event name" },
		{ "cycles, instructions", "SG_EVENTS:8: invalid character ' ' in event name" },
		{ "cycles,cycles", "SG_EVENTS:8: duplicate event 'cycles'" },
		{ "a;b", "SG_EVENTS:2: invalid character ';' in event name" },
		{ "e0,e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,e11,e12,e13,e14,e15,e16",
		  "SG_EVENTS:55: more than 16 events" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pmu_event_list l;
		char err[128] = "";
		assert_int_equal(pmu_events_parse(cases[i].in, &l, err, sizeof err), -EINVAL);
		assert_string_equal(err, cases[i].msg);
		assert_int_equal(l.n, 0);
	}
}

/* SG_EVENTS=none is the documented way to turn counters off: a valid, empty list. */
static void events_none_is_empty(void **state)
{
	struct pmu_event_list l;
	char err[128] = "";
	(void)state;
	l.n = 5;
	assert_int_equal(pmu_events_parse("none", &l, err, sizeof err), 0);
	assert_int_equal(l.n, 0);
	assert_string_equal(err, "");
}

/* task-clock, context switches and page faults come from the kernel's per-thread accounting
 * (no perf event switched at every context switch); their perf names still go to perf. */
static void task_events_named(void **state)
{
	(void)state;
	assert_int_equal(pmu_task_event("task-clock"), PMU_TASK_CLOCK);
	assert_int_equal(pmu_task_event("context-switches"), PMU_TASK_CSW);
	assert_int_equal(pmu_task_event("cs"), PMU_TASK_CSW);
	assert_int_equal(pmu_task_event("page-faults"), PMU_TASK_FAULTS);
	assert_int_equal(pmu_task_event("faults"), PMU_TASK_FAULTS);
	assert_int_equal(pmu_task_event("PERF_COUNT_SW_TASK_CLOCK"), -1);
	assert_int_equal(pmu_task_event("cycles"), -1);
	assert_string_equal(pmu_task_name(PMU_TASK_CSW), "context-switches");
	assert_string_equal(pmu_task_unit(PMU_TASK_CLOCK), "ns");
	assert_string_equal(pmu_task_unit(PMU_TASK_FAULTS), "events");
}

/* Values count from the thread's first sample, summing voluntary and involuntary switches and
 * minor and major faults, as perf's software events do. */
static void task_values_from_base(void **state)
{
	const struct pmu_task_raw base = { 1000, 3, 1, 50, 2 };
	const struct pmu_task_raw now = { 2501000, 103, 11, 70, 5 };
	(void)state;
	assert_int_equal(pmu_task_value(PMU_TASK_CLOCK, &now, &base), 2500000);
	assert_int_equal(pmu_task_value(PMU_TASK_CSW, &now, &base), 110);
	assert_int_equal(pmu_task_value(PMU_TASK_FAULTS, &now, &base), 23);
	assert_int_equal(pmu_task_value(PMU_TASK_CLOCK, &base, &base), 0);
}

/* A mock group read of four hardware events (cycles, instructions, cache references, cache
 * misses) multiplexed so that the group ran half of the time it was enabled, as when 8 events
 * share 4 counters. */
static const uint64_t mock_pmu_group[] = {
	4,                       /* nr */
	2000000000ull,           /* time_enabled ns */
	1000000000ull,           /* time_running ns */
	2600000000ull,           /* cycles */
	3100000000ull,           /* instructions */
	12000000ull,             /* cache references */
	3000001ull,              /* cache misses */
};

static void mock_pmu_group_decodes(void **state)
{
	struct pmu_group_read r;
	(void)state;
	assert_int_equal(pmu_group_decode(mock_pmu_group, sizeof mock_pmu_group, 4, &r), 0);
	assert_int_equal(r.nr, 4);
	assert_int_equal(r.time_enabled_ns, 2000000000ull);
	assert_int_equal(r.time_running_ns, 1000000000ull);
	assert_int_equal(r.value[1], 3100000000ull);
	assert_int_equal(r.value[3], 3000001ull);
}

static void mock_pmu_group_rejects_bad_buffers(void **state)
{
	struct pmu_group_read r;
	(void)state;
	/* the kernel returned fewer bytes than the group needs */
	assert_int_equal(pmu_group_decode(mock_pmu_group, 5 * sizeof(uint64_t), 4, &r), -EIO);
	assert_int_equal(pmu_group_decode(mock_pmu_group, 2 * sizeof(uint64_t), 4, &r), -EIO);
	/* a group of another size: values would be mislabelled */
	assert_int_equal(pmu_group_decode(mock_pmu_group, sizeof mock_pmu_group, 3, &r),
			 -EPROTO);
}

static void mock_pmu_multiplex_scaling(void **state)
{
	struct pmu_group_read r;
	int64_t v;
	(void)state;
	assert_int_equal(pmu_group_decode(mock_pmu_group, sizeof mock_pmu_group, 4, &r), 0);
	assert_int_equal(pmu_scale(r.value[0], r.time_enabled_ns, r.time_running_ns, &v), 0);
	assert_int_equal(v, 5200000000ll);
	/* rounding to nearest: 3000001 * 2 exactly; 7 * 3 / 2 = 10.5 -> 11 */
	assert_int_equal(pmu_scale(r.value[3], r.time_enabled_ns, r.time_running_ns, &v), 0);
	assert_int_equal(v, 6000002);
	assert_int_equal(pmu_scale(7, 3, 2, &v), 0);
	assert_int_equal(v, 11);
	/* ran all the time: unchanged; no overflow on huge counts */
	assert_int_equal(pmu_scale(123, 500, 500, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(pmu_scale(UINT64_C(1) << 62, 4000000000ull, 1000000000ull, &v), 0);
	assert_int_equal(v, INT64_MAX);
}

static void mock_pmu_never_ran_is_unknown_not_zero(void **state)
{
	int64_t v = 42;
	(void)state;
	assert_int_equal(pmu_scale(0, 1000, 0, &v), -ENODATA);
	assert_int_equal(v, 42);
}

static void unavailable_reasons(void **state)
{
	char b[128];
	(void)state;
	assert_string_equal(pmu_unavailable_reason(ENOENT, 1, 2, b, sizeof b),
			    "no hardware PMU (ENOENT)");
	assert_string_equal(pmu_unavailable_reason(EACCES, 0, 2, b, sizeof b),
			    "not permitted (EACCES, perf_event_paranoid=2)");
	assert_string_equal(pmu_unavailable_reason(EACCES, 0, INT32_MIN, b, sizeof b),
			    "not permitted (EACCES)");
	assert_string_equal(pmu_unavailable_reason(EOPNOTSUPP, 1, 2, b, sizeof b),
			    "not supported by the PMU (EOPNOTSUPP)");
	assert_string_equal(pmu_unavailable_reason(ENOSPC, 1, 2, b, sizeof b),
			    "does not fit in the counter group (ENOSPC)");
	assert_string_equal(pmu_unavailable_reason(ENOENT, 0, 2, b, sizeof b),
			    "not supported by this kernel (ENOENT)");
}

static void schedstat_line(void **state)
{
	struct pmu_schedstat s;
	(void)state;
	/* /proc/self/task/TID/schedstat of a thread that waited 1.5 ms for a CPU */
	assert_int_equal(pmu_schedstat_parse("48123456 1500000 37\n", &s), 0);
	assert_int_equal(s.run_ns, 48123456);
	assert_int_equal(s.run_delay_ns, 1500000);
	assert_int_equal(s.timeslices, 37);
	assert_int_equal(pmu_schedstat_parse("48123456 1500000\n", &s), -EINVAL);
	assert_int_equal(pmu_schedstat_parse("1 2 3 4\n", &s), -EINVAL);
	assert_int_equal(pmu_schedstat_parse("x 2 3\n", &s), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_default_parses),
		cmocka_unit_test(events_strict_errors),
		cmocka_unit_test(events_none_is_empty),
		cmocka_unit_test(task_events_named),
		cmocka_unit_test(task_values_from_base),
		cmocka_unit_test(mock_pmu_group_decodes),
		cmocka_unit_test(mock_pmu_group_rejects_bad_buffers),
		cmocka_unit_test(mock_pmu_multiplex_scaling),
		cmocka_unit_test(mock_pmu_never_ran_is_unknown_not_zero),
		cmocka_unit_test(unavailable_reasons),
		cmocka_unit_test(schedstat_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
