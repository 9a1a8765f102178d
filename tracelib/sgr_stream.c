/*
 * sgr_stream.c — the reader's side of thread streams: maps each thread.<N>.sgs, walks its chunk
 * headers once at open (resynchronising after a damaged header), checks payloads lazily and
 * hands out spans of records (sgr_cursor) or decoded events (sgr_iter).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgr_int.h"

static void stream_init(struct sgr_stream *s, uint32_t index)
{
	memset(s, 0, sizeof *s);
	s->th.index = index;
	s->th.parent = SG_NO_ID;
	snprintf(s->file, sizeof s->file, SGF_STREAM_FMT, index);
}

struct sgr_stream *sgr_stream_get(struct sgr_trace *t, uint32_t index, int create)
{
	size_t lo = 0, hi = t->n_streams;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->streams[mid].th.index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n_streams && t->streams[lo].th.index == index)
		return &t->streams[lo];
	if (!create)
		return NULL;
	struct sgr_stream *ns = realloc(t->streams, (t->n_streams + 1) * sizeof *ns);
	if (!ns)
		return NULL;
	t->streams = ns;
	memmove(&ns[lo + 1], &ns[lo], (t->n_streams - lo) * sizeof *ns);
	t->n_streams++;
	struct sgr_stream *s = &ns[lo];
	stream_init(s, index);
	return s;
}

int sgr_streams_add(struct sgr_trace *t, const uint32_t *idx, size_t n)
{
	size_t m = t->n_streams, fresh = 0;
	for (size_t i = 0, j = 0; i < n; i++) {
		while (j < m && t->streams[j].th.index < idx[i])
			j++;
		fresh += !(j < m && t->streams[j].th.index == idx[i]);
	}
	if (fresh == 0)
		return 0;
	struct sgr_stream *ns = malloc((m + fresh) * sizeof *ns);
	if (!ns)
		return -ENOMEM;
	size_t i = 0, j = 0, k = 0;
	while (i < n || j < m) {
		if (j < m && (i == n || t->streams[j].th.index <= idx[i])) {
			if (i < n && t->streams[j].th.index == idx[i])
				i++;
			ns[k++] = t->streams[j++];
		} else {
			stream_init(&ns[k++], idx[i++]);
		}
	}
	free(t->streams);
	t->streams = ns;
	t->n_streams = k;
	return 0;
}

/* Is `off` the start of a valid chunk header or trailer? */
static int header_at(const struct sgr_stream *s, size_t off)
{
	if (off + sizeof(struct sgf_chunk_header) > s->size)
		return 0;
	const void *p = s->map + off;
	return sgf_chunk_header_check(p) == 0 || sgf_trailer_check(p) == 0;
}

/* The position in chunks[0..n) (sorted by seq) of the first chunk numbered seq or more. */
static size_t chunk_find(const struct sgr_chunk *chunks, size_t n, uint64_t seq)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (chunks[mid].h->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Has stream s a chunk numbered seq? Its table is sorted by seq. */
static int chunk_seen(const struct sgr_stream *s, uint64_t seq)
{
	size_t lo = chunk_find(s->chunks, s->n_chunks, seq);
	return lo < s->n_chunks && s->chunks[lo].h->seq == seq;
}

struct sgr_chunk *sgr_chunk_of(struct sgr_trace *t, uint32_t pos, uint64_t seq)
{
	struct sgr_stream *s = sgr_stream_at(t, pos);
	if (!s)
		return NULL;
	size_t k = chunk_find(s->chunks, s->n_chunks, seq);
	return k < s->n_chunks && s->chunks[k].h->seq == seq ? &s->chunks[k] : NULL;
}

static int chunk_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct sgr_chunk *)a)->h->seq, y = ((const struct sgr_chunk *)b)->h->seq;
	return (x > y) - (x < y);
}

/* Puts the chunks that came after a later one (late[0..n_late), in file order) in their
 * places by number: a chunk is identified by its number, so one written out of order is read
 * where it belongs (issue 20: it was dropped while the thread line said "0 lost"). One sort
 * and one merge, whatever their number; a number met twice is read once. 0 or -ENOMEM. */
static int chunks_merge_late(struct sgr_trace *t, struct sgr_stream *s, struct sgr_chunk *late,
			     size_t n_late)
{
	if (!n_late)
		return 0;
	qsort(late, n_late, sizeof *late, chunk_cmp);   /* (stable enough: equal seqs are one) */
	struct sgr_chunk *m = malloc((s->n_chunks + n_late) * sizeof *m);
	if (!m)
		return -ENOMEM;
	size_t i = 0, j = 0, k = 0;
	while (i < s->n_chunks || j < n_late) {
		if (j == n_late || (i < s->n_chunks && s->chunks[i].h->seq <= late[j].h->seq)) {
			m[k++] = s->chunks[i++];
			continue;
		}
		const struct sgf_chunk_header *h = late[j++].h;
		if (k && m[k - 1].h->seq == h->seq) {
			sgr_problem_add(t, "%s: chunk %llu duplicated: skipped", s->file,
					(unsigned long long)h->seq);
			continue;
		}
		if (i < s->n_chunks && s->chunks[i].h->seq == h->seq)
			continue;   /* reported as duplicated at the walk */
		sgr_problem_add(t, "%s: chunk %llu out of order (after a later chunk): read in its "
				"place", s->file, (unsigned long long)h->seq);
		m[k++] = (struct sgr_chunk){ .h = h };
		s->th.n_chunks++;
		s->th.n_recs += h->n_recs;
		if (s->th.index != SGF_SCHED_THREAD)
			sgr_pair_add(t, h->pair_ticks, h->pair_ns, (uint32_t)(s - t->streams),
				     h->seq);
	}
	free(s->chunks);
	s->chunks = m;
	s->n_chunks = k;
	return 0;
}

/* After the walk: the gaps between chunk numbers (the out-of-order chunks in their places),
 * and what the trailer counts against what was read — the difference is lost. */
static void stream_counts(struct sgr_trace *t, struct sgr_stream *s,
			  const struct sgf_trailer *tr)
{
	uint64_t next = 0;
	for (size_t k = 0; k < s->n_chunks; k++) {
		uint64_t seq = s->chunks[k].h->seq;
		if (seq != next)
			sgr_problem_add(t, "%s: chunk %llu: expected chunk %llu (chunks missing)",
					s->file, (unsigned long long)seq, (unsigned long long)next);
		next = seq + 1;
	}
	if (!tr || (tr->n_chunks == s->th.n_chunks && tr->n_recs == s->th.n_recs))
		return;
	if (tr->n_recs > s->th.n_recs) {
		uint64_t lost = tr->n_recs - s->th.n_recs;
		s->th.lost += lost;
		sgr_problem_add(t, "%s: trailer counts %llu chunks / %llu records, %llu / %llu read: "
				"%llu records lost", s->file, (unsigned long long)tr->n_chunks,
				(unsigned long long)tr->n_recs, (unsigned long long)s->th.n_chunks,
				(unsigned long long)s->th.n_recs, (unsigned long long)lost);
	} else {
		sgr_problem_add(t, "%s: trailer counts %llu chunks / %llu records, %llu / %llu read: "
				"the trailer does not count them all", s->file,
				(unsigned long long)tr->n_chunks, (unsigned long long)tr->n_recs,
				(unsigned long long)s->th.n_chunks, (unsigned long long)s->th.n_recs);
	}
}

/* Walks the chunk headers of a mapped stream, building its chunk table. */
static int stream_walk(struct sgr_trace *t, struct sgr_stream *s)
{
	size_t cap = 0, cap_late = 0, n_late = 0;
	struct sgr_chunk *late = NULL;
	size_t off = sizeof(struct sgf_file_header);
	uint64_t next_seq = 0;
	const size_t hsz = sizeof(struct sgf_chunk_header);
	int rc = 0;
	while (off + hsz <= s->size) {
		const struct sgf_chunk_header *h = (const void *)(s->map + off);
		const struct sgf_trailer *tr = (const void *)(s->map + off);
		if (sgf_trailer_check(tr) == 0) {
			s->th.complete = 1;
			s->th.lost += tr->lost;
			if (s->th.index != SGF_SCHED_THREAD)   /* its ticks are ns: not in the fit */
				sgr_pair_add(t, tr->pair_ticks, tr->pair_ns,
					     (uint32_t)(s - t->streams), SGR_PAIR_TRAILER);
			off += sizeof *tr;
			if (off < s->size)   /* the writer writes nothing after its trailer */
				sgr_problem_add(t, "%s: %zu bytes after the trailer (offset %zu): not "
						"read", s->file, s->size - off, off);
			if ((rc = chunks_merge_late(t, s, late, n_late)) == 0)
				stream_counts(t, s, tr);
			free(late);
			return rc;
		}
		if (sgf_chunk_header_check(h) < 0) {
			size_t skip = off + 16;
			while (skip + hsz <= s->size && !header_at(s, skip))
				skip += 16;
			s->th.n_damaged++;
			if (skip + hsz > s->size) {
				sgr_problem_add(t, "%s: chunk %llu: bad header at offset %zu; nothing "
						"readable after it", s->file,
						(unsigned long long)next_seq, off);
				rc = chunks_merge_late(t, s, late, n_late);
				free(late);
				return rc;
			}
			sgr_problem_add(t, "%s: chunk %llu: bad header at offset %zu; skipped %zu "
					"bytes", s->file, (unsigned long long)next_seq, off,
					skip - off);
			off = skip;
			continue;
		}
		uint64_t plen = sgf_chunk_payload_len(h);
		size_t bytes = hsz + (size_t)plen;
		if (plen > s->size - off - hsz) {
			sgr_problem_add(t, "%s: chunk %llu: cut short (%zu of %llu bytes)", s->file,
					(unsigned long long)h->seq, s->size - off,
					(unsigned long long)(plen + hsz));
			break;
		}
		/* (against the last chunk taken, not next_seq: that wraps after seq 2^64-1) */
		if (s->n_chunks && h->seq <= s->chunks[s->n_chunks - 1].h->seq) {
			/* a chunk number already read: the same chunk written twice (or a copy
			 * gone wrong) is read once; one out of order is put in its place after
			 * the walk (chunks_merge_late) */
			if (chunk_seen(s, h->seq)) {
				sgr_problem_add(t, "%s: chunk %llu duplicated: skipped", s->file,
						(unsigned long long)h->seq);
			} else if (h->thread != s->th.index) {
				sgr_problem_add(t, "%s: chunk %llu: belongs to thread %u; out of "
						"order (after a later chunk): skipped", s->file,
						(unsigned long long)h->seq, h->thread);
			} else {
				if (sgr_grow(&late, &cap_late, n_late, sizeof *late) < 0) {
					free(late);
					return -ENOMEM;
				}
				late[n_late++] = (struct sgr_chunk){ .h = h };
			}
			off += bytes;
			continue;
		}
		if (h->thread != s->th.index)
			sgr_problem_add(t, "%s: chunk %llu: belongs to thread %u", s->file,
					(unsigned long long)h->seq, h->thread);
		if (sgr_grow(&s->chunks, &cap, s->n_chunks, sizeof *s->chunks) < 0) {
			free(late);
			return -ENOMEM;
		}
		s->chunks[s->n_chunks++] = (struct sgr_chunk){ .h = h };
		s->th.n_chunks++;
		s->th.n_recs += h->n_recs;
		if (s->th.index != SGF_SCHED_THREAD)
			sgr_pair_add(t, h->pair_ticks, h->pair_ns, (uint32_t)(s - t->streams),
				      h->seq);
		next_seq = h->seq + 1;
		off += bytes;
	}
	if (off < s->size && off + hsz > s->size)
		sgr_problem_add(t, "%s: chunk %llu: cut short (%zu bytes of a header)", s->file,
				(unsigned long long)next_seq, s->size - off);
	rc = chunks_merge_late(t, s, late, n_late);
	free(late);
	if (rc < 0)
		return rc;
	stream_counts(t, s, NULL);
	if (s->th.write_errno)   /* sgr_status.c: not a crash */
		sgr_problem_add(t, "%s: no trailer: the stream stopped after %llu whole chunks "
				"(its file could not be written: %s)", s->file,
				(unsigned long long)s->n_chunks, strerror(s->th.write_errno));
	else
		sgr_problem_add(t, "%s: no trailer: the stream was cut short after %llu whole "
				"chunks (%s did not finish: crash or kill?)", s->file,
				(unsigned long long)s->n_chunks,
				s->th.index == SGF_SCHED_THREAD ? "the process" : "thread");
	return 0;
}

/* Maps one stream file and walks it. A missing or unreadable file is a problem, not an error. */
static int stream_load(struct sgr_trace *t, struct sgr_stream *s)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", t->dir, s->file) >= sizeof path)
		return -ENAMETOOLONG;
	s->th.file = s->file;
	s->th.lost_unknown = 1;   /* until a trailer says */
	struct stat st;
	char whybuf[160];
	int fd = sgr_file_open(path, &st, whybuf, sizeof whybuf);
	if (fd < 0) {
		sgr_problem_add(t, "%s: %s", s->file, whybuf);
		return 0;
	}
	int rc = 0;
	const char *why = "file header cut short";
	if ((size_t)st.st_size >= sizeof(struct sgf_file_header)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			sgr_problem_add(t, "%s: mmap: %s", s->file, strerror(errno));
			goto out;
		}
		s->map = m;
		s->size = (size_t)st.st_size;
		const struct sgf_file_header *h = m;
		if (sgf_file_header_check(h, SGF_MAGIC_STREAM, &why) == 0 &&
		    h->thread == s->th.index) {
			s->th.readable = 1;
			sgr_status_errors(t, s);
			rc = stream_walk(t, s);
			if (rc == 0)
				rc = sgr_status_recover(t, s);
			/* each compact chunk's place among the decoded records */
			for (size_t k = 0; k < s->n_chunks; k++) {
				if (s->chunks[k].h->flags & SGF_CHUNK_COMPACT) {
					s->chunks[k].dec_off = s->dec_total;
					s->dec_total += s->chunks[k].h->n_recs;
					if (s->chunks[k].h->n_recs > s->dec_max)
						s->dec_max = s->chunks[k].h->n_recs;
				}
			}
			if (t->flags & SGR_RELEASE)
				madvise(m, s->size, MADV_DONTNEED);
			/* a recorded write error counted what was lost (sgr_status.c) */
			s->th.lost_unknown = !s->th.complete && !s->th.write_errno;
			goto out;
		}
		if (h->thread != s->th.index)
			why = "file header names another thread";
	}
	sgr_problem_add(t, "%s: %s", s->file, why);
out:
	close(fd);
	return rc;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Adds a stream for every thread.<N>.sgs in the directory, defined or not. */
static int streams_scan_dir(struct sgr_trace *t)
{
	DIR *d = opendir(t->dir);
	if (!d)
		return -errno;
	int rc = 0;
	struct dirent *e;
	uint32_t *idx = NULL;
	size_t n = 0, cap = 0;
	while ((e = readdir(d))) {
		unsigned i;
		char tail[8];
		if (sscanf(e->d_name, "thread.%u.sg%7s", &i, tail) != 2 || strcmp(tail, "s"))
			continue;
		char canon[64];
		snprintf(canon, sizeof canon, SGF_STREAM_FMT, i);
		if (strcmp(canon, e->d_name))
			continue;
		if (i >= SG_ID_LIMIT) {
			sgr_problem_add(t, "%s: thread index beyond the format's limit (< %" PRIu32
					"): not read", e->d_name, SG_ID_LIMIT);
			continue;
		}
		if (sgr_grow(&idx, &cap, n, sizeof *idx) < 0) {
			rc = -ENOMEM;
			break;
		}
		idx[n++] = i;
	}
	closedir(d);
	if (rc == 0 && n) {
		qsort(idx, n, sizeof *idx, cmp_u32);
		rc = sgr_streams_add(t, idx, n);
	}
	free(idx);
	return rc;
}

/* The sched stream, when sched.sgs exists. */
static int sched_load(struct sgr_trace *t)
{
	char path[PATH_MAX];
	struct stat st;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", t->dir, SGF_SCHED_NAME) >= sizeof path)
		return -ENAMETOOLONG;
	if (lstat(path, &st) < 0)
		return 0;
	struct sgr_stream *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	s->th.index = SGF_SCHED_THREAD;
	s->th.parent = SG_NO_ID;
	snprintf(s->file, sizeof s->file, "%s", SGF_SCHED_NAME);
	t->sched_stream = s;
	int rc = stream_load(t, s);
	t->sched.present = s->th.readable;
	t->sched.complete = s->th.complete;
	t->sched.n_recs = s->th.n_recs;
	t->sched.lost = s->th.lost;
	t->sched.write_errno = s->th.write_errno;
	return rc;
}

int sgr_streams_load(struct sgr_trace *t)
{
	int rc = streams_scan_dir(t);
	for (size_t i = 0; rc == 0 && i < t->n_streams; i++) {
		struct sgr_stream *s = &t->streams[i];
		if (!s->th.defined)
			sgr_problem_add(t, "%s: thread %u has no definition", s->file, s->th.index);
		rc = stream_load(t, s);
	}
	if (rc == 0)
		rc = sched_load(t);
	sgr_status_free(t);   /* what the open buffers said is read */
	return rc;
}

static void stream_unmap(struct sgr_stream *s)
{
	if (s->map)
		munmap((void *)s->map, s->size);
	for (size_t k = 0; k < s->n_chunks; k++)
		free((void *)s->chunks[k].fixed);
	if (s->dec_arena)
		munmap(s->dec_arena, s->dec_total * sizeof *s->dec_arena);
	free(s->dec_one);
	free(s->chunks);
	free(s->open_copy);
}

void sgr_streams_free(struct sgr_trace *t)
{
	for (size_t i = 0; i < t->n_streams; i++)
		stream_unmap(&t->streams[i]);
	free(t->streams);
	if (t->sched_stream)
		stream_unmap(t->sched_stream);
	free(t->sched_stream);
}

/* a compact chunk's decoding (sgr_chunk.dec_state) */
enum { DEC_NONE, DEC_BUSY, DEC_DONE, DEC_BAD, DEC_NOMEM };

void sgr_release(const struct sgr_trace *t, size_t pos)
{
	struct sgr_stream *s = sgr_stream_at((struct sgr_trace *)t, pos);
	if (!s)
		return;
	if (s->map && s->size)
		madvise((void *)s->map, s->size, MADV_DONTNEED);
	/* the decoded records of its compact chunks go too: a chunk read whole is checked and
	 * decoded again if read again (one left partly out of order keeps its own copy; a bad
	 * one stays bad, reported once) */
	if (s->dec_arena) {
		munmap(s->dec_arena, s->dec_total ? s->dec_total * sizeof *s->dec_arena : 1);
		s->dec_arena = NULL;
		for (size_t k = 0; k < s->n_chunks; k++) {
			struct sgr_chunk *c = &s->chunks[k];
			if (!c->dec)
				continue;
			c->dec = NULL;
			c->dec_state = DEC_NONE;
			if (c->state == CHUNK_OK)
				c->state = CHUNK_UNCHECKED;
		}
	}
	if (s->dec_one_of) {   /* the chunk in the one buffer (SGR_RELEASE): forgotten too */
		struct sgr_chunk *c = s->dec_one_of;
		c->dec = NULL;
		c->dec_state = DEC_NONE;
		if (c->state == CHUNK_OK)
			c->state = CHUNK_UNCHECKED;
	}
	free(s->dec_one);
	s->dec_one = NULL;
	s->dec_one_of = NULL;
}

struct sgr_stream *sgr_stream_at(struct sgr_trace *t, size_t pos)
{
	if (pos == SGR_POS_SCHED)
		return t->sched_stream;
	return pos < t->n_streams ? &t->streams[pos] : NULL;
}

/* ---- time order (issue 20: a stream whose ticks ran backwards read T_para 405 s for a 7 ms
 * run, "problems: 0") ----
 *
 * A thread's records are in time order, and libsgtrace takes a chunk's clock pair when it
 * writes the chunk, after its records and before the next chunk's: so every record of chunk k
 * lies in [pair of chunk k-1, pair of chunk k] and is not before the record before it. A record
 * that breaks this — before the one before it, before the previous chunk's pair, after its own
 * chunk's pair — cannot be placed in time, whatever its checksum says; figures built on it (a
 * thread's span, a call's length) are wrong by as much. It is left out (so is a VALUE whose
 * record was), the rest of the chunk is read from a copy, and a problem line names the chunk,
 * the record and by how much it was off. A pair the clock fit left out (pair_off) bounds
 * nothing; a recovered chunk's pair is its start. The sched stream (per-CPU rings, not in time
 * order) is not checked. The check rides on the checksum's pass (hash_and_order); with
 * SGR_NO_VERIFY, which skips the payload checks, a chunk's first and last records are still
 * checked against its window (a chunk shifted in time, or cut and pasted elsewhere). */

/* Problem lines naming a chunk out of time order, per stream; after them one line says more
 * were found (the thread's n_out_of_order counts every record). */
#define ORDER_LINES_MAX 4

/* "405 s", "1.2 ms": how far a tick count is from another, in the trace's time. */
static void ticks_amount(const struct sgr_trace *t, uint64_t a, uint64_t b, char *out, size_t len)
{
	double ns = (double)(a > b ? a - b : b - a) * t->info.ns_per_tick;
	if (ns >= 1e9)
		snprintf(out, len, "%.6g s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(out, len, "%.6g ms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(out, len, "%.6g us", ns / 1e3);
	else
		snprintf(out, len, "%.6g ns", ns);
}

/* Chunk c's records kept in time order into a fresh copy (c->fixed, c->n_fixed; published with
 * a compare-and-swap: a second reader racing on the chunk frees its own, which is the same), and
 * one problem line. Returns CHUNK_FIXED, or CHUNK_BAD with *oom set when out of memory (the
 * chunk is then not read at all). */
static int chunk_fix(struct sgr_trace *t, struct sgr_stream *s, struct sgr_chunk *c,
		     const struct sg_event_rec *r, uint64_t lo, uint64_t hi, int *oom)
{
	uint32_t n = c->h->n_recs, kept = 0;
	struct sg_event_rec *copy = malloc((n ? n : 1) * sizeof *copy);
	if (!copy) {
		*oom = 1;
		return CHUNK_BAD;
	}
	uint64_t prev = lo, first_x = 0, first_ref = 0;
	size_t first_i = n;
	int first_late = 0, last_kept = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = sg_rec_ticks(&r[i]);
		int in_order = x >= prev && x <= hi;
		/* a VALUE belongs to the record before it: left out with it */
		int keep = in_order && (sg_rec_kind(&r[i]) != SG_EV_VALUE || last_kept);
		if (keep) {
			copy[kept++] = r[i];
			prev = x;
		} else if (!in_order && first_i == n) {
			first_i = i, first_x = x;
			first_late = x > hi;
			first_ref = first_late ? hi : prev;
		}
		last_kept = keep;
	}
	__atomic_store_n(&c->n_fixed, kept, __ATOMIC_RELAXED);
	const struct sg_event_rec *none = NULL;
	if (!__atomic_compare_exchange_n(&c->fixed, &none, copy, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		free(copy);   /* another reader made the same copy first, and says so */
		return CHUNK_FIXED;
	}
	uint64_t out = n - kept;
	__atomic_add_fetch(&s->th.n_out_of_order, out, __ATOMIC_RELAXED);
	uint32_t line = __atomic_fetch_add(&s->n_order_lines, 1, __ATOMIC_RELAXED);
	if (line > ORDER_LINES_MAX)
		return CHUNK_FIXED;
	if (line == ORDER_LINES_MAX) {
		sgr_problem_add(t, "%s: more chunks out of time order (every record left out is "
				"counted in the thread's summary)", s->file);
		return CHUNK_FIXED;
	}
	char amount[32];
	ticks_amount(t, first_x, first_ref, amount, sizeof amount);
	if (first_late)
		sgr_problem_add(t, "%s: chunk %llu: record %zu is %s after the chunk's clock pair "
				"(tick %llu, pair %llu): out of time order; %llu of its %u records "
				"left out", s->file, (unsigned long long)c->h->seq, first_i, amount,
				(unsigned long long)first_x, (unsigned long long)first_ref,
				(unsigned long long)out, n);
	else
		sgr_problem_add(t, "%s: chunk %llu: record %zu goes back %s (tick %llu after %llu%s): "
				"out of time order; %llu of its %u records left out", s->file,
				(unsigned long long)c->h->seq, first_i, amount,
				(unsigned long long)first_x, (unsigned long long)first_ref,
				first_i == 0 && first_ref == lo ? ", the previous chunk's clock pair"
								 : "",
				(unsigned long long)out, n);
	return CHUNK_FIXED;
}

/* XXH64 of n records (what sgf_hash gives for their n * 16 bytes) and, in the same pass, in
 * *back the OR of every record's ticks less the ticks of the record before it: the ticks are
 * below 2^56, so bit 63 is set when and only when some record goes back. The four lanes of
 * the hash wait on their multiplies; the differences fill those gaps. (A pass of its own over
 * the records cost the analysis a fifth of its speed: analyzer_bench, docs/trace-format.md.) */
static uint64_t hash_and_order(const struct sg_event_rec *r, uint32_t n, uint64_t *back)
{
	uint64_t v[4], h, acc = 0, prev = n ? r[0].w0 >> 8 : 0, len = (uint64_t)n * sizeof *r;
	uint32_t i = 0;
	sgf_xxh_init(v);
	for (; i + 2 <= n; i += 2) {
		uint64_t a = r[i].w0, b = r[i + 1].w0;
		v[0] = sgf_xxh_round(v[0], a);
		v[1] = sgf_xxh_round(v[1], r[i].w1);
		v[2] = sgf_xxh_round(v[2], b);
		v[3] = sgf_xxh_round(v[3], r[i + 1].w1);
		acc |= ((a >> 8) - prev) | ((b >> 8) - (a >> 8));
		prev = b >> 8;
	}
	h = sgf_xxh_lanes(v, len >= 32) + len;
	if (i < n) {
		acc |= (r[i].w0 >> 8) - prev;
		h = sgf_xxh_tail8(h, r[i].w0);
		h = sgf_xxh_tail8(h, r[i].w1);
	}
	*back = acc;
	return sgf_xxh_avalanche(h);
}


/* The stream's arena of decoded records, mapped on first use (published with a
 * compare-and-swap: a reader that loses the race unmaps its own). NULL when out of memory. */
static struct sg_event_rec *dec_arena(struct sgr_stream *s)
{
	struct sg_event_rec *a = __atomic_load_n(&s->dec_arena, __ATOMIC_ACQUIRE);
	if (a)
		return a;
	size_t bytes = (size_t)s->dec_total * sizeof *a;
	void *m = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	if (bytes >= ((size_t)2 << 20))
		(void)madvise(m, bytes, MADV_HUGEPAGE);
#endif
	struct sg_event_rec *none = NULL;
	if (!__atomic_compare_exchange_n(&s->dec_arena, &none, (struct sg_event_rec *)m, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		munmap(m, bytes ? bytes : 1);
		return none;
	}
	return m;
}

/* With SGR_RELEASE (one reader, one stream at a time, a span read before the next is asked
 * for: the analyzer) a compact chunk is decoded into one buffer of the stream, reused chunk
 * after chunk, not into the stream's arena: the arena was 16 bytes an event of fresh memory
 * the kernel had to zero (a sixth of `report`'s CPU time on the billiards trace of issue 21,
 * and its peak memory), where this buffer stays in the cache. The chunk decoded before is
 * forgotten: read again, it is checked and decoded again (as after sgr_release). */
static struct sg_event_rec *dec_one(struct sgr_stream *s, struct sgr_chunk *c)
{
	if (!s->dec_one && !(s->dec_one = malloc((s->dec_max ? s->dec_max : 1) *
						 sizeof *s->dec_one)))
		return NULL;
	struct sgr_chunk *o = s->dec_one_of;
	if (o && o != c) {
		o->dec = NULL;
		o->dec_state = DEC_NONE;
		if (o->state == CHUNK_OK)
			o->state = CHUNK_UNCHECKED;
	}
	s->dec_one_of = c;
	return s->dec_one;
}

/* The records of compact chunk c (format 1.6) decoded into its place in the stream's arena,
 * once: the first reader to reach it decodes, one racing with it waits for the result. *back
 * as hash_and_order's. NULL when the payload is malformed, or out of memory (*oom set). */
static const struct sg_event_rec *chunk_decode(struct sgr_stream *s, struct sgr_chunk *c,
					       int one, uint64_t *back, int *oom)
{
	int st = DEC_NONE;
	if (__atomic_compare_exchange_n(&c->dec_state, &st, DEC_BUSY, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		struct sg_event_rec *a = one ? dec_one(s, c) : dec_arena(s);
		if (!a) {
			__atomic_store_n(&c->dec_state, DEC_NOMEM, __ATOMIC_RELEASE);
		} else if (sgf_compact_decode((const unsigned char *)(c->h + 1),
					      (size_t)c->h->payload_bytes, one ? a : a + c->dec_off,
					      c->h->n_recs, back) < 0) {
			__atomic_store_n(&c->dec_state, DEC_BAD, __ATOMIC_RELEASE);
		} else {
			c->dec = one ? a : a + c->dec_off;
			__atomic_store_n(&c->dec_state, DEC_DONE, __ATOMIC_RELEASE);
		}
	}
	while ((st = __atomic_load_n(&c->dec_state, __ATOMIC_ACQUIRE)) == DEC_BUSY)
		sched_yield();
	if (st == DEC_NOMEM)
		*oom = 1;
	if (st != DEC_DONE)
		return NULL;
	if (!*back) {   /* decoded by another reader: its order, again (rare) */
		const struct sg_event_rec *r = c->dec;
		for (uint32_t i = 1; i < c->h->n_recs; i++)
			*back |= sg_rec_ticks(&r[i]) - sg_rec_ticks(&r[i - 1]);
	}
	return c->dec;
}

/* The window of chunk c's records: [the clock pair of the chunk before it, its own]. */
static void chunk_window(const struct sgr_stream *s, const struct sgr_chunk *c, uint64_t *lo,
			 uint64_t *hi)
{
	size_t k = (size_t)(c - s->chunks);
	*lo = 0, *hi = UINT64_MAX;
	if (k > 0 && !s->chunks[k - 1].pair_off && !s->chunks[k - 1].recovered)
		*lo = s->chunks[k - 1].h->pair_ticks;
	if (!c->pair_off && !c->recovered)
		*hi = c->h->pair_ticks;
}

/* Checks chunk c of stream s once: its payload checksum and, in the same pass, its time order
 * (with SGR_NO_VERIFY, which skips the payload checks, only its first and last records against
 * its window), and reports what is wrong. Returns 1 when readable (span_of gives its records:
 * the copy without those out of order, when some were). */
static int chunk_ok(struct sgr_trace *t, struct sgr_stream *s, struct sgr_chunk *c)
{
	int st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
	if (st == CHUNK_UNCHECKED) {
		const struct sg_event_rec *r = (const void *)(c->h + 1);
		uint32_t n = c->h->n_recs;
		int want = CHUNK_OK, oom = 0, sched = s->th.index == SGF_SCHED_THREAD;
		const char *why = "bad checksum";
		uint64_t back = 0, lo, hi;
		chunk_window(s, c, &lo, &hi);
		if (c->h->flags & SGF_CHUNK_COMPACT) {
			if (!(t->flags & SGR_NO_VERIFY) && sgf_chunk_payload_check(c->h, r) < 0)
				want = CHUNK_BAD;
			else if ((r = chunk_decode(s, c, !!(t->flags & SGR_RELEASE), &back,
						    &oom)) == NULL)
				want = CHUNK_BAD, why = oom ? "out of memory for its decoded records; "
							      "not read"
							    : "malformed compact payload; not read";
		} else if (!(t->flags & SGR_NO_VERIFY)) {
			if (sched)
				want = sgf_chunk_payload_check(c->h, r) == 0 ? CHUNK_OK : CHUNK_BAD;
			else if (hash_and_order(r, n, &back) != c->h->payload_hash)
				want = CHUNK_BAD;
		}
		if (want == CHUNK_OK && !sched && n &&
		    ((back >> 63) || sg_rec_ticks(&r[0]) < lo || sg_rec_ticks(&r[n - 1]) > hi ||
		     sg_rec_ticks(&r[0]) > sg_rec_ticks(&r[n - 1]))) {
			want = chunk_fix(t, s, c, r, lo, hi, &oom);
			if (want == CHUNK_BAD)
				why = "out of memory for its records in time order; not read";
		}
		int expected = CHUNK_UNCHECKED;
		if (__atomic_compare_exchange_n(&c->state, &expected, want, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) && want == CHUNK_BAD) {
			__atomic_add_fetch(&s->th.n_damaged, 1, __ATOMIC_RELAXED);
			sgr_problem_add(t, "%s: chunk %llu: %s", s->file,
					(unsigned long long)c->h->seq, why);
		}
		st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
	}
	return st == CHUNK_OK || st == CHUNK_FIXED;
}

uint64_t sgr_verify(struct sgr_trace *t)
{
	uint64_t bad = 0;
	for (size_t i = 0; i <= t->n_streams; i++) {
		struct sgr_stream *s = i < t->n_streams ? &t->streams[i] : t->sched_stream;
		for (size_t k = 0; s && k < s->n_chunks; k++)
			bad += !chunk_ok(t, s, &s->chunks[k]);
	}
	return bad;
}

void sgr_cursor_init(struct sgr_cursor *c, struct sgr_trace *t, size_t thread_pos)
{
	c->t = t;
	c->pos = thread_pos;
	c->chunk = 0;
}

/* The records of a checked chunk as a span (those kept in time order when some were not);
 * returns 1. */
static int span_of(const struct sgr_chunk *ch, struct sgr_span *span)
{
	if (__builtin_expect(ch->state == CHUNK_FIXED, 0)) {
		span->recs = ch->fixed;
		span->n = ch->n_fixed;
	} else {
		span->recs = ch->dec ? ch->dec : (const struct sg_event_rec *)(ch->h + 1);
		span->n = ch->h->n_recs;
	}
	span->seq = ch->h->seq;
	return 1;
}

int sgr_cursor_next(struct sgr_cursor *c, struct sgr_span *span)
{
	struct sgr_stream *s = sgr_stream_at(c->t, c->pos);
	if (!s)
		return 0;
	while (c->chunk < s->n_chunks) {
		struct sgr_chunk *ch = &s->chunks[c->chunk++];
		if (chunk_ok(c->t, s, ch))
			return span_of(ch, span);
	}
	return 0;
}

void sgr_cursor_init_end(struct sgr_cursor *c, struct sgr_trace *t, size_t thread_pos)
{
	c->t = t;
	c->pos = thread_pos;
	struct sgr_stream *s = sgr_stream_at(t, thread_pos);
	c->chunk = s ? s->n_chunks : 0;
}

int sgr_cursor_prev(struct sgr_cursor *c, struct sgr_span *span)
{
	struct sgr_stream *s = sgr_stream_at(c->t, c->pos);
	if (!s)
		return 0;
	while (c->chunk > 0) {
		struct sgr_chunk *ch = &s->chunks[--c->chunk];
		if (chunk_ok(c->t, s, ch))
			return span_of(ch, span);
	}
	return 0;
}

void sgr_iter_init(struct sgr_iter *it, struct sgr_trace *t, size_t thread_pos)
{
	sgr_cursor_init(&it->cur, t, thread_pos);
	it->span.n = 0;
	it->span.recs = NULL;
	it->i = 0;
	struct sgr_stream *s = sgr_stream_at(t, thread_pos);
	it->thread = s ? s->th.index : SG_NO_ID;
}

int sgr_iter_next(struct sgr_iter *it, struct sgr_event *ev)
{
	for (;;) {
		if (it->i >= it->span.n) {
			if (!sgr_cursor_next(&it->cur, &it->span))
				return 0;
			it->i = 0;
			continue;
		}
		const struct sg_event_rec *r = &it->span.recs[it->i++];
		enum sg_ev_kind kind = sg_rec_kind(r);
		if (kind == SG_EV_VALUE)
			continue;   /* a value without its COUNTER record: nothing to attach it to */
		ev->ticks = sg_rec_ticks(r);
		ev->t_ns = it->cur.pos == SGR_POS_SCHED ? (int64_t)ev->ticks
			   : sgr_ticks_to_ns(&it->cur.t->info, ev->ticks);
		ev->thread = it->thread;
		ev->kind = kind;
		ev->id = sg_rec_id(r);
		ev->aux = sg_rec_aux(r);
		ev->value = 0;
		if (sg_kind_has_value(kind) && it->i < it->span.n &&
		    sg_rec_kind(&it->span.recs[it->i]) == SG_EV_VALUE)
			ev->value = (int64_t)it->span.recs[it->i++].w1;
		return 1;
	}
}
