/*
 * export_locate.c — where the trace of a RUN argument lies. `scalegraph run` starts each run
 * with SG_TRACE_DIR=<experiment>/runs/<id>/trace (collector/runner.c), so a run directory holds
 * its trace in trace/; a program traced by hand writes a bare trace directory (sgtrace.<pid>/
 * or SG_TRACE_DIR) with defs.sgd at its top. Both are accepted (docs/export.md).
 */
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
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
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
	if (has_defs(run)) {
		if (snprintf(dir, len, "%s", run) >= (int)len)
			rc = -ENAMETOOLONG;
		goto out;
	}
	if (snprintf(dir, len, "%s/trace", run) >= (int)len) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	if (!has_defs(dir)) {
		rc = -ENODATA;
		snprintf(err, errlen, "%s: no trace here (neither %s nor trace/%s; was the run "
			 "recorded with tracing on?)", run, SGF_DEFS_NAME, SGF_DEFS_NAME);
	}
out:
	if (rc == -ENAMETOOLONG)
		snprintf(err, errlen, "%s: path too long", run);
	return rc;
}
