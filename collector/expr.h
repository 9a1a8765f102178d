/*
 * expr.h — the arithmetic of experiment specs: numbers, names, + - * / ^, parentheses and a
 * few functions, evaluated in double precision. Expressions stay text; each evaluation
 * re-parses them (they are a few characters long and evaluated a few hundred times per series).
 */
#ifndef EXPR_H
#define EXPR_H

#include <stddef.h>

/* Resolves a name to a value; returns 0, or -ENOENT for an unknown name. */
typedef int (*expr_lookup_fn)(void *ctx, const char *name, size_t len, double *value);

/* Evaluates `text` (the whole string must be one expression). Returns 0 and sets *value;
 * -EINVAL for an expression that cannot be written so (syntax, unknown name or function, wrong
 * number of arguments, a non-finite result); -EDOM for one that is well formed but not defined
 * at these values (division by zero, log2/log of x <= 0, sqrt of x < 0). Either way a message
 * is in `err` and the 0-based offset of the fault (the operator, the function's name) in
 * *err_off. Functions: log2, log (natural), sqrt, floor, ceil, round (one argument each), min
 * and max (2 to 16). */
int expr_eval(const char *text, expr_lookup_fn lookup, void *ctx, double *value,
	      char *err, size_t err_len, size_t *err_off);

#endif /* EXPR_H */
