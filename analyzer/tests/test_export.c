/*
 * test_export.c — unit tests of the exporters' shared parts on synthetic traces written with
 * sgtrace_write.h: the walk's time merge and its repair of bad nesting (exact callback
 * sequence), the hash map, finding the trace of a RUN, and both exporters' handling of a
 * repaired trace and of an existing OTF2 archive. test-export.sh checks the files themselves.
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
	assert_int_equal(export_walk(t, &ops, &l, &st), 0);
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

static void test_walk_stops_on_error(void **state)
{
	static const struct export_ops ops = { stop_at_third, end_ok, stop_at_third };
	char dir[512];
	struct sgr_trace *t;
	struct export_stats st;
	int n = 0;
	snprintf(dir, sizeof dir, "%s/bad", tmpdir);
	open_trace(dir, &t);
	assert_int_equal(export_walk(t, &ops, &n, &st), -ECANCELED);
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
	assert_int_equal(export_chrome(t, f, "bad", &st, err, sizeof err), 0);
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
	assert_int_equal(export_otf2(t, out, "bad", &st, err, sizeof err), 0);
	assert_int_equal(st.n_repaired, 2);
	snprintf(out, sizeof out, "%s/otf2/traces.otf2", tmpdir);
	assert_int_equal(stat(out, &sb), 0);
	snprintf(out, sizeof out, "%s/otf2", tmpdir);
	assert_int_equal(export_otf2(t, out, "bad", &st, err, sizeof err), -EEXIST);
	assert_non_null(strstr(err, "traces.otf2: exists"));
	sgr_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_merge_and_repair),
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
