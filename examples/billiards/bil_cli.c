/*
 * bil_cli.c — options and output of the two billiards programs (see bil_cli.h). Keeping them
 * in one place guarantees both programs print the same lines in the same format, which the
 * tests and the collector compare.
 */
#include "bil_cli.h"

#include <inttypes.h>
#include <stdio.h>

#include "ex_cli.h"

static const char usage_seq[] =
	"usage: billiards-seq [--balls B] [--steps S] [--bins K] [--stats]\n"
	"Sequential event-driven simulation of B billiard balls on a line (seeds/001 \xc2\xa7" "5).\n"
	"  --balls B    number of balls, 1..100000000 (default 5000)\n"
	"  --steps S    simulated time, in steps of 0.025 time units, 1..1000000000 (default 100);\n"
	"               collisions per step grow linearly with B (about 0.016 per ball)\n"
	"  --bins K     event-queue bins; 0 = one per pair (default, constant cost per event);\n"
	"               a small fixed K makes queue insertion grow with B, as in the paper\n"
	"  --stats      also print collisions, iterations and bytes per ball\n"
	"Prints 'checksum HEX', a hash of the final state; billiards prints the same value.\n";

static const char usage_par[] =
	"usage: billiards [--balls B] [--steps S] [--bins K] [--threads N] [--coarse] [--stats]\n"
	"Parallel (pthreads) billiards simulation. By default the paper's fine-grained procedure\n"
	"(seeds/001 \xc2\xa7" "5.2): each iteration takes the N earliest collisions, executes the\n"
	"leading independent ones in parallel, meets at a barrier.\n"
	"  --balls B    number of balls, 1..100000000 (default 5000)\n"
	"  --steps S    simulated time, in steps of 0.025 time units, 1..1000000000 (default 100)\n"
	"  --bins K     event-queue bins; 0 = one per pair (default); results do not depend on K\n"
	"  --threads N  worker threads, 1..1024 (default 2)\n"
	"  --coarse     coarse-grained instead: each thread owns a segment of the line and\n"
	"               advances it alone through a window of simulated time (~1 time unit),\n"
	"               a barrier between windows; needs 4 balls per thread; ignores --bins\n"
	"  --stats      also print collisions, iterations (windows with --coarse), collisions per\n"
	"               iteration, bytes per ball\n"
	"Prints 'checksum HEX', identical to billiards-seq and for every N.\n";

int bil_cli_parse(int argc, char **argv, const char *prog, int parallel, struct bil_args *a)
{
	struct ex_opt opts[] = {
		{ "balls", 1, 100000000, &a->balls, 0 },
		{ "steps", 1, 1000000000, &a->steps, 0 },
		{ "bins", 0, 100000000, &a->bins, 0 },
		{ "threads", 1, 1024, &a->threads, 0 },
	};
	struct ex_flag flags[] = { { "stats", &a->stats }, { "coarse", &a->coarse } };

	a->balls = 5000;
	a->steps = 100;
	a->threads = parallel ? 2 : 1;
	a->bins = 0;
	a->stats = 0;
	a->coarse = 0;
	return ex_cli_parse(argc, argv, prog, parallel ? usage_par : usage_seq, opts,
			    parallel ? 4 : 3, flags, parallel ? 2 : 1);
}

void bil_cli_report(const struct bil_args *a, const struct bil_world *w, double t_end,
		    long long collisions, long long iterations)
{
	if (a->stats) {
		printf("balls %lld\nsteps %lld\nthreads %lld\n", a->balls, a->steps, a->threads);
		printf("collisions %lld\niterations %lld\n", collisions, iterations);
		printf("collisions_per_iteration %.4f\n",
		       iterations ? (double)collisions / (double)iterations : 0.0);
		printf("bytes_per_ball %.1f\n", bil_world_bytes_per_ball(w));
	}
	printf("checksum %016" PRIx64 "\n", bil_world_checksum(w, t_end));
}
