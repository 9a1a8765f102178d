/*
 * instrument.h — the public interface of the source instrumenter (`scalegraph instrument`,
 * `scalegraph cc`). It reads one unpreprocessed C file and returns the same text with probes
 * spliced in at byte offsets: function entry/exit scope guards, pthread and POSIX semaphore calls
 * renamed to their libsgtrace `sg_` wrappers, `#pragma scalegraph region` lines turned into
 * sg_region_begin/end calls, and `#include <sgtrace.h>` + `#line` where needed.
 * docs/instrumenter.md has the rules.
 */
#ifndef INSTRUMENT_H
#define INSTRUMENT_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct inst_filter;

/* How functions are selected for entry/exit probes. */
enum inst_func_mode {
	INST_FUNC_DEFAULT = 0, /* the default rule (docs/instrumenter.md), then --filter rules */
	INST_FUNC_ALL,         /* every function definition, then --filter rules */
	INST_FUNC_NONE,        /* no function probes (--no-functions): sync calls and regions only */
};

/* The lines of a file the compiler compiles, learnt from its preprocessor's line markers
 * (inst_cpp_lines): line n (1-based) showed up in the preprocessed text, not blank, when
 * seen[n] is non-zero (n < n_lines). */
struct inst_lines {
	uint8_t *seen;
	size_t n_lines;
};

/* A call that another file of the program makes, inside a loop (`rec` 0) or from a directly
 * recursive function (`rec` 1), of a function this file may define: the tiny-helper rule
 * across files (docs/instrumenter.md). Strings borrowed. */
struct inst_ext_call {
	const char *name;
	const char *file;    /* where the call is */
	const char *caller;  /* the function it is in */
	uint32_t line;
	uint8_t rec;
};

struct inst_options {
	enum inst_func_mode func_mode;
	const struct inst_filter *filter; /* NULL: none; borrowed, not freed */
	FILE *diag;                       /* where warnings go (stderr if NULL) */
	int quiet;                        /* non-zero: no warnings printed (still counted) */
	FILE *explain;                    /* non-NULL: one line per function definition, */
					  /* `file:line name: selected|left out: why` */
	const struct inst_lines *compiled; /* NULL: not known; else only the #if groups the */
					  /* compiler compiles are read (inst_cpp_lines) */
	const struct inst_ext_call *ext_calls; /* calls in other files (tiny helpers), borrowed */
	size_t n_ext_calls;
	int summary;                      /* non-zero: fill inst_result.summary */
	int site_args;                    /* non-zero: calls that begin a wait pass a static */
					  /* call-site descriptor (sg_NAME_at(&sg_site_K, ...)), */
					  /* as before format 1.6; 0: the plain wrappers, whose */
					  /* site is their return address (same code size) */
};

/* What one file tells the other files of its program about the tiny-helper rule (the
 * `scalegraph cc` sidecar, docs/instrumenter.md "Across files"). */
struct inst_sum_def {      /* a non-static tiny function that the default rule probes only */
	char *name;        /* because no call of it in a loop is known; `ext`: one in another */
	uint32_t line;     /* file is (inst_options.ext_calls), so it was left out */
	uint8_t ext;
};
struct inst_sum_call {     /* a function not defined here, called in a loop or from a */
	char *name;        /* directly recursive function (`rec`): its first such call */
	char *caller;
	uint32_t line;
	uint8_t rec;
};
struct inst_summary {
	struct inst_sum_def *defs;
	size_t n_defs;
	struct inst_sum_call *calls;
	size_t n_calls;
};

/* Where one input line differs in the output: `del` input bytes at input offset `off` are
 * replaced by the `ins` output bytes at output offset `out_off`. Only what lands on the output
 * line that carries the input line's number counts: of an inserted `#include <sgtrace.h>` +
 * `#line` block, the text after it; of a replacement spanning lines (a region pragma with
 * continuation lines), its first line. `scalegraph cc` maps the compiler's columns back with
 * these. Sorted by `off`. */
struct inst_splice {
	uint32_t off, del, out_off, ins;
};

/* The result of instrumenting one file. `text` is malloc'd and owned by the caller
 * (inst_result_free); when nothing was changed it equals the input byte for byte. */
struct inst_result {
	char *text;
	size_t len;
	unsigned n_functions;   /* function definitions found */
	unsigned n_probed;      /* of those, given entry/exit probes */
	unsigned n_renamed;     /* pthread/sem calls renamed to sg_ wrappers */
	unsigned n_sites;       /* of those, calls given their call site (sg_NAME_at) */
	unsigned n_regions;     /* region pragmas converted */
	unsigned n_warnings;
	struct inst_splice *splices; /* malloc'd, owned like `text` */
	size_t n_splices;
	int cond_matters;       /* without inst_options.compiled: #if branches change the result */
				/* (a conditional inside a definition, or braces that balance */
				/* only per branch): worth learning which are compiled */
	struct inst_summary summary; /* with inst_options.summary: for the other files, owned */
};

/* Instruments `src` (`len` bytes, need not be NUL-terminated) read from `file_name` (used in
 * warnings, #line directives and the function descriptors, as given). Never fails on bad C:
 * what cannot be parsed is left as is with a `file:line:col: warning:`. Returns 0, or -ENOMEM /
 * -EOVERFLOW (input over 2 GiB); on error `res` is left empty. */
int inst_file(const char *src, size_t len, const char *file_name,
	      const struct inst_options *opt, struct inst_result *res);

void inst_result_free(struct inst_result *res);

/* Runs a preprocessor command `argv` (NULL-terminated: the compiler, the build's preprocessing
 * flags, `-E`, and last the file `path`, the file being instrumented; its text is `src`, `len`
 * bytes) and reads its line markers: the lines of `path` that show up in the output, not
 * blank (any inclusion of it counts). Its stderr is discarded. Returns 0 with `out` filled
 * (free with inst_lines_free), or -errno, or -EPROTO when the preprocessor failed (a missing
 * header ...) or its output cannot be mapped back (the file has #line directives of its own, no
 * line of it was found): then nothing is known and the file is read as without. */
int inst_cpp_lines(char *const argv[], const char *path, const char *src, size_t len,
		   struct inst_lines *out);
void inst_lines_free(struct inst_lines *l);
/* inst_file, and when the file's conditional code matters (inst_result.cond_matters) and a
 * preprocessor command `cpp_argv` is given (as for inst_cpp_lines, `path` last; NULL: none),
 * again with the lines it compiles; the warnings and --explain lines of the attempt not kept
 * are not printed. *cpp (may be NULL) gets 0 when the preprocessor did not run, 1 when its
 * lines were used, -1 when it failed or they did not fit (the result is then without them).
 * Returns as inst_file. */
int inst_file_cpp(const char *src, size_t len, const char *file_name, char *const cpp_argv[],
		  const char *path, const struct inst_options *opt, struct inst_result *res,
		  int *cpp);
/* Does the text have a #line directive (or a `# 12 "file"` line marker) of its own? */
int inst_has_line_directive(const char *src, size_t len);

/* Filter files (Score-P syntax, see docs/instrumenter.md). inst_filter_load reads `path`;
 * inst_filter_parse parses `len` bytes of `text` named `path` in messages. On a syntax error a
 * `path:line:col: error: ...` message is written to `diag` and -EINVAL returned. The filter is
 * owned by the caller (inst_filter_free). */
int inst_filter_load(const char *path, FILE *diag, struct inst_filter **out);
int inst_filter_parse(const char *text, size_t len, const char *path, FILE *diag,
		      struct inst_filter **out);
void inst_filter_free(struct inst_filter *f);

/* Applies the filter to a function `name` defined in file `file_name`, starting from the verdict
 * `selected` (1 included, 0 excluded) of the default rule. Returns the final verdict. Rules are
 * applied in order and the last matching rule wins; an excluded file excludes all its functions. */
int inst_filter_select(const struct inst_filter *f, const char *name, size_t name_len,
		       const char *file_name, int selected);
/* inst_filter_select, and the rule that decided: when one did, `why` (capacity `cap`) gets
 * "filter PATH:LINE EXCLUDE pattern" (or INCLUDE, or "file filter ..."); else it is "". */
int inst_filter_explain(const struct inst_filter *f, const char *name, size_t name_len,
			const char *file_name, int selected, char *why, size_t cap);

/* Reads a whole file into a malloc'd buffer (`*len` bytes, NUL-terminated for convenience).
 * Returns 0 or -errno. */
int inst_read_file(const char *path, char **out, size_t *len);

/* Writes `len` bytes of `s` into dst (capacity `cap`, NUL-terminated) as the inside of a C string
 * literal: quotes, backslashes and control characters escaped. Returns 0 or -ENAMETOOLONG. */
int inst_c_escape(char *dst, size_t cap, const char *s, size_t len);

#endif /* INSTRUMENT_H */
