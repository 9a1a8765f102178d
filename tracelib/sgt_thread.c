/*
 * sgt_thread.c — per-thread recording state of libsgtrace: the TLS buffer, its chunks and
 * trailer, the start and finish of a thread's stream, and the per-thread caches that map sync
 * objects and names to ids without taking a lock on a hit. The buffer is the thread's slot of
 * the open buffer file threads.sgo, mapped shared (sgt_obuf.c): a SIGKILL leaves its records
 * to the reader, and a stream whose file cannot be written says why there.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sg_counters_int.h"
#include "sgt_flag.h"
#include "sgt_int.h"
#include "sgt_io.h"

__thread struct sgt_thread *sgt_self __attribute__((tls_model("initial-exec")));
__thread int sgt_thread_done __attribute__((tls_model("initial-exec")));

static struct sgt_thread *thread_list;
static pthread_key_t thread_key, main_key;
/* Threads recording now (started, not finished by themselves), and whether the process's
 * initial thread ended through pthread_exit: see key_destructor. */
static unsigned threads_live;
static int main_exited;

/* Threads that could not start recording (no memory for their state, no file descriptor for
 * their stream) have no stream to count their losses in. The process counts them here: the
 * threads, and as lost events each one's THREAD_BEGIN plus one per probe or wrapper call it
 * made afterwards (a wrapper would have recorded one to four events: the count is a lower
 * bound). sgt_thread_failed_report() moves them into thread 0's lost count. */
#define SGT_DONE_FAILED 2    /* sgt_thread_done of a thread that could not start */
static uint64_t failed_threads, failed_lost;

void sgt_thread_failed_report(int say)
{
	uint64_t n = __atomic_exchange_n(&failed_lost, 0, __ATOMIC_ACQ_REL);
	if (n == 0 || sgt_registry_lost(0, n) < 0)
		return;
	if (say)   /* the count is in the trace: said only with SG_VERBOSE=1 */
		sgt_warn("sgtrace: warning: %llu thread(s) could not be traced (out of memory "
			 "or file descriptors); their %llu probe calls are counted as lost events of "
			 "thread 0\n", (unsigned long long)__atomic_load_n(&failed_threads,
									   __ATOMIC_RELAXED),
			 (unsigned long long)n);
}

struct sgt_thread *sgt_thread_list(void)
{
	return __atomic_load_n(&thread_list, __ATOMIC_ACQUIRE);
}

void sgt_thread_list_add(struct sgt_thread *t)
{
	struct sgt_thread *head = __atomic_load_n(&thread_list, __ATOMIC_RELAXED);
	do
		t->next = head;
	while (!__atomic_compare_exchange_n(&thread_list, &head, t, 1, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
}

/* Chunks at least this big get their file blocks allocated before they are written. */
#define SGT_PREALLOC_MIN ((size_t)64 << 10)

/* Allocates the blocks of the next `len` bytes of t's stream, which are written next. ext4
 * then finds the blocks in place instead of reserving them page by page in write(): 1.5 instead
 * of 2.6 ns per 16-byte record here (docs/tracelib.md). KEEP_SIZE leaves the file size to the
 * write, so a crash leaves no hole; a file system without fallocate just skips it. */
static void chunk_prealloc(struct sgt_thread *t, size_t len)
{
	if (len >= SGT_PREALLOC_MIN)
		(void)fallocate(t->fd, FALLOC_FL_KEEP_SIZE, (off_t)t->file_bytes, (off_t)len);
}

/* Frees where t's chunks were compacted. */
static void cbuf_free(struct sgt_thread *t)
{
	if (t->cbuf)
		munmap(t->cbuf, t->cbuf_bytes);
	t->cbuf = NULL;
	t->cbuf_bytes = 0;
}

/* Counts n events t lost, in its state and in its open buffer's status block (the count the
 * reader finds when the stream could not carry it: a full disk). */
static void lost_add(struct sgt_thread *t, uint64_t n)
{
	t->lost += n;
	if (t->ob.st)
		__atomic_store_n(&t->ob.st->lost, t->lost, __ATOMIC_RELAXED);
}

/* Seals chunk header h whose payload checksum the recording thread kept (sgt_hash.h): as
 * sgf_chunk_seal() without the pass over the payload. The header checksum covers all of the
 * header but its last word (docs/trace-format.md); test_hash checks both agree. */
static void chunk_seal_kept(struct sgt_thread *t, struct sgf_chunk_header *h, size_t n)
{
	h->magic = SGF_CHUNK_MAGIC;
	h->payload_hash = sgt_hash_finish(t->hv, t->buf, n);
	h->hash = sgf_hash(h, offsetof(struct sgf_chunk_header, hash));
}

/* Writes records buf[0..n) as the next chunk. `own`: the owning thread writes, so its kept
 * checksum is valid; from elsewhere the payload is hashed here. io_lock held.
 * Async-signal-safe. */
static void chunk_write(struct sgt_thread *t, size_t n, int own)
{
	if (n == 0)
		return;
	if (t->fd < 0) {
		lost_add(t, n);
		return;
	}
	/* Sealed aside, then copied over the open header at once: a kill in between leaves the
	 * open header, after it a sealed chunk the reader can check (sgf_open_status). */
	struct sgf_chunk_header *h = t->chunk, sealed;
	memset(&sealed, 0, sizeof sealed);
	sealed.thread = t->index;
	sealed.seq = t->seq;
	sealed.n_recs = (uint32_t)n;
	sgt_clock_pair(&sealed.pair_ticks, &sealed.pair_ns);
	if (own)
		chunk_seal_kept(t, &sealed, n);
	else
		sgf_chunk_seal(&sealed, t->buf);
	*h = sealed;
	/* the file gets the chunk compact (format 1.6) when t has room to build it; the open
	 * buffer keeps the records as they are, which a killed writer's reader reads back */
	size_t len;
	const void *out = sgt_chunk_compact(h, t->cbuf, t->cbuf_bytes, &len);
	chunk_prealloc(t, len);
	int rc = sgt_write_all(t->fd, out, len);
	if (rc < 0) {
		/* Disk full or similar: this stream stops here, cut back to its last whole chunk,
		 * and says so in its status block and once on stderr; it counts what it drops. */
		(void)ftruncate(t->fd, (off_t)t->file_bytes);
		lost_add(t, n);
		close(t->fd);
		t->fd = -1;
		sgt_obuf_failed(&t->ob, -rc, t->n_written, t->lost);
		return;
	}
	t->seq++;
	t->n_written += n;
	t->file_bytes += len;
	sgt_budget_add(len);
}

/* Writes the trailer and closes the stream. io_lock held. Async-signal-safe. */
static void trailer_write(struct sgt_thread *t)
{
	if (t->fd >= 0) {
		struct sgf_trailer tr = {
			.thread = t->index,
			.n_chunks = t->seq,
			.n_recs = t->n_written,
			.lost = t->lost,
		};
		sgt_clock_pair(&tr.pair_ticks, &tr.pair_ns);
		sgf_trailer_seal(&tr);
		int rc = sgt_write_all(t->fd, &tr, sizeof tr);
		if (rc == 0)
			t->lost_written = t->lost;
		else
			sgt_obuf_failed(&t->ob, -rc, t->n_written, t->lost);
		close(t->fd);
		t->fd = -1;
	}
	t->finished = 1;
	sgt_thread_lost_report(t);
	sgt_obuf_done(&t->ob);   /* nothing left in it, unless it says why the stream failed */
}

void sgt_thread_lost_report(struct sgt_thread *t)
{
	uint64_t lost = t->lost;
	if (lost > t->lost_written && sgt_registry_lost(t->index, lost - t->lost_written) == 0)
		t->lost_written = lost;
}

void sgt_thread_flush(struct sgt_thread *t)
{
	if (!sgt_flag_trylock(&t->io_lock, -1))
		return;   /* only past a finishing thread's deadline (sgt_flag.h) */
	size_t n = (size_t)(t->pos - t->buf);
	if (t->finished) {
		lost_add(t, n);
	} else {
		chunk_write(t, n, sgt_self == t);
		/* the next chunk: its records come after the pair the last one was sealed with */
		if (t->fd >= 0)
			sgt_obuf_open_mark(&t->ob, t->seq, t->chunk->pair_ticks, t->chunk->pair_ns);
	}
	sgt_buf_restart(t);
	sgt_flag_unlock(&t->io_lock);
	/* the counts of throttled functions at the start of each chunk, so that a killed process
	 * keeps most of them; the budget record after the flush that spent it */
	if (sgt_self == t && !t->finished && (t->n_throttled || sgt_g.func_stop))
		sgt_throttle_notes(t, 0);
}

void sgt_thread_finish_foreign(struct sgt_thread *t, int wait)
{
	if (!sgt_flag_trylock(&t->io_lock, wait ? -1 : 100000))
		return;
	if (!t->finished && t->buf) {
		struct sg_event_rec *pos = __atomic_load_n(&t->pos, __ATOMIC_ACQUIRE);
		chunk_write(t, (size_t)(pos - t->buf), 0);
		trailer_write(t);
	}
	sgt_flag_unlock(&t->io_lock);
}

static void map_free(struct sgt_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->mask = m->used = 0;
}

/* The calling thread t ends: THREAD_END, last chunk, trailer. `release`: free what it holds
 * (its buffer, maps, function states); without it (sgt_thread_finish_now) nothing is freed, so
 * that it may run where malloc or the slot lock may have been interrupted. */
static void thread_end(struct sgt_thread *t, int release)
{
	if (t->fork_reset || sgt_self != t)
		return;
	sgc_thread_end();
	if (t->n_throttled)
		sgt_throttle_notes(t, 1);
	sgt_rec_t(t, SG_EV_THREAD_END, t->index, 0);
	if (sgt_flag_trylock(&t->io_lock, -1)) {
		size_t n = (size_t)(t->pos - t->buf);
		if (t->finished) {
			lost_add(t, n);
		} else {
			chunk_write(t, n, 1);
			trailer_write(t);
		}
		if (release) {
			sgt_obuf_free(&t->ob);
			cbuf_free(t);
			t->chunk = NULL;
			t->buf = t->pos = t->end = NULL;
		}
		sgt_flag_unlock(&t->io_lock);
	}
	/* the last thread recording after main's pthread_exit: the drain thread looks whether it
	 * is left alone (main_key_destructor) */
	if (t->live) {
		t->live = 0;
		if (__atomic_sub_fetch(&threads_live, 1, __ATOMIC_ACQ_REL) == 0 &&
		    __atomic_load_n(&main_exited, __ATOMIC_ACQUIRE))
			sgc_sched_wake();
	}
	sgt_self = NULL;
	sgt_thread_done = 1;
	if (!release)
		return;
	map_free(&t->objs);
	map_free(&t->names);
	sgt_fns_reset(t, 1);
	pthread_setspecific(thread_key, NULL);
}

void sgt_thread_finish(struct sgt_thread *t)
{
	thread_end(t, 1);
}

void sgt_thread_finish_now(struct sgt_thread *t)
{
	thread_end(t, 0);
}

/* A thread's end: pthread_exit or the return of its start function, never exit() (which runs
 * the destructor instead). */
static void key_destructor(void *p)
{
	struct sgt_thread *t = p;
	if (t && sgt_self == t)
		sgt_thread_finish(t);
}

/* The destructor of main_key, whose value is set on the process's initial thread only (in a
 * forked child, the forking thread): main called pthread_exit (it runs no key destructor when
 * main returns: that is exit()). The process then ends when its last thread does (glibc calls
 * exit(0) there), and the library's drain thread, which never ends by itself, must notice when
 * it is that thread (collector/offcpu.c; docs/tracelib.md "Life cycle"). Whether main recorded
 * or not, before or after key_destructor finished it: the wake comes from whichever of the two
 * runs second (sgt_thread_finish wakes when the last recording thread ends after this). */
static void main_key_destructor(void *p)
{
	(void)p;
	__atomic_store_n(&main_exited, 1, __ATOMIC_RELEASE);
	if (__atomic_load_n(&threads_live, __ATOMIC_ACQUIRE) == 0)
		sgc_sched_wake();
}

void sgt_thread_main_mark(void)
{
	static char marker;
	pthread_setspecific(main_key, &marker);
}

int sgt_thread_main_exited(void)
{
	return __atomic_load_n(&main_exited, __ATOMIC_ACQUIRE);
}

unsigned sgt_threads_live(void)
{
	return __atomic_load_n(&threads_live, __ATOMIC_ACQUIRE);
}

int sgt_thread_key_init(void)
{
	int rc = pthread_key_create(&thread_key, key_destructor);
	if (rc == 0 && (rc = pthread_key_create(&main_key, main_key_destructor)) != 0)
		pthread_key_delete(thread_key);
	if (rc == 0)
		sgt_thread_main_mark();   /* the constructor runs on the initial thread */
	return -rc;
}

/* Creates the stream file of t (never one that exists: sgt_dir.c) and writes its header. */
static int stream_open(struct sgt_thread *t)
{
	char name[32];
	snprintf(name, sizeof name, SGF_STREAM_FMT, t->index);
	t->fd = sgt_file_create(name, O_WRONLY);
	if (t->fd < 0) {
		static int said;
		int rc = t->fd;
		t->fd = -1;
		/* EEXIST: a file this process did not make, e.g. a planted link (sgt_dir.c) */
		if (rc != -EMFILE && rc != -ENFILE && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			fprintf(stderr, "sgtrace: error: %s/%s: cannot create: %s; thread %u is not "
				"traced\n", sgt_g.dir, name, strerror(-rc), t->index);
		return rc;
	}
	struct sgf_file_header h;
	sgf_file_header_make(&h, SGF_MAGIC_STREAM, sgt_g.clock, sgt_g.pid, sgt_g.parent_pid,
			     t->index, sgt_g.epoch_ns, sgt_g.epoch_real_ns);
	int rc = sgt_write_all(t->fd, &h, sizeof h);
	if (rc < 0) {
		/* not even its header: the thread is not traced (counted lost), leave no stream */
		sgt_say_write_failed(name, -rc);
		close(t->fd);
		t->fd = -1;
		unlinkat(sgt_g.dirfd, name, 0);
	}
	t->file_bytes = sizeof h;
	return rc;
}

/* Gives t its buffer, a slot of the open buffer file threads.sgo, and with SG_TRACE_COMPACT
 * the room to compact a chunk in: as big as the chunk, since a compact chunk is written only
 * when smaller, and mapped so that only the pages a chunk's compact form fills are ever
 * touched. Without that room the chunks are written as they are. */
static int buf_open(struct sgt_thread *t)
{
	if (sgt_g.compact && !t->cbuf) {
		size_t bytes = sizeof(struct sgf_chunk_header) +
			       sgt_g.buf_recs * sizeof(struct sg_event_rec);
		void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			       MAP_NORESERVE, -1, 0);
		if (m != MAP_FAILED) {
			t->cbuf = m;
			t->cbuf_bytes = bytes;
		}
	}
	char stream[32];
	snprintf(stream, sizeof stream, SGF_STREAM_FMT, t->index);
	int rc = sgt_obuf_open_thread(&t->ob, stream, t->index, sgt_g.buf_recs);
	if (rc < 0)
		return rc;
	t->chunk = t->ob.chunk;
	t->buf = (struct sg_event_rec *)(t->chunk + 1);
	t->pos = t->end = t->buf;
	return 0;
}

/* Gives t (new, or restarting in a forked child) its index, file and definition, and records
 * THREAD_BEGIN. */
static int thread_begin(struct sgt_thread *t, uint32_t index, uint32_t parent)
{
	t->index = index == SG_NO_ID ? sgt_registry_next_index() : index;
	t->parent = parent;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->seq = t->n_written = t->lost = t->lost_written = 0;
	t->finished = 0;
	t->site_last = SG_NO_ID;   /* a new stream: no site written in it yet */
	t->site_pc_last = 0;
	sgt_fns_reset(t, 0);   /* a forked child's counts start again with its trace */
	int rc = buf_open(t);   /* first: no stream file for a thread without a buffer */
	if (rc < 0)
		return rc;
	rc = stream_open(t);
	if (rc < 0)
		return rc;
	rc = sgt_registry_thread(t->index, parent, t->tid);
	if (rc < 0)
		return rc;
	/* THREAD_BEGIN goes into the file at once: a thread killed early is still known */
	uint64_t ticks, ns;
	sgt_clock_pair(&ticks, &ns);
	sgt_obuf_open_mark(&t->ob, 0, ticks, ns);
	sgt_buf_restart(t);
	t->end = t->buf + t->ob.n_filled;   /* where the file is written (sgt_obuf.c) */
	sgt_self = t;
	pthread_setspecific(thread_key, t);
	sgt_rec_t(t, SG_EV_THREAD_BEGIN, t->index, parent);
	sgc_thread_begin();
	return 0;
}

struct sgt_thread *sgt_thread_start(uint32_t index, uint32_t parent)
{
	if (!sg_trace_active || sgt_self)
		return sgt_self;
	struct sgt_thread *t = calloc(1, sizeof *t);
	if (!t)
		goto fail;
	t->fd = -1;
	if (thread_begin(t, index, parent) < 0)
		goto fail;
	if (index == SG_NO_ID)
		sgt_registry_join_put(pthread_self(), t->index);
	t->live = 1;
	__atomic_add_fetch(&threads_live, 1, __ATOMIC_ACQ_REL);
	sgt_thread_list_add(t);
	return t;
fail:
	/* This thread records nothing; it is not retried on every event, but counted. */
	if (t) {
		if (t->fd >= 0)
			close(t->fd);
		sgt_obuf_done(&t->ob);
		sgt_obuf_free(&t->ob);
		cbuf_free(t);
		free(t);
	}
	sgt_self = NULL;
	sgt_thread_done = SGT_DONE_FAILED;
	__atomic_add_fetch(&failed_threads, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&failed_lost, 1, __ATOMIC_RELAXED);
	return NULL;
}

void sgt_thread_fork_child(struct sgt_thread *self)
{
	/* Only the forking thread exists in the child. The parent's streams stay the parent's:
	 * close the child's copies of their descriptors without writing anything. */
	for (struct sgt_thread *t = sgt_thread_list(); t; t = t->next) {
		if (t->fd >= 0)
			close(t->fd);
		t->fd = -1;
		t->finished = 1;
		t->io_lock = 0;
	}
	thread_list = NULL;
	failed_threads = failed_lost = 0;   /* the parent's, reported by the parent */
	threads_live = 0;   /* the forking thread counts again when its trace starts */
	main_exited = 0;
	if (self) {
		/* its function states start again with the child's trace, at once: a throttled
		 * function would otherwise be counted without the child's trace ever starting */
		sgt_fns_reset(self, 0);
		self->live = 0;
		/* Its buffered events belong to the parent, which writes them; its buffer is the
		 * parent's file, not mapped here (fork_restart gives it its own). */
		self->pos = self->end = self->buf = NULL;
		self->chunk = NULL;
		self->fork_reset = 1;
	}
}

/* The first event of a forked child: creates the child's trace and restarts as thread 0. */
static struct sgt_thread *fork_restart(struct sgt_thread *t)
{
	extern int sgt_core_fork_start(void);
	t->fork_reset = 0;
	sgt_obuf_forget(&t->ob);
	t->buf = t->pos = t->end = NULL;
	t->chunk = NULL;
	if (sgt_core_fork_start() < 0 || thread_begin(t, SG_NO_ID, SG_NO_ID) < 0) {
		if (t->fd >= 0)
			close(t->fd);
		t->fd = -1;
		t->finished = 1;
		if (!t->buf) {
			/* no buffer at all: this child records nothing */
			sg_trace_active = 0;
			return NULL;
		}
		sgt_buf_restart(t);
		t->end = t->buf + t->ob.n_filled;
		return t;
	}
	t->live = 1;
	__atomic_add_fetch(&threads_live, 1, __ATOMIC_ACQ_REL);
	sgt_thread_list_add(t);
	return t;
}

struct sgt_thread *sgt_slow(unsigned need)
{
	struct sgt_thread *t = sgt_self;
	if (!sg_trace_active)
		return NULL;
	if (!t) {
		if (sgt_thread_done == SGT_DONE_FAILED)
			__atomic_add_fetch(&failed_lost, 1, __ATOMIC_RELAXED);
		if (sgt_thread_done)
			return NULL;
		t = sgt_thread_start(SG_NO_ID, SG_NO_ID);
		if (!t)
			return NULL;
	}
	if (t->fork_reset && !(t = fork_restart(t)))
		return NULL;
	if ((size_t)(t->end - t->pos) < need && t->ob.n_filled < t->ob.n_recs) {
		/* the end of the part of the buffer file written so far: write more of it */
		if (sgt_flag_trylock(&t->io_lock, -1)) {
			if (!t->finished)
				__atomic_store_n(&t->end, t->buf + sgt_obuf_grow(&t->ob),
						 __ATOMIC_RELEASE);
			sgt_flag_unlock(&t->io_lock);
		}
	}
	if ((size_t)(t->end - t->pos) < need)
		sgt_thread_flush(t);
	return t;
}

void sgt_rec_put_ns(struct sgt_thread *t, struct sg_event_rec *r, enum sg_ev_kind kind,
		    uint32_t id, uint32_t aux)
{
	sgt_rec_put(t, r, sgt_ticks(), kind, id, aux);
}

void sgt_rec_slow(enum sg_ev_kind kind, uint32_t id, uint32_t aux)
{
	struct sgt_thread *t = sgt_slow(1);
	if (t)
		sgt_rec_store(t, t->pos, kind, id, aux);
}

void sgt_rec_kv(struct sgt_thread *t, enum sg_ev_kind kind, uint32_t id, uint32_t aux,
		int64_t value)
{
	if (SGT_UNLIKELY(t->end - t->pos < 2) && !(t = sgt_slow(2)))
		return;
	struct sg_event_rec *r = t->pos;
	uint64_t ticks = sgt_ticks();
	/* r[0].w0 last: a kill before it leaves neither record readable (sgt_rec_put) */
	r[0].w1 = sg_rec_w1(id, aux);
	r[1].w1 = (uint64_t)value;
	r[1].w0 = sg_rec_w0(ticks, SG_EV_VALUE);
	__atomic_store_n(&r[0].w0, sg_rec_w0(ticks, kind), __ATOMIC_RELEASE);
	__atomic_store_n(&t->pos, r + 2, __ATOMIC_RELEASE);
	sgt_rec_hash(t, r, r[0].w0, r[0].w1);
	sgt_rec_hash(t, r + 1, r[1].w0, r[1].w1);
}

void sgt_rec_value(struct sgt_thread *t, uint32_t counter, int64_t value)
{
	sgt_rec_kv(t, SG_EV_COUNTER, counter, 0, value);
}

/* Grows a map to twice its size (or its first 64 slots). */
static int map_grow(struct sgt_map *m)
{
	uint32_t nmask = m->slots ? m->mask * 2 + 1 : 63;
	struct sgt_slot *n = calloc((size_t)nmask + 1, sizeof *n);
	if (!n)
		return -ENOMEM;
	for (uint32_t i = 0; m->slots && i <= m->mask; i++) {
		if (!m->slots[i].key)
			continue;
		uint32_t j = sgt_map_hash(m->slots[i].key, nmask);
		while (n[j].key)
			j = (j + 1) & nmask;
		n[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = n;
	m->mask = nmask;
	return 0;
}

struct sgt_slot *sgt_map_slow(struct sgt_map *m, uintptr_t key, uint32_t (*make)(uintptr_t key,
			      const void *arg), const void *arg)
{
	if (m->slots) {
		uint32_t j = sgt_map_hash(key, m->mask);
		while (m->slots[j].key) {
			if (m->slots[j].key == key)
				return &m->slots[j];
			j = (j + 1) & m->mask;
		}
	}
	if ((!m->slots || (m->used + 1) * 2 > m->mask) && map_grow(m) < 0)
		return NULL;
	uint32_t id = make(key, arg);
	uint32_t j = sgt_map_hash(key, m->mask);
	while (m->slots[j].key)
		j = (j + 1) & m->mask;
	struct sgt_slot *s = &m->slots[j];
	memset(s, 0, sizeof *s);
	s->key = key;
	s->id = id;
	m->used++;
	return s;
}

static uint32_t make_object(uintptr_t key, const void *addr)
{
	return sgt_registry_object(addr, (enum sg_obj_kind)(key & 7));
}

struct sgt_slot *sgt_object_slow(struct sgt_thread *t, uintptr_t key)
{
	return sgt_map_slow(&t->objs, key, make_object, (const void *)(key >> 3));
}
