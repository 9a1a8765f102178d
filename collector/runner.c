/*
 * runner.c — process control for `scalegraph run` (runner.h). The child gets its own process
 * group so a timeout or Ctrl-C can kill everything it started (launchers, shells); its death is
 * awaited through a pidfd so the timeout needs no polling; an exec failure comes back through a
 * close-on-exec pipe so "no such program" is told apart from a program that exits 127.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int is_exec(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int runner_find_program(const char *name, const char *spec_dir, const char *bin_dir, char *out,
			size_t len)
{
	const char *dirs[2] = { spec_dir, bin_dir };
	if (name[0] == '/') {
		snprintf(out, len, "%s", name);
		return is_exec(out) ? 0 : -ENOENT;
	}
	for (int i = 0; i < 2; i++) {
		if (!dirs[i] || !dirs[i][0])
			continue;
		if ((size_t)snprintf(out, len, "%s/%s", dirs[i], name) < len && is_exec(out))
			return 0;
	}
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return is_exec(out) ? 0 : -ENOENT;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		if ((size_t)snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", name) < len &&
		    is_exec(out))
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

/* In the child: never returns. Reports an exec failure's errno through `err_fd`. */
static void child(const char *path, char *const argv[], const char *dir, int trace, int err_fd)
{
	char file[PATH_MAX + 16];
	int e;
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	snprintf(file, sizeof file, "%s/stdout", dir);
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || dup2(fd, 1) < 0)
		goto fail;
	close(fd);
	snprintf(file, sizeof file, "%s/stderr", dir);
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || dup2(fd, 2) < 0)
		goto fail;
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	if (trace) {
		snprintf(file, sizeof file, "%s/trace", dir);
		setenv("SG_TRACE_DIR", file, 1);
	}
	execv(path, argv);
fail:
	e = errno;
	if (write(err_fd, &e, sizeof e) < 0)
		e = 0;
	_exit(127);
}

static void describe(struct runner_result *res, double timeout_s)
{
	if (res->exec_errno)
		snprintf(res->reason, sizeof res->reason, "cannot execute: %s",
			 strerror(res->exec_errno));
	else if (res->interrupted)
		snprintf(res->reason, sizeof res->reason, "interrupted");
	else if (res->timed_out)
		snprintf(res->reason, sizeof res->reason,
			 "timed out after %g s (process group killed)", timeout_s);
	else if (res->signal)
		snprintf(res->reason, sizeof res->reason, "killed by signal %d (SIG%s)%s", res->signal,
			 sigabbrev_np(res->signal) ? sigabbrev_np(res->signal) : "?",
			 res->signal == SIGSEGV || res->signal == SIGABRT || res->signal == SIGBUS ||
			 res->signal == SIGFPE || res->signal == SIGILL ? ": crashed" : "");
	else if (res->exit_code != 0)
		snprintf(res->reason, sizeof res->reason, "exit status %d", res->exit_code);
	else
		res->reason[0] = '\0';
}

int runner_exec(const char *path, char *const argv[], const char *dir, int trace,
		double timeout_s, volatile sig_atomic_t *stop, struct runner_result *res)
{
	int pipefd[2], pidfd = -1, rc = 0, status = 0;
	struct rusage ru;
	memset(res, 0, sizeof *res);
	res->exit_code = -1;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	double t0 = now_s();
	pid_t pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return rc;
	}
	if (pid == 0)
		child(path, argv, dir, trace, pipefd[1]);
	close(pipefd[1]);
	setpgid(pid, pid); /* also here: no race with the kill below */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	double deadline = t0 + timeout_s, kill_at = 0;
	for (;;) {
		pid_t w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		double now = now_s();
		if (!res->timed_out && !res->interrupted) {
			if (stop && *stop)
				res->interrupted = 1;
			else if (now >= deadline)
				res->timed_out = 1;
			if (res->timed_out || res->interrupted) {
				kill(-pid, SIGTERM);
				kill_at = now + 1.0;
			}
		} else if (kill_at && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
		double until = kill_at ? kill_at : (res->timed_out || res->interrupted) ? now + 1 : deadline;
		int ms = (int)((until - now) * 1000) + 1;
		if (ms > 200)
			ms = 200; /* wake up for *stop even if the signal arrived before poll */
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };
			poll(&p, 1, ms);
		} else {
			struct timespec nap = { 0, 2000000 };
			nanosleep(&nap, NULL);
		}
	}
	res->wall_s = now_s() - t0;
	kill(-pid, SIGKILL); /* leftovers of the group (background children) */
	if (pidfd >= 0)
		close(pidfd);
	int e = 0;
	if (read(pipefd[0], &e, sizeof e) == (ssize_t)sizeof e)
		res->exec_errno = e;
	close(pipefd[0]);
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		res->signal = WTERMSIG(status);
	res->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	res->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	res->max_rss_kb = ru.ru_maxrss;
	describe(res, timeout_s);
	return 0;
}
