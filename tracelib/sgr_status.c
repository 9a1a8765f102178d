/*
 * sgr_status.c — the reader's side of the streams' open buffers (a slot of threads.sgo per
 * thread, sched.sgo; sgtrace_format.h, struct sgf_open_status), which libsgtrace leaves behind
 * only when a stream did not end cleanly:
 *   - the writer stopped on a write error (a full disk): its errno, the events written before
 *     and those lost since become sgr_thread.write_errno / lost and a problem line
 *     "thread.3.sgs: the writer stopped at event N: No space left on device; M events lost";
 *   - the process was killed: the chunk it was filling is read back — an open chunk up to its
 *     first record that is not a valid event later than the one before it (what remains of an
 *     earlier chunk there is older than the chunk's start), or a chunk sealed but not yet
 *     written to the stream — and appended to the stream's chunks, with a problem line
 *     "thread.0.sgs: N events recovered from an unsealed chunk (killed writer)".
 * Everything read from the file is range-checked; a file that is not ours is reported, never
 * trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgr_int.h"

#define STATUS_BYTES sizeof(struct sgf_open_status)
#define HEAD_BYTES (STATUS_BYTES + sizeof(struct sgf_chunk_header))

/* Records of an open chunk that are events of this chunk: from the first on, while each has a
 * valid kind and ticks not before the chunk's start nor before the record before it. A record
 * carrying a value without its VALUE after it is left out. */
static size_t open_count(const struct sgf_chunk_header *h, const struct sg_event_rec *r,
			 size_t cap, int sched, uint32_t n_open)
{
	size_t n = 0;
	uint64_t last = h->pair_ticks;
	if (sched)
		cap = n_open < cap ? n_open : cap;   /* not in time order: the writer counted */
	for (; n < cap; n++) {
		unsigned kind = (unsigned)(r[n].w0 & 0xff);
		uint64_t ticks = r[n].w0 >> 8;
		if (kind == SG_EV_NONE || kind >= SG_EV_KIND_COUNT)
			break;
		if (!sched && ticks < last)
			break;
		last = ticks;
	}
	if (n > 0 && sg_kind_has_value((unsigned)(r[n - 1].w0 & 0xff)))
		n--;
	return n;
}

/* Appends the chunk at h (in memory owned by s) to s's chunks. */
static int chunk_append(struct sgr_trace *t, struct sgr_stream *s, struct sgf_chunk_header *h)
{
	struct sgr_chunk *c = realloc(s->chunks, (s->n_chunks + 1) * sizeof *c);
	if (!c)
		return -ENOMEM;
	s->chunks = c;
	s->chunks[s->n_chunks++] = (struct sgr_chunk){ .h = h, .recovered = 1 };
	s->th.n_chunks++;
	s->th.n_recs += h->n_recs;
	s->th.n_recovered += h->n_recs;
	if (s->th.index != SGF_SCHED_THREAD)
		sgr_pair_add(t, h->pair_ticks, h->pair_ns, (uint32_t)(s - t->streams), h->seq);
	return 0;
}

/* Reads back the chunk a killed writer left in the open buffer (fd at off, `size` bytes). */
static int recover(struct sgr_trace *t, struct sgr_stream *s, const char *name, int fd,
		   size_t off, size_t size, const struct sgf_open_status *st)
{
	size_t cap = st->capacity;
	if (cap == 0 || size < HEAD_BYTES)
		return 0;
	if (cap > (size - HEAD_BYTES) / sizeof(struct sg_event_rec))
		cap = (size - HEAD_BYTES) / sizeof(struct sg_event_rec);
	size_t bytes = sizeof(struct sgf_chunk_header) + cap * sizeof(struct sg_event_rec);
	struct sgf_chunk_header *h = malloc(bytes);
	if (!h)
		return -ENOMEM;
	if (pread(fd, h, bytes, (off_t)(off + STATUS_BYTES)) != (ssize_t)bytes) {
		sgr_problem_add(t, "%s: cannot read: %s", name, strerror(errno ? errno : EIO));
		goto drop;
	}
	const struct sg_event_rec *recs = (const struct sg_event_rec *)(h + 1);
	uint64_t next = s->n_chunks ? s->chunks[s->n_chunks - 1].h->seq + 1 : 0;
	const char *how;
	if (h->magic == SGF_CHUNK_MAGIC) {
		/* sealed, maybe not written: the kill came during the write */
		if (sgf_chunk_header_check(h) < 0 || h->thread != s->th.index || h->n_recs > cap) {
			sgr_problem_add(t, "%s: a sealed chunk with a bad header; not read", name);
			goto drop;
		}
		if (h->seq < next)
			goto drop;   /* in the stream already */
		if (sgf_chunk_payload_check(h, recs) < 0) {
			sgr_problem_add(t, "%s: chunk %llu: bad checksum; not read", name,
					(unsigned long long)h->seq);
			goto drop;
		}
		how = "a sealed chunk not yet written";
	} else if (h->magic == SGF_OPEN_MAGIC) {
		if (h->thread != s->th.index || h->seq < next)
			goto drop;
		size_t n = open_count(h, recs, cap, s->th.index == SGF_SCHED_THREAD, st->n_open);
		if (n == 0)
			goto drop;
		h->n_recs = (uint32_t)n;
		sgf_chunk_seal(h, recs);   /* now a chunk like the others, checked as they are */
		how = "an unsealed chunk";
	} else {
		goto drop;   /* caught between the two: nothing certain in it */
	}
	if (h->seq != next)
		sgr_problem_add(t, "%s: chunk %llu: expected chunk %llu (chunks missing)", s->file,
				(unsigned long long)h->seq, (unsigned long long)next);
	int rc = chunk_append(t, s, h);
	if (rc < 0)
		goto drop;
	s->open_copy = h;
	sgr_problem_add(t, "%s: %llu events recovered from %s (killed writer)", s->file,
			(unsigned long long)h->n_recs, how);
	return 0;
drop:
	free(h);
	return 0;
}

/* The slots of threads.sgo: which thread's stream each one buffers. */
struct sgr_status_index {
	int fd;                    /* threads.sgo, -1: none */
	size_t size;
	size_t n;
	struct slot { uint32_t thread; size_t off; } *slots;   /* by thread */
};

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* Opens the open-buffer file `name` of the process read (sgr_file_open: a regular file, no
 * link followed), its size in *size: a descriptor, or -1 when there is none (the usual case:
 * its streams ended cleanly) or it is no regular file (reported). */
static int open_buffer_open(struct sgr_trace *t, const char *name, size_t *size)
{
	char path[PATH_MAX], why[128];
	struct stat sb;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", t->dir, name) >= sizeof path)
		return -1;
	int fd = sgr_file_open(path, &sb, why, sizeof why);
	if (fd == -EINVAL)   /* a FIFO, a directory, a device */
		sgr_problem_add(t, "%s: %s; not read", name, why);
	if (fd < 0)
		return -1;
	*size = (size_t)sb.st_size;
	return fd;
}

/* Reads the status blocks of threads.sgo once, for every stream to look its slot up. */
static struct sgr_status_index *index_load(struct sgr_trace *t)
{
	if (t->status_index)
		return t->status_index;
	struct sgr_status_index *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->fd = -1;
	t->status_index = x;
	int fd = open_buffer_open(t, SGF_THREADS_OPEN_NAME, &x->size);
	if (fd < 0)
		return x;   /* the usual case: every stream ended cleanly */
	x->fd = fd;
	size_t cap = 0, step = 0;
	for (size_t off = 0; off + STATUS_BYTES <= x->size; off += step) {
		struct sgf_open_status st;
		if (pread(fd, &st, sizeof st, (off_t)off) != (ssize_t)sizeof st ||
		    memcmp(st.magic, SGF_MAGIC_OPEN, sizeof st.magic) || st.slot_bytes < 4096 ||
		    st.slot_bytes % 4096 || st.slot_bytes > ((uint64_t)1 << 32) ||
		    (step && st.slot_bytes != step)) {
			if (off == 0 || memcmp(st.magic, "\0\0\0\0\0\0\0", 8))
				sgr_problem_add(t, "%s: slot at offset %zu: not an open buffer; the "
						"slots after it not read", SGF_THREADS_OPEN_NAME, off);
			break;   /* all zero: a slot begun but not written when the process died */
		}
		step = st.slot_bytes;
		if (st.thread == SG_NO_ID)
			continue;   /* free: its stream ended cleanly */
		if (sgr_grow(&x->slots, &cap, x->n, sizeof *x->slots) < 0)
			break;
		x->slots[x->n++] = (struct slot){ st.thread, off };
	}
	if (x->n)   /* qsort and bsearch of a NULL base are undefined even for no element */
		qsort(x->slots, x->n, sizeof *x->slots, slot_cmp);
	return x;
}

/* Finds the open buffer of stream s and reads its status block: a descriptor (not to be
 * closed: the index's, or `*own` when it is the caller's) and the slot's offset, or -1 when
 * there is none (the usual case: the stream ended cleanly) or it is not usable (reported). */
static int status_find(struct sgr_trace *t, struct sgr_stream *s, char *name, size_t len,
		       struct sgf_open_status *st, size_t *off, size_t *size, int *own)
{
	*own = -1;
	int fd;
	if (s->th.index == SGF_SCHED_THREAD) {
		snprintf(name, len, "%s", SGF_SCHED_OPEN_NAME);
		fd = open_buffer_open(t, name, size);
		if (fd < 0)
			return -1;
		*own = fd;
		*off = 0;
	} else {
		struct sgr_status_index *x = index_load(t);
		if (!x || x->fd < 0 || x->n == 0)
			return -1;
		struct slot key = { s->th.index, 0 };
		struct slot *e = bsearch(&key, x->slots, x->n, sizeof *x->slots, slot_cmp);
		if (!e)
			return -1;
		fd = x->fd;
		*off = e->off;
		*size = x->size - e->off;
		snprintf(name, len, "%s slot at offset %zu", SGF_THREADS_OPEN_NAME, e->off);
	}
	if (*size < STATUS_BYTES || pread(fd, st, sizeof *st, (off_t)*off) != (ssize_t)sizeof *st ||
	    memcmp(st->magic, SGF_MAGIC_OPEN, sizeof st->magic) || st->thread != s->th.index) {
		sgr_problem_add(t, "%s: not the open buffer of %s; not read", name, s->file);
		if (*own >= 0)
			close(*own);
		return -1;
	}
	if (s->th.index != SGF_SCHED_THREAD && st->slot_bytes < *size)
		*size = st->slot_bytes;
	return fd;
}

void sgr_status_errors(struct sgr_trace *t, struct sgr_stream *s)
{
	char name[96];
	struct sgf_open_status st;
	size_t off, size;
	int own;
	int fd = status_find(t, s, name, sizeof name, &st, &off, &size, &own);
	if (fd < 0)
		return;
	if (st.write_errno) {
		int err = st.write_errno < 4096 ? (int)st.write_errno : EIO;
		s->th.write_errno = err;
		if (st.lost > s->th.lost)
			s->th.lost = st.lost;   /* the trailer or a LOST definition may lack some */
		sgr_problem_add(t, "%s: the writer stopped at event %llu: %s; %llu events lost",
				s->file, (unsigned long long)st.n_written, strerror(err),
				(unsigned long long)st.lost);
	}
	if (own >= 0)
		close(own);
}

int sgr_status_recover(struct sgr_trace *t, struct sgr_stream *s)
{
	char name[96];
	struct sgf_open_status st;
	size_t off, size;
	int own, rc = 0;
	if (s->th.complete || !s->th.readable || s->th.write_errno)
		return 0;   /* nothing to read back; a failed writer's buffer is counted lost */
	int fd = status_find(t, s, name, sizeof name, &st, &off, &size, &own);
	if (fd < 0)
		return 0;
	rc = recover(t, s, name, fd, off, size, &st);
	if (own >= 0)
		close(own);
	return rc;
}

void sgr_status_free(struct sgr_trace *t)
{
	struct sgr_status_index *x = t->status_index;
	if (!x)
		return;
	if (x->fd >= 0)
		close(x->fd);
	free(x->slots);
	free(x);
	t->status_index = NULL;
}
