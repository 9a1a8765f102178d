/*
 * runner.h — runs one command as its own process group with its outputs in a run directory, a
 * timeout, and CPU time from wait4. Private to collector/.
 */
#ifndef RUNNER_H
#define RUNNER_H

#include <signal.h>
#include <stddef.h>

struct runner_result {
	int exit_code;       /* -1 when it did not exit normally */
	int signal;          /* the signal that killed it, 0 otherwise */
	int timed_out;       /* killed by the runner after the timeout */
	int interrupted;     /* killed because *stop became non-zero (Ctrl-C) */
	int exec_errno;      /* the program could not be started (errno), 0 otherwise */
	double wall_s, user_s, sys_s;
	long max_rss_kb;
	char reason[256];    /* "" for a clean exit 0, else why it failed */
};

/* Runs `path` with `argv` (NULL-terminated) in the current directory, stdout and stderr into
 * DIR/stdout and DIR/stderr, SG_TRACE_DIR=DIR/trace in its environment (when trace is
 * non-zero). After `timeout_s` seconds, or when *stop turns non-zero, the whole process group
 * gets SIGTERM and a second later SIGKILL. Returns 0 (the outcome is in *res) or -errno when the
 * runner itself failed (fork, files). */
int runner_exec(const char *path, char *const argv[], const char *dir, int trace,
		double timeout_s, volatile sig_atomic_t *stop, struct runner_result *res);

/* Finds a program: a name with no '/' in `spec_dir`, then `bin_dir`, then PATH; a relative path
 * with '/' in `spec_dir`, then `bin_dir`, then the current directory. Writes the path found
 * into `out`. Returns 0 or -ENOENT. */
int runner_find_program(const char *name, const char *spec_dir, const char *bin_dir, char *out,
			size_t len);

#endif /* RUNNER_H */
