/*
 * sgr_open.c — opening and closing a trace for reading (sgtrace_read.h): definitions, streams,
 * the clock fit, and the list of problems found along the way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgr_int.h"

void sgr_problem_add(struct sgr_trace *t, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&t->lock);
	if (sgr_grow(&t->problems, &t->cap_problems, t->n_problems, sizeof *t->problems) == 0) {
		char *s = strdup(buf);
		if (s)
			t->problems[t->n_problems++] = s;
	}
	pthread_mutex_unlock(&t->lock);
}

size_t sgr_n_problems(struct sgr_trace *t)
{
	pthread_mutex_lock(&t->lock);
	size_t n = t->n_problems;
	pthread_mutex_unlock(&t->lock);
	return n;
}

const char *sgr_problem(struct sgr_trace *t, size_t i)
{
	pthread_mutex_lock(&t->lock);
	const char *s = i < t->n_problems ? t->problems[i] : NULL;
	pthread_mutex_unlock(&t->lock);
	return s;
}

int sgr_open(const char *dir, unsigned flags, struct sgr_trace **out, char *err, size_t errlen)
{
	struct sgr_trace *t = calloc(1, sizeof *t);
	if (!t)
		return -ENOMEM;
	int rc = -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	t->flags = flags;
	t->root = strdup(dir);
	if (!t->root || (rc = sgr_procs_find(t, err, errlen)) < 0)
		goto out;
	rc = sgr_defs_read(t, err, errlen);
	if (rc < 0)
		goto out;
	rc = sgr_streams_load(t);
	if (rc < 0) {
		if (err)
			snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
		goto out;
	}
	t->info.counters_off = t->counters_off;
	if (!t->sched.text)
		t->sched.text = strdup("");
	sgr_clock_fit(t);
	if (t->stopped) {
		/* a trace that stopped is not a whole one: said where every problem is */
		t->info.stopped = t->stopped;
		t->info.stopped_errno = t->stopped_errno;
		t->info.stopped_ns = sgr_ticks_to_ns(&t->info, t->stopped_ticks);
		sgr_problem_add(t, "%s: tracing stopped at %.3f ms, before the process ended: %s "
				"failed (%s); what the process did afterwards is not in the trace",
				SGF_DEFS_NAME, (double)t->info.stopped_ns / 1e6, t->stopped,
				strerror(t->stopped_errno));
	}
out:
	if (rc < 0) {
		if (rc == -ENOMEM && err)
			snprintf(err, errlen, "%s: %s", dir, strerror(ENOMEM));
		sgr_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

void sgr_close(struct sgr_trace *t)
{
	if (!t)
		return;
	sgr_streams_free(t);
	for (size_t i = 0; i < t->n_funcs; i++) {
		free((char *)t->funcs[i].name);
		free((char *)t->funcs[i].file);
	}
	for (size_t i = 0; i < t->n_regions; i++)
		free((char *)t->regions[i].name);
	for (size_t i = 0; i < t->n_counters; i++) {
		free((char *)t->counters[i].name);
		free((char *)t->counters[i].unit);
		free((char *)t->counters[i].unavailable);
	}
	for (size_t i = 0; i < t->n_sites; i++) {
		free((char *)t->sites[i].func);
		free((char *)t->sites[i].file);
	}
	free(t->sites);
	for (size_t i = 0; i < t->n_site_pcs; i++) {
		free(t->site_pcs[i].obj);
		free(t->site_pcs[i].build_id);
	}
	free(t->site_pcs);
	free(t->funcs);
	free(t->regions);
	free(t->objects);
	free(t->counters);
	for (size_t i = 0; i < t->n_problems; i++)
		free(t->problems[i]);
	free(t->problems);
	free(t->pairs);
	free(t->counters_off);
	free(t->stopped);
	free((char *)t->sched.text);
	sgr_procs_free(t);
	free(t->root);
	free(t->dir);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

const struct sgr_info *sgr_info(const struct sgr_trace *t)
{
	return &t->info;
}

size_t sgr_n_threads(const struct sgr_trace *t)
{
	return t->n_streams;
}

const struct sgr_thread *sgr_thread(const struct sgr_trace *t, size_t pos)
{
	return pos < t->n_streams ? &t->streams[pos].th : NULL;
}

long sgr_thread_pos(const struct sgr_trace *t, uint32_t index)
{
	struct sgr_stream *s = sgr_stream_get((struct sgr_trace *)t, index, 0);
	return s ? (long)(s - t->streams) : -1;
}
