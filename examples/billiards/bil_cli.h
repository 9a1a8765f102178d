/*
 * bil_cli.h — the command line and the result lines shared by billiards-seq and billiards.
 */
#ifndef BIL_CLI_H
#define BIL_CLI_H

#include "bil_sim.h"

struct bil_args {
	long long balls, steps, threads, bins;
	int stats;
	int coarse;	/* billiards --coarse: segments and windows (bil_coarse.h) */
};

/* Parses the options of `prog` (threads accepted only when `parallel`). Returns 0, 1 after
 * --help, or -EINVAL after printing the error. */
int bil_cli_parse(int argc, char **argv, const char *prog, int parallel, struct bil_args *a);

/* Prints the checksum line, and with --stats the run's figures, on stdout. `iterations` is the
 * number of parallel iterations (the sequential program passes its collision count). */
void bil_cli_report(const struct bil_args *a, const struct bil_world *w, double t_end,
		    long long collisions, long long iterations);

#endif /* BIL_CLI_H */
