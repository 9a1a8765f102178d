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
	a->ext_specs = calloc((size_t)argc + 1, sizeof *a->ext_specs);
	a->is_input = calloc((size_t)argc + 1, sizeof *a->is_input);
	if (!a->argv || !a->is_source || !a->ext_specs || !a->is_input) {
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
		if (!strcmp(s, "--sg-no-cpp")) {
			a->no_cpp = 1;
			continue;
		}
		if (!strcmp(s, "--sg-no-sidecar")) {
			a->no_sidecar = 1;
			continue;
		}
		if (!strcmp(s, "--sg-no-siblings")) {
			a->no_siblings = 1;
			continue;
		}
		if (!strcmp(s, "--sg-ext-call")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "scalegraph cc: error: %s needs a value\n", s);
				cc_args_free(a);
				return -EINVAL;
			}
			a->ext_specs[a->n_ext_specs++] = argv[++i];
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
			a->user_g |= s[1] == 'g';
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
		a->is_input[k] = 1;
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

/* Options that make the compiler write a file or only concern the linker or the assembler:
 * not for the preprocessor run that tells which #if branches are compiled. With a value as
 * the next argument ... */
static const char *const cpp_drop_arg[] = {
	"-o", "-MF", "-MT", "-MQ", "-x", "-aux-info", "-Xlinker", "-Xassembler", "-T", "-u", "-z",
	"-e", "-L", "-l",
};
/* ... as a prefix of one argument ... */
static const char *const cpp_drop_prefix[] = {
	"-o", "-MF", "-MT", "-MQ", "-x", "-Wl,", "-Wa,", "-L", "-l", "-save-temps", "-fdump-",
	"-fstack-usage", "-fcallgraph-info", "-fprofile-arcs", "--coverage", "-ftest-coverage",
};
/* ... or exactly this argument. */
static const char *const cpp_drop[] = {
	"-c", "-S", "-E", "-fsyntax-only", "-M", "-MM", "-MD", "-MMD", "-MG", "-MP", "-shared",
	"-static", "-rdynamic", "-s", "-pipe", "-v", "-###",
};

int cc_args_cpp(const struct cc_args *a, char ***out, int *n_out)
{
	char **v = calloc((size_t)a->argc + 1, sizeof *v);
	int n = 0;
	*out = NULL;
	*n_out = 0;
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];
		int drop = 0, next = 0;
		if (s[0] == '@') {
			free(v);
			return -EINVAL; /* a response file may hold -o: what -E then writes */
		}
		if (s[0] != '-' || s[1] == '\0') {
			continue; /* inputs: sources, objects, libraries */
		}
		for (size_t k = 0; k < sizeof cpp_drop_arg / sizeof *cpp_drop_arg && !drop; k++)
			drop = next = !strcmp(s, cpp_drop_arg[k]);
		for (size_t k = 0; k < sizeof cpp_drop / sizeof *cpp_drop && !drop; k++)
			drop = !strcmp(s, cpp_drop[k]);
		size_t n_prefix = sizeof cpp_drop_prefix / sizeof *cpp_drop_prefix;
		for (size_t k = 0; k < n_prefix && !drop; k++)
			drop = !strncmp(s, cpp_drop_prefix[k], strlen(cpp_drop_prefix[k]));
		if (!drop && !strncmp(s, "-Wp,", 4) && strstr(s, ",-M"))
			drop = 1; /* -Wp,-MD,file writes a dependency file */
		if (!drop && option_takes_arg(s)) {
			v[n++] = a->argv[i];
			if (i + 1 < a->argc)
				v[n++] = a->argv[++i];
			continue;
		}
		if (drop) {
			if (next || (option_takes_arg(s) && strcmp(s, "-c")))
				i++;
			continue;
		}
		v[n++] = a->argv[i];
	}
	*out = v;
	*n_out = n;
	return 0;
}

void cc_args_free(struct cc_args *a)
{
	free(a->argv);
	free(a->is_source);
	free(a->ext_specs);
	free(a->is_input);
	a->is_input = NULL;
	a->argv = NULL;
	a->is_source = NULL;
	a->ext_specs = NULL;
}
