/*
 * test_wrappers.c — each sg_pthread_* wrapper and probe, in a traced process: its return value
 * is the one pthreads gives (trylock on a held lock is EBUSY, a timed wait in the past is
 * ETIMEDOUT, ...) and it records exactly the events sgtrace_format.h promises, with object
 * ids of the right kind, barrier episodes, thread indices and counter totals. Each case runs
 * in its own thread (created through sg_pthread_create), marked by a region with the case's
 * name, and reads its events back from this process's own trace.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sgtrace.h"
#include "sgtrace_read.h"
#include "tutil.h"

struct run {
	const char *name;
	void (*body)(void);
};

static void *runner(void *p)
{
	struct run *r = p;
	sg_region_begin(r->name);
	r->body();
	sg_region_end(r->name);
	return p;
}

/* Runs body in a new traced thread and returns the events it recorded between its region
 * marks (user counters only). *tp receives the open trace (caller closes). */
static size_t run_and_read(const char *name, void (*body)(void), struct sgr_trace **tp,
			   struct sgr_event **out, uint32_t *thread_index)
{
	struct run r = { name, body };
	pthread_t th;
	void *ret = NULL;
	assert_int_equal(sg_pthread_create(&th, NULL, runner, &r), 0);
	assert_int_equal(sg_pthread_join(th, &ret), 0);
	assert_ptr_equal(ret, &r);
	char err[512];
	assert_non_null(sg_trace_dir());
	if (sgr_open(sg_trace_dir(), 0, tp, err, sizeof err) < 0)
		fail_msg("%s", err);
	long pos = tu_thread_with_region(*tp, name);
	assert_true(pos >= 0);
	const struct sgr_thread *st = sgr_thread(*tp, (size_t)pos);
	assert_true(st->complete);
	assert_int_equal(st->lost, 0);
	if (thread_index)
		*thread_index = st->index;
	struct sgr_event *all;
	size_t n = tu_events(*tp, (size_t)pos, 1, &all);
	size_t b = 0, e = n;
	while (b < n && all[b].kind != SG_EV_REGION_BEGIN)
		b++;
	while (e > b && all[e - 1].kind != SG_EV_REGION_END)
		e--;
	assert_true(e > b);
	/* the call sites (SYNC_SITE before a wait-begin whose return address is new to the
	 * thread, format 1.6) are test-sites.sh's: the sequences below are the wrappers' events */
	*out = malloc((e - b + 1) * sizeof **out);
	size_t k = 0;
	for (size_t i = b + 1; i + 1 < e; i++)
		if (all[i].kind != SG_EV_SYNC_SITE)
			(*out)[k++] = all[i];
	free(all);
	return k;
}

struct exp {
	enum sg_ev_kind kind;
	int64_t aux;     /* -1: any */
};

static void expect(const struct sgr_event *e, size_t n, const struct exp *x, size_t nx)
{
	if (n != nx)
		fail_msg("%zu events recorded, %zu expected", n, nx);
	for (size_t i = 0; i < n; i++) {
		if (e[i].kind != x[i].kind)
			fail_msg("event %zu: %s, expected %s", i, sg_ev_kind_name(e[i].kind),
				 sg_ev_kind_name(x[i].kind));
		if (x[i].aux >= 0 && e[i].aux != (uint32_t)x[i].aux)
			fail_msg("event %zu (%s): aux %u, expected %lld", i,
				 sg_ev_kind_name(e[i].kind), e[i].aux, (long long)x[i].aux);
		if (i && e[i].ticks < e[i - 1].ticks)
			fail_msg("event %zu: time goes backwards", i);
	}
}

/* All events name one object of `kind`. */
static void same_object(struct sgr_trace *t, const struct sgr_event *e, size_t n,
			enum sg_obj_kind kind)
{
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(e[i].id, e[0].id);
		assert_non_null(sgr_object(t, e[i].id));
		assert_int_equal(sgr_object(t, e[i].id)->kind, kind);
	}
}

#define M SG_LOCK_MUTEX
#define TRY SG_LOCK_TRY

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;

static void mutex_body(void)
{
	assert_int_equal(sg_pthread_mutex_lock(&mtx), 0);
	assert_int_equal(sg_pthread_mutex_trylock(&mtx), EBUSY);
	assert_int_equal(sg_pthread_mutex_unlock(&mtx), 0);
	assert_int_equal(sg_pthread_mutex_trylock(&mtx), 0);
	assert_int_equal(sg_pthread_mutex_unlock(&mtx), 0);
}

static void test_mutex(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("mutex", mutex_body, &t, &e, NULL);
	const struct exp x[] = {
		{ SG_EV_LOCK_REQUEST, M }, { SG_EV_LOCK_ACQUIRED, M },
		{ SG_EV_LOCK_REQUEST, M | TRY }, { SG_EV_LOCK_FAILED, M | TRY },
		{ SG_EV_LOCK_RELEASE, M },
		{ SG_EV_LOCK_REQUEST, M | TRY }, { SG_EV_LOCK_ACQUIRED, M | TRY },
		{ SG_EV_LOCK_RELEASE, M },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	same_object(t, e, n, SG_OBJ_MUTEX);
	assert_true(sgr_object(t, e[0].id)->address == (uint64_t)(uintptr_t)&mtx);
	free(e);
	sgr_close(t);
}

static void errorcheck_body(void)
{
	pthread_mutex_t m;
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);
	assert_int_equal(sg_pthread_mutex_lock(&m), 0);
	assert_int_equal(sg_pthread_mutex_lock(&m), EDEADLK);
	assert_int_equal(sg_pthread_mutex_unlock(&m), 0);
	assert_int_equal(sg_pthread_mutex_unlock(&m), EPERM);
	pthread_mutex_destroy(&m);
}

static void test_mutex_errors(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("errorcheck", errorcheck_body, &t, &e, NULL);
	const struct exp x[] = {
		{ SG_EV_LOCK_REQUEST, M }, { SG_EV_LOCK_ACQUIRED, M },
		{ SG_EV_LOCK_REQUEST, M }, { SG_EV_LOCK_FAILED, M },
		{ SG_EV_LOCK_RELEASE, M }, { SG_EV_LOCK_RELEASE, M },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	free(e);
	sgr_close(t);
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static void rwlock_body(void)
{
	assert_int_equal(sg_pthread_rwlock_rdlock(&rw), 0);
	assert_int_equal(sg_pthread_rwlock_tryrdlock(&rw), 0);
	assert_int_equal(sg_pthread_rwlock_trywrlock(&rw), EBUSY);
	assert_int_equal(sg_pthread_rwlock_unlock(&rw), 0);
	assert_int_equal(sg_pthread_rwlock_unlock(&rw), 0);
	assert_int_equal(sg_pthread_rwlock_wrlock(&rw), 0);
	assert_int_equal(sg_pthread_rwlock_tryrdlock(&rw), EBUSY);
	assert_int_equal(sg_pthread_rwlock_unlock(&rw), 0);
}

static void test_rwlock(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("rwlock", rwlock_body, &t, &e, NULL);
	const int R = SG_LOCK_RWLOCK_READ, W = SG_LOCK_RWLOCK_WRITE;
	const struct exp x[] = {
		{ SG_EV_LOCK_REQUEST, R }, { SG_EV_LOCK_ACQUIRED, R },
		{ SG_EV_LOCK_REQUEST, R | TRY }, { SG_EV_LOCK_ACQUIRED, R | TRY },
		{ SG_EV_LOCK_REQUEST, W | TRY }, { SG_EV_LOCK_FAILED, W | TRY },
		{ SG_EV_LOCK_RELEASE, R }, { SG_EV_LOCK_RELEASE, R },
		{ SG_EV_LOCK_REQUEST, W }, { SG_EV_LOCK_ACQUIRED, W },
		{ SG_EV_LOCK_REQUEST, R | TRY }, { SG_EV_LOCK_FAILED, R | TRY },
		{ SG_EV_LOCK_RELEASE, W },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	same_object(t, e, n, SG_OBJ_RWLOCK);
	free(e);
	sgr_close(t);
}

static void spin_body(void)
{
	pthread_spinlock_t s;
	pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
	assert_int_equal(sg_pthread_spin_lock(&s), 0);
	assert_int_equal(sg_pthread_spin_trylock(&s), EBUSY);
	assert_int_equal(sg_pthread_spin_unlock(&s), 0);
	assert_int_equal(sg_pthread_spin_trylock(&s), 0);
	assert_int_equal(sg_pthread_spin_unlock(&s), 0);
	pthread_spin_destroy(&s);
}

static void test_spinlock(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("spin", spin_body, &t, &e, NULL);
	const int S = SG_LOCK_SPIN;
	const struct exp x[] = {
		{ SG_EV_LOCK_REQUEST, S }, { SG_EV_LOCK_ACQUIRED, S },
		{ SG_EV_LOCK_REQUEST, S | TRY }, { SG_EV_LOCK_FAILED, S | TRY },
		{ SG_EV_LOCK_RELEASE, S },
		{ SG_EV_LOCK_REQUEST, S | TRY }, { SG_EV_LOCK_ACQUIRED, S | TRY },
		{ SG_EV_LOCK_RELEASE, S },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	same_object(t, e, n, SG_OBJ_SPIN);
	free(e);
	sgr_close(t);
}

static pthread_barrier_t bar;
static int serials;

static void *barrier_partner(void *p)
{
	for (int i = 0; i < 3; i++)
		if (sg_pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	return p;
}

static void barrier_body(void)
{
	pthread_t th;
	pthread_barrier_init(&bar, NULL, 2);
	assert_int_equal(sg_pthread_create(&th, NULL, barrier_partner, NULL), 0);
	for (int i = 0; i < 3; i++) {
		int rc = sg_pthread_barrier_wait(&bar);
		assert_true(rc == 0 || rc == PTHREAD_BARRIER_SERIAL_THREAD);
		if (rc)
			__atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
	}
	assert_int_equal(sg_pthread_join(th, NULL), 0);
}

static void test_barrier(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	uint32_t me;
	size_t n = run_and_read("barrier", barrier_body, &t, &e, &me);
	assert_int_equal(serials, 3);   /* one serial thread per episode */
	assert_int_equal(n, 10);
	assert_int_equal(e[0].kind, SG_EV_CREATE_BEGIN);
	assert_int_equal(e[1].kind, SG_EV_CREATE_END);
	uint32_t child = e[1].id;
	for (int ep = 1; ep <= 3; ep++) {
		const struct sgr_event *a = &e[2 * ep], *l = &e[2 * ep + 1];
		assert_int_equal(a->kind, SG_EV_BARRIER_ARRIVE);
		assert_int_equal(l->kind, SG_EV_BARRIER_LEAVE);
		assert_int_equal(a->aux, (uint32_t)ep);
		assert_int_equal(l->aux, (uint32_t)ep);
		assert_int_equal(a->id, e[2].id);
		assert_int_equal(sgr_object(t, a->id)->kind, SG_OBJ_BARRIER);
	}
	assert_int_equal(e[8].kind, SG_EV_JOIN_BEGIN);
	assert_int_equal(e[8].id, child);
	/* The partner's episodes match, on the same barrier id. */
	struct sgr_event *pe;
	long pos = sgr_thread_pos(t, child);
	assert_true(pos >= 0);
	assert_int_equal(sgr_thread(t, (size_t)pos)->parent, me);
	size_t pn = tu_events(t, (size_t)pos, 1, &pe);
	assert_int_equal(tu_count(pe, pn, SG_EV_BARRIER_ARRIVE), 3);
	int ep = 0;
	for (size_t i = 0; i < pn; i++) {
		if (pe[i].kind == SG_EV_BARRIER_ARRIVE) {
			assert_int_equal(pe[i].aux, (uint32_t)++ep);
			assert_int_equal(pe[i].id, e[2].id);
		}
	}
	assert_int_equal(pe[0].kind, SG_EV_THREAD_BEGIN);
	assert_int_equal(pe[0].aux, me);
	free(pe);
	free(e);
	sgr_close(t);
}

static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void cond_body(void)
{
	struct timespec past = { 1, 0 };   /* CLOCK_REALTIME 1970: already over */
	assert_int_equal(sg_pthread_mutex_lock(&cm), 0);
	assert_int_equal(sg_pthread_cond_timedwait(&cv, &cm, &past), ETIMEDOUT);
	assert_int_equal(sg_pthread_mutex_unlock(&cm), 0);
	assert_int_equal(sg_pthread_cond_signal(&cv), 0);
	assert_int_equal(sg_pthread_cond_broadcast(&cv), 0);
}

static void test_cond(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("cond", cond_body, &t, &e, NULL);
	const struct exp x[] = {
		{ SG_EV_LOCK_REQUEST, M }, { SG_EV_LOCK_ACQUIRED, M },
		{ SG_EV_COND_WAIT_BEGIN, -1 }, { SG_EV_LOCK_RELEASE, M },
		{ SG_EV_LOCK_ACQUIRED, M }, { SG_EV_COND_WAIT_END, ETIMEDOUT },
		{ SG_EV_LOCK_RELEASE, M },
		{ SG_EV_COND_SIGNAL, 0 }, { SG_EV_COND_BROADCAST, 0 },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	assert_int_equal(sgr_object(t, e[2].id)->kind, SG_OBJ_COND);
	assert_int_equal(e[2].aux, e[0].id);   /* the wait names its mutex */
	assert_int_equal(e[5].id, e[2].id);
	assert_int_equal(e[7].id, e[2].id);
	free(e);
	sgr_close(t);
}

static int flag;

static void *signaller(void *p)
{
	sg_pthread_mutex_lock(&cm);
	flag = 1;
	sg_pthread_cond_signal(&cv);
	sg_pthread_mutex_unlock(&cm);
	return p;
}

static void cond_wait_body(void)
{
	pthread_t th;
	assert_int_equal(sg_pthread_mutex_lock(&cm), 0);
	assert_int_equal(sg_pthread_create(&th, NULL, signaller, NULL), 0);
	while (!flag)
		assert_int_equal(sg_pthread_cond_wait(&cv, &cm), 0);
	assert_int_equal(sg_pthread_mutex_unlock(&cm), 0);
	assert_int_equal(sg_pthread_join(th, NULL), 0);
}

static void test_cond_wait(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("condwait", cond_wait_body, &t, &e, NULL);
	size_t begins = tu_count(e, n, SG_EV_COND_WAIT_BEGIN);
	assert_true(begins >= 1);
	assert_int_equal(tu_count(e, n, SG_EV_COND_WAIT_END), begins);
	for (size_t i = 0; i < n; i++)
		if (e[i].kind == SG_EV_COND_WAIT_END)
			assert_int_equal(e[i].aux, 0);
	free(e);
	sgr_close(t);
}

static void *child_fn(void *p)
{
	return (char *)p + 1;
}

static void create_join_body(void)
{
	pthread_t th;
	void *ret = NULL;
	static char buf[2];
	assert_int_equal(sg_pthread_create(&th, NULL, child_fn, buf), 0);
	assert_int_equal(sg_pthread_join(th, &ret), 0);
	assert_ptr_equal(ret, buf + 1);
	assert_int_equal(sg_pthread_join(pthread_self(), NULL), EDEADLK);
}

static void test_create_join(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	uint32_t me;
	size_t n = run_and_read("createjoin", create_join_body, &t, &e, &me);
	const struct exp x[] = {
		{ SG_EV_CREATE_BEGIN, 0 }, { SG_EV_CREATE_END, 0 },
		{ SG_EV_JOIN_BEGIN, 0 }, { SG_EV_JOIN_END, 0 },
		{ SG_EV_JOIN_BEGIN, 0 }, { SG_EV_JOIN_END, EDEADLK },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	uint32_t child = e[1].id;
	assert_true(child != SG_NO_ID && child != me);
	assert_int_equal(e[2].id, child);
	assert_int_equal(e[3].id, child);
	assert_int_equal(e[0].id, SG_NO_ID);
	long pos = sgr_thread_pos(t, child);
	assert_true(pos >= 0);
	const struct sgr_thread *ct = sgr_thread(t, (size_t)pos);
	assert_int_equal(ct->parent, me);
	assert_true(ct->complete);
	struct sgr_event *ce;
	size_t cn = tu_events(t, (size_t)pos, 1, &ce);
	assert_int_equal(ce[0].kind, SG_EV_THREAD_BEGIN);
	assert_int_equal(ce[0].id, child);
	assert_int_equal(ce[cn - 1].kind, SG_EV_THREAD_END);
	/* The child ended before the join returned. */
	assert_true(ce[cn - 1].ticks <= e[3].ticks);
	free(ce);
	free(e);
	sgr_close(t);
}

static struct sg_func_desc fd_solve = { "solve", "test_wrappers.c", 321, 0 };

static void probes_body(void)
{
	sg_func_enter(&fd_solve);
	sg_counter_add("items", 5);
	sg_counter_add("items", -2);
	sg_region_begin("inner");
	sg_region_end("inner");
	sg_func_exit(&fd_solve);
}

static void test_probes(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("probes", probes_body, &t, &e, NULL);
	const struct exp x[] = {
		{ SG_EV_FUNC_ENTER, 0 }, { SG_EV_COUNTER, 0 }, { SG_EV_COUNTER, 0 },
		{ SG_EV_REGION_BEGIN, 0 }, { SG_EV_REGION_END, 0 }, { SG_EV_FUNC_EXIT, 0 },
	};
	expect(e, n, x, sizeof x / sizeof x[0]);
	assert_int_not_equal(fd_solve.id, 0);
	assert_int_equal(e[0].id, fd_solve.id);
	const struct sgr_function *f = sgr_function(t, e[0].id);
	assert_string_equal(f->name, "solve");
	assert_int_equal(f->line, 321);
	assert_int_equal(e[1].value, 5);
	assert_int_equal(e[2].value, 3);   /* the running total */
	const struct sgr_counter *c = sgr_counter(t, e[1].id);
	assert_string_equal(c->name, "items");
	assert_int_equal(c->origin, SG_COUNTER_USER);
	assert_null(c->unavailable);
	assert_string_equal(sgr_region(t, e[3].id)->name, "inner");
	free(e);
	sgr_close(t);
}

static void disabled_body(void)
{
	assert_int_equal(sg_trace_enable(0), 1);
	assert_int_equal(sg_pthread_mutex_lock(&mtx), 0);
	assert_int_equal(sg_pthread_mutex_trylock(&mtx), EBUSY);
	assert_int_equal(sg_pthread_mutex_unlock(&mtx), 0);
	sg_func_enter(&fd_solve);
	assert_int_equal(sg_trace_enable(1), 0);
}

static void test_disabled_records_nothing(void **state)
{
	(void)state;
	struct sgr_trace *t;
	struct sgr_event *e;
	size_t n = run_and_read("disabled", disabled_body, &t, &e, NULL);
	assert_int_equal(n, 0);
	free(e);
	sgr_close(t);
}

static void *foreign_fn(void *p)
{
	sg_region_begin("foreign");
	sg_pthread_mutex_lock(&mtx);
	sg_pthread_mutex_unlock(&mtx);
	sg_region_end("foreign");
	return p;
}

/* A thread started with plain pthread_create gets an index at its first event and is
 * finished by the thread-key destructor. */
static void test_thread_not_created_by_wrapper(void **state)
{
	(void)state;
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, foreign_fn, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	struct sgr_trace *t;
	char err[512];
	assert_int_equal(sgr_open(sg_trace_dir(), 0, &t, err, sizeof err), 0);
	long pos = tu_thread_with_region(t, "foreign");
	assert_true(pos >= 0);
	const struct sgr_thread *st = sgr_thread(t, (size_t)pos);
	assert_int_equal(st->parent, SG_NO_ID);
	assert_true(st->complete);
	struct sgr_event *e;
	size_t n = tu_events(t, (size_t)pos, 1, &e);
	assert_int_equal(e[0].kind, SG_EV_THREAD_BEGIN);
	assert_int_equal(e[n - 1].kind, SG_EV_THREAD_END);
	assert_int_equal(tu_count(e, n, SG_EV_LOCK_ACQUIRED), 1);
	free(e);
	sgr_close(t);
}

static void test_main_thread_is_zero(void **state)
{
	(void)state;
	sg_trace_flush();
	struct sgr_trace *t;
	char err[512];
	assert_int_equal(sgr_open(sg_trace_dir(), 0, &t, err, sizeof err), 0);
	assert_int_equal(sgr_thread(t, 0)->index, 0);
	assert_int_equal(sgr_thread(t, 0)->parent, SG_NO_ID);
	struct sgr_event *e;
	size_t n = tu_events(t, 0, 1, &e);
	assert_true(n >= 1);
	assert_int_equal(e[0].kind, SG_EV_THREAD_BEGIN);
	assert_true(sgr_info(t)->clock == SGF_CLOCK_TSC || sgr_info(t)->clock == SGF_CLOCK_NS);
	/* Counters: either defined, or the reason none could be set up is recorded. */
	assert_true(sgr_n_counters(t) > 0 || sgr_info(t)->counters_off != NULL);
	free(e);
	sgr_close(t);
}

int main(int argc, char **argv)
{
	tu_reexec_traced(argc, argv, "wrappers", sg_trace_dir());
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutex),
		cmocka_unit_test(test_mutex_errors),
		cmocka_unit_test(test_rwlock),
		cmocka_unit_test(test_spinlock),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_cond),
		cmocka_unit_test(test_cond_wait),
		cmocka_unit_test(test_create_join),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_disabled_records_nothing),
		cmocka_unit_test(test_thread_not_created_by_wrapper),
		cmocka_unit_test(test_main_thread_is_zero),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	tu_reexec_cleanup("wrappers");
	return rc;
}
