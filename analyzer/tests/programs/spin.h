/*
 * spin.h — computing for a given time, for the budget test programs (test-budget.sh): a loop on
 * the monotonic clock keeps the thread on CPU, so the expected budget is known in advance.
 */
#ifndef SPIN_H
#define SPIN_H

#include <time.h>

static double spin_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Computes for `s` seconds of wall time (on CPU unless the CPU is taken away). */
static void spin(double s)
{
	volatile double x = 0;
	double t0 = spin_now();
	while (spin_now() - t0 < s)
		for (int i = 0; i < 1000; i++)
			x += i * 0.5;
}

#endif
