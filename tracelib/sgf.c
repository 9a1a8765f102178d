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
	h->payload_bytes = 0;
	h->payload_hash = sgf_hash(payload, (uint64_t)h->n_recs * sizeof *payload);
	h->hash = sgf_hash(h, HASHED_PREFIX);
}

void sgf_chunk_seal_compact(struct sgf_chunk_header *h, const void *p, size_t bytes)
{
	h->magic = SGF_CHUNK_MAGIC;
	h->flags = SGF_CHUNK_COMPACT;
	h->payload_bytes = bytes;
	h->payload_hash = sgf_hash(p, bytes);
	h->hash = sgf_hash(h, HASHED_PREFIX);
}

int sgf_chunk_header_check(const struct sgf_chunk_header *h)
{
	if (h->magic != SGF_CHUNK_MAGIC || h->hash != sgf_hash(h, HASHED_PREFIX))
		return -EINVAL;
	if (h->flags & ~SGF_CHUNK_COMPACT)
		return -EINVAL;   /* a flag of a later format: its payload cannot be read */
	/* a compact record takes 2 to SGF_CT_REC_MAX bytes: n_recs (which sizes the decoded
	 * copy) is bounded by the payload, hence by the file */
	if ((h->flags & SGF_CHUNK_COMPACT) &&
	    (h->payload_bytes % 16 || h->payload_bytes / 2 < h->n_recs ||
	     h->payload_bytes > (uint64_t)h->n_recs * SGF_CT_REC_MAX + 16))
		return -EINVAL;
	return 0;
}

int sgf_chunk_payload_check(const struct sgf_chunk_header *h, const void *payload)
{
	if (h->payload_hash != sgf_hash(payload, sgf_chunk_payload_len(h)))
		return -EINVAL;
	return 0;
}

/* ---- compact chunks (format 1.6; sgtrace_format.h has the encoding) ---- */

static inline unsigned char *put_varint(unsigned char *o, uint64_t v)
{
	if (__builtin_expect(v < 0x80, 1)) {   /* most ids, aux and deltas */
		*o = (unsigned char)v;
		return o + 1;
	}
	if (v < 0x4000) {
		o[0] = (unsigned char)(v | 0x80);
		o[1] = (unsigned char)(v >> 7);
		return o + 2;
	}
	while (v >= 0x80) {
		*o++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*o++ = (unsigned char)v;
	return o;
}

/* (A branch-free varint, its length from a table, measured slower here: 7-9 instead of 3-4 ns
 * a record, the length of each write waiting on the one before it.) */
size_t sgf_compact_encode(const struct sg_event_rec *r, size_t n, unsigned char *out, size_t cap)
{
	if (n == 0 || cap < SGF_CT_REC_MAX + 16)
		return 0;
	unsigned char *o = out;
	const unsigned char *lim = out + cap - SGF_CT_REC_MAX;   /* room for one more record */
	uint64_t prev_t = 0;
	uint32_t prev_id = 0, prev_aux = 0;
	for (size_t i = 0; i < n; i++) {
		if (o > lim)
			return 0;
		uint64_t w0 = r[i].w0, w1 = r[i].w1, t = w0 >> 8;
		unsigned kind = (unsigned)(w0 & 0xffu);
		uint32_t id = (uint32_t)w1, aux = (uint32_t)(w1 >> 32);
		unsigned tag = kind < SGF_CT_KIND_ESC ? kind : SGF_CT_KIND_ESC;
		tag |= id == prev_id ? SGF_CT_SAME_ID : 0u;
		tag |= aux == prev_aux ? SGF_CT_SAME_AUX : 0u;
		*o++ = (unsigned char)tag;
		if (__builtin_expect(kind >= SGF_CT_KIND_ESC, 0))
			*o++ = (unsigned char)kind;
		o = put_varint(o, (t - prev_t) & SG_TICKS_MAX);
		if (id != prev_id)
			o = put_varint(o, (uint32_t)(id + 1u));
		if (aux != prev_aux)
			o = put_varint(o, (uint32_t)(aux + 1u));
		prev_t = t, prev_id = id, prev_aux = aux;
	}
	size_t len = (size_t)(o - out), padded = (len + 15u) & ~(size_t)15u;
	if (padded > cap)
		return 0;
	memset(o, 0, padded - len);
	return padded;
}

/* Reads a varint of at most max_bytes bytes from *pp (before end). 0, or -1 when it runs past
 * end or max_bytes. */
static inline int get_varint(const unsigned char **pp, const unsigned char *end,
			     unsigned max_bytes, uint64_t *v)
{
	const unsigned char *p = *pp;
	if (__builtin_expect(p < end && *p < 0x80, 1)) {   /* one byte: most of them */
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	uint64_t x = 0;
	for (unsigned k = 0, sh = 0; k < max_bytes && p < end; k++, sh += 7) {
		unsigned b = *p++;
		x |= (uint64_t)(b & 0x7fu) << sh;
		if (!(b & 0x80u)) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -1;
}

int sgf_compact_decode(const unsigned char *p, size_t len, struct sg_event_rec *out, uint32_t n,
		       uint64_t *back)
{
	const unsigned char *end = p + len;
	uint64_t prev_t = 0, acc = 0, dt, v;
	uint32_t id = 0, aux = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (p >= end)
			return -EINVAL;
		unsigned tag = *p++, kind = tag & 63u;
		if (kind == SGF_CT_KIND_ESC) {
			if (p >= end || *p < SGF_CT_KIND_ESC)
				return -EINVAL;   /* the encoder writes a byte only for kinds >= 63 */
			kind = *p++;
		}
		if (get_varint(&p, end, 8, &dt) < 0)
			return -EINVAL;
		if (!(tag & SGF_CT_SAME_ID)) {
			if (get_varint(&p, end, 5, &v) < 0 || v > UINT32_MAX)
				return -EINVAL;
			id = (uint32_t)v - 1u;
		}
		if (!(tag & SGF_CT_SAME_AUX)) {
			if (get_varint(&p, end, 5, &v) < 0 || v > UINT32_MAX)
				return -EINVAL;
			aux = (uint32_t)v - 1u;
		}
		uint64_t t = (prev_t + dt) & SG_TICKS_MAX;
		acc |= t - prev_t;
		prev_t = t;
		out[i].w0 = (t << 8) | kind;
		out[i].w1 = ((uint64_t)aux << 32) | id;
	}
	if (end - p >= 16)
		return -EINVAL;
	for (; p < end; p++)
		if (*p)
			return -EINVAL;
	*back = acc;
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
