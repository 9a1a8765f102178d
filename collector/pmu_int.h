/*
 * pmu_int.h — the pure half of the counter code: event-list parsing (SG_EVENTS), decoding of a
 * PERF_FORMAT_GROUP read buffer, multiplex scaling, the "unavailable" reason text and the
 * schedstat line parser. Nothing here touches the kernel, so all of it is unit-tested on
 * recorded values (collector/tests/test_pmu.c). counters.c (inside libsgtrace) and calibrate
 * use it; private to collector/ and libsgtrace.
 */
#ifndef PMU_INT_H
#define PMU_INT_H

#include <stddef.h>
#include <stdint.h>

#define PMU_MAX_EVENTS 16
#define PMU_NAME_MAX 64

/* The default SG_EVENTS: cycles, instructions, cache references/misses, L1D read misses,
 * backend stall cycles (hardware, where the PMU has them), then the thread's CPU time, context
 * switches and page faults (read from the kernel's per-thread accounting, see below). */
#define PMU_DEFAULT_EVENTS \
	"cycles,instructions,PERF_COUNT_HW_CACHE_REFERENCES,PERF_COUNT_HW_CACHE_MISSES," \
	"PERF_COUNT_HW_CACHE_L1D:READ:MISS,PERF_COUNT_HW_STALLED_CYCLES_BACKEND," \
	"task-clock,context-switches,page-faults"

struct pmu_event_list {
	int n;
	char name[PMU_MAX_EVENTS][PMU_NAME_MAX];
};

/* SG_EVENTS=none: no counter at all (and no scheduler delay). */
#define PMU_EVENTS_NONE "none"

/* Parses a comma-separated event list strictly: no empty item, no blank, no duplicate, names of
 * [A-Za-z0-9_:.=+-] only, at most PMU_MAX_EVENTS; or PMU_EVENTS_NONE alone, which gives an
 * empty list (out->n == 0). Returns 0, or -EINVAL with a message naming the 1-based character
 * position in `err` ("SG_EVENTS:12: empty event name"). */
int pmu_events_parse(const char *list, struct pmu_event_list *out, char *err, size_t err_len);

/* One decoded PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING read:
 * u64 nr; u64 time_enabled; u64 time_running; u64 value[nr]. */
struct pmu_group_read {
	uint64_t nr;
	uint64_t time_enabled_ns;
	uint64_t time_running_ns;
	uint64_t value[PMU_MAX_EVENTS];
};

/* Decodes `len` bytes read from a group leader that has `n_expected` events. Returns 0, or
 * -EIO when the buffer is short, -EPROTO when nr does not match. */
int pmu_group_decode(const void *buf, size_t len, int n_expected, struct pmu_group_read *out);

/* Scales a raw count for multiplexing: raw * enabled / running, rounded to nearest.
 * Returns 0, or -ENODATA when the group never ran (running == 0): the value is unknown and must
 * not be recorded as zero. */
int pmu_scale(uint64_t raw, uint64_t enabled_ns, uint64_t running_ns, int64_t *out);

/* Why an event could not be opened, for trace_counter_define() and reports:
 * "no hardware PMU (ENOENT)", "not permitted (EACCES, perf_event_paranoid=2)", ...
 * `err` is a positive errno from perf_event_open; `hardware` non-zero for PMU events;
 * `paranoid` the value of /proc/sys/kernel/perf_event_paranoid or INT32_MIN when unknown.
 * Writes at most `len` bytes into `buf` and returns it. */
char *pmu_unavailable_reason(int err, int hardware, int paranoid, char *buf, size_t len);

/* Fields of /proc/self/task/TID/schedstat: "run_ns wait_ns timeslices". */
struct pmu_schedstat {
	uint64_t run_ns;
	uint64_t run_delay_ns;
	uint64_t timeslices;
};

/* Parses one schedstat line. Returns 0 or -EINVAL. */
int pmu_schedstat_parse(const char *line, struct pmu_schedstat *out);

/*
 * Events served from the kernel's per-thread accounting instead of a perf event. An open perf
 * event, even a software one, is switched out and in with its thread at every context switch
 * (about 2 us per event and switch on these VMs: +50 % wall on billiards, which blocks at a
 * barrier every few microseconds). The kernel keeps the same three figures per thread anyway,
 * at no extra cost: the CPU time (CLOCK_THREAD_CPUTIME_ID, the sum_exec_runtime perf's
 * task-clock counts), and in getrusage(RUSAGE_THREAD) the voluntary + involuntary context
 * switches and the minor + major page faults. Their perf names (PERF_COUNT_SW_TASK_CLOCK,
 * ...) still go through perf_event_open.
 */
enum pmu_task_event { PMU_TASK_CLOCK, PMU_TASK_CSW, PMU_TASK_FAULTS, PMU_N_TASK };

/* The pmu_task_event that `name` names ("task-clock", "context-switches" or "cs",
 * "page-faults" or "faults"), or -1 for an event that perf must count. */
int pmu_task_event(const char *name);

/* The canonical name and unit ("ns" or "events") of task event `ev`. */
const char *pmu_task_name(int ev);
const char *pmu_task_unit(int ev);

/* The raw per-thread accounting of one sample: CPU time in ns and getrusage's counts. */
struct pmu_task_raw {
	uint64_t cpu_ns;
	uint64_t nvcsw, nivcsw;     /* voluntary, involuntary context switches */
	uint64_t minflt, majflt;    /* minor, major page faults */
};

/* Value of task event `ev` in `raw`, as counted since `base` (the thread's first sample), so
 * that the running totals start at 0 like those of a perf event opened at thread begin. */
int64_t pmu_task_value(int ev, const struct pmu_task_raw *raw, const struct pmu_task_raw *base);

#endif /* PMU_INT_H */
