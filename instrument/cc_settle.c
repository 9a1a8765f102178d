/*
 * cc_settle.c — the tiny-helper rule across the files of a program. The default rule leaves
 * out a tiny function called in a loop or from a recursive function (inst_select.c); a file
 * alone sees only its own callers, so SPLASH-3 WATER-SPATIAL's CSHIFT (cshift.c, called in
 * loops of interf.c and poteng.c) was probed, 14.7 M calls per run. Each compilation leaves a
 * sidecar beside its object (cc_sidecar.c): its tiny candidates and its calls of other files'
 * functions in loops or from recursive functions. A compilation uses what the sidecars beside
 * its object already say and what the other sources of its own command say; the link, which
 * sees every object, settles the rest: an object compiled without knowing a caller elsewhere
 * (compiled before it, or in another directory), or knowing one this program does not have, is
 * compiled again from the command its sidecar recorded into a private object for this link, so
 * the order of compilation never changes what the program records (docs/instrumenter.md,
 * "Across files").
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_int.h"
#include "inst_int.h"

int cc_ext_add(struct cc_ext *e, const struct inst_summary *s, const char *file)
{
	for (size_t k = 0; k < s->n_calls; k++) {
		if (inst_grow(&e->v, &e->cap, e->n, sizeof *e->v, 32))
			return -ENOMEM;
		const struct inst_sum_call *c = &s->calls[k];
		e->v[e->n++] = (struct inst_ext_call){ c->name, file, c->caller, c->line, c->rec };
	}
	return 0;
}

int cc_ext_match(const struct cc_ext *e, const struct inst_summary *s, struct cc_ext *out)
{
	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < e->n; k++)
		for (size_t d = 0; d < s->n_defs; d++) {
			if (strcmp(e->v[k].name, s->defs[d].name))
				continue;
			if (inst_grow(&out->v, &out->cap, out->n, sizeof *out->v, 8))
				return -ENOMEM;
			out->v[out->n++] = e->v[k];
			break;
		}
	return 0;
}

int cc_ext_parse(const char *const *specs, int n, char **buf, struct cc_ext *out)
{
	size_t total = 0;
	memset(out, 0, sizeof *out);
	*buf = NULL;
	for (int i = 0; i < n; i++)
		total += strlen(specs[i]) + 1;
	char *b = malloc(total + 1), *p = b;
	if (!b)
		return -ENOMEM;
	*buf = b;
	for (int i = 0; i < n; i++) {
		/* NAME,loop|rec,LINE,CALLER,FILE (the file last: it may hold commas) */
		char *f[5];
		strcpy(p, specs[i]);
		f[0] = p;
		p += strlen(p) + 1;
		for (int k = 1; k < 5; k++) {
			char *c = strchr(f[k - 1], ',');
			if (!c)
				return -EINVAL;
			*c = '\0';
			f[k] = c + 1;
		}
		if (strcmp(f[1], "loop") && strcmp(f[1], "rec"))
			return -EINVAL;
		if (inst_grow(&out->v, &out->cap, out->n, sizeof *out->v, 8))
			return -ENOMEM;
		out->v[out->n++] = (struct inst_ext_call){ f[0], f[4], f[3],
							   (uint32_t)strtoul(f[2], NULL, 10),
							   (uint8_t)!strcmp(f[1], "rec") };
	}
	return 0;
}

int cc_side_unsettled(const struct cc_side *s, const struct cc_ext *m)
{
	for (size_t d = 0; d < s->sum.n_defs; d++) {
		int want = 0;
		for (size_t k = 0; k < m->n && !want; k++)
			want = !strcmp(m->v[k].name, s->sum.defs[d].name);
		if (want != s->sum.defs[d].ext)
			return 1;
	}
	return 0;
}

/* Is this recorded argument (with the one after it when `*skip_next`) left out of a
 * recompile? Its output and dependency file are the link's business, not the object's. */
static int recompile_drops(const char *s, int *skip_next)
{
	static const char *const with_next[] = { "-o", "-MF", "-MT", "-MQ" };
	static const char *const alone[] = { "-MD", "-MMD", "-MP" };
	*skip_next = 0;
	for (size_t k = 0; k < sizeof with_next / sizeof *with_next; k++)
		if (!strcmp(s, with_next[k]))
			return *skip_next = 1;
	for (size_t k = 0; k < sizeof alone / sizeof *alone; k++)
		if (!strcmp(s, alone[k]))
			return 1;
	return !strncmp(s, "-o", 2) || !strncmp(s, "-MF", 3) || !strncmp(s, "-MT", 3) ||
	       !strncmp(s, "-MQ", 3) || (!strncmp(s, "-Wp,", 4) && strstr(s, ",-M"));
}

int cc_side_recompile(const struct cc_side *s, const struct cc_ext *m, const char *out_obj,
		      int explain)
{
	char src[PATH_MAX], self[PATH_MAX];
	struct stat st;
	if ((size_t)snprintf(src, sizeof src, "%s%s%s", s->source[0] == '/' ? "" : s->cwd,
			     s->source[0] == '/' ? "" : "/", s->source) >= sizeof src)
		return -ENAMETOOLONG;
	if (stat(src, &st) != 0 || st.st_size != s->size ||
	    (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec != s->mtime_ns)
		return -ESTALE; /* changed since the object was made: not this object's code */
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	char **argv = calloc((size_t)s->n_args + 2 * m->n + 8, sizeof *argv);
	char **specs = calloc(m->n + 1, sizeof *specs);
	int k = 0, rc = 0, skip;
	if (!argv || !specs) {
		rc = -ENOMEM;
		goto out;
	}
	argv[k++] = self;
	for (int i = 0; i < s->n_args; i++) {
		if (!strcmp(s->args[i], "--filter") && i + 1 < s->n_args) {
			argv[k++] = s->args[i++]; /* the filter file, whatever its name */
			argv[k++] = s->args[i];
		} else if (!recompile_drops(s->args[i], &skip)) {
			argv[k++] = s->args[i];
		} else if (skip) {
			i++;
		}
	}
	argv[k++] = "-o";
	argv[k++] = (char *)out_obj;
	argv[k++] = "--sg-no-sidecar";
	argv[k++] = "--sg-no-siblings";
	if (explain)
		argv[k++] = "--sg-explain";
	for (size_t c = 0; c < m->n; c++) {
		const struct inst_ext_call *x = &m->v[c];
		if (asprintf(&specs[c], "%s,%s,%u,%s,%s", x->name, x->rec ? "rec" : "loop", x->line,
			     x->caller, x->file) < 0) {
			specs[c] = NULL;
			rc = -ENOMEM;
			goto out;
		}
		argv[k++] = "--sg-ext-call";
		argv[k++] = specs[c];
	}
	argv[k] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (pid == 0) {
		if (chdir(s->cwd) != 0)
			_exit(127);
		if (s->cc)
			setenv("SG_CC", s->cc, 1);
		else
			unsetenv("SG_CC");
		execv(self, argv);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			rc = -errno;
			goto out;
		}
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
out:
	if (specs)
		for (size_t c = 0; c < m->n; c++)
			free(specs[c]);
	free(specs);
	free(argv);
	return rc;
}
