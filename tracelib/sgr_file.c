/*
 * sgr_file.c — how the reader opens the files of a trace. A trace directory is data from
 * elsewhere (a copied store, a shared /tmp): any of its names may be a FIFO, a device, a
 * directory or a link. open() of a FIFO blocks until a writer comes and read() of it then
 * blocks again, so every file is opened with O_NONBLOCK and checked with fstat to be a regular
 * file before it is mapped or read; a link inside a trace directory is never followed (the
 * writer creates none, and following one would let a planted link make a reader run by
 * someone else read any file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgr_int.h"

const char *sgr_file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	}
	return "of an unknown type";
}

int sgr_file_open(const char *path, struct stat *st, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		struct stat lst;
		/* O_NOFOLLOW fails with ELOOP on a link: say so rather than "Too many levels of
		 * symbolic links" */
		if (e == ELOOP && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			snprintf(why, whylen, "not a regular file (a symbolic link, not followed)");
		else
			snprintf(why, whylen, "%s", strerror(e));
		return -e;
	}
	if (fstat(fd, st) < 0) {
		int e = errno;
		snprintf(why, whylen, "%s", strerror(e));
		close(fd);
		return -e;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "not a regular file (%s)", sgr_file_kind(st->st_mode));
		close(fd);
		return -EINVAL;
	}
	return fd;
}
