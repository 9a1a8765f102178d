/*
 * counters.c — per-thread hardware and software counters for libsgtrace (the contract is
 * tracelib/sg_counters_int.h). At process start the events of SG_EVENTS (default
 * PMU_DEFAULT_EVENTS; "none" turns counters off) are sorted: task-clock, context-switches and
 * page-faults are read from the kernel's per-thread accounting (CLOCK_THREAD_CPUTIME_ID,
 * getrusage(RUSAGE_THREAD)), which costs nothing between samples; every other event is encoded
 * with libpfm4 and test-opened. Each is defined in the trace, the unopenable ones with the
 * reason, and those are listed once on stderr. Each thread then opens its perf events as at
 * most two groups (hardware, software: a machine without a PMU still counts software events) —
 * none at all when no perf event is available or asked for, since an open perf event makes
 * every context switch of its thread dearer — and samples at thread begin, region boundaries
 * (and barrier episodes with SG_COUNTERS_BARRIER=1) and thread end: one read() per group, one
 * clock_gettime, one getrusage and one schedstat pread. Values are running totals since the
 * thread's first sample, perf values scaled for multiplexing. The scheduler run-delay comes
 * from /proc/self/task/TID/schedstat. Compiled into libsgtrace (hidden visibility): it never
 * exits and never prints per event.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "offcpu.h"
#include "pmu_int.h"
#include "pmu_open.h"
#include "sg_counters_int.h"
#include "sgtrace_format.h"

enum { GROUP_HW, GROUP_SW, N_GROUPS };

struct counter_group {
	int n;
	struct perf_event_attr attr[PMU_MAX_EVENTS];
	uint32_t id[PMU_MAX_EVENTS];
};

static struct {
	int enabled;
	struct counter_group group[N_GROUPS];
	uint32_t task_id[PMU_N_TASK]; /* SG_NO_ID when not asked for */
	int want_rusage;              /* context switches or page faults asked for */
	uint32_t sched_id;            /* SG_NO_ID when schedstat is unavailable */
} cs;

struct thread_counters {
	int active;
	int fd[N_GROUPS][PMU_MAX_EVENTS];
	int n_open[N_GROUPS];
	int sched_fd;
	struct pmu_task_raw task_base; /* the kernel's accounting at the thread's first sample */
};

static __thread struct thread_counters tc;

static void thread_close(void)
{
	for (int g = 0; g < N_GROUPS; g++) {
		for (int i = 0; i < tc.n_open[g]; i++)
			close(tc.fd[g][i]);
		tc.n_open[g] = 0;
	}
	if (tc.active && tc.sched_fd >= 0)
		close(tc.sched_fd);
	tc.sched_fd = -1;
	tc.active = 0;
}

static int sched_open(void)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", (long)syscall(SYS_gettid));
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Defines task event `ev` (kernel accounting: always available on Linux). */
static void task_define(int ev)
{
	cs.task_id[ev] = trace_counter_define(pmu_task_name(ev), pmu_task_unit(ev),
					      SG_COUNTER_SOFTWARE, NULL);
	if (ev != PMU_TASK_CLOCK && cs.task_id[ev] != SG_NO_ID)
		cs.want_rusage = 1;
}

/* Moves the task events out of `list` (defining them) and leaves the perf events in it. */
static void task_events_take(struct pmu_event_list *list)
{
	int kept = 0;
	for (int i = 0; i < list->n; i++) {
		int ev = pmu_task_event(list->name[i]);
		if (ev < 0)
			memmove(list->name[kept++], list->name[i], PMU_NAME_MAX);
		else if (cs.task_id[ev] == SG_NO_ID)
			task_define(ev);
	}
	list->n = kept;
}

int sgc_process_init(void)
{
	struct pmu_event_list list;
	struct pmu_probe probe[PMU_MAX_EVENTS];
	char err[160], missing[1024] = "";
	int rc = 0;
	size_t used = 0;

	/* In a forked child the thread-local descriptors count the parent's thread. */
	thread_close();
	offcpu_process_init();
	memset(&cs, 0, sizeof cs);
	cs.sched_id = SG_NO_ID;
	for (int i = 0; i < PMU_N_TASK; i++)
		cs.task_id[i] = SG_NO_ID;
	const char *env = secure_getenv("SG_EVENTS");
	if (pmu_events_parse(env ? env : PMU_DEFAULT_EVENTS, &list, err, sizeof err) < 0) {
		fprintf(stderr, "sgtrace: %s; counters are off\n", err);
		trace_counters_unavailable(err);
		rc = -EINVAL;
		goto out;
	}
	if (list.n == 0) {
		trace_counters_unavailable("turned off (SG_EVENTS=none)");
		goto out;
	}
	task_events_take(&list);
	pmu_probe_events(&list, probe);
	for (int i = 0; i < list.n; i++) {
		struct pmu_probe *p = &probe[i];
		uint32_t id = trace_counter_define(p->name, p->unit,
						   p->hardware ? SG_COUNTER_HARDWARE : SG_COUNTER_SOFTWARE,
						   p->available ? NULL : p->reason);
		if (!p->available) {
			int n = snprintf(missing + used, sizeof missing - used, "%s%s: %s",
					 used ? "; " : "", p->name, p->reason);
			if (n > 0 && (size_t)n < sizeof missing - used)
				used += (size_t)n;
			continue;
		}
		if (id == SG_NO_ID)
			continue;
		struct counter_group *g = &cs.group[p->hardware ? GROUP_HW : GROUP_SW];
		g->attr[g->n] = p->attr;
		g->id[g->n++] = id;
	}
	int fd = sched_open();
	if (fd >= 0) {
		close(fd);
		cs.sched_id = trace_counter_define("sched-run-delay", "ns", SG_COUNTER_SCHED, NULL);
	} else {
		trace_counter_define("sched-run-delay", "ns", SG_COUNTER_SCHED,
				     "no /proc/self/task/TID/schedstat (kernel without CONFIG_SCHED_INFO)");
	}
	if (used && trace_verbose())   /* the definitions say it; stderr only on request */
		fprintf(stderr, "sgtrace: counters unavailable: %s\n", missing);
	cs.enabled = 1;
out:
	return rc;
}

static void sample_group(int g)
{
	uint64_t buf[3 + PMU_MAX_EVENTS];
	struct pmu_group_read r;
	int n = tc.n_open[g];
	if (n == 0)
		return;
	ssize_t len = read(tc.fd[g][0], buf, sizeof buf);
	if (len < 0 || pmu_group_decode(buf, (size_t)len, n, &r) < 0)
		return;
	for (int i = 0; i < n; i++) {
		int64_t v;
		if (pmu_scale(r.value[i], r.time_enabled_ns, r.time_running_ns, &v) == 0)
			trace_counter_record(cs.group[g].id[i], v);
	}
}

static void sample_sched(void)
{
	char line[128];
	struct pmu_schedstat s;
	if (tc.sched_fd < 0)
		return;
	ssize_t n = pread(tc.sched_fd, line, sizeof line - 1, 0);
	if (n <= 0)
		return;
	line[n] = '\0';
	if (pmu_schedstat_parse(line, &s) == 0)
		trace_counter_record(cs.sched_id, (int64_t)s.run_delay_ns);
}

/* The kernel's accounting of the calling thread now. Returns 0 or -errno. */
static int task_read(struct pmu_task_raw *raw)
{
	struct timespec ts;
	memset(raw, 0, sizeof *raw);
	if (cs.task_id[PMU_TASK_CLOCK] != SG_NO_ID) {
		if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
			return -errno;
		raw->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	if (cs.want_rusage) {
		struct rusage ru;
		if (getrusage(RUSAGE_THREAD, &ru) < 0)
			return -errno;
		raw->nvcsw = (uint64_t)ru.ru_nvcsw;
		raw->nivcsw = (uint64_t)ru.ru_nivcsw;
		raw->minflt = (uint64_t)ru.ru_minflt;
		raw->majflt = (uint64_t)ru.ru_majflt;
	}
	return 0;
}

static void sample_task(void)
{
	struct pmu_task_raw raw;
	if (task_read(&raw) < 0)
		return;
	for (int ev = 0; ev < PMU_N_TASK; ev++)
		if (cs.task_id[ev] != SG_NO_ID)
			trace_counter_record(cs.task_id[ev], pmu_task_value(ev, &raw, &tc.task_base));
}

void sgc_sample(void)
{
	if (!cs.enabled || !tc.active)
		return;
	for (int g = 0; g < N_GROUPS; g++)
		sample_group(g);
	sample_task();
	sample_sched();
}

void sgc_thread_begin(void)
{
	offcpu_thread_sample();
	if (!cs.enabled || tc.active)
		return;
	for (int g = 0; g < N_GROUPS; g++) {
		struct counter_group *grp = &cs.group[g];
		tc.n_open[g] = 0;
		for (int i = 0; i < grp->n; i++) {
			struct perf_event_attr a = grp->attr[i];
			int fd = pmu_open(&a, i == 0 ? -1 : tc.fd[g][0]);
			if (fd < 0) {
				/* A group is all or nothing: a partial group would mislabel values. */
				for (int j = 0; j < tc.n_open[g]; j++)
					close(tc.fd[g][j]);
				tc.n_open[g] = 0;
				break;
			}
			tc.fd[g][tc.n_open[g]++] = fd;
		}
	}
	tc.sched_fd = cs.sched_id != SG_NO_ID ? sched_open() : -1;
	if (task_read(&tc.task_base) < 0)
		memset(&tc.task_base, 0, sizeof tc.task_base);
	tc.active = 1;
	sgc_sample();
}

void sgc_thread_end(void)
{
	offcpu_thread_sample();
	if (!cs.enabled || !tc.active)
		return;
	sgc_sample();
	thread_close();
}
