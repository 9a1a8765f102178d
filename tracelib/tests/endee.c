/*
 * endee.c — a program that ends its own way, for test-defect20-ends.sh (issue 20, items 1 and
 * 2): built with `scalegraph cc`, so its pthread calls, _exit, _Exit and exec calls go through
 * libsgtrace's wrappers. Each mode makes a known number of synchronization events, worked out
 * in the test, then ends as its name says:
 *
 *   pexit-join       a worker locks m once; main joins it, prints "done", pthread_exit(NULL)
 *   pexit-nojoin N   N workers each lock m once and print; main pthread_exit()s at once
 *                    (the LLNL tutorial's hello.c)
 *   pexit-sleep      a worker locks m once, then sleeps 60 s; main prints "ready" and
 *                    pthread_exit()s (the test sends SIGTERM)
 *   _exit CODE       main locks m once, prints, _exit(CODE)
 *   _Exit CODE       the same with _Exit
 *   exec PROG ARG..  main locks m once, then execv(PROG, [PROG, ARG...])
 *   execl PROG ARG   the same with execl (a variadic wrapper)
 *   exec-fail        main locks m once, execve("/nonexistent/...") fails, then a worker is
 *                    created and joined (it locks m once) and main prints "survived" and
 *                    returns 0
 *   fork-exit        main locks m once, forks; the child locks m twice and _exit(0)s; the
 *                    parent waits for it, locks m once more and returns 0
 *   fork-quiet       main locks m once, forks; the child _exit(0)s at once (records nothing);
 *                    the parent waits and returns 0
 *   fork-exec PROG   main locks m once, forks; the child execs PROG at once; the parent
 *                    waits and returns 0
 *   plain            main locks m once and returns 0
 *
 * Every mode but _exit/_Exit registers an atexit handler printing "atexit" so that the test
 * sees the process end through exit(). Output is written with stdio, as a user's would be.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void lock_once(void)
{
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
}

static void say_atexit(void)
{
	printf("atexit\n");
}

static void *worker(void *arg)
{
	lock_once();
	if (arg)
		printf("hello from worker %ld\n", (long)(intptr_t)arg);
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	lock_once();
	sleep(60);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: endee MODE [ARG...] (see endee.c)\n");
	return 2;
}

static int forkee(const char *how, const char *prog)
{
	lock_once();
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		if (!strcmp(how, "exit")) {
			lock_once();
			lock_once();
		} else if (!strcmp(how, "exec")) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	if (!strcmp(how, "exit"))
		lock_once();
	printf("child ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	if (argc < 2)
		return usage();
	const char *mode = argv[1];
	if (strcmp(mode, "_exit") && strcmp(mode, "_Exit"))
		atexit(say_atexit);
	if (!strcmp(mode, "pexit-join")) {
		pthread_create(&t[0], NULL, worker, NULL);
		pthread_join(t[0], NULL);
		printf("done\n");
		pthread_exit(NULL);
	} else if (!strcmp(mode, "pexit-nojoin") && argc == 3) {
		long n = atol(argv[2]);
		if (n < 1 || n > 64)
			return usage();
		for (long i = 0; i < n; i++)
			pthread_create(&t[i], NULL, worker, (void *)(intptr_t)(i + 1));
		pthread_exit(NULL);
	} else if (!strcmp(mode, "pexit-sleep")) {
		pthread_create(&t[0], NULL, sleeper, NULL);
		printf("ready\n");
		fflush(stdout);
		pthread_exit(NULL);
	} else if (!strcmp(mode, "_exit") && argc == 3) {
		lock_once();
		printf("bye\n");
		fflush(stdout);
		_exit(atoi(argv[2]));
	} else if (!strcmp(mode, "_Exit") && argc == 3) {
		lock_once();
		printf("bye\n");
		fflush(stdout);
		_Exit(atoi(argv[2]));
	} else if (!strcmp(mode, "exec") && argc >= 3) {
		lock_once();
		fflush(stdout);
		execv(argv[2], argv + 2);
		perror("endee: execv");
		return 1;
	} else if (!strcmp(mode, "execl") && argc == 4) {
		lock_once();
		fflush(stdout);
		execl(argv[2], argv[2], argv[3], (char *)NULL);
		perror("endee: execl");
		return 1;
	} else if (!strcmp(mode, "exec-fail")) {
		lock_once();
		char *args[] = { "nonexistent", NULL };
		int rc = execve("/nonexistent/endee-no-such-program", args, environ);
		int err = errno;
		if (rc != -1 || err != ENOENT) {
			fprintf(stderr, "endee: execve returned %d, errno %d\n", rc, err);
			return 1;
		}
		pthread_create(&t[0], NULL, worker, NULL);
		pthread_join(t[0], NULL);
		printf("survived\n");
		return 0;
	} else if (!strcmp(mode, "fork-exit")) {
		return forkee("exit", NULL);
	} else if (!strcmp(mode, "fork-quiet")) {
		return forkee("quiet", NULL);
	} else if (!strcmp(mode, "fork-exec") && argc == 3) {
		return forkee("exec", argv[2]);
	} else if (!strcmp(mode, "plain")) {
		lock_once();
		return 0;
	}
	return usage();
}
