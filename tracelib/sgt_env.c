/*
 * sgt_env.c — strict parsing of the environment that configures libsgtrace (sgtrace.h):
 * SG_TRACE=0|1, SG_TRACE_DIR=PATH, SG_TRACE_BUFFER=SIZE[K|M], SG_TRACE_CLOCK=auto|tsc|ns,
 * SG_COUNTERS_BARRIER=0|1.
 * Anything else is refused with one message, and tracing is then off (the program runs on).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_int.h"

/* flag -> "0" | "1" */
static int parse_flag(const char *name, const char *v, int *out, char *err, size_t errlen)
{
	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		*out = v[0] == '1';
		return 0;
	}
	snprintf(err, errlen, "sgtrace: error: %s='%s': expected 0 or 1; tracing is off", name, v);
	return -EINVAL;
}

/* size -> DIGITS [ "K" | "M" ]   (bytes; K = 1024, M = 1024*1024) */
static int parse_size(const char *name, const char *v, size_t *out, char *err, size_t errlen)
{
	size_t n = 0;
	const char *p = v;
	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > SGT_BUF_MAX)
			goto range;
		n = n * 10 + (size_t)(*p - '0');
	}
	if (*p == 'K' || *p == 'M') {
		if (n > SGT_BUF_MAX)
			goto range;
		n <<= *p == 'K' ? 10 : 20;
		p++;
	}
	if (*p)
		goto bad;
	if (n < SGT_BUF_MIN || n > SGT_BUF_MAX)
		goto range;
	*out = n;
	return 0;
bad:
	snprintf(err, errlen, "sgtrace: error: %s='%s': expected a size in bytes with an optional "
		 "K or M suffix, e.g. 1M; tracing is off", name, v);
	return -EINVAL;
range:
	snprintf(err, errlen, "sgtrace: error: %s='%s': size out of range (4K..1024M); tracing is "
		 "off", name, v);
	return -EINVAL;
}

/* clock -> "auto" | "tsc" | "ns" */
static int parse_clock(const char *v, int *out, char *err, size_t errlen)
{
	if (!strcmp(v, "auto")) {
		*out = 0;
		return 0;
	}
	if (!strcmp(v, "ns")) {
		*out = SGF_CLOCK_NS;
		return 0;
	}
	if (!strcmp(v, "tsc") && sgt_clock_have_tsc()) {
		*out = SGF_CLOCK_TSC;
		return 0;
	}
	if (!strcmp(v, "tsc"))
		snprintf(err, errlen, "sgtrace: error: SG_TRACE_CLOCK='tsc': this CPU has no TSC; "
			 "tracing is off");
	else
		snprintf(err, errlen, "sgtrace: error: SG_TRACE_CLOCK='%s': expected auto, tsc or "
			 "ns; tracing is off", v);
	return -EINVAL;
}

int sgt_env_parse(char *(*get)(const char *name), struct sgt_config *cfg, char *err,
		  size_t errlen)
{
	int rc = 0;
	memset(cfg, 0, sizeof *cfg);
	cfg->enabled = 1;
	cfg->buf_bytes = SGT_BUF_DEFAULT;
	snprintf(cfg->dir, sizeof cfg->dir, "./sgtrace.%ld", (long)getpid());
	err[0] = '\0';
	const char *v = get("SG_TRACE");
	if (v && (rc = parse_flag("SG_TRACE", v, &cfg->enabled, err, errlen)) < 0)
		goto out;
	if (!cfg->enabled)
		goto out;
	/* the trace root: SG_TRACE_DIR, else the root a traced parent exported (SG_TRACE_ROOT,
	 * so that a program it runs is traced beside it), else ./sgtrace.<pid> */
	const char *name = "SG_TRACE_DIR";
	v = get(name);
	if (!v && (v = get("SG_TRACE_ROOT")) != NULL)
		name = "SG_TRACE_ROOT";
	if (v) {
		if (!*v) {
			snprintf(err, errlen, "sgtrace: error: %s is empty: expected a directory; "
				 "tracing is off", name);
			rc = -EINVAL;
			goto out;
		}
		if (strlen(v) >= sizeof cfg->dir) {
			snprintf(err, errlen, "sgtrace: error: %s is too long (%zu bytes, at most "
				 "%zu); tracing is off", name, strlen(v), sizeof cfg->dir - 1);
			rc = -EINVAL;
			goto out;
		}
		snprintf(cfg->dir, sizeof cfg->dir, "%s", v);
		cfg->dir_var = name;
	}
	v = get("SG_TRACE_BUFFER");
	if (v && (rc = parse_size("SG_TRACE_BUFFER", v, &cfg->buf_bytes, err, errlen)) < 0)
		goto out;
	v = get("SG_TRACE_CLOCK");
	if (v && (rc = parse_clock(v, &cfg->clock, err, errlen)) < 0)
		goto out;
	v = get("SG_COUNTERS_BARRIER");
	if (v)
		rc = parse_flag("SG_COUNTERS_BARRIER", v, &cfg->counters_barrier, err, errlen);
out:
	if (rc < 0)
		cfg->enabled = 0;
	return rc;
}
