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

#include "sgf_int.h"
#include "sgtrace_format.h"

/* The four lane accumulators of an empty payload. */
static inline void sgt_hash_init(uint64_t v[4])
{
	sgf_xxh_init(v);
}

/* Adds the stripe of records a, b (a right before b) to the accumulators. */
static inline void sgt_hash_stripe(uint64_t v[4], const struct sg_event_rec *a, uint64_t b_w0,
				   uint64_t b_w1)
{
	v[0] = sgf_xxh_round(v[0], a->w0);
	v[1] = sgf_xxh_round(v[1], a->w1);
	v[2] = sgf_xxh_round(v[2], b_w0);
	v[3] = sgf_xxh_round(v[3], b_w1);
}

/* XXH64 of the n records at buf, given `v` holding every whole stripe of them (n / 2). */
static inline uint64_t sgt_hash_finish(const uint64_t v[4], const struct sg_event_rec *buf,
				       size_t n)
{
	uint64_t h = sgf_xxh_lanes(v, n >= 2) + (uint64_t)n * sizeof *buf;
	if (n & 1) {   /* the last record, outside any stripe: two 8-byte words */
		h = sgf_xxh_tail8(h, buf[n - 1].w0);
		h = sgf_xxh_tail8(h, buf[n - 1].w1);
	}
	return sgf_xxh_avalanche(h);
}

#endif /* SGT_HASH_H */
