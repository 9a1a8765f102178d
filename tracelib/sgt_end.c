/*
 * sgt_end.c — programs that end their own way: the wrappers of _exit, _Exit and the exec
 * family (sgtrace.h), which `scalegraph cc` calls instead of the real functions as it does for
 * the pthread ones. None of them returns through exit(), so the destructor that finishes the
 * trace never runs: without them every stream of such a process lacks its trailer, and the
 * reader takes a process that ended as it meant to for one that was killed.
 *
 * Each ends the trace first, as the destructor does (sgt_core_end: every stream its trailer,
 * the sched stream closed, the definitions given a last clock pair), then calls the real
 * function. Both _exit and the execs are async-signal-safe, so a handler may call them: the
 * ending frees nothing and waits for no lock longer than a second (SGT_END_NOW), and these
 * wrappers allocate nothing (an execl's argument list is on the stack, or mmap'ed when long).
 *
 * An exec that fails returns, and the process runs on: its streams have their trailers
 * already, and a trace that stopped must not pass for a whole one, so the definitions get a
 * STOPPED record (format 1.5: when, the errno, which call) before they are closed, the reader
 * reports it, and tracing stays off in this process (docs/tracelib.md "Life cycle" says why). A
 * forked child that has recorded nothing yet has no trace to end: it creates none here, and
 * after a failed exec it still starts one at its first event, like any child. A vfork child
 * (it shares its parent's memory) never touches the trace.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sgt_int.h"

/* The trace is ended for an exec: 1 when there was one to end. */
static int exec_begin(void)
{
	return sgt_core_end(SGT_END_NOW, 1);
}

/* Appends s to buf (len bytes, used so far *n), cut to fit. */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	while (*s && *n + 1 < len)
		buf[(*n)++] = *s++;
	buf[*n] = '\0';
}

/* After the real exec returned rc (it failed, errno set): when the trace was ended for it,
 * says so in the definitions. Returns rc with errno as the exec left it. */
static int exec_failed(int ended, const char *fn, const char *path, int rc)
{
	int err = errno;
	if (ended) {
		char what[320];
		size_t n = 0;
		put(what, sizeof what, &n, fn);
		put(what, sizeof what, &n, " ");
		put(what, sizeof what, &n, path ? path : "(null)");
		sgt_core_exec_failed(what, err);
	}
	errno = err;
	return rc;
}

SG_EXPORT void sg__exit(int status)
{
	sgt_core_end(SGT_END_NOW, 0);
	_exit(status);
}

SG_EXPORT void sg__Exit(int status)
{
	sgt_core_end(SGT_END_NOW, 0);
	_Exit(status);
}

SG_EXPORT int sg_execve(const char *path, char *const argv[], char *const envp[])
{
	int ended = exec_begin();
	return exec_failed(ended, "execve", path, execve(path, argv, envp));
}

SG_EXPORT int sg_execv(const char *path, char *const argv[])
{
	int ended = exec_begin();
	return exec_failed(ended, "execv", path, execv(path, argv));
}

SG_EXPORT int sg_execvp(const char *file, char *const argv[])
{
	int ended = exec_begin();
	return exec_failed(ended, "execvp", file, execvp(file, argv));
}

SG_EXPORT int sg_execvpe(const char *file, char *const argv[], char *const envp[])
{
	int ended = exec_begin();
	return exec_failed(ended, "execvpe", file, execvpe(file, argv, envp));
}

SG_EXPORT int sg_fexecve(int fd, char *const argv[], char *const envp[])
{
	int ended = exec_begin();
	return exec_failed(ended, "fexecve", "(a descriptor)", fexecve(fd, argv, envp));
}

/* ---- the variadic ones: an argv built as glibc's execl builds it ---- */

#define ARGS_ON_STACK 64

struct exec_args {
	char **argv;
	char *stack[ARGS_ON_STACK];
	size_t map_bytes;            /* argv was mmap'ed (a long list): its size */
	char *const *envp;           /* execle: the environment after the terminating NULL */
};

/* arg0 and the arguments after it up to (and with) the NULL, then for execle the environment:
 * 0, or -1 with errno (E2BIG, ENOMEM). */
static int args_take(struct exec_args *a, const char *arg0, va_list ap, int with_envp)
{
	va_list c;
	size_t argc = 1;
	va_copy(c, ap);
	while (va_arg(c, const char *) != NULL)
		if (++argc >= (size_t)1 << 24) {
			va_end(c);
			errno = E2BIG;
			return -1;
		}
	va_end(c);
	a->map_bytes = 0;
	a->argv = a->stack;
	if (argc + 1 > ARGS_ON_STACK) {
		size_t bytes = (argc + 1) * sizeof *a->argv;
		void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			       0);
		if (m == MAP_FAILED)
			return -1;
		a->argv = m;
		a->map_bytes = bytes;
	}
	a->argv[0] = (char *)arg0;
	for (size_t i = 1; i <= argc; i++)
		a->argv[i] = va_arg(ap, char *);
	a->envp = with_envp ? va_arg(ap, char *const *) : NULL;
	return 0;
}

static void args_free(struct exec_args *a)
{
	int err = errno;
	if (a->map_bytes)
		munmap(a->argv, a->map_bytes);
	errno = err;
}

SG_EXPORT int sg_execl(const char *path, const char *arg, ...)
{
	struct exec_args a;
	va_list ap;
	va_start(ap, arg);
	int rc = args_take(&a, arg, ap, 0);
	va_end(ap);
	if (rc < 0)
		return -1;
	int ended = exec_begin();
	rc = exec_failed(ended, "execl", path, execv(path, a.argv));
	args_free(&a);
	return rc;
}

SG_EXPORT int sg_execlp(const char *file, const char *arg, ...)
{
	struct exec_args a;
	va_list ap;
	va_start(ap, arg);
	int rc = args_take(&a, arg, ap, 0);
	va_end(ap);
	if (rc < 0)
		return -1;
	int ended = exec_begin();
	rc = exec_failed(ended, "execlp", file, execvp(file, a.argv));
	args_free(&a);
	return rc;
}

SG_EXPORT int sg_execle(const char *path, const char *arg, ...)
{
	struct exec_args a;
	va_list ap;
	va_start(ap, arg);
	int rc = args_take(&a, arg, ap, 1);
	va_end(ap);
	if (rc < 0)
		return -1;
	int ended = exec_begin();
	rc = exec_failed(ended, "execle", path, execve(path, a.argv, a.envp));
	args_free(&a);
	return rc;
}
