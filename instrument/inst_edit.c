/*
 * inst_edit.c — the last pass: edits (delete n bytes at an offset, insert text) collected by the
 * probe pass are sorted and spliced into a copy of the input, so every byte of the user's code
 * that no edit names comes back unchanged. Also the small shared helpers: array growth, C string
 * escaping and the `file:line:col: warning:` sink.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

int inst_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first_cap)
{
	void *v;
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : first_cap;
	if (c <= n || c > SIZE_MAX / elem)
		return -ENOMEM;
	memcpy(&v, arrp, sizeof v); /* arrp points to a T *; copied, not type-punned */
	v = realloc(v, c * elem);
	if (!v)
		return -ENOMEM;
	memcpy(arrp, &v, sizeof v);
	*cap = c;
	return 0;
}

void edits_add(struct inst_edits *e, uint32_t off, uint32_t del, const char *text, size_t len)
{
	if (e->oom)
		return;
	if (inst_grow(&e->v, &e->cap, e->n, sizeof *e->v, 64)) {
		e->oom = 1;
		return;
	}
	char *copy = malloc(len + 1);
	if (!copy) {
		e->oom = 1;
		return;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	e->v[e->n] = (struct inst_edit){ off, del, (uint32_t)e->n, copy, len };
	e->n++;
}

void edits_addf(struct inst_edits *e, uint32_t off, uint32_t del, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof buf) {
		char *big = NULL;
		va_start(ap, fmt);
		n = vasprintf(&big, fmt, ap);
		va_end(ap);
		if (n < 0) {
			e->oom = 1;
			return;
		}
		edits_add(e, off, del, big, (size_t)n);
		free(big);
		return;
	}
	edits_add(e, off, del, buf, (size_t)n);
}

void edits_truncate(struct inst_edits *e, size_t n)
{
	while (e->n > n)
		free(e->v[--e->n].text);
}

static int edit_cmp(const void *a, const void *b)
{
	const struct inst_edit *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int edits_apply(struct inst_edits *e, const char *src, size_t len, char **out, size_t *out_len)
{
	if (e->oom)
		return -ENOMEM;
	qsort(e->v, e->n, sizeof *e->v, edit_cmp);
	size_t total = len;
	for (size_t i = 0; i < e->n; i++)
		total += e->v[i].len;
	char *buf = malloc(total + 1);
	if (!buf)
		return -ENOMEM;
	size_t o = 0, at = 0;
	for (size_t i = 0; i < e->n; i++) {
		const struct inst_edit *d = &e->v[i];
		if (d->off < at || d->off + d->del > len)
			continue; /* overlapping edit: never produced by the pass; keep input intact */
		memcpy(buf + o, src + at, d->off - at);
		o += d->off - at;
		memcpy(buf + o, d->text, d->len);
		o += d->len;
		at = d->off + d->del;
	}
	memcpy(buf + o, src + at, len - at);
	o += len - at;
	buf[o] = '\0';
	*out = buf;
	*out_len = o;
	return 0;
}

void edits_free(struct inst_edits *e)
{
	edits_truncate(e, 0);
	free(e->v);
	memset(e, 0, sizeof *e);
}

int inst_c_escape(char *dst, size_t cap, const char *s, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char tmp[5];
		size_t n;
		if (c == '"' || c == '\\') {
			tmp[0] = '\\';
			tmp[1] = (char)c;
			n = 2;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(tmp, sizeof tmp, "\\%03o", c);
			n = 4;
		} else {
			tmp[0] = (char)c;
			n = 1;
		}
		if (o + n >= cap)
			return -ENAMETOOLONG;
		memcpy(dst + o, tmp, n);
		o += n;
	}
	dst[o] = '\0';
	return 0;
}

void inst_warn(struct inst_diag *d, uint32_t line, uint32_t col, const char *fmt, ...)
{
	d->n++;
	if (d->quiet)
		return;
	FILE *f = d->f ? d->f : stderr;
	fprintf(f, "%s:%u:%u: warning: ", d->file, line, col);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}
