/*
 * calib_record.c — the cost of one trace record, for the analyzer's "tracing cost" estimate
 * (issue 14: the report never said how much of what it shows is its own cost). It runs the
 * helper sg-calib-probe (calib_probe.c, beside this program in libexec) twice, each time with
 * a trace going to a temporary directory that is removed afterwards:
 *   record_ns           SG_THROTTLE=0: every probe recorded; (probed - plain) / 2 per event
 *                       (a call writes an enter and an exit);
 *   unrecorded_call_ns  SG_THROTTLE=1000,1000000: all but the first 1,000 calls are throttled
 *                       (counted, not recorded); probed - plain per call. Before the library
 *                       throttles, this is the cost of a recorded call (2 records).
 * The helper's environment is fixed so that the user's does not change the figure: tracing on,
 * no trace budget, default buffer and clock, no counters and no scheduler records (neither is
 * per event).
 */
#include "calib.h"
#include "fsutil.h"

#include "../cli/exe_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE_NAME "sg-calib-probe"
#define PROBE_CALLS "100000"
#define PROBE_ROUNDS "7"

/* The helper beside this program (libexec/scalegraph/), or -errno (-ENOENT: not there). */
static int probe_path(char *out, size_t len)
{
	int rc = exe_path_join(NULL, PROBE_NAME, out, len);
	if (rc < 0)
		return rc;
	return access(out, X_OK) == 0 ? 0 : -ENOENT;
}

/* Runs the helper once with SG_THROTTLE=`throttle`; fills plain and probe (ns per call).
 * Returns 0, or -1 with the reason in `why`. */
static int probe_run(const char *prog, const char *tmp, const char *tag, const char *throttle,
		     double *plain, double *probe, char *why, size_t why_len)
{
	char trace[PATH_MAX + 32], errpath[PATH_MAX + 32], out[512] = "", err[256] = "";
	int pfd[2], status = 0;
	snprintf(trace, sizeof trace, "%s/trace-%s", tmp, tag);
	snprintf(errpath, sizeof errpath, "%s/stderr-%s", tmp, tag);
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		static const char *const unset[] = { "SG_TRACE_ROOT", "SG_TRACE_PARENT",
			"SG_TRACE_BUFFER", "SG_TRACE_CLOCK", "SG_COUNTERS_BARRIER", "SG_VERBOSE" };
		for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++)
			unsetenv(unset[i]);
		setenv("SG_TRACE", "1", 1);
		setenv("SG_TRACE_DIR", trace, 1);
		setenv("SG_THROTTLE", throttle, 1);
		setenv("SG_TRACE_MAX", "0", 1);
		setenv("SG_EVENTS", "none", 1);
		setenv("SG_SCHED", "0", 1);
		int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (dup2(pfd[1], 1) < 0 || efd < 0 || dup2(efd, 2) < 0)
			_exit(127);
		execl(prog, PROBE_NAME, PROBE_CALLS, PROBE_ROUNDS, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		snprintf(why, why_len, "fork: %s", strerror(errno));
		return -1;
	}
	size_t used = 0;
	for (;;) {
		ssize_t n = read(pfd[0], out + used, sizeof out - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (used == sizeof out - 1)
			break;
	}
	out[used] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	FILE *f = fopen(errpath, "re");
	if (f) {
		if (!fgets(err, sizeof err, f))
			err[0] = '\0';
		err[strcspn(err, "\n")] = '\0';
		fclose(f);
	}
	int active = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, why_len, "%s %s: %s", PROBE_NAME, WIFEXITED(status) ? "failed"
			 : "was killed", err[0] ? err : "no message");
		return -1;
	}
	if (sscanf(out, "plain_ns %lf probe_ns %lf active %d", plain, probe, &active) != 3) {
		snprintf(why, why_len, "%s printed no figures%s%s", PROBE_NAME, err[0] ? ": " : "",
			 err);
		return -1;
	}
	if (!active) {
		snprintf(why, why_len, "tracing was off in %s%s%s", PROBE_NAME, err[0] ? ": " : "",
			 err);
		return -1;
	}
	return 0;
}

void calib_record_cost(struct calib *c)
{
	char prog[PATH_MAX], tmp[PATH_MAX];
	const char *td = getenv("TMPDIR");
	double plain, probe, plain2, probe2;
	c->record_ns = c->unrecorded_call_ns = -1;
	c->record_why[0] = '\0';
	int rc = probe_path(prog, sizeof prog);
	if (rc < 0) {
		snprintf(c->record_why, sizeof c->record_why, "%s not found beside scalegraph-calibrate "
			 "(%s)", PROBE_NAME, strerror(-rc));
		return;
	}
	if ((size_t)snprintf(tmp, sizeof tmp, "%s/sg-calib.XXXXXX", td && *td ? td : "/tmp") >=
	    sizeof tmp || !mkdtemp(tmp)) {
		snprintf(c->record_why, sizeof c->record_why, "cannot create a temporary directory "
			 "in %s: %s", td && *td ? td : "/tmp", strerror(errno));
		return;
	}
	if (probe_run(prog, tmp, "recorded", "0", &plain, &probe, c->record_why,
		      sizeof c->record_why) == 0 &&
	    probe_run(prog, tmp, "throttled", "1000,1000000", &plain2, &probe2, c->record_why,
		      sizeof c->record_why) == 0) {
		/* a difference below the noise is no negative cost */
		c->record_ns = probe > plain ? (probe - plain) / 2 : 0;
		c->unrecorded_call_ns = probe2 > plain2 ? probe2 - plain2 : 0;
	}
	fs_remove_tree(tmp);
}
