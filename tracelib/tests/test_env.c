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
	snprintf(want, sizeof want, "./sgtrace.%ld", (long)getpid());
	assert_string_equal(cfg.dir, want);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_default_dir_and_given_dir),
		cmocka_unit_test(test_dir_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
