/*
 * expr.c — recursive-descent evaluator for spec expressions (see expr.h). The grammar, with
 * `^` binding tighter than unary minus on its left and right-associative:
 *   expr    -> term { ('+' | '-') term }
 *   term    -> unary { ('*' | '/') unary }
 *   unary   -> '-' unary | '+' unary | power
 *   power   -> primary [ '^' unary ]
 *   primary -> NUMBER | NAME | NAME '(' expr { ',' expr } ')' | '(' expr ')'
 * A name followed by '(' is one of the functions of funcs[] (log2 of a size that doubles with
 * N, FFT's case, needed a polynomial before). A domain error (log2(0), sqrt(-1), x/0) does not stop
 * the parse: it is kept, the value becomes NaN and the rest is still checked, so that a
 * syntax error anywhere wins and the caller can tell "cannot be written so" (-EINVAL) from
 * "not defined at these values" (-EDOM).
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
	int domain;          /* a domain error was kept in err/err_off */
};

static int fail(struct expr_parser *p, size_t off, const char *msg)
{
	snprintf(p->err, p->err_len, "%s", msg);
	p->err_off = off;
	return -EINVAL;
}

/* Keeps the first domain error and goes on (see the top of the file). */
static void domain_fail(struct expr_parser *p, size_t off, const char *msg)
{
	if (p->domain)
		return;
	snprintf(p->err, p->err_len, "%s", msg);
	p->err_off = off;
	p->domain = 1;
}

static void skip_blank(struct expr_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static int parse_expr(struct expr_parser *p, double *v);
static int parse_unary(struct expr_parser *p, double *v);

enum func_id { F_LOG2, F_LOG, F_SQRT, F_MIN, F_MAX, F_FLOOR, F_CEIL, F_ROUND };

#define EXPR_MAX_ARGS 16

static const struct expr_func {
	const char *name;
	enum func_id id;
	int min_args, max_args;
} funcs[] = {
	{ "log2", F_LOG2, 1, 1 },   { "log", F_LOG, 1, 1 },   /* log: natural */
	{ "sqrt", F_SQRT, 1, 1 },   { "min", F_MIN, 2, EXPR_MAX_ARGS },
	{ "max", F_MAX, 2, EXPR_MAX_ARGS }, { "floor", F_FLOOR, 1, 1 },
	{ "ceil", F_CEIL, 1, 1 },   { "round", F_ROUND, 1, 1 },   /* halves away from zero */
};

static const struct expr_func *find_func(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
		if (strlen(funcs[i].name) == len && !strncmp(funcs[i].name, name, len))
			return &funcs[i];
	return NULL;
}

/* Applies f to its arguments; a domain error is kept at `at` (the function's name). */
static double func_apply(struct expr_parser *p, const struct expr_func *f, const double *a,
			 int n, size_t at)
{
	char msg[128];
	double v = a[0];
	switch (f->id) {
	case F_LOG2:
	case F_LOG:
		if (!(a[0] > 0)) {
			snprintf(msg, sizeof msg, "%s(%g) is not defined (the argument must be > 0)",
				 f->name, a[0]);
			domain_fail(p, at, msg);
			return NAN;
		}
		return f->id == F_LOG2 ? log2(a[0]) : log(a[0]);
	case F_SQRT:
		if (!(a[0] >= 0)) {
			snprintf(msg, sizeof msg, "sqrt(%g) is not defined (the argument must be >= 0)",
				 a[0]);
			domain_fail(p, at, msg);
			return NAN;
		}
		return sqrt(a[0]);
	case F_MIN:
	case F_MAX:
		/* not fmin/fmax: those drop a NaN, which must stay NaN here */
		for (int i = 1; i < n; i++)
			if (isnan(a[i]) || (f->id == F_MIN ? a[i] < v : a[i] > v))
				v = a[i];
		return v;
	case F_FLOOR:
		return floor(a[0]);
	case F_CEIL:
		return ceil(a[0]);
	case F_ROUND:
		return round(a[0]);
	}
	return NAN;
}

/* NAME '(' expr { ',' expr } ')' — p->pos is at the '(' after the name at `start`. */
static int parse_call(struct expr_parser *p, size_t start, size_t len, double *v)
{
	const struct expr_func *f = find_func(p->s + start, len);
	double arg[EXPR_MAX_ARGS];
	char msg[160];
	int n = 0, rc;
	if (!f) {
		snprintf(msg, sizeof msg, "unknown function '%.*s' (functions: log2, log, sqrt, min, "
			 "max, floor, ceil, round)", (int)(len > 40 ? 40 : len), p->s + start);
		return fail(p, start, msg);
	}
	p->pos++;   /* '(' */
	if (++p->depth > 64)
		return fail(p, start, "expression nested too deeply");
	skip_blank(p);
	if (p->s[p->pos] == ')') {
		p->pos++;
	} else {
		for (;;) {
			double a;
			if ((rc = parse_expr(p, &a)) < 0)
				return rc;
			if (n < EXPR_MAX_ARGS)
				arg[n] = a;
			n++;
			skip_blank(p);
			if (p->s[p->pos] == ',') {
				p->pos++;
				continue;
			}
			if (p->s[p->pos] != ')')
				return fail(p, p->pos, "expected ',' or ')' in the arguments");
			p->pos++;
			break;
		}
	}
	p->depth--;
	if (n < f->min_args || n > f->max_args) {
		if (f->min_args == f->max_args)
			snprintf(msg, sizeof msg, "%s takes %d argument%s, not %d", f->name,
				 f->min_args, f->min_args == 1 ? "" : "s", n);
		else
			snprintf(msg, sizeof msg, "%s takes %d to %d arguments, not %d", f->name,
				 f->min_args, f->max_args, n);
		return fail(p, start, msg);
	}
	*v = func_apply(p, f, arg, n, start);
	return 0;
}

/* primary -> NUMBER | NAME | NAME '(' expr { ',' expr } ')' | '(' expr ')' */
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
		size_t after = p->pos;
		while (p->s[after] == ' ' || p->s[after] == '\t')
			after++;
		if (p->s[after] == '(') {
			p->pos = after;
			return parse_call(p, start, len, v);
		}
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
		if (c == '/' && r == 0) {
			domain_fail(p, op, "division by zero");
			*v = NAN;
			continue;
		}
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
	if (p.domain) {
		rc = -EDOM;
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
