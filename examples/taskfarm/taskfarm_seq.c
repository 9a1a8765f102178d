/*
 * taskfarm_seq.c — taskfarm-seq: the farm's tasks run one after the other, the T_seq reference
 * and the checksum the farm must reproduce.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ex_cli.h"
#include "farm_cli.h"
#include "farm_task.h"
#include "sgtrace.h"

int main(int argc, char **argv)
{
	struct farm_args a;
	uint64_t *results;
	long long done;
	int ret;

	ret = farm_cli_parse(argc, argv, "taskfarm-seq", 0, &a);
	if (ret)
		return ret > 0 ? 0 : EX_EXIT_USAGE;
	results = calloc((size_t)a.tasks, sizeof *results);
	if (!results) {
		fprintf(stderr, "taskfarm-seq: error: out of memory for %lld results\n", a.tasks);
		return 1;
	}
	SG_REGION_BEGIN("farm");
	for (done = 0; done < a.tasks; done++)
		results[done] = farm_task_run((uint64_t)done, (uint64_t)a.size);
	SG_REGION_END("farm");
	farm_cli_report(&a, results, &done, 1);
	free(results);
	return 0;
}
