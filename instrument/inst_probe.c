/*
 * inst_probe.c — the pass that picks probe points. It reads the island tree (inst_parser.y) and
 * decides, top-level item by item: is this a function definition (name, line, K&R form), does
 * the selection (default rule, --filter, --all-functions, --no-functions) give it entry/exit
 * probes, which calls to wrapped pthread/semaphore functions it renames to sg_*, which region
 * pragmas become sg_region_begin/end calls, and where `#include <sgtrace.h>` must go so that
 * every rewritten line sees it under every #if combination. It only adds edits; inst_edit.c
 * splices.
 *
 * Function probes: a selected definition gets the scope guard (GUARD_FMT) at the start of its
 * body, except main and the thread start routines selected by the default rule (inst_fn.
 * outside): they get SG_FUNC_OUTSIDE after their closing brace, a descriptor keyed by the
 * function's address that libsgtrace finds, so that it records main's entry and exit from its
 * start-up and exit path and a start routine's from the pthread_create trampoline, and their
 * code stays the plain build's (issue 21: main grew, and every function after it moved).
 *
 * Call sites: a renamed call keeps its arguments (`sg_NAME(args)`): the wrapper takes its call
 * site from its return address, resolved through the line table when the trace is read
 * (docs/tracelib.md "Call sites"), so that the call costs exactly the bytes of the original
 * and no function changes size. With --site-args (the form before issue 21, kept to compare
 * layouts) a renamed call that begins a wait (inst_is_site_call) becomes
 * `sg_NAME_at(&sg_site_K, args)`, and its descriptor
 *   static struct sg_site_desc sg_site_K __attribute__((unused)) = { "FILE", LINE, "FUNC", 0 };
 * goes at file scope where the item's #include goes (before the definition, out of the #if
 * groups its calls are not in), followed by the same `#line` back to the user's line: it
 * compiles wherever the call does, a macro body's call included (FUNC "" there), and every
 * line of the user's code keeps its number. `unused`: a call in an #if branch that is not
 * compiled leaves its descriptor unused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

#define GUARD_FMT " static struct sg_func_desc sg_fd__ = { \"%.*s\", \"%s\", %u, 0 };" \
	" struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused))" \
	" = sg_func_scope_enter(&sg_fd__);"

/* main and the start routines selected by the default rule: a descriptor at file scope, after
 * the definition, that the library finds by the function's address (sgtrace.h) */
#define OUTSIDE_FMT " SG_FUNC_OUTSIDE(%.*s, \"%s\", %u, %d);"

struct name_ref {
	uint32_t off, len;
};

struct pending;

/* A call site (sg_site_K): where its call is, in which function (func_len 0: none). */
struct site_rec {
	unsigned k;
	uint32_t line;
	uint32_t func_off, func_len;
};

struct probe {
	const char *src;
	size_t len;
	const struct inst_tree *t;
	const struct inst_lex *lx;
	const struct inst_options *opt;
	struct inst_diag *d;
	struct inst_edits *e;
	struct inst_result *res;
	char file_esc[1024];
	struct inst_fns fns;        /* definitions and their verdicts (inst_select.c) */
	struct inst_sel sel;
	int32_t fi;                 /* the definition whose body walk() is in, or -1 */
	/* where an #include <sgtrace.h> was put, and the conditional branch it is in */
	struct inc { uint32_t cond, off; } *incs;
	size_t n_incs, cap_incs;
	/* open regions: string literals with quotes */
	struct name_ref *regions;
	size_t n_regions, cap_regions;
	size_t next_dsite;
	int oom;
	/* items waiting for the selection (item_finish) */
	struct pending *pend;
	size_t n_pend, cap_pend;
	uint32_t *pend_conds;
	size_t n_pend_conds, cap_pend_conds;
	/* call sites of every item so far (sg_site_K descriptors to write), K from 1 */
	struct site_rec *calls;
	size_t n_calls, cap_calls;
	/* per item, filled by walk() */
	int n_sites;
	uint32_t *site_conds;
	size_t n_site_conds, cap_site_conds;
};

static const struct inst_node *N(const struct probe *p, int32_t i)
{
	return &p->t->nodes[i];
}

static void site_add(struct probe *p, uint32_t cond)
{
	p->n_sites++;
	if (inst_grow(&p->site_conds, &p->cap_site_conds, p->n_site_conds, sizeof(uint32_t), 16)) {
		p->oom = 1;
		return;
	}
	p->site_conds[p->n_site_conds++] = cond;
}

/* Is the parenthesis group opening at src[paren] empty (blanks and comments only)? */
static int parens_empty(const struct probe *p, uint32_t paren)
{
	size_t i = (size_t)paren + 1;
	while (i < p->len) {
		char c = p->src[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			i++;
		} else if (c == '\\' && i + 1 < p->len && p->src[i + 1] == '\n') {
			i += 2;
		} else if (c == '/' && i + 1 < p->len && p->src[i + 1] == '*') {
			const char *e = memmem(p->src + i + 2, p->len - i - 2, "*/", 2);
			if (!e)
				return 0;
			i = (size_t)(e - p->src) + 2;
		} else if (c == '/' && i + 1 < p->len && p->src[i + 1] == '/') {
			while (i < p->len && p->src[i] != '\n')
				i++;
		} else {
			return c == ')';
		}
	}
	return 0;
}

/* Renames the wrapped call whose name is at src[off] (`len` bytes, its '(' at `paren`) to its
 * sg_ wrapper; one that begins a wait to sg_NAME_at with its call site sg_site_K as the first
 * argument, recorded for the descriptors (line `line`, in function fi, -1: none). Not in an
 * extern inline function (C99 6.7.4: it may not refer to the static descriptor): the plain
 * wrapper there, site not known. */
static void rename_call(struct probe *p, uint32_t off, uint32_t len, uint32_t paren,
			uint32_t line, int32_t fi)
{
	edits_add(p->e, off, 0, "sg_", 3);
	p->res->n_renamed++;
	if (!p->opt || !p->opt->site_args || !inst_is_site_call(p->src + off, len) ||
	    (fi >= 0 && p->fns.v[fi].is_inline && !p->fns.v[fi].is_static))
		return;
	if (inst_grow(&p->calls, &p->cap_calls, p->n_calls, sizeof *p->calls, 64)) {
		p->oom = 1;
		return;
	}
	struct site_rec *r = &p->calls[p->n_calls];
	r->k = p->n_calls == 0 ? 1 : p->calls[p->n_calls - 1].k + 1;
	r->line = line;
	r->func_off = fi >= 0 ? p->fns.v[fi].name_off : 0;
	r->func_len = fi >= 0 ? p->fns.v[fi].name_len : 0;
	p->n_calls++;
	p->res->n_sites++;
	edits_add(p->e, off + len, 0, "_at", 3);
	edits_addf(p->e, paren + 1, 0, parens_empty(p, paren) ? "&sg_site_%u" : "&sg_site_%u, ",
		   r->k);
}

/* Is branch a an ancestor of (or equal to) branch b? */
static int cond_dominates(const struct inst_lex *lx, uint32_t a, uint32_t b)
{
	if (a == 0 || a == b)
		return 1;
	if (!lx->conds)
		return 0;
	uint32_t da = lx->conds[a].depth;
	while (b != 0 && lx->conds[b].depth > da)
		b = lx->conds[b].parent;
	return a == b;
}

static int is_name(const struct probe *p, const struct inst_node *n, const char *w)
{
	size_t l = strlen(w);
	return n->end - n->off >= l && !memcmp(p->src + n->off, w, l) &&
	       (n->end - n->off == l || !inst_is_idch((unsigned char)p->src[n->off + l]));
}

/* A region pragma at a statement position: replace the directive line(s) by the call, keeping
 * the number of lines. */
static void region_pragma(struct probe *p, const struct inst_node *n)
{
	const char *name;
	size_t name_len;
	int sub = inst_pragma_parse(p->src + n->off, n->end - n->off, &name, &name_len);
	if (sub == PRAGMA_BAD) {
		inst_warn(p->d, n->line, n->col, "malformed '#pragma scalegraph' (expected "
			  "'region begin \"name\"' or 'region end [\"name\"]'); left as is");
		return;
	}
	if (sub == PRAGMA_BEGIN && !name) {
		inst_warn(p->d, n->line, n->col, "'#pragma scalegraph region begin' needs a "
			  "name in double quotes; left as is");
		return;
	}
	struct name_ref r = { 0, 0 };
	if (sub == PRAGMA_BEGIN) {
		if (inst_grow(&p->regions, &p->cap_regions, p->n_regions, sizeof r, 16)) {
			p->oom = 1;
			return;
		}
		r.off = (uint32_t)(name - p->src);
		r.len = (uint32_t)name_len;
		p->regions[p->n_regions++] = r;
	} else if (name) {
		r.off = (uint32_t)(name - p->src);
		r.len = (uint32_t)name_len;
		size_t k = p->n_regions;
		while (k > 0 && !(p->regions[k - 1].len == r.len &&
				  !memcmp(p->src + p->regions[k - 1].off, name, r.len)))
			k--;
		if (k == 0)
			inst_warn(p->d, n->line, n->col, "region end %.*s has no open region begin "
				  "before it", (int)name_len, name);
		else
			p->n_regions = k - 1;
	} else {
		if (p->n_regions == 0) {
			inst_warn(p->d, n->line, n->col, "'#pragma scalegraph region end' with no "
				  "open region; left as is");
			return;
		}
		r = p->regions[--p->n_regions];
	}
	unsigned nl = 0;
	uint32_t at = n->off; /* keep the indentation before '#' */
	while (at < n->end && (p->src[at] == ' ' || p->src[at] == '\t'))
		at++;
	for (uint32_t i = n->off; i < n->end; i++)
		nl += p->src[i] == '\n';
	/* The name is copied byte for byte, not through "%.*s": a string literal may hold NUL
	 * bytes (gcc keeps them), at which printf would stop and leave the literal unclosed. */
	const char *call = sub == PRAGMA_BEGIN ? "sg_region_begin(" : "sg_region_end(";
	size_t lc = strlen(call), len = lc + r.len + 2 + nl;
	char *text = malloc(len);
	if (!text) {
		p->oom = 1;
		return;
	}
	memcpy(text, call, lc);
	memcpy(text + lc, p->src + r.off, r.len);
	memcpy(text + lc + r.len, ");", 2);
	memset(text + lc + r.len + 2, '\n', nl);
	edits_add(p->e, at, n->end - at, text, len);
	free(text);
	p->res->n_regions++;
	site_add(p, n->cond);
}

enum walk_ctx {
	CTX_EXPR,   /* inside parentheses, brackets, declarations */
	CTX_STMT,   /* a statement head in a code block: pragmas at its start are statements */
	CTX_TOP,    /* a top-level declaration head */
};

static int walk(struct probe *p, int32_t i, enum walk_ctx ctx, int code, int loop, int depth);

/* block -> '{' stmt* head '}' */
static void walk_block(struct probe *p, const struct inst_node *b, int code, int loop,
		       int depth)
{
	for (int32_t s = b->a >= 0 ? N(p, b->a)->first : -1; s >= 0; s = N(p, s)->next)
		walk(p, s, code ? CTX_STMT : CTX_EXPR, code, loop, depth + 1);
	if (b->b >= 0) {
		if (p->fi >= 0)
			p->fns.v[p->fi].n_stmts++;
		walk(p, b->b, code ? CTX_STMT : CTX_EXPR, code, loop, depth + 1);
	}
}

static int head_is_initializer(const struct probe *p, int32_t head)
{
	if (head < 0)
		return 0;
	for (int32_t i = N(p, head)->first; i >= 0; i = N(p, i)->next) {
		const struct inst_node *n = N(p, i);
		if (n->kind == N_ASSIGN)
			return 1;
		if (n->kind == N_ID && (is_name(p, n, "struct") || is_name(p, n, "union") ||
					is_name(p, n, "enum")))
			return 1;
	}
	return 0;
}

/* Walks a node or a list: renames wrapped calls, converts region pragmas. In a function body
 * (p->fi) it also tells the selection what the body holds: statements, loops, sync calls, and
 * calls with whether they run in a loop (`loop`). In a head, whatever follows a loop keyword
 * runs in the loop: its condition, its body when that is a statement of the same head
 * (`for (...) f(x);`) and the item's block. Returns 1 for a list with a loop keyword. */
static int walk(struct probe *p, int32_t i, enum walk_ctx ctx, int code, int loop, int depth)
{
	if (i < 0 || depth > 20000)
		return 0;
	const struct inst_node *n = N(p, i);
	switch (n->kind) {
	case N_LIST: {
		int at_start = 1, kw = 0;
		for (int32_t c = n->first; c >= 0; c = N(p, c)->next) {
			const struct inst_node *cn = N(p, c);
			if (cn->kind == N_PRAGMA) {
				if (ctx == CTX_STMT && at_start)
					region_pragma(p, cn);
				else
					inst_warn(p->d, cn->line, cn->col, "region pragma is not at "
						  "a statement position in a function body; left "
						  "as is");
				continue;
			}
			at_start = 0;
			if (cn->kind == N_KW) {
				if (cn->sub == KW_LOOP && p->fi >= 0 && ctx != CTX_TOP) {
					inst_select_loop(&p->sel, p->fi, cn);
					loop = kw = 1;
				}
			} else if (cn->kind == N_BLOCK && ctx == CTX_EXPR && c == n->first) {
				walk_block(p, cn, code, loop, depth + 1); /* ({ ... }) */
			} else if (cn->kind == N_BLOCK) {
				walk_block(p, cn, 0, loop, depth + 1);   /* (T){ ... } */
			} else if (cn->kind != N_ASSIGN) {
				walk(p, c, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, loop, depth + 1);
			}
		}
		return kw;
	}
	case N_ITEM: {
		if (p->fi >= 0 && ctx != CTX_TOP)
			p->fns.v[p->fi].n_stmts++;
		int lp = walk(p, n->a, ctx, code, loop, depth + 1) || loop;
		if (n->b >= 0)
			walk_block(p, N(p, n->b), code && !head_is_initializer(p, n->a), lp,
				   depth + 1);
		break;
	}
	case N_CALL: {
		uint32_t l = inst_id_len(p->src, p->len, n->off);
		if (ctx == CTX_TOP || inst_is_member(p->src, n->off)) {
			;
		} else if (inst_is_wrapped(p->src + n->off, l)) {
			rename_call(p, n->off, l, N(p, n->a)->off, n->line, p->fi);
			site_add(p, n->cond);
			if (p->fi >= 0 && inst_is_end_call(p->src + n->off, l))
				inst_select_call(&p->sel, p->fi, n, l, loop);   /* as before renaming */
			else if (p->fi >= 0)
				p->fns.v[p->fi].has_sync = 1;
		} else if (p->fi >= 0) {
			inst_select_call(&p->sel, p->fi, n, l, loop);
		}
		if (n->a >= 0)
			walk(p, N(p, n->a)->a, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, loop,
			     depth + 1);
		break;
	}
	case N_ID:
		if (inst_is_wrapped(p->src + n->off, n->end - n->off) &&
		    !inst_is_member(p->src, n->off))
			inst_warn(p->d, n->line, n->col, "'%.*s' is named but not called here (its "
				  "address taken?): calls through it are not traced",
				  (int)(n->end - n->off), p->src + n->off);
		break;
	case N_PAREN:
	case N_BRACKET:
		walk(p, n->a, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, loop, depth + 1);
		break;
	case N_BLOCK:
		walk_block(p, n, code, loop, depth + 1);
		break;
	case N_PRAGMA:
		inst_warn(p->d, n->line, n->col, "region pragma is not at a statement position "
			  "in a function body; left as is");
		break;
	default:
		break;
	}
	return 0;
}

/* The descriptors of call sites calls[c0..c1) (struct site_rec), one per line, malloc'd; NULL
 * for none (or out of memory: p->oom). */
static char *site_descs(struct probe *p, size_t c0, size_t c1)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	if (c0 >= c1)
		return NULL;
	if (!(f = open_memstream(&text, &len))) {
		p->oom = 1;
		return NULL;
	}
	for (size_t c = c0; c < c1; c++) {
		const struct site_rec *r = &p->calls[c];
		fprintf(f, "static struct sg_site_desc sg_site_%u __attribute__((unused)) = "
			"{ \"%s\", %u, \"%.*s\", 0 };\n", r->k, p->file_esc, r->line,
			(int)r->func_len, p->src + r->func_off);
	}
	if (fclose(f) != 0) {
		free(text);
		p->oom = 1;
		return NULL;
	}
	return text;
}

/* Puts `#include <sgtrace.h>` before item `start` unless an earlier one covers every site, and
 * the call sites' descriptors `descs` (NULL: none) after it, then a #line back to the user's
 * file. Returns 0, or -1 when no file-scope place exists. */
static int place_include(struct probe *p, const struct inst_node *start, uint32_t prev_end,
			 int dry, const char *descs)
{
	uint32_t off = start->off, line = start->line, c = start->cond;
	for (;;) {
		int ok = 1;
		for (size_t s = 0; s < p->n_site_conds && ok; s++)
			ok = cond_dominates(p->lx, c, p->site_conds[s]);
		if (ok || c == 0)
			break;
		off = p->lx->conds[c].dir_off; /* before the #if group holding the head */
		line = p->lx->conds[c].dir_line;
		c = p->lx->conds[c].parent;
	}
	if (off < prev_end)
		return -1;
	if (dry)
		return 0;
	int include = 1;
	for (size_t k = 0; k < p->n_incs && include; k++) /* one before this place covers it */
		if (p->incs[k].off <= off && cond_dominates(p->lx, p->incs[k].cond, c))
			include = 0;
	if (!include && !descs)
		return 0;
	if (include && inst_grow(&p->incs, &p->cap_incs, p->n_incs, sizeof *p->incs, 16)) {
		p->oom = 1;
		return 0;
	}
	if (include)
		p->incs[p->n_incs++] = (struct inc){ c, off };
	const char *inc = include ? "#include <sgtrace.h>\n" : "";
	if (!descs)
		descs = "";
	uint32_t ls = off;
	while (ls > 0 && (p->src[ls - 1] == ' ' || p->src[ls - 1] == '\t'))
		ls--;
	int at_bol = ls == 0 || (p->src[ls - 1] == '\n' && !(ls >= 2 && p->src[ls - 2] == '\\'));
	if (at_bol)
		edits_addf(p->e, ls, 0, "%s%s#line %u \"%s\"\n", inc, descs, line, p->file_esc);
	else /* after a stray backslash, a newline alone would splice the include into its line */
		edits_addf(p->e, off, 0, "%s%s%s#line %u \"%s\"\n",
			   off > 0 && p->src[off - 1] == '\\' ? "\n\n" : "\n", inc, descs, line,
			   p->file_esc);
	return 0;
}

/* #define bodies before the end of this item that call wrapped functions. */
static void define_sites_before(struct probe *p, uint32_t end)
{
	while (p->next_dsite < p->lx->n_dsites && p->lx->dsites[p->next_dsite].off < end) {
		const struct inst_site *s = &p->lx->dsites[p->next_dsite++];
		rename_call(p, s->off, inst_id_len(p->src, p->len, s->off), s->paren, s->line, -1);
		site_add(p, s->cond);
	}
}

static int item_has_error(const struct probe *p, const struct inst_node *it)
{
	for (size_t k = 0; k < p->t->n_errors; k++)
		if (p->t->errors[k].off >= it->off && p->t->errors[k].off < it->end)
			return 1;
	return 0;
}

/* Does a top-level item begin like a statement (`return s;`, `while (n--) ...`)? Statements
 * cannot be at file scope: the item sits in a function whose braces a macro hid from the
 * parser (`#define BEGIN {`). */
static int item_is_stmt(const struct probe *p, int32_t item)
{
	const struct inst_node *it = N(p, item);
	if (it->a < 0)
		return 0;
	const struct inst_node *first = N(p, N(p, it->a)->first);
	return first->kind == N_KW && (first->sub == KW_STMT || first->sub == KW_LOOP);
}

/* Moves *j to an item that surely starts at file scope: when item *j is a stray statement or
 * follows some, the item before them (the one whose hidden brace opened the function) is the
 * last place known to be at file scope. Returns 0 when there is none. */
static int file_scope_item(const struct probe *p, const int32_t *items, size_t *j)
{
	size_t s = *j;
	int stray = item_is_stmt(p, items[s]);
	while (s > 0 && item_is_stmt(p, items[s - 1])) {
		s--;
		stray = 1;
	}
	if (!stray)
		return 1;
	if (s == 0)
		return 0;
	*j = s - 1;
	return 1;
}

/* The include for item k's sites (p->site_conds), at the first item known to be at file
 * scope before it (its definition's first item `start` when it is one); `dry`: only whether
 * there is a place. Returns 0 or -1 after a warning: no place. */
static int item_include(struct probe *p, const int32_t *items, size_t k, int32_t start, int dry,
			const char *descs)
{
	size_t j = k;
	while (j > 0 && items[j] != start)
		j--;
	int ok = file_scope_item(p, items, &j);
	const struct inst_node *at = N(p, items[j]);
	uint32_t prev_end = j > 0 ? N(p, items[j - 1])->end : 0;
	if (ok && place_include(p, at, prev_end, dry, descs) == 0)
		return 0;
	inst_warn(p->d, at->line, at->col, "no file-scope place for #include <sgtrace.h> before "
		  "this definition (#if or a macro brace around it); left uninstrumented");
	return -1;
}

/* An item whose include waits for the selection: the branches of its sites. */
struct pending {
	size_t k;
	int32_t fi;
	size_t cond0, n_cond; /* in p->pend_conds */
	size_t call0, call1;  /* its call sites, p->calls[call0..call1) */
};

static void pending_add(struct probe *p, size_t k, int32_t fi, size_t call0)
{
	if (inst_grow(&p->pend, &p->cap_pend, p->n_pend, sizeof *p->pend, 64) ||
	    inst_grow(&p->pend_conds, &p->cap_pend_conds, p->n_pend_conds + p->n_site_conds,
		      sizeof *p->pend_conds, 256)) {
		p->oom = 1;
		return;
	}
	p->pend[p->n_pend++] = (struct pending){ k, fi, p->n_pend_conds, p->n_site_conds, call0,
						 p->n_calls };
	if (p->n_site_conds)
		memcpy(p->pend_conds + p->n_pend_conds, p->site_conds,
		       p->n_site_conds * sizeof *p->site_conds);
	p->n_pend_conds += p->n_site_conds;
}

/* One top-level item with a block: function or not, its renamed calls and regions. Its include
 * and a definition's probe come later (item_finish), once the selection has seen the whole
 * file; only whether the include has a place is decided here, and without one the item's
 * edits are taken back. */
static void item_block(struct probe *p, int32_t *items, size_t k)
{
	const struct inst_node *it = N(p, items[k]);
	size_t mark = p->e->n;
	unsigned renamed = p->res->n_renamed, regions = p->res->n_regions, sites = p->res->n_sites;
	size_t nregions = p->n_regions, ncalls = p->n_calls;
	p->n_sites = 0;
	p->n_site_conds = 0;
	p->fi = -1;
	int32_t fi = inst_fns_find(&p->fns, items[k]);
	walk(p, it->a, CTX_TOP, 0, 0, 0);
	p->fi = fi;
	walk_block(p, N(p, it->b), fi >= 0, 0, 0);
	p->fi = -1;
	define_sites_before(p, it->end);
	if (fi >= 0)
		p->res->n_functions++;
	if (p->n_sites &&
	    item_include(p, items, k, fi >= 0 ? p->fns.v[fi].start : items[k], 1, NULL) < 0) {
		edits_truncate(p->e, mark);
		p->res->n_renamed = renamed;
		p->res->n_regions = regions;
		p->res->n_sites = sites;
		p->n_regions = nregions;
		p->n_calls = ncalls;
		if (fi >= 0)
			p->fns.v[fi].rolled_back = 1;
		return;
	}
	if (p->n_sites || fi >= 0)
		pending_add(p, k, fi, ncalls);
}

/* A pending item's include, for its sites and the probe of a selected definition, and the
 * probe. */
static void item_finish(struct probe *p, int32_t *items, const struct pending *pd)
{
	struct inst_fn *f = pd->fi >= 0 ? &p->fns.v[pd->fi] : NULL;
	const struct inst_node *b = N(p, N(p, items[pd->k])->b);
	int probe = f && f->selected && !f->rolled_back, placed = 0;
	p->n_site_conds = 0;
	for (size_t c = 0; c < pd->n_cond; c++)
		site_add(p, p->pend_conds[pd->cond0 + c]);
	if (probe)
		site_add(p, b->cond);
	char *descs = site_descs(p, pd->call0, pd->call1);
	int placed_inc = p->n_site_conds &&
			 item_include(p, items, pd->k, f ? f->start : items[pd->k], 0, descs) == 0;
	free(descs);
	if (placed_inc && probe && f->outside) {
		/* after the closing brace, on its line: the body's code is the plain build's */
		edits_addf(p->e, b->end, 0, OUTSIDE_FMT, (int)f->name_len, p->src + f->name_off,
			   p->file_esc, f->line, f->name_len == 4 && !memcmp(p->src + f->name_off,
									  "main", 4));
		p->res->n_probed++;
		placed = 1;
	} else if (placed_inc && probe) {
		edits_addf(p->e, b->off + 1, 0, GUARD_FMT, (int)f->name_len,
			   p->src + f->name_off, p->file_esc, f->line);
		p->res->n_probed++;
		placed = 1;
	}
	if (f && p->opt && p->opt->explain)
		fprintf(p->opt->explain, "%s:%u %.*s: %s: %s%s\n", p->d->file, f->line,
			(int)f->name_len, p->src + f->name_off, placed ? "selected" : "left out",
			f->selected && !placed ? "no file-scope place for #include <sgtrace.h>" :
			f->why, placed && f->outside ? " (probed from outside its body)" : "");
}

static int off_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Does an #if group (not an `#if 0` one) open inside a definition, from its first item to the
 * end of its body? Its branches then change what the body holds (loops, calls, statements) and
 * so the selection, or how its header reads: which are compiled matters
 * (inst_result.cond_matters). Include guards and whole definitions inside a group do not. */
static int cond_in_definition(const struct probe *p, int *matters)
{
	const struct inst_lex *lx = p->lx;
	size_t n = 0;
	if (lx->n_conds < 2 || p->fns.n == 0)
		return 0;
	uint32_t *offs = malloc(lx->n_conds * sizeof *offs);
	if (!offs)
		return -ENOMEM;
	for (size_t b = 1; b < lx->n_conds; b++)
		if (!lx->conds[b].fixed)
			offs[n++] = lx->conds[b].dir_off;
	qsort(offs, n, sizeof *offs, off_cmp);
	for (size_t k = 0, o = 0; k < p->fns.n && o < n && !*matters; k++) {
		uint32_t lo = N(p, p->fns.v[k].start)->off, hi = N(p, p->fns.v[k].item)->end;
		while (o < n && offs[o] < lo)
			o++;
		*matters = o < n && offs[o] < hi;
	}
	free(offs);
	return 0;
}

int inst_probe(const char *src, size_t len, const struct inst_tree *t, const struct inst_lex *lx,
	       const struct inst_options *opt, struct inst_diag *d, struct inst_edits *e,
	       struct inst_result *res)
{
	struct probe p = { .src = src, .len = len, .t = t, .lx = lx, .opt = opt, .d = d, .e = e,
			   .res = res, .fi = -1 };
	int32_t *items = NULL;
	size_t n_items = 0, cap_items = 0;
	int rc = 0;
	if (inst_c_escape(p.file_esc, sizeof p.file_esc, d->file, strlen(d->file))) {
		inst_warn(d, 1, 1, "file name too long for #line; file left uninstrumented");
		goto out;
	}
	for (size_t k = 0; k < t->n_errors; k++)
		inst_warn(d, t->errors[k].line, t->errors[k].col, "cannot parse this (%s; "
			  "unbalanced brackets or a macro hiding them?): the code around it is left "
			  "uninstrumented", t->errors[k].msg);
	if (t->top < 0)
		goto out;
	for (int32_t i = t->nodes[t->top].first; i >= 0; i = t->nodes[i].next) {
		if (inst_grow(&items, &cap_items, n_items, sizeof *items, 256)) {
			rc = -ENOMEM;
			goto out;
		}
		items[n_items++] = i;
	}
	rc = inst_select_find(&p.sel, src, len, t, items, n_items, &p.fns);
	if (rc)
		goto out;
	p.sel.want_ext = opt && opt->summary;
	rc = cond_in_definition(&p, &res->cond_matters);
	if (rc)
		goto out;
	for (size_t k = 0; k < n_items; k++) {
		const struct inst_node *it = N(&p, items[k]);
		if (item_has_error(&p, it))
			continue;
		if (it->b >= 0) {
			item_block(&p, items, k);
		} else {
			p.n_site_conds = 0;
			walk(&p, it->a, CTX_TOP, 0, 0, 0);
		}
	}
	rc = inst_select_decide(&p.sel, opt, d->file);
	if (rc)
		goto out;
	if (opt && opt->summary) {
		rc = inst_select_summary(&p.sel, &res->summary);
		if (rc)
			goto out;
	}
	for (size_t k = 0; k < p.n_pend; k++)
		item_finish(&p, items, &p.pend[k]);
	for (size_t k = 0; k < p.n_regions; k++)
		inst_warn(d, 1, 1, "region %.*s is opened but never closed in this file",
			  (int)p.regions[k].len, src + p.regions[k].off);
	if (p.oom || e->oom)
		rc = -ENOMEM;
out:
	free(items);
	inst_select_free(&p.sel);
	free(p.incs);
	free(p.regions);
	free(p.site_conds);
	free(p.calls);
	free(p.pend);
	free(p.pend_conds);
	return rc;
}
