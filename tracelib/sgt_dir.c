/*
 * sgt_dir.c — where libsgtrace writes, made so that it never writes into a file someone else
 * prepared. A program traced as root in a shared directory (/tmp, mode 1777) must not follow a
 * link another user planted there (sgtrace-prog-<time>-<pid>/defs.sgd -> /etc/passwd) nor write into a
 * directory that user owns. So: the trace root is created fresh, or accepted only as a real
 * directory of this user (or a sticky one of root's, like /tmp itself); the process's own
 * directory proc.<pid>/ is always created by mkdir here (mode 0700) and then used only through
 * a descriptor checked to be that directory; every file in it is created with O_EXCL and
 * O_NOFOLLOW, mode 0600, relative to that descriptor. docs/tracelib.md, "Files and rights".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgt_int.h"
#include "sgt_io.h"

#define SGT_DIR_MODE 0700
#define SGT_FILE_MODE 0600

/* Is the directory st one this process may write its trace into? 0, or a reason. */
static const char *root_refusal(const struct stat *st)
{
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid == geteuid())
		return NULL;
	if (st->st_uid == 0 && (st->st_mode & S_ISVTX))
		return NULL;   /* /tmp and the like: others cannot replace what we create in it */
	return "owned by another user (and not a sticky directory of root's)";
}

/* Opens directory `name` in directory dirfd without following a final symbolic link and
 * checks it: a descriptor, or -errno with the reason in *why. */
static int root_fd_open(int dirfd, const char *name, const char **why)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0) {
		int err = errno;
		struct stat lst;
		if ((err == ELOOP || err == ENOTDIR) &&
		    fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode))
			*why = "a symbolic link, not a directory";
		else
			*why = strerror(err);
		return -err;
	}
	if (fstat(fd, &st) < 0 || (*why = root_refusal(&st)) != NULL) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The default root: ./sgtrace-<program>-<time>-<pid>, fresh; the same with .2, .3, ... when
 * that exists (said only with SG_VERBOSE=1: the root's name tells). */
static int root_default(const char *dir, char *err, size_t errlen)
{
	char d[sizeof sgt_g.root];
	for (int k = 1; k <= 100; k++) {
		int n = k == 1 ? snprintf(d, sizeof d, "%s", dir)
			       : snprintf(d, sizeof d, "%s.%d", dir, k);
		if (n < 0 || (size_t)n >= sizeof d)
			return -ENAMETOOLONG;
		if (mkdir(d, SGT_DIR_MODE) == 0) {
			if (k > 1)
				sgt_warn("sgtrace: warning: %s exists already (not made by this "
					 "process); tracing into %s instead\n", dir, d);
			memcpy(sgt_g.root, d, (size_t)n + 1);
			return 0;
		}
		if (errno != EEXIST) {
			int e = errno;
			snprintf(err, errlen, "sgtrace: error: %s: cannot create the trace directory: "
				 "%s; tracing is off", d, strerror(e));
			return -e;
		}
	}
	snprintf(err, errlen, "sgtrace: error: %s: cannot create the trace directory: it and "
		 "99 other names exist already; tracing is off", dir);
	return -EEXIST;
}

int sgt_root_open(const char *dir, const char *var, char *err, size_t errlen)
{
	int rc, pfd = AT_FDCWD;
	const char *why = NULL;
	char last[NAME_MAX + 1];
	const char *name = last;
	if (!var) {
		rc = root_default(dir, err, errlen);
		if (rc < 0)
			return rc;
		name = sgt_g.root;   /* ./sgtrace-<program>-<time>-<pid>[.<k>], made just now */
	} else {
		/* its parents walked as every output path is (sgt_io.h), the root made in the last */
		char whybuf[PATH_MAX + 128];
		snprintf(sgt_g.root, sizeof sgt_g.root, "%s", dir);
		rc = pfd = sgt_dir_walk(dir, SGT_DIR_MODE, last, sizeof last, whybuf, sizeof whybuf);
		if (rc >= 0 && mkdirat(pfd, last, SGT_DIR_MODE) < 0 && errno != EEXIST) {
			rc = -errno;
			close(pfd);
		}
		if (rc == -EPERM && whybuf[0]) {
			snprintf(err, errlen, "sgtrace: error: %s=%s: %s; tracing is off", var, dir,
				 whybuf);
			return rc;
		}
		if (rc < 0) {
			snprintf(err, errlen, "sgtrace: error: %s: cannot create the trace directory: "
				 "%s; tracing is off", dir, whybuf[0] ? whybuf : strerror(-rc));
			return rc;
		}
	}
	rc = root_fd_open(pfd, name, &why);
	if (pfd >= 0)
		close(pfd);
	if (rc < 0) {
		snprintf(err, errlen, "sgtrace: error: %s%s%s: refused as the trace root: %s; "
			 "tracing is off", var ? var : "", var ? "=" : "", sgt_g.root, why);
		return rc;
	}
	sgt_g.rootfd = rc;
	return 0;
}

int sgt_proc_dir_make(void)
{
	char name[64], d[PATH_MAX];
	for (int k = 1; k <= 1000; k++) {
		if (k == 1)
			snprintf(name, sizeof name, SGF_PROC_PREFIX "%u", sgt_g.pid);
		else
			snprintf(name, sizeof name, SGF_PROC_PREFIX "%u.%d", sgt_g.pid, k);
		int n = snprintf(d, sizeof d, "%s/%s", sgt_g.root, name);
		if (n < 0 || (size_t)n >= sizeof d)
			return -ENAMETOOLONG;
		if (mkdirat(sgt_g.rootfd, name, SGT_DIR_MODE) < 0) {
			if (errno == EEXIST)
				continue;   /* another process's, a stale one, or a planted link */
			return -errno;
		}
		int fd = openat(sgt_g.rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		struct stat st;
		if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
			close(fd);
			return -EPERM;   /* replaced between mkdir and open: not ours */
		}
		if (sgt_g.dirfd >= 0)
			close(sgt_g.dirfd);   /* a forked child's copy of its parent's */
		sgt_g.dirfd = fd;
		memcpy(sgt_g.dir, d, (size_t)n + 1);
		return 0;
	}
	return -EEXIST;
}

int sgt_file_create(const char *name, int flags)
{
	if (sgt_g.dirfd < 0)
		return -EBADF;
	int fd = openat(sgt_g.dirfd, name, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			SGT_FILE_MODE);
	return fd < 0 ? -errno : fd;
}
