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

/* Creates directory `path` and its missing parents (mode & ~umask). An existing directory is
 * fine (the recorder checks whose it is: sgt_dir.c). Returns 0 or -errno. */
int sgt_mkdir_p(const char *path, mode_t mode);

#endif /* SGT_IO_H */
