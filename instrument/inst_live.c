/*
 * inst_live.c — which #if groups of a file the compiler compiles, from the lines its own
 * preprocessor kept (struct inst_lines, read from the line markers by inst_cpp.c), and the
 * text the parser reads then: a copy of the file with every other group blanked (each byte a
 * space but newlines), so offsets and line numbers stay and the edits still splice into the
 * user's bytes. A function header split across `#ifdef WIN32 ... #else ... #endif` (PARSEC
 * blackscholes) then parses as the compiler sees it.
 *
 * The rule (docs/instrumenter.md, "Conditional code"): a group — the lines between one
 * #if/#ifdef/#ifndef/#elif/#else and the next directive of the same conditional — is compiled
 * when one of its own code lines (outside nested groups, directives, comments and blank lines;
 * a #pragma line counts, the preprocessor prints it) shows up, not blank, in the preprocessed
 * text. A group with no code line of its own is undecided and kept (nested groups are judged on
 * their own). Kept too, because the preprocessor prints a macro invocation's expansion on the
 * invocation's first line: a group that opens inside parentheses (a conditional among a macro's
 * arguments), and every group of an #if ... #else conditional none of whose groups showed up.
 * The scan follows the instrumenter's scanner: a directive starts with '#' at the start of a
 * physical line, backslash-newline continues a line, comments and literals hide everything.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

struct group {
	uint32_t content;  /* first byte after its opening directive */
	uint32_t end;      /* line start of the directive that closes it */
	uint32_t cond;     /* its conditional */
	int depth;         /* parentheses open at its opening directive */
	uint8_t code, seen;
};

struct cond {
	size_t first;      /* its first group */
	size_t cur;        /* the group open now */
	int depth_if;      /* parentheses open at its #if */
	int depth_first;   /* and at the end of its first group (-1: not ended yet) */
	uint8_t has_else;
};

struct live {
	const char *src;
	size_t len;
	const struct inst_lines *l;
	struct group *g;
	size_t n_g, cap_g;
	struct cond *c;
	size_t n_c, cap_c;
	size_t *stack;     /* open conditionals */
	size_t n_stack, cap_stack;
	struct { uint32_t off, end; } *blank;
	size_t n_blank, cap_blank;
	uint32_t line;     /* physical line of the scan */
	uint32_t lline;    /* where the current logical line started */
	int marked;        /* its code was noted */
	int depth;
	int top_code, top_seen;
	int oom;
};

static int line_seen(const struct live *v, uint32_t line)
{
	return line < v->l->n_lines && v->l->seen[line];
}

/* Code on the current logical line: its group has a code line, seen or not. */
static void mark_code(struct live *v)
{
	if (v->marked)
		return;
	v->marked = 1;
	int seen = line_seen(v, v->lline);
	if (v->n_stack == 0) {
		v->top_code = 1;
		v->top_seen |= seen;
		return;
	}
	struct group *g = &v->g[v->c[v->stack[v->n_stack - 1]].cur];
	g->code = 1;
	g->seen |= (uint8_t)seen;
}

static void new_line(struct live *v)
{
	v->line++;
	v->lline = v->line;
	v->marked = 0;
}

static void group_open(struct live *v, size_t ci, uint32_t content)
{
	if (inst_grow(&v->g, &v->cap_g, v->n_g, sizeof *v->g, 64)) {
		v->oom = 1;
		return;
	}
	v->g[v->n_g] = (struct group){ content, (uint32_t)v->len, (uint32_t)ci, v->depth, 0, 0 };
	v->c[ci].cur = v->n_g++;
}

/* A conditional ends: its dead groups are blanked (the rule above). */
static void cond_decide(struct live *v, size_t ci)
{
	const struct cond *c = &v->c[ci];
	int any = 0;
	for (size_t k = c->first; k < v->n_g; k++)
		if (v->g[k].cond == ci)
			any |= !(v->g[k].code && !v->g[k].seen && v->g[k].depth == 0);
	if (!any && c->has_else)
		return; /* one of them is compiled wherever this is: something hid it */
	for (size_t k = c->first; k < v->n_g; k++) {
		const struct group *g = &v->g[k];
		int dead = g->code && !g->seen && g->depth == 0;
		if (g->cond != ci || !dead || g->end <= g->content)
			continue;
		if (inst_grow(&v->blank, &v->cap_blank, v->n_blank, sizeof *v->blank, 16)) {
			v->oom = 1;
			return;
		}
		v->blank[v->n_blank].off = g->content;
		v->blank[v->n_blank++].end = g->end;
	}
}

/* Skips blanks and comments inside a directive line (not its newline). */
static size_t dir_blank(const char *p, size_t i, size_t n)
{
	for (;;) {
		if (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\f' ||
			      p[i] == '\v')) {
			i++;
		} else if (i + 1 < n && p[i] == '/' && p[i + 1] == '*') {
			const char *e = NULL;
			for (size_t j = i + 2; j + 1 < n && p[j] != '\n'; j++)
				if (p[j] == '*' && p[j + 1] == '/') {
					e = p + j + 2;
					break;
				}
			if (!e)
				return i;
			i = (size_t)(e - p);
		} else {
			return i;
		}
	}
}

/* Skips a string or character literal opening at src[i]; it ends at its closing quote or,
 * unterminated, before the end of its line (as the scanner does). Returns the offset after. */
static size_t skip_literal(struct live *v, size_t i)
{
	const char *s = v->src;
	char q = s[i];
	for (i++; i < v->len && s[i] != q && s[i] != '\n'; i++)
		if (s[i] == '\\' && i + 1 < v->len) {
			if (s[i + 1] == '\n')
				v->line++;
			i++;
		}
	return i < v->len && s[i] == q ? i + 1 : i;
}

/* A block comment at src[i] ("/" "*"): returns the offset after it. */
static size_t skip_comment(struct live *v, size_t i)
{
	const char *s = v->src;
	for (i += 2; i < v->len; i++) {
		if (s[i] == '\n')
			new_line(v);
		else if (s[i] == '*' && i + 1 < v->len && s[i + 1] == '/')
			return i + 2;
	}
	return v->len;
}

/* A line comment at src[i]: returns the offset of the newline that ends it. */
static size_t skip_line_comment(struct live *v, size_t i)
{
	const char *s = v->src;
	for (; i < v->len && s[i] != '\n'; i++)
		if (s[i] == '\\' && i + 1 < v->len && s[i + 1] == '\n') {
			v->line++;
			i++;
		}
	return i;
}

static int word_is(const char *p, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(p, w, len);
}

/* A directive whose '#' is at src[i] (its line starts at `ls`): follows the conditionals.
 * Returns the offset after the newline that ends it. */
static size_t directive(struct live *v, size_t i, size_t ls)
{
	const char *s = v->src;
	size_t n = v->len, w = dir_blank(s, i + 1, n), wl = 0;
	uint32_t dline = v->lline;
	while (w + wl < n && inst_is_idch((unsigned char)s[w + wl]))
		wl++;
	const char *word = s + w;
	/* the end of the logical line: continuations, comments and literals go on */
	size_t j = w + wl;
	while (j < n && s[j] != '\n') {
		if (s[j] == '\\' && j + 1 < n && s[j + 1] == '\n') {
			v->line++;
			j += 2;
		} else if (s[j] == '/' && j + 1 < n && s[j + 1] == '*') {
			uint32_t keep = v->lline;
			j = skip_comment(v, j);
			v->lline = keep;
		} else if (s[j] == '/' && j + 1 < n && s[j + 1] == '/') {
			j = skip_line_comment(v, j);
		} else if (s[j] == '"' || s[j] == '\'') {
			j = skip_literal(v, j);
		} else {
			j++;
		}
	}
	size_t after = j < n ? j + 1 : n;
	if (word_is(word, wl, "if") || word_is(word, wl, "ifdef") || word_is(word, wl, "ifndef")) {
		if (inst_grow(&v->c, &v->cap_c, v->n_c, sizeof *v->c, 32) ||
		    inst_grow(&v->stack, &v->cap_stack, v->n_stack, sizeof *v->stack, 16)) {
			v->oom = 1;
			return after;
		}
		size_t ci = v->n_c++;
		v->c[ci] = (struct cond){ v->n_g, 0, v->depth, -1, 0 };
		v->stack[v->n_stack++] = ci;
		group_open(v, ci, (uint32_t)after);
	} else if (v->n_stack && (word_is(word, wl, "elif") || word_is(word, wl, "else") ||
				  word_is(word, wl, "elifdef") || word_is(word, wl, "elifndef"))) {
		struct cond *c = &v->c[v->stack[v->n_stack - 1]];
		v->g[c->cur].end = (uint32_t)ls;
		if (c->depth_first < 0)
			c->depth_first = v->depth;
		v->depth = c->depth_if;
		c->has_else |= word_is(word, wl, "else");
		group_open(v, v->stack[v->n_stack - 1], (uint32_t)after);
	} else if (v->n_stack && word_is(word, wl, "endif")) {
		size_t ci = v->stack[--v->n_stack];
		struct cond *c = &v->c[ci];
		v->g[c->cur].end = (uint32_t)ls;
		if (c->depth_first >= 0)
			v->depth = c->depth_first;
		cond_decide(v, ci);
	} else if (word_is(word, wl, "pragma")) {
		uint32_t keep = v->lline;
		v->lline = dline;
		v->marked = 0;
		mark_code(v);
		v->lline = keep;
	}
	return after;
}

int inst_live_text(const char *src, size_t len, const struct inst_lines *l, char **out)
{
	struct live v = { .src = src, .len = len, .l = l, .line = 1, .lline = 1 };
	size_t i = 0, ls = 0;
	int at_start = 1, rc = 0;
	*out = NULL;
	while (i < len && !v.oom) {
		char c = src[i];
		if (c == '\n') {
			new_line(&v);
			at_start = 1;
			ls = ++i;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
		} else if (c == '\\' && i + 1 < len && src[i + 1] == '\n') {
			v.line++;
			i += 2;
		} else if (c == '/' && i + 1 < len && src[i + 1] == '*') {
			i = skip_comment(&v, i);
			at_start = 0;
		} else if (c == '/' && i + 1 < len && src[i + 1] == '/') {
			i = skip_line_comment(&v, i);
		} else if (c == '#' && at_start) {
			i = directive(&v, i, ls);
			new_line(&v);
			ls = i;
		} else {
			mark_code(&v);
			at_start = 0;
			if (c == '"' || c == '\'') {
				i = skip_literal(&v, i);
			} else {
				if (c == '(')
					v.depth++;
				else if (c == ')' && v.depth > 0)
					v.depth--;
				i++;
			}
		}
	}
	while (v.n_stack && !v.oom) /* unterminated conditionals end with the file */
		cond_decide(&v, v.stack[--v.n_stack]);
	if (v.oom) {
		rc = -ENOMEM;
		goto out;
	}
	if (v.top_code && !v.top_seen) {
		rc = -EPROTO; /* the lines do not belong to this text */
		goto out;
	}
	if (v.n_blank == 0)
		goto out;
	char *t = malloc(len ? len : 1);
	if (!t) {
		rc = -ENOMEM;
		goto out;
	}
	memcpy(t, src, len);
	for (size_t k = 0; k < v.n_blank; k++)
		for (uint32_t b = v.blank[k].off; b < v.blank[k].end && b < len; b++)
			if (t[b] != '\n')
				t[b] = ' ';
	*out = t;
out:
	free(v.g);
	free(v.c);
	free(v.stack);
	free(v.blank);
	return rc;
}
