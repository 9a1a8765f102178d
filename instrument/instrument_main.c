/*
 * instrument_main.c — `scalegraph instrument IN.c [-o OUT.c] [options]`: the instrumenter alone,
 * for people who want to see or keep the instrumented source. Given the build's preprocessing
 * flags (-D, -U, -I, -include, -std=, ...), it asks the compiler's preprocessor ($SG_CC, default
 * cc) which #if branches are compiled, as `scalegraph cc` does. Exit status: 0 (also when
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
		"                             [--site-args] [-q]\n\n"
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
		"  --site-args       pass a static call-site descriptor to the waits' wrappers\n"
		"                    (sg_NAME_at(&sg_site_K, ...), as before format 1.6): one\n"
		"                    more argument per call; by default the wrappers take the\n"
		"                    site from their return address and the code keeps its size\n"
		"  --stats           print counts on stderr\n"
		"  --explain         print on stderr, per function, `file:line name: selected|\n"
		"                    left out: why`\n"
		"  -q                no warnings\n"
		"  -DNAME[=VALUE], -UNAME, -IDIR, -iquote DIR, -isystem DIR, -idirafter DIR,\n"
		"  -include FILE, -imacros FILE, -std=STD\n"
		"                    the build's preprocessing flags: when the file's #if\n"
		"                    branches change the result, the compiler's preprocessor\n"
		"                    ($SG_CC, default cc) tells which are compiled, and only\n"
		"                    those are read (without them: every branch, or when the\n"
		"                    braces balance only per branch the first of each #if,\n"
		"                    with a warning naming the lines not read)\n"
		"See docs/instrumenter.md.\n");
}

/* Preprocessing flags that take a value, joined (-DX) or as the next argument (-D X). */
static int cpp_flag(const char *a, int *takes_next)
{
	static const char *const with_value[] = { "-D", "-U", "-I", "-iquote", "-isystem",
						  "-idirafter", "-include", "-imacros" };
	*takes_next = 0;
	for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++) {
		size_t l = strlen(with_value[k]);
		if (strncmp(a, with_value[k], l))
			continue;
		if (a[l] == '\0')
			*takes_next = 1;
		else if (l > 2)
			continue; /* -includeX is not -include X */
		return 1;
	}
	return !strncmp(a, "-std=", 5) || !strcmp(a, "-ansi") || !strcmp(a, "-undef") ||
	       !strcmp(a, "-nostdinc");
}

/* The preprocessor command: $SG_CC (words) or cc, the flags, -E -x c IN. NULL-terminated,
 * malloc'd; the strings are borrowed or in *words. */
static char **cpp_command(char **flags, int n_flags, const char *in, char **words)
{
	const char *cc = getenv("SG_CC");
	*words = strdup(cc && *cc ? cc : "cc");
	char **v = calloc((size_t)n_flags + strlen(*words) / 2 + 8, sizeof *v);
	if (!*words || !v) {
		free(v);
		return NULL;
	}
	int n = 0;
	char *save = NULL;
	for (char *w = strtok_r(*words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		v[n++] = w;
	if (n == 0)
		v[n++] = "cc";
	for (int k = 0; k < n_flags; k++)
		v[n++] = flags[k];
	v[n++] = "-E";
	v[n++] = "-x";
	v[n++] = "c";
	v[n++] = (char *)in;
	v[n] = NULL;
	return v;
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
	char **flags = calloc((size_t)argc + 1, sizeof *flags), **cpp = NULL, *words = NULL;
	int n_flags = 0, takes_next;
	if (!flags) {
		fprintf(stderr, "scalegraph instrument: error: out of memory\n");
		return 1;
	}

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cpp_flag(a, &takes_next)) {
			if (takes_next && i + 1 >= argc) {
				fprintf(stderr, "scalegraph instrument: error: %s needs a value\n", a);
				free(flags);
				return 2;
			}
			flags[n_flags++] = argv[i];
			if (takes_next)
				flags[n_flags++] = argv[++i];
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(flags);
			return 0;
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--filter") || !strcmp(a, "--name")) &&
			   i + 1 < argc) {
			const char **dst = a[1] == 'o' ? &out : a[2] == 'f' ? &filter_path : &name;
			*dst = argv[++i];
		} else if (!strcmp(a, "--site-args")) {
			opt.site_args = 1;
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
			goto usage_error;
		} else if (!in) {
			in = a;
		} else {
			fprintf(stderr, "scalegraph instrument: error: more than one input file\n");
			goto usage_error;
		}
	}
	if (!in) {
		usage(stderr);
		goto usage_error;
	}
	if (n_flags && !strcmp(in, "-")) {
		fprintf(stderr, "scalegraph instrument: error: preprocessing flags (%s) need the "
			"input as a file, not stdin\n", flags[0]);
		goto usage_error;
	}
	if (filter_path && inst_filter_load(filter_path, stderr, &filter))
		goto usage_error;
	if (n_flags && !(cpp = cpp_command(flags, n_flags, in, &words))) {
		fprintf(stderr, "scalegraph instrument: error: out of memory\n");
		goto out;
	}
	opt.filter = filter;
	int e = inst_read_file(in, &src, &len);
	if (e) {
		fprintf(stderr, "%s: error: cannot read: %s\n", in, strerror(-e));
		goto out;
	}
	int used_cpp;
	e = inst_file_cpp(src, len, name ? name : in, cpp, in, &opt, &res, &used_cpp);
	if (e) {
		fprintf(stderr, "%s: error: cannot instrument: %s\n", in, strerror(-e));
		goto out;
	}
	if (used_cpp < 0 && !opt.quiet && !inst_has_line_directive(src, len)) /* #line: as documented */
		fprintf(stderr, "%s: warning: the preprocessor (%s -E) failed or its line markers do "
			"not fit this file: which #if branches are compiled is not known, all are "
			"read as without -D/-U/-I\n", name ? name : in, cpp[0]);
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
	free(cpp);
	free(words);
	free(flags);
	return rc;
usage_error:
	free(flags);
	return 2;
}
