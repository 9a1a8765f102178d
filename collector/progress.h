/*
 * progress.h — progress of a series: a bar with ETA on a terminal, one plain line per run
 * otherwise (logs, CI). Private to collector/.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdio.h>

struct progress {
	FILE *out;
	int tty;
	int total;        /* runs expected (searches estimated), grows if exceeded */
	int done;         /* runs finished or found already recorded */
	int made;         /* runs actually executed by this invocation */
	double made_s;    /* their wall time, for the ETA */
	double t0;
};

void progress_init(struct progress *p, FILE *out, int total);
/* A run starts (`label` says which). */
void progress_start(struct progress *p, const char *label);
/* A run ended (`made`: executed now, not reused) with its outcome ("ok 1.23 s"). */
void progress_end(struct progress *p, const char *label, int made, double wall_s,
		  const char *outcome);
/* Ends the bar line on a terminal. */
void progress_finish(struct progress *p);
/* Seconds since progress_init. */
double progress_elapsed(const struct progress *p);

#endif /* PROGRESS_H */
