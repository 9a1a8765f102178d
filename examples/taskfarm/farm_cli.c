/*
 * farm_cli.c — options and output of the two task-farm programs (see farm_cli.h).
 */
#include "farm_cli.h"

#include <inttypes.h>
#include <stdio.h>

#include "ex_cli.h"
#include "farm_task.h"

static const char usage_seq[] =
	"usage: taskfarm-seq [--tasks T] [--size S] [--stats]\n"
	"Runs T tasks of S..2S rounds of integer work each, one after the other.\n"
	"  --tasks T    number of tasks, 1..100000000 (default 2000)\n"
	"  --size S     rounds per task at least (up to 2S), 1..1000000000 (default 20000)\n"
	"  --stats      also print the sizes\n"
	"Prints 'checksum HEX' of the results in task order; taskfarm prints the same value.\n";

static const char usage_par[] =
	"usage: taskfarm [--tasks T] [--size S] [--threads N] [--queue Q] [--stats]\n"
	"Processor farm: the main thread produces T task ids into a bounded queue of Q slots\n"
	"(mutex + condition variables); N workers pull tasks on demand and store the results.\n"
	"  --tasks T    number of tasks, 1..100000000 (default 2000)\n"
	"  --size S     rounds per task at least (up to 2S), 1..1000000000 (default 20000)\n"
	"  --threads N  worker threads, 1..1024 (default 2)\n"
	"  --queue Q    queue slots, 1..1000000 (default 4)\n"
	"  --stats      also print the sizes and the tasks each worker ran\n"
	"Prints 'checksum HEX', identical to taskfarm-seq and for every N and Q.\n";

int farm_cli_parse(int argc, char **argv, const char *prog, int parallel, struct farm_args *a)
{
	struct ex_opt opts[] = {
		{ "tasks", 1, 100000000, &a->tasks, 0 },
		{ "size", 1, 1000000000, &a->size, 0 },
		{ "threads", 1, 1024, &a->threads, 0 },
		{ "queue", 1, 1000000, &a->queue, 0 },
	};
	struct ex_flag flags[] = { { "stats", &a->stats } };

	a->tasks = 2000;
	a->size = 20000;
	a->threads = parallel ? 2 : 1;
	a->queue = 4;
	a->stats = 0;
	return ex_cli_parse(argc, argv, prog, parallel ? usage_par : usage_seq, opts,
			    parallel ? 4 : 2, flags, 1);
}

void farm_cli_report(const struct farm_args *a, const uint64_t *results,
		     const long long *per_worker, long n_workers)
{
	if (a->stats) {
		printf("tasks %lld\nsize %lld\nthreads %lld\n", a->tasks, a->size, a->threads);
		for (long i = 0; i < n_workers; i++)
			printf("worker %ld tasks %lld\n", i, per_worker[i]);
	}
	printf("checksum %016" PRIx64 "\n", farm_checksum(results, (uint64_t)a->tasks));
}
