/*
 * jacobi_seq.c — jacobi-seq, the sequential Jacobi relaxation: the T_seq reference and the
 * checksum the parallel program must reproduce.
 */
#include <stdio.h>
#include <string.h>

#include "ex_cli.h"
#include "jac_cli.h"
#include "sgtrace.h"

int main(int argc, char **argv)
{
	struct jac_args a;
	struct jac_grid g;
	double change = 0;
	int ret;

	ret = jac_cli_parse(argc, argv, "jacobi-seq", 0, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	ret = jac_grid_init(&g, (long)a.n);
	if (ret) {
		fprintf(stderr, "jacobi-seq: error: cannot allocate a %lld grid: %s\n", a.n,
			strerror(-ret));
		return 1;
	}
	SG_REGION_BEGIN("relax");
	for (long long k = 0; k < a.iters; k++) {
		change = jac_grid_sweep(&g, 1, g.n + 1);
		jac_grid_swap(&g);
	}
	SG_REGION_END("relax");
	jac_cli_report(&a, &g, change);
	jac_grid_free(&g);
	return 0;
}
