/*
 * sgr_defs.c — reads the definitions file defs.sgd of a trace (functions, regions, objects,
 * counters, threads, clock pairs) and looks definitions up by id.
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

struct defs_cap {
	size_t funcs, regions, objects, counters;
};

/* Decodes one checked definition record. Returns 0, -EINVAL (malformed) or -ENOMEM. */
static int def_decode(struct sgr_trace *t, struct defs_cap *cap, const struct sgf_def_header *h,
		      const unsigned char *pl)
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
		sgr_pair_add(t, q[0], q[1]);
		return 0;
	case SGF_DEF_THREAD: {
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 16);
		struct sgr_stream *st = sgr_stream_get(t, u[0], 1);
		if (!st)
			return -ENOMEM;
		st->th.parent = u[1];
		st->th.os_tid = (int32_t)u[2];
		st->th.defined = 1;
		return 0;
	}
	case SGF_DEF_FUNCTION:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 2) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (sgr_grow(&t->funcs, &cap->funcs, t->n_funcs, sizeof *t->funcs) < 0)
			return -ENOMEM;
		t->funcs[t->n_funcs++] = (struct sgr_function){ u[0], (int)u[1], strdup(s[0]),
								 strdup(s[1]) };
		return 0;
	case SGF_DEF_REGION:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 1) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (sgr_grow(&t->regions, &cap->regions, t->n_regions, sizeof *t->regions) < 0)
			return -ENOMEM;
		t->regions[t->n_regions++] = (struct sgr_region){ u[0], strdup(s[0]) };
		return 0;
	case SGF_DEF_OBJECT:
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 16);
		if (sgr_grow(&t->objects, &cap->objects, t->n_objects, sizeof *t->objects) < 0)
			return -ENOMEM;
		t->objects[t->n_objects++] = (struct sgr_object){
			u[0], (enum sg_obj_kind)u[1], (uint64_t)u[2] | (uint64_t)u[3] << 32 };
		return 0;
	case SGF_DEF_COUNTER: {
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 3) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (sgr_grow(&t->counters, &cap->counters, t->n_counters, sizeof *t->counters) < 0)
			return -ENOMEM;
		int unavailable = (u[1] >> 16) & SGF_COUNTER_UNAVAILABLE;
		t->counters[t->n_counters++] = (struct sgr_counter){
			u[0], (enum sg_counter_origin)(u[1] & 0xffff), strdup(s[0]), strdup(s[1]),
			unavailable ? strdup(s[2]) : NULL };
		return 0;
	}
	case SGF_DEF_LOST: {
		if (len != 16)
			return -EINVAL;
		memcpy(u, pl, 8);
		memcpy(q, pl + 8, 8);
		struct sgr_stream *st = sgr_stream_get(t, u[0], 1);
		if (!st)
			return -ENOMEM;
		st->th.lost += q[0];
		return 0;
	}
	case SGF_DEF_SCHED:
		if (len < 8 || take_strings((const char *)pl + 8, len - 8, s, 1) < 0)
			return -EINVAL;
		memcpy(u, pl, 8);
		if (!t->sched.defined) {
			t->sched.defined = 1;
			t->sched.unavailable = (u[0] & SGF_SCHED_UNAVAILABLE) != 0;
			t->sched.n_cpus = u[1];
			t->sched.text = strdup(s[0]);
		}
		return 0;
	case SGF_DEF_COUNTERS_OFF:
		if (take_strings((const char *)pl, len, s, 1) < 0)
			return -EINVAL;
		if (!t->counters_off)
			t->counters_off = strdup(s[0]);
		return 0;
	}
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

/* Walks the definition records of a defs file image of `size` bytes. */
static int defs_walk(struct sgr_trace *t, const unsigned char *p, size_t size)
{
	struct defs_cap cap = { 0 };
	size_t off = sizeof(struct sgf_file_header);
	while (off < size) {
		struct sgf_def_header h;
		int rc = sgf_def_check(p + off, size - off);
		if (rc == -ENODATA) {
			sgr_problem_add(t, "%s: definition at offset %zu: cut short", SGF_DEFS_NAME,
					off);
			break;
		}
		memcpy(&h, p + off, sizeof h);
		if (rc == 0)
			rc = def_decode(t, &cap, &h, p + off + sizeof h);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			sgr_problem_add(t, "%s: definition at offset %zu: %s", SGF_DEFS_NAME, off,
					rc == -EINVAL ? "bad checksum or malformed" : strerror(-rc));
			if (h.len > UINT32_MAX / 2 || sgf_def_size(h.len) > size - off)
				break;
		}
		off += sgf_def_size(h.len);
	}
	/* qsort with a NULL base is undefined even for n = 0 (UBSan): skip empty tables */
	if (t->n_funcs)
		qsort(t->funcs, t->n_funcs, sizeof *t->funcs, cmp_func);
	if (t->n_regions)
		qsort(t->regions, t->n_regions, sizeof *t->regions, cmp_region);
	if (t->n_objects)
		qsort(t->objects, t->n_objects, sizeof *t->objects, cmp_object);
	if (t->n_counters)
		qsort(t->counters, t->n_counters, sizeof *t->counters, cmp_counter);
	return 0;
}

/* Reads the whole of `path` into a malloc'ed buffer. */
static int slurp(const char *path, unsigned char **out, size_t *size)
{
	int rc = 0;
	unsigned char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			rc = -errno;
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
	rc = slurp(path, &p, &size);
	if (rc < 0) {
		why = rc == -ENOENT ? "no definitions file: not a trace directory" : strerror(-rc);
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
	sgr_pair_add(t, 0, h.epoch_ns);
	rc = defs_walk(t, p, size);
	if (rc < 0)
		why = strerror(-rc);
out:
	if (rc < 0 && err)
		snprintf(err, errlen, "%s: %s", path, why);
	free(p);
	return rc;
}

void sgr_pair_add(struct sgr_trace *t, uint64_t ticks, uint64_t ns)
{
	if (t->n_pairs == 0 || ticks < t->first_pair.ticks)
		t->first_pair = (struct sgr_pair){ ticks, ns };
	if (t->n_pairs == 0 || ticks > t->last_pair.ticks)
		t->last_pair = (struct sgr_pair){ ticks, ns };
	t->n_pairs++;
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

size_t sgr_n_functions(const struct sgr_trace *t) { return t->n_funcs; }
size_t sgr_n_regions(const struct sgr_trace *t) { return t->n_regions; }
size_t sgr_n_objects(const struct sgr_trace *t) { return t->n_objects; }
size_t sgr_n_counters(const struct sgr_trace *t) { return t->n_counters; }
