/*
 * pmu_open.h — turning event names into perf_event attributes (libpfm4) and opening them.
 * Shared by counters.c (inside libsgtrace) and `scalegraph calibrate`, which reports which
 * counters open on this machine. Private to collector/ and libsgtrace.
 */
#ifndef PMU_OPEN_H
#define PMU_OPEN_H

#include <linux/perf_event.h>
#include <stddef.h>

#include "pmu_int.h"

/* What opening one event found out. */
struct pmu_probe {
	char name[PMU_NAME_MAX];
	struct perf_event_attr attr; /* valid when encoded */
	int encoded;                 /* libpfm4 knew the name */
	int hardware;                /* a PMU event (else software) */
	int available;               /* it opened on the calling thread, in its group */
	char reason[128];            /* why not, when !available */
	const char *unit;            /* "ns" for task-clock, else "events" */
};

/* Initializes libpfm4 once (thread-safe). Returns 0 or -ENODEV with libpfm4's message. */
int pmu_lib_init(void);

/* /proc/sys/kernel/perf_event_paranoid, or INT32_MIN when it cannot be read. */
int pmu_paranoid(void);

/* perf_event_open(attr, this thread, any CPU, group_fd) with the group read format; the leader
 * (group_fd == -1) starts enabled and the members follow it. Returns the fd or -errno. */
int pmu_open(struct perf_event_attr *attr, int group_fd);

/* Encodes and test-opens every event of `list` on the calling thread: hardware events form one
 * group, software events another (so a PMU-less machine still counts software events). Fills
 * `out[list->n]`; never fails as a whole: each event says whether it is available and why not.
 * All test descriptors are closed again. */
void pmu_probe_events(const struct pmu_event_list *list, struct pmu_probe *out);

#endif /* PMU_OPEN_H */
