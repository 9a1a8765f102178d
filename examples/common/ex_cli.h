/*
 * ex_cli.h — strict command-line parsing and result hashing shared by the example programs.
 *
 * The examples (billiards, jacobi, taskfarm) take a few integer options each. This helper
 * parses them strictly ("--name N" or "--name=N", decimal, inside a range, each at most once,
 * nothing unknown) and reports errors as "PROG: error: ..." so a collector running thousands of
 * runs sees exactly what was wrong. It also provides the FNV-1a hash that every example uses
 * for its checksum line, so results compare bit for bit across programs and thread counts.
 */
#ifndef EX_CLI_H
#define EX_CLI_H

#include <stddef.h>
#include <stdint.h>

/* One integer option. `value` holds the default on entry and the parsed value on return. */
struct ex_opt {
	const char *name;	/* without the leading "--", e.g. "balls" */
	long long min, max;	/* accepted range, inclusive */
	long long *value;
	int seen;		/* set by ex_cli_parse */
};

/* One boolean flag ("--stats"): *value set to 1 when given. */
struct ex_flag {
	const char *name;
	int *value;
};

/* Exit status of a program given bad options (what a shell user and the collector expect). */
#define EX_EXIT_USAGE 2

/*
 * Parses argv[1..argc-1] against `opts` (n_opts entries) and `flags` (n_flags entries, may be
 * NULL). `--help` / `-h` prints `usage` (a complete help text, not owned) on stdout and returns 1.
 * Returns 0 on success, or -EINVAL after printing one "PROG: error: ..." line and a hint to use
 * --help on stderr, where PROG is `prog`.
 */
int ex_cli_parse(int argc, char **argv, const char *prog, const char *usage,
		 struct ex_opt *opts, size_t n_opts, struct ex_flag *flags, size_t n_flags);

/* FNV-1a 64-bit hash state; start with EX_HASH_INIT and feed bytes with ex_hash_bytes. */
#define EX_HASH_INIT UINT64_C(0xcbf29ce484222325)
uint64_t ex_hash_bytes(uint64_t h, const void *data, size_t n);

/* Hashes the bit pattern of a double (so -0.0 and 0.0 differ: results must be bit-identical). */
uint64_t ex_hash_double(uint64_t h, double x);

#endif /* EX_CLI_H */
