/*
 * sgt_hash.h — the payload checksum of a chunk taken while the records are stored, instead of
 * in a pass over the whole buffer when it is written. It is XXH64 (seed 0) of the payload
 * bytes, exactly what sgf_hash() computes and the reader checks: every second record completes
 * a 32-byte stripe, whose four rounds run in the shadow of the next rdtsc (≈ 0.05 ns per event
 * instead of 0.8 ns for the pass at flush time, docs/tracelib.md). The buffer must start on a
 * 32-byte boundary, so that a stripe ends where the address of the next record is a multiple
 * of 32. Only the owning thread keeps the state; a flush from elsewhere (exit, fatal signal)
 * hashes the buffer from scratch.
 */
#ifndef SGT_HASH_H
#define SGT_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "sgtrace_format.h"

#define SGT_XXH_P1 UINT64_C(0x9E3779B185EBCA87)
#define SGT_XXH_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define SGT_XXH_P3 UINT64_C(0x165667B19E3779F9)
#define SGT_XXH_P4 UINT64_C(0x85EBCA77C2B2AE63)
#define SGT_XXH_P5 UINT64_C(0x27D4EB2F165667C5)

static inline uint64_t sgt_hash_rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t sgt_hash_round(uint64_t acc, uint64_t in)
{
	acc += in * SGT_XXH_P2;
	return sgt_hash_rotl(acc, 31) * SGT_XXH_P1;
}

/* The four lane accumulators of an empty payload. */
static inline void sgt_hash_init(uint64_t v[4])
{
	v[0] = SGT_XXH_P1 + SGT_XXH_P2;
	v[1] = SGT_XXH_P2;
	v[2] = 0;
	v[3] = -SGT_XXH_P1;
}

/* Adds the stripe of records a, b (a right before b) to the accumulators. */
static inline void sgt_hash_stripe(uint64_t v[4], const struct sg_event_rec *a, uint64_t b_w0,
				   uint64_t b_w1)
{
	v[0] = sgt_hash_round(v[0], a->w0);
	v[1] = sgt_hash_round(v[1], a->w1);
	v[2] = sgt_hash_round(v[2], b_w0);
	v[3] = sgt_hash_round(v[3], b_w1);
}

static inline uint64_t sgt_hash_merge(uint64_t acc, uint64_t v)
{
	acc ^= sgt_hash_round(0, v);
	return acc * SGT_XXH_P1 + SGT_XXH_P4;
}

/* XXH64 of the n records at buf, given `v` holding every whole stripe of them (n / 2). */
static inline uint64_t sgt_hash_finish(const uint64_t v[4], const struct sg_event_rec *buf,
				       size_t n)
{
	uint64_t h, len = (uint64_t)n * sizeof *buf;
	if (n >= 2) {
		h = sgt_hash_rotl(v[0], 1) + sgt_hash_rotl(v[1], 7) + sgt_hash_rotl(v[2], 12) +
		    sgt_hash_rotl(v[3], 18);
		for (int i = 0; i < 4; i++)
			h = sgt_hash_merge(h, v[i]);
	} else {
		h = SGT_XXH_P5;
	}
	h += len;
	if (n & 1) {   /* the last record, outside any stripe: two 8-byte words */
		const struct sg_event_rec *r = &buf[n - 1];
		h ^= sgt_hash_round(0, r->w0);
		h = sgt_hash_rotl(h, 27) * SGT_XXH_P1 + SGT_XXH_P4;
		h ^= sgt_hash_round(0, r->w1);
		h = sgt_hash_rotl(h, 27) * SGT_XXH_P1 + SGT_XXH_P4;
	}
	h ^= h >> 33;
	h *= SGT_XXH_P2;
	h ^= h >> 29;
	h *= SGT_XXH_P3;
	h ^= h >> 32;
	return h;
}

#endif /* SGT_HASH_H */
