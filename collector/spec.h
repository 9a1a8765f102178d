/*
 * spec.h — experiment specs (docs/spec-format.md): parsing the text format, overriding it
 * with command-line flags, and turning a method and a scale into parameter sizes, a problem size
 * W and a command line. Private to collector/.
 */
#ifndef SPEC_H
#define SPEC_H

#include <limits.h>
#include <stddef.h>

#define SPEC_MAX_PARAMS 16
#define SPEC_MAX_METHODS 16
#define SPEC_MAX_MODELS 8
#define SPEC_MAX_THREADS 64
#define SPEC_MAX_ARGS 64
#define SPEC_NAME_MAX 32
#define SPEC_EXPR_MAX 256
#define SPEC_MAX_BYTES (1 << 20)   /* a spec file larger than 1 MiB is refused */
/* The largest size of an integral parameter: integers beyond 2^53 are not exact as doubles
 * and would not be printed as the number computed. */
#define SPEC_INT_MAX 9007199254740992.0

struct spec_param {
	char name[SPEC_NAME_MAX];
	double base;
	double bytes;      /* bytes per unit (C of eq. 14); 0 when not given */
	int integral;      /* base written as an integer: sizes are rounded to integers >= 1 */
};

struct spec_assign {
	int param;                 /* index into spec.param */
	char expr[SPEC_EXPR_MAX];  /* in N and the parameters' base values */
	int line, col;             /* where the expression was written */
};

struct spec_method {
	char name[SPEC_NAME_MAX];
	int n_assign;
	struct spec_assign assign[SPEC_MAX_PARAMS];
};

enum spec_model_kind { SPEC_MEMORY_BOUND, SPEC_TIME_BOUND, SPEC_E_CONSERVED };

struct spec_model {
	enum spec_model_kind kind;
	double target;     /* bytes per thread, seconds, or efficiency */
	int method;        /* index of the `along` method */
};

/* A command template: argv words with {N} and {param} placeholders. */
struct spec_cmd {
	int argc;
	char *argv[SPEC_MAX_ARGS];
	int line;          /* where it was written (0: command line) */
	int col[SPEC_MAX_ARGS];
};

struct spec {
	char path[PATH_MAX];   /* spec file, or "<command line>" */
	char dir[PATH_MAX];    /* its directory, for program lookup ("" when none) */
	char *text;            /* the file's text (owned), NULL for command-line-only specs */
	struct spec_cmd program;
	struct spec_cmd sequential;   /* argc == 0 when absent */
	struct spec_cmd plain;        /* `plain`: the program built with the ordinary compiler,
					 run untraced beside the traced runs; argc == 0: none */
	int plain_repeat;             /* `plain-repeat K`: its runs per point (default 1) */
	int plain_repeat_line, plain_repeat_col;   /* where it was written (0: not written) */
	int n_threads;
	int threads[SPEC_MAX_THREADS];
	int repeat;                   /* default 1 */
	double timeout_s;             /* default 600 */
	int n_params;
	struct spec_param param[SPEC_MAX_PARAMS];
	int n_methods;
	struct spec_method method[SPEC_MAX_METHODS];
	int n_models;
	struct spec_model model[SPEC_MAX_MODELS];
	int same_command;             /* --same-command: a program without {N} is meant */
	char work[SPEC_EXPR_MAX];     /* `work EXPR`, "" = product of the parameters */
	int work_line, work_col;      /* where it was written */
};

/* Initializes an empty spec (defaults: repeat 1, timeout 600 s). */
void spec_init(struct spec *s);
/* Frees what the spec owns. */
void spec_free(struct spec *s);

/* Parses `text` (NUL-terminated; copied) read from `path`. Returns 0, or -EINVAL with
 * "path:line:col: error: message" in `err`. */
int spec_parse(struct spec *s, const char *path, const char *text, char *err, size_t err_len);

/* Reads and parses a spec file. Returns 0 or a negative errno with the message in `err`. */
int spec_load(struct spec *s, const char *path, char *err, size_t err_len);

/* Flag overrides. "1,2,4" (strict). Return 0 or -EINVAL with a message in `err`. */
int spec_set_threads(struct spec *s, const char *list, char *err, size_t err_len);
/* Replaces the program by argv words (placeholders allowed). */
int spec_set_program(struct spec *s, int argc, char **argv, char *err, size_t err_len);

/* Replaces the plain build's command by the words of `text` (--plain CMD: split at blanks,
 * quotes group as in a spec). Returns 0 or -EINVAL with "scalegraph run: error: --plain: ...". */
int spec_set_plain(struct spec *s, const char *text, char *err, size_t err_len);

/* Checks the spec is complete (a program, threads, placeholders known; with more than one
 * thread count, {N} in the program's command unless same_command is set) and adds the implicit
 * method "fixed" when none is written. Returns 0 or -EINVAL with a located message (for a
 * command given after --, "scalegraph run: error: ..."). */
int spec_finish(struct spec *s, char *err, size_t err_len);

/* Duration "120s", "500ms", "2m", "1h", "1.5" (seconds). Returns 0 or -EINVAL. */
int spec_parse_duration(const char *text, double *seconds);

/* Sizes of every parameter for `method` with N := x (a thread count, or the free scale s of a
 * search). Integral parameters are rounded to the nearest integer >= 1. Returns 0 or -EINVAL
 * (the expression failed at this x, or gave a size that is not a finite positive number or an
 * integer above SPEC_INT_MAX; "path:line:col: error: ..." in err). */
int spec_sizes(const struct spec *s, int method, double x, double *sizes, char *err, size_t err_len);

/* Problem size W of `sizes`: the `work` expression, else the product of all parameters. */
double spec_work(const struct spec *s, const double *sizes);

/* Memory of `sizes` in bytes: sum of bytes-per-unit * size over the parameters with bytes. */
double spec_memory(const struct spec *s, const double *sizes);

/* "balls=5000 steps=100": canonical text of `sizes`, the identity of a size point. */
void spec_sizes_text(const struct spec *s, const double *sizes, char *buf, size_t len);

/* Builds argv for `cmd` with {N} := n_threads and {param} := sizes. The strings live in `buf`
 * (caller's, `buf_len` bytes); argv is NULL-terminated in `argv` (SPEC_MAX_ARGS + 1 entries).
 * Returns 0, -ENAMETOOLONG (longer than buf_len) or -ERANGE (a size that does not fit). */
int spec_argv(const struct spec *s, const struct spec_cmd *cmd, int n_threads,
	      const double *sizes, char **argv, char *buf, size_t buf_len);

/* Evaluates what a series will evaluate at each thread count, before anything is run or
 * recorded: every method's sizes at every N and the program's and sequential program's
 * command lines. Returns 0 or -EINVAL / -ENAMETOOLONG with a located message in `err`. */
int spec_check_eval(const struct spec *s, char *err, size_t err_len);

/* Name of a model kind as written in specs ("time-bound"). */
const char *spec_model_name(enum spec_model_kind kind);

#endif /* SPEC_H */
