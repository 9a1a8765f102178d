/*
 * fuzz_spec.c — libFuzzer harness of the spec parser and evaluator (spec.c, expr.c): the input
 * is a spec file's text. It must parse or fail with one "fuzz.sgx:LINE:COL: error: ..." message;
 * a spec that parses is finished and evaluated as `scalegraph run` does before anything runs
 * (spec_check_eval: every method's sizes and both command lines at every thread count), and
 * every size and command line it accepts is used: the canonical size text, W, the memory, and
 * the argv words. No crash, no sanitizer report, no empty error message.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_msg(const char *err, int rc)
{
	if (rc < 0 && rc != -ENOMEM && !strstr(err, "error: ")) {
		fprintf(stderr, "error without 'error: ': '%s' (rc %d)\n", err, rc);
		abort();
	}
	const char *e = strstr(err, "error: ");
	if (rc < 0 && e && !e[7]) {
		fprintf(stderr, "empty error message: '%s'\n", err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct spec s;   /* large: not on the stack */
	char err[1024] = "", text_buf[256];
	if (size > 65536)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	spec_init(&s);
	int rc = spec_parse(&s, "fuzz.sgx", text, err, sizeof err);
	check_msg(err, rc);
	if (rc == 0) {
		rc = spec_finish(&s, err, sizeof err);
		check_msg(err, rc);
	}
	if (rc == 0) {
		rc = spec_check_eval(&s, err, sizeof err);
		check_msg(err, rc);
	}
	if (rc == 0) {
		double sizes[SPEC_MAX_PARAMS];
		char argbuf[8192];
		char *argv[SPEC_MAX_ARGS + 1];
		for (int m = 0; m < s.n_methods; m++) {
			for (int k = 0; k < s.n_threads; k++) {
				/* what a search asks too: a scale that is no thread count */
				double x[2] = { s.threads[k], s.threads[k] * 1.37 };
				for (int j = 0; j < 2; j++) {
					if (spec_sizes(&s, m, x[j], sizes, err, sizeof err) < 0) {
						check_msg(err, -EINVAL);
						continue;
					}
					spec_sizes_text(&s, sizes, text_buf, sizeof text_buf);
					(void)spec_work(&s, sizes);
					(void)spec_memory(&s, sizes);
					if (spec_argv(&s, &s.program, s.threads[k], sizes, argv, argbuf,
						      sizeof argbuf) == 0)
						for (int a = 0; argv[a]; a++)
							(void)strlen(argv[a]);
				}
			}
		}
	}
	spec_free(&s);
	free(text);
	return 0;
}
