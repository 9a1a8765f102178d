/*
 * fuzz_store.c — libFuzzer harness of the store's open path as `scalegraph report` and
 * xscalegraph take it: the input becomes DIR/experiment.db and is opened through an_exp_open
 * (store_open_msg, the schema check, every table the analyzer reads, the cached figures),
 * read-only (AN_EXP_NO_STORE_WRITE: the input is not rewritten). It must open or fail with a
 * message that is not empty; no crash, no sanitizer report. No trace is read: the runs'
 * directories do not exist, so each run is "untraced".
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128], err[1024] = "";
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/sg-fuzz-store.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(path, sizeof path, "%s/experiment.db", dir);
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	struct an_exp *e = NULL;
	int rc = an_exp_open(dir, AN_EXP_NO_STORE_WRITE, &e, err, sizeof err);
	if (rc < 0) {
		size_t n = strlen(err);
		if (!n || err[n - 1] == ' ' || err[n - 1] == ':') {
			fprintf(stderr, "empty or cut error message: '%s' (rc %d)\n", err, rc);
			abort();
		}
		return 0;
	}
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *p = an_exp_point(e, i);
		(void)strlen(p->model);
		(void)strlen(p->method);
	}
	for (size_t i = 0; i < an_exp_n_problems(e); i++)
		(void)strlen(an_exp_problem(e, i));
	an_exp_free(e);
	return 0;
}
