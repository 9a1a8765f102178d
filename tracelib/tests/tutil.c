/*
 * tutil.c — helpers shared by the tracelib tests (tutil.h).
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tutil.h"

void tu_tmpdir(char *out, size_t len, const char *tag)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(out, len, "%s/sgtest.%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
	if (!mkdtemp(out)) {
		perror("mkdtemp");
		abort();
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void tu_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int tu_fixture_setup(void **state, const char *tag)
{
	struct tu_fixture *f = calloc(1, sizeof *f);
	if (!f)
		abort();
	tu_tmpdir(f->dir, sizeof f->dir, tag);
	snprintf(f->trace, sizeof f->trace, "%s/trace", f->dir);
	*state = f;
	return 0;
}

int tu_fixture_teardown(void **state)
{
	struct tu_fixture *f = *state;
	tu_rm_rf(f->dir);
	free(f);
	return 0;
}

struct sgr_trace *tu_open_ok(const char *dir)
{
	struct sgr_trace *t = NULL;
	char err[512] = "";
	if (sgr_open(dir, 0, &t, err, sizeof err) < 0)
		fail_msg("sgr_open: %s", err);
	return t;
}

void tu_proc_dir(const char *root, char *out, size_t len)
{
	struct sgr_trace *t = tu_open_ok(root);
	snprintf(out, len, "%s", sgr_dir(t));
	sgr_close(t);
}

int tu_problem_live(const char *problem)
{
	/* ... and what its open buffers hold, read back as after a kill (sgr_status.c) */
	return strstr(problem, "thread.0.sgs: no trailer") || strstr(problem, "sched.sgs: no trailer") ||
	       ((strstr(problem, "thread.0.sgs: ") || strstr(problem, "sched.sgs: ")) &&
		strstr(problem, " events recovered from an unsealed chunk (killed writer)"));
}

void tu_reexec_traced(int argc, char **argv, const char *tag, const char *own_trace)
{
	(void)argc;
	if (getenv("SG_TRACE_DIR"))
		return;
	char dir[PATH_MAX - 16], trace[PATH_MAX];
	tu_tmpdir(dir, sizeof dir, tag);
	snprintf(trace, sizeof trace, "%s/trace", dir);
	setenv("SG_TRACE_DIR", trace, 1);
	/* exec abandons the trace this process began before main (its directory proc.<pid>/ in
	 * the default root ./sgtrace.<pid>/): remove the root rather than leave it behind in the
	 * caller's directory */
	if (own_trace) {
		char root[PATH_MAX];
		snprintf(root, sizeof root, "%s", own_trace);
		char *slash = strrchr(root, '/');
		if (slash && !strncmp(slash + 1, "proc.", 5))
			*slash = '\0';
		tu_rm_rf(root);
	}
	execv("/proc/self/exe", argv);
	perror("execv");
	abort();
}

void tu_reexec_cleanup(const char *tag)
{
	char parent[PATH_MAX], mark[64];
	const char *dir = getenv("SG_TRACE_DIR");
	snprintf(parent, sizeof parent, "%s", dir ? dir : "");
	snprintf(mark, sizeof mark, "sgtest.%s.", tag);
	char *slash = strrchr(parent, '/');
	if (slash && strstr(parent, mark)) {
		*slash = '\0';
		tu_rm_rf(parent);
	}
}

void tu_helper_path(char *out, size_t len, const char *name)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0) {
		perror("readlink");
		abort();
	}
	self[n] = '\0';
	char *slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(out, len, "%s/%s", self, name);
}

size_t tu_events(struct sgr_trace *t, size_t pos, int user_only, struct sgr_event **out)
{
	size_t n = 0, cap = 1024;
	struct sgr_event *evs = malloc(cap * sizeof *evs);
	struct sgr_iter it;
	struct sgr_event e;
	sgr_iter_init(&it, t, pos);
	while (sgr_iter_next(&it, &e)) {
		if (user_only && e.kind == SG_EV_COUNTER) {
			const struct sgr_counter *c = sgr_counter(t, e.id);
			if (!c || c->origin != SG_COUNTER_USER)
				continue;
		}
		if (n == cap) {
			cap *= 2;
			evs = realloc(evs, cap * sizeof *evs);
		}
		evs[n++] = e;
	}
	*out = evs;
	return n;
}

long tu_thread_with_region(struct sgr_trace *t, const char *region)
{
	for (size_t pos = 0; pos < sgr_n_threads(t); pos++) {
		struct sgr_iter it;
		struct sgr_event e;
		sgr_iter_init(&it, t, pos);
		while (sgr_iter_next(&it, &e)) {
			if (e.kind != SG_EV_REGION_BEGIN)
				continue;
			const struct sgr_region *r = sgr_region(t, e.id);
			if (r && !strcmp(r->name, region))
				return (long)pos;
			break;
		}
	}
	return -1;
}

size_t tu_count(const struct sgr_event *evs, size_t n, enum sg_ev_kind k)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += evs[i].kind == k;
	return c;
}
