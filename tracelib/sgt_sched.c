/*
 * sgt_sched.c — the process's sched stream, sched.sgs (docs/trace-format.md): the context
 * switches of its threads and samples of each thread's CPU time and run delay, which the
 * counter code (collector/offcpu.c) hands over through trace_sched_put. It is one stream for
 * the whole process, written in the same checked chunks as a thread's stream, but with ticks in
 * ns since the epoch (clock SGF_CLOCK_NS: the kernel stamps switch records with
 * CLOCK_MONOTONIC). Writers are few and rare (the drain thread, thread begin/end, region
 * boundaries), so a flag lock serializes them; a fatal-signal handler only tries it. Its buffer
 * is the open buffer file sched.sgo (sgt_obuf.c), whose status block also counts the records
 * in it, since they are not in time order.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sg_counters_int.h"
#include "sgt_flag.h"
#include "sgt_int.h"
#include "sgt_io.h"

#define SCHED_BUF_RECS 16384        /* 256 KiB a chunk */

static struct {
	int lock;                   /* flag lock: writers spin with sched_yield */
	int fd;                     /* -1: not open (yet, or failed, or closed) */
	int failed, closed;
	uint64_t seq, n_written, lost;
	size_t n;
	struct sgf_chunk_header *chunk;   /* header space, then cap records */
	size_t cap;                       /* SCHED_BUF_RECS, less when the disk was full */
	struct sgt_obuf ob;               /* where chunk is: sched.sgo */
	unsigned char *cbuf;              /* where a chunk is compacted (format 1.6), or NULL */
	size_t cbuf_bytes;
} ss = { .fd = -1 };

/* A clock pair of this stream: ticks are ns since the epoch. */
static void ns_pair(uint64_t *ticks, uint64_t *ns)
{
	*ns = sgt_mono_ns();
	*ticks = *ns - sgt_g.epoch_ns;
}

int sgt_sched_open(void)
{
	int fd = sgt_file_create(SGF_SCHED_NAME, O_WRONLY);
	if (fd < 0)
		return fd;
	struct sgf_file_header h;
	sgf_file_header_make(&h, SGF_MAGIC_STREAM, SGF_CLOCK_NS, sgt_g.pid, sgt_g.parent_pid,
			     SGF_SCHED_THREAD, sgt_g.epoch_ns, sgt_g.epoch_real_ns);
	int rc = sgt_write_all(fd, &h, sizeof h);
	if (rc == 0)
		rc = sgt_obuf_open_file(&ss.ob, SGF_SCHED_OPEN_NAME, SGF_SCHED_NAME,
					SGF_SCHED_THREAD, SCHED_BUF_RECS);
	if (rc < 0) {
		if (rc != -ENOMEM)
			sgt_say_write_failed(SGF_SCHED_NAME, -rc);
		close(fd);
		return rc;
	}
	ss.cap = ss.ob.n_filled;   /* the whole file is written at once (sgt_obuf_open_file) */
	if (sgt_g.compact && !ss.cbuf) {   /* kept for the process's life (a fork's too) */
		size_t bytes = sizeof(struct sgf_chunk_header) +
			       SCHED_BUF_RECS * sizeof(struct sg_event_rec);
		void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			       MAP_NORESERVE, -1, 0);
		if (m != MAP_FAILED) {
			ss.cbuf = m;
			ss.cbuf_bytes = bytes;
		}
	}
	uint64_t ticks, ns;
	ns_pair(&ticks, &ns);
	sgt_obuf_open_mark(&ss.ob, 0, ticks, ns);
	ss.chunk = ss.ob.chunk;
	ss.n = 0;
	ss.seq = ss.n_written = ss.lost = 0;
	ss.closed = ss.failed = 0;
	ss.fd = fd;
	return 0;
}

/* Writes the buffered records as the next chunk. Lock held. Async-signal-safe. */
static void chunk_flush(void)
{
	if (ss.n == 0 || ss.fd < 0)
		return;
	struct sgf_chunk_header *h = ss.chunk, sealed;
	const struct sg_event_rec *recs = (const struct sg_event_rec *)(h + 1);
	memset(&sealed, 0, sizeof sealed);
	sealed.thread = SGF_SCHED_THREAD;
	sealed.seq = ss.seq;
	sealed.n_recs = (uint32_t)ss.n;
	ns_pair(&sealed.pair_ticks, &sealed.pair_ns);
	sgf_chunk_seal(&sealed, recs);
	*h = sealed;
	off_t end = lseek(ss.fd, 0, SEEK_CUR);
	size_t len;
	const void *out = sgt_chunk_compact(h, ss.cbuf, ss.cbuf_bytes, &len);
	int rc = sgt_write_all(ss.fd, out, len);
	if (rc < 0) {
		if (end >= 0)
			(void)ftruncate(ss.fd, end);   /* back to its last whole chunk */
		ss.lost += ss.n;
		close(ss.fd);
		ss.fd = -1;
		ss.failed = 1;
		sgt_obuf_failed(&ss.ob, -rc, ss.n_written, ss.lost);
	} else {
		ss.seq++;
		ss.n_written += ss.n;
		sgt_obuf_open_mark(&ss.ob, ss.seq, sealed.pair_ticks, sealed.pair_ns);
	}
	ss.n = 0;
	if (ss.ob.st)
		__atomic_store_n(&ss.ob.st->n_open, 0, __ATOMIC_RELEASE);
}

void sgt_sched_put(const struct sg_event_rec *recs, size_t n, int in_signal)
{
	if (ss.closed || !sgt_flag_trylock(&ss.lock, in_signal ? 100000 : -1))
		return;
	if (ss.fd < 0 && !ss.failed && !in_signal && sgt_g.started && sgt_sched_open() < 0)
		ss.failed = 1;
	if (ss.fd < 0) {
		ss.lost += n;
		if (ss.ob.st)
			__atomic_store_n(&ss.ob.st->lost, ss.lost, __ATOMIC_RELAXED);
		sgt_flag_unlock(&ss.lock);
		return;
	}
	struct sg_event_rec *buf = (struct sg_event_rec *)(ss.chunk + 1);
	while (n > 0) {
		if (ss.n == ss.cap)
			chunk_flush();
		size_t k = ss.cap - ss.n;
		if (k > n)
			k = n;
		/* a record and its VALUE stay in one chunk */
		if (k < n && k > 0 && sg_kind_has_value((unsigned)(recs[k - 1].w0 & 0xff)))
			k--;
		if (k == 0) {
			chunk_flush();
			continue;
		}
		memcpy(buf + ss.n, recs, k * sizeof *recs);
		ss.n += k;
		/* after the records: a reader of a killed process's sched.sgo takes this many */
		__atomic_store_n(&ss.ob.st->n_open, (uint32_t)ss.n, __ATOMIC_RELEASE);
		recs += k;
		n -= k;
	}
	sgt_flag_unlock(&ss.lock);
}

void sgt_sched_close(int in_signal)
{
	if (ss.closed || !sgt_flag_trylock(&ss.lock, in_signal ? 100000 : -1))
		return;
	chunk_flush();
	if (ss.fd >= 0) {
		struct sgf_trailer tr = {
			.thread = SGF_SCHED_THREAD,
			.n_chunks = ss.seq,
			.n_recs = ss.n_written,
			.lost = ss.lost,
		};
		ns_pair(&tr.pair_ticks, &tr.pair_ns);
		sgf_trailer_seal(&tr);
		int rc = sgt_write_all(ss.fd, &tr, sizeof tr);
		if (rc < 0)
			sgt_obuf_failed(&ss.ob, -rc, ss.n_written, ss.lost);
		close(ss.fd);
		ss.fd = -1;
	}
	if (ss.ob.st)
		sgt_obuf_done(&ss.ob);
	ss.closed = 1;
	sgt_flag_unlock(&ss.lock);
}

/* A forked child starts a stream of its own: the parent's descriptor and buffer are the
 * parent's (its records were not written by the child). */
void sgt_sched_fork_child(void);
void sgt_sched_fork_child(void)
{
	if (ss.fd >= 0)
		close(ss.fd);
	sgt_obuf_forget(&ss.ob);
	memset(&ss, 0, sizeof ss);
	ss.fd = -1;
}

/* ---- what the counter code records through (sg_counters_int.h) ---- */

void trace_sched_put(const struct sg_event_rec *recs, size_t n, int in_signal)
{
	sgt_sched_put(recs, n, in_signal);
}

uint64_t trace_epoch_ns(void)
{
	return sgt_g.epoch_ns;
}

uint32_t trace_pid(void)
{
	return sgt_g.pid;
}

size_t trace_thread_tids(int32_t *tids, size_t max)
{
	size_t n = 0;
	for (struct sgt_thread *t = sgt_thread_list(); t && n < max; t = t->next)
		if (!t->finished && t->tid > 0)
			tids[n++] = (int32_t)t->tid;
	return n;
}

void trace_thread_ignore(void)
{
	sgt_thread_done = 1;
}

void trace_sched_define(unsigned flags, unsigned n_cpus, const char *text)
{
	sgt_registry_sched(flags, n_cpus, text ? text : "");
}
