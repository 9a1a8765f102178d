/*
 * sgt_obuf.c — each stream's open buffer file, thread.<N>.sgo or sched.sgo
 * (sgtrace_format.h, struct sgf_open_status). Two things used to be lost without a word:
 *   - a SIGKILL took every thread's unflushed buffer with it (up to 1 MiB of events each, the
 *     main thread's whole run when it recorded less): the buffer lived in anonymous memory;
 *   - a full disk stopped a stream silently, and its trace could not be told from a crash.
 * So the buffer a thread records into is a shared mapping of a file in the process directory,
 * allocated in full when the stream starts (no write into it needs disk space later): what was
 * recorded is in the page cache the moment it is stored, and a killed process leaves it there
 * for the reader. The chunk is still written to the stream with one write() when full —
 * recording costs what it did (docs/tracelib.md, "Costs"); the mapping's pages are faulted in
 * once, at their first use. The file's first 64 bytes say why the stream stopped, if it did.
 * A stream that ends cleanly removes its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sgt_int.h"

#define HEAD_BYTES (sizeof(struct sgf_open_status) + sizeof(struct sgf_chunk_header))

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

/* Creates and allocates the file, and maps `*bytes` of it: all of it, else the status block
 * alone (*bytes shrinks to a page), else nothing (NULL). */
static void *file_map(const char *name, size_t *bytes)
{
	int fd = sgt_file_create(name, O_RDWR);
	if (fd < 0)
		return NULL;
	void *m = MAP_FAILED;
	if (!fs_overwrites_in_place(fd))
		goto out;
	if (posix_fallocate(fd, 0, (off_t)*bytes) != 0) {
		*bytes = page_round(sizeof(struct sgf_open_status));
		if (ftruncate(fd, 0) < 0 || posix_fallocate(fd, 0, (off_t)*bytes) != 0)
			goto out;
	}
	m = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	/* A forked child must not write into its parent's buffer: it gets none of the mapping
	 * (sgt_obuf_forget) and makes its own. */
	if (m != MAP_FAILED)
		(void)madvise(m, *bytes, MADV_DONTFORK);
out:
	close(fd);
	if (m == MAP_FAILED) {
		unlinkat(sgt_g.dirfd, name, 0);
		return NULL;
	}
	return m;
}

int sgt_obuf_open(struct sgt_obuf *b, const char *name, const char *stream, uint32_t thread,
		  size_t n_recs)
{
	memset(b, 0, sizeof *b);
	snprintf(b->stream, sizeof b->stream, "%s", stream);
	size_t need = HEAD_BYTES + n_recs * sizeof(struct sg_event_rec);
	size_t bytes = page_round(need);
	void *m = file_map(name, &bytes);
	if (m) {
		snprintf(b->name, sizeof b->name, "%s", name);
		b->map = m;
		b->map_bytes = bytes;
		b->st = m;
	}
	if (m && bytes >= need) {
		b->chunk = (struct sgf_chunk_header *)((char *)m + sizeof(struct sgf_open_status));
		b->st->capacity = (uint32_t)n_recs;
	} else {
		/* 64-byte aligned, so the records after the headers start on a checksum stripe */
		b->mem = aligned_alloc(64, (need + 63) & ~(size_t)63);
		if (!b->mem) {
			sgt_obuf_done(b);
			sgt_obuf_free(b);
			return -ENOMEM;
		}
		memset(b->mem, 0, HEAD_BYTES);
		if (!b->st)
			b->st = b->mem;
		b->chunk = (struct sgf_chunk_header *)((char *)b->mem +
						       sizeof(struct sgf_open_status));
	}
	b->st->thread = thread;
	b->st->epoch_ns = sgt_g.epoch_ns;
	memcpy(b->st->magic, SGF_MAGIC_OPEN, sizeof b->st->magic);
	b->chunk->thread = thread;
	return 0;
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
	h->payload_hash = h->reserved = h->hash = 0;
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
	if (b->st) {
		b->st->n_written = n_written;
		b->st->lost = lost;
		__atomic_store_n(&b->st->write_errno, (uint32_t)err, __ATOMIC_RELEASE);
	}
	sgt_say_write_failed(b->stream, err);
}

void sgt_obuf_done(struct sgt_obuf *b)
{
	if (!b->name[0] || b->unlinked || (b->st && b->st->write_errno))
		return;
	b->unlinked = 1;
	unlinkat(sgt_g.dirfd, b->name, 0);
}

void sgt_obuf_free(struct sgt_obuf *b)
{
	if (b->map)
		munmap(b->map, b->map_bytes);
	free(b->mem);
	b->map = b->mem = NULL;
	b->st = NULL;
	b->chunk = NULL;
}

void sgt_obuf_forget(struct sgt_obuf *b)
{
	/* The parent's memory buffer was copied into the child: free that copy; the mapping was
	 * not (MADV_DONTFORK), and its address may be reused in the child. */
	free(b->mem);
	memset(b, 0, sizeof *b);
}
