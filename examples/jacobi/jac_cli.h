/*
 * jac_cli.h — the command line and the result lines shared by jacobi-seq and jacobi.
 */
#ifndef JAC_CLI_H
#define JAC_CLI_H

#include "jac_grid.h"

struct jac_args {
	long long n, iters, threads;
	int stats;
};

/* Parses the options (--threads only when `parallel`). 0, 1 after --help, or -EINVAL. */
int jac_cli_parse(int argc, char **argv, const char *prog, int parallel, struct jac_args *a);

/* Prints the checksum line (and with --stats the sizes and the last sweep's change). */
void jac_cli_report(const struct jac_args *a, const struct jac_grid *g, double change);

#endif /* JAC_CLI_H */
