/*
 * jac_cli.c — options and output of the two Jacobi programs, in one place so both print the
 * same lines (see jac_cli.h).
 */
#include "jac_cli.h"

#include <inttypes.h>
#include <stdio.h>

#include "ex_cli.h"

static const char usage_seq[] =
	"usage: jacobi-seq [--n SIZE] [--iters K] [--stats]\n"
	"Sequential Jacobi relaxation of a SIZE x SIZE grid (5-point stencil, hot top edge).\n"
	"  --n SIZE     interior points per side, 1..30000 (default 512)\n"
	"  --iters K    sweeps, 1..100000000 (default 100)\n"
	"  --stats      also print the sizes and the largest change in the last sweep\n"
	"Prints 'checksum HEX' of the final grid; jacobi prints the same value for every N.\n";

static const char usage_par[] =
	"usage: jacobi [--n SIZE] [--iters K] [--threads N] [--stats]\n"
	"Parallel Jacobi relaxation: rows split into N blocks, a barrier after every sweep.\n"
	"  --n SIZE     interior points per side, 1..30000 (default 512)\n"
	"  --iters K    sweeps, 1..100000000 (default 100)\n"
	"  --threads N  worker threads, 1..1024 (default 2)\n"
	"  --stats      also print the sizes and the largest change in the last sweep\n"
	"Prints 'checksum HEX' of the final grid, identical to jacobi-seq and for every N.\n";

int jac_cli_parse(int argc, char **argv, const char *prog, int parallel, struct jac_args *a)
{
	struct ex_opt opts[] = {
		{ "n", 1, 30000, &a->n, 0 },
		{ "iters", 1, 100000000, &a->iters, 0 },
		{ "threads", 1, 1024, &a->threads, 0 },
	};
	struct ex_flag flags[] = { { "stats", &a->stats } };

	a->n = 512;
	a->iters = 100;
	a->threads = parallel ? 2 : 1;
	a->stats = 0;
	return ex_cli_parse(argc, argv, prog, parallel ? usage_par : usage_seq, opts,
			    parallel ? 3 : 2, flags, 1);
}

void jac_cli_report(const struct jac_args *a, const struct jac_grid *g, double change)
{
	if (a->stats) {
		printf("n %lld\niters %lld\nthreads %lld\n", a->n, a->iters, a->threads);
		printf("last_change %.17g\n", change);
		printf("bytes_per_point %.1f\n", 2.0 * sizeof(double) * (double)((a->n + 2) * (a->n + 2)) /
		       (double)(a->n * a->n));
	}
	printf("checksum %016" PRIx64 "\n", jac_grid_checksum(g));
}
