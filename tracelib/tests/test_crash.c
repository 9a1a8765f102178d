/*
 * test_crash.c — traces of programs that die: the crashee helper (crashee.c) killed with
 * SIGKILL reads back every event (the unflushed ones from its open buffer files); one that dies of SIGSEGV, SIGBUS, SIGABRT,
 * SIGTERM or SIGINT flushes every event recorded before the signal, in every thread, and still
 * dies of that signal; one that started with the signal ignored keeps ignoring it; a flipped
 * byte in a recorded chunk is reported by chunk and the rest is read; a stream that cannot be
 * written counts what it lost.
 */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sgf_int.h"
#include "sgtrace_read.h"
#include "tutil.h"

#define N_PAIRS 20000   /* 60,000 lock events per thread: several 64K-byte chunks */

static int setup(void **state)
{
	return tu_fixture_setup(state, "crash");
}

/* Starts crashee MODE with its stdout on a pipe; returns its pid. fsize_limit, when not 0, is
 * the largest file the child may write (RLIMIT_FSIZE, with SIGXFSZ ignored: a full disk);
 * ignore_sig, when not 0, is a signal the child starts with ignored. */
static pid_t spawn_ex(struct tu_fixture *f, const char *mode, int *out_fd, long fsize_limit,
		      int ignore_sig)
{
	char prog[PATH_MAX], n[32];
	tu_helper_path(prog, sizeof prog, "crashee");
	snprintf(n, sizeof n, "%d", N_PAIRS);
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		setenv("SG_TRACE_DIR", f->trace, 1);
		setenv("SG_TRACE_BUFFER", "64K", 1);
		if (ignore_sig)
			signal(ignore_sig, SIG_IGN);
		if (fsize_limit) {
			struct rlimit rl = { (rlim_t)fsize_limit, (rlim_t)fsize_limit };
			signal(SIGXFSZ, SIG_IGN);
			setrlimit(RLIMIT_FSIZE, &rl);
		}
		execl(prog, prog, mode, n, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	*out_fd = p[0];
	return pid;
}

static pid_t spawn(struct tu_fixture *f, const char *mode, int *out_fd)
{
	return spawn_ex(f, mode, out_fd, 0, 0);
}

static int run_to_death(struct tu_fixture *f, const char *mode)
{
	int fd, status;
	pid_t pid = spawn(f, mode, &fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(fd);
	return status;
}

static size_t lock_events(struct sgr_trace *t, size_t pos)
{
	struct sgr_event *e;
	size_t n = tu_events(t, pos, 1, &e);
	size_t c = tu_count(e, n, SG_EV_LOCK_REQUEST) + tu_count(e, n, SG_EV_LOCK_ACQUIRED) +
		   tu_count(e, n, SG_EV_LOCK_RELEASE);
	free(e);
	return c;
}


/* Every lock event of both threads is in the trace, and both streams have trailers. */
static void check_fully_flushed(struct tu_fixture *f, int status, int sig)
{
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), sig);
	struct sgr_trace *t = tu_open_ok(f->trace);
	assert_int_equal(sgr_n_threads(t), 2);
	for (size_t pos = 0; pos < 2; pos++) {
		assert_int_equal(lock_events(t, pos), 3 * N_PAIRS);
		assert_true(sgr_thread(t, pos)->complete);
		assert_true(sgr_thread(t, pos)->n_chunks > 1);
	}
	assert_int_equal(sgr_verify(t), 0);
	assert_int_equal(sgr_n_problems(t), 0);
	sgr_close(t);
}

static void test_segfault_flushes_everything(void **state)
{
	struct tu_fixture *f = *state;
	check_fully_flushed(f, run_to_death(f, "segv"), SIGSEGV);
}

static void test_sigterm_flushes_everything(void **state)
{
	struct tu_fixture *f = *state;
	check_fully_flushed(f, run_to_death(f, "term"), SIGTERM);
}

static void test_sigbus_flushes_everything(void **state)
{
	struct tu_fixture *f = *state;
	check_fully_flushed(f, run_to_death(f, "bus"), SIGBUS);
}

static void test_sigint_flushes_everything(void **state)
{
	struct tu_fixture *f = *state;
	check_fully_flushed(f, run_to_death(f, "int"), SIGINT);
}

/* The original disposition stays: a program started with SIGINT ignored survives its SIGINT,
 * and its trace is an ordinary complete one. */
static void test_ignored_signal_stays_ignored(void **state)
{
	struct tu_fixture *f = *state;
	int fd, status;
	pid_t pid = spawn_ex(f, "int", &fd, 0, SIGINT);
	char buf[32] = "";
	FILE *in = fdopen(fd, "r");
	assert_non_null(fgets(buf, sizeof buf, in));
	fclose(in);
	assert_string_equal(buf, "survived\n");
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct sgr_trace *t = tu_open_ok(f->trace);
	for (size_t pos = 0; pos < 2; pos++) {
		assert_int_equal(lock_events(t, pos), 3 * N_PAIRS);
		assert_true(sgr_thread(t, pos)->complete);
	}
	assert_int_equal(sgr_n_problems(t), 0);
	sgr_close(t);
}

static void test_abort_flushes_everything(void **state)
{
	struct tu_fixture *f = *state;
	check_fully_flushed(f, run_to_death(f, "abort"), SIGABRT);
}

static void test_sigkill_reads_to_last_flushed_chunk(void **state)
{
	struct tu_fixture *f = *state;
	int fd, status;
	pid_t pid = spawn(f, "kill", &fd);
	char buf[16] = "";
	FILE *in = fdopen(fd, "r");
	assert_non_null(fgets(buf, sizeof buf, in));
	assert_string_equal(buf, "ready\n");
	/* Thread 0 flushed everything it recorded before "ready", then recorded N_PAIRS more
	 * pairs that sit in its buffer; the worker's last events are in its buffer too. */
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	fclose(in);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	struct sgr_trace *t = tu_open_ok(f->trace);
	assert_int_equal(sgr_n_threads(t), 2);
	const struct sgr_thread *t0 = sgr_thread(t, 0);
	assert_false(t0->complete);
	size_t n0 = lock_events(t, 0);
	/* Every event recorded before the kill: the whole chunks written, and what was still in
	 * each thread's buffer, read back from its slot of the open buffer file threads.sgo. Thread 0
	 * records its second batch after "ready", racing with the kill. */
	assert_true(n0 >= 3 * N_PAIRS);
	assert_true(n0 <= 6 * N_PAIRS);
	size_t n1 = lock_events(t, 1);
	assert_int_equal(n1, 3 * N_PAIRS);   /* all of it, though its tail was never flushed */
	assert_int_equal(sgr_verify(t), 0);
	assert_false(sgr_thread(t, 1)->complete);
	int saw_no_trailer = 0;
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		saw_no_trailer += strstr(sgr_problem(t, i), "no trailer") != NULL;
	assert_int_equal(saw_no_trailer, 3);   /* the two threads and the sched stream */
	/* The definition of each mutex made it, before any of its events was flushed. */
	assert_true(sgr_n_objects(t) >= 2);
	sgr_close(t);
}

static void test_flipped_byte_in_recorded_trace(void **state)
{
	struct tu_fixture *f = *state;
	int status = run_to_death(f, "ok");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct sgr_trace *t = tu_open_ok(f->trace);
	assert_true(sgr_thread(t, 0)->n_chunks >= 3);
	uint64_t total = sgr_thread(t, 0)->n_recs;
	sgr_close(t);
	/* Flip a byte in the middle of chunk 1 of thread 0: find chunk 1 by its header. */
	char path[PATH_MAX + 32];
	char proc[PATH_MAX];
	tu_proc_dir(f->trace, proc, sizeof proc);
	snprintf(path, sizeof path, "%s/thread.0.sgs", proc);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	struct sgf_chunk_header h0, h1;
	assert_int_equal(pread(fd, &h0, sizeof h0, 64), (ssize_t)sizeof h0);
	assert_int_equal(h0.flags, SGF_CHUNK_COMPACT);   /* libsgtrace writes compact chunks */
	off_t chunk1 = 64 + 64 + (off_t)sgf_chunk_payload_len(&h0);
	assert_int_equal(pread(fd, &h1, sizeof h1, chunk1), (ssize_t)sizeof h1);
	uint32_t n1 = h1.n_recs;
	unsigned char b;
	off_t victim = chunk1 + 64 + (off_t)sgf_chunk_payload_len(&h1) / 2;
	assert_int_equal(pread(fd, &b, 1, victim), 1);
	b ^= 0x80;
	assert_int_equal(pwrite(fd, &b, 1, victim), 1);
	close(fd);
	t = tu_open_ok(f->trace);
	struct sgr_cursor c;
	struct sgr_span sp;
	uint64_t n = 0;
	sgr_cursor_init(&c, t, 0);
	while (sgr_cursor_next(&c, &sp)) {
		assert_int_not_equal(sp.seq, 1);
		n += sp.n;
	}
	assert_int_equal(n + n1, total);
	assert_int_equal(sgr_thread(t, 0)->n_damaged, 1);
	int found = 0;
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		found += !strcmp(sgr_problem(t, i), "thread.0.sgs: chunk 1: bad checksum");
	assert_int_equal(found, 1);
	assert_int_equal(lock_events(t, 1), 3 * N_PAIRS);
	sgr_close(t);
}

/* A stream that cannot be written (here: the file size limit, as with a full disk) stops, the
 * program runs on unharmed, and every event that did not reach the file is counted: per
 * thread, readable records + lost == the records of the same run written in full. */
static void test_lost_events_are_counted(void **state)
{
	struct tu_fixture *f = *state;
	uint64_t full[2];
	int status = run_to_death(f, "ok");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	struct sgr_trace *t = tu_open_ok(f->trace);
	assert_int_equal(sgr_n_threads(t), 2);
	for (size_t pos = 0; pos < 2; pos++) {
		assert_int_equal(sgr_thread(t, pos)->lost, 0);
		full[pos] = sgr_thread(t, pos)->n_recs;
	}
	sgr_close(t);
	tu_rm_rf(f->trace);

	int fd;
	/* chunks of 16-byte records: a compact stream of this run stays under the limit */
	setenv("SG_TRACE_COMPACT", "0", 1);
	pid_t pid = spawn_ex(f, "ok", &fd, 256 << 10, 0);
	unsetenv("SG_TRACE_COMPACT");
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(fd);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	t = tu_open_ok(f->trace);
	assert_int_equal(sgr_n_threads(t), 2);
	for (size_t pos = 0; pos < 2; pos++) {
		const struct sgr_thread *th = sgr_thread(t, pos);
		assert_true(th->lost > 0);
		assert_false(th->complete);
		assert_int_equal(th->n_recs + th->lost, full[pos]);
	}
	assert_int_equal(sgr_verify(t), 0);
	sgr_close(t);
}

#define CASE(fn) cmocka_unit_test_setup_teardown(fn, setup, tu_fixture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE(test_segfault_flushes_everything),
		CASE(test_sigterm_flushes_everything),
		CASE(test_abort_flushes_everything),
		CASE(test_sigbus_flushes_everything),
		CASE(test_sigint_flushes_everything),
		CASE(test_ignored_signal_stays_ignored),
		CASE(test_sigkill_reads_to_last_flushed_chunk),
		CASE(test_flipped_byte_in_recorded_trace),
		CASE(test_lost_events_are_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
