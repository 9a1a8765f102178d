/*
 * inst_parser.y — the island grammar of the instrumenter (pure Bison parser, jq's parser.y as
 * the model). It does not parse C; it parses what every C file is made of after comments and
 * directives are gone: runs of tokens ("heads") ended by ';' or by a brace block, with
 * parentheses, brackets and braces balanced. Inside a brace block the same shape repeats, one
 * statement per head. Identifiers followed by a parenthesis group are kept as calls. That is
 * enough to find function definitions, their bodies, the calls in them and the statement starts,
 * and it never needs to know whether an identifier names a type, so unknown typedefs, macros,
 * attributes, asm, statement expressions, _Generic and K&R definitions all parse. Deciding what
 * is a function is the probe pass's job (inst_probe.c); every action here is one builder call.
 */
%define api.pure full
%define api.prefix {inst_yy}
%define parse.error verbose
%locations
%lex-param {void *scanner}
%parse-param {void *scanner} {struct inst_tree *t}

/* One conflict, by design: after an identifier, a '(' could start a call (ID call_paren) or a
 * separate parenthesis group after an identifier element. Shifting (taking the call) is what we
 * want: `f (x)` is a call, or a declarator `name(params)`, in every context of this grammar. */
%expect 1

%code requires {
#include "inst_int.h"
}

%union {
	struct inst_tok tok;
	int32_t node;
}

%code {
int inst_yylex(INST_YYSTYPE *lval, INST_YYLTYPE *lloc, void *scanner);
static void inst_yyerror(INST_YYLTYPE *loc, void *scanner, struct inst_tree *t, const char *msg);
}

%token <tok> ID KW ASSIGN PRAGMA SEPOPEN
%token <tok> '{' '}' '(' ')' '[' ']' ';'
%type <node> item head elem paren call_paren bracket inner ielem block stmts stmt

%%

/* unit -> item* */
unit
	: %empty
	| unit item             { tree_top(t, $2); }
	;

/* item -> head ';' | head block | error recovery at a ';' or '}' */
item
	: head ';'              { $$ = tree_item(t, $1, -1, &$2); }
	| head block            { $$ = tree_item(t, $1, $2, NULL); }
	| error ';'             { $$ = -1; }
	| error '}'             { $$ = -1; }
	;

/* head -> elem* */
head
	: %empty                { $$ = -1; }
	| head elem             { $$ = tree_append(t, $1, $2); }
	;

/* elem -> ID | ID call_paren | KW | '=' | PRAGMA | paren | bracket
 * (operators, literals and other tokens are skipped by the scanner) */
elem
	: ID                    { $$ = tree_leaf(t, N_ID, &$1); }
	| ID call_paren         { $$ = tree_call(t, &$1, $2); }
	| KW                    { $$ = tree_leaf(t, N_KW, &$1); }
	| ASSIGN                { $$ = tree_leaf(t, N_ASSIGN, &$1); }
	| PRAGMA                { $$ = tree_leaf(t, N_PRAGMA, &$1); }
	| paren
	| bracket
	;

/* paren -> call_paren | SEPOPEN ielem* ')'   (SEPOPEN: a '(' after a skipped token) */
paren
	: call_paren
	| SEPOPEN inner ')'     { $$ = tree_group(t, N_PAREN, &$1, $2, &$3); }
	;

/* call_paren -> '(' ielem* ')' */
call_paren
	: '(' inner ')'         { $$ = tree_group(t, N_PAREN, &$1, $2, &$3); }
	;

/* bracket -> '[' ielem* ']' */
bracket
	: '[' inner ']'         { $$ = tree_group(t, N_BRACKET, &$1, $2, &$3); }
	;

inner
	: %empty                { $$ = -1; }
	| inner ielem           { $$ = tree_append(t, $1, $2); }
	;

/* ielem -> elem | block | ';'   (statement expressions, compound literals, for (;;)) */
ielem
	: elem
	| block
	| ';'                   { $$ = -1; }
	;

/* block -> '{' stmt* head '}' */
block
	: '{' stmts head '}'    { $$ = tree_block(t, &$1, $2, $3, &$4); }
	;

stmts
	: %empty                { $$ = -1; }
	| stmts stmt            { $$ = tree_append(t, $1, $2); }
	;

/* stmt -> head ';' | head block */
stmt
	: head ';'              { $$ = tree_item(t, $1, -1, &$2); }
	| head block            { $$ = tree_item(t, $1, $2, NULL); }
	;

%%

#include <errno.h>
#include <string.h>
#include "inst_lexer.h"

/* Bison's message, plus which bracket was left open when that explains it: a closer of the
 * wrong kind, or the end of the file. Stack exhaustion means brackets nested deeper than
 * YYMAXDEPTH allows (the file is then left as it is, like any other syntax error). */
static void inst_yyerror(INST_YYLTYPE *loc, void *scanner, struct inst_tree *t, const char *msg)
{
	struct inst_lex *lx = inst_yyget_extra(scanner);
	const struct inst_brk *b = NULL;
	uint32_t line, col;
	char buf[120];
	(void)loc;
	if (!strcmp(msg, "memory exhausted"))
		msg = "brackets nested too deeply";
	if (lx->unclosed_at == lx->tok_off + 1)
		b = &lx->unclosed;
	else if (lx->at_eof && lx->n_brk)
		b = &lx->brk[lx->n_brk - 1];
	if (b) {
		snprintf(buf, sizeof buf, "%s; the '%c' at %u:%u is not closed", msg, b->c,
			 b->line, b->col);
		msg = buf;
	}
	inst_lex_locate(lx, lx->tok_off, &line, &col);
	tree_error(t, lx->tok_off, line, col, msg);
}

int inst_parse(struct inst_lex *lx, struct inst_tree *t)
{
	yyscan_t scanner;
	if (inst_yylex_init_extra(lx, &scanner))
		return -ENOMEM;
	/* 1: a syntax error it could not recover from; 2: the parser stack is full (nesting
	 * deeper than YYMAXDEPTH, reported by inst_yyerror). Real allocation failures are caught
	 * by the oom flags below. The scanner reads lx->src itself (YY_INPUT). */
	if (inst_yyparse(scanner, t) != 0)
		t->aborted = 1;
	inst_yylex_destroy(scanner);
	return t->oom || lx->oom ? -ENOMEM : 0;
}
