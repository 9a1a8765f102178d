/*
 * tmeasure.c — reads a run's trace through the reader library (tracelib/sgtrace_read.h) for
 * T_para and the counters (tmeasure.h). One pass over each thread's events: region begin/end
 * times of the chosen region, thread begin/end times, and the last sample of every counter.
 * Counter samples are running totals per thread (collector/counters.c), so the last sample is
 * the thread's total.
 */
#include "tmeasure.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgtrace_read.h"

static void fallback(struct tmeasure *m, double wall_s)
{
	m->t_para_s = wall_s;
	snprintf(m->source, sizeof m->source, "wall");
}

/* The region that defines T_para: "measured" if defined, else the first. SG_NO_ID if none. */
static uint32_t pick_region(const struct sgr_trace *t, char *name, size_t len)
{
	size_t n = sgr_n_regions(t);
	const struct sgr_region *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct sgr_region *r = sgr_region_at(t, i);
		if (!pick || !strcmp(r->name, "measured"))
			pick = r;
		if (!strcmp(r->name, "measured"))
			break;
	}
	if (!pick)
		return SG_NO_ID;
	snprintf(name, len, "%s", pick->name);
	return pick->id;
}

struct counter_last {
	uint32_t id;
	uint32_t thread;
	int64_t value;
};

static int add_counter(struct tmeasure *m, size_t *cap, int thread, const char *name,
		       const char *unit, double value, const char *unavailable)
{
	if ((size_t)m->n_counters == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct store_counter *c = realloc(m->counter, nc * sizeof *c);
		if (!c)
			return -1;
		m->counter = c;
		*cap = nc;
	}
	m->counter[m->n_counters++] = (struct store_counter){ thread, name, unit, value, unavailable };
	return 0;
}

/* Does the directory hold anything? An untraced program leaves its trace root empty. */
static int dir_has_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int any = 0;
	if (!d)
		return 0;
	while (!any && (de = readdir(d)))
		any = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return any;
}

/* Why the trace lacks events: lost ones (counted in the trailers), streams without a trailer
 * (lost of unknown amount: killed, or the disk filled up), damaged chunks and whatever else the
 * reader found. "" when the trace is whole. */
static void completeness(struct sgr_trace *t, struct tmeasure *m)
{
	uint64_t lost = 0;
	size_t cut = 0, unreadable = 0, n = sgr_n_threads(t);
	const char *first_cut = NULL;
	sgr_verify(t);   /* the chunks the walk below did not reach: the sched stream's */
	for (size_t pos = 0; pos < n; pos++) {
		const struct sgr_thread *th = sgr_thread(t, pos);
		lost += th->lost;
		if (!th->readable) {
			unreadable++;
		} else if (!th->complete) {
			if (!cut)
				first_cut = th->file;
			cut++;
		}
	}
	size_t used = 0, len = sizeof m->incomplete;
	char *b = m->incomplete;
#define ADD(...) do { \
		if (used < len) \
			used += (size_t)snprintf(b + used, len - used, "%s", used ? "; " : ""); \
		if (used < len) \
			used += (size_t)snprintf(b + used, len - used, __VA_ARGS__); \
	} while (0)
	if (lost)
		ADD("%llu events lost", (unsigned long long)lost);
	if (cut)
		ADD("%zu thread stream(s) without a trailer (%s...): events lost, amount unknown",
		    cut, first_cut ? first_cut : "?");
	if (unreadable)
		ADD("%zu thread stream(s) unreadable", unreadable);
	size_t np = sgr_n_problems(t);
	if (np)
		ADD("%zu problem(s) reading the trace, first: %s", np, sgr_problem(t, 0));
#undef ADD
}

void tmeasure_run(const char *trace_dir, double wall_s, struct tmeasure *m)
{
	struct sgr_trace *t = NULL;
	struct counter_last *last = NULL;
	size_t n_last = 0, cap_last = 0, cap = 0;
	char err[256];
	memset(m, 0, sizeof *m);
	fallback(m, wall_s);
	/* Payloads are checked as the walk below reaches them (once each), so a damaged chunk is
	 * neither read as events nor missed by completeness(), which comes after the walk. */
	if (sgr_open(trace_dir, 0, &t, err, sizeof err) < 0) {
		if (dir_has_entries(trace_dir))
			snprintf(m->incomplete, sizeof m->incomplete, "trace unreadable: %.200s", err);
		return;
	}
	uint32_t region = pick_region(t, m->region, sizeof m->region);
	int64_t r0 = INT64_MAX, r1 = INT64_MIN, t0 = INT64_MAX, t1 = INT64_MIN;
	for (size_t pos = 0; pos < sgr_n_threads(t); pos++) {
		struct sgr_iter it;
		struct sgr_event ev;
		int64_t first = INT64_MAX, end = INT64_MIN;
		sgr_iter_init(&it, t, pos);
		while (sgr_iter_next(&it, &ev)) {
			if (first == INT64_MAX)
				first = ev.t_ns;
			end = ev.t_ns;
			if (ev.kind == SG_EV_REGION_BEGIN && ev.id == region && ev.t_ns < r0)
				r0 = ev.t_ns;
			else if (ev.kind == SG_EV_REGION_END && ev.id == region && ev.t_ns > r1)
				r1 = ev.t_ns;
			else if (ev.kind == SG_EV_COUNTER) {
				size_t k = 0;
				while (k < n_last && !(last[k].id == ev.id && last[k].thread == ev.thread))
					k++;
				if (k == n_last) {
					if (n_last == cap_last) {
						size_t nc = cap_last ? cap_last * 2 : 32;
						struct counter_last *l = realloc(last, nc * sizeof *l);
						if (!l)
							continue;
						last = l;
						cap_last = nc;
					}
					last[n_last++] = (struct counter_last){ ev.id, ev.thread, 0 };
				}
				last[k].value = ev.value;
			}
		}
		if (first != INT64_MAX) {
			if (first < t0)
				t0 = first;
			if (end > t1)
				t1 = end;
		}
	}
	completeness(t, m);
	if (region != SG_NO_ID && r0 != INT64_MAX && r1 > r0) {
		m->t_para_s = (double)(r1 - r0) * 1e-9;
		snprintf(m->source, sizeof m->source, "region");
	} else if (t0 != INT64_MAX && t1 > t0) {
		m->region[0] = '\0';
		m->t_para_s = (double)(t1 - t0) * 1e-9;
		snprintf(m->source, sizeof m->source, "threads");
	}
	/* names must outlive the trace: copy them into one block */
	size_t n_defs = sgr_n_counters(t), bytes = 0;
	for (size_t i = 0; i < n_defs; i++) {
		const struct sgr_counter *c = sgr_counter_at(t, i);
		bytes += strlen(c->name) + strlen(c->unit ? c->unit : "") +
			 strlen(c->unavailable ? c->unavailable : "") + 3;
	}
	m->strings = malloc(bytes + 1);
	char *p = m->strings;
	for (size_t i = 0; p && i < n_defs; i++) {
		const struct sgr_counter *c = sgr_counter_at(t, i);
		char *name = p;
		p = stpcpy(p, c->name) + 1;
		char *unit = p;
		p = stpcpy(p, c->unit ? c->unit : "") + 1;
		char *why = p;
		p = stpcpy(p, c->unavailable ? c->unavailable : "") + 1;
		if (c->unavailable) {
			add_counter(m, &cap, -1, name, unit, NAN, why);
			continue;
		}
		for (size_t k = 0; k < n_last; k++)
			if (last[k].id == c->id)
				add_counter(m, &cap, (int)last[k].thread, name, unit, (double)last[k].value,
					    NULL);
	}
	free(last);
	sgr_close(t);
}

void tmeasure_free(struct tmeasure *m)
{
	free(m->counter);
	free(m->strings);
	m->counter = NULL;
	m->strings = NULL;
	m->n_counters = 0;
}
