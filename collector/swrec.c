/*
 * swrec.c — opening and draining the per-CPU context-switch events (swrec.h).
 */
#include "swrec.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#endif

static void attr_make(struct perf_event_attr *a, size_t data_size, int inherit_thread)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->context_switch = 1;
	a->sample_id_all = 1;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->exclude_kernel = 1;           /* allowed at perf_event_paranoid 2 */
	a->exclude_hv = 1;
	a->inherit = 1;
	a->inherit_thread = (unsigned)inherit_thread;
	a->watermark = 1;
	/* the drain thread is woken at an eighth of the ring: on a loaded machine it waits tens of
	 * milliseconds for a CPU or for the disk, while the threads of one CPU write half a million
	 * switches a second (issue 20: half a 1 MiB ring lost 10,000-30,000 records under a
	 * fork/exec loop, an fsyncing dd and a spinner) */
	a->wakeup_watermark = (uint32_t)(data_size / 8);
}

/* The event of CPU `cpu` (fd or -errno), with inherit_thread where the kernel has it. */
static int open_cpu(struct swrec *s, int cpu, size_t data_size)
{
	struct perf_event_attr a;
	for (;;) {
		attr_make(&a, data_size, s->inherit_thread);
		long fd = syscall(SYS_perf_event_open, &a, 0, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0)
			return (int)fd;
		if (errno == EINVAL && s->inherit_thread) {
			s->inherit_thread = 0;   /* kernels before 5.13 */
			continue;
		}
		return -errno;
	}
}

/* Bytes of each ring's data area asked for: 8 MiB over the CPUs, at least 1 MiB and at most
 * 4 MiB each (a power of 2): the fewer the CPUs, the more switches each one holds. */
static size_t ring_size(long n_cpus)
{
	size_t sz = (size_t)1 << 20;
	while (sz < ((size_t)4 << 20) && (long)(2 * sz) * n_cpus <= ((long)8 << 20))
		sz *= 2;
	return sz;
}

/* Maps ring k with the largest data area the limits allow (ring_size down to 64 KiB per CPU;
 * the first ring's size for the others). */
static int map_ring(struct swrec *s, int k)
{
	long page = sysconf(_SC_PAGESIZE);
	for (size_t pages = s->data_size ? s->data_size / (size_t)page
					 : ring_size(sysconf(_SC_NPROCESSORS_CONF)) / (size_t)page;
	     pages >= 16;
	     pages /= 4) {
		size_t len = (pages + 1) * (size_t)page;
		void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd[k], 0);
		if (m != MAP_FAILED) {
			s->map[k] = m;
			s->map_size = len;
			s->data_size = pages * (size_t)page;
			return 0;
		}
		if (errno != EPERM && errno != ENOMEM)
			return -errno;
	}
	return -ENOMEM;
}

int swrec_open(struct swrec *s, const char **what)
{
	long n_cpus = sysconf(_SC_NPROCESSORS_CONF);
	int rc = 0;
	memset(s, 0, sizeof *s);
	s->inherit_thread = 1;
	if (n_cpus < 1)
		n_cpus = 1;
	if (n_cpus > SWREC_MAX_CPUS)
		n_cpus = SWREC_MAX_CPUS;
	*what = "perf_event_open(context_switch)";
	for (int c = 0; c < n_cpus; c++) {
		int fd = open_cpu(s, c, s->data_size ? s->data_size : ring_size(n_cpus));
		if (fd == -ENODEV || fd == -EINVAL)
			continue;   /* an offline CPU */
		if (fd < 0) {
			rc = fd;
			break;
		}
		s->fd[s->n] = fd;
		s->map[s->n] = NULL;
		s->n++;
		if ((rc = map_ring(s, s->n - 1)) < 0) {
			*what = "mmap of the context-switch ring buffer";
			break;
		}
	}
	if (rc == 0 && s->n == 0)
		rc = -ENODEV;
	if (rc < 0)
		swrec_close(s);
	return rc;
}

void swrec_close(struct swrec *s)
{
	for (int k = 0; k < s->n; k++) {
		if (s->map[k])
			munmap(s->map[k], s->map_size);
		close(s->fd[k]);
		s->map[k] = NULL;
	}
	s->n = 0;
}

/* The sample_id after a record's fixed part (sample_type TID | TIME | CPU). */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint32_t cpu, res;
};

/* Decodes one whole record of len bytes at p; returns 1 when it is one of ours to hand on. */
static int decode(const unsigned char *p, size_t len, struct swrec_ev *ev)
{
	struct perf_event_header h;
	struct sample_id id;
	memcpy(&h, p, sizeof h);
	memset(ev, 0, sizeof *ev);
	if (h.type == PERF_RECORD_SWITCH && len >= sizeof h + sizeof id) {
		memcpy(&id, p + sizeof h, sizeof id);
		ev->out = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
		ev->preempted = ev->out && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	} else if (h.type == PERF_RECORD_LOST && len >= sizeof h + 16 + sizeof id) {
		memcpy(&ev->lost, p + sizeof h + 8, sizeof ev->lost);
		memcpy(&id, p + sizeof h + 16, sizeof id);
		id.tid = 0;
	} else {
		return 0;
	}
	ev->pid = id.pid;
	ev->tid = id.tid;
	ev->cpu = id.cpu;
	ev->time_ns = id.time;
	return 1;
}

void swrec_drain_ring(struct swrec *s, int k, void (*fn)(const struct swrec_ev *ev, void *ud),
		      void *ud)
{
	struct perf_event_mmap_page *m = (struct perf_event_mmap_page *)s->map[k];
	const unsigned char *data = s->map[k] + m->data_offset;
	size_t size = s->data_size;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = m->data_tail;
	unsigned char rec[256];
	while (tail < head) {
		struct perf_event_header h;
		size_t at = (size_t)(tail & (size - 1));
		/* a header never straddles the end (records are 8-byte aligned), a record may */
		memcpy(&h, data + at, sizeof h);
		if (h.size < sizeof h || tail + h.size > head)
			break;
		const unsigned char *p = data + at;
		size_t len = h.size < sizeof rec ? h.size : sizeof rec;
		if (at + h.size > size) {
			size_t first = size - at;
			memcpy(rec, data + at, first < len ? first : len);
			if (len > first)
				memcpy(rec + first, data, len - first);
			p = rec;
		}
		struct swrec_ev ev;
		if (decode(p, len, &ev))
			fn(&ev, ud);
		tail += h.size;
	}
	__atomic_store_n(&m->data_tail, tail, __ATOMIC_RELEASE);
}
