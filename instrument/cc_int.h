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
	int *is_input;        /* per argv entry: 1 when it is an input (no option, no value) */
	int n_sources;
	int links;            /* the command links (no -c, -S, -E, -M, -fsyntax-only) */
	int passthrough;      /* run the compiler exactly as called (-E, -M, --version, ...) */
	int dep_file;         /* -MD or -MMD: a .d file is written beside the object */
	const char *mf;       /* -MF argument, or NULL */
	const char *out;      /* -o argument, or NULL */
	int compile_only;     /* -c */
	int user_sg_trace;    /* the user defines or undefines SG_TRACE (-DSG_TRACE..., -USG_TRACE) */
	int user_g;           /* the user chose debug info (-g, -g0, -g1, -ggdb, -gdwarf-4...) */
	/* our own options */
	const char *filter;   /* --filter FILE / --sg-filter FILE */
	int dry_run;          /* --sg-dry-run */
	int explain;          /* --sg-explain: the selection of each function on stderr */
	int link_static;      /* --sg-static */
	enum inst_func_mode func_mode; /* --sg-no-functions / --sg-all-functions */
	int no_cpp;           /* --sg-no-cpp: never ask the preprocessor which #if branches */
	int no_sidecar;       /* --sg-no-sidecar: write no foo.o.sgsel */
	int no_siblings;      /* --sg-no-siblings: read no other object's sidecar when compiling */
	const char **ext_specs; /* --sg-ext-call NAME,loop|rec,LINE,CALLER,FILE (the link's */
	int n_ext_specs;      /* recompiles: calls in other files, cc_settle.c) */
};

/* Classifies argv[1..argc) (argv[0] is our own name). Returns 0, -ENOMEM, or -EINVAL after a
 * message on stderr (an option of ours missing its argument). Free with cc_args_free. */
int cc_args_parse(int argc, char **argv, struct cc_args *a);
void cc_args_free(struct cc_args *a);
/* The arguments of the user's command that the preprocessor run telling which #if branches
 * are compiled needs (-D, -U, -I, -include, -std, -O, -f..., -m..., in order), without inputs,
 * outputs, dependency files, linker and assembler options: a malloc'd array of borrowed
 * strings in *out, *n_out of them. Returns 0, -ENOMEM, or -EINVAL when the command has a
 * response file (@file): then none is run. */
int cc_args_cpp(const struct cc_args *a, char ***out, int *n_out);

/* A sidecar: what one object's compilation tells the link about the tiny-helper rule across
 * files (cc_sidecar.c, docs/instrumenter.md "Across files"). */
struct cc_side {
	char *obj;            /* the object it is beside (path as found) */
	char *source;         /* the source, as given to the compiler */
	char *cwd;            /* the directory it was compiled in */
	long long mtime_ns, size; /* the source's then */
	char *cc;             /* $SG_CC then, or NULL */
	char **args;          /* the scalegraph cc arguments that compiled it */
	int n_args;
	struct inst_summary sum; /* its tiny candidates and calls of other files' functions */
};

/* Writes `obj`.sgsel (to a temporary name, then renamed). Returns 0 or -errno. */
int cc_side_write(const char *obj, const struct cc_side *s);
/* Reads `obj`.sgsel into s (cc_side_free). Returns 0, -errno (-ENOENT: none), -EINVAL
 * (not a sidecar of this version). */
int cc_side_read(const char *obj, struct cc_side *s);
void cc_side_free(struct cc_side *s);
/* The sidecars in `dir` but the one of `self_obj` whose objects exist: a malloc'd array
 * (free each with cc_side_free). Returns 0 or -errno (no such directory). */
int cc_side_siblings(const char *dir, const char *self_obj, struct cc_side **out, size_t *n_out);

/* Calls of functions in loops (or from recursive functions) of other files: what a file is
 * told for the tiny-helper rule across files (cc_settle.c). The strings are borrowed. */
struct cc_ext {
	struct inst_ext_call *v;
	size_t n, cap;
};
/* Adds the calls of a summary, made in `file`. Returns 0 or -ENOMEM. */
int cc_ext_add(struct cc_ext *e, const struct inst_summary *s, const char *file);
/* The calls of `e` that name one of the tiny candidates of `s`, into `out` (free out->v). */
int cc_ext_match(const struct cc_ext *e, const struct inst_summary *s, struct cc_ext *out);
/* The --sg-ext-call values `NAME,loop|rec,LINE,CALLER,FILE`, into `out`, its strings in *buf
 * (free both). Returns 0, -ENOMEM or -EINVAL. */
int cc_ext_parse(const char *const *specs, int n, char **buf, struct cc_ext *out);
/* Was the object of sidecar `s` compiled knowing other calls of its candidates than `m`? */
int cc_side_unsettled(const struct cc_side *s, const struct cc_ext *m);
/* Compiles the object of `s` again, from its recorded command in its recorded directory, into
 * `out_obj` (an absolute path), told the calls `m` (--sg-ext-call); --sg-explain with
 * `explain`. Returns 0, -ESTALE (its source changed since: not done), -ECHILD (the compiler
 * failed) or -errno. */
int cc_side_recompile(const struct cc_side *s, const struct cc_ext *m, const char *out_obj,
		      int explain);

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
