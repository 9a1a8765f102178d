/*
 * inst_probe.c — the pass that picks probe points. It reads the island tree (inst_parser.y) and
 * decides, top-level item by item: is this a function definition (name, line, K&R form), does
 * the selection (default rule, --filter, --all-functions, --no-functions) give it entry/exit
 * probes, which calls to wrapped pthread/semaphore functions it renames to sg_*, which region
 * pragmas become sg_region_begin/end calls, and where `#include <sgtrace.h>` must go so that
 * every rewritten line sees it under every #if combination. It only adds edits; inst_edit.c
 * splices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

#define GUARD_FMT " static struct sg_func_desc sg_fd__ = { \"%.*s\", \"%s\", %u, 0 };" \
	" struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused))" \
	" = sg_func_scope_enter(&sg_fd__);"

struct name_ref {
	uint32_t off, len;
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
	/* conditional branches that already saw an #include <sgtrace.h> */
	uint32_t *incs;
	size_t n_incs, cap_incs;
	/* open regions: string literals with quotes */
	struct name_ref *regions;
	size_t n_regions, cap_regions;
	size_t next_dsite;
	int oom;
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

static void walk(struct probe *p, int32_t i, enum walk_ctx ctx, int code, int depth);

/* block -> '{' stmt* head '}' */
static void walk_block(struct probe *p, const struct inst_node *b, int code, int depth)
{
	for (int32_t s = b->a >= 0 ? N(p, b->a)->first : -1; s >= 0; s = N(p, s)->next)
		walk(p, s, code ? CTX_STMT : CTX_EXPR, code, depth + 1);
	if (b->b >= 0)
		walk(p, b->b, code ? CTX_STMT : CTX_EXPR, code, depth + 1);
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

/* Walks a node or a list: renames wrapped calls, converts region pragmas. */
static void walk(struct probe *p, int32_t i, enum walk_ctx ctx, int code, int depth)
{
	if (i < 0 || depth > 20000)
		return;
	const struct inst_node *n = N(p, i);
	switch (n->kind) {
	case N_LIST: {
		int at_start = 1;
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
			if (cn->kind == N_BLOCK && ctx == CTX_EXPR && c == n->first)
				walk_block(p, cn, code, depth + 1); /* ({ ... }) */
			else if (cn->kind == N_BLOCK)
				walk_block(p, cn, 0, depth + 1);   /* (T){ ... } */
			else
				walk(p, c, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, depth + 1);
		}
		break;
	}
	case N_ITEM:
		walk(p, n->a, ctx, code, depth + 1);
		if (n->b >= 0)
			walk_block(p, N(p, n->b), code && !head_is_initializer(p, n->a), depth + 1);
		break;
	case N_CALL: {
		uint32_t l = inst_id_len(p->src, p->len, n->off);
		if (ctx == CTX_TOP || inst_is_member(p->src, n->off))
			;
		else if (inst_is_wrapped(p->src + n->off, l)) {
			edits_add(p->e, n->off, 0, "sg_", 3);
			p->res->n_renamed++;
			site_add(p, n->cond);
		}
		if (n->a >= 0)
			walk(p, N(p, n->a)->a, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, depth + 1);
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
		walk(p, n->a, ctx == CTX_TOP ? CTX_TOP : CTX_EXPR, code, depth + 1);
		break;
	case N_BLOCK:
		walk_block(p, n, code, depth + 1);
		break;
	case N_PRAGMA:
		inst_warn(p->d, n->line, n->col, "region pragma is not at a statement position "
			  "in a function body; left as is");
		break;
	default:
		break;
	}
}

/* Puts `#include <sgtrace.h>` (and a #line back to the user's file) before item `start` unless
 * an earlier one covers every site. Returns 0, or -1 when no file-scope place exists. */
static int place_include(struct probe *p, const struct inst_node *start, uint32_t prev_end)
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
	for (size_t k = 0; k < p->n_incs; k++)
		if (cond_dominates(p->lx, p->incs[k], c))
			return 0;
	if (inst_grow(&p->incs, &p->cap_incs, p->n_incs, sizeof *p->incs, 16)) {
		p->oom = 1;
		return 0;
	}
	p->incs[p->n_incs++] = c;
	uint32_t ls = off;
	while (ls > 0 && (p->src[ls - 1] == ' ' || p->src[ls - 1] == '\t'))
		ls--;
	int at_bol = ls == 0 || (p->src[ls - 1] == '\n' && !(ls >= 2 && p->src[ls - 2] == '\\'));
	if (at_bol)
		edits_addf(p->e, ls, 0, "#include <sgtrace.h>\n#line %u \"%s\"\n", line, p->file_esc);
	else /* after a stray backslash, a newline alone would splice the include into its line */
		edits_addf(p->e, off, 0, "%s#include <sgtrace.h>\n#line %u \"%s\"\n",
			   off > 0 && p->src[off - 1] == '\\' ? "\n\n" : "\n", line, p->file_esc);
	return 0;
}

/* #define bodies before the end of this item that call wrapped functions. */
static void define_sites_before(struct probe *p, uint32_t end)
{
	while (p->next_dsite < p->lx->n_dsites && p->lx->dsites[p->next_dsite].off < end) {
		const struct inst_site *s = &p->lx->dsites[p->next_dsite++];
		edits_add(p->e, s->off, 0, "sg_", 3);
		p->res->n_renamed++;
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

/* One top-level item with a block: function or not, with its sites and include. */
static void item_block(struct probe *p, int32_t *items, size_t k)
{
	const struct inst_node *it = N(p, items[k]);
	size_t mark = p->e->n;
	unsigned renamed = p->res->n_renamed, regions = p->res->n_regions;
	size_t nregions = p->n_regions;
	p->n_sites = 0;
	p->n_site_conds = 0;
	const struct inst_fn *f = inst_fns_find(&p->fns, items[k]);
	walk(p, it->a, CTX_TOP, 0, 0);
	walk_block(p, N(p, it->b), f != NULL, 0);
	define_sites_before(p, it->end);
	int probed = 0;
	if (f) {
		p->res->n_functions++;
		if (f->selected) {
			const struct inst_node *b = N(p, it->b);
			edits_addf(p->e, b->off + 1, 0, GUARD_FMT, (int)f->name_len,
				   p->src + f->name_off, p->file_esc, f->line);
			site_add(p, b->cond);
			p->res->n_probed++;
			probed = 1;
		}
	}
	int placed = 1;
	if (p->n_sites != 0) {
		size_t j = k;
		while (j > 0 && items[j] != (f ? f->start : items[k]))
			j--;
		int ok = file_scope_item(p, items, &j);
		const struct inst_node *start = N(p, items[j]);
		uint32_t prev_end = j > 0 ? N(p, items[j - 1])->end : 0;
		if (!ok || place_include(p, start, prev_end) < 0) {
			inst_warn(p->d, start->line, start->col, "no file-scope place for #include "
				  "<sgtrace.h> before this definition (#if or a macro brace around "
				  "it); left uninstrumented");
			edits_truncate(p->e, mark);
			p->res->n_renamed = renamed;
			p->res->n_regions = regions;
			p->n_regions = nregions;
			p->res->n_probed -= probed;
			placed = 0;
		}
	}
	if (f && p->opt && p->opt->explain)
		fprintf(p->opt->explain, "%s:%u %.*s: %s: %s\n", p->d->file, f->line,
			(int)f->name_len, p->src + f->name_off,
			f->selected && placed ? "selected" : "left out",
			f->selected && !placed ? "no file-scope place for #include <sgtrace.h>" :
			f->why);
}

int inst_probe(const char *src, size_t len, const struct inst_tree *t, const struct inst_lex *lx,
	       const struct inst_options *opt, struct inst_diag *d, struct inst_edits *e,
	       struct inst_result *res)
{
	struct probe p = { .src = src, .len = len, .t = t, .lx = lx, .opt = opt, .d = d, .e = e,
			   .res = res };
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
	rc = inst_select(src, len, t, items, n_items, opt, d->file, &p.fns);
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
			walk(&p, it->a, CTX_TOP, 0, 0);
		}
	}
	for (size_t k = 0; k < p.n_regions; k++)
		inst_warn(d, 1, 1, "region %.*s is opened but never closed in this file",
			  (int)p.regions[k].len, src + p.regions[k].off);
	if (p.oom || e->oom)
		rc = -ENOMEM;
out:
	free(items);
	inst_fns_free(&p.fns);
	free(p.incs);
	free(p.regions);
	free(p.site_conds);
	return rc;
}
