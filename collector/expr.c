/*
 * expr.c — recursive-descent evaluator for spec expressions (see expr.h). The grammar, with
 * `^` binding tighter than unary minus on its left and right-associative:
 *   expr    -> term { ('+' | '-') term }
 *   term    -> unary { ('*' | '/') unary }
 *   unary   -> '-' unary | '+' unary | power
 *   power   -> primary [ '^' unary ]
 *   primary -> NUMBER | NAME | '(' expr ')'
 */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expr_parser {
	const char *s;
	size_t pos;
	expr_lookup_fn lookup;
	void *ctx;
	char *err;
	size_t err_len;
	size_t err_off;
	int depth;
};

static int fail(struct expr_parser *p, size_t off, const char *msg)
{
	snprintf(p->err, p->err_len, "%s", msg);
	p->err_off = off;
	return -EINVAL;
}

static void skip_blank(struct expr_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int parse_expr(struct expr_parser *p, double *v);
static int parse_unary(struct expr_parser *p, double *v);

/* primary -> NUMBER | NAME | '(' expr ')' */
static int parse_primary(struct expr_parser *p, double *v)
{
	skip_blank(p);
	size_t start = p->pos;
	char c = p->s[p->pos];
	if (c == '(') {
		p->pos++;
		if (++p->depth > 64)
			return fail(p, start, "expression nested too deeply");
		int rc = parse_expr(p, v);
		p->depth--;
		if (rc < 0)
			return rc;
		skip_blank(p);
		if (p->s[p->pos] != ')')
			return fail(p, p->pos, "expected ')'");
		p->pos++;
		return 0;
	}
	if (isdigit((unsigned char)c) || c == '.') {
		char *end;
		*v = strtod(p->s + start, &end);
		if (end == p->s + start)
			return fail(p, start, "bad number");
		p->pos = (size_t)(end - p->s);
		return 0;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')
			p->pos++;
		size_t len = p->pos - start;
		if (!p->lookup || p->lookup(p->ctx, p->s + start, len, v) < 0) {
			char msg[128];
			snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(len > 40 ? 40 : len),
				 p->s + start);
			return fail(p, start, msg);
		}
		return 0;
	}
	if (!c)
		return fail(p, start, "expected a number, a name or '(' at the end of the expression");
	char msg[64];
	snprintf(msg, sizeof msg, "unexpected character '%c' in expression", c);
	return fail(p, start, msg);
}

/* power -> primary [ '^' unary ] */
static int parse_power(struct expr_parser *p, double *v)
{
	int rc = parse_primary(p, v);
	if (rc < 0)
		return rc;
	skip_blank(p);
	if (p->s[p->pos] == '^') {
		p->pos++;
		double e;
		if (++p->depth > 64)
			return fail(p, p->pos, "expression nested too deeply");
		rc = parse_unary(p, &e);
		p->depth--;
		if (rc < 0)
			return rc;
		*v = pow(*v, e);
	}
	return 0;
}

/* unary -> '-' unary | '+' unary | power */
static int parse_unary(struct expr_parser *p, double *v)
{
	skip_blank(p);
	char c = p->s[p->pos];
	if (c == '-' || c == '+') {
		p->pos++;
		if (++p->depth > 64)
			return fail(p, p->pos, "expression nested too deeply");
		int rc = parse_unary(p, v);
		p->depth--;
		if (rc < 0)
			return rc;
		if (c == '-')
			*v = -*v;
		return 0;
	}
	return parse_power(p, v);
}

/* term -> unary { ('*' | '/') unary } */
static int parse_term(struct expr_parser *p, double *v)
{
	int rc = parse_unary(p, v);
	while (rc == 0) {
		skip_blank(p);
		char c = p->s[p->pos];
		if (c != '*' && c != '/')
			break;
		size_t op = p->pos++;
		double r;
		rc = parse_unary(p, &r);
		if (rc < 0)
			break;
		if (c == '/' && r == 0)
			return fail(p, op, "division by zero");
		*v = c == '*' ? *v * r : *v / r;
	}
	return rc;
}

/* expr -> term { ('+' | '-') term } */
static int parse_expr(struct expr_parser *p, double *v)
{
	int rc = parse_term(p, v);
	while (rc == 0) {
		skip_blank(p);
		char c = p->s[p->pos];
		if (c != '+' && c != '-')
			break;
		p->pos++;
		double r;
		rc = parse_term(p, &r);
		if (rc == 0)
			*v = c == '+' ? *v + r : *v - r;
	}
	return rc;
}

int expr_eval(const char *text, expr_lookup_fn lookup, void *ctx, double *value,
	      char *err, size_t err_len, size_t *err_off)
{
	struct expr_parser p = { .s = text, .lookup = lookup, .ctx = ctx, .err = err,
				 .err_len = err_len };
	double v = 0;
	int rc = parse_expr(&p, &v);
	if (rc < 0)
		goto out;
	skip_blank(&p);
	if (p.s[p.pos]) {
		char msg[64];
		snprintf(msg, sizeof msg, "unexpected '%c' after the expression", p.s[p.pos]);
		rc = fail(&p, p.pos, msg);
		goto out;
	}
	if (!isfinite(v)) {
		rc = fail(&p, 0, "expression is not a finite number");
		goto out;
	}
	*value = v;
out:
	if (rc < 0 && err_off)
		*err_off = p.err_off;
	return rc;
}
