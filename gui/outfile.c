/*
 * outfile.c — the one way xscalegraph creates files (outfile.h): a directory descriptor whose
 * last component is not followed, a temporary file created in it with O_EXCL|O_NOFOLLOW, then a
 * rename into place. Before issue 20 `--export DIR` opened DIR/<window>.svg.tmp and the final
 * files with fopen, so a link planted in DIR made a run as root overwrite a file outside it.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary names tried per file: `.NAME.tmp`, `.NAME.2.tmp`, ... (a leftover of a crashed
 * export, or names someone planted, are skipped, never opened). */
#define OUT_TMP_TRIES 64

int out_dir_open(const char *dir, mode_t mkdir_mode, char *err, size_t err_len)
{
	int fd, e;
	struct stat lst;

	if (!dir || !*dir) {
		snprintf(err, err_len, "(empty): error: no directory given");
		return -EINVAL;
	}
	if (mkdir_mode > 0 && mkdir(dir, mkdir_mode) < 0 && errno != EEXIST) {
		e = errno;
		snprintf(err, err_len, "%s: error: cannot create the directory: %s", dir, strerror(e));
		return -e;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	e = errno;
	if ((e == ELOOP || e == ENOTDIR) && lstat(dir, &lst) == 0 && S_ISLNK(lst.st_mode))
		snprintf(err, err_len, "%s: error: a symbolic link, not a directory: refused as an "
			 "output directory (give the directory it points to)", dir);
	else if (e == ENOTDIR)
		snprintf(err, err_len, "%s: error: not a directory", dir);
	else
		snprintf(err, err_len, "%s: error: %s", dir, strerror(e));
	return -e;
}

int out_file_open_at(struct out_file *of, int dirfd, const char *dir, const char *name,
		     mode_t mode, char *err, size_t err_len)
{
	int k, fd = -1, e = 0;

	memset(of, 0, sizeof(*of));
	of->dirfd = dirfd;
	{
		/* "name" in ".", "dir/name", "/name" */
		int bare = !dir || !*dir || !strcmp(dir, ".");
		int slash = !bare && dir[strlen(dir) - 1] == '/';
		snprintf(of->path, sizeof(of->path), "%s%s%s", bare ? "" : dir,
			 bare || slash ? "" : "/", name);
	}
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= sizeof(of->name) - 16) {
		snprintf(err, err_len, "%s: error: not a file name", of->path);
		return -EINVAL;
	}
	snprintf(of->name, sizeof(of->name), "%s", name);
	for (k = 1; k <= OUT_TMP_TRIES; k++) {
		if (k == 1)
			snprintf(of->tmp, sizeof(of->tmp), ".%s.tmp", name);
		else
			snprintf(of->tmp, sizeof(of->tmp), ".%s.%d.tmp", name, k);
		fd = openat(dirfd, of->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0 || (e = errno) != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, err_len, "%s: error: cannot create a temporary file beside it: %s", of->path,
			 e == EEXIST ? "every name tried (.NAME.tmp, .NAME.2.tmp, ...) exists" :
			 strerror(e));
		return -e;
	}
	if (!(of->f = fdopen(fd, "wb"))) {
		e = errno;
		close(fd);
		unlinkat(dirfd, of->tmp, 0);
		snprintf(err, err_len, "%s: error: %s", of->path, strerror(e));
		return -e;
	}
	return 0;
}

int out_file_open(struct out_file *of, const char *path, mode_t mode, char *err, size_t err_len)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	int fd, rc;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if ((fd = out_dir_open(dir, 0, err, err_len)) < 0)
		return fd;
	if ((rc = out_file_open_at(of, fd, slash ? dir : ".", slash ? slash + 1 : path, mode, err,
				   err_len)) < 0) {
		close(fd);
		return rc;
	}
	of->own_dirfd = 1;
	return 0;
}

/* Gives tmp the name `name` without replacing anything: renameat2's RENAME_NOREPLACE, or where
 * the file system lacks it, a hard link then the temporary name removed. */
static int rename_noreplace(int dirfd, const char *tmp, const char *name)
{
	if (renameat2(dirfd, tmp, dirfd, name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(dirfd, tmp, dirfd, name, 0) < 0)
		return -errno;
	unlinkat(dirfd, tmp, 0);
	return 0;
}

static void out_file_close_dir(struct out_file *of)
{
	if (of->own_dirfd && of->dirfd >= 0)
		close(of->dirfd);
	of->dirfd = -1;
	of->own_dirfd = 0;
}

int out_file_commit(struct out_file *of, int replace, char *err, size_t err_len)
{
	int rc = 0, bad = ferror(of->f);

	if (fclose(of->f) != 0)
		rc = -errno;
	else if (bad)
		rc = -EIO;
	if (rc < 0)
		snprintf(err, err_len, "%s: error: writing failed: %s", of->path, strerror(-rc));
	of->f = NULL;
	if (rc == 0) {
		if (replace)
			rc = renameat(of->dirfd, of->tmp, of->dirfd, of->name) < 0 ? -errno : 0;
		else
			rc = rename_noreplace(of->dirfd, of->tmp, of->name);
		if (rc == -EEXIST)
			snprintf(err, err_len, "%s: error: the file exists, not replaced", of->path);
		else if (rc < 0)
			snprintf(err, err_len, "%s: error: cannot give the file its name: %s", of->path,
				 strerror(-rc));
	}
	if (rc < 0)
		unlinkat(of->dirfd, of->tmp, 0);
	out_file_close_dir(of);
	return rc;
}

void out_file_abort(struct out_file *of)
{
	if (of->f)
		fclose(of->f);
	of->f = NULL;
	if (of->dirfd >= 0 && of->tmp[0])
		unlinkat(of->dirfd, of->tmp, 0);
	out_file_close_dir(of);
}

int out_exists_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int out_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}
