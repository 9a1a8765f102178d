/*
 * billiards_seq.c — billiards-seq, the sequential billiards simulation (seeds/001 §5.2, the
 * sequential procedure): repeatedly take the earliest collision, execute it, update the queue.
 * Its run time is the T_seq of the scaling metrics; its checksum is the reference the parallel
 * program must reproduce.
 */
#include <stdio.h>
#include <string.h>

#include "bil_cli.h"
#include "ex_cli.h"
#include "sgtrace.h"

int main(int argc, char **argv)
{
	struct bil_args a;
	struct bil_world w;
	struct bil_result r;
	uint64_t cur = 0;
	long long done = 0;
	double t_end;
	long pair;
	int ret;

	ret = bil_cli_parse(argc, argv, "billiards-seq", 0, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	ret = bil_world_init(&w, (long)a.balls, (long)a.bins, 0);
	if (ret) {
		fprintf(stderr, "billiards-seq: error: cannot set up %lld balls: %s\n", a.balls,
			strerror(-ret));
		return 1;
	}
	t_end = BIL_STEP_TIME * (double)a.steps;
	SG_REGION_BEGIN("simulate");
	while (bil_queue_peek(&w.q, &cur, t_end, &pair, 1) == 1) {
		bil_collide(&w, pair, &r);
		bil_apply(&w, &r);
		done++;
	}
	SG_REGION_END("simulate");
	bil_cli_report(&a, &w, t_end, done, done);
	bil_world_free(&w);
	return 0;
}
