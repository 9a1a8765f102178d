/*
 * cc_diag.c — the compiler's diagnostics on an instrumented copy, put back the way the compiler
 * would have printed them on the user's source. `#line` already gives the user's file and line;
 * what it cannot give back is what the instrumenter inserted on a line: `sg_` before each renamed
 * pthread or semaphore call (3 columns each), `_at` after one that begins a wait and its call
 * site `&sg_site_K, ` as the first argument, and a function's probe after its `{`. So for every
 * line of a mapped file this filter
 *   - maps the column of `FILE:LINE:COL:` back through the line's splices (inst_splice), in the
 *     compiler's unit: gcc counts display columns (a tab to the next multiple of -ftabstop), clang
 *     bytes;
 *   - shows the user's line in the source excerpt (clang prints the compiled copy's; gcc reads the
 *     user's file) and moves the carets and ranges under it to the mapped columns;
 *   - names a renamed call as the user wrote it: `sg_pthread_barrier_wait` and
 *     `sg_pthread_barrier_wait_at` in a message become `pthread_barrier_wait` (unless the user's
 *     own source spells the sg_ name), gcc's `argument 2 of 'sg_X_at'` is `argument 1 of 'X'`
 *     and clang's `expected 2, have 3` on such a call `expected 1, have 2`, and an excerpt of
 *     sgtrace.h shows the _at declaration without its site parameter;
 *   - prints a header found through the `-iquote .` that scalegraph cc adds for a source in the
 *     current directory as the compiler would have found it beside that source: `memory.h`, not
 *     `./memory.h` (when the user's command names no `.` include directory itself).
 * Lines it does not recognise pass through unchanged.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"
#include "inst_int.h"

/* Line starts of a source, computed on first use. */
static int src_lines(struct cc_src *s)
{
	if (s->bol)
		return 0;
	size_t n = 1;
	for (size_t i = 0; i < s->len; i++)
		n += s->text[i] == '\n';
	s->bol = malloc((n + 1) * sizeof *s->bol);
	if (!s->bol)
		return -ENOMEM;
	s->n_lines = 0;
	s->bol[s->n_lines++] = 0;
	for (size_t i = 0; i < s->len; i++)
		if (s->text[i] == '\n')
			s->bol[s->n_lines++] = i + 1;
	s->bol[s->n_lines] = s->len + 1;
	return 0;
}

/* The input line `line` (1-based) as [*b, *e) offsets, without its newline (or CR). */
static int src_line(struct cc_src *s, unsigned long line, size_t *b, size_t *e)
{
	if (src_lines(s) || line == 0 || line > s->n_lines)
		return 0;
	*b = s->bol[line - 1];
	*e = s->bol[line] - 1;
	if (*e > s->len)
		*e = s->len;
	if (*e > *b && s->text[*e - 1] == '\r')
		(*e)--;
	return 1;
}

/* The splices on input line [b, e]: [*first, *last). */
static int line_splices(const struct cc_src *s, size_t b, size_t e, size_t *first, size_t *last)
{
	size_t lo = 0, hi = s->n_sp;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->sp[mid].off < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo < s->n_sp && s->sp[lo].off <= e)
		lo++;
	*last = lo;
	return *last > *first;
}

/* Width of byte c at display column col (1-based): tabs to the next stop, UTF-8 continuation
 * bytes nothing. */
static unsigned long char_width(unsigned char c, unsigned long col, int tabstop)
{
	if (c == '\t')
		return tabstop - (col - 1) % tabstop;
	return (c & 0xc0) == 0x80 ? 0 : 1;
}

/* Column (in the unit) of input byte `at` of the line starting at b. */
static unsigned long orig_col(const struct cc_src *s, size_t b, size_t at, int display,
			      int tabstop)
{
	if (!display)
		return at - b + 1;
	unsigned long col = 1;
	for (size_t i = b; i < at && i < s->len; i++)
		col += char_width((unsigned char)s->text[i], col, tabstop);
	return col;
}

/* Walks the compiled line of input line [b, e): calls `f` for each of its bytes with the input
 * byte it stands for (an inserted byte stands for the place it was inserted at). */
struct walk_pos {
	unsigned long col;     /* of the compiled byte, in the unit */
	unsigned long width;
	size_t orig;           /* the input byte */
	char c;
};

static size_t line_walk(const struct cc_src *s, size_t b, size_t e, int display, int tabstop,
			struct walk_pos *v, size_t cap)
{
	size_t first, last, n = 0, at = b;
	unsigned long col = 1;
	line_splices(s, b, e, &first, &last);
	for (size_t k = first; k <= last; k++) {
		size_t upto = k < last ? s->sp[k].off : e;
		for (; at < upto && n < cap; at++, n++) {
			unsigned char c = (unsigned char)s->text[at];
			unsigned long w = display ? char_width(c, col, tabstop) : 1;
			v[n] = (struct walk_pos){ col, w, at, (char)c };
			col += w;
		}
		if (k == last)
			break;
		const struct inst_splice *sp = &s->sp[k];
		/* an insertion that continues an identifier (`_at` after a renamed name) stands for
		 * the identifier's last byte, so a range under the name does not grow by one */
		size_t stands = sp->off;
		if (sp->ins && sp->off > b && inst_is_idch((unsigned char)s->text[sp->off - 1]) &&
		    inst_is_idch((unsigned char)s->out[sp->out_off]))
			stands = sp->off - 1;
		for (uint32_t i = 0; i < sp->ins && n < cap; i++, n++) {
			unsigned char c = (unsigned char)s->out[sp->out_off + i];
			unsigned long w = display ? char_width(c, col, tabstop) : 1;
			v[n] = (struct walk_pos){ col, w, stands, (char)c };
			col += w;
		}
		if (at < sp->off + sp->del)
			at = sp->off + sp->del;
	}
	return n;
}

/* How a compiler counts the columns it prints for a line of the compiled copy. */
enum col_unit {
	COL_BYTE,          /* bytes of the compiled line (clang's locations) */
	COL_DISP_COMPILED, /* display cells of the compiled line (clang's excerpt, tabs expanded) */
	COL_DISP_ORIG,     /* the compiled line's byte column turned into display cells over the
			    * user's line, which is the file gcc reads for #line "file" (gcc's
			    * locations and excerpts) */
};

/* Room to walk input line `line` of the compiled copy (line_walk): a malloc'ed array of *cap
 * positions, when something was inserted on that line; *b, *e its span in s->text. NULL when
 * col is 0, nothing was inserted there, or out of memory (the caller leaves the column alone). */
static struct walk_pos *walk_spliced_line(struct cc_src *s, unsigned long line, unsigned long col,
					  size_t *b, size_t *e, size_t *cap)
{
	size_t first, last;
	if (col == 0 || !src_line(s, line, b, e) || !line_splices(s, *b, *e, &first, &last))
		return NULL;
	*cap = (*e - *b) + 1;
	for (size_t k = first; k < last; k++)
		*cap += s->sp[k].ins;
	return malloc(*cap * sizeof(struct walk_pos));
}

/* Maps column `col` (in `unit`) on input line `line` of the compiled copy to the user's column
 * (display cells when `display`, else bytes). Returns 0 when nothing was inserted on the line
 * (the column is right as it is). */
static unsigned long map_col(struct cc_diag *d, struct cc_src *s, unsigned long line,
			     unsigned long col, enum col_unit unit, int display)
{
	size_t b, e, cap;
	struct walk_pos *v = walk_spliced_line(s, line, col, &b, &e, &cap);
	if (!v)
		return 0;
	size_t n = line_walk(s, b, e, unit == COL_DISP_COMPILED, d->tabstop, v, cap);
	size_t k = SIZE_MAX; /* the compiled byte the column is on */
	if (unit == COL_BYTE) {
		k = col - 1;
	} else if (unit == COL_DISP_COMPILED) {
		for (size_t i = 0; i < n && k == SIZE_MAX; i++)
			if (col >= v[i].col && col < v[i].col + (v[i].width ? v[i].width : 1))
				k = i;
		if (k == SIZE_MAX)
			k = n + (col - (n ? v[n - 1].col + v[n - 1].width : 1));
	} else {
		unsigned long c = 1;
		for (size_t i = b; i < e && k == SIZE_MAX; i++) {
			unsigned long w = char_width((unsigned char)s->text[i], c, d->tabstop);
			if (col >= c && col < c + (w ? w : 1))
				k = i - b;
			c += w;
		}
		if (k == SIZE_MAX)
			k = (e - b) + (col > c ? col - c : 0);
	}
	size_t at = k < n ? v[k].orig : e + (k - n);
	free(v);
	if (at <= e)
		return orig_col(s, b, at, display, d->tabstop);
	return orig_col(s, b, e, display, d->tabstop) + (at - e);
}

/* The line with tabs expanded (as gcc and clang print excerpts), malloc'd. `compiled`: the
 * compiled copy's line rather than the input's. */
static char *line_expand(struct cc_diag *d, struct cc_src *s, unsigned long line, int compiled)
{
	size_t b, e;
	if (!src_line(s, line, &b, &e))
		return NULL;
	size_t cap = (e - b) + 1, first, last;
	if (compiled && line_splices(s, b, e, &first, &last))
		for (size_t k = first; k < last; k++)
			cap += s->sp[k].ins;
	struct walk_pos *v = malloc(cap * sizeof *v);
	char *out = malloc(cap * d->tabstop + 1);
	size_t n = 0, o = 0;
	if (!v || !out)
		goto out;
	if (compiled) {
		n = line_walk(s, b, e, 1, d->tabstop, v, cap);
	} else {
		unsigned long col = 1;
		for (size_t i = b; i < e; i++, n++) {
			unsigned long w = char_width((unsigned char)s->text[i], col, d->tabstop);
			v[n] = (struct walk_pos){ col, w, i, s->text[i] };
			col += w;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].c == '\t') {
			for (unsigned long k = 0; k < v[i].width; k++)
				out[o++] = ' ';
		} else {
			out[o++] = v[i].c;
		}
	}
	out[o] = '\0';
	free(v);
	return out;
out:
	free(v);
	free(out);
	return NULL;
}

/* Moves every mark of an excerpt's annotation line (carets, ranges, labels; display columns
 * from 1 at `ann`) to the input's columns. Returns a malloc'd line, or NULL to keep it. */
static char *remap_annotation(struct cc_diag *d, struct cc_src *s, unsigned long line,
			      const char *ann, enum col_unit unit)
{
	size_t n = strlen(ann);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	memset(out, ' ', n);
	size_t hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (ann[i] == ' ')
			continue;
		unsigned long m = map_col(d, s, line, i + 1, unit, 1);
		if (!m) {
			free(out);
			return NULL;
		}
		size_t at = m - 1;
		if (at >= n)
			continue; /* cannot grow: mapped columns are never to the right */
		if (out[at] == ' ' || ann[i] == '^')
			out[at] = ann[i];
		if (at + 1 > hi)
			hi = at + 1;
	}
	/* gcc draws the marks over the user's line, which is shorter than the compiled one: a
	 * range that lay beyond its end came out cut at the end of the line, or as a caret and
	 * blanks. Give the caret back the identifier it points at, as gcc underlines it on the
	 * original. */
	size_t b, e;
	if (unit == COL_DISP_ORIG && src_line(s, line, &b, &e) &&
	    n >= orig_col(s, b, e, 1, d->tabstop) - 1) {
		char *caret = memchr(out, '^', hi);
		size_t at = caret ? (size_t)(caret - out) : 0, ob = b;
		for (unsigned long c = 1; caret && ob < e && c < at + 1; ob++)
			c += char_width((unsigned char)s->text[ob], c, d->tabstop);
		while (caret && ob + 1 < e && inst_is_idch((unsigned char)s->text[ob]) &&
		       inst_is_idch((unsigned char)s->text[ob + 1]) && at + 1 < n) {
			if (out[++at] == ' ')
				out[at] = '~';
			ob++;
			hi = at + 1 > hi ? at + 1 : hi;
		}
	}
	out[hi] = '\0';
	return out;
}

/* The length of the wrapper name at p ("sg_" and an identifier), when it is the sg_ name of a
 * wrapped function, or the sg_NAME_at of one that takes a call site (*at set), else 0. */
static size_t wrapper_name(const char *p, int *at)
{
	size_t l = 0;
	*at = 0;
	if (strncmp(p, "sg_", 3))
		return 0;
	while (inst_is_idch((unsigned char)p[3 + l]))
		l++;
	if (l && inst_is_wrapped(p + 3, l))
		return l + 3;
	if (l > 3 && !strncmp(p + 3 + l - 3, "_at", 3) && inst_is_site_call(p + 3, l - 3)) {
		*at = 1;
		return l + 3;
	}
	return 0;
}

/* Notes that an excerpt lost len bytes at `at`. */
static void removed_add(struct cc_diag *d, size_t at, size_t len)
{
	if (d->n_removed < CC_DIAG_REMOVED) {
		d->removed[d->n_removed].at = at;
		d->removed[d->n_removed++].len = len;
	}
}

#define SITE_PARAM "struct sg_site_desc *site, "

/* An excerpt of sgtrace.h (a note "declared here" on a wrapper): the wrapper named as the user
 * wrote the call, an _at one without its site parameter. Returns the renamed line (malloc'd)
 * and where it lost bytes. */
static char *excerpt_renamed(struct cc_diag *d, const char *p)
{
	size_t n = strlen(p), o = 0;
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	d->n_removed = 0;
	for (size_t i = 0; i < n;) {
		int at = 0;
		size_t l = i == 0 || !inst_is_idch((unsigned char)p[i - 1]) ? wrapper_name(p + i, &at) :
			   0;
		if (!l || d->n_removed + 3 > CC_DIAG_REMOVED) {
			out[o++] = p[i++];
			continue;
		}
		removed_add(d, i, 3);
		size_t stem = l - 3 - (at ? 3 : 0);
		memcpy(out + o, p + i + 3, stem);
		o += stem;
		i += l;
		if (!at)
			continue;
		removed_add(d, i - 3, 3);
		if (p[i] == '(' && !strncmp(p + i + 1, SITE_PARAM, strlen(SITE_PARAM))) {
			out[o++] = '(';
			removed_add(d, i + 1, strlen(SITE_PARAM));
			i += 1 + strlen(SITE_PARAM);
		}
	}
	out[o] = '\0';
	return out;
}

/* The annotation under an excerpt_renamed line, with the same columns taken out (a caret at the
 * start of a removed "sg_" stays where the name starts). */
static char *annotation_squashed(const struct cc_diag *d, const char *ann)
{
	size_t n = strlen(ann), o = 0;
	char *out = malloc(n + 1), *drop = calloc(n + 1, 1);
	if (!out || !drop) {
		free(out);
		free(drop);
		return NULL;
	}
	for (size_t r = 0; r < d->n_removed; r++) {
		size_t at = d->removed[r].at;
		at += at < n && ann[at] == '^';
		for (size_t k = at; k < at + d->removed[r].len && k < n; k++)
			drop[k] = 1;
	}
	for (size_t i = 0; i < n; i++)
		if (!drop[i])
			out[o++] = ann[i];
	out[o] = '\0';
	free(drop);
	return out;
}

/* "NAME:LINE:COL:" at the start of p for one of the mapped sources. */
static struct cc_src *match_header(struct cc_diag *d, const char *p, unsigned long *line,
				   unsigned long *col, const char **col_at, const char **col_end)
{
	for (size_t k = 0; k < d->n; k++) {
		size_t l = strlen(d->srcs[k].name);
		if (strncmp(p, d->srcs[k].name, l) || p[l] != ':')
			continue;
		char *end;
		errno = 0;
		*line = strtoul(p + l + 1, &end, 10);
		if (end == p + l + 1 || *end != ':' || errno)
			continue;
		*col_at = end + 1;
		*col = strtoul(end + 1, &end, 10);
		if (end == *col_at || *end != ':')
			continue;
		*col_end = end;
		return &d->srcs[k];
	}
	return NULL;
}

static int user_spells(const struct cc_diag *d, const char *name, size_t len)
{
	for (size_t k = 0; k < d->n; k++)
		if (memmem(d->srcs[k].text, d->srcs[k].len, name, len))
			return 1;
	return 0;
}

/* gcc's "argument N of 'sg_NAME_at'" counts the site the instrumenter passed first: the user's
 * argument N is N - 1. `q` is at the "sg_"; the result is the number to print, or 0 when the
 * text before q is not that phrase. *digits gets where the number starts, *ndig its length. */
static unsigned long site_arg_number(const char *line, const char *q, const char **digits,
				     size_t *ndig)
{
	const char *e = q;
	/* the opening quote: ' or ` or U+2018 (gcc's quote in a UTF-8 locale) */
	if (e - line >= 3 && !memcmp(e - 3, "\xe2\x80\x98", 3))
		e -= 3;
	else if (e > line && (e[-1] == '\'' || e[-1] == '`'))
		e--;
	else
		return 0;
	if (e - line < 4 || memcmp(e - 4, " of ", 4))
		return 0;
	e -= 4;
	const char *d = e;
	while (d > line && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (d == e || d - line < 9 || memcmp(d - 9, "argument ", 9))
		return 0;
	unsigned long k = strtoul(d, NULL, 10);
	if (k < 2)
		return 0;
	*digits = d;
	*ndig = (size_t)(e - d);
	return k - 1;
}

/* Writes a message line with every sg_NAME of a wrapped NAME, and sg_NAME_at of one that takes a
 * call site, shown as NAME (an argument number of the latter one less). */
static void put_renamed(struct cc_diag *d, const char *p, FILE *out)
{
	const char *line = p;
	while (*p) {
		const char *q = strstr(p, "sg_");
		if (!q)
			break;
		int at;
		size_t l = wrapper_name(q, &at);
		int word = q == line || !inst_is_idch((unsigned char)q[-1]);
		if (!word || !l || user_spells(d, q, l)) {
			fwrite(p, 1, (size_t)(q + 3 - p), out);
			p = q + 3;
			continue;
		}
		const char *digits;
		size_t ndig;
		unsigned long k = at && q - p >= 0 ? site_arg_number(line, q, &digits, &ndig) : 0;
		if (k && digits >= p) {
			fwrite(p, 1, (size_t)(digits - p), out);
			fprintf(out, "%lu", k);
			p = digits + ndig;
		}
		fwrite(p, 1, (size_t)(q - p), out);
		fwrite(q + 3, 1, l - 3 - (at ? 3 : 0), out);
		p = q + l;
	}
	fputs(p, out);
}

/* Is the innermost call around byte column `col` (1-based) of input line `line`, as compiled,
 * one the instrumenter gave a call site (sg_NAME_at(&sg_site_K, ...))? A column on the call's
 * closing parenthesis counts as inside it. */
static int in_site_call(struct cc_src *s, unsigned long line, unsigned long col)
{
	size_t b, e, cap;
	struct walk_pos *v = walk_spliced_line(s, line, col, &b, &e, &cap);
	if (!v)
		return 0;
	size_t n = line_walk(s, b, e, 0, 8, v, cap), k = col - 1 < n ? col - 1 : n;
	int depth = 0, found = 0;
	while (k-- > 0 && !found) {
		if (v[k].c == ')') {
			depth++;
		} else if (v[k].c == '(' && depth > 0) {
			depth--;
		} else if (v[k].c == '(') {
			size_t j = k, l = 0;
			while (j > 0 && (v[j - 1].c == ' ' || v[j - 1].c == '\t'))
				j--;
			while (j > 0 && inst_is_idch((unsigned char)v[j - 1].c) && l < 40) {
				j--;
				l++;
			}
			char name[48];
			for (size_t i = 0; i < l; i++)
				name[i] = v[j + i].c;
			name[l] = '\0';
			int at;
			found = wrapper_name(name, &at) == l && at ? 1 : -1;
		}
	}
	free(v);
	return found == 1;
}

/* clang's "too many/few arguments to function call, expected N, have M" on a call with a site
 * counts the site: the message with N - 1 and M - 1, malloc'd, or NULL to keep it. */
static char *clang_arg_counts(struct cc_src *s, unsigned long line, unsigned long col,
			      const char *msg)
{
	const char *p = strstr(msg, " arguments to function call, expected ");
	unsigned long want, have;
	int end;
	if (!p || sscanf(p, " arguments to function call, expected %lu, have %lu%n", &want, &have,
			 &end) != 2 || want == 0 || have == 0 || !in_site_call(s, line, col))
		return NULL;
	size_t pre = (size_t)(p - msg), len = strlen(msg) + 64;
	char *out = malloc(len);
	if (out)
		snprintf(out, len, "%.*s arguments to function call, expected %lu, have %lu%s",
			 (int)pre, msg, want - 1, have - 1, p + end);
	return out;
}

/* Is the compiler clang? Asked once. */
static int diag_clang(struct cc_diag *d)
{
	if (d->clang < 0)
		d->clang = d->is_clang ? d->is_clang(d->ctx) : 0;
	return d->clang;
}

/* A header path "./x.h" found through our `-iquote .`: gcc would have found it beside the
 * source and said "x.h" (clang says "./x.h" either way). */
static const char *strip_dot(struct cc_diag *d, const char *p)
{
	if (!d->strip_dot || strncmp(p, "./", 2) || p[2] == '/')
		return p;
	const char *colon = strchr(p, ':');
	if (!colon || !((colon[1] >= '0' && colon[1] <= '9') || colon[1] == ' '))
		return p;
	return diag_clang(d) ? p : p + 2;
}

static int is_excerpt_gcc(const char *p, unsigned long *line, const char **text)
{
	const char *q = p;
	while (*q == ' ')
		q++;
	if (*q < '0' || *q > '9')
		return 0;
	char *end;
	*line = strtoul(q, &end, 10);
	if (strncmp(end, " |", 2))
		return 0;
	*text = end[2] == ' ' ? end + 3 : end + 2;
	return 1;
}

static int is_annotation_gcc(const char *p, const char **text)
{
	const char *q = p;
	while (*q == ' ')
		q++;
	if (q == p || strncmp(q, "|", 1))
		return 0;
	*text = q[1] == ' ' ? q + 2 : q + 1;
	return 1;
}

static int is_caret_clang(const char *p)
{
	int mark = 0;
	for (; *p; p++) {
		if (*p == '^' || *p == '~')
			mark = 1;
		else if (*p != ' ')
			return 0;
	}
	return mark;
}

/* One line of the compiler's stderr (without its newline). */
static void diag_line(struct cc_diag *d, char *p, FILE *out)
{
	unsigned long line, col, xline;
	const char *col_at, *col_end, *text;
	struct cc_src *s = match_header(d, p, &line, &col, &col_at, &col_end);
	if (s) {
		d->in_sgtrace = 0;
		d->cur = s;
		d->cur_line = line;
		d->clang_excerpt = 1;
		if (d->display < 0)
			d->display = !diag_clang(d);
		unsigned long c = col + 1 - (unsigned long)d->origin;
		unsigned long m = col + 1 >= (unsigned long)d->origin ?
				  map_col(d, s, line, c, d->display ? COL_DISP_ORIG : COL_BYTE,
					  d->display) : 0;
		fwrite(p, 1, (size_t)(col_at - p), out);
		fprintf(out, "%lu", m ? m + (unsigned long)d->origin - 1 : col);
		char *counts = diag_clang(d) ? clang_arg_counts(s, line, c, col_end) : NULL;
		put_renamed(d, counts ? counts : col_end, out);
		free(counts);
		fputc('\n', out);
		return;
	}
	if (d->in_sgtrace && (is_excerpt_gcc(p, &xline, &text) ||
			      (d->in_sgtrace == 2 && !strstr(p, ": ") && (text = p)))) {
		d->in_sgtrace = 1;
		char *r = excerpt_renamed(d, text);
		if (r) {
			fwrite(p, 1, (size_t)(text - p), out);
			fprintf(out, "%s\n", r);
			free(r);
			return;
		}
	}
	if (d->in_sgtrace && d->n_removed && (is_annotation_gcc(p, &text) ||
					      (is_caret_clang(p) && (text = p)))) {
		char *r = annotation_squashed(d, text);
		d->n_removed = 0;
		if (r) {
			fwrite(p, 1, (size_t)(text - p), out);
			fprintf(out, "%s\n", r);
			free(r);
			return;
		}
	}
	if (is_excerpt_gcc(p, &xline, &text) && d->cur) {
		d->clang_excerpt = 0;
		d->excerpt_line = xline;
		char *want = line_expand(d, d->cur, xline, 1);
		if (want && !strcmp(text, want)) { /* the compiled copy's line: show the user's */
			char *orig = line_expand(d, d->cur, xline, 0);
			if (orig) {
				fwrite(p, 1, (size_t)(text - p), out);
				fprintf(out, "%s\n", orig);
				free(orig);
				free(want);
				return;
			}
		}
		free(want);
		fprintf(out, "%s\n", p);
		return;
	}
	if (is_annotation_gcc(p, &text) && d->cur && d->excerpt_line) {
		char *m = remap_annotation(d, d->cur, d->excerpt_line, text, COL_DISP_ORIG);
		if (m) {
			fwrite(p, 1, (size_t)(text - p), out);
			fprintf(out, "%s\n", m);
			free(m);
			return;
		}
		fprintf(out, "%s\n", p);
		return;
	}
	if (d->cur && d->clang_excerpt == 1) { /* clang: the excerpt right after the header */
		d->clang_excerpt = 0;
		char *want = line_expand(d, d->cur, d->cur_line, 1);
		char *orig = want && !strcmp(p, want) ? line_expand(d, d->cur, d->cur_line, 0) :
			     NULL;
		free(want);
		if (orig) {
			fprintf(out, "%s\n", orig);
			free(orig);
			d->clang_excerpt = 2;
			return;
		}
	} else if (d->cur && d->clang_excerpt == 2 && is_caret_clang(p)) {
		d->clang_excerpt = 0;
		char *m = remap_annotation(d, d->cur, d->cur_line, p, COL_DISP_COMPILED);
		if (m) {
			fprintf(out, "%s\n", m);
			free(m);
			return;
		}
	}
	d->clang_excerpt = 0;
	/* another file's header, or `In file included from X:L:` / `   from X:L,` */
	const char *from = NULL;
	if (!strncmp(p, "In file included from ", 22))
		from = p + 22;
	else if (p[0] == ' ' && (from = strstr(p, "from ./")) && from == p + strspn(p, " "))
		from += 5;
	else
		from = NULL;
	if (from) {
		fwrite(p, 1, (size_t)(from - p), out);
		fprintf(out, "%s\n", strip_dot(d, from));
		return;
	}
	if (strstr(p, ": error: ") || strstr(p, ": warning: ") || strstr(p, ": note: ") ||
	    strstr(p, ": fatal error: ") || strstr(p, ": In function ")) {
		d->cur = NULL;
		d->excerpt_line = 0;
		const char *h = strstr(p, "sgtrace.h:");
		d->in_sgtrace = h && (h == p || h[-1] == '/') ? 2 : 0; /* its excerpt may follow */
		d->n_removed = 0;
		put_renamed(d, strip_dot(d, p), out);
		fputc('\n', out);
		return;
	}
	fprintf(out, "%s\n", p);
}

/* The line without its SGR colour codes (ESC [ ... m, and gcc's ESC [ K), in place. */
static void strip_sgr(char *p)
{
	char *o = p;
	while (*p) {
		if (p[0] == '\033' && p[1] == '[') {
			char *q = p + 2;
			while ((*q >= '0' && *q <= '9') || *q == ';')
				q++;
			if (*q == 'm' || *q == 'K') {
				p = q + 1;
				continue;
			}
		}
		*o++ = *p++;
	}
	*o = '\0';
}

int cc_diag_filter(struct cc_diag *d, FILE *in, FILE *out)
{
	char *line = NULL, *plain = NULL, *buf = NULL;
	size_t cap = 0, blen = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, in)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (!memchr(line, '\033', (size_t)n)) {
			diag_line(d, line, out);
			continue;
		}
		/* coloured (-fdiagnostics-color=always): read it plain, and print it as it came
		 * unless it had to change */
		FILE *m;
		free(plain);
		plain = strdup(line);
		if (!plain || !(m = open_memstream(&buf, &blen))) {
			fprintf(out, "%s\n", line);
			continue;
		}
		strip_sgr(plain);
		diag_line(d, plain, m);
		fclose(m);
		if (blen == strlen(plain) + 1 && !memcmp(buf, plain, blen - 1))
			fprintf(out, "%s\n", line);
		else
			fputs(buf, out);
		free(buf);
		buf = NULL;
	}
	free(line);
	free(plain);
	fflush(out);
	return 0;
}

void cc_diag_free(struct cc_diag *d)
{
	for (size_t k = 0; k < d->n; k++)
		free(d->srcs[k].bol);
}
