/*
 * cc_int.h — private to `scalegraph cc`: the compiler command line, classified. cc_args.c
 * decides which arguments are C sources to instrument, whether the command links, and which
 * invocations must pass through untouched; cc_main.c instruments and runs the compiler.
 */
#ifndef CC_INT_H
#define CC_INT_H

#include <stddef.h>

#include "instrument.h"

struct cc_args {
	char **argv;          /* the compiler arguments without our --sg-* options (borrowed) */
	int argc;
	int *is_source;       /* per argv entry: 1 when it is a C source to instrument */
	int n_sources;
	int links;            /* the command links (no -c, -S, -E, -M, -fsyntax-only) */
	int passthrough;      /* run the compiler exactly as called (-E, -M, --version, ...) */
	int dep_file;         /* -MD or -MMD: a .d file is written beside the object */
	const char *mf;       /* -MF argument, or NULL */
	const char *out;      /* -o argument, or NULL */
	int compile_only;     /* -c */
	int user_sg_trace;    /* the user defines or undefines SG_TRACE (-DSG_TRACE..., -USG_TRACE) */
	/* our own options */
	const char *filter;   /* --filter FILE / --sg-filter FILE */
	int dry_run;          /* --sg-dry-run */
	int explain;          /* --sg-explain: the selection of each function on stderr */
	int link_static;      /* --sg-static */
	enum inst_func_mode func_mode; /* --sg-no-functions / --sg-all-functions */
};

/* Classifies argv[1..argc) (argv[0] is our own name). Returns 0, -ENOMEM, or -EINVAL after a
 * message on stderr (an option of ours missing its argument). Free with cc_args_free. */
int cc_args_parse(int argc, char **argv, struct cc_args *a);
void cc_args_free(struct cc_args *a);

#endif /* CC_INT_H */
