/*
 * cc_sidecar.c — the per-object summary `scalegraph cc` keeps beside each object it compiles,
 * `foo.o.sgsel`, for the tiny-helper rule across files (docs/instrumenter.md, "Across files"):
 * the non-static tiny functions the object defines that the default rule probed only because
 * no call of them in a loop was known (and which of them it left out because one was), the
 * functions it calls that it does not define, in a loop or from a directly recursive function,
 * and how to compile it again (source, directory, SG_CC, arguments, the source's mtime and
 * size). One small file per object, written to a temporary name and renamed into place, so
 * `make -j` needs no lock; a sidecar whose object is gone is ignored.
 *
 *   scalegraph-sidecar 1
 *   source helper.c
 *   cwd /home/me/prog
 *   stat 1732000000123456789 412
 *   cc gcc
 *   arg -O2
 *   arg -c
 *   arg helper.c
 *   def helper 3 0                  name, line, 1 when left out for a call in another file
 *   call helper loop 12 worker      name, loop|rec, line of the call, the function it is in
 *
 * Values run to the end of their line, with `\\` and `\n` escaped.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc_int.h"
#include "inst_int.h"

#define SIDECAR_MAGIC "scalegraph-sidecar 1"

static void put_escaped(FILE *f, const char *key, const char *v)
{
	fputs(key, f);
	fputc(' ', f);
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('\n', f);
}

int cc_side_write(const char *obj, const struct cc_side *s)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	if ((size_t)snprintf(path, sizeof path, "%s.sgsel", obj) >= sizeof path ||
	    (size_t)snprintf(tmp, sizeof tmp, "%s.sgsel.%ld.tmp", obj, (long)getpid()) >=
		    sizeof tmp)
		return -ENAMETOOLONG;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = -errno;
		close(fd);
		unlink(tmp);
		return e;
	}
	fprintf(f, "%s\n", SIDECAR_MAGIC);
	put_escaped(f, "source", s->source);
	put_escaped(f, "cwd", s->cwd);
	fprintf(f, "stat %lld %lld\n", s->mtime_ns, s->size);
	if (s->cc)
		put_escaped(f, "cc", s->cc);
	for (int i = 0; i < s->n_args; i++)
		put_escaped(f, "arg", s->args[i]);
	for (size_t k = 0; k < s->sum.n_defs; k++)
		fprintf(f, "def %s %u %d\n", s->sum.defs[k].name, s->sum.defs[k].line,
			s->sum.defs[k].ext);
	for (size_t k = 0; k < s->sum.n_calls; k++)
		fprintf(f, "call %s %s %u %s\n", s->sum.calls[k].name,
			s->sum.calls[k].rec ? "rec" : "loop", s->sum.calls[k].line,
			s->sum.calls[k].caller);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) != 0) {
		unlink(tmp);
		return -EIO;
	}
	return 0;
}

/* The value after "key ", unescaped, malloc'd; NULL when out of memory. */
static char *get_escaped(const char *v)
{
	char *d = malloc(strlen(v) + 1), *o = d;
	if (!d)
		return NULL;
	for (; *v; v++) {
		if (*v == '\\' && v[1]) {
			v++;
			*o++ = *v == 'n' ? '\n' : *v;
		} else {
			*o++ = *v;
		}
	}
	*o = '\0';
	return d;
}

void cc_side_free(struct cc_side *s)
{
	free(s->obj);
	free(s->source);
	free(s->cwd);
	free(s->cc);
	for (int i = 0; i < s->n_args; i++)
		free(s->args[i]);
	free(s->args);
	struct inst_result r = { .summary = s->sum }; /* frees the summary as a result would */
	inst_result_free(&r);
	memset(s, 0, sizeof *s);
}

/* One `def` or `call` line. Returns 0, -EINVAL or -ENOMEM. */
static int parse_entry(struct cc_side *s, char *line, size_t *cap_defs, size_t *cap_calls)
{
	char name[256], kind[8], caller[256];
	unsigned line_no;
	int ext;
	if (!strncmp(line, "def ", 4)) {
		if (sscanf(line + 4, "%255s %u %d", name, &line_no, &ext) != 3)
			return -EINVAL;
		if (inst_grow(&s->sum.defs, cap_defs, s->sum.n_defs, sizeof *s->sum.defs, 8))
			return -ENOMEM;
		struct inst_sum_def *d = &s->sum.defs[s->sum.n_defs];
		if (!(d->name = strdup(name)))
			return -ENOMEM;
		d->line = line_no;
		d->ext = ext != 0;
		s->sum.n_defs++;
		return 0;
	}
	if (sscanf(line + 5, "%255s %7s %u %255s", name, kind, &line_no, caller) != 4 ||
	    (strcmp(kind, "loop") && strcmp(kind, "rec")))
		return -EINVAL;
	if (inst_grow(&s->sum.calls, cap_calls, s->sum.n_calls, sizeof *s->sum.calls, 16))
		return -ENOMEM;
	struct inst_sum_call *c = &s->sum.calls[s->sum.n_calls++];
	memset(c, 0, sizeof *c);
	c->name = strdup(name);
	c->caller = strdup(caller);
	c->line = line_no;
	c->rec = !strcmp(kind, "rec");
	return c->name && c->caller ? 0 : -ENOMEM;
}

int cc_side_read(const char *obj, struct cc_side *s)
{
	char path[PATH_MAX], *text = NULL;
	size_t len, cap_defs = 0, cap_calls = 0, cap_args = 0;
	int rc;
	memset(s, 0, sizeof *s);
	if ((size_t)snprintf(path, sizeof path, "%s.sgsel", obj) >= sizeof path)
		return -ENAMETOOLONG;
	rc = inst_read_file(path, &text, &len);
	if (rc)
		return rc;
	rc = -EINVAL;
	if (strncmp(text, SIDECAR_MAGIC "\n", sizeof SIDECAR_MAGIC) ||
	    !(s->obj = strdup(obj)))
		goto out;
	char *save = NULL;
	for (char *l = strtok_r(text + sizeof SIDECAR_MAGIC, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char **dst = !strncmp(l, "source ", 7) ? &s->source : !strncmp(l, "cwd ", 4) ?
			     &s->cwd : !strncmp(l, "cc ", 3) ? &s->cc : NULL;
		int r = 0;
		if (dst) {
			free(*dst);
			r = (*dst = get_escaped(strchr(l, ' ') + 1)) ? 0 : -ENOMEM;
		} else if (!strncmp(l, "stat ", 5)) {
			r = sscanf(l + 5, "%lld %lld", &s->mtime_ns, &s->size) == 2 ? 0 : -EINVAL;
		} else if (!strncmp(l, "arg ", 4)) {
			if (inst_grow(&s->args, &cap_args, (size_t)s->n_args, sizeof *s->args, 16))
				r = -ENOMEM;
			else
				r = (s->args[s->n_args++] = get_escaped(l + 4)) ? 0 : -ENOMEM;
		} else if (!strncmp(l, "def ", 4) || !strncmp(l, "call ", 5)) {
			r = parse_entry(s, l, &cap_defs, &cap_calls);
		} /* other keywords: from a later version, ignored */
		if (r) {
			rc = r;
			goto out;
		}
	}
	rc = s->source && s->cwd ? 0 : -EINVAL;
out:
	free(text);
	if (rc)
		cc_side_free(s);
	return rc;
}

int cc_side_siblings(const char *dir, const char *self_obj, struct cc_side **out, size_t *n_out)
{
	DIR *d = opendir(dir);
	struct cc_side *v = NULL;
	size_t n = 0, cap = 0;
	const char *self = strrchr(self_obj, '/');
	self = self ? self + 1 : self_obj;
	*out = NULL;
	*n_out = 0;
	if (!d)
		return -errno;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char obj[PATH_MAX];
		struct stat st;
		if (l <= 6 || strcmp(e->d_name + l - 6, ".sgsel") ||
		    (!strncmp(e->d_name, self, l - 6) && self[l - 6] == '\0') ||
		    (size_t)snprintf(obj, sizeof obj, "%s/%.*s", dir, (int)(l - 6), e->d_name) >=
			    sizeof obj ||
		    stat(obj, &st) != 0) /* its object is gone: left over */
			continue;
		if (inst_grow(&v, &cap, n, sizeof *v, 16))
			break;
		if (cc_side_read(obj, &v[n]) == 0)
			n++;
	}
	closedir(d);
	*out = v;
	*n_out = n;
	return 0;
}
