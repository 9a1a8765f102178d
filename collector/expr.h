/*
 * expr.h — the arithmetic of experiment specs: numbers, names, + - * / ^ and parentheses,
 * evaluated in double precision. Expressions stay text; each evaluation re-parses them (they are
 * a few characters long and evaluated a few hundred times per series).
 */
#ifndef EXPR_H
#define EXPR_H

#include <stddef.h>

/* Resolves a name to a value; returns 0, or -ENOENT for an unknown name. */
typedef int (*expr_lookup_fn)(void *ctx, const char *name, size_t len, double *value);

/* Evaluates `text` (the whole string must be one expression). Returns 0 and sets *value, or
 * -EINVAL with a message in `err` and the 0-based offset of the fault in *err_off. Division by
 * zero and non-finite results are errors. */
int expr_eval(const char *text, expr_lookup_fn lookup, void *ctx, double *value,
	      char *err, size_t err_len, size_t *err_off);

#endif /* EXPR_H */
