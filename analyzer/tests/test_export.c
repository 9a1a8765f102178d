/*
 * test_export.c — unit tests of the exporters' shared parts on synthetic traces written with
 * sgtrace_write.h: the walk's time merge and its repair of bad nesting (exact callback
 * sequence), the sched stream laid over a thread (off-CPU spans cut and continued around the
 * thread's own events, dropped outside them, samples raised to its first event), the hash map,
 * finding the trace of a RUN (also a trace root), and both exporters' handling of a repaired
 * trace and of an existing OTF2 archive. test-export.sh checks the files themselves.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../export_int.h"
#include "sgtrace_write.h"

static char tmpdir[] = "/tmp/test_export.XXXXXX";

/* Thread 0 nests badly and ends with a function open; thread 1 interleaves in time (a tie at
 * t=30 goes to the lower thread position first). */
static void write_bad_nesting(const char *dir)
{
	struct sgw_trace *w;
	struct sgw_stream *s0, *s1;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_function(w, 1, "f", "f.c", 1), 0);
	assert_int_equal(sgw_function(w, 2, "g", "g.c", 2), 0);
	assert_int_equal(sgw_region(w, 1, "r"), 0);
	assert_int_equal(sgw_object(w, 2, SG_OBJ_MUTEX, 0x10), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 0, &s0), 0);
	assert_int_equal(sgw_thread(w, 1, 0, 0, &s1), 0);
	assert_int_equal(sgw_event(s0, 10, SG_EV_FUNC_ENTER, 1, 0), 0);
	assert_int_equal(sgw_event(s0, 20, SG_EV_REGION_BEGIN, 1, 0), 0);
	assert_int_equal(sgw_event(s0, 30, SG_EV_FUNC_EXIT, 1, 0), 0);   /* closes r first */
	assert_int_equal(sgw_event(s0, 40, SG_EV_REGION_END, 1, 0), 0);  /* dropped */
	assert_int_equal(sgw_event(s0, 50, SG_EV_LOCK_ACQUIRED, 2, SG_LOCK_MUTEX), 0); /* point */
	assert_int_equal(sgw_event(s0, 60, SG_EV_FUNC_ENTER, 2, 0), 0);  /* closed at 60 */
	assert_int_equal(sgw_event(s1, 15, SG_EV_FUNC_ENTER, 2, 0), 0);
	assert_int_equal(sgw_event(s1, 30, SG_EV_FUNC_EXIT, 2, 0), 0);
	assert_int_equal(sgw_event(s1, 35, SG_EV_LOCK_RELEASE, 2, SG_LOCK_MUTEX), 0);
	assert_int_equal(sgw_close(w, 0), 0);
}

struct log {
	char text[1024];
};

static void add(struct log *l, const char *what, size_t pos, const struct sgr_event *ev)
{
	size_t n = strlen(l->text);
	snprintf(l->text + n, sizeof l->text - n, "%s%zu:%lld:%s ", what, pos,
		 (long long)ev->t_ns, sg_ev_kind_name(ev->kind));
}

static int log_begin(void *ctx, size_t pos, const struct sgr_event *ev)
{
	add(ctx, "B", pos, ev);
	return 0;
}

static int log_end(void *ctx, size_t pos, const struct export_slice *s,
		   const struct sgr_event *ev, int repaired)
{
	add(ctx, repaired ? "R" : "E", pos, ev);
	return 0;
}

static int log_point(void *ctx, size_t pos, const struct sgr_event *ev)
{
	add(ctx, "P", pos, ev);
	return 0;
}

static void open_trace(const char *dir, struct sgr_trace **t)
{
	char err[256];
	assert_int_equal(sgr_open(dir, 0, t, err, sizeof err), 0);
}

static void test_walk_merge_and_repair(void **state)
{
	static const struct export_ops ops = { log_begin, log_end, log_point };
	char dir[512];
	struct sgr_trace *t;
	struct export_stats st;
	struct log l = { "" };
	snprintf(dir, sizeof dir, "%s/bad", tmpdir);
	write_bad_nesting(dir);
	open_trace(dir, &t);
	assert_int_equal(export_walk(t, &ops, &l, 0, &st), 0);
	assert_string_equal(l.text,
		"B0:10:func_enter B1:15:func_enter B0:20:region_begin R0:30:region_end "
		"E0:30:func_exit E1:30:func_exit P1:35:lock_release P0:50:lock_acquired "
		"B0:60:func_enter R0:60:func_exit ");
	assert_int_equal(st.n_read, 9);
	assert_int_equal(st.n_repaired, 2);
	assert_int_equal(st.n_dropped, 1);
	assert_int_equal(st.n_kind[SG_EV_FUNC_ENTER], 3);
	assert_int_equal(st.t_first_ns, 10);
	assert_int_equal(st.t_last_ns, 60);
	sgr_close(t);
}

static int stop_at_third(void *ctx, size_t pos, const struct sgr_event *ev)
{
	return ++*(int *)ctx == 3 ? -ECANCELED : 0;
}

static int end_ok(void *ctx, size_t pos, const struct export_slice *s,
		  const struct sgr_event *ev, int repaired)
{
	return 0;
}

/* One thread (tid 100) in a function with two semaphore waits, and its sched stream: a sample
 * before its first event; a runnable span inside the function; a blocked span 32-58 over the
 * end of the first wait and the start of the second (34, 35: a clock skew), which becomes its
 * longest stretch free of them, 35-58; a switch-out at 63 that is never switched in (cut at the
 * thread's next event, 70; a second switch-out at 75 is ignored); a span before the thread's
 * first event (dropped); and a thread that is not in the trace (tid 999). */
static void write_sched_trace(const char *dir)
{
	struct sgw_trace *w;
	struct sgw_stream *s, *k;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_function(w, 1, "f", "f.c", 1), 0);
	assert_int_equal(sgw_object(w, 2, SG_OBJ_SEM, 0x20), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 100, &s), 0);
	assert_int_equal(sgw_event(s, 10, SG_EV_FUNC_ENTER, 1, 0), 0);
	assert_int_equal(sgw_event(s, 30, SG_EV_SEM_WAIT_BEGIN, 2, 0), 0);
	assert_int_equal(sgw_event(s, 34, SG_EV_SEM_WAIT_END, 2, 0), 0);
	assert_int_equal(sgw_event(s, 35, SG_EV_SEM_WAIT_BEGIN, 2, 0), 0);
	assert_int_equal(sgw_event(s, 60, SG_EV_SEM_WAIT_END, 2, 0), 0);
	assert_int_equal(sgw_event(s, 70, SG_EV_FUNC_EXIT, 1, 0), 0);
	assert_int_equal(sgw_sched(w, 2, "test", 0, &k), 0);
	assert_int_equal(sgw_value(k, 5, SG_EV_TASK_CPU, 100, 77), 0);
	assert_int_equal(sgw_event(k, 32, SG_EV_SWITCH_OUT, 100, 1), 0);
	assert_int_equal(sgw_event(k, 58, SG_EV_SWITCH_IN, 100, 0), 0);
	assert_int_equal(sgw_event(k, 20, SG_EV_SWITCH_OUT, 100, 1 | SG_SWITCH_PREEMPTED), 0);
	assert_int_equal(sgw_event(k, 25, SG_EV_SWITCH_IN, 100, 1), 0);
	assert_int_equal(sgw_event(k, 63, SG_EV_SWITCH_OUT, 100, 0), 0);
	assert_int_equal(sgw_event(k, 75, SG_EV_SWITCH_OUT, 100, 0), 0);
	assert_int_equal(sgw_event(k, 3, SG_EV_SWITCH_OUT, 100, 0), 0);
	assert_int_equal(sgw_event(k, 4, SG_EV_SWITCH_IN, 100, 0), 0);
	assert_int_equal(sgw_event(k, 33, SG_EV_SWITCH_OUT, 999, 0), 0);
	assert_int_equal(sgw_close(w, 0), 0);
}

static void test_walk_sched(void **state)
{
	static const struct export_ops ops = { log_begin, log_end, log_point };
	char dir[512];
	struct sgr_trace *t;
	struct export_stats st;
	struct log l = { "" };
	snprintf(dir, sizeof dir, "%s/sched", tmpdir);
	write_sched_trace(dir);
	open_trace(dir, &t);
	assert_int_equal(export_walk(t, &ops, &l, 0, &st), 0);
	assert_string_equal(l.text,
		"B0:10:func_enter P0:10:task_cpu B0:20:switch_out E0:25:switch_in "
		"B0:30:sem_wait_begin E0:34:sem_wait_end B0:35:sem_wait_begin B0:35:switch_out "
		"E0:58:switch_in E0:60:sem_wait_end B0:63:switch_out E0:70:switch_in "
		"E0:70:func_exit ");
	assert_int_equal(st.n_read, 6 + 10);
	assert_int_equal(st.n_sched_read, 10);
	assert_int_equal(st.n_off_cpu, 3);
	assert_int_equal(st.n_off_fitted, 1);
	assert_int_equal(st.n_off_cut, 1);
	assert_int_equal(st.n_off_dropped, 1);
	assert_int_equal(st.n_sched_foreign, 1);
	assert_int_equal(st.n_repaired, 0);
	assert_int_equal(st.t_first_ns, 10);
	assert_int_equal(st.t_last_ns, 70);
	memset(&l, 0, sizeof l);
	assert_int_equal(export_walk(t, &ops, &l, EXPORT_NO_SCHED, &st), 0);
	assert_string_equal(l.text, "B0:10:func_enter B0:30:sem_wait_begin E0:34:sem_wait_end "
			    "B0:35:sem_wait_begin E0:60:sem_wait_end E0:70:func_exit ");
	assert_int_equal(st.n_read, 6);
	sgr_close(t);
}

/* Many events of the thread inside spans: more than the read-ahead takes (a lost switch-in:
 * cut at the first), and a few (fitted); every event still comes once, in order. */
struct order {
	uint32_t next_id;
	int bad, n_begin, n_end;
};

static int order_point(void *ctx, size_t pos, const struct sgr_event *ev)
{
	struct order *o = ctx;
	if (ev->kind == SG_EV_SEM_POST)
		o->bad |= ev->id != o->next_id++ || ev->t_ns != (int64_t)ev->id;
	return 0;
}

static int order_begin(void *ctx, size_t pos, const struct sgr_event *ev)
{
	((struct order *)ctx)->n_begin++;
	return 0;
}

static int order_end(void *ctx, size_t pos, const struct export_slice *s,
		     const struct sgr_event *ev, int repaired)
{
	((struct order *)ctx)->n_end++;
	return 0;
}

static void test_walk_sched_read_ahead(void **state)
{
	static const struct export_ops ops = { order_begin, order_end, order_point };
	char dir[512];
	struct sgr_trace *t;
	struct sgw_trace *w;
	struct sgw_stream *s, *k;
	struct export_stats st;
	struct order o = { 10, 0, 0, 0 };
	snprintf(dir, sizeof dir, "%s/ahead", tmpdir);
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	assert_int_equal(sgw_thread(w, 0, SG_NO_ID, 100, &s), 0);
	for (uint32_t i = 10; i < 400; i++)
		assert_int_equal(sgw_event(s, i, SG_EV_SEM_POST, i, 0), 0);
	assert_int_equal(sgw_sched(w, 1, "test", 0, &k), 0);
	assert_int_equal(sgw_event(k, 15, SG_EV_SWITCH_OUT, 100, 0), 0);   /* 84 events inside */
	assert_int_equal(sgw_event(k, 100, SG_EV_SWITCH_IN, 100, 0), 0);
	assert_int_equal(sgw_event(k, 150, SG_EV_SWITCH_OUT, 100, 0), 0);  /* 151..159 inside */
	assert_int_equal(sgw_event(k, 160, SG_EV_SWITCH_IN, 100, 0), 0);
	assert_int_equal(sgw_event(k, 200, SG_EV_SWITCH_OUT, 100, 0), 0);  /* 201..263 inside */
	assert_int_equal(sgw_event(k, 264, SG_EV_SWITCH_IN, 100, 0), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	open_trace(dir, &t);
	assert_int_equal(export_walk(t, &ops, &o, 0, &st), 0);
	assert_int_equal(o.bad, 0);
	assert_int_equal(o.next_id, 400);
	assert_int_equal(o.n_begin, 3);
	assert_int_equal(o.n_end, 3);
	assert_int_equal(st.n_off_cut, 1);
	assert_int_equal(st.n_off_fitted, 2);
	sgr_close(t);
}

static void test_walk_stops_on_error(void **state)
{
	static const struct export_ops ops = { stop_at_third, end_ok, stop_at_third };
	char dir[512];
	struct sgr_trace *t;
	struct export_stats st;
	int n = 0;
	snprintf(dir, sizeof dir, "%s/bad", tmpdir);
	open_trace(dir, &t);
	assert_int_equal(export_walk(t, &ops, &n, 0, &st), -ECANCELED);
	assert_int_equal(n, 3);
	sgr_close(t);
}

static void test_map(void **state)
{
	struct export_map m = { 0 };
	int created;
	assert_null(export_map_find(&m, 7));
	for (uint32_t i = 0; i < 20000; i++) {
		uint32_t *v = export_map_slot(&m, export_key(i % 3, i), i * 2, &created);
		assert_non_null(v);
		assert_int_equal(created, 1);
	}
	assert_int_equal(m.n, 20000);
	for (uint32_t i = 0; i < 20000; i++) {
		uint32_t *v = export_map_slot(&m, export_key(i % 3, i), 0, &created);
		assert_int_equal(created, 0);
		assert_int_equal(*v, i * 2);
	}
	assert_null(export_map_find(&m, export_key(1, 0)));
	(*export_map_find(&m, export_key(2, 5)))++;
	assert_int_equal(*export_map_find(&m, export_key(2, 5)), 11);
	export_map_free(&m);
	assert_null(export_map_find(&m, export_key(2, 5)));
}

static void test_locate(void **state)
{
	char run[512], dir[600], err[700], file[600];
	snprintf(run, sizeof run, "%s/run", tmpdir);
	assert_int_equal(mkdir(run, 0777), 0);
	assert_int_equal(export_locate(run, dir, sizeof dir, err, sizeof err), -ENODATA);
	assert_non_null(strstr(err, "no trace here"));
	snprintf(file, sizeof file, "%s/trace", run);
	write_bad_nesting(file);
	assert_int_equal(export_locate(run, dir, sizeof dir, err, sizeof err), 0);
	assert_string_equal(dir, file);
	assert_int_equal(export_locate(file, dir, sizeof dir, err, sizeof err), 0);
	assert_string_equal(dir, file);
	snprintf(file, sizeof file, "%s/missing", tmpdir);
	assert_int_equal(export_locate(file, dir, sizeof dir, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "No such file or directory"));
	snprintf(file, sizeof file, "%s/trace/defs.sgd", run);
	assert_int_equal(export_locate(file, dir, sizeof dir, err, sizeof err), -ENODATA);
	assert_non_null(strstr(err, "not a directory"));
	assert_int_equal(export_locate(run, dir, 8, err, sizeof err), -ENAMETOOLONG);
	/* a trace root (format 1.2): proc.<pid>/ directories, no defs.sgd of its own */
	snprintf(run, sizeof run, "%s/root", tmpdir);
	snprintf(file, sizeof file, "%s/proc.77", run);
	write_bad_nesting(file);
	assert_int_equal(export_locate(run, dir, sizeof dir, err, sizeof err), 0);
	assert_string_equal(dir, run);
	snprintf(run, sizeof run, "%s/run2", tmpdir);
	snprintf(file, sizeof file, "%s/trace/proc.78", run);
	write_bad_nesting(file);
	snprintf(file, sizeof file, "%s/trace", run);
	assert_int_equal(export_locate(run, dir, sizeof dir, err, sizeof err), 0);
	assert_string_equal(dir, file);
}

static void test_chrome_repaired(void **state)
{
	char dir[512], *buf = NULL, err[256];
	size_t len = 0;
	struct sgr_trace *t;
	struct export_stats st;
	snprintf(dir, sizeof dir, "%s/bad", tmpdir);
	open_trace(dir, &t);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(export_chrome(t, f, "bad", 0, &st, err, sizeof err), 0);
	fclose(f);
	assert_int_equal(st.n_written, 10);  /* 9 read, one end dropped, two ends made up */
	assert_non_null(strstr(buf, "{\"ph\":\"E\",\"pid\":"));
	assert_non_null(strstr(buf, "\"ts\":0.030,\"cat\":\"region\",\"args\":{\"repaired\":true}}"));
	assert_non_null(strstr(buf, "\"repaired\":2,\"dropped\":1"));
	free(buf);
	sgr_close(t);
}

static void test_otf2_no_overwrite(void **state)
{
	char dir[512], out[600], err[1024];
	struct sgr_trace *t;
	struct export_stats st;
	struct stat sb;
	snprintf(dir, sizeof dir, "%s/bad", tmpdir);
	snprintf(out, sizeof out, "%s/otf2", tmpdir);
	open_trace(dir, &t);
	assert_int_equal(export_otf2(t, out, "bad", 0, &st, err, sizeof err), 0);
	assert_int_equal(st.n_repaired, 2);
	snprintf(out, sizeof out, "%s/otf2/traces.otf2", tmpdir);
	assert_int_equal(stat(out, &sb), 0);
	snprintf(out, sizeof out, "%s/otf2", tmpdir);
	assert_int_equal(export_otf2(t, out, "bad", 0, &st, err, sizeof err), -EEXIST);
	assert_non_null(strstr(err, "traces.otf2: exists"));
	sgr_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_merge_and_repair),
		cmocka_unit_test(test_walk_sched),
		cmocka_unit_test(test_walk_sched_read_ahead),
		cmocka_unit_test(test_walk_stops_on_error),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_chrome_repaired),
		cmocka_unit_test(test_otf2_no_overwrite),
	};
	if (!mkdtemp(tmpdir))
		return 1;
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_export: could not remove %s\n", tmpdir);
	return rc;
}
