/*
 * sgf.c — encoding and checking of trace file structures (sgf_int.h) and the XXH64 checksum.
 * Linked into both libsgtrace and libsgtread so the writer and the reader share one definition
 * of every byte.
 */
#include <errno.h>
#include <string.h>

#include "sgf_int.h"

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

uint64_t sgf_hash(const void *data, uint64_t len)
{
	const unsigned char *p = data;
	const unsigned char *end = p + (len & ~UINT64_C(7));
	uint64_t v[4], h;
	sgf_xxh_init(v);
	if (len >= 32) {
		const unsigned char *limit = end - 32;
		do {
			v[0] = sgf_xxh_round(v[0], load64(p));
			v[1] = sgf_xxh_round(v[1], load64(p + 8));
			v[2] = sgf_xxh_round(v[2], load64(p + 16));
			v[3] = sgf_xxh_round(v[3], load64(p + 24));
			p += 32;
		} while (p <= limit);
	}
	h = sgf_xxh_lanes(v, len >= 32) + len;
	for (; p < end; p += 8)
		h = sgf_xxh_tail8(h, load64(p));
	return sgf_xxh_avalanche(h);
}

/* The hashed prefix of every 64-byte structure: all but its last word. */
#define HASHED_PREFIX 56

void sgf_file_header_make(struct sgf_file_header *h, const char *magic, enum sgf_clock clock,
			  uint32_t pid, uint32_t parent_pid, uint32_t thread, uint64_t epoch_ns,
			  uint64_t epoch_real_ns)
{
	memset(h, 0, sizeof *h);
	memcpy(h->magic, magic, sizeof h->magic);
	h->version_major = SGF_VERSION_MAJOR;
	h->version_minor = SGF_VERSION_MINOR;
	h->clock = clock;
	h->pid = pid;
	h->parent_pid = parent_pid;
	h->thread = thread;
	h->epoch_ns = epoch_ns;
	h->epoch_real_ns = epoch_real_ns;
	h->hash = sgf_hash(h, HASHED_PREFIX);
}

int sgf_file_header_check(const struct sgf_file_header *h, const char *magic, const char **why)
{
	if (memcmp(h->magic, magic, sizeof h->magic)) {
		*why = "not a scalegraph trace file (bad magic)";
		return -EINVAL;
	}
	if (h->hash != sgf_hash(h, HASHED_PREFIX)) {
		*why = "file header: bad checksum";
		return -EINVAL;
	}
	if (h->version_major != SGF_VERSION_MAJOR) {
		*why = "unsupported format version";
		return -EINVAL;
	}
	if (h->clock != SGF_CLOCK_TSC && h->clock != SGF_CLOCK_NS) {
		*why = "file header: unknown clock kind";
		return -EINVAL;
	}
	return 0;
}

void sgf_chunk_seal(struct sgf_chunk_header *h, const struct sg_event_rec *payload)
{
	h->magic = SGF_CHUNK_MAGIC;
	h->flags = 0;
	h->reserved = 0;
	h->payload_hash = sgf_hash(payload, (uint64_t)h->n_recs * sizeof *payload);
	h->hash = sgf_hash(h, HASHED_PREFIX);
}

int sgf_chunk_header_check(const struct sgf_chunk_header *h)
{
	if (h->magic != SGF_CHUNK_MAGIC || h->hash != sgf_hash(h, HASHED_PREFIX))
		return -EINVAL;
	return 0;
}

int sgf_chunk_payload_check(const struct sgf_chunk_header *h, const struct sg_event_rec *payload)
{
	if (h->payload_hash != sgf_hash(payload, (uint64_t)h->n_recs * sizeof *payload))
		return -EINVAL;
	return 0;
}

void sgf_trailer_seal(struct sgf_trailer *t)
{
	t->magic = SGF_TRAILER_MAGIC;
	t->reserved = 0;
	t->hash = sgf_hash(t, HASHED_PREFIX);
}

int sgf_trailer_check(const struct sgf_trailer *t)
{
	if (t->magic != SGF_TRAILER_MAGIC || t->hash != sgf_hash(t, HASHED_PREFIX))
		return -EINVAL;
	return 0;
}

/* The hash of a definition record: the hash of its first 8 header bytes XOR the hash of its
 * padded payload, so a flipped byte in either part always changes it. */
static uint64_t sgf_def_hash(const struct sgf_def_header *h, const void *payload)
{
	return sgf_hash(h, 8) ^ sgf_hash(payload, sgf_def_size(h->len) - sizeof *h);
}

long sgf_def_encode(void *buf, size_t cap, enum sgf_def_type type, const void *fixed,
		    size_t fixed_len, const char *const *strs, int n_strs)
{
	size_t len = fixed_len;
	for (int i = 0; i < n_strs; i++)
		len += strlen(strs[i] ? strs[i] : "") + 1;
	size_t total = sgf_def_size((uint32_t)len);
	if (len > UINT32_MAX / 2 || total > cap)
		return -ENOSPC;
	unsigned char *p = buf;
	memset(p, 0, total);
	struct sgf_def_header h = { .type = (uint16_t)type, .len = (uint32_t)len };
	size_t off = sizeof h;
	if (fixed_len)
		memcpy(p + off, fixed, fixed_len);
	off += fixed_len;
	for (int i = 0; i < n_strs; i++) {
		const char *s = strs[i] ? strs[i] : "";
		size_t n = strlen(s) + 1;
		memcpy(p + off, s, n);
		off += n;
	}
	h.hash = sgf_def_hash(&h, p + sizeof h);
	memcpy(p, &h, sizeof h);
	return (long)total;
}

int sgf_def_check(const void *p, size_t avail)
{
	struct sgf_def_header h;
	if (avail < sizeof h)
		return -ENODATA;
	memcpy(&h, p, sizeof h);
	if (h.len > UINT32_MAX / 2)
		return -EINVAL;
	if (sgf_def_size(h.len) > avail)
		return -ENODATA;
	if (h.hash != sgf_def_hash(&h, (const unsigned char *)p + sizeof h))
		return -EINVAL;
	return 0;
}
