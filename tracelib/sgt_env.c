/*
 * sgt_env.c — strict parsing of the environment that configures libsgtrace (sgtrace.h,
 * docs/tracelib.md "Environment"): SG_TRACE=0|1, SG_TRACE_DIR=PATH, SG_TRACE_BUFFER=SIZE[K|M],
 * SG_TRACE_CLOCK=auto|tsc|ns, SG_COUNTERS_BARRIER=0|1, SG_THROTTLE=0|off|CALLS,USEC,
 * SG_TRACE_MAX=SIZE[K|M|G], SG_TRACE_COMPACT=0|1, SG_VERBOSE=0|1; and the default trace root's
 * name.
 * Anything else is refused with one message, and tracing is then off (the program runs on).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
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

/* A decimal number of at most `max`, nothing else: 0 and the end in *end, or -1. */
static int parse_u64(const char *v, uint64_t max, uint64_t *out, const char **end)
{
	uint64_t n = 0;
	if (*v < '0' || *v > '9')
		return -1;
	for (; *v >= '0' && *v <= '9'; v++) {
		if (n > (max - (uint64_t)(*v - '0')) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*v - '0');
	}
	*out = n;
	*end = v;
	return 0;
}

/* throttle -> "0" | "off" | CALLS "," USEC   (CALLS 1..10^9, USEC 1..10^6) */
static int parse_throttle(const char *v, struct sgt_config *cfg, char *err, size_t errlen)
{
	uint64_t calls, usec;
	const char *p;
	if (!strcmp(v, "0") || !strcmp(v, "off")) {
		cfg->throttle_calls = 0;
		return 0;
	}
	if (parse_u64(v, 1000000000u, &calls, &p) < 0 || *p != ',' ||
	    parse_u64(p + 1, 1000000u, &usec, &p) < 0 || *p || calls == 0 || usec == 0) {
		snprintf(err, errlen, "sgtrace: error: SG_THROTTLE='%s': expected 0, off, or "
			 "CALLS,USEC (1..1000000000 calls, 1..1000000 us), e.g. 100000,5; tracing "
			 "is off", v);
		return -EINVAL;
	}
	cfg->throttle_calls = calls;
	cfg->throttle_usec = usec;
	return 0;
}

/* trace_max -> DIGITS [ "K" | "M" | "G" ]   (bytes; 0: no budget) */
static int parse_max(const char *v, uint64_t *out, char *err, size_t errlen)
{
	uint64_t n;
	const char *p;
	const uint64_t max = (uint64_t)1 << 50;   /* 1 PiB: beyond any disk here */
	if (parse_u64(v, max, &n, &p) < 0)
		goto bad;
	int shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
	if (shift) {
		if (n > max >> shift)
			goto bad;
		n <<= shift;
		p++;
	}
	if (*p)
		goto bad;
	*out = n;
	return 0;
bad:
	snprintf(err, errlen, "sgtrace: error: SG_TRACE_MAX='%s': expected bytes with an "
		 "optional K, M or G suffix (at most 1048576G), or 0 for no limit; tracing is off",
		 v);
	return -EINVAL;
}

int sgt_default_root(char *out, size_t len, const char *exe, time_t when, long pid)
{
	char prog[49], stamp[32] = "0";
	const char *base = exe ? strrchr(exe, '/') : NULL;
	base = base ? base + 1 : exe ? exe : "";
	size_t n = 0;
	/* a program deleted while it runs: /proc/self/exe says "prog (deleted)" */
	size_t blen = strlen(base);
	const char *del = " (deleted)";
	if (blen > strlen(del) && !strcmp(base + blen - strlen(del), del))
		blen -= strlen(del);
	for (size_t i = 0; i < blen && n < sizeof prog - 1; i++) {
		char c = base[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		prog[n++] = keep ? c : '_';
	}
	prog[n] = '\0';
	if (n == 0)
		snprintf(prog, sizeof prog, "prog");
	struct tm tm;
	if (localtime_r(&when, &tm))
		strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
	return snprintf(out, len, "./sgtrace-%s-%s-%ld", prog, stamp, pid);
}

/* The default root of this process: named after the program, now. */
static void default_root(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
	} else {
		extern char *program_invocation_name;
		snprintf(exe, sizeof exe, "%s", program_invocation_name ? program_invocation_name
									 : "");
	}
	/* not time(): glibc reads the coarse clock there, up to a tick behind CLOCK_REALTIME, so
	 * a root could be named a second before a `date` taken just before the program started */
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	sgt_default_root(out, len, exe, now.tv_sec, (long)getpid());
}

int sgt_env_parse(char *(*get)(const char *name), struct sgt_config *cfg, char *err,
		  size_t errlen)
{
	int rc = 0;
	memset(cfg, 0, sizeof *cfg);
	cfg->enabled = 1;
	cfg->buf_bytes = SGT_BUF_DEFAULT;
	cfg->throttle_calls = SGT_THROTTLE_CALLS_DEFAULT;
	cfg->throttle_usec = SGT_THROTTLE_USEC_DEFAULT;
	cfg->trace_max = SGT_TRACE_MAX_DEFAULT;
	cfg->compact = 1;
	err[0] = '\0';
	const char *v = get("SG_TRACE");
	if (v && (rc = parse_flag("SG_TRACE", v, &cfg->enabled, err, errlen)) < 0)
		goto out;
	if (!cfg->enabled)
		goto out;
	v = get("SG_VERBOSE");
	if (v && (rc = parse_flag("SG_VERBOSE", v, &cfg->verbose, err, errlen)) < 0)
		goto out;
	/* the trace root: SG_TRACE_DIR, else the root a traced parent exported (SG_TRACE_ROOT,
	 * so that a program it runs is traced beside it), else ./sgtrace-<program>-<time>-<pid> */
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
	} else {
		default_root(cfg->dir, sizeof cfg->dir);
	}
	v = get("SG_TRACE_BUFFER");
	if (v && (rc = parse_size("SG_TRACE_BUFFER", v, &cfg->buf_bytes, err, errlen)) < 0)
		goto out;
	v = get("SG_TRACE_CLOCK");
	if (v && (rc = parse_clock(v, &cfg->clock, err, errlen)) < 0)
		goto out;
	v = get("SG_COUNTERS_BARRIER");
	if (v && (rc = parse_flag("SG_COUNTERS_BARRIER", v, &cfg->counters_barrier, err,
				  errlen)) < 0)
		goto out;
	v = get("SG_THROTTLE");
	if (v && (rc = parse_throttle(v, cfg, err, errlen)) < 0)
		goto out;
	v = get("SG_TRACE_COMPACT");
	if (v && (rc = parse_flag("SG_TRACE_COMPACT", v, &cfg->compact, err, errlen)) < 0)
		goto out;
	v = get("SG_TRACE_MAX");
	if (v)
		rc = parse_max(v, &cfg->trace_max, err, errlen);
out:
	if (rc < 0)
		cfg->enabled = 0;
	return rc;
}
