/*
 * sgt_io.c — whole writes and `mkdir -p` for the recorder and the writer (sgt_io.h), the latter
 * through the walk every output path takes (docs/tracelib.md "Files and rights"): component by
 * component under the parent's descriptor, never following a symbolic link that someone other
 * than root or the effective user owns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgf_int.h"
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

const void *sgt_chunk_compact(const struct sgf_chunk_header *h, void *scratch, size_t cap,
			      size_t *len)
{
	const struct sg_event_rec *recs = (const struct sg_event_rec *)(h + 1);
	size_t raw = (size_t)h->n_recs * sizeof *recs;
	*len = sizeof *h + raw;
	if (!scratch || cap <= sizeof *h)
		return h;
	struct sgf_chunk_header *c = scratch;
	size_t room = cap - sizeof *h < raw ? cap - sizeof *h : raw;
	size_t bytes = sgf_compact_encode(recs, h->n_recs, (unsigned char *)(c + 1), room);
	if (bytes == 0 || bytes >= raw)
		return h;   /* records this big are written as they are */
	memset(c, 0, sizeof *c);
	c->thread = h->thread;
	c->seq = h->seq;
	c->n_recs = h->n_recs;
	c->pair_ticks = h->pair_ticks;
	c->pair_ns = h->pair_ns;
	sgf_chunk_seal_compact(c, c + 1, bytes);
	*len = sizeof *c + bytes;
	return c;
}

/* Appends "/" and the n bytes of c to the walked path (messages only), cut to fit. */
static void walked_add(char *walked, size_t len, const char *c, size_t n)
{
	size_t k = strlen(walked);
	if (k > 0 && k + 1 < len && !(k == 1 && walked[0] == '/'))
		walked[k++] = '/';
	if (n > len - 1 - k)
		n = len - 1 - k;
	memcpy(walked + k, c, n);
	walked[k + n] = '\0';
}

int sgt_dir_walk(const char *path, mode_t mode, char *last, size_t lastlen, char *why,
		 size_t whylen)
{
	char rest[PATH_MAX], tmp[PATH_MAX], target[PATH_MAX], walked[PATH_MAX];
	int links = 0, rc;
	size_t n = strlen(path);
	why[0] = '\0';
	if (n == 0)
		return -ENOENT;
	if (n >= sizeof rest)
		return -ENAMETOOLONG;
	memcpy(rest, path, n + 1);
	int fd = open(rest[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(walked, sizeof walked, "%s", rest[0] == '/' ? "/" : "");
	const char *p = rest;
	for (;;) {
		while (*p == '/')
			p++;
		const char *end = strchr(p, '/');
		size_t clen = end ? (size_t)(end - p) : strlen(p);
		const char *after = end ? end : p + clen;
		while (*after == '/')
			after++;
		if (*after == '\0') {
			/* the last component: the caller's (the trace root has a rule of its own) */
			if (clen == 0) {
				p = ".";   /* "/" or a path ending in "/": the directory itself */
				clen = 1;
			}
			if (clen >= lastlen) {
				rc = -ENAMETOOLONG;
				goto fail;
			}
			memcpy(last, p, clen);
			last[clen] = '\0';
			return fd;
		}
		char comp[NAME_MAX + 1];
		if (clen > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp, p, clen);
		comp[clen] = '\0';
		p = after;
		if (!strcmp(comp, "."))
			continue;
		int nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT) {
			if (mkdirat(fd, comp, mode) < 0 && errno != EEXIST) {
				rc = -errno;
				walked_add(walked, sizeof walked, comp, clen);
				snprintf(why, whylen, "%s: %s", walked, strerror(-rc));
				goto fail;
			}
			/* whatever is there now (another process may have been quicker), checked
			 * as any component */
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd >= 0) {
			close(fd);
			fd = nfd;
			walked_add(walked, sizeof walked, comp, clen);
			continue;
		}
		rc = -errno;
		struct stat st;
		walked_add(walked, sizeof walked, comp, clen);
		if ((rc != -ELOOP && rc != -ENOTDIR) || fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISLNK(st.st_mode)) {
			snprintf(why, whylen, "%s: %s", walked, strerror(-rc));
			goto fail;
		}
		/* a symbolic link: followed only when its owner could have written the path
		 * anyway (root, or the effective user), as the kernel's protected_symlinks does in
		 * sticky directories, here in every directory */
		if (st.st_uid != 0 && st.st_uid != geteuid()) {
			rc = -EPERM;
			snprintf(why, whylen, "%s: a symbolic link owned by uid %u, neither root nor "
				 "this user: not followed", walked, (unsigned)st.st_uid);
			goto fail;
		}
		ssize_t tl = readlinkat(fd, comp, target, sizeof target);
		if (tl < 0 || (size_t)tl >= sizeof target || ++links > 40) {
			rc = tl < 0 ? -errno : (size_t)tl >= sizeof target ? -ENAMETOOLONG : -ELOOP;
			snprintf(why, whylen, "%s: %s", walked, strerror(-rc));
			goto fail;
		}
		target[tl] = '\0';
		int k = snprintf(tmp, sizeof tmp, "%s/%s", target, p);
		if (k < 0 || (size_t)k >= sizeof tmp) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(rest, tmp, (size_t)k + 1);
		p = rest;
		if (target[0] == '/') {
			int rfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (rfd < 0) {
				rc = -errno;
				goto fail;
			}
			close(fd);
			fd = rfd;
			snprintf(walked, sizeof walked, "/");
		} else {
			size_t wl = strlen(walked);   /* back to the link's directory */
			walked[wl >= clen ? wl - clen : 0] = '\0';
			wl = strlen(walked);
			if (wl > 1 && walked[wl - 1] == '/')
				walked[wl - 1] = '\0';
		}
	}
fail:
	close(fd);
	return rc;
}

int sgt_mkdir_p(const char *path, mode_t mode)
{
	char full[PATH_MAX], last[8], why[8];
	int n = snprintf(full, sizeof full, "%s/.", path);
	if (*path == '\0')
		return -ENOENT;
	if (n < 0 || (size_t)n >= sizeof full)
		return -ENAMETOOLONG;
	/* every component of path is an intermediate one of path/. : created, links checked */
	int fd = sgt_dir_walk(full, mode, last, sizeof last, why, sizeof why);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
