/*
 * an_synth.c — test helpers: temporary directories and synthetic threads (an_synth.h).
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
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

#include "an_synth.h"
#include "analyzer.h"

struct an_run *syn_open_run(const char *dir, const struct an_run_opts *o)
{
	struct an_run *r = NULL;
	char err[512] = "";
	if (an_run_open(dir, o, &r, err, sizeof err) < 0)
		fail_msg("an_run_open: %s", err);
	return r;
}

void syn_assert_fig(const struct an_run *r, int metric, double v)
{
	struct an_fig f = an_run_fig(r, (enum an_metric)metric);
	if (f.unavailable)
		fail_msg("%s unavailable: %s", an_metric_name((enum an_metric)metric), f.unavailable);
	if (fabs(f.value - v) > 1e-9)
		fail_msg("%s = %.12g, expected %.12g", an_metric_name((enum an_metric)metric),
			 f.value, v);
}

void syn_assert_fig_ns(const struct an_run *r, int metric, double ns)
{
	struct an_fig f = an_run_fig(r, (enum an_metric)metric);
	if (f.unavailable)
		fail_msg("%s unavailable: %s", an_metric_name((enum an_metric)metric), f.unavailable);
	if (fabs(f.value - ns * 1e-9) > 1e-13)
		fail_msg("%s = %.12g s, expected %.0f ns", an_metric_name((enum an_metric)metric),
			 f.value, ns);
}

const char *syn_tmpdir(void)
{
	static char slots[8][64];
	static int next;
	char *p = slots[next++ % 8];
	snprintf(p, 64, "/tmp/sgan.XXXXXX");
	return mkdtemp(p);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

void syn_rmtree(const char *path)
{
	if (path)
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int syn_events(struct sgw_stream *s, int rc, const struct syn_ev *ev)
{
	for (; rc == 0 && ev->kind != SG_EV_NONE; ev++)
		rc = ev->kind == SG_EV_VALUE ? sgw_counter_value(s, ev->t, ev->id, (int64_t)ev->aux)
					     : sg_kind_has_value(ev->kind)
					     ? sgw_value(s, ev->t, ev->kind, ev->id, (int64_t)ev->aux)
					     : sgw_event(s, ev->t, ev->kind, ev->id, ev->aux);
	return rc;
}

int syn_thread(struct sgw_trace *w, uint32_t index, const struct syn_ev *ev)
{
	return syn_thread_tid(w, index, 0, ev);
}

int syn_thread_tid(struct sgw_trace *w, uint32_t index, int32_t tid, const struct syn_ev *ev)
{
	struct sgw_stream *s = NULL;
	int rc = sgw_thread(w, index, SG_NO_ID, tid, &s);
	return syn_events(s, rc, ev);
}

int syn_sched(struct sgw_trace *w, const struct syn_ev *ev)
{
	struct sgw_stream *s = NULL;
	int rc = sgw_sched(w, 2, "synthetic", 0, &s);
	return syn_events(s, rc, ev);
}

const char *syn_trace(int obj, uint32_t first, int32_t tid0,
		      const struct syn_ev *const *threads, size_t n, const struct syn_ev *sched)
{
	const char *dir = syn_tmpdir();
	struct sgw_trace *w;
	assert_int_equal(sgw_create(dir, NULL, &w), 0);
	if (obj)
		assert_int_equal(sgw_object(w, 1, (enum sg_obj_kind)obj, 0x1000), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(syn_thread_tid(w, first + (uint32_t)i,
						tid0 ? tid0 + (int32_t)i : 0, threads[i]), 0);
	if (sched)
		assert_int_equal(syn_sched(w, sched), 0);
	assert_int_equal(sgw_close(w, 0), 0);
	return dir;
}

int syn_timeline_cb(const struct an_interval *iv, void *ud)
{
	struct syn_timeline *t = ud;
	if (t->n < (int)(sizeof t->iv / sizeof t->iv[0]))
		t->iv[t->n++] = *iv;
	return 0;
}
