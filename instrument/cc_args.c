/*
 * cc_args.c — classifies a gcc/clang command line for `scalegraph cc`: which arguments are C
 * sources (by suffix, or any file after `-x c`), which options consume the next argument (so
 * `-o x.c` is not a source), whether the command links, and which invocations pass through
 * unchanged: preprocessing only (-E, -M, -MM), version/help/print queries, no input at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_int.h"

/* Options whose value is the next argument when not joined. */
static const char *const takes_arg[] = {
	"-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote",
	"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-x", "-MF", "-MT", "-MQ",
	"-L", "-l", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-aux-info", "--param", "-T",
	"-u", "-z", "-e", "-A", "-G", "-B", "-specs", "-arch", "-target", "--sysroot",
};

static int option_takes_arg(const char *a)
{
	for (size_t i = 0; i < sizeof takes_arg / sizeof takes_arg[0]; i++)
		if (!strcmp(a, takes_arg[i]))
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n > m && !strcmp(s + n - m, suf);
}

static int is_query(const char *a)
{
	return !strcmp(a, "--version") || !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpmachine") ||
	       !strcmp(a, "--help") || !strcmp(a, "-dumpspecs") || !strcmp(a, "-dumpfullversion") ||
	       !strncmp(a, "-print-", 7) || !strncmp(a, "--print-", 8) || !strcmp(a, "-###");
}

int cc_args_parse(int argc, char **argv, struct cc_args *a)
{
	memset(a, 0, sizeof *a);
	a->argv = calloc((size_t)argc + 1, sizeof *a->argv);
	a->is_source = calloc((size_t)argc + 1, sizeof *a->is_source);
	if (!a->argv || !a->is_source) {
		cc_args_free(a);
		return -ENOMEM;
	}
	int lang = 0; /* 0: by suffix, 1: C, 2: something else */
	int no_link = 0, preprocess = 0, dep_gen = 0, inputs = 0, queries = 0;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--filter") || !strcmp(s, "--sg-filter")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "scalegraph cc: error: %s needs a file\n", s);
				cc_args_free(a);
				return -EINVAL;
			}
			a->filter = argv[++i];
			continue;
		}
		if (!strcmp(s, "--sg-dry-run")) {
			a->dry_run = 1;
			continue;
		}
		if (!strcmp(s, "--sg-explain")) {
			a->explain = 1;
			continue;
		}
		if (!strcmp(s, "--sg-static")) {
			a->link_static = 1;
			continue;
		}
		if (!strcmp(s, "--sg-no-functions") || !strcmp(s, "--no-functions")) {
			a->func_mode = INST_FUNC_NONE;
			continue;
		}
		if (!strcmp(s, "--sg-all-functions") || !strcmp(s, "--all-functions")) {
			a->func_mode = INST_FUNC_ALL;
			continue;
		}
		int k = a->argc;
		a->argv[a->argc++] = argv[i];
		if (s[0] == '-' && s[1] != '\0') {
			if (!strcmp(s, "-c") || !strcmp(s, "-S") || !strcmp(s, "-fsyntax-only"))
				no_link = 1;
			a->compile_only |= !strcmp(s, "-c");
			if (!strcmp(s, "-E") || !strcmp(s, "-M") || !strcmp(s, "-MM"))
				preprocess = 1;
			if (!strcmp(s, "-MD") || !strcmp(s, "-MMD"))
				dep_gen = 1;
			queries += is_query(s);
			if (!strncmp(s, "-D", 2) || !strncmp(s, "-U", 2)) {
				const char *m = s[2] ? s + 2 : (i + 1 < argc ? argv[i + 1] : "");
				a->user_sg_trace |= !strncmp(m, "SG_TRACE", 8) &&
						    (m[8] == '\0' || m[8] == '=');
			}
			if (!strncmp(s, "-x", 2)) {
				const char *l = s[2] ? s + 2 : (i + 1 < argc ? argv[i + 1] : "");
				lang = !strcmp(l, "none") ? 0 : !strcmp(l, "c") ? 1 : 2;
			}
			if (option_takes_arg(s) && i + 1 < argc) {
				if (!strcmp(s, "-o"))
					a->out = argv[i + 1];
				if (!strcmp(s, "-MF"))
					a->mf = argv[i + 1];
				a->argv[a->argc++] = argv[++i];
			}
			continue;
		}
		inputs++;
		if (strcmp(s, "-") && (lang == 1 || (lang == 0 && ends_with(s, ".c")))) {
			a->is_source[k] = 1;
			a->n_sources++;
		}
	}
	a->links = !no_link && !preprocess;
	a->dep_file = dep_gen && !preprocess;
	a->passthrough = preprocess || (queries && inputs == 0) || (inputs == 0 && !a->n_sources);
	return 0;
}

void cc_args_free(struct cc_args *a)
{
	free(a->argv);
	free(a->is_source);
	a->argv = NULL;
	a->is_source = NULL;
}
