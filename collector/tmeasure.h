/*
 * tmeasure.h — what a finished run's trace says: T_para (the measured region when the program
 * marks one, else the span of its traced threads, else the wall time the runner measured) and
 * each thread's final counter values, with the unavailable counters and their reasons.
 * Private to collector/.
 */
#ifndef TMEASURE_H
#define TMEASURE_H

#include <stddef.h>

#include "store.h"

struct tmeasure {
	double t_para_s;
	char source[16];            /* "region", "threads" or "wall" */
	char region[64];            /* the region used, "" otherwise */
	char incomplete[256];       /* why the trace lacks events ("" when whole): lost events,
				       streams without a trailer, damage, a trace unreadable */
	int n_counters;
	struct store_counter *counter;   /* owned: names point into `strings` */
	char *strings;
};

/* Reads the trace in `trace_dir` (which may not exist: then the wall time counts). The region
 * used is the one named "measured" if the program defines it, else the first one it defines.
 * Every payload is checked (sgr_verify), so that m->incomplete says what the trace lacks.
 * Always fills *m; free with tmeasure_free. */
void tmeasure_run(const char *trace_dir, double wall_s, struct tmeasure *m);
void tmeasure_free(struct tmeasure *m);

#endif /* TMEASURE_H */
