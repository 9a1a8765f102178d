/*
 * inst_file.c — instruments one file: scan + parse (inst_parser.y), then the probe pass
 * (inst_probe.c), then the splice (inst_edit.c). When the caller knows which lines the
 * compiler compiles (inst_options.compiled, from the build's own preprocessor), the parser
 * reads a copy with the other #if groups blanked (inst_live.c), as the compiler sees the file;
 * the edits still splice into the user's bytes at the same offsets. Parsing is tried twice:
 * first with every #if branch that is read (so calls in all of them get their sg_ wrappers),
 * and, when braces do not balance that way (typically `#ifdef X  f(a) {  #else  f(a, b) {
 * #endif`), again with only the first branch of each conditional. Whichever attempt has fewer
 * syntax errors is used; code at and around the remaining errors is left exactly as it was,
 * and when the second attempt is used every branch it did not read is named in a warning.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inst_int.h"

struct attempt {
	struct inst_lex lx;
	struct inst_tree t;
};

static int attempt_run(struct attempt *a, const char *src, size_t len, int first_branch_only)
{
	memset(a, 0, sizeof *a);
	a->lx.src = src;
	a->lx.len = len;
	a->lx.first_branch_only = first_branch_only;
	a->t.top = -1;
	a->t.size_hint = len;
	a->t.src = src;
	return inst_parse(&a->lx, &a->t);
}

static void attempt_free(struct attempt *a)
{
	inst_lex_free(&a->lx);
	tree_free(&a->t);
}

static size_t attempt_errors(const struct attempt *a)
{
	return a->t.n_errors + (size_t)a->t.aborted;
}

/* The splices of the applied edits (sorted by edits_apply; overlapping ones, which edits_apply
 * skips, are skipped here the same way). */
static int splices_make(const struct inst_edits *e, const char *src, size_t len,
			struct inst_result *res)
{
	res->splices = calloc(e->n ? e->n : 1, sizeof *res->splices);
	if (!res->splices)
		return -ENOMEM;
	size_t o = 0, at = 0;
	for (size_t i = 0; i < e->n; i++) {
		const struct inst_edit *d = &e->v[i];
		if (d->off < at || d->off + d->del > len)
			continue;
		o += d->off - at;
		struct inst_splice sp = { d->off, d->del, (uint32_t)o, (uint32_t)d->len };
		const char *nl = memchr(d->text, '\n', d->len);
		if (nl && memmem(d->text, d->len, "#line", 5)) { /* the text after the block */
			const char *last = d->text + d->len;
			while (last > d->text && last[-1] != '\n')
				last--;
			sp.out_off = (uint32_t)(o + (size_t)(last - d->text));
			sp.ins = (uint32_t)(d->text + d->len - last);
			sp.del = 0;
		} else if (nl) {
			sp.ins = (uint32_t)(nl - d->text);
		}
		const char *eol = memchr(src + d->off, '\n', sp.del);
		if (eol)
			sp.del = (uint32_t)(eol - (src + d->off));
		res->splices[res->n_splices++] = sp;
		o += d->len;
		at = d->off + d->del;
	}
	return 0;
}

/* Does the directive at s[i] (its '#') matter to the instrumenter — a `#pragma scalegraph`, or
 * a `#define` that calls a wrapped function? Other directives (#include, #define of a constant)
 * lose nothing when their branch is not read. *next gets the end of its logical line. */
static int directive_matters(const char *s, uint32_t i, uint32_t end, uint32_t *next)
{
	uint32_t e = i;
	while (e < end && !(s[e] == '\n' && s[e - 1] != '\\'))
		e++;
	*next = e;
	uint32_t w = i + 1;
	while (w < e && (s[w] == ' ' || s[w] == '\t'))
		w++;
	if (e - w >= 6 && !memcmp(s + w, "pragma", 6))
		return memmem(s + w, e - w, "scalegraph", 10) != NULL;
	if (e - w < 6 || memcmp(s + w, "define", 6))
		return 0;
	for (uint32_t k = w + 6; k < e;) {
		uint32_t l = 0;
		while (k + l < e && inst_is_idch((unsigned char)s[k + l]))
			l++;
		if (l && inst_is_wrapped(s + k, l))
			return 1;
		k += l ? l : 1;
	}
	return 0;
}

/* Does s[off, end) hold anything the instrumenter reads: code, or a directive that matters
 * (not blanks, comments, #include ...)? */
static int has_code(const char *s, uint32_t off, uint32_t end)
{
	int bol = 1;
	for (uint32_t i = off; i < end; i++) {
		if (s[i] == '/' && i + 1 < end && s[i + 1] == '*') {
			const char *e = memmem(s + i + 2, end - i - 2, "*/", 2);
			if (!e)
				return 0;
			i = (uint32_t)(e - s) + 1;
		} else if (s[i] == '/' && i + 1 < end && s[i + 1] == '/') {
			while (i + 1 < end && s[i + 1] != '\n')
				i++;
		} else if (s[i] == '#' && bol) {
			if (directive_matters(s, i, end, &i))
				return 1;
			bol = 1;
		} else if (s[i] == '\n') {
			bol = 1;
		} else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\f' &&
			   s[i] != '\v' && s[i] != '\\') {
			return 1;
		}
	}
	return 0;
}

/* The directive's word at src[off] ("else", "ifdef", ...), for messages. */
static int dir_word(const char *src, size_t len, uint32_t off, const char **w)
{
	size_t i = off;
	while (i < len && (src[i] == ' ' || src[i] == '\t' || src[i] == '#'))
		i++;
	*w = src + i;
	size_t k = i;
	while (k < len && k - i < 16 && inst_is_idch((unsigned char)src[k]))
		k++;
	return (int)(k - i);
}

/* The second attempt was used: every branch it did not read that holds code is named, with
 * the way to have the compiled branches read instead. */
static void warn_drops(struct inst_diag *d, const char *src, size_t len, const struct inst_lex *lx)
{
	for (size_t k = 0; k < lx->n_drops; k++) {
		const struct inst_drop *dr = &lx->drops[k];
		uint32_t end = dr->end ? dr->end : (uint32_t)len, end_line = dr->end_line;
		const char *nl = memchr(src + dr->off, '\n', end - dr->off);
		uint32_t from = nl ? (uint32_t)(nl - src) + 1 : end;
		if (!has_code(src, from, end))
			continue;
		if (!dr->end) {
			end_line = dr->line;
			for (uint32_t i = dr->off; i < len; i++)
				end_line += src[i] == '\n';
			end_line += len > 0 && src[len - 1] != '\n';
		}
		const char *w, *iw;
		int wl = dir_word(src, len, dr->off, &w), il = dir_word(src, len, dr->if_off, &iw);
		char lines[48];
		if (end_line - 1 > dr->line + 1)
			snprintf(lines, sizeof lines, "lines %u-%u", dr->line + 1, end_line - 1);
		else
			snprintf(lines, sizeof lines, "line %u", dr->line + 1);
		inst_warn(d, dr->line, 1, "%s not instrumented (this #%.*s branch): the braces "
			  "balance only with one branch of each #if read, and the first branch of the "
			  "#%.*s at line %u was read; give the build's -D/-U/-I flags (scalegraph cc "
			  "does) to read the branches it compiles", lines, wl, w, il, iw, dr->if_line);
	}
}

int inst_file(const char *src, size_t len, const char *file_name,
	      const struct inst_options *opt, struct inst_result *res)
{
	struct attempt a[2];
	struct inst_edits e = { 0 };
	struct inst_diag d = { opt && opt->diag ? opt->diag : stderr, file_name,
			       opt ? opt->quiet : 0, 0 };
	char *live = NULL;
	const char *text = src; /* what the parser reads */
	int used = 0, known = 0, rc;
	memset(res, 0, sizeof *res);
	memset(a, 0, sizeof a);
	if (len > INT32_MAX)
		return -EOVERFLOW;
	if (opt && opt->compiled) {
		rc = inst_live_text(src, len, opt->compiled, &live);
		if (rc && rc != -EPROTO) /* -EPROTO: not this file's lines, read as without them */
			goto out;
		known = rc == 0;
		if (live)
			text = live;
	}
	rc = attempt_run(&a[0], text, len, 0);
	if (rc)
		goto out;
	if (attempt_errors(&a[0]) && a[0].lx.n_conds > 1) {
		rc = attempt_run(&a[1], text, len, 1);
		if (rc)
			goto out;
		if (attempt_errors(&a[1]) < attempt_errors(&a[0]))
			used = 1;
	}
	struct attempt *u = &a[used];
	if (u->t.aborted && u->t.n_errors == 0) {
		uint32_t line, col;
		inst_lex_locate(&u->lx, (uint32_t)len, &line, &col);
		tree_error(&u->t, (uint32_t)len, line, col, "unexpected end of file");
	}
	if (used == 1)
		warn_drops(&d, text, len, &u->lx);
	rc = inst_probe(text, len, &u->t, &u->lx, opt, &d, &e, res);
	if (rc)
		goto out;
	if (attempt_errors(&a[0]) && a[0].lx.n_conds > 1)
		res->cond_matters = 1;
	if (known)
		res->cond_matters = 0;
	if (e.n == 0) { /* nothing to do: the output is the input, byte for byte */
		res->text = malloc(len + 1);
		if (!res->text) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(res->text, src, len);
		res->text[len] = '\0';
		res->len = len;
	} else {
		rc = edits_apply(&e, src, len, &res->text, &res->len);
		if (!rc)
			rc = splices_make(&e, src, len, res);
	}
out:
	res->n_warnings = d.n;
	free(live);
	edits_free(&e);
	attempt_free(&a[0]);
	attempt_free(&a[1]);
	if (rc)
		inst_result_free(res);
	return rc;
}

void inst_result_free(struct inst_result *res)
{
	free(res->text);
	free(res->splices);
	for (size_t k = 0; k < res->summary.n_defs; k++)
		free(res->summary.defs[k].name);
	for (size_t k = 0; k < res->summary.n_calls; k++) {
		free(res->summary.calls[k].name);
		free(res->summary.calls[k].caller);
	}
	free(res->summary.defs);
	free(res->summary.calls);
	memset(res, 0, sizeof *res);
}

int inst_read_file(const char *path, char **out, size_t *len)
{
	int rc = 0;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		cap = (size_t)st.st_size + 1;
	for (;;) {
		if (!buf || n + 1 >= cap) {
			cap = !buf && cap ? cap : cap ? cap * 2 : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				rc = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!buf) {
		buf = malloc(1);
		if (!buf) {
			rc = -ENOMEM;
			goto out;
		}
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	if (fd > 0)
		close(fd);
	return rc;
}
