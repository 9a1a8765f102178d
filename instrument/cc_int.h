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

/* An instrumented source, for mapping diagnostics back (cc_diag.c). */
struct cc_src {
	const char *name;                /* the path as given = the name in its #line */
	const char *text;                /* the user's source */
	size_t len;
	const char *out;                 /* the instrumented text (after the first #line) */
	const struct inst_splice *sp;    /* where they differ, sorted (inst_result) */
	size_t n_sp;
	size_t *bol;                     /* line starts of text, on first use */
	size_t n_lines;
};

struct cc_diag {
	struct cc_src *srcs;
	size_t n;
	int display;                     /* columns count display cells (gcc), not bytes (clang); */
					 /* -1: decide on first use, asking is_clang */
	int tabstop;                     /* -ftabstop (8) */
	int origin;                      /* -fdiagnostics-column-origin (1) */
	int strip_dot;                   /* "./x.h" is what our -iquote . made of "x.h" */
	int (*is_clang)(void *ctx);
	void *ctx;
	int clang;                       /* -1 until is_clang was asked */
	/* the diagnostic being read */
	struct cc_src *cur;
	unsigned long cur_line, excerpt_line;
	int clang_excerpt;               /* 1: the next line may be clang's excerpt; 2: its carets */
	int in_sgtrace;                  /* a note on sgtrace.h; 2: its excerpt may come next */
#define CC_DIAG_REMOVED 16
	/* what an sgtrace.h excerpt lost: "sg_", "_at", the site parameter (offset, length) */
	struct { size_t at, len; } removed[CC_DIAG_REMOVED];
	size_t n_removed;
};

/* Copies the compiler's stderr from `in` to `out`, each line mapped back to the user's source
 * (columns, excerpts, sg_ names, header paths: cc_diag.c). */
int cc_diag_filter(struct cc_diag *d, FILE *in, FILE *out);
void cc_diag_free(struct cc_diag *d);

#endif /* CC_INT_H */
