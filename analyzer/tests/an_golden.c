/*
 * an_golden.c — prints the report of a trace the way `scalegraph report` does (text with the
 * compensated figures, JSON, CSV: the three one after the other), analyzed as if on a 2-CPU
 * machine whatever this one has (the oversubscription flag and the shared-CPU note name the
 * CPU count), so that analyzer/tests/test-golden.sh can compare it byte for byte with the
 * outputs committed beside the fixtures: the analysis may get faster, its figures may not
 * change unnoticed.
 *
 * usage: an_golden TRACE-DIR [THREADS T_SEQ_S]
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyzer.h"

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: an_golden TRACE-DIR [THREADS T_SEQ_S]\n");
		return 2;
	}
	struct an_run_opts o = { .n_cpus = 2 };
	if (argc == 4) {
		o.n_threads = atoi(argv[2]);
		o.t_seq_s = atof(argv[3]);
		o.t_seq_source = "given";
	}
	char err[2048] = "";
	struct an_run *r;
	int rc = an_run_open(argv[1], &o, &r, err, sizeof err);
	if (rc < 0) {
		printf("error: %s\n", err);
		return 1;
	}
	printf("==== text\n");
	rc = an_report_run_text_flags(stdout, r, AN_REPORT_COMPENSATE);
	printf("==== json\n");
	rc |= an_report_run_json(stdout, r);
	printf("==== csv\n");
	rc |= an_report_run_csv(stdout, r);
	an_run_free(r);
	return rc < 0;
}
