/*
 * sgt_io.h — small file helpers shared by the recorder and the writer: whole writes that
 * survive EINTR and short writes, and `mkdir -p`. Async-signal-safe where noted.
 */
#ifndef SGT_IO_H
#define SGT_IO_H

#include <stddef.h>
#include <sys/types.h>

/* Writes all n bytes of p to fd. Returns 0 or -errno. Async-signal-safe. */
int sgt_write_all(int fd, const void *p, size_t n);

struct sgf_chunk_header;
/* The bytes to write for chunk h, sealed with its n_recs 16-byte records right after it: its
 * compact form (format 1.6) built in `scratch` (cap bytes, header included) when that is
 * smaller, else h itself. *len gets the chunk's length. No allocation, no system call:
 * async-signal-safe. */
const void *sgt_chunk_compact(const struct sgf_chunk_header *h, void *scratch, size_t cap,
			      size_t *len);

/* Walks output path `path` up to its last component (docs/tracelib.md "Files and rights"):
 * component by component with openat(O_NOFOLLOW|O_DIRECTORY) under the parent's descriptor;
 * a missing one is created (mkdirat, mode & ~umask); a symbolic link is followed only when the
 * link itself is owned by root or by the effective user (its target walked the same way, 40
 * links at most). Returns a descriptor of the directory holding the last component, whose name
 * goes to `last` ("." for "/" or a path ending in "/"), or -errno: -EPERM with a link of
 * someone else's, and then `why` names that component and its owner ("/t/x: a symbolic link
 * owned by uid 65534, neither root nor this user: not followed"); other failures name the
 * component too where one is at fault. */
int sgt_dir_walk(const char *path, mode_t mode, char *last, size_t lastlen, char *why,
		 size_t whylen);

/* Creates directory `path` and its missing parents (mode & ~umask), every component walked as
 * sgt_dir_walk does (so a link of someone else's anywhere in it is refused: -EPERM). An existing
 * directory is fine (the recorder checks whose it is: sgt_dir.c). Returns 0 or -errno. */
int sgt_mkdir_p(const char *path, mode_t mode);

#endif /* SGT_IO_H */
