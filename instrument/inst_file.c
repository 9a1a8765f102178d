/*
 * inst_file.c — instruments one file: scan + parse (inst_parser.y), then the probe pass
 * (inst_probe.c), then the splice (inst_edit.c). Parsing is tried twice: first with every
 * #if branch (so calls in all branches get their sg_ wrappers), and, when braces do not balance
 * that way (typically `#ifdef X  f(a) {  #else  f(a, b) {  #endif`), again with only the first
 * branch of each conditional. Whichever attempt has fewer syntax errors is used; code at and
 * around the remaining errors is left exactly as it was.
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

int inst_file(const char *src, size_t len, const char *file_name,
	      const struct inst_options *opt, struct inst_result *res)
{
	struct attempt a[2];
	struct inst_edits e = { 0 };
	struct inst_diag d = { opt && opt->diag ? opt->diag : stderr, file_name,
			       opt ? opt->quiet : 0, 0 };
	int used = 0, rc;
	memset(res, 0, sizeof *res);
	memset(a, 0, sizeof a);
	if (len > INT32_MAX)
		return -EOVERFLOW;
	rc = attempt_run(&a[0], src, len, 0);
	if (rc)
		goto out;
	if (attempt_errors(&a[0]) && a[0].lx.n_conds > 1) {
		rc = attempt_run(&a[1], src, len, 1);
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
	rc = inst_probe(src, len, &u->t, &u->lx, opt, &d, &e, res);
	if (rc)
		goto out;
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
	edits_free(&e);
	attempt_free(&a[0]);
	attempt_free(&a[1]);
	if (rc) {
		free(res->text);
		free(res->splices);
		memset(res, 0, sizeof *res);
	}
	return rc;
}

void inst_result_free(struct inst_result *res)
{
	free(res->text);
	free(res->splices);
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
