/*
 * test_store.c — the experiment store library on a real SQLite file: a run recorded in two
 * steps, found again by its identity, stale "running" rows dropped, the writer lock, points
 * replaced by (model, method, N), and metrics.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "store.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/sg-test-store.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void run_lifecycle(void **state)
{
	struct store *st, *other;
	struct store_run r, found;
	(void)state;
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	/* one writer at a time */
	assert_int_equal(store_open(dir, STORE_WRITE, &other), -EBUSY);
	memset(&r, 0, sizeof r);
	snprintf(r.kind, sizeof r.kind, "par");
	r.n_threads = 2;
	snprintf(r.sizes, sizeof r.sizes, "balls=10000 steps=100");
	r.work = 1e6;
	r.rep = 0;
	snprintf(r.argv, sizeof r.argv, "./billiards --balls 10000");
	assert_int_equal(store_run_begin(st, &r), 0);
	assert_true(r.id > 0);
	/* a running run is not a finished one */
	assert_int_equal(store_run_find(st, "par", 2, r.sizes, 0, &found), -ENOENT);
	snprintf(r.status, sizeof r.status, "ok");
	r.t_wall_s = 1.25;
	r.t_para_s = 1.2;
	snprintf(r.t_para_source, sizeof r.t_para_source, "region");
	const char *names[] = { "balls", "steps" };
	double values[] = { 10000, 100 };
	struct store_counter c[] = {
		{ 0, "task-clock", "ns", 1.1e9, NULL },
		{ 0, "cycles", "events", 0, "no hardware PMU (ENOENT)" },
	};
	assert_int_equal(store_run_finish(st, &r, 2, names, values, 2, c), 0);
	assert_int_equal(store_run_find(st, "par", 2, r.sizes, 0, &found), 0);
	assert_int_equal(found.id, r.id);
	assert_string_equal(found.status, "ok");
	assert_true(found.t_para_s == 1.2);
	assert_string_equal(found.t_para_source, "region");
	assert_int_equal(store_run_find(st, "par", 2, r.sizes, 1, &found), -ENOENT);

	/* a runner killed mid-run leaves a running row: dropped next time */
	struct store_run r2 = r;
	r2.rep = 1;
	assert_int_equal(store_run_begin(st, &r2), 0);
	assert_int_equal(store_run_set_pid(st, r2.id, 1234, 5678), 0);
	struct store_run_ref *refs;
	assert_int_equal(store_runs_select(st, STORE_DROP_STALE, &refs), 1);
	assert_int_equal(refs[0].id, r2.id);
	assert_int_equal(refs[0].pid, 1234);
	assert_int_equal(refs[0].pid_start, 5678);
	free(refs);
	assert_int_equal(store_runs_drop(st, STORE_DROP_STALE), 1);
	assert_int_equal(store_runs_drop(st, STORE_DROP_STALE), 0);
	/* defect 1: a dropped id is never given again (its directory may remain) */
	struct store_run r3 = r;
	r3.rep = 1;
	assert_int_equal(store_run_begin(st, &r3), 0);
	assert_true(r3.id > r2.id);
	assert_int_equal(store_run_id_floor(st, 300), 0);
	assert_int_equal(store_run_delete(st, r3.id), 0);
	assert_int_equal(store_run_begin(st, &r3), 0);
	assert_int_equal(r3.id, 301);
	assert_int_equal(store_run_delete(st, r3.id), 0);

	/* issue 21: a plain run takes its id from the runs' sequence, is found by (N, sizes,
	 * repetition), and is listed for --retry-failed only when it failed */
	struct store_run pl, got;
	int64_t *ids;
	memset(&pl, 0, sizeof pl);
	pl.n_threads = 2;
	snprintf(pl.sizes, sizeof pl.sizes, "balls=10000 steps=100");
	snprintf(pl.status, sizeof pl.status, "ok");
	pl.t_wall_s = 0.9;
	assert_int_equal(store_plain_next_id(st, &pl.id), 0);
	assert_int_equal(pl.id, 302);
	assert_int_equal(store_plain_put(st, &pl), 0);
	assert_int_equal(store_run_begin(st, &r3), 0);
	assert_int_equal(r3.id, 303);   /* never a plain run's id */
	assert_int_equal(store_run_delete(st, r3.id), 0);
	assert_int_equal(store_plain_find(st, 2, pl.sizes, 0, &got), 0);
	assert_int_equal(got.id, 302);
	assert_true(got.t_wall_s == 0.9);
	assert_string_equal(got.status, "ok");
	assert_int_equal(store_plain_find(st, 2, pl.sizes, 1, &got), -ENOENT);
	pl.rep = 1;
	snprintf(pl.status, sizeof pl.status, "failed");
	snprintf(pl.reason, sizeof pl.reason, "exit status 3");
	assert_int_equal(store_plain_next_id(st, &pl.id), 0);
	assert_int_equal(store_plain_put(st, &pl), 0);
	assert_int_equal(store_plain_select(st, 0, &ids), 1);
	assert_int_equal(ids[0], pl.id);
	free(ids);
	assert_int_equal(store_plain_select(st, 1, &ids), 2);
	free(ids);
	assert_int_equal(store_plain_delete(st, pl.id), 0);
	assert_int_equal(store_plain_select(st, 1, &ids), 1);
	free(ids);

	/* counters: the unavailable one has no value, only its reason */
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT value IS NULL, unavailable FROM "
					    "run_counters WHERE name = 'cycles'", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
	assert_string_equal((const char *)sqlite3_column_text(s, 1), "no hardware PMU (ENOENT)");
	sqlite3_finalize(s);

	/* points are replaced, not duplicated */
	struct store_point p;
	memset(&p, 0, sizeof p);
	snprintf(p.model, sizeof p.model, "time-bound");
	snprintf(p.method, sizeof p.method, "both");
	p.n_threads = 2;
	p.t_para_s = 2.01;
	p.t_seq_s = NAN;
	p.efficiency = NAN;
	const char *roles[] = { "probe" };
	assert_int_equal(store_point_put(st, &p, 1, &r.id, roles), 0);
	assert_int_equal(store_point_put(st, &p, 1, &r.id, roles), 0);
	assert_int_equal(store_metric_put(st, 0, p.id, 0, "latency_s", 0.3, "s", NULL), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(st), "SELECT count(*), (SELECT count(*) FROM "
					    "point_runs), (SELECT t_seq_s IS NULL FROM points) FROM points",
					    -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
	assert_int_equal(sqlite3_column_int(s, 1), 1);
	assert_int_equal(sqlite3_column_int(s, 2), 1);
	sqlite3_finalize(s);
	store_close(st);

	/* readers open it read-only, and see WAL mode */
	char v[16];
	assert_int_equal(store_open(dir, STORE_READ, &st), 0);
	assert_int_equal(store_meta_get(st, "schema_version", v, sizeof v), 0);
	assert_string_equal(v, "4");
	assert_int_equal(store_meta_get(st, "nope", v, sizeof v), -ENOENT);
	store_close(st);
	assert_int_equal(store_open("/nonexistent/sg", STORE_READ, &st), -ENOENT);
}

static long long gen_of(struct store *st)
{
	long long g = -1;
	assert_int_equal(store_generation(st, &g), 0);
	return g;
}

/* Issue 15: the generation moves with runs and points, not with the analyzer's metrics; a
 * reader marks the running run of a runner that let go of the lock "interrupted", never while
 * the runner holds it; the next runner drops it to make it again. */
static void generation_and_interrupted(void **state)
{
	struct store *st, *rd;
	struct store_run r, found;
	long long g;
	char why[512];
	(void)state;
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	g = gen_of(st);
	memset(&r, 0, sizeof r);
	snprintf(r.kind, sizeof r.kind, "par");
	r.n_threads = 1;
	snprintf(r.sizes, sizeof r.sizes, "n=1");
	assert_int_equal(store_run_begin(st, &r), 0);
	assert_true(gen_of(st) > g);
	g = gen_of(st);
	assert_int_equal(store_run_set_pid(st, r.id, 4321, 1), 0);
	assert_int_equal(store_metric_put(st, r.id, 0, 0, "T_para", 1.0, "s", NULL), 0);
	assert_int_equal(gen_of(st), g);            /* pid and metrics: nothing a reader shows */
	snprintf(r.status, sizeof r.status, "ok");
	assert_int_equal(store_run_finish(st, &r, 0, NULL, NULL, 0, NULL), 0);
	assert_true(gen_of(st) > g);

	struct store_run r2 = r;
	r2.rep = 1;
	assert_int_equal(store_run_begin(st, &r2), 0);
	/* a reader while the runner holds the lock: the run is in progress */
	assert_int_equal(store_open(dir, STORE_UPDATE, &rd), 0);
	assert_int_equal(store_runs_interrupt(rd), 0);
	store_close(st);                             /* the runner is gone */
	g = gen_of(rd);
	assert_int_equal(store_runs_interrupt(rd), 1);
	assert_true(gen_of(rd) > g);
	assert_int_equal(store_runs_interrupt(rd), 0);
	sqlite3_stmt *q;
	assert_int_equal(sqlite3_prepare_v2(store_db(rd), "SELECT status, reason FROM runs WHERE "
					    "id = ?", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, r2.id);
	assert_int_equal(sqlite3_step(q), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(q, 0), "interrupted");
	snprintf(why, sizeof why, "the runner (pid %d on ", (int)getpid());
	assert_non_null(strstr((const char *)sqlite3_column_text(q, 1), why));
	sqlite3_finalize(q);
	store_close(rd);
	/* not a finished run: the next runner drops it and makes it again */
	assert_int_equal(store_open(dir, STORE_WRITE, &st), 0);
	assert_int_equal(store_run_find(st, "par", 1, "n=1", 1, &found), -ENOENT);
	assert_int_equal(store_runs_drop(st, STORE_DROP_STALE), 1);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(run_lifecycle, setup, teardown),
		cmocka_unit_test_setup_teardown(generation_and_interrupted, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
