/*
 * test_fork.c — a forked child records into its own trace directory <root>/proc.<pid>/ beside
 * its parent's, created on its first event: a complete trace whose thread 0 is the forking thread, whose
 * definitions include the parent's (same ids), and whose events never leak into the
 * parent's streams. A child that records nothing creates nothing.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sgtrace.h"
#include "sgtrace_read.h"
#include "tutil.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *child_thread(void *p)
{
	sg_pthread_mutex_lock(&m);
	sg_pthread_mutex_unlock(&m);
	return p;
}

static uint32_t object_id_of(struct sgr_trace *t, const void *addr)
{
	for (size_t i = 0; i < sgr_n_objects(t); i++)
		if (sgr_object_at(t, i)->address == (uint64_t)(uintptr_t)addr)
			return sgr_object_at(t, i)->id;
	return SG_NO_ID;
}

static void test_child_trace(void **state)
{
	(void)state;
	sg_pthread_mutex_lock(&m);
	sg_pthread_mutex_unlock(&m);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pthread_t th;
		sg_region_begin("child");
		sg_pthread_mutex_lock(&m);
		sg_pthread_mutex_unlock(&m);
		sg_pthread_create(&th, NULL, child_thread, NULL);
		sg_pthread_join(th, NULL);
		sg_region_end("child");
		exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* the child's own directory beside the parent's, under the trace root */
	char dir[PATH_MAX + 32], err[512];
	snprintf(dir, sizeof dir, "%s", sg_trace_dir());
	*strrchr(dir, '/') = '\0';
	snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/proc.%d", (int)pid);
	struct sgr_trace *t;
	if (sgr_open(dir, 0, &t, err, sizeof err) < 0)
		fail_msg("%s", err);
	const struct sgr_info *in = sgr_info(t);
	assert_int_equal(in->pid, (uint32_t)pid);
	assert_int_equal(in->parent_pid, (uint32_t)getpid());
	assert_int_equal(sgr_n_threads(t), 2);
	assert_int_equal(sgr_n_problems(t), 0);
	assert_true(sgr_thread(t, 0)->complete);
	assert_true(sgr_thread(t, 1)->complete);
	assert_int_equal(sgr_thread(t, 1)->parent, 0);
	struct sgr_event *e;
	size_t n = tu_events(t, 0, 1, &e);
	assert_int_equal(e[0].kind, SG_EV_THREAD_BEGIN);
	assert_int_equal(e[0].id, 0);
	assert_int_equal(e[1].kind, SG_EV_REGION_BEGIN);
	assert_string_equal(sgr_region(t, e[1].id)->name, "child");
	assert_int_equal(tu_count(e, n, SG_EV_LOCK_ACQUIRED), 1);
	assert_int_equal(e[n - 1].kind, SG_EV_THREAD_END);
	size_t k = 2;   /* the lock's request (a SYNC_SITE may come first: format 1.6) */
	while (k < n && e[k].kind != SG_EV_LOCK_REQUEST)
		k++;
	assert_true(k < n);
	uint32_t child_id = e[k].id;
	free(e);
	sgr_close(t);

	/* Same object id in parent and child: the child's definitions replay the parent's. */
	sg_trace_flush();
	if (sgr_open(sg_trace_dir(), 0, &t, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(object_id_of(t, &m), child_id);
	n = tu_events(t, 0, 1, &e);
	assert_int_equal(tu_count(e, n, SG_EV_REGION_BEGIN), 0);   /* nothing of the child's */
	assert_int_equal(tu_count(e, n, SG_EV_LOCK_ACQUIRED), 1);
	free(e);
	sgr_close(t);
}

static void test_silent_child_creates_nothing(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	char dir[PATH_MAX + 32];
	struct stat st;
	snprintf(dir, sizeof dir, "%s", sg_trace_dir());
	*strrchr(dir, '/') = '\0';
	snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "/proc.%d", (int)pid);
	assert_int_equal(stat(dir, &st), -1);
}

int main(int argc, char **argv)
{
	tu_reexec_traced(argc, argv, "fork", sg_trace_dir());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_child_trace),
		cmocka_unit_test(test_silent_child_creates_nothing),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_reexec_cleanup("fork");
	return rc;
}
