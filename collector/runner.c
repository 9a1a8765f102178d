/*
 * runner.c — process control for `scalegraph run` (runner.h). The child gets its own process
 * group so a timeout or Ctrl-C can kill everything it started (launchers, shells); the runner
 * is a child subreaper, so what left the group (setsid) comes back to it and is killed with the
 * rest; the child dies with the runner (PR_SET_PDEATHSIG), and what outlives a runner killed
 * by SIGKILL carries SCALEGRAPH_RUN in its environment, by which the next runner finds it
 * (runner_kill_orphans). Its death is awaited through a pidfd so the timeout needs no polling;
 * an exec failure comes back through a close-on-exec pipe so "no such program" is told apart
 * from a program that exits 127. The run's files are created by the runner, relative to the
 * run directory it just made, with O_EXCL | O_NOFOLLOW and mode 0600 (directories 0700).
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

/* --- the process tree ---------------------------------------------------------------------
 * The runner is a child subreaper (runner_init): whatever its run starts and orphans — a
 * daemon, a `setsid` grandchild that left the process group — is re-parented to the runner
 * instead of init, so walking /proc from the runner's pid finds the whole tree. */

struct proc_ent {
	pid_t pid, ppid;
	char state;
	long long start;    /* field 22 of /proc/PID/stat: clock ticks after boot */
};

/* /proc/PID/stat: the fields after the command (which may hold blanks and parentheses). */
static int proc_stat(pid_t pid, struct proc_ent *e)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	int ppid;
	char state;
	long long start;
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
	 * cutime cstime priority nice num_threads itrealvalue starttime */
	if (sscanf(p + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d "
		   "%*d %lld", &state, &ppid, &start) != 3)
		return -1;
	e->pid = pid;
	e->ppid = ppid;
	e->state = state;
	e->start = start;
	return 0;
}

long long runner_pid_start(pid_t pid)
{
	struct proc_ent e;
	return proc_stat(pid, &e) == 0 ? e.start : -1;
}

/* Every process now in /proc (zombies included). *n set; NULL when /proc cannot be read. */
static struct proc_ent *proc_list(size_t *n)
{
	DIR *d = opendir("/proc");
	struct proc_ent *v = NULL;
	size_t cap = 0;
	*n = 0;
	if (!d)
		return NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 256;
			struct proc_ent *g = realloc(v, nc * sizeof *v);
			if (!g)
				break;
			v = g;
			cap = nc;
		}
		if (proc_stat((pid_t)pid, &v[*n]) == 0)
			(*n)++;
	}
	closedir(d);
	return v;
}

/* Marks the descendants of the processes already marked (mark[i] != 0), to a fixed point. */
static void mark_descendants(const struct proc_ent *v, size_t n, char *mark)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t i = 0; i < n; i++) {
			if (mark[i])
				continue;
			for (size_t k = 0; k < n; k++) {
				if (mark[k] && v[k].pid == v[i].ppid) {
					mark[i] = 1;
					changed = 1;
					break;
				}
			}
		}
	}
}

/* The first line of /proc/PID/task/TID/NAME, "" when it cannot be read. */
static void task_read(const char *task, const char *name, char *out, size_t len)
{
	char path[400];
	snprintf(path, sizeof path, "%s/%s", task, name);
	out[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, out, len - 1);
	close(fd);
	out[n > 0 ? n : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* The state letter of a task (its stat's third field), '?' when unknown. */
static char task_state(const char *task)
{
	char st[512];
	task_read(task, "stat", st, sizeof st);
	const char *p = strrchr(st, ')');
	return p && p[1] == ' ' && p[2] ? p[2] : '?';
}

/* Does process `pid` have a thread that has not exited? Its own stat says Z once its main
 * thread ended (pthread_exit), while its other threads may run on: such a process is alive. */
static int proc_live(pid_t pid)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	struct dirent *de;
	int live = 0;
	if (!d)
		return 0;
	while (!live && (de = readdir(d))) {
		char task[320];
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(task, sizeof task, "%s/%s", dir, de->d_name);
		char state = task_state(task);
		live = state != 'Z' && state != 'X' && state != '?';
	}
	closedir(d);
	return live;
}

/* Sends `sig` to every live descendant of the runner; returns how many got it. */
static int signal_tree(int sig)
{
	size_t n;
	struct proc_ent *v = proc_list(&n);
	int hit = 0;
	if (!v)
		return 0;
	char *mark = calloc(n ? n : 1, 1);
	if (mark) {
		pid_t self = getpid();
		for (size_t i = 0; i < n; i++)
			mark[i] = v[i].pid == self;
		mark_descendants(v, n, mark);
		for (size_t i = 0; i < n; i++)
			if (mark[i] && v[i].pid != self && (v[i].state != 'Z' || proc_live(v[i].pid)) &&
			    kill(v[i].pid, sig) == 0)
				hit++;
	}
	free(mark);
	free(v);
	return hit;
}

/* Kills what is left of the run's tree (a background child, a setsid daemon) and reaps every
 * child the runner has, waiting at most a few seconds for processes stuck in the kernel. */
static void kill_tree(void)
{
	for (int round = 0; round < 300; round++) {
		int hit = signal_tree(SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!hit) {
			if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
				return;
		}
		struct timespec nap = { 0, 10000000 };
		nanosleep(&nap, NULL);
	}
}

/* --- what a timed-out run left running --------------------------------------------------
 * A run killed at its timeout is recorded with what was still alive at that moment, read from
 * /proc before the first signal: its threads' names (comm), states and wait channels (wchan),
 * e.g. "1 thread left: sgtrace-drain (S, do_sys_poll); main thread ended" — a program whose
 * main ended with pthread_exit while a library's thread kept the process alive says so. */

struct left_thread {
	char what[96];    /* "name (S, wchan)" */
	int count;
};

/* Adds the live threads of process `pid` to `v` (grouped by what they show); counts them in
 * *n_live; *main_ended set when its main thread has exited while others live on. */
static void list_threads(pid_t pid, struct left_thread *v, int *n_v, int cap, int *n_live,
			 int *main_ended)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	struct dirent *de;
	int live = 0, leader_dead = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		char task[320], comm[32], wchan[48], what[96];
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(task, sizeof task, "%s/%s", dir, de->d_name);
		char state = task_state(task);
		if (state == 'Z' || state == 'X') {
			leader_dead |= atoi(de->d_name) == (int)pid;
			continue;
		}
		live++;
		task_read(task, "comm", comm, sizeof comm);
		task_read(task, "wchan", wchan, sizeof wchan);
		if (wchan[0] && strcmp(wchan, "0"))
			snprintf(what, sizeof what, "%s (%c, %s)", comm[0] ? comm : "?", state, wchan);
		else
			snprintf(what, sizeof what, "%s (%c)", comm[0] ? comm : "?", state);
		int k = 0;
		while (k < *n_v && strcmp(v[k].what, what))
			k++;
		if (k == *n_v && *n_v < cap) {
			snprintf(v[k].what, sizeof v[k].what, "%s", what);
			v[k].count = 0;
			(*n_v)++;
		}
		if (k < *n_v)
			v[k].count++;
	}
	closedir(d);
	*n_live += live;
	if (live && leader_dead)
		(*main_ended)++;
}

/* Appends to out (len bytes, *used of them taken), cutting at its end. */
static void append(char *out, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *out, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	if (*used + 1 >= len)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(out + *used, len - *used, fmt, ap);
	va_end(ap);
	if (w > 0)
		*used = *used + (size_t)w >= len ? len - 1 : *used + (size_t)w;
}

/* "N thread(s) left: a (S, wchan), b x3 (S, futex_wait_queue); main thread ended" over every
 * descendant of the runner, or "" when none is left or /proc cannot be read. */
static void describe_left(char *out, size_t len)
{
	struct left_thread v[16];
	int n_v = 0, n_live = 0, n_procs = 0, main_ended = 0;
	size_t n;
	struct proc_ent *p = proc_list(&n);
	out[0] = '\0';
	if (!p)
		return;
	char *mark = calloc(n ? n : 1, 1);
	if (mark) {
		pid_t self = getpid();
		for (size_t i = 0; i < n; i++)
			mark[i] = p[i].pid == self;
		mark_descendants(p, n, mark);
		for (size_t i = 0; i < n; i++) {
			if (!mark[i] || p[i].pid == self)
				continue;
			int before = n_live;
			/* a process whose stat says Z may be alive: its main thread ended (the
			 * stat is the leader's) and other threads run on */
			list_threads(p[i].pid, v, &n_v, (int)(sizeof v / sizeof v[0]), &n_live,
				     &main_ended);
			n_procs += n_live > before;
		}
	}
	free(mark);
	free(p);
	if (!n_live)
		return;
	size_t used = 0;
	int listed = 0;
	if (n_procs > 1)
		append(out, len, &used, "%d processes, ", n_procs);
	append(out, len, &used, "%d thread%s left: ", n_live, n_live == 1 ? "" : "s");
	for (int k = 0; k < n_v; k++) {
		char *paren = strstr(v[k].what, " (");
		if (v[k].count > 1 && paren)
			append(out, len, &used, "%s%.*s x%d%s", k ? ", " : "",
			       (int)(paren - v[k].what), v[k].what, v[k].count, paren);
		else
			append(out, len, &used, "%s%s", k ? ", " : "", v[k].what);
		listed += v[k].count;
	}
	if (listed < n_live)
		append(out, len, &used, ", %d more", n_live - listed);
	if (main_ended)
		append(out, len, &used, "; %s", n_procs > 1 ? "a main thread ended" : "main thread ended");
}

/* Does /proc/PID/environ hold the entry `want` ("SCALEGRAPH_RUN=...")? */
static int environ_has(pid_t pid, const char *want)
{
	char path[64];
	static char buf[1 << 17];
	snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	size_t wl = strlen(want);
	for (size_t at = 0; at < (size_t)n;) {
		size_t l = strnlen(buf + at, (size_t)n - at);
		if (l == wl && !memcmp(buf + at, want, wl))
			return 1;
		at += l + 1;
	}
	return 0;
}

int runner_kill_orphans(int pid, long long pid_start, const char *marker)
{
	char want[128];
	size_t n;
	int killed = 0;
	snprintf(want, sizeof want, "%s=%s", RUNNER_MARKER_ENV, marker ? marker : "");
	for (int round = 0; round < 500; round++) {
		struct proc_ent *v = proc_list(&n);
		if (!v)
			return killed;
		char *mark = calloc(n ? n : 1, 1);
		int alive = 0;
		for (size_t i = 0; mark && i < n; i++)
			mark[i] = (pid > 0 && v[i].pid == pid && v[i].start == pid_start) ||
				  (marker && marker[0] && v[i].pid != getpid() && environ_has(v[i].pid, want));
		if (mark)
			mark_descendants(v, n, mark);
		for (size_t i = 0; mark && i < n; i++) {
			if (!mark[i] || (v[i].state == 'Z' && !proc_live(v[i].pid)) ||
			    v[i].pid == getpid())
				continue;
			alive++;
			if (kill(v[i].pid, SIGKILL) == 0 && round == 0)
				killed++;
		}
		free(mark);
		free(v);
		if (!alive)
			return killed;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		struct timespec nap = { 0, 10000000 };
		nanosleep(&nap, NULL);
	}
	return killed;
}

int runner_init(void)
{
	/* orphans of the runs come to the runner, not to init: see kill_tree */
	return prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 ? -errno : 0;
}

/* In the child: never returns. Reports an exec failure's errno through `err_fd`. */
static void child(const char *path, char *const argv[], pid_t parent, int out_fd, int err_fd2,
		  const char *trace_dir, const char *marker, int err_fd)
{
	int e;
	/* a runner killed by SIGKILL takes its run with it (the resume makes it again); the
	 * parent may have died before the prctl: then exit now */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent) {
		e = ESRCH;
		goto report;
	}
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (dup2(out_fd, 1) < 0 || dup2(err_fd2, 2) < 0)
		goto fail;
	int fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	if (marker && marker[0])
		setenv(RUNNER_MARKER_ENV, marker, 1);
	/* a run measured without a trace records nothing, even when its program was built by
	 * `scalegraph cc`: left alone, libsgtrace would write a default trace root into the
	 * current directory at every such run */
	if (trace_dir)
		setenv("SG_TRACE_DIR", trace_dir, 1);
	else
		setenv("SG_TRACE", "0", 1);
	execv(path, argv);
fail:
	e = errno;
report:
	if (write(err_fd, &e, sizeof e) < 0)
		e = 0;
	_exit(127);
}

/* Creates a file of the run directory: never through a link or over an existing file. */
static int create_file(int dir_fd, const char *name)
{
	return openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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
			 "timed out after %g s (process group killed)%s%s", timeout_s,
			 res->left[0] ? "; " : "", res->left);
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

int runner_exec(const char *path, char *const argv[], int dir_fd, const char *dir, int trace,
		const char *marker, double timeout_s, volatile sig_atomic_t *stop,
		void (*started)(void *ctx, pid_t pid), void *ctx, struct runner_result *res)
{
	int pipefd[2] = { -1, -1 }, pidfd = -1, rc = 0, status = 0, out_fd, err_fd;
	char trace_dir[PATH_MAX + 16];
	struct rusage ru;
	memset(res, 0, sizeof *res);
	memset(&ru, 0, sizeof ru);
	res->exit_code = -1;
	out_fd = create_file(dir_fd, "stdout");
	err_fd = out_fd < 0 ? -1 : create_file(dir_fd, "stderr");
	if (out_fd < 0 || err_fd < 0) {
		rc = -errno;
		snprintf(res->reason, sizeof res->reason, "%s/%s: %s", dir, out_fd < 0 ? "stdout" :
			 "stderr", strerror(errno));
		goto out;
	}
	if (trace) {
		/* the trace root is a fresh directory of the runner's: the library refuses a root
		 * it did not expect, and nothing else can have put files there */
		if (mkdirat(dir_fd, "trace", 0700) < 0) {
			rc = -errno;
			snprintf(res->reason, sizeof res->reason, "%s/trace: %s", dir, strerror(errno));
			goto out;
		}
		if ((size_t)snprintf(trace_dir, sizeof trace_dir, "%s/trace", dir) >= sizeof trace_dir) {
			rc = -ENAMETOOLONG;
			snprintf(res->reason, sizeof res->reason, "%.200s.../trace: %s", dir,
				 strerror(ENAMETOOLONG));
			goto out;
		}
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		rc = -errno;
		snprintf(res->reason, sizeof res->reason, "cannot make a pipe: %s", strerror(errno));
		goto out;
	}
	fflush(NULL);
	double t0 = now_s();
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(res->reason, sizeof res->reason, "cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(path, argv, parent, out_fd, err_fd, trace ? trace_dir : NULL, marker,
		      pipefd[1]);
	close(pipefd[1]);
	pipefd[1] = -1;
	setpgid(pid, pid); /* also here: no race with the kill below */
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (started)
		started(ctx, pid);
	double deadline = t0 + timeout_s, kill_at = 0;
	for (;;) {
		pid_t w = wait4(pid, &status, WNOHANG, &ru);
		if (w == pid)
			break;
		double now = now_s();
		if (!res->timed_out && !res->interrupted) {
			if (stop && *stop) {
				res->interrupted = 1;
			} else if (now >= deadline) {
				res->timed_out = 1;
				/* what hangs, seen before the first signal changes it */
				describe_left(res->left, sizeof res->left);
			}
			if (res->timed_out || res->interrupted) {
				/* the group and whatever left it (setsid) */
				kill(-pid, SIGTERM);
				signal_tree(SIGTERM);
				kill_at = now + 1.0;
			}
		} else if (kill_at && now >= kill_at) {
			kill(-pid, SIGKILL);
			signal_tree(SIGKILL);
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
	kill_tree();         /* and those that left it */
	if (pidfd >= 0)
		close(pidfd);
	int e = 0;
	if (read(pipefd[0], &e, sizeof e) == (ssize_t)sizeof e)
		res->exec_errno = e;
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		res->signal = WTERMSIG(status);
	res->user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	res->sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	res->max_rss_kb = ru.ru_maxrss;
	describe(res, timeout_s);
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (out_fd >= 0)
		close(out_fd);
	if (err_fd >= 0)
		close(err_fd);
	return rc;
}
