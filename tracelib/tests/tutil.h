/*
 * tutil.h — helpers shared by the tracelib tests: temporary directories, re-running a test
 * program with SG_TRACE_DIR set (libsgtrace reads its environment before main), and reading
 * the decoded events of one thread of a trace.
 */
#ifndef TUTIL_H
#define TUTIL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "sgtrace_read.h"

/* Creates a fresh directory /tmp/sgtest.<tag>.XXXXXX (or under $TMPDIR) into out. */
void tu_tmpdir(char *out, size_t len, const char *tag);

/* Removes a directory tree (like rm -rf). */
void tu_rm_rf(const char *path);

/* A cmocka fixture: a fresh temporary directory `dir` and the path `trace` = dir/trace (not
 * created) for a traced run to write into. */
struct tu_fixture {
	char dir[PATH_MAX - 64];
	char trace[PATH_MAX];
};
/* Setup (call from a one-line setup function that names the tag) and teardown: the fixture is
 * *state; the teardown removes the directory. Return 0. */
int tu_fixture_setup(void **state, const char *tag);
int tu_fixture_teardown(void **state);

/* sgr_open that fails the current cmocka test with the reader's message. */
struct sgr_trace *tu_open_ok(const char *dir);
/* The directory of the main process of the trace root `root` (where its thread.N.sgs are). */
void tu_proc_dir(const char *root, char *out, size_t len);
/* Is this problem of a trace read while its process still runs (thread 0's stream and the
 * sched stream have no trailer yet, their open buffers are read back)? */
int tu_problem_live(const char *problem);

/* When SG_TRACE_DIR is not set, sets it to a fresh temporary trace directory and re-executes
 * the program, so that libsgtrace's constructor sees it. Returns in the re-executed program.
 * own_trace: the trace this process has already begun (sg_trace_dir(), NULL: none), removed
 * before the exec. */
void tu_reexec_traced(int argc, char **argv, const char *tag, const char *own_trace);

/* In a program started by tu_reexec_traced(.., tag): removes the temporary directory that holds
 * its trace (call at the end of main; the trace stays when SG_TRACE_DIR was set by hand). */
void tu_reexec_cleanup(const char *tag);

/* Path of a helper program built beside the running test (e.g. "crashee"). */
void tu_helper_path(char *out, size_t len, const char *name);

/* The events of thread position `pos`, decoded; *out is malloc'ed (caller frees). Counter
 * samples from the counter code (non-user counters) are left out when `user_only`. */
size_t tu_events(struct sgr_trace *t, size_t pos, int user_only, struct sgr_event **out);

/* Position of the thread whose first region_begin names `region`, or -1. */
long tu_thread_with_region(struct sgr_trace *t, const char *region);

/* Number of events of kind k in evs[0..n). */
size_t tu_count(const struct sgr_event *evs, size_t n, enum sg_ev_kind k);

#endif /* TUTIL_H */
