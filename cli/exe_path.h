/*
 * exe_path.h — where the scalegraph tools find each other: a directory named by an environment
 * variable, else a path relative to the running executable's own directory (/proc/self/exe), so
 * that the build tree and an installed tree work alike (docs/architecture.md). Shared by the
 * dispatcher (cli/scalegraph.c) and `scalegraph cc` (instrument/cc_main.c). Header-only (one
 * small static inline function), so that each program gets it without another object to link.
 */
#ifndef EXE_PATH_H
#define EXE_PATH_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes $env into `out` when that variable is set and not empty (returns 1), else
 * "<directory of this executable>/<rel>" (returns 0; not resolved: `rel` may hold ".."), or
 * returns -errno (-ENAMETOOLONG when it does not fit in `len` bytes). `env` may be NULL. */
static inline int exe_path_join(const char *env, const char *rel, char *out, size_t len)
{
	const char *e = env ? getenv(env) : NULL;
	if (e && *e)
		return (size_t)snprintf(out, len, "%s", e) < len ? 1 : -ENAMETOOLONG;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return (size_t)snprintf(out, len, "%s/%s", self, rel) < len ? 0 : -ENAMETOOLONG;
}

#endif /* EXE_PATH_H */
