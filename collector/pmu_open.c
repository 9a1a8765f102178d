/*
 * pmu_open.c — libpfm4 encoding and perf_event_open for the counter code. The only place that
 * knows the perf_event attribute details: kernel-mode counting for software events (a context
 * switch happens in the kernel, so with exclude_kernel it always counts 0), and the fallback to
 * user-only counting when perf_event_paranoid forbids kernel-inclusive events.
 */
#include "pmu_open.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_rc;

static void pfm_init_once(void)
{
	pfm_rc = pfm_initialize();
}

int pmu_lib_init(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	return pfm_rc == PFM_SUCCESS ? 0 : -ENODEV;
}

int pmu_paranoid(void)
{
	int v = INT32_MIN;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	if (!f)
		return v;
	if (fscanf(f, "%d", &v) != 1)
		v = INT32_MIN;
	fclose(f);
	return v;
}

int pmu_open(struct perf_event_attr *attr, int group_fd)
{
	attr->size = sizeof *attr;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->disabled = 0;
	attr->inherit = 0;
	long fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Only counts in kernel mode: with exclude_kernel it would read 0 forever. */
static int kernel_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

static int encode(struct pmu_probe *p)
{
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof arg);
	memset(&p->attr, 0, sizeof p->attr);
	arg.attr = &p->attr;
	arg.size = sizeof arg;
	int rc = pfm_get_os_event_encoding(p->name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(p->reason, sizeof p->reason, "unknown event (libpfm4: %s)", pfm_strerror(rc));
		return -ENOENT;
	}
	p->encoded = 1;
	p->hardware = p->attr.type != PERF_TYPE_SOFTWARE;
	if (!p->hardware)
		p->attr.exclude_kernel = 0; /* software events: the thread's whole cost */
	p->unit = (!p->hardware && (p->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
				    p->attr.config == PERF_COUNT_SW_CPU_CLOCK)) ? "ns" : "events";
	return 0;
}

/* Opens `p` into group `*leader` (-1: becomes the leader). Fills the reason on failure. */
static void probe_one(struct pmu_probe *p, int *leader, int *fds, int *n_fds, int paranoid)
{
	int fd = pmu_open(&p->attr, *leader);
	if (fd == -EACCES && !p->hardware && !kernel_only(&p->attr)) {
		p->attr.exclude_kernel = 1; /* paranoid: user-mode counting still means something */
		fd = pmu_open(&p->attr, *leader);
	}
	if (fd < 0) {
		pmu_unavailable_reason(-fd, p->hardware, paranoid, p->reason, sizeof p->reason);
		if (kernel_only(&p->attr) && (fd == -EACCES || fd == -EPERM)) {
			/* prefix the reason, cutting its end when the whole does not fit */
			static const char pre[] = "counts only in kernel mode: ";
			size_t keep = sizeof p->reason - sizeof pre;
			char tmp[sizeof p->reason];
			memcpy(tmp, pre, sizeof pre - 1);
			memcpy(tmp + sizeof pre - 1, p->reason, keep);
			tmp[sizeof tmp - 1] = '\0';
			memcpy(p->reason, tmp, sizeof tmp);
		}
		return;
	}
	p->available = 1;
	p->reason[0] = '\0';
	if (*leader < 0)
		*leader = fd;
	fds[(*n_fds)++] = fd;
}

void pmu_probe_events(const struct pmu_event_list *list, struct pmu_probe *out)
{
	int fds[PMU_MAX_EVENTS], n_fds = 0;
	int hw_leader = -1, sw_leader = -1;
	int paranoid = pmu_paranoid();
	int lib = pmu_lib_init();
	for (int i = 0; i < list->n; i++) {
		struct pmu_probe *p = &out[i];
		memset(p, 0, sizeof *p);
		snprintf(p->name, sizeof p->name, "%s", list->name[i]);
		p->unit = "events";
		if (lib < 0) {
			snprintf(p->reason, sizeof p->reason, "libpfm4 failed to initialize");
			continue;
		}
		if (encode(p) < 0)
			continue;
		probe_one(p, p->hardware ? &hw_leader : &sw_leader, fds, &n_fds, paranoid);
	}
	for (int i = 0; i < n_fds; i++)
		close(fds[i]);
}
