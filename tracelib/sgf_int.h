/*
 * sgf_int.h — the one place trace files are encoded and checked, shared by the recorder
 * (libsgtrace), the writer API (sgtrace_write.h) and the reader (sgtrace_read.h). The layouts
 * themselves are in sgtrace_format.h; these helpers fill in magics, versions and hashes so that
 * no two pieces of code compute them differently.
 */
#ifndef SGF_INT_H
#define SGF_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sgtrace_format.h"

/* Fills a file header (magic SGF_MAGIC_DEFS or SGF_MAGIC_STREAM) and seals it with its hash. */
void sgf_file_header_make(struct sgf_file_header *h, const char *magic, enum sgf_clock clock,
			  uint32_t pid, uint32_t parent_pid, uint32_t thread, uint64_t epoch_ns,
			  uint64_t epoch_real_ns);

/* Checks magic, hash and major version. Returns 0, or -EINVAL with *why set to a static
 * message. */
int sgf_file_header_check(const struct sgf_file_header *h, const char *magic, const char **why);

/* Completes a chunk header whose thread, seq, n_recs and clock pair are set: magic, payload
 * hash over `payload` (n_recs records) and header hash. */
void sgf_chunk_seal(struct sgf_chunk_header *h, const struct sg_event_rec *payload);

/* Checks a chunk header's magic and hash (not its payload), and that its flags are known and a
 * compact one's payload length fits its record count. 0 or -EINVAL. */
int sgf_chunk_header_check(const struct sgf_chunk_header *h);

/* Checks a chunk payload against the header's payload hash. 0 or -EINVAL. */
int sgf_chunk_payload_check(const struct sgf_chunk_header *h, const void *payload);

/* Bytes of chunk h's payload in the file: n_recs * 16, or payload_bytes when compact. */
static inline uint64_t sgf_chunk_payload_len(const struct sgf_chunk_header *h)
{
	return (h->flags & SGF_CHUNK_COMPACT) ? h->payload_bytes
					      : (uint64_t)h->n_recs * sizeof(struct sg_event_rec);
}

/* Encodes records r[0..n) as a compact chunk payload (sgtrace_format.h, SGF_CHUNK_COMPACT) into
 * out, cap bytes, zero-padded to a multiple of 16. Returns its length, or 0 when n is 0 or it
 * does not fit in cap: the caller then writes the records as they are. No allocation, no
 * system call: async-signal-safe. */
size_t sgf_compact_encode(const struct sg_event_rec *r, size_t n, unsigned char *out, size_t cap);

/* Decodes compact payload p (len bytes) of n records into out[0..n). Returns 0, or -EINVAL when
 * it is malformed: a varint too long or beyond its field, fewer than n records, anything but
 * fewer than 16 zero bytes after them. *back gets the OR of every record's ticks less the ticks
 * of the record before it: bit 63 is set when and only when some record goes back in time. */
int sgf_compact_decode(const unsigned char *p, size_t len, struct sg_event_rec *out, uint32_t n,
		       uint64_t *back);

/* Completes a chunk header whose thread, seq, n_recs and clock pair are set, as a compact chunk
 * of the `bytes` (from sgf_compact_encode) at p: magic, flags, payload length and hashes. */
void sgf_chunk_seal_compact(struct sgf_chunk_header *h, const void *p, size_t bytes);

/* Fills magic and hash of a trailer whose other fields are set. */
void sgf_trailer_seal(struct sgf_trailer *t);

/* Checks a trailer's magic and hash. 0 or -EINVAL. */
int sgf_trailer_check(const struct sgf_trailer *t);

/* Encodes one definition record into buf (cap bytes): header, `fixed` (fixed_len bytes, a
 * multiple of 4), then the n_strs strings each with its NUL (NULL counts as ""), zero padding.
 * Returns the record's total size in bytes, or -ENOSPC when it does not fit. */
long sgf_def_encode(void *buf, size_t cap, enum sgf_def_type type, const void *fixed,
		    size_t fixed_len, const char *const *strs, int n_strs);

/* Size in bytes a definition with payload length `len` occupies in the file. */
static inline size_t sgf_def_size(uint32_t len)
{
	return sizeof(struct sgf_def_header) + (((size_t)len + 7u) & ~(size_t)7u);
}

/* Checks the definition record at p, of which `avail` bytes are present. Returns 0 when the
 * whole record is present and its hash matches, -ENODATA when cut short, -EINVAL when its hash
 * does not match. */
int sgf_def_check(const void *p, size_t avail);

/* XXH64 (seed 0) in pieces, for sgf_hash() and the recorder's running chunk checksum
 * (sgt_hash.h), so that both compute the same bytes the same way. */
#define SGF_XXH_P1 UINT64_C(0x9E3779B185EBCA87)
#define SGF_XXH_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define SGF_XXH_P3 UINT64_C(0x165667B19E3779F9)
#define SGF_XXH_P4 UINT64_C(0x85EBCA77C2B2AE63)
#define SGF_XXH_P5 UINT64_C(0x27D4EB2F165667C5)

static inline uint64_t sgf_xxh_rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t sgf_xxh_round(uint64_t acc, uint64_t in)
{
	acc += in * SGF_XXH_P2;
	return sgf_xxh_rotl(acc, 31) * SGF_XXH_P1;
}

/* The four lane accumulators of an empty input. */
static inline void sgf_xxh_init(uint64_t v[4])
{
	v[0] = SGF_XXH_P1 + SGF_XXH_P2;
	v[1] = SGF_XXH_P2;
	v[2] = 0;
	v[3] = -SGF_XXH_P1;
}

/* The hash before its length and tail: the lanes' merge (inputs of 32 bytes or more), else P5. */
static inline uint64_t sgf_xxh_lanes(const uint64_t v[4], int any_stripe)
{
	if (!any_stripe)
		return SGF_XXH_P5;
	uint64_t h = sgf_xxh_rotl(v[0], 1) + sgf_xxh_rotl(v[1], 7) + sgf_xxh_rotl(v[2], 12) +
		     sgf_xxh_rotl(v[3], 18);
	for (int i = 0; i < 4; i++) {
		h ^= sgf_xxh_round(0, v[i]);
		h = h * SGF_XXH_P1 + SGF_XXH_P4;
	}
	return h;
}

/* Adds one 8-byte word of the tail (after the last whole 32-byte stripe). */
static inline uint64_t sgf_xxh_tail8(uint64_t h, uint64_t w)
{
	h ^= sgf_xxh_round(0, w);
	return sgf_xxh_rotl(h, 27) * SGF_XXH_P1 + SGF_XXH_P4;
}

static inline uint64_t sgf_xxh_avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= SGF_XXH_P2;
	h ^= h >> 29;
	h *= SGF_XXH_P3;
	h ^= h >> 32;
	return h;
}

#endif /* SGF_INT_H */
