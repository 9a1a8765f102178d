/*
 * synth.c — a synthetic "parallel program" for the collector's tests: its run time is a known
 * function of its size and thread count, T = base + per * size / N + ovh * (N - 1) seconds
 * (sleeping, so it costs no CPU and is exact to a millisecond), which makes the sizes the
 * searches must find computable by hand. It can also crash, hang or fail on request.
 *   synth --size S --threads N [--base SEC] [--per SEC] [--ovh SEC] [--crash-at N] [--hang-at N]
 *         [--exit K]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	double size = 1, base = 0.05, per = 0.001, ovh = 0;
	int n = 1, crash_at = 0, hang_at = 0, code = 0;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (!strcmp(k, "--size"))
			size = atof(v);
		else if (!strcmp(k, "--threads"))
			n = atoi(v);
		else if (!strcmp(k, "--base"))
			base = atof(v);
		else if (!strcmp(k, "--per"))
			per = atof(v);
		else if (!strcmp(k, "--ovh"))
			ovh = atof(v);
		else if (!strcmp(k, "--crash-at"))
			crash_at = atoi(v);
		else if (!strcmp(k, "--hang-at"))
			hang_at = atoi(v);
		else if (!strcmp(k, "--exit"))
			code = atoi(v);
		else {
			fprintf(stderr, "synth: unknown option %s\n", k);
			return 2;
		}
	}
	if (n < 1)
		n = 1;
	printf("synth size=%g threads=%d\n", size, n);
	fflush(stdout);
	if (crash_at && n == crash_at)
		raise(SIGSEGV);
	double t = base + per * size / n + ovh * (n - 1);
	if (hang_at && n == hang_at)
		t = 1e6;
	struct timespec ts = { (time_t)t, (long)((t - (double)(time_t)t) * 1e9) };
	while (nanosleep(&ts, &ts) != 0)
		;
	return code;
}
