/*
 * runner.h — runs one command as its own process group with its outputs in a run directory, a
 * timeout, and CPU time from wait4; the runner owns the whole process tree of a run (subreaper,
 * parent-death signal, an environment marker for orphans of a dead runner). Private to
 * collector/.
 */
#ifndef RUNNER_H
#define RUNNER_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

struct runner_result {
	int exit_code;       /* -1 when it did not exit normally */
	int signal;          /* the signal that killed it, 0 otherwise */
	int timed_out;       /* killed by the runner after the timeout */
	int interrupted;     /* killed because *stop became non-zero (Ctrl-C) */
	int exec_errno;      /* the program could not be started (errno), 0 otherwise */
	double wall_s, user_s, sys_s;
	long max_rss_kb;
	char left[320];      /* at a timeout: what was still alive ("1 thread left: sgtrace-drain
				(S, do_sys_poll)"), "" otherwise */
	char reason[512];    /* "" for a clean exit 0, else why it failed (with `left`) */
};

/* The environment variable that marks every process of a run (value: the run's marker). */
#define RUNNER_MARKER_ENV "SCALEGRAPH_RUN"

/* Makes the calling process (the runner) a child subreaper: processes its runs orphan come back
 * to it. Call once before the first run. Returns 0 or -errno. */
int runner_init(void);

/* Runs `path` with `argv` (NULL-terminated) in the current directory. `dir_fd` is the run
 * directory (path `dir`), fresh and empty: stdout and stderr are created in it (O_EXCL,
 * O_NOFOLLOW, 0600), and with `trace` non-zero the directory trace/ (0700), given to the program
 * as SG_TRACE_DIR. `marker`, when not NULL, goes into the environment as SCALEGRAPH_RUN. The
 * child dies with the runner (PR_SET_PDEATHSIG). `started`, when not NULL, is called with the
 * child's pid right after the fork. After `timeout_s` seconds, or when *stop turns non-zero, the
 * process group and every other descendant get SIGTERM and a second later SIGKILL (a timeout's
 * reason then names the threads still alive before the first signal: res->left); when the
 * program ends, whatever it left running is killed. Returns 0 (the outcome is in *res) or
 * -errno when the runner itself failed (fork, files: then res->reason says which). */
int runner_exec(const char *path, char *const argv[], int dir_fd, const char *dir, int trace,
		const char *marker, double timeout_s, volatile sig_atomic_t *stop,
		void (*started)(void *ctx, pid_t pid), void *ctx, struct runner_result *res);

/* Start time of process `pid` (/proc/PID/stat field 22, clock ticks after boot), -1 if none. */
long long runner_pid_start(pid_t pid);

/* Kills what a dead runner's run left: the process `pid` if it still has start time
 * `pid_start`, every process whose environment holds SCALEGRAPH_RUN=`marker`, and their
 * descendants; waits (up to about 5 s) until they are gone. Returns how many were killed. */
int runner_kill_orphans(int pid, long long pid_start, const char *marker);

#endif /* RUNNER_H */
