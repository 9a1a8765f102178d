/*
 * export_locate.c — where the trace of a RUN argument lies. `scalegraph run` starts each run
 * with SG_TRACE_DIR=<experiment>/runs/<id>/trace (collector/runner.c), so a run directory holds
 * its trace in trace/; a program traced by hand writes a bare trace directory (sgtrace-<program>-<time>-<pid>/)
 * with defs.sgd at its top, or, with SG_TRACE_DIR (format 1.2), a trace root holding one
 * proc.<pid>/ directory per process, of which the reader opens the main one. All are accepted
 * (docs/export.md).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "export.h"

static int has_defs(const char *dir)
{
	char path[4096];
	struct stat sb;
	if (snprintf(path, sizeof path, "%s/%s", dir, SGF_DEFS_NAME) >= (int)sizeof path)
		return 0;
	/* any defs.sgd, even a FIFO or a directory: the reader then says what is wrong with it */
	return lstat(path, &sb) == 0;
}

/* A process's trace directory, or a trace root with a proc.<pid>/ that is one. */
static int is_trace(const char *dir)
{
	if (has_defs(dir))
		return 1;
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;
	size_t plen = strlen(SGF_PROC_PREFIX);
	while (d && !found && (e = readdir(d))) {
		char sub[4096];
		if (strncmp(e->d_name, SGF_PROC_PREFIX, plen) || e->d_name[plen] < '0' ||
		    e->d_name[plen] > '9')
			continue;
		found = snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) < (int)sizeof sub &&
			has_defs(sub);
	}
	if (d)
		closedir(d);
	return found;
}

int export_locate(const char *run, char *dir, size_t len, char *err, size_t errlen)
{
	struct stat sb;
	int rc = 0;
	if (stat(run, &sb) < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s (expected a run directory or a trace directory)", run,
			 strerror(errno));
		if (rc == -ENOTDIR)
			rc = -ENOENT;
		goto out;
	}
	if (!S_ISDIR(sb.st_mode)) {
		rc = -ENODATA;
		snprintf(err, errlen, "%s: not a directory (expected a run directory or a trace "
			 "directory)", run);
		goto out;
	}
	if (is_trace(run)) {
		if (snprintf(dir, len, "%s", run) >= (int)len)
			rc = -ENAMETOOLONG;
		goto out;
	}
	if (snprintf(dir, len, "%s/trace", run) >= (int)len) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	if (!is_trace(dir)) {
		rc = -ENODATA;
		snprintf(err, errlen, "%s: no trace here (neither %s, %s<pid>/ nor the same in "
			 "trace/; was the run recorded with tracing on?)", run, SGF_DEFS_NAME,
			 SGF_PROC_PREFIX);
	}
out:
	if (rc == -ENAMETOOLONG)
		snprintf(err, errlen, "%s: path too long", run);
	return rc;
}
