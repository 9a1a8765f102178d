/*
 * sgr_procs.c — the processes of a trace. SG_TRACE_DIR is a trace root: each traced process
 * writes its own directory proc.<pid>[.<k>]/ in it (format 1.2), whose defs.sgd header names
 * the traced process it descends from. sgr_open given a root reads its main process: the first
 * started of those whose parent is not traced there (the program a series runs; a program it
 * starts, forked or executed, is its child). Given a process's own directory it reads that one,
 * and lists the fork.<pid>/ children format 1.1 kept inside it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgr_int.h"

/* The header of dir/defs.sgd, when it is a valid one. */
static int defs_header(const char *dir, struct sgf_file_header *h)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, SGF_DEFS_NAME) >= sizeof path)
		return -ENAMETOOLONG;
	struct stat st;
	char why_open[160];
	int fd = sgr_file_open(path, &st, why_open, sizeof why_open);
	if (fd < 0)
		return fd;
	ssize_t n = pread(fd, h, sizeof *h, 0);
	close(fd);
	const char *why;
	if (n != (ssize_t)sizeof *h || sgf_file_header_check(h, SGF_MAGIC_DEFS, &why) < 0)
		return -EINVAL;
	return 0;
}

static int proc_add(struct sgr_trace *t, size_t *cap, const char *dir, const char *name,
		    const struct sgf_file_header *h)
{
	if (sgr_grow(&t->procs, cap, t->n_procs, sizeof *t->procs) < 0)
		return -ENOMEM;
	char *d = strdup(dir), *nm = strdup(name);
	if (!d || !nm) {
		free(d);
		free(nm);
		return -ENOMEM;
	}
	t->procs[t->n_procs++] = (struct sgr_process){ d, nm, h->pid, h->parent_pid, h->epoch_ns,
						       0 };
	return 0;
}

/* Adds every subdirectory of `dir` named <prefix><digits...> that holds a valid trace. */
static int procs_scan(struct sgr_trace *t, size_t *cap, const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int rc = 0;
	struct dirent *e;
	size_t plen = strlen(prefix);
	while (rc == 0 && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, plen) || e->d_name[plen] < '0' || e->d_name[plen] > '9')
			continue;
		char sub[PATH_MAX];
		struct sgf_file_header h;
		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= sizeof sub ||
		    defs_header(sub, &h) < 0)
			continue;
		rc = proc_add(t, cap, sub, e->d_name, &h);
	}
	closedir(d);
	return rc;
}

/* The path of the first subdirectory of root named proc.<digits>..., else root itself. */
static char *first_proc_dir(const char *root)
{
	char path[PATH_MAX], best[256] = "";
	DIR *d = opendir(root);
	struct dirent *e;
	size_t plen = strlen(SGF_PROC_PREFIX);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, SGF_PROC_PREFIX, plen) && e->d_name[plen] >= '0' &&
		    e->d_name[plen] <= '9' && (!best[0] || strcmp(e->d_name, best) < 0))
			snprintf(best, sizeof best, "%s", e->d_name);
	if (d)
		closedir(d);
	if (!best[0] || (size_t)snprintf(path, sizeof path, "%s/%s", root, best) >= sizeof path)
		return strdup(root);
	return strdup(path);
}

static int proc_cmp(const void *a, const void *b)
{
	const struct sgr_process *x = a, *y = b;
	if (x->epoch_ns != y->epoch_ns)
		return x->epoch_ns < y->epoch_ns ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int traced_here(const struct sgr_trace *t, uint32_t pid)
{
	for (size_t i = 0; pid && i < t->n_procs; i++)
		if (t->procs[i].pid == pid)
			return 1;
	return 0;
}

int sgr_procs_find(struct sgr_trace *t, char *err, size_t errlen)
{
	size_t cap = 0;
	struct sgf_file_header h;
	int rc;
	(void)err;
	(void)errlen;
	if (defs_header(t->root, &h) == 0) {
		/* a process's own directory, and its format 1.1 children */
		if ((rc = proc_add(t, &cap, t->root, ".", &h)) < 0 ||
		    (rc = procs_scan(t, &cap, t->root, "fork.")) < 0)
			return rc;
		t->procs[0].read = 1;
		t->dir = strdup(t->root);
		return t->dir ? 0 : -ENOMEM;
	}
	if ((rc = procs_scan(t, &cap, t->root, SGF_PROC_PREFIX)) < 0)
		return rc;
	if (t->n_procs == 0) {
		/* not a trace, or one whose process directories are all damaged: sgr_defs_read
		 * says why, about the first of those, else about the directory given */
		t->dir = first_proc_dir(t->root);
		return t->dir ? 0 : -ENOMEM;
	}
	qsort(t->procs, t->n_procs, sizeof *t->procs, proc_cmp);
	size_t pick = 0;
	for (size_t i = 0; i < t->n_procs; i++)
		if (!traced_here(t, t->procs[i].parent_pid)) {
			pick = i;
			break;
		}
	t->procs[pick].read = 1;
	t->dir = strdup(t->procs[pick].dir);
	return t->dir ? 0 : -ENOMEM;
}

void sgr_procs_free(struct sgr_trace *t)
{
	for (size_t i = 0; i < t->n_procs; i++) {
		free((char *)t->procs[i].dir);
		free((char *)t->procs[i].name);
	}
	free(t->procs);
	t->procs = NULL;
	t->n_procs = 0;
}

const char *sgr_dir(const struct sgr_trace *t)
{
	return t->dir;
}

size_t sgr_n_processes(const struct sgr_trace *t)
{
	return t->n_procs;
}

const struct sgr_process *sgr_process(const struct sgr_trace *t, size_t i)
{
	return i < t->n_procs ? &t->procs[i] : NULL;
}

const struct sgr_sched *sgr_sched(const struct sgr_trace *t)
{
	return &t->sched;
}
