/*
 * farm_cli.h — the command line and the result lines shared by taskfarm-seq and taskfarm.
 */
#ifndef FARM_CLI_H
#define FARM_CLI_H

#include <stdint.h>

struct farm_args {
	long long tasks, size, threads, queue;
	int stats;
};

/* Parses the options (--threads and --queue only when `parallel`). 0, 1 after --help, or
 * -EINVAL. */
int farm_cli_parse(int argc, char **argv, const char *prog, int parallel, struct farm_args *a);

/* Prints the checksum line (and with --stats the sizes and per-worker task counts, which
 * depend on scheduling and are there to show the balance, never compared). */
void farm_cli_report(const struct farm_args *a, const uint64_t *results,
		     const long long *per_worker, long n_workers);

#endif /* FARM_CLI_H */
