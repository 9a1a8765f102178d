/*
 * sgt_registry.c — the process-wide registry of libsgtrace: assigns ids to functions, sync
 * objects, regions, counters and threads, and writes each definition to defs.sgd at once, in
 * one write() under the registry mutex (rare, never on the hot path), so that a SIGKILL never
 * loses the definition of an event already flushed. Call sites of sync calls are registered
 * like functions: the instrumenter's static descriptor keeps the id. Definitions other than threads and clock
 * pairs are also kept in memory, to be replayed into a forked child's own trace.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_flag.h"
#include "sgt_int.h"
#include "sgt_io.h"

struct named {
	char *name;
	uint32_t id;
};

struct obj_slot {
	uintptr_t key;    /* (address << 3) | kind; 0: empty */
	uint32_t id;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t join_lock = PTHREAD_MUTEX_INITIALIZER;
static int defs_fd = -1;
static uint32_t next_index, n_functions, n_objects, n_regions, n_counters, n_sites;
static struct obj_slot *objs;
static uint32_t objs_mask, objs_used;
static struct named *regions, *counters;
static size_t regions_cap, counters_cap;
static unsigned char *replay_log;      /* encoded definitions for a forked child */
static size_t replay_len, replay_cap;
static int counters_off_written;

struct join_entry {
	pthread_t th;
	uint32_t index;
};
static struct join_entry *joins;
static size_t n_joins, joins_cap;

static int reg_enter(void);
static void reg_leave(void);

/* Appends an encoded definition to defs.sgd and, unless it is per-process, to the replay log.
 * Called with reg_lock held. */
static int def_emit(enum sgf_def_type type, const void *fixed, size_t fixed_len,
		    const char *const *strs, int n_strs)
{
	unsigned char stack[512];
	size_t cap = sizeof(struct sgf_def_header) + fixed_len + 8;
	for (int i = 0; i < n_strs; i++)
		cap += strlen(strs[i] ? strs[i] : "") + 1;
	unsigned char *buf = cap <= sizeof stack ? stack : malloc(cap);
	if (!buf)
		return -ENOMEM;
	long n = sgf_def_encode(buf, cap, type, fixed, fixed_len, strs, n_strs);
	int rc = (int)n;
	if (n < 0)
		goto out;
	rc = defs_fd >= 0 ? sgt_write_all(defs_fd, buf, (size_t)n) : -EBADF;
	if (rc < 0 && rc != -EBADF)
		sgt_say_write_failed(SGF_DEFS_NAME, -rc);
	if (type == SGF_DEF_THREAD || type == SGF_DEF_CLOCK || type == SGF_DEF_SCHED ||
	    type == SGF_DEF_STOPPED)
		goto out;
	if (replay_len + (size_t)n > replay_cap) {
		size_t ncap = replay_cap ? replay_cap * 2 : 4096;
		while (ncap < replay_len + (size_t)n)
			ncap *= 2;
		unsigned char *q = realloc(replay_log, ncap);
		if (!q) {
			rc = -ENOMEM;
			goto out;
		}
		replay_log = q;
		replay_cap = ncap;
	}
	memcpy(replay_log + replay_len, buf, (size_t)n);
	replay_len += (size_t)n;
out:
	if (buf != stack)
		free(buf);
	return rc;
}

int sgt_registry_open(int replay)
{
	int rc = 0;
	pthread_mutex_lock(&reg_lock);
	if (defs_fd >= 0)
		close(defs_fd);
	defs_fd = sgt_file_create(SGF_DEFS_NAME, O_WRONLY | O_APPEND);
	if (defs_fd < 0) {
		rc = defs_fd;
		defs_fd = -1;
		goto out;
	}
	struct sgf_file_header h;
	sgf_file_header_make(&h, SGF_MAGIC_DEFS, sgt_g.clock, sgt_g.pid, sgt_g.parent_pid,
			     SG_NO_ID, sgt_g.epoch_ns, sgt_g.epoch_real_ns);
	rc = sgt_write_all(defs_fd, &h, sizeof h);
	if (rc == 0 && replay && replay_len)
		rc = sgt_write_all(defs_fd, replay_log, replay_len);
	if (rc < 0) {
		close(defs_fd);
		defs_fd = -1;
	}
out:
	pthread_mutex_unlock(&reg_lock);
	return rc;
}

void sgt_registry_close(void)
{
	if (reg_enter() < 0)
		return;   /* the descriptor is close-on-exec, and the process is ending */
	if (defs_fd >= 0)
		close(defs_fd);
	defs_fd = -1;
	reg_leave();
}

int sgt_registry_stopped(uint64_t ticks, int err, const char *what)
{
	if (reg_enter() < 0)
		return -EDEADLK;
	uint32_t f[4] = { (uint32_t)ticks, (uint32_t)(ticks >> 32), (uint32_t)err, 0 };
	int rc = def_emit(SGF_DEF_STOPPED, f, sizeof f, &what, 1);
	reg_leave();
	return rc;
}

uint32_t sgt_registry_next_index(void)
{
	return __atomic_fetch_add(&next_index, 1, __ATOMIC_RELAXED);
}

/* Takes reg_lock; on a thread with a deadline (sgt_flag.h: ending the trace from _exit or an
 * exec, perhaps in a signal handler that interrupted the registry) for a bounded time only.
 * 0 or -ETIMEDOUT. */
static int reg_lock_take(void)
{
	if (!sgt_flag_deadline)
		return -pthread_mutex_lock(&reg_lock);
	uint64_t left = sgt_flag_deadline - sgt_mono_ns();
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	if ((int64_t)left < 0)
		left = 0;
	at.tv_sec += (time_t)(left / 1000000000u);
	at.tv_nsec += (long)(left % 1000000000u);
	if (at.tv_nsec >= 1000000000L) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000L;
	}
	return -pthread_mutex_timedlock(&reg_lock, &at);
}

/* Enters the registry from thread t (may be NULL). Returns 0, or -EDEADLK when the thread is
 * already inside it (a re-entrant call from a hook), or -ETIMEDOUT past a deadline. */
static int reg_enter(void)
{
	struct sgt_thread *t = sgt_self;
	if (t && t->in_lib)
		return -EDEADLK;
	int rc = reg_lock_take();
	if (rc < 0)
		return rc;
	if (t)
		t->in_lib = 1;
	return 0;
}

static void reg_leave(void)
{
	struct sgt_thread *t = sgt_self;
	pthread_mutex_unlock(&reg_lock);
	if (t)
		t->in_lib = 0;
}

uint32_t sgt_registry_function(struct sg_func_desc *fd)
{
	if (reg_enter() < 0)
		return SG_NO_ID;
	uint32_t id = fd->id;
	if (id == 0) {
		id = ++n_functions;
		uint32_t f[2] = { id, (uint32_t)fd->line };
		const char *s[2] = { fd->name, fd->file };
		def_emit(SGF_DEF_FUNCTION, f, sizeof f, s, 2);
		__atomic_store_n(&fd->id, id, __ATOMIC_RELEASE);
	}
	reg_leave();
	return id;
}

/* As functions: the descriptor keeps the id, so a site is looked up by nobody but its first
 * caller, and a forked child inherits both the ids and (replayed) their definitions. */
uint32_t sgt_registry_site(struct sg_site_desc *sd)
{
	if (reg_enter() < 0)
		return SG_NO_ID;
	uint32_t id = sd->id;
	if (id == 0) {
		id = ++n_sites;
		uint32_t f[2] = { id, (uint32_t)sd->line };
		const char *s[2] = { sd->func ? sd->func : "", sd->file ? sd->file : "" };
		def_emit(SGF_DEF_SITE, f, sizeof f, s, 2);
		__atomic_store_n(&sd->id, id, __ATOMIC_RELEASE);
	}
	reg_leave();
	return id;
}

/* Call sites known by their return address (the plain wrappers' callers): a fixed open-
 * addressing table, filled under reg_lock and read without it (pc stored last, with release), so
 * that a thread whose call site changed finds an old site's id with a few loads. A program has
 * a few hundred wait sites at most; beyond SITE_PC_MAX the waits count as "site not known". */
#define SITE_PC_SLOTS 4096u
#define SITE_PC_MAX   3072u
struct site_pc_slot {
	uintptr_t pc;          /* 0: empty */
	uint32_t id;
};
static struct site_pc_slot site_pcs[SITE_PC_SLOTS];
static uint32_t site_pcs_used;

static uint32_t site_pc_hash(uintptr_t pc)
{
	uint64_t x = (uint64_t)pc * UINT64_C(0x9e3779b97f4a7c15);
	return (uint32_t)(x >> 40) & (SITE_PC_SLOTS - 1);
}

/* The object that holds a code address: its load bias, path and build-id (hex). */
struct site_obj {
	uintptr_t pc, bias;
	int found;
	char path[PATH_MAX];
	char build_id[81];
};

static int site_obj_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct site_obj *o = arg;
	(void)size;
	int in = 0;
	for (int i = 0; i < info->dlpi_phnum && !in; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		in = ph->p_type == PT_LOAD && o->pc >= lo && o->pc - lo < ph->p_memsz;
	}
	if (!in)
		return 0;
	o->found = 1;
	o->bias = info->dlpi_addr;
	if (info->dlpi_name && info->dlpi_name[0]) {
		snprintf(o->path, sizeof o->path, "%s", info->dlpi_name);
	} else {   /* the executable */
		ssize_t n = readlink("/proc/self/exe", o->path, sizeof o->path - 1);
		o->path[n > 0 ? n : 0] = '\0';
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		size_t left = ph->p_memsz;
		while (left >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
			size_t nsz = (nh->n_namesz + 3u) & ~3u, dsz = (nh->n_descsz + 3u) & ~3u;
			size_t all = sizeof *nh + nsz + dsz;
			if (all > left)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(p + sizeof *nh, "GNU", 4) == 0 && nh->n_descsz <= 40) {
				const unsigned char *d = p + sizeof *nh + nsz;
				for (uint32_t k = 0; k < nh->n_descsz; k++)
					snprintf(o->build_id + 2 * k, 3, "%02x", d[k]);
				return 1;
			}
			p += all;
			left -= all;
		}
	}
	return 1;
}

/* Lock-free lookup; 0 when pc has no site yet. */
static uint32_t site_pc_find(uintptr_t pc)
{
	for (uint32_t i = site_pc_hash(pc);; i = (i + 1) & (SITE_PC_SLOTS - 1)) {
		uintptr_t k = __atomic_load_n(&site_pcs[i].pc, __ATOMIC_ACQUIRE);
		if (k == pc)
			return site_pcs[i].id;
		if (k == 0)
			return 0;
	}
}

uint32_t sgt_registry_site_pc(uintptr_t pc)
{
	uint32_t id = site_pc_find(pc);
	if (id)
		return id;
	/* the object first, outside the registry lock: dl_iterate_phdr takes the loader's lock,
	 * which a thread running a library's constructor holds while it may wait for ours */
	struct site_obj o = { .pc = pc };
	dl_iterate_phdr(site_obj_cb, &o);
	if (reg_enter() < 0)
		return SG_NO_ID;
	id = site_pc_find(pc);
	if (id == 0 && site_pcs_used < SITE_PC_MAX) {
		id = ++n_sites;
		uint64_t addr = (uint64_t)(pc - (o.found ? o.bias : 0));
		uint32_t f[4] = { id, 0, (uint32_t)addr, (uint32_t)(addr >> 32) };
		const char *s[2] = { o.found ? o.path : "", o.build_id };
		def_emit(SGF_DEF_SITE_PC, f, sizeof f, s, 2);
		uint32_t i = site_pc_hash(pc);
		while (site_pcs[i].pc)
			i = (i + 1) & (SITE_PC_SLOTS - 1);
		site_pcs[i].id = id;
		__atomic_store_n(&site_pcs[i].pc, pc, __ATOMIC_RELEASE);
		site_pcs_used++;
	} else if (id == 0) {
		id = SG_NO_ID;
	}
	reg_leave();
	return id;
}

/* Finds or adds key in the global object table. Called with reg_lock held. */
static struct obj_slot *obj_find(uintptr_t key)
{
	if (objs_used * 2 >= objs_mask) {
		uint32_t nmask = objs_mask ? objs_mask * 2 + 1 : 255;
		struct obj_slot *n = calloc((size_t)nmask + 1, sizeof *n);
		if (!n)
			return NULL;
		for (uint32_t i = 0; objs && i <= objs_mask; i++) {
			if (!objs[i].key)
				continue;
			uint32_t j = sgt_map_hash(objs[i].key, nmask);
			while (n[j].key)
				j = (j + 1) & nmask;
			n[j] = objs[i];
		}
		free(objs);
		objs = n;
		objs_mask = nmask;
	}
	uint32_t j = sgt_map_hash(key, objs_mask);
	while (objs[j].key && objs[j].key != key)
		j = (j + 1) & objs_mask;
	return &objs[j];
}

uint32_t sgt_registry_object(const void *addr, enum sg_obj_kind kind)
{
	uintptr_t key = ((uintptr_t)addr << 3) | (uintptr_t)kind;
	uint32_t id = SG_NO_ID;
	if (reg_enter() < 0)
		return SG_NO_ID;
	struct obj_slot *s = obj_find(key);
	if (!s)
		goto out;
	if (!s->key) {
		s->key = key;
		s->id = ++n_objects;
		objs_used++;
		uint64_t a = (uint64_t)(uintptr_t)addr;
		uint32_t f[4] = { s->id, (uint32_t)kind, (uint32_t)a, (uint32_t)(a >> 32) };
		def_emit(SGF_DEF_OBJECT, f, sizeof f, NULL, 0);
	}
	id = s->id;
out:
	reg_leave();
	return id;
}

/* Finds `name` in a list of named definitions, or adds it with a new id from *counter.
 * *added tells whether it was new. Called with reg_lock held. */
static struct named *named_find(struct named **list, size_t *cap, uint32_t *count,
				const char *name, int *added)
{
	*added = 0;
	for (uint32_t i = 0; i < *count; i++)
		if (!strcmp((*list)[i].name, name))
			return &(*list)[i];
	if (*count >= *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct named *n = realloc(*list, ncap * sizeof *n);
		if (!n)
			return NULL;
		*list = n;
		*cap = ncap;
	}
	char *copy = strdup(name);
	if (!copy)
		return NULL;
	struct named *e = &(*list)[*count];
	e->name = copy;
	e->id = ++*count;
	*added = 1;
	return e;
}

/* Regions and counters: the id of `name` in `list`, defined (type, second fixed word `word1`,
 * then the strings name, extra[0..n_extra), n_extra <= 2) the first time. *stored (when not NULL) receives
 * the registry's copy of the name. SG_NO_ID on failure. */
static uint32_t named_define(struct named **list, size_t *cap, uint32_t *count, const char *name,
			     enum sgf_def_type type, uint32_t word1, const char *const *extra,
			     int n_extra, const char **stored)
{
	uint32_t id = SG_NO_ID;
	int added;
	if (!name)
		name = "";
	if (reg_enter() < 0)
		return SG_NO_ID;
	struct named *e = named_find(list, cap, count, name, &added);
	if (!e)
		goto out;
	if (added) {
		uint32_t f[2] = { e->id, word1 };
		const char *s[3] = { e->name, n_extra > 0 ? extra[0] : NULL,
				     n_extra > 1 ? extra[1] : NULL };
		def_emit(type, f, sizeof f, s, 1 + n_extra);
	}
	id = e->id;
	if (stored)
		*stored = e->name;
out:
	reg_leave();
	return id;
}

uint32_t sgt_registry_region(const char *name, const char **stored)
{
	return named_define(&regions, &regions_cap, &n_regions, name, SGF_DEF_REGION, 0, NULL, 0,
			    stored);
}

uint32_t sgt_registry_counter(const char *name, const char *unit, enum sg_counter_origin origin,
			      const char *unavailable, const char **stored)
{
	const char *extra[2] = { unit, unavailable };
	uint32_t word1 = (uint32_t)origin | (unavailable ? SGF_COUNTER_UNAVAILABLE << 16 : 0);
	return named_define(&counters, &counters_cap, &n_counters, name, SGF_DEF_COUNTER, word1,
			    extra, 2, stored);
}

void sgt_registry_counters_off(const char *reason)
{
	if (reg_enter() < 0)
		return;
	if (!counters_off_written) {
		counters_off_written = 1;
		def_emit(SGF_DEF_COUNTERS_OFF, NULL, 0, &reason, 1);
	}
	reg_leave();
}

int sgt_registry_thread(uint32_t index, uint32_t parent, pid_t tid)
{
	if (reg_enter() < 0)
		return -EDEADLK;
	uint32_t f[4] = { index, parent, (uint32_t)tid, 0 };
	int rc = def_emit(SGF_DEF_THREAD, f, sizeof f, NULL, 0);
	reg_leave();
	return rc;
}

int sgt_registry_sched(unsigned flags, unsigned n_cpus, const char *text)
{
	if (reg_enter() < 0)
		return -EDEADLK;
	uint32_t f[2] = { flags, n_cpus };
	int rc = def_emit(SGF_DEF_SCHED, f, sizeof f, &text, 1);
	reg_leave();
	return rc;
}

int sgt_registry_clock_pair(void)
{
	uint64_t q[2];
	sgt_clock_pair(&q[0], &q[1]);
	if (reg_enter() < 0)
		return -EDEADLK;
	int rc = def_emit(SGF_DEF_CLOCK, q, sizeof q, NULL, 0);
	reg_leave();
	return rc;
}

int sgt_registry_lost(uint32_t index, uint64_t n)
{
	uint64_t f[2] = { index, n };   /* u32 index, u32 0, u64 n (little-endian) */
	unsigned char buf[sizeof(struct sgf_def_header) + sizeof f];
	long len = sgf_def_encode(buf, sizeof buf, SGF_DEF_LOST, f, sizeof f, NULL, 0);
	int fd = __atomic_load_n(&defs_fd, __ATOMIC_ACQUIRE);
	if (len < 0)
		return (int)len;
	int rc = fd >= 0 ? sgt_write_all(fd, buf, (size_t)len) : -EBADF;
	if (rc < 0 && rc != -EBADF)
		sgt_say_write_failed(SGF_DEFS_NAME, -rc);
	return rc;
}

void sgt_registry_join_put(pthread_t th, uint32_t index)
{
	pthread_mutex_lock(&join_lock);
	for (size_t i = 0; i < n_joins; i++) {
		if (pthread_equal(joins[i].th, th)) {
			joins[i].index = index;
			goto out;
		}
	}
	if (n_joins == joins_cap) {
		size_t ncap = joins_cap ? joins_cap * 2 : 64;
		struct join_entry *n = realloc(joins, ncap * sizeof *n);
		if (!n)
			goto out;
		joins = n;
		joins_cap = ncap;
	}
	joins[n_joins++] = (struct join_entry){ th, index };
out:
	pthread_mutex_unlock(&join_lock);
}

uint32_t sgt_registry_join_take(pthread_t th)
{
	uint32_t index = SG_NO_ID;
	pthread_mutex_lock(&join_lock);
	for (size_t i = 0; i < n_joins; i++) {
		if (pthread_equal(joins[i].th, th)) {
			index = joins[i].index;
			joins[i] = joins[--n_joins];
			break;
		}
	}
	pthread_mutex_unlock(&join_lock);
	return index;
}

void sgt_registry_atfork_prepare(void)
{
	pthread_mutex_lock(&reg_lock);
	pthread_mutex_lock(&join_lock);
}

void sgt_registry_atfork_parent(void)
{
	pthread_mutex_unlock(&join_lock);
	pthread_mutex_unlock(&reg_lock);
}

void sgt_registry_atfork_child(void)
{
	/* The child starts its own trace: thread indices restart at 0, the join table is the
	 * parent's business, and defs.sgd is reopened in the child's directory. */
	n_joins = 0;
	next_index = 0;
	if (defs_fd >= 0)
		close(defs_fd);
	defs_fd = -1;
	pthread_mutex_unlock(&join_lock);
	pthread_mutex_unlock(&reg_lock);
}
