/*
 * sgw_write.c — the low-level trace writer of sgtrace_write.h: definitions go to defs.sgd as
 * they are given, events are buffered per stream and written as checked chunks, trailers at
 * close. Encoding is left to sgf.c so the bytes are those libsgtrace writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sgf_int.h"
#include "sgt_io.h"
#include "sgtrace_write.h"

struct sgw_stream {
	struct sgw_trace *w;
	struct sgw_stream *next;
	uint32_t index;
	int fd;
	struct sg_event_rec *recs;   /* chunk_recs slots */
	unsigned char *cbuf;         /* opt.compact: the chunk's compact payload is built here */
	uint32_t n;                  /* buffered records */
	uint64_t seq;                /* chunks written */
	uint64_t n_written;          /* records written */
	uint64_t lost;
	uint64_t last_ticks;         /* the latest tick written: a chunk's default pair, taken
					after its records as libsgtrace's is */
	int has_pair;
	uint64_t pair_ticks, pair_ns;
};

struct sgw_trace {
	char *dir;
	int defs_fd;
	struct sgw_options opt;
	struct sgw_stream *streams;
};

int sgw_stream_path(char *out, unsigned long len, const char *dir, uint32_t index)
{
	int n = snprintf(out, len, "%s/" SGF_STREAM_FMT, dir, index);
	if (n < 0 || (unsigned long)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Opens (truncating) `name` in the trace directory and writes its file header (clock 0: the
 * trace's). */
static int open_with_header(struct sgw_trace *w, const char *name, const char *magic,
			    uint32_t thread, enum sgf_clock clock, int *fd_out)
{
	char path[PATH_MAX];
	int rc = 0;
	int n = snprintf(path, sizeof path, "%s/%s", w->dir, name);
	if (n < 0 || (size_t)n >= sizeof path)
		return -ENAMETOOLONG;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	struct sgf_file_header h;
	sgf_file_header_make(&h, magic, clock ? clock : w->opt.clock, w->opt.pid,
			     w->opt.parent_pid, thread, w->opt.epoch_ns, 0);
	if (w->opt.version_minor) {
		h.version_minor = w->opt.version_minor;
		h.hash = sgf_hash(&h, offsetof(struct sgf_file_header, hash));
	}
	rc = sgt_write_all(fd, &h, sizeof h);
	if (rc < 0) {
		close(fd);
		goto out;
	}
	*fd_out = fd;
out:
	return rc;
}

int sgw_create(const char *dir, const struct sgw_options *opt, struct sgw_trace **out)
{
	int rc = sgt_mkdir_p(dir, 0777);
	if (rc < 0)
		return rc;
	struct sgw_trace *w = calloc(1, sizeof *w);
	if (!w)
		return -ENOMEM;
	if (opt)
		w->opt = *opt;
	if (!w->opt.clock)
		w->opt.clock = SGF_CLOCK_NS;
	if (!w->opt.pid)
		w->opt.pid = (uint32_t)getpid();
	if (!w->opt.chunk_recs)
		w->opt.chunk_recs = 4096;
	w->defs_fd = -1;
	w->dir = strdup(dir);
	if (!w->dir) {
		rc = -ENOMEM;
		goto out;
	}
	rc = open_with_header(w, SGF_DEFS_NAME, SGF_MAGIC_DEFS, SG_NO_ID, 0, &w->defs_fd);
out:
	if (rc < 0) {
		free(w->dir);
		free(w);
		return rc;
	}
	*out = w;
	return 0;
}

/* Encodes one definition and appends it to defs.sgd. */
static int write_def(struct sgw_trace *w, enum sgf_def_type type, const void *fixed,
		     size_t fixed_len, const char *const *strs, int n_strs)
{
	size_t cap = sizeof(struct sgf_def_header) + fixed_len + 8;
	for (int i = 0; i < n_strs; i++)
		cap += strlen(strs[i] ? strs[i] : "") + 1;
	void *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	long n = sgf_def_encode(buf, cap, type, fixed, fixed_len, strs, n_strs);
	int rc = n < 0 ? (int)n : sgt_write_all(w->defs_fd, buf, (size_t)n);
	free(buf);
	return rc;
}

int sgw_clock_pair(struct sgw_trace *w, uint64_t ticks, uint64_t ns)
{
	uint64_t f[2] = { ticks, ns };
	return write_def(w, SGF_DEF_CLOCK, f, sizeof f, NULL, 0);
}

int sgw_function(struct sgw_trace *w, uint32_t id, const char *name, const char *file, int line)
{
	uint32_t f[2] = { id, (uint32_t)line };
	const char *s[2] = { name, file };
	return write_def(w, SGF_DEF_FUNCTION, f, sizeof f, s, 2);
}

int sgw_site(struct sgw_trace *w, uint32_t id, const char *file, int line, const char *func)
{
	uint32_t f[2] = { id, (uint32_t)line };
	const char *s[2] = { func ? func : "", file };
	return write_def(w, SGF_DEF_SITE, f, sizeof f, s, 2);
}

int sgw_region(struct sgw_trace *w, uint32_t id, const char *name)
{
	uint32_t f[2] = { id, 0 };
	return write_def(w, SGF_DEF_REGION, f, sizeof f, &name, 1);
}

int sgw_object(struct sgw_trace *w, uint32_t id, enum sg_obj_kind kind, uint64_t address)
{
	uint32_t f[4] = { id, (uint32_t)kind, (uint32_t)address, (uint32_t)(address >> 32) };
	return write_def(w, SGF_DEF_OBJECT, f, sizeof f, NULL, 0);
}

int sgw_counter(struct sgw_trace *w, uint32_t id, const char *name, const char *unit,
		enum sg_counter_origin origin, const char *unavailable)
{
	uint32_t f[2] = { id, (uint32_t)origin | (unavailable ? SGF_COUNTER_UNAVAILABLE << 16 : 0) };
	const char *s[3] = { name, unit, unavailable };
	return write_def(w, SGF_DEF_COUNTER, f, sizeof f, s, 3);
}

int sgw_counters_off(struct sgw_trace *w, const char *reason)
{
	return write_def(w, SGF_DEF_COUNTERS_OFF, NULL, 0, &reason, 1);
}

/* A stream of w: thread `index`'s (its definition first), or the sched stream. */
static int stream_new(struct sgw_trace *w, uint32_t index, uint32_t parent, int32_t os_tid,
		      struct sgw_stream **out)
{
	char name[64];
	int sched = index == SGF_SCHED_THREAD;
	if (sched)
		snprintf(name, sizeof name, "%s", SGF_SCHED_NAME);
	else
		snprintf(name, sizeof name, SGF_STREAM_FMT, index);
	struct sgw_stream *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	s->w = w;
	s->index = index;
	s->fd = -1;
	int rc = -ENOMEM;
	s->recs = malloc((size_t)w->opt.chunk_recs * sizeof *s->recs);
	if (!s->recs)
		goto out;
	if (w->opt.compact &&
	    !(s->cbuf = malloc((size_t)w->opt.chunk_recs * SGF_CT_REC_MAX + 16)))
		goto out;
	uint32_t f[4] = { index, parent, (uint32_t)os_tid, 0 };
	rc = sched ? 0 : write_def(w, SGF_DEF_THREAD, f, sizeof f, NULL, 0);
	if (rc < 0)
		goto out;
	rc = open_with_header(w, name, SGF_MAGIC_STREAM, index, sched ? SGF_CLOCK_NS : 0, &s->fd);
out:
	if (rc < 0) {
		free(s->recs);
		free(s->cbuf);
		free(s);
		return rc;
	}
	s->next = w->streams;
	w->streams = s;
	*out = s;
	return 0;
}

int sgw_thread(struct sgw_trace *w, uint32_t index, uint32_t parent, int32_t os_tid,
	       struct sgw_stream **out)
{
	if (index == SGF_SCHED_THREAD)
		return -EINVAL;
	return stream_new(w, index, parent, os_tid, out);
}

int sgw_sched(struct sgw_trace *w, unsigned n_cpus, const char *text, int unavailable,
	      struct sgw_stream **out)
{
	uint32_t f[2] = { unavailable ? SGF_SCHED_UNAVAILABLE : 0, n_cpus };
	int rc = write_def(w, SGF_DEF_SCHED, f, sizeof f, &text, 1);
	if (rc < 0 || !out)
		return rc;
	return stream_new(w, SGF_SCHED_THREAD, SG_NO_ID, 0, out);
}

int sgw_flush(struct sgw_stream *s)
{
	if (s->n == 0)
		return 0;
	struct sgf_chunk_header h = {
		.thread = s->index,
		.seq = s->seq,
		.n_recs = s->n,
		.pair_ticks = s->has_pair ? s->pair_ticks : s->last_ticks,
		.pair_ns = s->has_pair ? s->pair_ns : s->w->opt.epoch_ns + s->last_ticks,
	};
	const void *payload = s->recs;
	size_t len = (size_t)s->n * sizeof *s->recs;
	if (s->cbuf) {   /* compact whatever the size (tests of the encoding want it so) */
		len = sgf_compact_encode(s->recs, s->n, s->cbuf,
					 (size_t)s->w->opt.chunk_recs * SGF_CT_REC_MAX + 16);
		sgf_chunk_seal_compact(&h, s->cbuf, len);
		payload = s->cbuf;
	} else {
		sgf_chunk_seal(&h, s->recs);
	}
	int rc = sgt_write_all(s->fd, &h, sizeof h);
	if (rc == 0)
		rc = sgt_write_all(s->fd, payload, len);
	if (rc < 0)
		return rc;
	s->seq++;
	s->n_written += s->n;
	s->n = 0;
	return 0;
}

int sgw_stream_pair(struct sgw_stream *s, uint64_t ticks, uint64_t ns)
{
	s->has_pair = 1;
	s->pair_ticks = ticks;
	s->pair_ns = ns;
	return 0;
}

void sgw_set_lost(struct sgw_stream *s, uint64_t lost)
{
	s->lost = lost;
}

/* Makes room for `need` records in the current chunk. */
static int reserve(struct sgw_stream *s, uint32_t need)
{
	if (s->n + need <= s->w->opt.chunk_recs)
		return 0;
	return sgw_flush(s);
}

int sgw_raw(struct sgw_stream *s, const struct sg_event_rec *rec)
{
	int rc = reserve(s, 1);
	if (rc < 0)
		return rc;
	if (sg_rec_ticks(rec) > s->last_ticks)
		s->last_ticks = sg_rec_ticks(rec);
	s->recs[s->n++] = *rec;
	return 0;
}

int sgw_event(struct sgw_stream *s, uint64_t ticks, enum sg_ev_kind kind, uint32_t id,
	      uint32_t aux)
{
	if (ticks > SG_TICKS_MAX || (unsigned)kind >= SG_EV_KIND_COUNT)
		return -EINVAL;
	struct sg_event_rec r = { sg_rec_w0(ticks, kind), sg_rec_w1(id, aux) };
	return sgw_raw(s, &r);
}

int sgw_counter_value(struct sgw_stream *s, uint64_t ticks, uint32_t counter, int64_t value)
{
	return sgw_value(s, ticks, SG_EV_COUNTER, counter, value);
}

int sgw_value(struct sgw_stream *s, uint64_t ticks, enum sg_ev_kind kind, uint32_t id,
	      int64_t value)
{
	if (ticks > SG_TICKS_MAX || s->w->opt.chunk_recs < 2 || !sg_kind_has_value(kind))
		return -EINVAL;
	int rc = reserve(s, 2);
	if (rc < 0)
		return rc;
	if (ticks > s->last_ticks)
		s->last_ticks = ticks;
	s->recs[s->n].w0 = sg_rec_w0(ticks, kind);
	s->recs[s->n++].w1 = sg_rec_w1(id, 0);
	s->recs[s->n].w0 = sg_rec_w0(ticks, SG_EV_VALUE);
	s->recs[s->n++].w1 = (uint64_t)value;
	return 0;
}

int sgw_close(struct sgw_trace *w, unsigned flags)
{
	int rc = 0;
	struct sgw_stream *s = w->streams;
	while (s) {
		int r = sgw_flush(s);
		if (r == 0 && !(flags & SGW_NO_TRAILER)) {
			struct sgf_trailer t = {
				.thread = s->index,
				.n_chunks = s->seq,
				.n_recs = s->n_written,
				.lost = s->lost,
				.pair_ticks = s->has_pair ? s->pair_ticks : s->last_ticks,
				.pair_ns = s->has_pair ? s->pair_ns : w->opt.epoch_ns + s->last_ticks,
			};
			sgf_trailer_seal(&t);
			r = sgt_write_all(s->fd, &t, sizeof t);
		}
		if (close(s->fd) < 0 && r == 0)
			r = -errno;
		if (r < 0 && rc == 0)
			rc = r;
		struct sgw_stream *next = s->next;
		free(s->recs);
		free(s->cbuf);
		free(s);
		s = next;
	}
	if (close(w->defs_fd) < 0 && rc == 0)
		rc = -errno;
	free(w->dir);
	free(w);
	return rc;
}
