/*
 * jac_grid.c — the 5-point Jacobi sweep and the grid's set-up and checksum (see jac_grid.h).
 */
#include "jac_grid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ex_cli.h"

int jac_grid_init(struct jac_grid *g, long n)
{
	size_t side = (size_t)n + 2, cells = side * side;
	int ret = -ENOMEM;

	g->n = n;
	g->cur = malloc(cells * sizeof *g->cur);
	g->next = malloc(cells * sizeof *g->next);
	if (!g->cur || !g->next)
		goto out;
	/* Written here, cell by cell, so every page is faulted in before the measured sweeps
	 * (calloc would hand out untouched zero pages and move that cost into the region). */
	for (size_t k = 0; k < cells; k++)
		g->cur[k] = g->next[k] = k < side ? 1.0 : 0.0;	/* the hot top edge */
	ret = 0;
out:
	if (ret)
		jac_grid_free(g);
	return ret;
}

void jac_grid_free(struct jac_grid *g)
{
	free(g->cur);
	free(g->next);
	g->cur = g->next = NULL;
}

double jac_grid_sweep(struct jac_grid *g, long r0, long r1)
{
	size_t side = (size_t)g->n + 2;
	double change = 0;

	for (long i = r0; i < r1; i++) {
		const double *up = g->cur + ((size_t)i - 1) * side;
		const double *row = up + side, *down = row + side;
		double *out = g->next + (size_t)i * side;

		for (size_t j = 1; j <= (size_t)g->n; j++) {
			double v = 0.25 * ((up[j] + down[j]) + (row[j - 1] + row[j + 1]));
			double d = v > row[j] ? v - row[j] : row[j] - v;

			out[j] = v;
			if (d > change)
				change = d;
		}
	}
	return change;
}

void jac_grid_swap(struct jac_grid *g)
{
	double *t = g->cur;

	g->cur = g->next;
	g->next = t;
}

long jac_rows_begin(long n, long id, long n_threads)
{
	return 1 + (long)((long long)n * id / n_threads);
}

uint64_t jac_grid_checksum(const struct jac_grid *g)
{
	size_t side = (size_t)g->n + 2;

	return ex_hash_bytes(EX_HASH_INIT, g->cur, side * side * sizeof *g->cur);
}
