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

/* Checks a chunk header's magic and hash (not its payload). 0 or -EINVAL. */
int sgf_chunk_header_check(const struct sgf_chunk_header *h);

/* Checks a chunk payload against the header's payload hash. 0 or -EINVAL. */
int sgf_chunk_payload_check(const struct sgf_chunk_header *h, const struct sg_event_rec *payload);

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

#endif /* SGF_INT_H */
