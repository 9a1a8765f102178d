/*
 * sgt_obuf.c — the streams' open buffers (sgtrace_format.h, struct sgf_open_status). Two
 * things used to be lost without a word:
 *   - a SIGKILL took every thread's unflushed buffer with it (up to 1 MiB of events each, the
 *     main thread's whole run when it recorded less): the buffer lived in anonymous memory;
 *   - a full disk stopped a stream silently, and its trace could not be told from a crash.
 * So the buffer a thread records into is a shared mapping of a slot of threads.sgo in the
 * process directory (the sched stream's, of sched.sgo): what was recorded is in the page cache
 * the moment it is stored, and a killed process leaves it there for the reader. The chunk is
 * still written to the stream with one write() when full — recording costs what it did
 * (docs/tracelib.md, "Costs"). A slot's first 64 bytes say why its stream stopped, if it did.
 *
 * Stores go only where the file was written with zeros beforehand (the slot grows as the
 * thread fills it), so no store ever needs disk space: a full disk shows as ENOSPC from a
 * write here, never as a SIGBUS in the program. One file holds every thread's slot, and a
 * finished thread's slot is taken by the next thread: creating a file per thread cost 1.4 ms
 * on this VM's ext4 (more than the 64 KiB a slot starts with). A process whose streams all
 * ended cleanly removes the files at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sgt_int.h"

#define HEAD_BYTES (sizeof(struct sgf_open_status) + sizeof(struct sgf_chunk_header))
/* A slot is written with zeros (and so allocated) this much at first, then twice as much at
 * each growth: a thread that records little costs 64 KiB of file, not its whole buffer. */
#define FIRST_FILL ((size_t)64 << 10)

/* The process's threads.sgo: slots of slot_bytes each, slot k at k * slot_bytes. */
static struct {
	pthread_mutex_t lock;       /* allocation; taken around fork (sgt_obuf_atfork_*) */
	int fd;                     /* -1: not created (yet), or unusable */
	int failed;                 /* could not be created on this file system: memory only */
	size_t slot_bytes;
	size_t n_slots;             /* slots handed out so far */
	size_t *filled;             /* per slot: bytes written with zeros */
	size_t *free_slots, n_free, cap;
	int busy;                   /* slots whose stream has not ended cleanly */
	int kept;                   /* slots that say why their stream failed */
} sl = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

static size_t page_round(size_t n)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	return (n + pg - 1) / pg * pg;
}

/* Does a store into an allocated page of a file on this file system never need new space?
 * ext4, xfs and tmpfs overwrite allocated blocks in place. A copy-on-write file system (btrfs)
 * allocates anew at each write-fault after writeback, and on a full disk the fault is a
 * SIGBUS that would kill the program: there the buffer stays in memory. */
static int fs_overwrites_in_place(int fd)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0)
		return 0;
	return sf.f_type == EXT4_SUPER_MAGIC || sf.f_type == XFS_SUPER_MAGIC ||
	       sf.f_type == TMPFS_MAGIC;
}

/* Writes zeros over [off, end) of fd: the blocks then exist (reserved at the write, so a full
 * disk says ENOSPC here and never at a store into the mapping) and the pages are in the page
 * cache, so that a first store into each is a cheap fault. Allocating with fallocate() instead
 * leaves unwritten extents whose first write fault costs ext4 three to five times more (a
 * 1 MiB buffer: 3.3-3.9 ms against 0.7-1.6 ms). 0 or an errno. */
static int zero_fill(int fd, size_t off, size_t end)
{
	static const char zero[4096];
	struct iovec iov[256];
	for (size_t i = 0; i < 256; i++)
		iov[i] = (struct iovec){ (void *)zero, sizeof zero };
	while (off < end) {
		size_t left = (end - off + sizeof zero - 1) / sizeof zero;
		int n = left < 256 ? (int)left : 256;
		ssize_t k = pwritev(fd, iov, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		if ((size_t)k % sizeof zero)
			return ENOSPC;   /* a short write: the disk is full */
		off += (size_t)k;
	}
	return 0;
}

/* Maps `bytes` of fd at `off` whose first `*filled` bytes are to be written now (at least the
 * status block; the rest when the disk allows: *filled says what was). NULL on failure. */
static void *region_map(int fd, size_t off, size_t bytes, size_t *filled, size_t done)
{
	if (*filled > done && zero_fill(fd, off + done, off + *filled) != 0) {
		size_t pg = page_round(sizeof(struct sgf_open_status));
		if (done < pg && zero_fill(fd, off + done, off + pg) != 0)
			return NULL;
		*filled = done > pg ? done : pg;   /* the status block alone, or what was before */
	} else if (*filled < done) {
		*filled = done;
	}
	void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (m == MAP_FAILED)
		return NULL;
	/* A forked child must not write into its parent's buffer: it gets none of the mapping
	 * (sgt_obuf_forget) and makes its own. */
	(void)madvise(m, bytes, MADV_DONTFORK);
	return m;
}

/* Sets b up over the mapping m (NULL: none) of which `filled` bytes are written, for n_recs
 * records; the records go in memory when the mapping cannot hold them. 0 or -ENOMEM. */
static int buf_setup(struct sgt_obuf *b, void *m, size_t bytes, size_t filled, uint32_t thread,
		     size_t n_recs)
{
	size_t need = HEAD_BYTES + n_recs * sizeof(struct sg_event_rec);
	b->n_recs = b->n_filled = n_recs;
	b->map = m;
	b->map_bytes = bytes;
	b->filled_bytes = filled;
	b->st = m;
	if (m && filled >= HEAD_BYTES + 64 * sizeof(struct sg_event_rec)) {
		b->chunk = (struct sgf_chunk_header *)((char *)m + sizeof(struct sgf_open_status));
		if (filled < need)
			b->n_filled = (filled - HEAD_BYTES) / sizeof(struct sg_event_rec);
	} else {
		/* 64-byte aligned, so the records after the headers start on a checksum stripe */
		b->mem = aligned_alloc(64, (need + 63) & ~(size_t)63);
		if (!b->mem)
			return -ENOMEM;
		memset(b->mem, 0, HEAD_BYTES);
		if (!b->st)
			b->st = b->mem;
		b->chunk = (struct sgf_chunk_header *)((char *)b->mem +
						       sizeof(struct sgf_open_status));
	}
	/* field by field, magic last: a reused slot keeps its magic throughout, so that a reader
	 * of a process killed right now still walks past it to the slots after it */
	struct sgf_open_status *st = b->st;
	st->write_errno = 0;
	st->n_written = st->lost = 0;
	st->n_open = 0;
	st->capacity = b->mem ? 0 : (uint32_t)n_recs;
	st->epoch_ns = sgt_g.epoch_ns;
	st->slot_bytes = bytes;
	st->reserved = 0;
	__atomic_store_n(&st->thread, thread, __ATOMIC_RELEASE);
	memcpy(st->magic, SGF_MAGIC_OPEN, sizeof st->magic);
	memset(b->chunk, 0, sizeof *b->chunk);
	b->chunk->thread = thread;
	return 0;
}

/* A slot of threads.sgo for a buffer of n_recs records (all threads have the same): a freed
 * one, else a new one at the end. Called with sl.lock held. -1 when there is no file. */
static long slot_take(size_t n_recs)
{
	if (sl.fd < 0 && !sl.failed) {
		int fd = sgt_file_create(SGF_THREADS_OPEN_NAME, O_RDWR);
		if (fd >= 0 && !fs_overwrites_in_place(fd)) {
			close(fd);
			unlinkat(sgt_g.dirfd, SGF_THREADS_OPEN_NAME, 0);
			fd = -1;
		}
		if (fd < 0) {
			sl.failed = 1;   /* not retried for every thread */
			return -1;
		}
		sl.fd = fd;
		sl.slot_bytes = page_round(HEAD_BYTES + n_recs * sizeof(struct sg_event_rec));
	}
	if (sl.fd < 0)
		return -1;
	if (sl.n_free > 0)
		return (long)sl.free_slots[--sl.n_free];
	if (sl.n_slots == sl.cap) {
		size_t ncap = sl.cap ? sl.cap * 2 : 64;
		size_t *f = realloc(sl.filled, ncap * sizeof *f);
		if (f)
			sl.filled = f;
		size_t *q = f ? realloc(sl.free_slots, ncap * sizeof *q) : NULL;
		if (!q)
			return -1;
		sl.free_slots = q;
		sl.cap = ncap;
	}
	sl.filled[sl.n_slots] = 0;
	return (long)sl.n_slots++;
}

int sgt_obuf_open_thread(struct sgt_obuf *b, const char *stream, uint32_t thread, size_t n_recs)
{
	memset(b, 0, sizeof *b);
	b->slot = -1;
	snprintf(b->stream, sizeof b->stream, "%s", stream);
	void *m = NULL;
	size_t bytes = 0, filled = 0;
	pthread_mutex_lock(&sl.lock);
	long k = slot_take(n_recs);
	if (k >= 0) {
		bytes = sl.slot_bytes;
		filled = bytes < FIRST_FILL ? bytes : FIRST_FILL;
		m = region_map(sl.fd, (size_t)k * bytes, bytes, &filled, sl.filled[k]);
		if (m) {
			sl.filled[k] = filled;
			sl.busy++;
			b->slot = k;
			b->file_off = (size_t)k * bytes;
			b->fd = sl.fd;
		} else {
			sl.free_slots[sl.n_free++] = (size_t)k;
		}
	}
	pthread_mutex_unlock(&sl.lock);
	int rc = buf_setup(b, m, bytes, filled, thread, n_recs);
	if (rc < 0)
		sgt_obuf_free(b);
	return rc;
}

int sgt_obuf_open_file(struct sgt_obuf *b, const char *name, const char *stream, uint32_t thread,
		       size_t n_recs)
{
	memset(b, 0, sizeof *b);
	b->slot = -1;
	b->fd = -1;
	snprintf(b->stream, sizeof b->stream, "%s", stream);
	size_t bytes = page_round(HEAD_BYTES + n_recs * sizeof(struct sg_event_rec));
	size_t filled = bytes;   /* all of it now: its writer may not stop to grow it */
	void *m = NULL;
	int fd = sgt_file_create(name, O_RDWR);
	if (fd >= 0) {
		if (fs_overwrites_in_place(fd))
			m = region_map(fd, 0, bytes, &filled, 0);
		close(fd);
		if (m)
			snprintf(b->name, sizeof b->name, "%s", name);
		else
			unlinkat(sgt_g.dirfd, name, 0);
	}
	int rc = buf_setup(b, m, m ? bytes : 0, m ? filled : 0, thread, n_recs);
	if (rc < 0) {
		sgt_obuf_done(b);
		sgt_obuf_free(b);
	}
	return rc;
}

size_t sgt_obuf_grow(struct sgt_obuf *b)
{
	if (b->n_filled >= b->n_recs || b->grow_failed || b->slot < 0)
		return b->n_filled;
	size_t to = b->filled_bytes * 2;
	if (to > b->map_bytes)
		to = b->map_bytes;
	if (zero_fill(b->fd, b->file_off + b->filled_bytes, b->file_off + to) != 0) {
		/* a full disk: the buffer stays the size it has (its chunks are smaller) */
		b->grow_failed = 1;
		return b->n_filled;
	}
	b->filled_bytes = to;
	pthread_mutex_lock(&sl.lock);
	sl.filled[b->slot] = to;
	pthread_mutex_unlock(&sl.lock);
	size_t n = (to - HEAD_BYTES) / sizeof(struct sg_event_rec);
	b->n_filled = n < b->n_recs ? n : b->n_recs;
	return b->n_filled;
}

void sgt_obuf_open_mark(struct sgt_obuf *b, uint64_t seq, uint64_t ticks, uint64_t ns)
{
	struct sgf_chunk_header *h = b->chunk;
	__atomic_store_n(&h->magic, 0, __ATOMIC_RELEASE);
	h->seq = seq;
	h->n_recs = 0;
	h->flags = 0;
	h->pair_ticks = ticks;
	h->pair_ns = ns;
	h->payload_hash = h->payload_bytes = h->hash = 0;
	__atomic_store_n(&h->magic, SGF_OPEN_MAGIC, __ATOMIC_RELEASE);
}

/* A short text for errno `err` without locale or allocation (async-signal-safe). */
static const char *err_text(int err, char *buf, size_t len)
{
	const char *d = strerrordesc_np(err);
	if (d)
		return d;
	snprintf(buf, len, "errno %d", err);   /* not reached for a known errno */
	return buf;
}

void sgt_say_write_failed(const char *name, int err)
{
	static int said;
	static char msg[PATH_MAX + 256];
	char num[24];
	if (__atomic_exchange_n(&said, 1, __ATOMIC_ACQ_REL))
		return;
	const char *parts[] = { "sgtrace: error: ", sgt_g.dir, "/", name, ": ",
				err_text(err, num, sizeof num),
				"; events from here on are lost\n" };
	size_t n = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		size_t k = strlen(parts[i]);
		if (k > sizeof msg - 1 - n)
			k = sizeof msg - 1 - n;
		memcpy(msg + n, parts[i], k);
		n += k;
	}
	ssize_t w = write(STDERR_FILENO, msg, n);
	(void)w;
}

void sgt_obuf_failed(struct sgt_obuf *b, int err, uint64_t n_written, uint64_t lost)
{
	if (b->st && b->map) {
		b->st->n_written = n_written;
		b->st->lost = lost;
		if (!b->st->write_errno && b->slot >= 0)
			__atomic_add_fetch(&sl.kept, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&b->st->write_errno, (uint32_t)err, __ATOMIC_RELEASE);
	}
	sgt_say_write_failed(b->stream, err);
}

void sgt_obuf_done(struct sgt_obuf *b)
{
	if (b->done || (b->st && b->map && b->st->write_errno))
		return;   /* a failed stream's status stays for the reader */
	b->done = 1;
	if (b->slot >= 0) {
		/* the reader skips a slot of no thread; the next thread may take it */
		__atomic_store_n(&b->st->thread, SG_NO_ID, __ATOMIC_RELEASE);
		__atomic_sub_fetch(&sl.busy, 1, __ATOMIC_RELAXED);
	} else if (b->name[0]) {
		unlinkat(sgt_g.dirfd, b->name, 0);
	}
}

void sgt_obuf_free(struct sgt_obuf *b)
{
	if (b->map)
		munmap(b->map, b->map_bytes);
	if (b->slot >= 0 && b->done) {
		pthread_mutex_lock(&sl.lock);
		sl.free_slots[sl.n_free++] = (size_t)b->slot;   /* cap >= n_slots >= n_free */
		pthread_mutex_unlock(&sl.lock);
	}
	free(b->mem);
	b->map = b->mem = NULL;
	b->st = NULL;
	b->chunk = NULL;
	b->slot = -1;
}

void sgt_obuf_forget(struct sgt_obuf *b)
{
	/* The parent's memory buffer was copied into the child: free that copy; the mapping was
	 * not (MADV_DONTFORK), and its address may be reused in the child. */
	free(b->mem);
	memset(b, 0, sizeof *b);
	b->slot = -1;
	b->fd = -1;
}

void sgt_obuf_process_end(void)
{
	int fd = __atomic_load_n(&sl.fd, __ATOMIC_ACQUIRE);
	if (fd >= 0 && __atomic_load_n(&sl.busy, __ATOMIC_ACQUIRE) == 0 &&
	    __atomic_load_n(&sl.kept, __ATOMIC_ACQUIRE) == 0)
		unlinkat(sgt_g.dirfd, SGF_THREADS_OPEN_NAME, 0);
}

void sgt_obuf_atfork_prepare(void)
{
	pthread_mutex_lock(&sl.lock);
}

void sgt_obuf_atfork_parent(void)
{
	pthread_mutex_unlock(&sl.lock);
}

void sgt_obuf_atfork_child(void)
{
	/* The parent's file and slots stay the parent's; the child makes its own in its own
	 * directory at its first thread's start. */
	if (sl.fd >= 0)
		close(sl.fd);
	sl.fd = -1;
	sl.failed = 0;
	sl.n_slots = sl.n_free = 0;
	sl.busy = sl.kept = 0;
	pthread_mutex_unlock(&sl.lock);
}
