/*
 * sgt_io.c — whole writes and `mkdir -p` for the recorder and the writer (sgt_io.h).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgt_io.h"

int sgt_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t k = write(fd, c, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			return -EIO;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int mkdir_one(const char *path, mode_t mode)
{
	if (mkdir(path, mode) == 0)
		return 0;
	int err = errno;
	struct stat st;
	if (err == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	return -err;
}

int sgt_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);
	if (n == 0)
		return -ENOENT;
	if (n >= sizeof buf)
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (size_t i = 1; i < n; i++) {
		if (buf[i] != '/')
			continue;
		buf[i] = '\0';
		int rc = mkdir_one(buf, mode);
		buf[i] = '/';
		if (rc < 0)
			return rc;
	}
	return mkdir_one(buf, mode);
}
