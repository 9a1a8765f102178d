/*
 * instrument_main.c — `scalegraph instrument IN.c [-o OUT.c] [options]`: the instrumenter alone,
 * for people who want to see or keep the instrumented source. Exit status: 0 (also when
 * warnings were printed), 1 on I/O errors, 2 on usage errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: scalegraph instrument IN.c [-o OUT.c] [--filter FILE] [--no-functions]\n"
		"                             [--all-functions] [--name NAME] [--stats] [--explain]\n"
		"                             [-q]\n\n"
		"Inserts scalegraph probes into one unpreprocessed C file (IN.c or - for stdin):\n"
		"function entry/exit, sg_ wrappers for pthread and semaphore calls, region pragmas.\n\n"
		"  -o OUT.c          write here (default: stdout)\n"
		"  --filter FILE     include/exclude functions and files (Score-P filter syntax)\n"
		"  --no-functions    no function probes: sync calls and regions only\n"
		"  --all-functions   probe every function definition (the default rule probes\n"
		"                    main, thread start routines and functions that loop or\n"
		"                    synchronise and call others, but not directly recursive\n"
		"                    ones nor tiny helpers called in a loop)\n"
		"  --name NAME       file name for #line, messages and trace definitions\n"
		"  --stats           print counts on stderr\n"
		"  --explain         print on stderr, per function, `file:line name: selected|\n"
		"                    left out: why`\n"
		"  -q                no warnings\n"
		"See docs/instrumenter.md.\n");
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *filter_path = NULL, *name = NULL;
	struct inst_options opt = { 0 };
	int stats = 0, rc = 1;
	struct inst_filter *filter = NULL;
	char *src = NULL;
	size_t len = 0;
	struct inst_result res = { 0 };

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--filter") || !strcmp(a, "--name")) &&
			   i + 1 < argc) {
			const char **dst = a[1] == 'o' ? &out : a[2] == 'f' ? &filter_path : &name;
			*dst = argv[++i];
		} else if (!strcmp(a, "--no-functions")) {
			opt.func_mode = INST_FUNC_NONE;
		} else if (!strcmp(a, "--all-functions")) {
			opt.func_mode = INST_FUNC_ALL;
		} else if (!strcmp(a, "--stats")) {
			stats = 1;
		} else if (!strcmp(a, "--explain")) {
			opt.explain = stderr;
		} else if (!strcmp(a, "-q")) {
			opt.quiet = 1;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "scalegraph instrument: error: unknown option '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (!in) {
			in = a;
		} else {
			fprintf(stderr, "scalegraph instrument: error: more than one input file\n");
			return 2;
		}
	}
	if (!in) {
		usage(stderr);
		return 2;
	}
	if (filter_path && inst_filter_load(filter_path, stderr, &filter))
		return 2;
	opt.filter = filter;
	int e = inst_read_file(in, &src, &len);
	if (e) {
		fprintf(stderr, "%s: error: cannot read: %s\n", in, strerror(-e));
		goto out;
	}
	e = inst_file(src, len, name ? name : in, &opt, &res);
	if (e) {
		fprintf(stderr, "%s: error: cannot instrument: %s\n", in, strerror(-e));
		goto out;
	}
	FILE *f = out ? fopen(out, "wb") : stdout;
	if (!f) {
		fprintf(stderr, "%s: error: cannot write: %s\n", out, strerror(errno));
		goto out;
	}
	size_t w = fwrite(res.text, 1, res.len, f);
	if ((out ? fclose(f) : fflush(f)) != 0 || w != res.len) {
		fprintf(stderr, "%s: error: write failed\n", out ? out : "stdout");
		goto out;
	}
	if (stats)
		fprintf(stderr, "%s: %u functions, %u probed, %u calls renamed (%u with a call "
			"site), %u regions, %u warnings\n", name ? name : in, res.n_functions,
			res.n_probed, res.n_renamed, res.n_sites, res.n_regions, res.n_warnings);
	rc = 0;
out:
	inst_result_free(&res);
	free(src);
	inst_filter_free(filter);
	return rc;
}
