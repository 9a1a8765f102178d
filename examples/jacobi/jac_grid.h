/*
 * jac_grid.h — the Jacobi relaxation shared by jacobi-seq and jacobi: an (n+2) x (n+2) grid of
 * doubles whose border is fixed (top edge hot at 1.0, the others cold at 0.0) and whose interior
 * is relaxed by 5-point averaging, from one buffer into the other.
 *
 * A sweep over rows [r0, r1) reads only the old buffer and writes only those rows of the new
 * one, so any split of the rows among threads computes the same bits as one thread.
 */
#ifndef JAC_GRID_H
#define JAC_GRID_H

#include <stddef.h>
#include <stdint.h>

struct jac_grid {
	long n;			/* interior points per side */
	double *cur, *next;	/* (n+2)*(n+2) each, row-major; swapped after each sweep */
};

/* Allocates and initializes the grid (owned; release with jac_grid_free). 0 or -ENOMEM. */
int jac_grid_init(struct jac_grid *g, long n);
void jac_grid_free(struct jac_grid *g);

/* One sweep of interior rows r0..r1-1 (1-based, 1 <= r0 <= r1 <= n+1) from cur into next;
 * returns the largest |next - cur| change among them. */
double jac_grid_sweep(struct jac_grid *g, long r0, long r1);

/* Swaps cur and next (after every thread finished its rows). */
void jac_grid_swap(struct jac_grid *g);

/* First row of thread `id`'s block when n rows are split over n_threads (block r0..r1-1 with
 * r0 = jac_rows_begin(n, id, N), r1 = jac_rows_begin(n, id + 1, N)). */
long jac_rows_begin(long n, long id, long n_threads);

/* Hash of the current buffer's bits. */
uint64_t jac_grid_checksum(const struct jac_grid *g);

#endif /* JAC_GRID_H */
