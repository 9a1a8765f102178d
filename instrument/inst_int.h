/*
 * inst_int.h — private to instrument/: the token record the Flex scanner hands to the Bison
 * parser, the scanner's per-file state (preprocessor conditionals, region pragmas, #define
 * sites), and the syntax tree the grammar actions build. The passes (inst_probe.c) read the tree;
 * the splicer (inst_edit.c) applies their edits at byte offsets.
 */
#ifndef INST_INT_H
#define INST_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "instrument.h"

/* One token as the scanner reports it: byte span in the input, line/column (1-based) and the
 * preprocessor-conditional branch it sits in (see struct inst_cond). */
struct inst_tok {
	uint32_t off;
	uint32_t len;
	uint32_t line;
	uint32_t col;
	uint32_t cond;
	int sub;       /* token-specific code: enum inst_kw_sub, enum inst_pragma_sub */
};

enum inst_kw_sub {
	KW_STATIC = 1, KW_INLINE, KW_EXTERN, KW_TYPEDEF, /* storage/function specifiers */
	KW_LOOP,   /* for while do */
	KW_STMT,   /* if else switch case default return goto break continue */
	KW_ATTR,   /* __attribute__ __declspec asm typeof _Alignas _Static_assert ... */
};

enum inst_pragma_sub {
	PRAGMA_BEGIN = 1,  /* #pragma scalegraph region begin "name" */
	PRAGMA_END,        /* #pragma scalegraph region end ["name"] */
	PRAGMA_BAD,        /* #pragma scalegraph ... that does not follow that syntax */
};

/* A branch of a preprocessor conditional: every #if/#ifdef/#ifndef, #elif and #else opens a new
 * branch whose parent is the branch the conditional sits in. Branch 0 is the file itself. Code
 * in branch b is compiled whenever code in branch a is, if a is an ancestor of b (or b itself). */
struct inst_cond {
	uint32_t parent;
	uint32_t depth;
	uint32_t dir_off;  /* offset of the line start of the directive that opened the branch group */
	uint32_t dir_line;
	uint8_t fixed;     /* the group is an `#if 0` one: no build flag changes which branch */
};

/* A wrapped name (pthread_*, sem_*) called inside a #define body, renamed like any call. */
struct inst_site {
	uint32_t off;
	uint32_t line;
	uint32_t cond;
	uint32_t paren;    /* offset of the '(' after the name */
};

/* An open bracket: its character and where it is. */
struct inst_brk {
	char c;
	uint32_t off, line, col;
};

/* An #elif/#else branch the second parse attempt did not read (first_branch_only): from its
 * directive at `off` (line `line`) to the #endif at `end` (line `end_line`), of the
 * conditional opened at `if_off` (line `if_line`). */
struct inst_drop {
	uint32_t off, line, end, end_line, if_off, if_line;
};

/* Per-file scanner state (flex "extra" data). */
struct inst_lex {
	const char *src;
	size_t len;
	size_t in_off;         /* bytes handed to the scanner so far (YY_INPUT) */
	uint32_t off;          /* byte offset of the next character */
	uint32_t tok_off, tok_line, tok_col; /* start of the last token matched */
	uint32_t tok_located;  /* tok_off + 1 when tok_line/tok_col are up to date */
	uint32_t pos_off, pos_line, pos_bol; /* line cursor of inst_lex_locate */
	int first_branch_only; /* skip #elif/#else branches (second parse attempt) */
	/* conditional tracking */
	struct inst_cond *conds;
	size_t n_conds, cap_conds;
	struct { uint32_t branch; int taken, fixed; uint32_t dir_off, dir_line; } *cstack;
	size_t n_cstack, cap_cstack;
	uint32_t cur_cond;
	size_t skip_level;     /* 0: not skipping; else skipping while n_cstack >= skip_level */
	/* directive being scanned */
	uint32_t dir_off, dir_line, dir_col;
	uint32_t dir_nl;
	int in_skip_comment;
	struct inst_site *dsites;
	size_t n_dsites, cap_dsites;
	struct inst_drop *drops; /* branches skipped by first_branch_only */
	size_t n_drops, cap_drops;
	/* open brackets, for saying which one a syntax error left unclosed */
	struct inst_brk *brk;
	size_t n_brk, cap_brk;
	struct inst_brk unclosed; /* the opener a mismatched closer at unclosed_at left open */
	uint32_t unclosed_at;     /* offset of that closer + 1; 0: none */
	int at_eof;
	int sep;               /* a skipped token (operator, literal) since the last one returned */
	int oom;
};

/* Syntax tree. Nodes live in one array and are named by index; -1 is "none". */
enum inst_node_kind {
	N_LIST = 1, /* children: first..last via next */
	N_ID,       /* an identifier */
	N_KW,       /* a keyword of interest, sub = enum inst_kw_sub */
	N_ASSIGN,   /* a lone '=' */
	N_PRAGMA,   /* region pragma, sub = enum inst_pragma_sub; off/end = directive text */
	N_CALL,     /* ID '(' ... ')': a = the N_PAREN */
	N_PAREN,    /* '(' inner ')': a = inner list */
	N_BRACKET,  /* '[' inner ']' */
	N_BLOCK,    /* '{' stmts head '}': a = list of N_ITEM, b = trailing head list */
	N_ITEM,     /* head ';' or head block: a = head list, b = block or -1 */
	N_ERROR,    /* where the parser recovered from a syntax error */
};

struct inst_node {
	uint8_t kind;
	uint8_t sub;
	uint32_t off, end;  /* byte span [off, end) */
	uint32_t line, col; /* of off */
	uint32_t cond;
	union {
		int32_t a;
		int32_t first;  /* N_LIST: first child */
	};
	union {
		int32_t b;
		int32_t last;   /* N_LIST: last child */
	};
	int32_t next;       /* sibling in a list */
};

struct inst_error {
	uint32_t off, line, col;
	char msg[120];
};

struct inst_tree {
	struct inst_node *nodes;
	size_t n_nodes, cap_nodes;
	int32_t top;        /* N_LIST of top-level N_ITEM / N_ERROR, or -1 */
	struct inst_error *errors;
	size_t n_errors, cap_errors;
	int aborted;        /* the parser gave up (unbalanced to the end of file) */
	size_t size_hint;   /* bytes of input, to size the node array */
	const char *src;    /* the input, for tree_call to spot pthread_create */
	int32_t *creates;   /* N_CALL nodes of pthread_create, in input order */
	size_t n_creates, cap_creates;
	int oom;
};

/* Tree builder: one call per grammar action (inst_tree.c). Each returns a node index or -1. */
int32_t tree_leaf(struct inst_tree *t, enum inst_node_kind kind, const struct inst_tok *tok);
int32_t tree_append(struct inst_tree *t, int32_t list, int32_t node);
/* An identifier followed by a parenthesis group; pthread_create calls are also listed in
 * t->creates (the probe pass reads their start routines). */
int32_t tree_call(struct inst_tree *t, const struct inst_tok *id, int32_t paren);
int32_t tree_group(struct inst_tree *t, enum inst_node_kind kind, const struct inst_tok *open,
		   int32_t inner, const struct inst_tok *close);
int32_t tree_block(struct inst_tree *t, const struct inst_tok *open, int32_t stmts, int32_t tail,
		   const struct inst_tok *close);
int32_t tree_item(struct inst_tree *t, int32_t head, int32_t block, const struct inst_tok *end);
void tree_top(struct inst_tree *t, int32_t item);
void tree_error(struct inst_tree *t, uint32_t off, uint32_t line, uint32_t col, const char *msg);
void tree_free(struct inst_tree *t);

/* Scanner (inst_lexer.l) and parser (inst_parser.y) glue. inst_parse lexes and parses `lx->src`
 * into `t`; it returns 0 (errors, if any, are in t->errors) or -ENOMEM. */
int inst_parse(struct inst_lex *lx, struct inst_tree *t);
/* Line and column (1-based, bytes) of offset `off`. Positions are found on demand with a
 * cursor that moves forward, so asking in increasing order costs O(file) in all. */
void inst_lex_locate(struct inst_lex *lx, uint32_t off, uint32_t *line, uint32_t *col);
void inst_lex_free(struct inst_lex *lx);
/* Called by the scanner for each complete directive [lx->dir_off, end): tracks conditionals and
 * #define sites. Returns the pragma sub-code when it is a scalegraph region pragma, else 0. */
int inst_directive(struct inst_lex *lx, uint32_t end);
uint32_t inst_cond_new(struct inst_lex *lx, uint32_t dir_off, uint32_t dir_line);
/* Parses a `#pragma scalegraph region begin|end ["name"]` line of n bytes: returns
 * PRAGMA_BEGIN/END/BAD or 0 (not ours); *name gets the string literal with quotes, or NULL. */
int inst_pragma_parse(const char *p, size_t n, const char **name, size_t *name_len);

/* Is s[0..len) the name of a function libsgtrace wraps (sgtrace.h: sg_pthread_*, sg_sem_*)? */
int inst_is_wrapped(const char *s, size_t len);
/* Does the wrapper of wrapped name s[0..len) begin a wait (a lock, barrier, condition,
 * semaphore wait or join), so that its calls pass their call site (sg_NAME_at, sgtrace.h)? */
int inst_is_site_call(const char *s, size_t len);
/* Of the wrapped names, is this one that ends or replaces the process (_exit, exec*)? Renamed
 * like the others, but no synchronisation: for the probe rule it stays an ordinary call. */
int inst_is_end_call(const char *s, size_t len);
/* Non-zero when c may appear in an identifier. */
static inline int inst_is_idch(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

/* An edit of the output: delete `del` bytes at `off`, insert `text` (`len` bytes). */
struct inst_edit {
	uint32_t off;
	uint32_t del;
	uint32_t seq;  /* insertion order, to keep edits at one offset stable */
	char *text;    /* malloc'd */
	size_t len;
};

struct inst_edits {
	struct inst_edit *v;
	size_t n, cap;
	int oom;
};

/* Adds an edit; `text` is copied. Failures set e->oom. */
void edits_add(struct inst_edits *e, uint32_t off, uint32_t del, const char *text, size_t len);
/* printf-style edits_add. */
void edits_addf(struct inst_edits *e, uint32_t off, uint32_t del, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Applies the edits (sorted here) to src; the result is malloc'd into *out. Returns 0 or -ENOMEM. */
int edits_apply(struct inst_edits *e, const char *src, size_t len, char **out, size_t *out_len);
void edits_free(struct inst_edits *e);
/* Drops the edits added after the first n (rolls back one function's edits). */
void edits_truncate(struct inst_edits *e, size_t n);


/* Makes room for element n of the array `*arrp` (a pointer to the array pointer) of `elem`-byte
 * elements with capacity *cap: grows it to first_cap, then doubles. Returns 0 or -ENOMEM (the
 * array is left as it was). */
int inst_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first_cap);

/* Warning sink shared by the passes. */
struct inst_diag {
	FILE *f;
	const char *file;
	int quiet;
	unsigned n;
};
void inst_warn(struct inst_diag *d, uint32_t line, uint32_t col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A function definition and the verdict of the selection (inst_select.c). */
struct inst_fn {
	int32_t item;       /* the top-level item holding the body */
	int32_t start;      /* first item of the definition (K&R: the line with the name) */
	int32_t name;       /* the N_CALL or N_ID node of the name */
	size_t k;           /* index of `item` among the top-level items */
	uint32_t name_off, name_len, line;
	uint8_t is_static, is_inline;
	/* facts about the body */
	uint8_t has_loop;        /* a loop other than a short fixed one */
	uint8_t has_short_loop;  /* `for (i = 0; i < 3; i++)` */
	uint8_t has_sync;        /* a call to a wrapped pthread/semaphore function */
	uint8_t has_call;        /* any other call (functions, function-like macros) */
	uint8_t recursive;       /* calls itself */
	uint8_t calls_local;     /* calls another function defined in this file */
	unsigned n_stmts;
	uint32_t start_line;     /* line of a pthread_create naming it, or 0 */
	uint32_t loop_site_line; /* first call of it in a loop of another function here, or 0 */
	uint32_t rec_site_line;  /* first call of it from a recursive function here, or 0 */
	uint32_t rec_site_caller;
	const struct inst_ext_call *ext_site; /* a call of it in a loop of another file, or NULL */
	uint8_t tiny_cand;       /* non-static, tiny, and probed only for want of such a call */
	/* the verdict */
	int selected;
	uint8_t outside;         /* selected as main or a start routine by the default rule: probed
				    from outside its body (SG_FUNC_OUTSIDE), its code unchanged */
	char why[160];
	/* the probe pass */
	uint8_t sites;           /* renamed calls or regions in it: an include covers it */
	uint8_t rolled_back;     /* no file-scope place for #include <sgtrace.h> */
};

struct inst_fns {
	struct inst_fn *v;
	size_t n, cap;
	size_t cursor;      /* inst_fns_find */
};

/* A call of a function defined in the same file. */
struct inst_sel_call {
	uint32_t line;
	uint32_t caller;    /* index into fns */
	int32_t callee;     /* index into fns */
	uint8_t in_loop;
};

/* A call of a function not defined in the file (kept for inst_result.summary). */
struct inst_sel_ext {
	uint32_t off, len, line;
	uint32_t caller;    /* index into fns */
	uint8_t in_loop;
};

/* The selection's state (inst_select.c). */
struct inst_sel {
	const char *src;
	size_t len;
	const struct inst_tree *t;
	struct inst_fns *fns;
	struct inst_sel_call *calls;
	size_t n_calls, cap_calls;
	int want_ext;       /* keep the calls of functions not defined here */
	struct inst_sel_ext *ext;
	size_t n_ext, cap_ext;
	int32_t *index;     /* open-addressing table: name -> definition */
	size_t index_mask;
	int oom;
};

/* Finds the function definitions among the top-level items (and the start routines
 * pthread_create names). Returns 0 or -ENOMEM. */
int inst_select_find(struct inst_sel *s, const char *src, size_t len, const struct inst_tree *t,
		     const int32_t *items, size_t n_items, struct inst_fns *fns);
/* What the probe pass's walk sees in the body of definition fi: a call (not of a wrapped
 * function, not a member) of the name at n, `len` bytes; a loop keyword. */
void inst_select_call(struct inst_sel *s, int32_t fi, const struct inst_node *n, uint32_t len,
		      int in_loop);
void inst_select_loop(struct inst_sel *s, int32_t fi, const struct inst_node *kw);
/* Decides which definitions get probes, with the reason (default rule, --all/--no-functions,
 * filter). Returns 0 or -ENOMEM. */
int inst_select_decide(struct inst_sel *s, const struct inst_options *opt, const char *file);
/* What the other files of the program need to know (inst_result.summary): the tiny
 * candidates defined here, the calls of functions not defined here in loops or from directly
 * recursive functions. After inst_select_decide; returns 0 or -ENOMEM. */
int inst_select_summary(const struct inst_sel *s, struct inst_summary *sum);
void inst_select_free(struct inst_sel *s);
/* The index of the definition whose body is top-level item `item`, or -1; ask in input order. */
int32_t inst_fns_find(struct inst_fns *fns, int32_t item);
void inst_fns_free(struct inst_fns *fns);
/* Length of the identifier at src[off]. */
uint32_t inst_id_len(const char *src, size_t len, uint32_t off);
/* Is the identifier at src[off] a struct member (after `.` or `->`)? */
int inst_is_member(const char *src, uint32_t off);

/* The text the parser reads when the compiled lines are known (inst_live.c): a copy of `src`
 * with the #if groups the compiler does not compile blanked (every byte but newlines made a
 * space), so offsets and lines stay; *out is NULL when none is to be blanked. Returns 0,
 * -ENOMEM, or -EPROTO when the lines cannot be this file's (no line outside the conditionals
 * showed up). */
int inst_live_text(const char *src, size_t len, const struct inst_lines *l, char **out);

/* The probe pass (inst_probe.c): reads the tree and the scanner state, adds edits. */
int inst_probe(const char *src, size_t len, const struct inst_tree *t, const struct inst_lex *lx,
	       const struct inst_options *opt, struct inst_diag *d, struct inst_edits *e,
	       struct inst_result *res);

#endif /* INST_INT_H */
