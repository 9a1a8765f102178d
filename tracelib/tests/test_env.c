/*
 * test_env.c — strict parsing of libsgtrace's environment (sgt_env.c), data-driven: each case
 * is an environment, the expected outcome, and for bad values the expected message.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "sgt_int.h"

struct env_case {
	const char *trace, *dir, *buffer, *barrier, *clock_env;
	int rc;               /* 0 or -EINVAL */
	int enabled;
	size_t buf_bytes;
	const char *msg;      /* substring of the message, for bad values */
	int clock;            /* expected cfg.clock */
};

static const struct env_case *cur;

static char *lookup(const char *name)
{
	const char *v = NULL;
	if (!strcmp(name, "SG_TRACE"))
		v = cur->trace;
	else if (!strcmp(name, "SG_TRACE_DIR"))
		v = cur->dir;
	else if (!strcmp(name, "SG_TRACE_BUFFER"))
		v = cur->buffer;
	else if (!strcmp(name, "SG_COUNTERS_BARRIER"))
		v = cur->barrier;
	else if (!strcmp(name, "SG_TRACE_CLOCK"))
		v = cur->clock_env;
	return (char *)v;
}

static const struct env_case cases[] = {
	{ NULL, NULL, NULL, NULL, NULL, 0, 1, 1u << 20, NULL, 0 },
	{ "1", "t", "4K", "1", NULL, 0, 1, 4096, NULL, 0 },
	{ "0", NULL, "garbage", NULL, NULL, 0, 0, 1u << 20, NULL, 0 },  /* off: the rest is not read */
	{ NULL, NULL, "2M", NULL, NULL, 0, 1, 2u << 20, NULL, 0 },
	{ NULL, NULL, "65536", NULL, NULL, 0, 1, 65536, NULL, 0 },
	{ NULL, NULL, "1024M", NULL, NULL, 0, 1, 1u << 30, NULL, 0 },
	{ "yes", NULL, NULL, NULL, NULL, -22, 0, 0, "SG_TRACE='yes': expected 0 or 1; tracing is off", 0 },
	{ "", NULL, NULL, NULL, NULL, -22, 0, 0, "SG_TRACE='': expected 0 or 1", 0 },
	{ " 1", NULL, NULL, NULL, NULL, -22, 0, 0, "SG_TRACE=' 1'", 0 },
	{ NULL, "", NULL, NULL, NULL, -22, 0, 0, "SG_TRACE_DIR is empty", 0 },
	{ NULL, NULL, "1G", NULL, NULL, -22, 0, 0, "SG_TRACE_BUFFER='1G': expected a size in bytes", 0 },
	{ NULL, NULL, "1m", NULL, NULL, -22, 0, 0, "SG_TRACE_BUFFER='1m'", 0 },
	{ NULL, NULL, "-4K", NULL, NULL, -22, 0, 0, "SG_TRACE_BUFFER='-4K'", 0 },
	{ NULL, NULL, "4K ", NULL, NULL, -22, 0, 0, "SG_TRACE_BUFFER='4K '", 0 },
	{ NULL, NULL, "", NULL, NULL, -22, 0, 0, "SG_TRACE_BUFFER=''", 0 },
	{ NULL, NULL, "100", NULL, NULL, -22, 0, 0, "size out of range (4K..1024M)", 0 },
	{ NULL, NULL, "2048M", NULL, NULL, -22, 0, 0, "size out of range", 0 },
	{ NULL, NULL, "99999999999999999999999", NULL, NULL, -22, 0, 0, "size out of range", 0 },
	{ NULL, NULL, NULL, "2", NULL, -22, 0, 0, "SG_COUNTERS_BARRIER='2': expected 0 or 1", 0 },
	{ NULL, NULL, NULL, NULL, "auto", 0, 1, 1u << 20, NULL, 0 },
	{ NULL, NULL, NULL, NULL, "ns", 0, 1, 1u << 20, NULL, SGF_CLOCK_NS },
	{ NULL, NULL, NULL, NULL, "tsc", 0, 1, 1u << 20, NULL, SGF_CLOCK_TSC },
	{ NULL, NULL, NULL, NULL, "TSC", -22, 0, 0,
	  "SG_TRACE_CLOCK='TSC': expected auto, tsc or ns; tracing is off", 0 },
	{ NULL, NULL, NULL, NULL, "", -22, 0, 0, "SG_TRACE_CLOCK=''", 0 },
};

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sgt_config cfg;
		char err[512];
		cur = &cases[i];
		int rc = sgt_env_parse(lookup, &cfg, err, sizeof err);
		if (rc != cur->rc || cfg.enabled != cur->enabled)
			fail_msg("case %zu: rc %d enabled %d (%s)", i, rc, cfg.enabled, err);
		if (rc == 0 && cur->enabled) {
			assert_int_equal(cfg.buf_bytes, cur->buf_bytes);
			assert_int_equal(cfg.clock, cur->clock);
		}
		if (cur->msg) {
			if (!strstr(err, cur->msg))
				fail_msg("case %zu: message '%s' lacks '%s'", i, err, cur->msg);
			assert_non_null(strstr(err, "sgtrace: error: "));
		} else {
			assert_string_equal(err, "");
		}
	}
}

static void test_default_dir_and_given_dir(void **state)
{
	(void)state;
	struct sgt_config cfg;
	char err[512], want[64];
	cur = &cases[0];
	assert_int_equal(sgt_env_parse(lookup, &cfg, err, sizeof err), 0);
	assert_null(cfg.dir_var);
	/* ./sgtrace-test_env-YYYYmmdd_HHMMSS-<pid> */
	snprintf(want, sizeof want, "-%ld", (long)getpid());
	assert_int_equal(strncmp(cfg.dir, "./sgtrace-test_env-", 19), 0);
	assert_int_equal(strlen(cfg.dir), 19 + 15 + strlen(want));
	assert_string_equal(cfg.dir + 19 + 15, want);
	assert_true(cfg.dir[19 + 8] == '_');
	cur = &cases[1];
	assert_int_equal(sgt_env_parse(lookup, &cfg, err, sizeof err), 0);
	assert_string_equal(cfg.dir, "t");
	assert_int_equal(cfg.counters_barrier, 1);
}

static void test_dir_too_long(void **state)
{
	(void)state;
	static char longdir[PATH_MAX + 10];
	memset(longdir, 'd', sizeof longdir - 1);
	struct env_case c = { NULL, longdir, NULL, NULL, NULL, -22, 0, 0, NULL, 0 };
	struct sgt_config cfg;
	char err[512];
	cur = &c;
	assert_int_equal(sgt_env_parse(lookup, &cfg, err, sizeof err), -22);
	assert_non_null(strstr(err, "SG_TRACE_DIR is too long"));
	assert_int_equal(cfg.enabled, 0);
}

/* The issue 14 variables, each alone: SG_THROTTLE, SG_TRACE_MAX, SG_VERBOSE. */
struct env14_case {
	const char *name, *value;
	int rc;
	uint64_t calls, usec, max;   /* expected with rc 0 */
	int verbose;
	const char *msg;
};

static const struct env14_case *cur14;

static char *lookup14(const char *name)
{
	return (char *)(!strcmp(name, cur14->name) ? cur14->value : NULL);
}

static const struct env14_case cases14[] = {
	{ "SG_NONE", NULL, 0, 100000, 5, 1u << 30, 0, NULL },   /* the defaults */
	{ "SG_THROTTLE", "0", 0, 0, 5, 1u << 30, 0, NULL },
	{ "SG_THROTTLE", "off", 0, 0, 5, 1u << 30, 0, NULL },
	{ "SG_THROTTLE", "1000,20", 0, 1000, 20, 1u << 30, 0, NULL },
	{ "SG_THROTTLE", "1000000000,1000000", 0, 1000000000, 1000000, 1u << 30, 0, NULL },
	{ "SG_THROTTLE", "100000", -22, 0, 0, 0, 0,
	  "SG_THROTTLE='100000': expected 0, off, or CALLS,USEC" },
	{ "SG_THROTTLE", "100000,0", -22, 0, 0, 0, 0, "SG_THROTTLE='100000,0'" },
	{ "SG_THROTTLE", "0,5", -22, 0, 0, 0, 0, "SG_THROTTLE='0,5'" },
	{ "SG_THROTTLE", "1000000001,5", -22, 0, 0, 0, 0, "SG_THROTTLE='1000000001,5'" },
	{ "SG_THROTTLE", "100000,5 ", -22, 0, 0, 0, 0, "SG_THROTTLE='100000,5 '" },
	{ "SG_THROTTLE", "on", -22, 0, 0, 0, 0, "SG_THROTTLE='on'" },
	{ "SG_THROTTLE", "", -22, 0, 0, 0, 0, "SG_THROTTLE=''" },
	{ "SG_TRACE_MAX", "0", 0, 100000, 5, 0, 0, NULL },
	{ "SG_TRACE_MAX", "4096", 0, 100000, 5, 4096, 0, NULL },
	{ "SG_TRACE_MAX", "256K", 0, 100000, 5, 256u << 10, 0, NULL },
	{ "SG_TRACE_MAX", "100M", 0, 100000, 5, 100u << 20, 0, NULL },
	{ "SG_TRACE_MAX", "8G", 0, 100000, 5, (uint64_t)8 << 30, 0, NULL },
	{ "SG_TRACE_MAX", "1T", -22, 0, 0, 0, 0,
	  "SG_TRACE_MAX='1T': expected bytes with an optional K, M or G suffix" },
	{ "SG_TRACE_MAX", "1g", -22, 0, 0, 0, 0, "SG_TRACE_MAX='1g'" },
	{ "SG_TRACE_MAX", "1048577G", -22, 0, 0, 0, 0, "SG_TRACE_MAX='1048577G'" },
	{ "SG_TRACE_MAX", "-1", -22, 0, 0, 0, 0, "SG_TRACE_MAX='-1'" },
	{ "SG_TRACE_MAX", "99999999999999999999999", -22, 0, 0, 0, 0, "SG_TRACE_MAX='9999" },
	{ "SG_VERBOSE", "1", 0, 100000, 5, 1u << 30, 1, NULL },
	{ "SG_VERBOSE", "0", 0, 100000, 5, 1u << 30, 0, NULL },
	{ "SG_VERBOSE", "yes", -22, 0, 0, 0, 0, "SG_VERBOSE='yes': expected 0 or 1" },
};

static void test_issue14_variables(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases14 / sizeof cases14[0]; i++) {
		struct sgt_config cfg;
		char err[512];
		cur14 = &cases14[i];
		int rc = sgt_env_parse(lookup14, &cfg, err, sizeof err);
		if (rc != cur14->rc || cfg.enabled != (rc == 0))
			fail_msg("case %zu (%s): rc %d enabled %d (%s)", i, cur14->value, rc,
				 cfg.enabled, err);
		if (rc == 0) {
			assert_int_equal(cfg.throttle_calls, cur14->calls);
			if (cur14->calls)
				assert_int_equal(cfg.throttle_usec, cur14->usec);
			assert_int_equal(cfg.trace_max, cur14->max);
			assert_int_equal(cfg.verbose, cur14->verbose);
			assert_string_equal(err, "");
		} else if (!strstr(err, cur14->msg) || !strstr(err, "sgtrace: error: ") ||
			   !strstr(err, "; tracing is off")) {
			fail_msg("case %zu: message '%s' lacks '%s'", i, err, cur14->msg);
		}
	}
}

/* The default root's name: base name of the program, sanitised and cut, local time, pid. */
static void test_default_root_name(void **state)
{
	(void)state;
	char out[256];
	struct tm tm = { .tm_year = 126, .tm_mon = 10, .tm_mday = 25, .tm_hour = 9, .tm_min = 5,
			 .tm_sec = 7, .tm_isdst = -1 };
	time_t when = mktime(&tm);
	sgt_default_root(out, sizeof out, "/usr/local/bin/FFT", when, 4242);
	assert_string_equal(out, "./sgtrace-FFT-20261125_090507-4242");
	sgt_default_root(out, sizeof out, "/tmp/my prog+v1.2 (deleted)", when, 7);
	assert_string_equal(out, "./sgtrace-my_prog_v1.2-20261125_090507-7");
	sgt_default_root(out, sizeof out, "", when, 7);
	assert_string_equal(out, "./sgtrace-prog-20261125_090507-7");
	sgt_default_root(out, sizeof out, NULL, when, 7);
	assert_string_equal(out, "./sgtrace-prog-20261125_090507-7");
	char longname[200];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	sgt_default_root(out, sizeof out, longname, when, 7);
	assert_int_equal(strlen(out), strlen("./sgtrace-") + 48 + strlen("-20261125_090507-7"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_default_dir_and_given_dir),
		cmocka_unit_test(test_dir_too_long),
		cmocka_unit_test(test_issue14_variables),
		cmocka_unit_test(test_default_root_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
