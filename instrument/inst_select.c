/*
 * inst_select.c — which top-level items are function definitions, and which of those get
 * entry/exit probes. It runs before the probe pass (inst_probe.c) because the default rule looks
 * across functions: a function is left out when it calls itself (a recursive tree walk records
 * one event pair per node) or when it is a tiny helper called from inside a loop or from a
 * recursive function of the same file (gravsub in SPLASH-3 BARNES: 15.5 M calls per run). Both
 * need every definition of the file and every call site first: inst_select_find lists the
 * definitions before the probe pass, whose walk over each body reports loops, sync calls and
 * calls here (inst_select_loop, inst_select_call: one walk over the tree, not two), and
 * inst_select_decide gives each its verdict and reason after it (`--explain`).
 * docs/instrumenter.md has the rule.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

/* A function with at most this many statements (declarations, and the statements of every #if
 * branch, counted) and no loop but short fixed ones is "tiny": its body costs about what its two
 * probe records cost (~25 ns), so a probe on it measures mostly itself. */
#define TINY_MAX_STMTS 32
/* `for (i = 0; i < K; i++)` with a literal K up to this is a short fixed loop (vector code). */
#define SHORT_LOOP_MAX 16

static const struct inst_node *N(const struct inst_tree *t, int32_t i)
{
	return &t->nodes[i];
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

uint32_t inst_id_len(const char *src, size_t len, uint32_t off)
{
	uint32_t i = off;
	while (i < len && inst_is_idch((unsigned char)src[i]))
		i++;
	return i - off;
}

int inst_is_member(const char *src, uint32_t off)
{
	while (off > 0 && is_blank(src[off - 1]))
		off--;
	return off > 0 && (src[off - 1] == '.' ||
			   (off > 1 && src[off - 1] == '>' && src[off - 2] == '-'));
}

/* --- which items are function definitions ------------------------------------------------ */

/* Does the parenthesis group start with '*' (a pointer declarator `(*name(...))`, not a call)? */
static int group_is_pointer(const char *src, const struct inst_node *paren)
{
	uint32_t i = paren->off + 1;
	while (i < paren->end && is_blank(src[i]))
		i++;
	return i < paren->end && src[i] == '*';
}

/* Is `grp` a parenthesised name `( name )` — one identifier and blanks, nothing else? Returns
 * the N_ID node or -1. */
static int32_t group_only_name(const struct inst_tree *t, const char *src,
			       const struct inst_node *grp)
{
	if (grp->a < 0)
		return -1;
	const struct inst_node *l = N(t, grp->a);
	int32_t c = l->first;
	if (c < 0 || l->last != c || N(t, c)->kind != N_ID)
		return -1;
	for (uint32_t i = grp->off + 1; i + 1 < grp->end; i++)
		if (!is_blank(src[i]) && (i < N(t, c)->off || i >= N(t, c)->end))
			return -1;
	return c;
}

/* The first call in a declarator group, looking through nested pointer groups:
 * `(*name(params))`, `(*(*name(params))(int))`. A group that holds only a name and is followed
 * by a parameter group is a parenthesised declarator name: `T *(name)(params)`. */
static int32_t group_name(const struct inst_tree *t, const char *src,
			  const struct inst_node *grp, int depth)
{
	if (grp->a < 0 || depth > 64)
		return -1;
	int32_t only = group_only_name(t, src, grp);
	if (only >= 0)
		return grp->next >= 0 && N(t, grp->next)->kind == N_PAREN ? only : -1;
	for (int32_t c = N(t, grp->a)->first; c >= 0; c = N(t, c)->next) {
		const struct inst_node *n = N(t, c);
		if (n->kind == N_CALL && n->a >= 0 && group_is_pointer(src, N(t, n->a)))
			return group_name(t, src, N(t, n->a), depth + 1);
		if (n->kind == N_CALL)
			return c;
		if (n->kind == N_PAREN)
			return group_name(t, src, n, depth + 1);
	}
	return -1;
}

/* The declarator name in a head:
 *   decl -> spec* name '(' params ')'            first call with something before it
 *         | spec* '(' '*' name '(' params ')' ')' '(' ... ')'   functions returning function
 *                                               pointers: `int (*f(int))(int)`, where `int (`
 *                                               looks like a call
 *         | spec* '(' name ')' '(' params ')'  a parenthesised name: `int (f)(void)`, where
 *                                               `int (f)` looks like a call of `int`,
 *                                               and `T *(f)(...)`
 * Returns the N_CALL or N_ID node of the name, or -1. */
static int32_t decl_name(const struct inst_tree *t, const char *src, int32_t head)
{
	int32_t before = 0, attr = 0;
	for (int32_t i = N(t, head)->first; i >= 0; i = N(t, i)->next) {
		const struct inst_node *n = N(t, i);
		if (attr && n->kind == N_PAREN) { /* __attribute__((...)), asm("..."), typeof(...) */
			attr = 0;
			before++;
			continue;
		}
		attr = n->kind == N_KW && n->sub == KW_ATTR;
		if (n->kind == N_CALL && n->a >= 0 && group_is_pointer(src, N(t, n->a)))
			return group_name(t, src, N(t, n->a), 0); /* `type (*name(...))(...)` */
		if (n->kind == N_CALL && n->a >= 0 && n->next >= 0 &&
		    N(t, n->next)->kind == N_PAREN) {
			int32_t only = group_only_name(t, src, N(t, n->a));
			if (only >= 0)
				return only; /* `int (name)(params)` */
		}
		if (n->kind == N_CALL && before)
			return i;
		if (n->kind == N_PAREN && before)
			return group_name(t, src, n, 0);
		before++;
	}
	return -1;
}

/* Rejects heads that cannot start a function definition; notes specifiers. */
static int head_ok(const struct inst_tree *t, int32_t head, struct inst_fn *f)
{
	for (int32_t i = N(t, head)->first; i >= 0; i = N(t, i)->next) {
		const struct inst_node *n = N(t, i);
		if (n->kind == N_ASSIGN || n->kind == N_PRAGMA || n->kind == N_BLOCK)
			return 0;
		if (n->kind == N_KW) {
			if (n->sub == KW_LOOP || n->sub == KW_STMT || n->sub == KW_TYPEDEF)
				return 0;
			f->is_static |= n->sub == KW_STATIC;
			f->is_inline |= n->sub == KW_INLINE;
		}
	}
	return 1;
}

/* Is the text of a parenthesis group an identifier list `(a, b, c)` (K&R parameters)? */
static int ident_list(const char *src, const struct inst_node *paren)
{
	for (uint32_t i = paren->off + 1; i + 1 < paren->end; i++) {
		char c = src[i];
		if (!inst_is_idch((unsigned char)c) && c != ',' && !is_blank(c))
			return 0;
	}
	return 1;
}

/* Does the identifier at src[off], `len` bytes, have a lowercase letter? An all-caps NAME(x)
 * at file scope is a macro far more often than a function. */
static int has_lower(const char *src, uint32_t off, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (src[off + i] >= 'a' && src[off + i] <= 'z')
			return 1;
	return 0;
}

/* A definition with no type before its name (implicit int, C89), whose head decl_name cannot
 * tell from a call:
 *   implicit -> name '(' ident-list ')'              `main() {`, `foo(a, b) {`
 *             | name '(' ident-list ')' decl ...     K&R: `main(argc, argv) int argc; ...`
 * With `knr`, the head must go on after the call (the first parameter declaration); without,
 * the call must be the whole head. The name must be `main` or have a lowercase letter (an
 * all-caps `TEST(x) {` is taken for a macro, as before). Returns the N_CALL node or -1. */
static int32_t implicit_int_name(const struct inst_tree *t, const char *src, size_t len,
				 int32_t head, int knr)
{
	int32_t c = N(t, head)->first;
	const struct inst_node *n = N(t, c);
	if (n->kind != N_CALL || n->a < 0 || !ident_list(src, N(t, n->a)) ||
	    (knr ? n->next < 0 : n->next >= 0))
		return -1;
	uint32_t l = inst_id_len(src, len, n->off);
	if ((l == 4 && !memcmp(src + n->off, "main", 4)) || has_lower(src, n->off, l))
		return c;
	return -1;
}

/* Decides whether top-level item `items[k]` (with a block) is a function definition. */
static int fn_detect(const struct inst_tree *t, const char *src, size_t len,
		     const int32_t *items, size_t k, struct inst_fn *f)
{
	const struct inst_node *it = N(t, items[k]);
	memset(f, 0, sizeof *f);
	f->item = items[k];
	if (it->a >= 0) {
		if (!head_ok(t, it->a, f))
			return 0;
		f->name = decl_name(t, src, it->a);
		if (f->name < 0)
			f->name = implicit_int_name(t, src, len, it->a, 0);
		f->start = items[k];
		return f->name >= 0;
	}
	/* K&R: `int f(a, b) int a; char *b; {` arrives as items `int f(a,b) int a;`, `char *b;`
	 * and an item with an empty head and the body. */
	for (size_t j = k; j-- > 0 && k - j <= 64;) {
		const struct inst_node *d = N(t, items[j]);
		if (d->b >= 0 || d->a < 0)
			return 0;
		struct inst_fn g;
		memset(&g, 0, sizeof g);
		if (!head_ok(t, d->a, &g))
			return 0;
		int32_t name = decl_name(t, src, d->a);
		if (name < 0)
			name = implicit_int_name(t, src, len, d->a, 1);
		if (name >= 0 && N(t, name)->kind == N_CALL && N(t, name)->a >= 0 &&
		    N(t, name)->next >= 0 && ident_list(src, N(t, N(t, name)->a))) {
			f->is_static = g.is_static;
			f->is_inline = g.is_inline;
			f->name = name;
			f->start = items[j];
			return 1;
		}
	}
	return 0;
}

/* --- facts about each body ---------------------------------------------------------------- */

/* Parses an unsigned decimal or hex literal at src[*i]; returns it (saturated), or -1. */
static long literal_at(const char *src, uint32_t *i, uint32_t end)
{
	uint32_t k = *i;
	long v = 0;
	int base = 10, digits = 0;
	if (k + 1 < end && src[k] == '0' && (src[k + 1] == 'x' || src[k + 1] == 'X')) {
		base = 16;
		k += 2;
	}
	for (; k < end; k++, digits++) {
		int c = (unsigned char)src[k], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && ((c | 32) >= 'a' && (c | 32) <= 'f'))
			d = (c | 32) - 'a' + 10;
		else
			break;
		v = v > 1000000 ? v : v * base + d;
	}
	while (k < end && (src[k] == 'u' || src[k] == 'U' || src[k] == 'l' || src[k] == 'L'))
		k++;
	if (!digits || (k < end && inst_is_idch((unsigned char)src[k])))
		return -1;
	*i = k;
	return v;
}

/* for_header -> '(' init ';' ID ('<' | '<=' | '!=') LITERAL ';' step ')' with LITERAL <=
 * SHORT_LOOP_MAX: a short loop of fixed length (`for (i = 0; i < NDIM; i++)` after the macros
 * are expanded by hand, or a 3-iteration search). Anything else is a real loop. */
static int short_fixed_loop(const char *src, const struct inst_node *paren)
{
	uint32_t i = paren->off + 1, end = paren->end - 1;
	while (i < end && src[i] != ';') /* init: anything without a nested ';' */
		if (src[i++] == '(')
			return 0;
	if (i++ >= end)
		return 0;
	while (i < end && is_blank(src[i]))
		i++;
	uint32_t l = inst_id_len(src, end, i);
	if (!l)
		return 0;
	for (i += l; i < end && is_blank(src[i]); i++)
		;
	if (i + 1 < end && (src[i] == '<' || src[i] == '!') && src[i + 1] == '=')
		i += 2;
	else if (i < end && src[i] == '<' && src[i + 1] != '<')
		i++;
	else
		return 0;
	while (i < end && is_blank(src[i]))
		i++;
	long v = literal_at(src, &i, end);
	while (i < end && is_blank(src[i]))
		i++;
	return v >= 0 && v <= SHORT_LOOP_MAX && i < end && src[i] == ';';
}

static long fn_lookup(const struct inst_sel *s, uint32_t off, uint32_t len);

void inst_select_call(struct inst_sel *s, int32_t fi, const struct inst_node *n, uint32_t len,
		      int in_loop)
{
	s->fns->v[fi].has_call = 1;
	long callee = fn_lookup(s, n->off, len);
	if (callee < 0 && s->want_ext) { /* for the other files of the program */
		if (inst_grow(&s->ext, &s->cap_ext, s->n_ext, sizeof *s->ext, 256)) {
			s->oom = 1;
			return;
		}
		s->ext[s->n_ext++] = (struct inst_sel_ext){ n->off, len, n->line, (uint32_t)fi,
							    (uint8_t)!!in_loop };
	}
	if (callee < 0)
		return; /* the rule only needs the calls of this file's functions */
	if (inst_grow(&s->calls, &s->cap_calls, s->n_calls, sizeof *s->calls, 256)) {
		s->oom = 1;
		return;
	}
	s->calls[s->n_calls++] = (struct inst_sel_call){ n->line, (uint32_t)fi, (int32_t)callee,
							 (uint8_t)!!in_loop };
}

void inst_select_loop(struct inst_sel *s, int32_t fi, const struct inst_node *kw)
{
	const struct inst_tree *t = s->t;
	if (s->src[kw->off] == 'f' && kw->next >= 0 && N(t, kw->next)->kind == N_PAREN &&
	    short_fixed_loop(s->src, N(t, kw->next)))
		s->fns->v[fi].has_short_loop = 1;
	else
		s->fns->v[fi].has_loop = 1;
}

/* --- pthread_create's start routines ------------------------------------------------------ */

/* The identifier an argument ends with (a thread start routine behind casts, possibly in
 * parentheses of its own: `(void *(*)(void *))(worker)`), if any. */
static int last_ident(const char *s, uint32_t from, uint32_t to, uint32_t *off, uint32_t *len)
{
	while (to > from && is_blank(s[to - 1]))
		to--;
	int paren = to > from && s[to - 1] == ')';
	if (paren)
		for (to--; to > from && is_blank(s[to - 1]);)
			to--;
	uint32_t b = to;
	while (b > from && inst_is_idch((unsigned char)s[b - 1]))
		b--;
	if (b == to || (s[b] >= '0' && s[b] <= '9'))
		return 0;
	if (paren) { /* `(name)`, not a call `f(name)` */
		uint32_t k = b;
		while (k > from && is_blank(s[k - 1]))
			k--;
		if (k == from || s[k - 1] != '(')
			return 0;
		for (k--; k > from && is_blank(s[k - 1]);)
			k--;
		if (k > from && inst_is_idch((unsigned char)s[k - 1]))
			return 0;
	}
	*off = b;
	*len = to - b;
	return 1;
}

/* pthread_create(thread, attr, START, arg): the function named START is a start routine. */
static void note_start_routine(struct inst_sel *s, const struct inst_node *call)
{
	const struct inst_node *paren = N(s->t, call->a);
	const char *src = s->src;
	int depth = 0, commas = 0;
	uint32_t from = 0, to = 0, off, len;
	for (uint32_t i = paren->off + 1; i + 1 < paren->end && !to; i++) {
		char c = src[i];
		if (c == '"' || c == '\'') {
			for (i++; i + 1 < paren->end && src[i] != c; i++)
				if (src[i] == '\\')
					i++;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			depth--;
		} else if (c == ',' && depth == 0) {
			if (++commas == 2)
				from = i + 1;
			else if (commas == 3)
				to = i;
		}
	}
	if (!from || !to || !last_ident(src, from, to, &off, &len))
		return;
	long k = fn_lookup(s, off, len);
	if (k >= 0 && !s->fns->v[k].start_line)
		s->fns->v[k].start_line = call->line;
}

/* --- the rule ----------------------------------------------------------------------------- */

static uint32_t name_hash(const char *p, uint32_t len)
{
	uint32_t h = 2166136261u;
	for (uint32_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

/* An open-addressing table from names to definitions (first definition of a name wins). */
static int fn_index(struct inst_sel *s)
{
	size_t cap = 64;
	while (cap < 2 * s->fns->n)
		cap *= 2;
	s->index = malloc(cap * sizeof *s->index);
	if (!s->index)
		return -ENOMEM;
	memset(s->index, 0xff, cap * sizeof *s->index);
	s->index_mask = cap - 1;
	for (size_t k = 0; k < s->fns->n; k++) {
		const struct inst_fn *f = &s->fns->v[k];
		size_t h = name_hash(s->src + f->name_off, f->name_len) & s->index_mask;
		for (;; h = (h + 1) & s->index_mask) {
			int32_t o = s->index[h];
			if (o < 0) {
				s->index[h] = (int32_t)k;
				break;
			}
			const struct inst_fn *g = &s->fns->v[o];
			if (g->name_len == f->name_len &&
			    !memcmp(s->src + g->name_off, s->src + f->name_off, f->name_len))
				break;
		}
	}
	return 0;
}

/* The definition named src[off..off+len), or -1. */
static long fn_lookup(const struct inst_sel *s, uint32_t off, uint32_t len)
{
	for (size_t h = name_hash(s->src + off, len) & s->index_mask;; h = (h + 1) & s->index_mask) {
		int32_t o = s->index[h];
		if (o < 0)
			return -1;
		const struct inst_fn *g = &s->fns->v[o];
		if (g->name_len == len && !memcmp(s->src + g->name_off, s->src + off, len))
			return o;
	}
}

static void why(struct inst_fn *f, int selected, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void why(struct inst_fn *f, int selected, const char *fmt, ...)
{
	va_list ap;
	f->selected = selected;
	va_start(ap, fmt);
	vsnprintf(f->why, sizeof f->why, fmt, ap);
	va_end(ap);
}

/* Is f tiny: no loop but short fixed ones, at most TINY_MAX_STMTS statements, and no call to a
 * function defined in this file (what it calls — libm, macros, the sync wrappers — is either
 * cheap or recorded anyway)? */
static int fn_tiny(const struct inst_fn *f)
{
	return !f->has_loop && f->n_stmts <= TINY_MAX_STMTS && !f->calls_local;
}

/* A call of f in a loop of another file (or else from a recursive function there), or NULL. */
static const struct inst_ext_call *ext_lookup(const struct inst_sel *s,
					      const struct inst_options *opt,
					      const struct inst_fn *f)
{
	const struct inst_ext_call *rec = NULL;
	for (size_t k = 0; opt && k < opt->n_ext_calls; k++) {
		const struct inst_ext_call *c = &opt->ext_calls[k];
		if (strlen(c->name) != f->name_len || memcmp(c->name, s->src + f->name_off, f->name_len))
			continue;
		if (!c->rec)
			return c;
		if (!rec)
			rec = c;
	}
	return rec;
}

/* The end of the default rule for a function it would probe: a non-static tiny one is a
 * candidate for the rule across files (inst_result.summary), and is left out when another
 * file calls it in a loop or from a recursive function (inst_options.ext_calls). */
static void fn_decide_probed(const struct inst_sel *s, struct inst_fn *f,
			     const struct inst_options *opt)
{
	if (fn_tiny(f) && !f->is_static) {
		f->tiny_cand = 1;
		f->ext_site = ext_lookup(s, opt, f);
	}
	if (f->ext_site && !f->ext_site->rec)
		why(f, 0, "tiny helper called in a loop at %s:%u, in another file", f->ext_site->file,
		    f->ext_site->line);
	else if (f->ext_site)
		why(f, 0, "tiny helper called from recursive %s at %s:%u, in another file",
		    f->ext_site->caller, f->ext_site->file, f->ext_site->line);
	else if (f->has_loop || f->has_short_loop)
		why(f, 1, "loops and calls other functions");
	else
		why(f, 1, "synchronises and calls other functions");
}

static void fn_decide(struct inst_sel *s, struct inst_fn *f, const struct inst_options *opt,
		      const char *file)
{
	enum inst_func_mode mode = opt ? opt->func_mode : INST_FUNC_DEFAULT;
	const char *src = s->src;
	int nlen = (int)f->name_len;
	if (f->is_inline && !f->is_static) {
		why(f, 0, "extern inline (C99): it may not hold the probe's static descriptor");
		return; /* no filter can change that */
	}
	/* main and the start routines, selected by the default rule, are probed from outside
	 * their bodies (the library's start-up and exit, the pthread_create trampoline), so that
	 * a default build changes no code but that of the functions probed for their own sake */
	f->outside = mode == INST_FUNC_DEFAULT &&
		     ((nlen == 4 && !memcmp(src + f->name_off, "main", 4)) || f->start_line);
	if (mode == INST_FUNC_NONE)
		why(f, 0, "--no-functions");
	else if (mode == INST_FUNC_ALL)
		why(f, 1, "--all-functions");
	else if (nlen == 4 && !memcmp(src + f->name_off, "main", 4))
		why(f, 1, "main");
	else if (f->start_line)
		why(f, 1, "thread start routine (pthread_create at %s:%u)", file, f->start_line);
	else if (f->recursive)
		why(f, 0, "directly recursive");
	else if (!f->has_call)
		why(f, 0, f->has_sync ? "leaf: no calls but to pthread/semaphore wrappers" :
			  "leaf: no calls");
	else if (!f->has_loop && !f->has_short_loop && !f->has_sync)
		why(f, 0, "no loop and no sync call");
	else if (fn_tiny(f) && f->loop_site_line)
		why(f, 0, "tiny helper called in a loop at %s:%u", file, f->loop_site_line);
	else if (fn_tiny(f) && f->rec_site_line)
		why(f, 0, "tiny helper called from recursive %.*s at %s:%u",
		    (int)s->fns->v[f->rec_site_caller].name_len,
		    src + s->fns->v[f->rec_site_caller].name_off, file, f->rec_site_line);
	else
		fn_decide_probed(s, f, opt);
	if (opt && opt->filter) {
		char rule[sizeof f->why];
		int sel = inst_filter_explain(opt->filter, src + f->name_off, f->name_len, file,
					      f->selected, rule, sizeof rule);
		if (rule[0]) {
			why(f, sel, "%s", rule);
			f->outside = 0; /* selected for its own sake: probed in its body */
			f->tiny_cand = 0; /* the filter decides whatever other files do */
		}
	}
}

int inst_select_find(struct inst_sel *s, const char *src, size_t len, const struct inst_tree *t,
		     const int32_t *items, size_t n_items, struct inst_fns *fns)
{
	memset(s, 0, sizeof *s);
	memset(fns, 0, sizeof *fns);
	s->src = src;
	s->len = len;
	s->t = t;
	s->fns = fns;
	for (size_t k = 0; k < n_items; k++) {
		const struct inst_node *it = N(t, items[k]);
		struct inst_fn f;
		if (it->b < 0 || !fn_detect(t, src, len, items, k, &f))
			continue;
		int err = 0;
		for (size_t e = 0; e < t->n_errors && !err; e++)
			err = t->errors[e].off >= it->off && t->errors[e].off < it->end;
		if (err)
			continue;
		const struct inst_node *nm = N(t, f.name);
		f.name_off = nm->off;
		f.name_len = inst_id_len(src, len, nm->off);
		f.line = nm->line;
		f.k = k;
		if (inst_grow(&fns->v, &fns->cap, fns->n, sizeof *fns->v, 64))
			return -ENOMEM;
		fns->v[fns->n++] = f;
	}
	if (fn_index(s))
		return -ENOMEM;
	for (size_t k = 0; k < t->n_creates; k++)
		if (N(t, t->creates[k])->a >= 0)
			note_start_routine(s, N(t, t->creates[k]));
	return 0;
}

int inst_select_decide(struct inst_sel *s, const struct inst_options *opt, const char *file)
{
	struct inst_fns *fns = s->fns;
	if (s->oom)
		return -ENOMEM;
	/* recursion and calls to other functions defined here */
	for (size_t c = 0; c < s->n_calls; c++) {
		const struct inst_sel_call *sc = &s->calls[c];
		if ((uint32_t)sc->callee == sc->caller)
			fns->v[sc->callee].recursive = 1;
		else
			fns->v[sc->caller].calls_local = 1;
	}
	/* call sites in a loop, or in a recursive function */
	for (size_t c = 0; c < s->n_calls; c++) {
		const struct inst_sel_call *sc = &s->calls[c];
		if ((uint32_t)sc->callee == sc->caller)
			continue;
		struct inst_fn *f = &fns->v[sc->callee];
		if (sc->in_loop && !f->loop_site_line)
			f->loop_site_line = sc->line;
		if (fns->v[sc->caller].recursive && !f->rec_site_line) {
			f->rec_site_line = sc->line;
			f->rec_site_caller = sc->caller;
		}
	}
	for (size_t k = 0; k < fns->n; k++)
		fn_decide(s, &fns->v[k], opt, file);
	return 0;
}

static char *dup_n(const char *p, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

int inst_select_summary(const struct inst_sel *s, struct inst_summary *sum)
{
	const struct inst_fns *fns = s->fns;
	size_t cap_defs = 0, cap_calls = 0, mask = 63;
	int32_t *seen = NULL; /* (name, rec) -> its entry in sum->calls: one per name and kind */
	int rc = -ENOMEM;
	memset(sum, 0, sizeof *sum);
	for (size_t k = 0; k < fns->n; k++) {
		const struct inst_fn *f = &fns->v[k];
		if (!f->tiny_cand)
			continue;
		if (inst_grow(&sum->defs, &cap_defs, sum->n_defs, sizeof *sum->defs, 8))
			goto out;
		struct inst_sum_def *d = &sum->defs[sum->n_defs];
		if (!(d->name = dup_n(s->src + f->name_off, f->name_len)))
			goto out;
		d->line = f->line;
		d->ext = f->ext_site != NULL;
		sum->n_defs++;
	}
	while (mask < 4 * s->n_ext)
		mask = mask * 2 + 1;
	if (!(seen = malloc((mask + 1) * sizeof *seen)))
		goto out;
	memset(seen, 0xff, (mask + 1) * sizeof *seen);
	for (size_t k = 0; k < s->n_ext; k++) {
		const struct inst_sel_ext *x = &s->ext[k];
		const struct inst_fn *caller = &fns->v[x->caller];
		for (uint8_t rec = 0; rec < 2; rec++) {
			if (rec ? !caller->recursive : !x->in_loop)
				continue;
			size_t h = (name_hash(s->src + x->off, x->len) + rec) & mask;
			for (; seen[h] >= 0; h = (h + 1) & mask) {
				const struct inst_sum_call *o = &sum->calls[seen[h]];
				if (o->rec == rec && strlen(o->name) == x->len &&
				    !memcmp(o->name, s->src + x->off, x->len))
					break;
			}
			if (seen[h] >= 0)
				continue;
			if (inst_grow(&sum->calls, &cap_calls, sum->n_calls, sizeof *sum->calls, 16))
				goto out;
			struct inst_sum_call *c = &sum->calls[sum->n_calls];
			c->name = dup_n(s->src + x->off, x->len);
			c->caller = dup_n(s->src + caller->name_off, caller->name_len);
			c->line = x->line;
			c->rec = rec;
			seen[h] = (int32_t)sum->n_calls++;
			if (!c->name || !c->caller)
				goto out;
		}
	}
	rc = 0;
out:
	free(seen);
	return rc;
}

void inst_select_free(struct inst_sel *s)
{
	free(s->ext);
	free(s->calls);
	free(s->index);
	if (s->fns)
		inst_fns_free(s->fns);
	memset(s, 0, sizeof *s);
}

int32_t inst_fns_find(struct inst_fns *fns, int32_t item)
{
	/* definitions are listed in input order (node indices grow with it), and the probe pass
	 * asks in input order: a cursor */
	while (fns->cursor < fns->n && fns->v[fns->cursor].item < item)
		fns->cursor++;
	if (fns->cursor < fns->n && fns->v[fns->cursor].item == item)
		return (int32_t)fns->cursor;
	return -1;
}

void inst_fns_free(struct inst_fns *fns)
{
	free(fns->v);
	memset(fns, 0, sizeof *fns);
}
