/*
 * inst_cpp.c — asks the build's own preprocessor which lines of a file it compiles. The
 * instrumenter reads unpreprocessed C and cannot evaluate `#ifdef WIN32` itself; the compiler
 * can, with the build's -D/-U/-I flags. `$CC <flags> -E file` (without -P) writes line markers,
 * `# 12 "file.c" flags`, before each stretch of output; every later output line is the next
 * line of that file. A line of the file being instrumented that comes out not blank is
 * compiled (inst_live.c turns that into the #if groups to read). `scalegraph cc` runs this only
 * when the file's conditional code changes the instrumentation (inst_result.cond_matters), so
 * a file with none costs no second preprocessor run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inst_int.h"

int inst_has_line_directive(const char *src, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && (src[j] == ' ' || src[j] == '\t'))
			j++;
		if (j < len && src[j] == '#') {
			for (j++; j < len && (src[j] == ' ' || src[j] == '\t'); j++)
				;
			int digit = j < len && src[j] >= '0' && src[j] <= '9';
			int line = j + 4 <= len && !memcmp(src + j, "line", 4) &&
				   (j + 4 == len || !inst_is_idch((unsigned char)src[j + 4]));
			if (digit || line)
				return 1;
		}
		const char *nl = memchr(src + j, '\n', len - j);
		if (!nl)
			break;
		i = (size_t)(nl - src) + 1;
	}
	return 0;
}

void inst_lines_free(struct inst_lines *l)
{
	free(l->seen);
	memset(l, 0, sizeof *l);
}

/* The file name of a line marker, unescaped in place (the preprocessor writes `\\`, `\"` and
 * octal escapes); `p` points after the opening quote. Returns NULL when malformed. */
static char *marker_name(char *p)
{
	char *o = p, *q = p;
	for (; *q && *q != '"'; q++) {
		if (*q != '\\' || !q[1]) {
			*o++ = *q;
		} else if (q[1] >= '0' && q[1] <= '7') {
			int c = 0, k;
			for (k = 1; k <= 3 && q[k] >= '0' && q[k] <= '7'; k++)
				c = c * 8 + (q[k] - '0');
			*o++ = (char)c;
			q += k - 1;
		} else {
			*o++ = *++q;
		}
	}
	if (*q != '"')
		return NULL;
	*o = '\0';
	return p;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* The file a marker names is the one being instrumented: the same name, or (a self-inclusion
 * spelt another way) the same base name and the same inode. */
struct self {
	const char *path;
	struct stat st;
	int have_st;
	char *last;        /* the last name asked about, and the answer */
	int last_is;
};

static int is_self(struct self *s, const char *name)
{
	if (!strcmp(name, s->path))
		return 1;
	if (s->last && !strcmp(name, s->last))
		return s->last_is;
	struct stat st;
	int is = s->have_st && !strcmp(base_name(name), base_name(s->path)) &&
		 stat(name, &st) == 0 && st.st_dev == s->st.st_dev && st.st_ino == s->st.st_ino;
	free(s->last);
	s->last = strdup(name);
	s->last_is = is;
	return is;
}

/* Reads the preprocessed text: marks the lines of `self` that come out not blank. */
static int read_markers(FILE *in, struct self *self, struct inst_lines *l, size_t *n_seen)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long cur = 0;
	int in_self = 0;
	while ((n = getline(&line, &cap, in)) > 0) {
		char *p = line;
		if (p[0] == '#') {
			char *q = p + 1;
			while (*q == ' ' || *q == '\t')
				q++;
			if (!strncmp(q, "line", 4) && (q[4] == ' ' || q[4] == '\t'))
				for (q += 4; *q == ' ' || *q == '\t';)
					q++;
			if (*q >= '0' && *q <= '9') {
				char *e;
				unsigned long ln = strtoul(q, &e, 10);
				while (*e == ' ' || *e == '\t')
					e++;
				char *name = *e == '"' ? marker_name(e + 1) : NULL;
				cur = ln;
				if (name) /* `# 12` with no name: the same file */
					in_self = is_self(self, name);
				continue;
			}
		}
		if (in_self && cur < l->n_lines && !l->seen[cur]) {
			size_t k = 0;
			while (k < (size_t)n && (p[k] == ' ' || p[k] == '\t' || p[k] == '\n' ||
						 p[k] == '\r' || p[k] == '\f' || p[k] == '\v'))
				k++;
			if (k < (size_t)n) {
				l->seen[cur] = 1;
				(*n_seen)++;
			}
		}
		cur++;
	}
	free(line);
	return ferror(in) ? -EIO : 0;
}

int inst_cpp_lines(char *const argv[], const char *path, const char *src, size_t len,
		   struct inst_lines *out)
{
	struct self self = { .path = path };
	struct inst_lines l = { 0 };
	size_t n_seen = 0;
	int fd[2] = { -1, -1 }, rc = 0, st;
	pid_t pid = -1;
	FILE *in = NULL;
	memset(out, 0, sizeof *out);
	if (inst_has_line_directive(src, len))
		return -EPROTO; /* its markers would number another file's lines */
	l.n_lines = 2;
	for (const char *p = src; (p = memchr(p, '\n', len - (size_t)(p - src))); p++)
		l.n_lines++;
	l.seen = calloc(l.n_lines, 1);
	if (!l.seen)
		return -ENOMEM;
	self.have_st = stat(path, &self.st) == 0;
	if (pipe2(fd, O_CLOEXEC) < 0) {
		rc = -errno;
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(fd[1], 1) < 0 || dup2(null, 0) < 0 || dup2(null, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	fd[1] = -1;
	in = fdopen(fd[0], "r");
	if (!in) {
		rc = -errno;
		goto out;
	}
	fd[0] = -1;
	rc = read_markers(in, &self, &l, &n_seen);
out:
	if (in)
		fclose(in);
	if (fd[0] >= 0)
		close(fd[0]);
	if (fd[1] >= 0)
		close(fd[1]);
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR) {
				st = -1;
				break;
			}
		if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			rc = -EPROTO; /* failed (a missing header ...): what it wrote is partial */
	}
	if (!rc && n_seen == 0)
		rc = -EPROTO;
	free(self.last);
	if (rc)
		inst_lines_free(&l);
	else
		*out = l;
	return rc;
}

/* Copies a memstream's text to `to` (stderr when NULL). */
static void flush_to(FILE *to, const char *text, size_t len)
{
	if (len)
		fwrite(text, 1, len, to ? to : stderr);
}

int inst_file_cpp(const char *src, size_t len, const char *file_name, char *const cpp_argv[],
		  const char *path, const struct inst_options *opt, struct inst_result *res,
		  int *cpp)
{
	struct inst_options o = *opt;
	char *dtext = NULL, *etext = NULL;
	size_t dlen = 0, elen = 0;
	FILE *dmem = NULL, *emem = NULL;
	struct inst_lines lines = { 0 };
	int rc, used = 0;
	if (cpp)
		*cpp = 0;
	if (!cpp_argv)
		return inst_file(src, len, file_name, opt, res);
	/* the first attempt's messages wait until it is known to be the one kept */
	if (!(dmem = open_memstream(&dtext, &dlen)) ||
	    (opt->explain && !(emem = open_memstream(&etext, &elen)))) {
		rc = -ENOMEM;
		goto out;
	}
	o.diag = dmem;
	o.explain = emem;
	rc = inst_file(src, len, file_name, &o, res);
	if (rc || !res->cond_matters)
		goto out;
	int r = inst_cpp_lines(cpp_argv, path, src, len, &lines);
	if (cpp)
		*cpp = r ? -1 : 1;
	if (r == -ENOMEM) {
		rc = r;
		goto out;
	}
	if (r)
		goto out;
	struct inst_result again;
	o = *opt;
	o.compiled = &lines;
	rc = inst_file(src, len, file_name, &o, &again);
	if (rc)
		goto out;
	inst_result_free(res);
	*res = again;
	used = 1;
out:
	if (dmem)
		fclose(dmem);
	if (emem)
		fclose(emem);
	if (!used && !rc) {
		flush_to(opt->diag, dtext, dlen);
		flush_to(opt->explain, etext, elen);
	}
	free(dtext);
	free(etext);
	inst_lines_free(&lines);
	return rc;
}
