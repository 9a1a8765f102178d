/*
 * sgr_defs.c — reads the definitions file defs.sgd of a trace (functions, regions, objects,
 * counters, threads, clock pairs) and looks definitions up by id.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgr_int.h"

int sgr_grow(void *p, size_t *cap, size_t n, size_t size)
{
	void **arr = p;
	if (n < *cap)
		return 0;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *q = realloc(*arr, ncap * size);
	if (!q)
		return -ENOMEM;
	*arr = q;
	*cap = ncap;
	return 0;
}

/* Splits the string part of a payload into n NUL-terminated strings. -EINVAL when they are not
 * all there. */
static int take_strings(const char *p, size_t len, const char **out, int n)
{
	for (int i = 0; i < n; i++) {
		const char *nul = memchr(p, '\0', len);
		if (!nul)
			return -EINVAL;
		out[i] = p;
		len -= (size_t)(nul - p) + 1;
		p = nul + 1;
	}
	return 0;
}

/* THREAD and LOST definitions are gathered and sorted before they become streams, so that a
 * file with many of them in any order still reads in O(n log n). */
struct defs_thread {
	uint32_t index, parent;
	int32_t tid;
	uint32_t order;
	uint64_t lost;             /* LOST definitions: the count; THREAD: 0 */
	int is_lost;
};

struct defs_walk {
	size_t funcs, regions, objects, counters, sites, site_pcs;   /* capacities */
	struct defs_thread *threads;
	size_t n_threads, cap_threads;
};

/* An id a definition gives: below SG_ID_LIMIT, else *why says so. */
static int id_ok(uint32_t id, const char *what, char *why, size_t whylen)
{
	if (id < SG_ID_LIMIT)
		return 1;
	snprintf(why, whylen, "%s id %" PRIu32 " beyond the format's limit (ids < %" PRIu32 ")",
		 what, id, SG_ID_LIMIT);
	return 0;
}

static int thread_def_add(struct defs_walk *w, uint32_t index, uint32_t parent, int32_t tid,
			  uint64_t lost, int is_lost)
{
	if (sgr_grow(&w->threads, &w->cap_threads, w->n_threads, sizeof *w->threads) < 0)
		return -ENOMEM;
	w->threads[w->n_threads] = (struct defs_thread){ index, parent, tid,
							 (uint32_t)w->n_threads, lost, is_lost };
	w->n_threads++;
	return 0;
}

/* Decodes one checked definition record. Returns 0, -EINVAL (malformed: *why says how, or is
 * left empty) or -ENOMEM. */
static int def_decode(struct sgr_trace *t, struct defs_walk *cap, const struct sgf_def_header *h,
		      const unsigned char *pl, char *why, size_t whylen)
{
	uint32_t u[4] = { 0 };
	uint64_t q[2];
	const char *s[3];
	size_t len = h->len;
	switch (h->type) {
	case SGF_DEF_CLOCK:
		if (len != 16)
			return -EINVAL;
		memcpy(q, pl, 16);
		sgr_pair_add(t, q[0], q[1], SGR_PAIR_DEFS, 0);
		return 0;
	case SGF_DEF_THREAD:
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 16);
		if (!id_ok(u[0], "thread", why, whylen))
			return -EINVAL;
		return thread_def_add(cap, u[0], u[1], (int32_t)u[2], 0, 0);
	case SGF_DEF_FUNCTION:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 2) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (!id_ok(u[0], "function", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->funcs, &cap->funcs, t->n_funcs, sizeof *t->funcs) < 0)
			return -ENOMEM;
		t->funcs[t->n_funcs++] = (struct sgr_function){ u[0], (int)u[1], strdup(s[0]),
								 strdup(s[1]) };
		return 0;
	case SGF_DEF_SITE:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 2) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (!id_ok(u[0], "site", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->sites, &cap->sites, t->n_sites, sizeof *t->sites) < 0)
			return -ENOMEM;
		t->sites[t->n_sites++] = (struct sgr_site){ u[0], (int)u[1], strdup(s[0]),
							     strdup(s[1]), 0 };
		return 0;
	case SGF_DEF_SITE_PC:
		if (len < 16 || take_strings((const char *)pl + 16, len - 16, s, 2) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		memcpy(q, pl + 8, 8);
		if (!id_ok(u[0], "site", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->sites, &cap->sites, t->n_sites, sizeof *t->sites) < 0 ||
		    sgr_grow(&t->site_pcs, &cap->site_pcs, t->n_site_pcs, sizeof *t->site_pcs) < 0)
			return -ENOMEM;
		t->site_pcs[t->n_site_pcs++] = (struct sgr_site_pc){ u[0], q[0], strdup(s[0]),
								     strdup(s[1]) };
		t->sites[t->n_sites++] = (struct sgr_site){ u[0], 0, strdup(""), strdup(""), 0 };
		return 0;
	case SGF_DEF_REGION:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 1) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (!id_ok(u[0], "region", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->regions, &cap->regions, t->n_regions, sizeof *t->regions) < 0)
			return -ENOMEM;
		t->regions[t->n_regions++] = (struct sgr_region){ u[0], strdup(s[0]) };
		return 0;
	case SGF_DEF_OBJECT:
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 16);
		if (!id_ok(u[0], "object", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->objects, &cap->objects, t->n_objects, sizeof *t->objects) < 0)
			return -ENOMEM;
		t->objects[t->n_objects++] = (struct sgr_object){
			u[0], (enum sg_obj_kind)u[1], (uint64_t)u[2] | (uint64_t)u[3] << 32 };
		return 0;
	case SGF_DEF_COUNTER: {
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 3) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (!id_ok(u[0], "counter", why, whylen))
			return -EINVAL;
		if (sgr_grow(&t->counters, &cap->counters, t->n_counters, sizeof *t->counters) < 0)
			return -ENOMEM;
		int unavailable = (u[1] >> 16) & SGF_COUNTER_UNAVAILABLE;
		t->counters[t->n_counters++] = (struct sgr_counter){
			u[0], (enum sg_counter_origin)(u[1] & 0xffff), strdup(s[0]), strdup(s[1]),
			unavailable ? strdup(s[2]) : NULL };
		return 0;
	}
	case SGF_DEF_LOST:
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 8);
		memcpy(q, pl + 8, 8);
		if (!id_ok(u[0], "thread", why, whylen))
			return -EINVAL;
		return thread_def_add(cap, u[0], SG_NO_ID, 0, q[0], 1);
	case SGF_DEF_SCHED:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 1) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		/* a switch record's CPU is 16 bits wide */
		if (u[1] > 65536) {
			snprintf(why, whylen, "sched definition names %" PRIu32 " CPUs", u[1]);
			return -EINVAL;
		}
		if (!t->sched.defined) {
			t->sched.defined = 1;
			t->sched.unavailable = (u[0] & SGF_SCHED_UNAVAILABLE) != 0;
			t->sched.n_cpus = u[1];
			t->sched.text = strdup(s[0]);
		}
		return 0;
	case SGF_DEF_STOPPED:
		if (len < 16 || take_strings((const char *)pl + 16, len - 16, s, 1) < 0)
			return -EINVAL;
		memcpy(u, pl, 16);
		if (!t->stopped) {
			t->stopped = strdup(s[0]);
			t->stopped_ticks = (uint64_t)u[0] | (uint64_t)u[1] << 32;
			t->stopped_errno = (int32_t)u[2];
		}
		return 0;
	case SGF_DEF_COUNTERS_OFF:
		if (take_strings((const char *)pl, len, s, 1) < 0)
			return -EINVAL;
		if (!t->counters_off)
			t->counters_off = strdup(s[0]);
		return 0;
	}
	snprintf(why, whylen, "unknown definition type %u", (unsigned)h->type);
	return -EINVAL;
}

#define DEFINE_SORT(name, type)                                                   \
	static int name(const void *a, const void *b)                             \
	{                                                                         \
		uint32_t x = ((const type *)a)->id, y = ((const type *)b)->id;    \
		return (x > y) - (x < y);                                         \
	}
DEFINE_SORT(cmp_func, struct sgr_function)
DEFINE_SORT(cmp_region, struct sgr_region)
DEFINE_SORT(cmp_object, struct sgr_object)
DEFINE_SORT(cmp_counter, struct sgr_counter)
DEFINE_SORT(cmp_site, struct sgr_site)

static int cmp_thread_def(const void *a, const void *b)
{
	const struct defs_thread *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* Sorts a table of definitions by id and drops all but one of each id, reporting the others
 * (the writer defines an id once; a second one is damage, and a lookup must not depend on
 * which of them a binary search meets). free_one releases a dropped entry's strings. */
static size_t defs_sort_unique(struct sgr_trace *t, void *arr, size_t n, size_t size,
			       int (*cmp)(const void *, const void *), const char *what,
			       void (*free_one)(void *))
{
	if (n == 0)
		return 0;   /* qsort with a NULL base is undefined even for n = 0 (UBSan) */
	qsort(arr, n, size, cmp);
	unsigned char *p = arr;
	size_t k = 1, dups = 0;
	for (size_t i = 1; i < n; i++) {
		if (cmp(p + i * size, p + (k - 1) * size) == 0) {
			uint32_t id;
			memcpy(&id, p + i * size, sizeof id);   /* every table starts with its id */
			if (dups++ < 8)
				sgr_problem_add(t, "%s: %s %" PRIu32 " defined more than once: one "
						"definition kept", SGF_DEFS_NAME, what, id);
			if (free_one)
				free_one(p + i * size);
			continue;
		}
		if (k != i)
			memcpy(p + k * size, p + i * size, size);
		k++;
	}
	if (dups > 8)
		sgr_problem_add(t, "%s: %zu more %s ids defined more than once", SGF_DEFS_NAME,
				dups - 8, what);
	return k;
}

static void free_func(void *p)
{
	struct sgr_function *f = p;
	free((char *)f->name);
	free((char *)f->file);
}

static void free_site(void *p)
{
	struct sgr_site *f = p;
	free((char *)f->func);
	free((char *)f->file);
}

static void free_region(void *p)
{
	free((char *)((struct sgr_region *)p)->name);
}

static void free_counter(void *p)
{
	struct sgr_counter *c = p;
	free((char *)c->name);
	free((char *)c->unit);
	free((char *)c->unavailable);
}

/* Makes the streams of the THREAD and LOST definitions gathered by the walk. */
static int defs_threads(struct sgr_trace *t, struct defs_walk *w)
{
	if (w->n_threads == 0)
		return 0;
	qsort(w->threads, w->n_threads, sizeof *w->threads, cmp_thread_def);
	uint32_t *idx = malloc(w->n_threads * sizeof *idx);
	if (!idx)
		return -ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < w->n_threads; i++)
		if (n == 0 || idx[n - 1] != w->threads[i].index)
			idx[n++] = w->threads[i].index;
	int rc = sgr_streams_add(t, idx, n);
	free(idx);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < w->n_threads; i++) {
		const struct defs_thread *d = &w->threads[i];
		struct sgr_stream *st = sgr_stream_get(t, d->index, 0);
		if (d->is_lost) {
			st->th.lost += d->lost;
		} else if (st->th.defined) {
			sgr_problem_add(t, "%s: thread %" PRIu32 " defined more than once: the first "
					"definition kept", SGF_DEFS_NAME, d->index);
		} else {
			st->th.parent = d->parent;
			st->th.os_tid = d->tid;
			st->th.defined = 1;
		}
	}
	return 0;
}

/* Walks the definition records of a defs file image of `size` bytes. */
static int defs_walk(struct sgr_trace *t, const unsigned char *p, size_t size)
{
	struct defs_walk cap = { 0 };
	size_t off = sizeof(struct sgf_file_header);
	int rc = 0;
	while (off < size) {
		struct sgf_def_header h;
		char why[160] = "";
		rc = sgf_def_check(p + off, size - off);
		if (rc == -ENODATA) {
			sgr_problem_add(t, "%s: definition at offset %zu: cut short", SGF_DEFS_NAME,
					off);
			rc = 0;
			break;
		}
		memcpy(&h, p + off, sizeof h);
		if (rc == 0)
			rc = def_decode(t, &cap, &h, p + off + sizeof h, why, sizeof why);
		if (rc == -ENOMEM)
			goto out;
		if (rc < 0) {
			sgr_problem_add(t, "%s: definition at offset %zu: %s", SGF_DEFS_NAME, off,
					why[0] ? why : "bad checksum or malformed");
			rc = 0;
			if (h.len > UINT32_MAX / 2 || sgf_def_size(h.len) > size - off)
				break;
		}
		off += sgf_def_size(h.len);
	}
	t->n_funcs = defs_sort_unique(t, t->funcs, t->n_funcs, sizeof *t->funcs, cmp_func,
				      "function", free_func);
	t->n_regions = defs_sort_unique(t, t->regions, t->n_regions, sizeof *t->regions,
					cmp_region, "region", free_region);
	t->n_objects = defs_sort_unique(t, t->objects, t->n_objects, sizeof *t->objects,
					cmp_object, "object", NULL);
	t->n_counters = defs_sort_unique(t, t->counters, t->n_counters, sizeof *t->counters,
					 cmp_counter, "counter", free_counter);
	t->n_sites = defs_sort_unique(t, t->sites, t->n_sites, sizeof *t->sites, cmp_site,
				      "site", free_site);
	sgr_sites_resolve(t);
	rc = defs_threads(t, &cap);
out:
	free(cap.threads);
	return rc;
}

/* Reads the whole of `path` into a malloc'ed buffer. */
static int slurp(const char *path, unsigned char **out, size_t *size, char *why, size_t whylen)
{
	int rc = 0;
	unsigned char *buf = NULL;
	struct stat st;
	int fd = sgr_file_open(path, &st, why, whylen);
	if (fd < 0)
		return fd;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = -ENOMEM;
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto out;
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -errno;
			snprintf(why, whylen, "%s", strerror(-rc));
			goto out;
		}
		if (k == 0)
			break;
		got += (size_t)k;
	}
	*out = buf;
	*size = got;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return rc;
}

int sgr_defs_read(struct sgr_trace *t, char *err, size_t errlen)
{
	char path[PATH_MAX];
	unsigned char *p = NULL;
	size_t size = 0;
	const char *why = NULL;
	char whybuf[160] = "";
	int rc;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", t->dir, SGF_DEFS_NAME) >= sizeof path) {
		rc = -ENAMETOOLONG;
		why = strerror(-rc);
		goto out;
	}
	struct stat st;
	if (stat(t->dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		/* Name the directory itself, not the file inside it. */
		rc = stat(t->dir, &st) < 0 ? -errno : -ENOTDIR;
		if (err)
			snprintf(err, errlen, "%s: %s", t->dir, strerror(-rc));
		return rc;
	}
	rc = slurp(path, &p, &size, whybuf, sizeof whybuf);
	if (rc < 0) {
		why = rc == -ENOENT ? "no definitions file: not a trace directory" : whybuf;
		goto out;
	}
	struct sgf_file_header h;
	if (size < sizeof h) {
		rc = -EINVAL;
		why = "file header cut short";
		goto out;
	}
	memcpy(&h, p, sizeof h);
	rc = sgf_file_header_check(&h, SGF_MAGIC_DEFS, &why);
	if (rc < 0)
		goto out;
	t->info.pid = h.pid;
	t->info.parent_pid = h.parent_pid;
	t->info.clock = (enum sgf_clock)h.clock;
	t->info.epoch_ns = h.epoch_ns;
	t->info.epoch_real_ns = h.epoch_real_ns;
	t->info.version_minor = h.version_minor;
	sgr_pair_add(t, 0, h.epoch_ns, SGR_PAIR_EPOCH, 0);
	rc = defs_walk(t, p, size);
	if (rc < 0)
		why = strerror(-rc);
out:
	if (rc < 0 && err)
		snprintf(err, errlen, "%s: %s", path, why);
	free(p);
	return rc;
}

#define DEFINE_LOOKUP(fn, type, arr, n)                                            \
	const type *fn(const struct sgr_trace *t, uint32_t id)                     \
	{                                                                          \
		size_t lo = 0, hi = t->n;                                          \
		while (lo < hi) {                                                  \
			size_t mid = lo + (hi - lo) / 2;                           \
			if (t->arr[mid].id < id)                                   \
				lo = mid + 1;                                      \
			else                                                       \
				hi = mid;                                          \
		}                                                                  \
		return lo < t->n && t->arr[lo].id == id ? &t->arr[lo] : NULL;      \
	}                                                                          \
	const type *fn##_at(const struct sgr_trace *t, size_t i)                   \
	{                                                                          \
		return i < t->n ? &t->arr[i] : NULL;                               \
	}
DEFINE_LOOKUP(sgr_function, struct sgr_function, funcs, n_funcs)
DEFINE_LOOKUP(sgr_region, struct sgr_region, regions, n_regions)
DEFINE_LOOKUP(sgr_object, struct sgr_object, objects, n_objects)
DEFINE_LOOKUP(sgr_counter, struct sgr_counter, counters, n_counters)
DEFINE_LOOKUP(sgr_site, struct sgr_site, sites, n_sites)

size_t sgr_n_functions(const struct sgr_trace *t) { return t->n_funcs; }
size_t sgr_n_regions(const struct sgr_trace *t) { return t->n_regions; }
size_t sgr_n_objects(const struct sgr_trace *t) { return t->n_objects; }
size_t sgr_n_counters(const struct sgr_trace *t) { return t->n_counters; }
size_t sgr_n_sites(const struct sgr_trace *t) { return t->n_sites; }
