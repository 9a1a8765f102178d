/*
 * instrument_throughput.c — the instrumenter's speed on a large C input (DESIGN.md target:
 * >= 50 MB/s of C source). The files named on the command line (real C: generated parsers,
 * Debian's example sources, this project's sources) are concatenated, repeatedly, into one
 * in-memory buffer of at least --min-mb MB, which inst_file() instruments REPS times in the
 * default mode and with every function selected; the median time gives the figure. The time is
 * this thread's CPU time (the work is single-threaded; on a shared 2-CPU machine wall time
 * would measure the neighbours). Reading and writing files is left out: that is the disk's
 * speed, not ours.
 *
 * usage: instrument_throughput [--min-mb N] FILE...
 * Prints `name: value unit (target ...)` lines (bench/run-bench.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "instrument.h"

#define REPS 7

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Appends every file once; returns 0 or -1 after a message. */
static int append_files(char **buf, size_t *len, size_t *cap, char **files, int n)
{
	for (int i = 0; i < n; i++) {
		char *text;
		size_t l;
		if (inst_read_file(files[i], &text, &l)) {
			fprintf(stderr, "%s: error: cannot read\n", files[i]);
			return -1;
		}
		if (*len + l + 1 > *cap) {
			size_t c = (*len + l + 1) * 2;
			char *nb = realloc(*buf, c);
			if (!nb) {
				free(text);
				fprintf(stderr, "instrument_throughput: error: out of memory\n");
				return -1;
			}
			*buf = nb;
			*cap = c;
		}
		memcpy(*buf + *len, text, l);
		*len += l;
		(*buf)[(*len)++] = '\n'; /* a file may end without a newline */
		free(text);
	}
	return 0;
}

/* Median seconds of REPS runs of inst_file in `mode` (*best: the fastest run); *res gets the
 * last run's counts. */
static double time_mode(const char *src, size_t len, enum inst_func_mode mode,
			struct inst_result *res, double *best)
{
	double t[REPS];
	FILE *devnull = fopen("/dev/null", "w");
	struct inst_options o = { .func_mode = mode, .quiet = 1, .diag = devnull };
	for (int r = 0; r < REPS; r++) {
		inst_result_free(res);
		double t0 = now_s();
		if (inst_file(src, len, "big.c", &o, res)) {
			fprintf(stderr, "instrument_throughput: error: inst_file failed\n");
			exit(1);
		}
		t[r] = now_s() - t0;
	}
	if (devnull)
		fclose(devnull);
	qsort(t, REPS, sizeof t[0], cmp_double);
	*best = t[0];
	return t[REPS / 2];
}

int main(int argc, char **argv)
{
	double min_mb = 20;
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "--min-mb")) {
		min_mb = atof(argv[2]);
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: instrument_throughput [--min-mb N] FILE...\n");
		return 2;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int copies = 0;
	do {
		if (append_files(&buf, &len, &cap, argv + first, argc - first))
			return 1;
		copies++;
	} while ((double)len < min_mb * 1e6 && len > 0);
	double mb = (double)len / 1e6;
	printf("instrument-input: %.1f MB (%d files, %d copies)\n", mb, argc - first, copies);

	struct inst_result res = { 0 };
	double b_def, b_all;
	double t_def = time_mode(buf, len, INST_FUNC_DEFAULT, &res, &b_def);
	printf("instrument-functions: %u definitions, %u probed by the default rule, "
	       "%u pthread calls renamed, %u warnings\n", res.n_functions, res.n_probed,
	       res.n_renamed, res.n_warnings);
	double t_all = time_mode(buf, len, INST_FUNC_ALL, &res, &b_all);
	inst_result_free(&res);
	printf("instrument-throughput-default: %.0f MB/s (target >= 50 MB/s; median of %d, best "
	       "%.0f MB/s)\n", mb / t_def, REPS, mb / b_def);
	printf("instrument-throughput-all-functions: %.0f MB/s (target >= 50 MB/s; median of %d, "
	       "best %.0f MB/s)\n", mb / t_all, REPS, mb / b_all);
	free(buf);
	return 0;
}
