/*
 * inst_tree.c — the syntax tree the grammar actions build: one array of nodes named by index,
 * lists linked through `next`. Only tokens that matter get a node (identifiers, keywords of
 * interest, '=', pragmas, groups), which keeps the parser near the scanner's speed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

static int32_t tree_new(struct inst_tree *t, enum inst_node_kind kind)
{
	if (t->n_nodes == t->cap_nodes) {
		/* about one node per 8 bytes of C: start near that, grow by half */
		size_t cap = t->cap_nodes ? t->cap_nodes + t->cap_nodes / 2 :
			     t->size_hint / 8 > 4096 ? t->size_hint / 8 : 4096;
		if (cap > INT32_MAX) {
			t->oom = 1;
			return -1;
		}
		struct inst_node *v = realloc(t->nodes, cap * sizeof *v);
		if (!v) {
			t->oom = 1;
			return -1;
		}
		t->nodes = v;
		t->cap_nodes = cap;
	}
	int32_t i = (int32_t)t->n_nodes++;
	struct inst_node *n = &t->nodes[i];
	memset(n, 0, sizeof *n);
	n->kind = (uint8_t)kind;
	n->a = n->b = n->next = -1;
	return i;
}

static void tree_at(struct inst_node *n, const struct inst_tok *tok)
{
	n->off = tok->off;
	n->end = tok->off + tok->len;
	n->line = tok->line;
	n->col = tok->col;
	n->cond = tok->cond;
}

int32_t tree_leaf(struct inst_tree *t, enum inst_node_kind kind, const struct inst_tok *tok)
{
	int32_t i = tree_new(t, kind);
	if (i >= 0) {
		tree_at(&t->nodes[i], tok);
		t->nodes[i].sub = (uint8_t)tok->sub;
	}
	return i;
}

int32_t tree_append(struct inst_tree *t, int32_t list, int32_t node)
{
	if (node < 0)
		return list;
	if (list < 0) {
		list = tree_new(t, N_LIST);
		if (list < 0)
			return -1;
		struct inst_node *l = &t->nodes[list];
		const struct inst_node *c = &t->nodes[node];
		l->off = c->off;
		l->line = c->line;
		l->col = c->col;
		l->cond = c->cond;
		l->first = node;
	} else {
		t->nodes[t->nodes[list].last].next = node;
	}
	t->nodes[list].last = node;
	t->nodes[list].end = t->nodes[node].end;
	return list;
}

static void tree_note_create(struct inst_tree *t, int32_t call)
{
	if (inst_grow(&t->creates, &t->cap_creates, t->n_creates, sizeof *t->creates, 16)) {
		t->oom = 1;
		return;
	}
	t->creates[t->n_creates++] = call;
}

int32_t tree_call(struct inst_tree *t, const struct inst_tok *id, int32_t paren)
{
	int32_t i = tree_new(t, N_CALL);
	if (i >= 0) {
		tree_at(&t->nodes[i], id);
		t->nodes[i].a = paren;
		if (paren >= 0)
			t->nodes[i].end = t->nodes[paren].end;
		if (t->src && id->len == 14 && !memcmp(t->src + id->off, "pthread_create", 14))
			tree_note_create(t, i);
	}
	return i;
}

int32_t tree_group(struct inst_tree *t, enum inst_node_kind kind, const struct inst_tok *open,
		   int32_t inner, const struct inst_tok *close)
{
	int32_t i = tree_new(t, kind);
	if (i >= 0) {
		tree_at(&t->nodes[i], open);
		t->nodes[i].end = close->off + close->len;
		t->nodes[i].a = inner;
	}
	return i;
}

int32_t tree_block(struct inst_tree *t, const struct inst_tok *open, int32_t stmts, int32_t tail,
		   const struct inst_tok *close)
{
	int32_t i = tree_group(t, N_BLOCK, open, stmts, close);
	if (i >= 0)
		t->nodes[i].b = tail;
	return i;
}

int32_t tree_item(struct inst_tree *t, int32_t head, int32_t block, const struct inst_tok *end)
{
	if (head < 0 && block < 0)
		return -1; /* a lone ';' */
	int32_t i = tree_new(t, N_ITEM);
	if (i < 0)
		return -1;
	struct inst_node *n = &t->nodes[i];
	const struct inst_node *first = &t->nodes[head >= 0 ? head : block];
	n->off = first->off;
	n->line = first->line;
	n->col = first->col;
	n->cond = first->cond;
	n->end = block >= 0 ? t->nodes[block].end : end->off + end->len;
	n->a = head;
	n->b = block;
	return i;
}

void tree_top(struct inst_tree *t, int32_t item)
{
	t->top = tree_append(t, t->top, item);
}

void tree_error(struct inst_tree *t, uint32_t off, uint32_t line, uint32_t col, const char *msg)
{
	if (inst_grow(&t->errors, &t->cap_errors, t->n_errors, sizeof *t->errors, 8)) {
		t->oom = 1;
		return;
	}
	struct inst_error *e = &t->errors[t->n_errors++];
	e->off = off;
	e->line = line;
	e->col = col;
	snprintf(e->msg, sizeof e->msg, "%s", msg);
}

void tree_free(struct inst_tree *t)
{
	free(t->nodes);
	free(t->errors);
	free(t->creates);
	memset(t, 0, sizeof *t);
	t->top = -1;
}
