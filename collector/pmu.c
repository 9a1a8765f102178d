/*
 * pmu.c — pure counter arithmetic and parsing shared by libsgtrace's counter code and
 * `scalegraph calibrate` (see pmu_int.h). No system calls here: everything is testable on
 * recorded buffers, which is how it is tested on machines without a PMU.
 */
#include "pmu_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int event_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == ':' || c == '.' || c == '=' || c == '+' || c == '-';
}

/* event_list -> "none" | name { ',' name } */
int pmu_events_parse(const char *list, struct pmu_event_list *out, char *err, size_t err_len)
{
	int rc = 0;
	const char *p = list;
	out->n = 0;
	if (!*p) {
		snprintf(err, err_len, "SG_EVENTS:1: empty event list (SG_EVENTS=none turns counters off)");
		rc = -EINVAL;
		goto out;
	}
	if (!strcmp(p, PMU_EVENTS_NONE))
		goto out;
	for (;;) {
		const char *start = p;
		while (*p && *p != ',') {
			if (!event_char_ok(*p)) {
				snprintf(err, err_len, "SG_EVENTS:%d: invalid character '%c' in event name",
					 (int)(p - list) + 1, *p);
				rc = -EINVAL;
				goto out;
			}
			p++;
		}
		size_t n = (size_t)(p - start);
		if (n == 0) {
			snprintf(err, err_len, "SG_EVENTS:%d: empty event name", (int)(start - list) + 1);
			rc = -EINVAL;
			goto out;
		}
		if (n >= PMU_NAME_MAX) {
			snprintf(err, err_len, "SG_EVENTS:%d: event name longer than %d characters",
				 (int)(start - list) + 1, PMU_NAME_MAX - 1);
			rc = -EINVAL;
			goto out;
		}
		if (out->n == PMU_MAX_EVENTS) {
			snprintf(err, err_len, "SG_EVENTS:%d: more than %d events",
				 (int)(start - list) + 1, PMU_MAX_EVENTS);
			rc = -EINVAL;
			goto out;
		}
		memcpy(out->name[out->n], start, n);
		out->name[out->n][n] = '\0';
		if (!strcmp(out->name[out->n], PMU_EVENTS_NONE)) {
			snprintf(err, err_len, "SG_EVENTS:%d: '%s' stands alone (it turns counters off)",
				 (int)(start - list) + 1, PMU_EVENTS_NONE);
			rc = -EINVAL;
			goto out;
		}
		for (int i = 0; i < out->n; i++) {
			if (!strcmp(out->name[i], out->name[out->n])) {
				snprintf(err, err_len, "SG_EVENTS:%d: duplicate event '%s'",
					 (int)(start - list) + 1, out->name[i]);
				rc = -EINVAL;
				goto out;
			}
		}
		out->n++;
		if (!*p)
			break;
		p++; /* the comma */
	}
out:
	if (rc < 0)
		out->n = 0;
	return rc;
}

int pmu_group_decode(const void *buf, size_t len, int n_expected, struct pmu_group_read *out)
{
	uint64_t w[3 + PMU_MAX_EVENTS];
	if (n_expected < 1 || n_expected > PMU_MAX_EVENTS)
		return -EINVAL;
	if (len < 3 * sizeof(uint64_t))
		return -EIO;
	memcpy(w, buf, 3 * sizeof(uint64_t));
	if (w[0] != (uint64_t)n_expected)
		return -EPROTO;
	if (len < (3 + w[0]) * sizeof(uint64_t))
		return -EIO;
	memcpy(w, buf, (3 + w[0]) * sizeof(uint64_t));
	out->nr = w[0];
	out->time_enabled_ns = w[1];
	out->time_running_ns = w[2];
	for (uint64_t i = 0; i < w[0]; i++)
		out->value[i] = w[3 + i];
	return 0;
}

int pmu_scale(uint64_t raw, uint64_t enabled_ns, uint64_t running_ns, int64_t *out)
{
	if (running_ns == 0)
		return -ENODATA;
	if (running_ns >= enabled_ns) {
		*out = raw > INT64_MAX ? INT64_MAX : (int64_t)raw;
		return 0;
	}
	unsigned __int128 v = (unsigned __int128)raw * enabled_ns + running_ns / 2;
	v /= running_ns;
	*out = v > INT64_MAX ? INT64_MAX : (int64_t)v;
	return 0;
}

char *pmu_unavailable_reason(int err, int hardware, int paranoid, char *buf, size_t len)
{
	const char *name = strerrorname_np(err);
	char code[32];
	if (!name) {
		snprintf(code, sizeof code, "errno %d", err);
		name = code;
	}
	switch (err) {
	case ENOENT:
	case ENODEV:
		snprintf(buf, len, "%s (%s)", hardware ? "no hardware PMU" : "not supported by this kernel",
			 name);
		break;
	case EACCES:
	case EPERM:
		if (paranoid != INT32_MIN)
			snprintf(buf, len, "not permitted (%s, perf_event_paranoid=%d)", name, paranoid);
		else
			snprintf(buf, len, "not permitted (%s)", name);
		break;
	case EOPNOTSUPP:
		snprintf(buf, len, "not supported by the PMU (%s)", name);
		break;
	case ENOSYS:
		snprintf(buf, len, "no perf_event_open in this kernel (%s)", name);
		break;
	case EINVAL:
	case ENOSPC:
		snprintf(buf, len, "does not fit in the counter group (%s)", name);
		break;
	case EMFILE:
		snprintf(buf, len, "out of file descriptors (%s)", name);
		break;
	default:
		snprintf(buf, len, "cannot open (%s)", name);
		break;
	}
	return buf;
}

int pmu_schedstat_parse(const char *line, struct pmu_schedstat *out)
{
	uint64_t v[3];
	const char *p = line;
	for (int i = 0; i < 3; i++) {
		char *end;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		unsigned long long x = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		v[i] = x;
		p = end;
	}
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	out->run_ns = v[0];
	out->run_delay_ns = v[1];
	out->timeslices = v[2];
	return 0;
}

static const struct {
	const char *name, *alias, *unit;
} task_events[PMU_N_TASK] = {
	[PMU_TASK_CLOCK] = { "task-clock", NULL, "ns" },
	[PMU_TASK_CSW] = { "context-switches", "cs", "events" },
	[PMU_TASK_FAULTS] = { "page-faults", "faults", "events" },
};

int pmu_task_event(const char *name)
{
	for (int i = 0; i < PMU_N_TASK; i++)
		if (!strcmp(name, task_events[i].name) ||
		    (task_events[i].alias && !strcmp(name, task_events[i].alias)))
			return i;
	return -1;
}

const char *pmu_task_name(int ev)
{
	return task_events[ev].name;
}

const char *pmu_task_unit(int ev)
{
	return task_events[ev].unit;
}

static uint64_t task_raw(int ev, const struct pmu_task_raw *r)
{
	switch (ev) {
	case PMU_TASK_CLOCK:
		return r->cpu_ns;
	case PMU_TASK_CSW:
		return r->nvcsw + r->nivcsw;
	default:
		return r->minflt + r->majflt;
	}
}

int64_t pmu_task_value(int ev, const struct pmu_task_raw *raw, const struct pmu_task_raw *base)
{
	uint64_t now = task_raw(ev, raw), then = task_raw(ev, base);
	return now >= then ? (int64_t)(now - then) : 0;
}
