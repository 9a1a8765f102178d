/*
 * spec.c — parser of experiment specs (the format is documented in docs/spec-format.md).
 * Line oriented: each line is a keyword and its words; `#` at the start of a word begins a
 * comment. Every error names file:line:col. The spec keeps expressions as text; spec_sizes()
 * evaluates them for a method at a given N or scale.
 */
#include "spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "expr.h"

#define LINE_WORDS 80
#define CMDLINE_PATH "<command line>"   /* spec.path of a series given by flags alone */

struct word {
	char *text;   /* unquoted, points into the line copy */
	int col;      /* 1-based */
};

struct spec_parser {
	struct spec *s;
	const char *path;
	int line;
	char *err;
	size_t err_len;
};

static int perr(struct spec_parser *p, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(struct spec_parser *p, int col, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* what came from the command line has no file:line to name (it said "<command line>:0:") */
	if (p->line == 0 || !strcmp(p->path, CMDLINE_PATH))
		snprintf(p->err, p->err_len, "scalegraph run: error: %s", msg);
	else
		snprintf(p->err, p->err_len, "%s:%d:%d: error: %s", p->path, p->line, col, msg);
	return -EINVAL;
}

void spec_init(struct spec *s)
{
	memset(s, 0, sizeof *s);
	s->repeat = 1;
	s->plain_repeat = 1;
	s->timeout_s = 600;
	snprintf(s->path, sizeof s->path, CMDLINE_PATH);
}

static void cmd_free(struct spec_cmd *c)
{
	for (int i = 0; i < c->argc; i++)
		free(c->argv[i]);
	c->argc = 0;
}

void spec_free(struct spec *s)
{
	cmd_free(&s->program);
	cmd_free(&s->sequential);
	cmd_free(&s->plain);
	free(s->text);
	s->text = NULL;
}

const char *spec_model_name(enum spec_model_kind kind)
{
	switch (kind) {
	case SPEC_MEMORY_BOUND: return "memory-bound";
	case SPEC_TIME_BOUND: return "time-bound";
	case SPEC_E_CONSERVED: return "e-conserved";
	}
	return "?";
}

static int is_name(const char *w)
{
	if (!isalpha((unsigned char)*w) && *w != '_')
		return 0;
	for (w++; *w; w++)
		if (!isalnum((unsigned char)*w) && *w != '_')
			return 0;
	return 1;
}

static int find_param(const struct spec *s, const char *name, size_t len)
{
	for (int i = 0; i < s->n_params; i++)
		if (strlen(s->param[i].name) == len && !strncmp(s->param[i].name, name, len))
			return i;
	return -1;
}

static int find_method(const struct spec *s, const char *name)
{
	for (int i = 0; i < s->n_methods; i++)
		if (!strcmp(s->method[i].name, name))
			return i;
	return -1;
}

/* Strict number: the whole word. */
static int parse_number(const char *w, double *v)
{
	char *end;
	if (!*w || isspace((unsigned char)*w))
		return -EINVAL;
	errno = 0;
	*v = strtod(w, &end);
	if (errno || *end || !isfinite(*v) || end == w)
		return -EINVAL;
	return 0;
}

static int parse_int(const char *w, long lo, long hi, long *v)
{
	char *end;
	if (!isdigit((unsigned char)*w))
		return -EINVAL;
	errno = 0;
	*v = strtol(w, &end, 10);
	if (errno || *end || *v < lo || *v > hi)
		return -EINVAL;
	return 0;
}

int spec_parse_duration(const char *text, double *seconds)
{
	char *end;
	if (!isdigit((unsigned char)*text) && *text != '.')
		return -EINVAL;
	errno = 0;
	double v = strtod(text, &end);
	if (errno || end == text || !isfinite(v))
		return -EINVAL;
	if (!strcmp(end, "") || !strcmp(end, "s"))
		;
	else if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		v *= 60;
	else if (!strcmp(end, "h"))
		v *= 3600;
	else
		return -EINVAL;
	if (v <= 0)
		return -EINVAL;
	*seconds = v;
	return 0;
}

/* Splits a line into words: blanks separate, '...' and "..." group (no escapes), a word that
 * starts with '#' begins a comment. Unquotes in place. */
static int split_words(struct spec_parser *p, char *line, struct word *w, int *n_words)
{
	int n = 0;
	char *r = line;
	while (*r) {
		while (*r == ' ' || *r == '\t' || *r == '\r')
			r++;
		if (!*r || *r == '#')
			break;
		if (n == LINE_WORDS)
			return perr(p, (int)(r - line) + 1, "too many words on one line (at most %d)",
				    LINE_WORDS);
		w[n].col = (int)(r - line) + 1;
		char *out = r;
		w[n].text = out;
		while (*r && *r != ' ' && *r != '\t' && *r != '\r') {
			if (*r == '\'' || *r == '"') {
				char q = *r;
				int qcol = (int)(r - line) + 1;
				r++;
				while (*r && *r != q)
					*out++ = *r++;
				if (!*r)
					return perr(p, qcol, "unterminated %s quote",
						    q == '"' ? "double" : "single");
				r++;
			} else {
				*out++ = *r++;
			}
		}
		char *next = *r ? r + 1 : r;
		*out = '\0';
		r = next;
		n++;
	}
	*n_words = n;
	return 0;
}

static int set_cmd(struct spec_parser *p, struct spec_cmd *c, const char *kw, struct word *w, int n)
{
	if (c->argc)
		return perr(p, w[0].col, "duplicate '%s' line", kw);
	if (n < 2)
		return perr(p, w[0].col + (int)strlen(kw), "'%s' needs a command", kw);
	if (n - 1 > SPEC_MAX_ARGS)
		return perr(p, w[SPEC_MAX_ARGS + 1].col, "command has more than %d words", SPEC_MAX_ARGS);
	for (int i = 1; i < n; i++) {
		c->argv[c->argc] = strdup(w[i].text);
		if (!c->argv[c->argc])
			return -ENOMEM;
		c->col[c->argc++] = w[i].col;
	}
	c->line = p->line;
	return 0;
}

struct eval_ctx {
	const struct spec *s;
	double n;            /* value of N; NAN: N not allowed */
	const double *sizes; /* values of the parameters, NULL: base values */
};

static int eval_lookup(void *vctx, const char *name, size_t len, double *v)
{
	struct eval_ctx *c = vctx;
	if (len == 1 && name[0] == 'N' && !isnan(c->n)) {
		*v = c->n;
		return 0;
	}
	int i = find_param(c->s, name, len);
	if (i < 0)
		return -ENOENT;
	*v = c->sizes ? c->sizes[i] : c->s->param[i].base;
	return 0;
}

/* Checks an expression's syntax, names and functions' argument counts (evaluated at N = 1.5
 * and the base values). A domain error (-EDOM: log2(N-2), a division by N-1) is no error here:
 * whether the formula is defined depends on the values, and spec_check_eval tries it at each
 * thread count before anything runs. */
static int check_expr(struct spec_parser *p, const char *text, int col, int allow_n)
{
	char msg[200];
	size_t off = 0;
	double v;
	struct eval_ctx ctx = { p->s, allow_n ? 1.5 : NAN, NULL };
	if (!*text)
		return perr(p, col, "empty expression");
	int rc = expr_eval(text, eval_lookup, &ctx, &v, msg, sizeof msg, &off);
	if (rc < 0 && rc != -EDOM)
		return perr(p, col + (int)off, "%s", msg);
	return 0;
}

/* param -> 'param' NAME VALUE [ 'bytes' B ] */
static int kw_param(struct spec_parser *p, struct word *w, int n)
{
	struct spec *s = p->s;
	if (n < 3)
		return perr(p, w[0].col, "usage: param NAME VALUE [bytes B]");
	if (!is_name(w[1].text) || strlen(w[1].text) >= SPEC_NAME_MAX)
		return perr(p, w[1].col, "bad parameter name '%s'", w[1].text);
	if (!strcmp(w[1].text, "N"))
		return perr(p, w[1].col, "'N' is the thread count and cannot be a parameter");
	if (find_param(s, w[1].text, strlen(w[1].text)) >= 0)
		return perr(p, w[1].col, "parameter '%s' declared twice", w[1].text);
	if (s->n_params == SPEC_MAX_PARAMS)
		return perr(p, w[1].col, "more than %d parameters", SPEC_MAX_PARAMS);
	struct spec_param *prm = &s->param[s->n_params];
	memset(prm, 0, sizeof *prm);
	if (parse_number(w[2].text, &prm->base) < 0 || prm->base <= 0)
		return perr(p, w[2].col, "parameter value must be a positive number, not '%s'", w[2].text);
	prm->integral = strspn(w[2].text, "0123456789") == strlen(w[2].text);
	if (n > 3) {
		if (strcmp(w[3].text, "bytes"))
			return perr(p, w[3].col, "expected 'bytes' or the end of the line, not '%s'",
				    w[3].text);
		if (n < 5)
			return perr(p, w[3].col, "'bytes' needs a number of bytes per unit");
		if (parse_number(w[4].text, &prm->bytes) < 0 || prm->bytes <= 0)
			return perr(p, w[4].col, "bytes per unit must be a positive number, not '%s'",
				    w[4].text);
		if (n > 5)
			return perr(p, w[5].col, "unexpected '%s' after the parameter", w[5].text);
	}
	snprintf(prm->name, sizeof prm->name, "%s", w[1].text);
	s->n_params++;
	return 0;
}

/* method -> 'method' NAME { PARAM '=' EXPR } */
static int kw_method(struct spec_parser *p, struct word *w, int n)
{
	struct spec *s = p->s;
	if (n < 2)
		return perr(p, w[0].col, "usage: method NAME PARAM=EXPR ...");
	if (!is_name(w[1].text) || strlen(w[1].text) >= SPEC_NAME_MAX)
		return perr(p, w[1].col, "bad method name '%s'", w[1].text);
	if (find_method(s, w[1].text) >= 0)
		return perr(p, w[1].col, "method '%s' declared twice", w[1].text);
	if (s->n_methods == SPEC_MAX_METHODS)
		return perr(p, w[1].col, "more than %d methods", SPEC_MAX_METHODS);
	struct spec_method *m = &s->method[s->n_methods];
	memset(m, 0, sizeof *m);
	for (int i = 2; i < n; i++) {
		char *eq = strchr(w[i].text, '=');
		if (!eq)
			return perr(p, w[i].col, "expected PARAM=EXPR (no blanks), not '%s'", w[i].text);
		int k = find_param(s, w[i].text, (size_t)(eq - w[i].text));
		if (k < 0)
			return perr(p, w[i].col, "unknown parameter '%.*s' (declare it with 'param' first)",
				    (int)(eq - w[i].text), w[i].text);
		for (int j = 0; j < m->n_assign; j++)
			if (m->assign[j].param == k)
				return perr(p, w[i].col, "parameter '%s' assigned twice", s->param[k].name);
		int rc = check_expr(p, eq + 1, w[i].col + (int)(eq - w[i].text) + 1, 1);
		if (rc < 0)
			return rc;
		if (strlen(eq + 1) >= SPEC_EXPR_MAX)
			return perr(p, w[i].col, "expression longer than %d characters", SPEC_EXPR_MAX - 1);
		m->assign[m->n_assign].param = k;
		m->assign[m->n_assign].line = p->line;
		m->assign[m->n_assign].col = w[i].col + (int)(eq - w[i].text) + 1;
		snprintf(m->assign[m->n_assign].expr, SPEC_EXPR_MAX, "%s", eq + 1);
		m->n_assign++;
	}
	snprintf(m->name, sizeof m->name, "%s", w[1].text);
	s->n_methods++;
	return 0;
}

/* model -> ('memory-bound' B 'per-thread' | 'time-bound' T | 'e-conserved' E) 'along' METHOD */
static int kw_model(struct spec_parser *p, enum spec_model_kind kind, struct word *w, int n)
{
	struct spec *s = p->s;
	int i = 2;
	struct spec_model m = { .kind = kind };
	if (n < 2)
		return perr(p, w[0].col + (int)strlen(w[0].text), "'%s' needs a target", w[0].text);
	if (kind == SPEC_MEMORY_BOUND) {
		if (parse_number(w[1].text, &m.target) < 0 || m.target <= 0)
			return perr(p, w[1].col, "memory per thread must be a positive number of bytes, not '%s'",
				    w[1].text);
		if (n < 3 || strcmp(w[2].text, "per-thread"))
			return perr(p, n < 3 ? w[1].col + (int)strlen(w[1].text) : w[2].col,
				    "expected 'per-thread' after the bytes");
		i = 3;
	} else if (kind == SPEC_TIME_BOUND) {
		if (spec_parse_duration(w[1].text, &m.target) < 0)
			return perr(p, w[1].col, "bad time bound '%s' (e.g. 2s, 500ms, 1m)", w[1].text);
	} else {
		if (parse_number(w[1].text, &m.target) < 0 || m.target <= 0 || m.target > 1)
			return perr(p, w[1].col, "efficiency must be in (0, 1], not '%s'", w[1].text);
	}
	if (n <= i || strcmp(w[i].text, "along"))
		return perr(p, n <= i ? w[i - 1].col + (int)strlen(w[i - 1].text) : w[i].col,
			    "expected 'along METHOD'");
	if (n <= i + 1)
		return perr(p, w[i].col + 5, "'along' needs a method name");
	m.method = find_method(s, w[i + 1].text);
	if (m.method < 0)
		return perr(p, w[i + 1].col, "unknown method '%s' (declare it with 'method' first)",
			    w[i + 1].text);
	if (n > i + 2)
		return perr(p, w[i + 2].col, "unexpected '%s' at the end of the line", w[i + 2].text);
	for (int k = 0; k < s->n_models; k++)
		if (s->model[k].kind == kind && s->model[k].method == m.method)
			return perr(p, w[0].col, "%s along %s given twice", w[0].text, w[i + 1].text);
	if (s->n_models == SPEC_MAX_MODELS)
		return perr(p, w[0].col, "more than %d scaling models", SPEC_MAX_MODELS);
	s->model[s->n_models++] = m;
	return 0;
}

static int parse_threads_words(struct spec_parser *p, struct word *w, int n)
{
	struct spec *s = p->s;
	s->n_threads = 0;
	for (int i = 0; i < n; i++) {
		long v;
		if (parse_int(w[i].text, 1, 4096, &v) < 0)
			return perr(p, w[i].col, "thread count must be an integer in 1..4096, not '%s'",
				    w[i].text);
		for (int k = 0; k < s->n_threads; k++)
			if (s->threads[k] == v)
				return perr(p, w[i].col, "thread count %ld listed twice", v);
		if (s->n_threads == SPEC_MAX_THREADS)
			return perr(p, w[i].col, "more than %d thread counts", SPEC_MAX_THREADS);
		s->threads[s->n_threads++] = (int)v;
	}
	return 0;
}

static int parse_line(struct spec_parser *p, char *line, int *seen_threads)
{
	struct word w[LINE_WORDS];
	int n = 0, rc = split_words(p, line, w, &n);
	struct spec *s = p->s;
	if (rc < 0 || n == 0)
		return rc;
	const char *kw = w[0].text;
	if (!strcmp(kw, "program"))
		return set_cmd(p, &s->program, kw, w, n);
	if (!strcmp(kw, "sequential"))
		return set_cmd(p, &s->sequential, kw, w, n);
	if (!strcmp(kw, "plain"))
		return set_cmd(p, &s->plain, kw, w, n);
	if (!strcmp(kw, "plain-repeat")) {
		/* plain-repeat -> 'plain-repeat' K */
		long v;
		if (s->plain_repeat_line)
			return perr(p, w[0].col, "duplicate 'plain-repeat' line");
		if (n != 2)
			return perr(p, n < 2 ? w[0].col + (int)strlen(kw) : w[2].col,
				    "'%s' takes exactly one value", kw);
		if (parse_int(w[1].text, 1, 1000, &v) < 0)
			return perr(p, w[1].col, "plain-repeat must be an integer in 1..1000, not '%s'",
				    w[1].text);
		s->plain_repeat = (int)v;
		s->plain_repeat_line = p->line;
		s->plain_repeat_col = w[0].col;
		return 0;
	}
	if (!strcmp(kw, "threads")) {
		if (*seen_threads)
			return perr(p, w[0].col, "duplicate 'threads' line");
		*seen_threads = 1;
		if (n < 2)
			return perr(p, w[0].col + 7, "'threads' needs at least one thread count");
		return parse_threads_words(p, w + 1, n - 1);
	}
	if (!strcmp(kw, "repeat") || !strcmp(kw, "timeout") || !strcmp(kw, "work")) {
		if (n != 2)
			return perr(p, n < 2 ? w[0].col + (int)strlen(kw) : w[2].col,
				    "'%s' takes exactly one value", kw);
		if (!strcmp(kw, "repeat")) {
			long v;
			if (parse_int(w[1].text, 1, 1000, &v) < 0)
				return perr(p, w[1].col, "repeat must be an integer in 1..1000, not '%s'",
					    w[1].text);
			s->repeat = (int)v;
			return 0;
		}
		if (!strcmp(kw, "timeout")) {
			if (spec_parse_duration(w[1].text, &s->timeout_s) < 0)
				return perr(p, w[1].col, "bad timeout '%s' (e.g. 120s, 500ms, 2m)", w[1].text);
			return 0;
		}
		if (strlen(w[1].text) >= SPEC_EXPR_MAX)
			return perr(p, w[1].col, "expression longer than %d characters", SPEC_EXPR_MAX - 1);
		rc = check_expr(p, w[1].text, w[1].col, 0);
		if (rc == 0) {
			snprintf(s->work, sizeof s->work, "%s", w[1].text);
			s->work_line = p->line;
			s->work_col = w[1].col;
		}
		return rc;
	}
	if (!strcmp(kw, "param"))
		return kw_param(p, w, n);
	if (!strcmp(kw, "method"))
		return kw_method(p, w, n);
	if (!strcmp(kw, "memory-bound"))
		return kw_model(p, SPEC_MEMORY_BOUND, w, n);
	if (!strcmp(kw, "time-bound"))
		return kw_model(p, SPEC_TIME_BOUND, w, n);
	if (!strcmp(kw, "e-conserved"))
		return kw_model(p, SPEC_E_CONSERVED, w, n);
	return perr(p, w[0].col, "unknown keyword '%s'", kw);
}

int spec_parse(struct spec *s, const char *path, const char *text, char *err, size_t err_len)
{
	struct spec_parser p = { .s = s, .path = path, .err = err, .err_len = err_len };
	int rc = 0, seen_threads = 0;
	char *copy = strdup(text);
	if (!copy)
		return -ENOMEM;
	snprintf(s->path, sizeof s->path, "%s", path);
	const char *slash = strrchr(path, '/');
	if (slash)
		snprintf(s->dir, sizeof s->dir, "%.*s", (int)(slash - path), path);
	else
		snprintf(s->dir, sizeof s->dir, ".");
	if (slash == path)
		snprintf(s->dir, sizeof s->dir, "/");
	free(s->text);
	s->text = strdup(text);
	if (!s->text) {
		rc = -ENOMEM;
		goto out;
	}
	char *line = copy;
	for (p.line = 1; line; p.line++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		for (char *c = line; *c; c++) {
			if ((unsigned char)*c < 0x20 && *c != '\t' && *c != '\r') {
				rc = perr(&p, (int)(c - line) + 1, "control character 0x%02x",
					  (unsigned char)*c);
				goto out;
			}
		}
		rc = parse_line(&p, line, &seen_threads);
		if (rc < 0)
			goto out;
		line = nl ? nl + 1 : NULL;
	}
out:
	free(copy);
	return rc;
}

int spec_load(struct spec *s, const char *path, char *err, size_t err_len)
{
	int rc = 0;
	char *text = NULL;
	struct stat sb;
	size_t len = 0;
	/* O_NONBLOCK: a FIFO must not hang the open; only regular files are read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		rc = -errno;
		snprintf(err, err_len, "%s: error: cannot open: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(sb.st_mode)) {
		rc = S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, err_len, "%s: error: %s, not a spec file", path,
			 S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		goto out;
	}
	if (sb.st_size > SPEC_MAX_BYTES) {
		rc = -EFBIG;
		snprintf(err, err_len, "%s: error: %lld bytes; a spec may have at most %d (1 MiB)", path,
			 (long long)sb.st_size, SPEC_MAX_BYTES);
		goto out;
	}
	text = malloc(SPEC_MAX_BYTES + 2);
	if (!text) {
		rc = -ENOMEM;
		snprintf(err, err_len, "%s: error: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, text + len, SPEC_MAX_BYTES + 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = -errno;
			snprintf(err, err_len, "%s: error: cannot read: %s", path, strerror(errno));
			goto out;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len > SPEC_MAX_BYTES) {   /* it grew while read */
			rc = -EFBIG;
			snprintf(err, err_len, "%s: error: larger than %d bytes (1 MiB), the limit of a "
				 "spec", path, SPEC_MAX_BYTES);
			goto out;
		}
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		rc = -EINVAL;
		snprintf(err, err_len, "%s: error: contains a NUL byte", path);
		goto out;
	}
	rc = spec_parse(s, path, text, err, err_len);
out:
	free(text);
	if (fd >= 0)
		close(fd);
	return rc;
}

int spec_set_threads(struct spec *s, const char *list, char *err, size_t err_len)
{
	struct word w[SPEC_MAX_THREADS + 1];
	char copy[512];
	int n = 0, rc;
	struct spec_parser p = { .s = s, .path = "--threads", .line = 1, .err = err,
				 .err_len = err_len };
	if (strlen(list) >= sizeof copy)
		return perr(&p, 1, "list too long");
	snprintf(copy, sizeof copy, "%s", list);
	char *c = copy;
	for (;;) {
		if (n == SPEC_MAX_THREADS + 1)
			return perr(&p, (int)(c - copy) + 1, "more than %d thread counts", SPEC_MAX_THREADS);
		w[n].text = c;
		w[n].col = (int)(c - copy) + 1;
		n++;
		char *comma = strchr(c, ',');
		if (!comma)
			break;
		*comma = '\0';
		c = comma + 1;
	}
	rc = parse_threads_words(&p, w, n);
	return rc;
}

int spec_set_program(struct spec *s, int argc, char **argv, char *err, size_t err_len)
{
	if (argc < 1 || argc > SPEC_MAX_ARGS) {
		snprintf(err, err_len, "scalegraph run: error: the command after -- needs 1..%d words",
			 SPEC_MAX_ARGS);
		return -EINVAL;
	}
	cmd_free(&s->program);
	for (int i = 0; i < argc; i++) {
		s->program.argv[i] = strdup(argv[i]);
		if (!s->program.argv[i])
			return -ENOMEM;
		s->program.col[i] = 0;
		s->program.argc = i + 1;
	}
	s->program.line = 0;
	return 0;
}

int spec_set_plain(struct spec *s, const char *text, char *err, size_t err_len)
{
	struct word w[LINE_WORDS];
	int n = 0, rc;
	char *copy = strdup(text);
	struct spec_parser p = { .s = s, .path = CMDLINE_PATH, .line = 0, .err = err,
				 .err_len = err_len };
	if (!copy)
		return -ENOMEM;
	rc = split_words(&p, copy, w, &n);
	if (rc == 0 && (n < 1 || n > SPEC_MAX_ARGS))
		rc = perr(&p, 1, "--plain needs a command of 1..%d words", SPEC_MAX_ARGS);
	if (rc < 0) {
		/* the splitter's message, said to be --plain's */
		char msg[512];
		snprintf(msg, sizeof msg, "%s", err);
		const char *body = strstr(msg, "error: ");
		snprintf(err, err_len, "scalegraph run: error: --plain: %s",
			 body ? body + 7 : msg);
		free(copy);
		return -EINVAL;
	}
	cmd_free(&s->plain);
	for (int i = 0; i < n; i++) {
		s->plain.argv[i] = strdup(w[i].text);
		if (!s->plain.argv[i]) {
			free(copy);
			return -ENOMEM;
		}
		s->plain.col[i] = 0;
		s->plain.argc = i + 1;
	}
	s->plain.line = 0;
	free(copy);
	return 0;
}

/* Every {NAME} in the command names N or a parameter. */
static int check_placeholders(struct spec_parser *p, const struct spec_cmd *c)
{
	p->line = c->line;
	for (int i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];
		for (const char *o = strchr(a, '{'); o; o = strchr(o + 1, '{')) {
			const char *e = strchr(o, '}');
			int col = c->col[i] + (int)(o - a);
			const char *where = c->line ? "" : c == &p->s->plain ? " in --plain"
					    : " in the command after --";
			if (!e)
				return perr(p, col, "unterminated '{' in command%s", where);
			size_t len = (size_t)(e - o - 1);
			if (!(len == 1 && o[1] == 'N') && find_param(p->s, o + 1, len) < 0)
				return perr(p, col, "unknown placeholder '{%.*s}'%s (N or a parameter)",
					    (int)len, o + 1, where);
		}
	}
	return 0;
}

/* Does the command pass the thread count on ({N} in a word)? */
static int cmd_has_n(const struct spec_cmd *c)
{
	for (int i = 0; i < c->argc; i++)
		if (strstr(c->argv[i], "{N}"))
			return 1;
	return 0;
}

/* A program whose command has no {N} runs the same command at every thread count: the series
 * would measure one program N times over and call it scaling (issue 14: it did so without a
 * word). The runner passes the count only through {N} (no environment variable), so without
 * it the error names the ways to write it, and --same-command for a program that chooses its
 * threads itself (all CPUs, a config file). One thread count compares nothing: allowed. */
static int check_threads_reach(struct spec_parser *p, const struct spec *s,
			       const struct spec_cmd *c)
{
	char list[128];
	size_t used = 0;
	if (s->n_threads < 2 || s->same_command || cmd_has_n(c))
		return 0;
	list[0] = '\0';
	for (int k = 0; k < s->n_threads && used < sizeof list; k++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", k ? ", " : "",
					 s->threads[k]);
	static const char fix[] = "put {N} where it takes its thread count (e.g. --threads {N}, "
				  "-p{N}, or a launcher: env OMP_NUM_THREADS={N} PROGRAM), or give "
				  "--same-command if the program chooses its threads itself";
	int plain = c == &s->plain;
	p->line = c->line;
	return perr(p, c->col[0], "the %s has no {N}: it would run the same at every thread "
		    "count (%s); %s", plain ? (p->line ? "plain build's command" : "--plain command")
		    : p->line ? "program's command" : "command after --", list, fix);
}

int spec_finish(struct spec *s, char *err, size_t err_len)
{
	struct spec_parser p = { .s = s, .path = s->path, .line = 1, .err = err, .err_len = err_len };
	int rc;
	int cmdline = !strcmp(s->path, CMDLINE_PATH);
	if (!s->program.argc)
		return perr(&p, 1, cmdline ? "no command: give one after -- (or a spec with a "
			    "'program' line)" : "no 'program' line (or command after --)");
	if (!s->n_threads)
		return perr(&p, 1, cmdline ? "no thread counts: give --threads LIST (e.g. --threads "
			    "1,2,4)" : "no 'threads' line (or --threads)");
	rc = check_placeholders(&p, &s->program);
	if (rc == 0)
		rc = check_placeholders(&p, &s->sequential);
	if (rc == 0)
		rc = check_placeholders(&p, &s->plain);
	if (rc == 0)
		rc = check_threads_reach(&p, s, &s->program);
	if (rc == 0 && s->plain.argc)
		rc = check_threads_reach(&p, s, &s->plain);
	if (rc == 0 && s->plain_repeat_line && !s->plain.argc) {
		p.line = s->plain_repeat_line;
		rc = perr(&p, s->plain_repeat_col, "'plain-repeat' without a 'plain' line (or "
			  "--plain): there is no plain build to repeat");
	}
	if (rc < 0)
		return rc;
	if (s->n_methods == 0) {
		memset(&s->method[0], 0, sizeof s->method[0]);
		snprintf(s->method[0].name, SPEC_NAME_MAX, "fixed");
		s->n_methods = 1;
	}
	return 0;
}

int spec_sizes(const struct spec *s, int method, double x, double *sizes, char *err, size_t err_len)
{
	const struct spec_method *m = &s->method[method];
	struct eval_ctx ctx = { s, x, NULL };
	char msg[200];
	for (int i = 0; i < s->n_params; i++)
		sizes[i] = s->param[i].base;
	for (int k = 0; k < m->n_assign; k++) {
		const struct spec_assign *a = &m->assign[k];
		double v;
		size_t off = 0;
		int i = a->param;
		if (expr_eval(a->expr, eval_lookup, &ctx, &v, msg, sizeof msg, &off) < 0) {
			snprintf(err, err_len, "%s:%d:%d: error: method %s at N = %g: %s", s->path,
				 a->line, a->col + (int)off, m->name, x, msg);
			return -EINVAL;
		}
		if (s->param[i].integral)
			v = v < 1 ? 1 : floor(v + 0.5);
		if (!isfinite(v) || v <= 0 || (s->param[i].integral && v > SPEC_INT_MAX)) {
			snprintf(err, err_len, "%s:%d:%d: error: method %s: %s = %g at N = %g is %s",
				 s->path, a->line, a->col, m->name, s->param[i].name, v, x,
				 !isfinite(v) || v <= 0 ? "not a positive number"
				 : "too large for an integer size (at most 2^53)");
			return -EINVAL;
		}
		sizes[i] = v;
	}
	return 0;
}

double spec_work(const struct spec *s, const double *sizes)
{
	double w = 1;
	if (s->work[0]) {
		struct eval_ctx ctx = { s, NAN, sizes };
		char err[64];
		if (expr_eval(s->work, eval_lookup, &ctx, &w, err, sizeof err, NULL) < 0)
			return NAN;
		return w;
	}
	for (int i = 0; i < s->n_params; i++)
		w *= sizes[i];
	return w;
}

double spec_memory(const struct spec *s, const double *sizes)
{
	double b = 0;
	for (int i = 0; i < s->n_params; i++)
		b += s->param[i].bytes * sizes[i];
	return b;
}

static int fmt_size(const struct spec *s, int i, double v, char *buf, size_t len)
{
	if (s->param[i].integral)
		return snprintf(buf, len, "%.0f", v);
	return snprintf(buf, len, "%.6g", v);
}

void spec_sizes_text(const struct spec *s, const double *sizes, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < s->n_params && used < len; i++) {
		char v[64];
		fmt_size(s, i, sizes[i], v, sizeof v);
		int n = snprintf(buf + used, len - used, "%s%s=%s", i ? " " : "", s->param[i].name, v);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int spec_argv(const struct spec *s, const struct spec_cmd *cmd, int n_threads,
	      const double *sizes, char **argv, char *buf, size_t buf_len)
{
	size_t used = 0;
	for (int i = 0; i < cmd->argc; i++) {
		argv[i] = buf + used;
		for (const char *a = cmd->argv[i]; *a;) {
			char val[64];
			const char *e = *a == '{' ? strchr(a, '}') : NULL;
			int k = -2;
			if (e && e - a == 2 && a[1] == 'N')
				k = -1;
			else if (e)
				k = find_param(s, a + 1, (size_t)(e - a - 1));
			size_t vlen;
			if (k == -1) {
				vlen = (size_t)snprintf(val, sizeof val, "%d", n_threads);
				a = e + 1;
			} else if (k >= 0) {
				int w = fmt_size(s, k, sizes[k], val, sizeof val);
				if (w < 0 || (size_t)w >= sizeof val)
					return -ERANGE;   /* spec_sizes keeps sizes below this */
				vlen = (size_t)w;
				a = e + 1;
			} else {
				val[0] = *a++;
				vlen = 1;
			}
			if (used + vlen + 1 >= buf_len)
				return -ENAMETOOLONG;
			memcpy(buf + used, val, vlen);
			used += vlen;
		}
		buf[used++] = '\0';
	}
	argv[cmd->argc] = NULL;
	return 0;
}

/* One command at N and `sizes`: it must fit the runner's argument buffer. */
static int check_argv(const struct spec *s, const struct spec_cmd *c, const char *what, int n,
		      const double *sizes, char *err, size_t err_len)
{
	char buf[8192];
	char *argv[SPEC_MAX_ARGS + 1];
	int rc;
	if (!c->argc)
		return 0;
	rc = spec_argv(s, c, n, sizes, argv, buf, sizeof buf);
	if (rc < 0 && c->line)
		snprintf(err, err_len, "%s:%d:1: error: the %s's command line at N = %d is %s", s->path,
			 c->line, what, n, rc == -ERANGE ? "a number that does not fit"
			 : "longer than 8191 bytes with its sizes filled in");
	else if (rc < 0)
		snprintf(err, err_len, "scalegraph run: error: the %s at N = %d is %s",
			 !strcmp(what, "plain build") ? "--plain command" : "command after --", n,
			 rc == -ERANGE ? "a number that does not fit"
			 : "longer than 8191 bytes with its sizes filled in");
	return rc;
}

/* The `work` formula at `sizes` (a domain error such as log2 of a size below 1 is found here,
 * not when the first run is stored). */
static int check_work(const struct spec *s, int method, int n, const double *sizes, char *err,
		      size_t err_len)
{
	struct eval_ctx ctx = { s, NAN, sizes };
	char msg[200], text[256];
	size_t off = 0;
	double w;
	if (!s->work[0])
		return 0;
	if (expr_eval(s->work, eval_lookup, &ctx, &w, msg, sizeof msg, &off) == 0)
		return 0;
	spec_sizes_text(s, sizes, text, sizeof text);
	snprintf(err, err_len, "%s:%d:%d: error: work at the sizes of method %s at N = %d (%s): %s",
		 s->path, s->work_line, s->work_col + (int)off, s->method[method].name, n, text, msg);
	return -EINVAL;
}

int spec_check_eval(const struct spec *s, char *err, size_t err_len)
{
	double sizes[SPEC_MAX_PARAMS];
	for (int m = 0; m < s->n_methods; m++) {
		for (int k = 0; k < s->n_threads; k++) {
			int n = s->threads[k], rc;
			rc = spec_sizes(s, m, n, sizes, err, err_len);
			if (rc == 0)
				rc = check_work(s, m, n, sizes, err, err_len);
			if (rc == 0)
				rc = check_argv(s, &s->program, "program", n, sizes, err, err_len);
			if (rc == 0)
				rc = check_argv(s, &s->sequential, "sequential program", 1, sizes, err,
						err_len);
			if (rc == 0)
				rc = check_argv(s, &s->plain, "plain build", n, sizes, err, err_len);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}
