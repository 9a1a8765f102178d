/*
 * sgr_clock.c — the clock pairs of a trace and the conversion of ticks to ns (sgtrace_read.h,
 * docs/trace-format.md "Time").
 *
 * Every (ticks, ns) pair of a trace — the epoch (0, epoch_ns) of defs.sgd's header, each chunk's
 * and trailer's pair, each CLOCK definition — lies on one line, up to the drift of
 * CLOCK_MONOTONIC against the TSC (NTP slews it by at most 500 ppm) and the ~100 ns a pair is
 * taken in. The fit goes through the first and the last pair by ticks. A pair off that line is
 * damage that its checksum cannot see (a file rewritten with a valid checksum, a TSC read on a
 * CPU whose counter was behind the epoch's and wrapped to 2^56): one such pair as the last one
 * made a 140 ms run 269,885,913 s long. So the pairs are first checked against each other: the
 * line that most of them agree on is found among the lines through a few pairs spread over the
 * ticks, the pairs off it are reported and left out, and the fit goes through the first and last
 * of the others — on an undamaged trace the same two pairs as always.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgr_int.h"

/* Plausible TSC rates: 10 MHz to 100 GHz. */
#define NS_PER_TICK_MIN 0.01
#define NS_PER_TICK_MAX 100.0
/* A pair is on a line when within TOL_NS plus TOL_REL of its distance (in ns) from the line's
 * anchor: far above NTP's 500 ppm and a pair's ~100 ns, far below any damage that matters. */
#define TOL_NS 10e6
#define TOL_REL 0.01
/* Problem lines for outliers, at most (then one line counts the rest). */
#define MAX_REPORTED 8

void sgr_pair_add(struct sgr_trace *t, uint64_t ticks, uint64_t ns, uint32_t src, uint64_t seq)
{
	if (sgr_grow(&t->pairs, &t->cap_pairs, t->n_pairs, sizeof *t->pairs) < 0) {
		t->pairs_nomem = 1;
		return;
	}
	t->pairs[t->n_pairs] = (struct sgr_pair){ ticks, ns, src, (uint32_t)t->n_pairs, seq };
	t->n_pairs++;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct sgr_pair *x = a, *y = b;
	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/* A line ns = ns0 + (ticks - ticks0) * rate, in doubles: ticks and ns are full 64-bit values
 * from the file, and only their differences matter. */
struct line {
	uint64_t ticks0, ns0;
	double rate;
};

static double residual(const struct line *l, const struct sgr_pair *p)
{
	double dt = p->ticks >= l->ticks0 ? (double)(p->ticks - l->ticks0)
					  : -(double)(l->ticks0 - p->ticks);
	double dn = p->ns >= l->ns0 ? (double)(p->ns - l->ns0) : -(double)(l->ns0 - p->ns);
	return dn - dt * l->rate;
}

static int on_line(const struct line *l, const struct sgr_pair *p)
{
	double dt = p->ticks >= l->ticks0 ? (double)(p->ticks - l->ticks0)
					  : (double)(l->ticks0 - p->ticks);
	double r = residual(l, p);
	/* no fabs(): the tools that link the reader need not link libm */
	return (r < 0 ? -r : r) <= TOL_NS + TOL_REL * dt * l->rate;
}

static size_t count_on(const struct line *l, const struct sgr_pair *p, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += on_line(l, &p[i]);
	return k;
}

/* The line most pairs lie on, among those through two of a few pairs spread over the ticks
 * (first, quartiles, last: any two good ones of them find the others); the one through the
 * first and last pair wins every tie. Returns 0 when no two of them differ in ticks. */
static int best_line(const struct sgr_pair *p, size_t n, int tsc, struct line *out)
{
	size_t cand[5] = { 0, n / 4, n / 2, (3 * n) / 4, n - 1 };
	size_t best_on = 0;
	int found = 0;
	for (int a = 0; a < 5; a++)
		for (int b = 4; b > a; b--) {
			const struct sgr_pair *x = &p[cand[a]], *y = &p[cand[b]];
			if (y->ticks <= x->ticks || y->ns <= x->ns)
				continue;
			struct line l = { x->ticks, x->ns,
					  (double)(y->ns - x->ns) / (double)(y->ticks - x->ticks) };
			if (tsc && (l.rate < NS_PER_TICK_MIN || l.rate > NS_PER_TICK_MAX))
				continue;
			size_t k = count_on(&l, p, n);
			if (!found || k > best_on) {
				*out = l;
				best_on = k;
				found = 1;
			}
		}
	return found;
}

/* "thread.3.sgs: chunk 5", "defs.sgd: CLOCK definition", ... */
static void pair_where(const struct sgr_trace *t, const struct sgr_pair *p, char *out,
		       size_t len)
{
	if (p->src == SGR_PAIR_EPOCH)
		snprintf(out, len, "%s: epoch", SGF_DEFS_NAME);
	else if (p->src == SGR_PAIR_DEFS)
		snprintf(out, len, "%s: CLOCK definition", SGF_DEFS_NAME);
	else if (p->seq == SGR_PAIR_TRAILER)
		snprintf(out, len, "%s: trailer", t->streams[p->src].file);
	else
		snprintf(out, len, "%s: chunk %" PRIu64, t->streams[p->src].file, p->seq);
}

/* Drops the pairs off line l (reporting them); returns how many stay. */
static size_t drop_outliers(struct sgr_trace *t, struct sgr_pair *p, size_t n,
			    const struct line *l, int *epoch_off)
{
	size_t k = 0, dropped = 0;
	for (size_t i = 0; i < n; i++) {
		if (on_line(l, &p[i])) {
			p[k++] = p[i];
			continue;
		}
		if (p[i].src == SGR_PAIR_EPOCH)
			*epoch_off = 1;
		/* a chunk's pair bounds its records' ticks (sgr_stream.c, chunk_order): not one
		 * off the line */
		struct sgr_chunk *c = p[i].src < t->n_streams && p[i].seq != SGR_PAIR_TRAILER
				      ? sgr_chunk_of(t, p[i].src, p[i].seq) : NULL;
		if (c)
			c->pair_off = 1;
		if (dropped++ < MAX_REPORTED) {
			char where[96];
			pair_where(t, &p[i], where, sizeof where);
			sgr_problem_add(t, "%s: clock pair (ticks %" PRIu64 ", ns %" PRIu64 ") is "
					"%.6g s off the line of the other pairs: ignored", where,
					p[i].ticks, p[i].ns, residual(l, &p[i]) / 1e9);
		}
	}
	if (dropped > MAX_REPORTED)
		sgr_problem_add(t, "%s: %zu more clock pairs off the line of the others: ignored",
				SGF_DEFS_NAME, dropped - MAX_REPORTED);
	return k;
}

void sgr_clock_fit(struct sgr_trace *t)
{
	struct sgr_info *in = &t->info;
	in->n_clock_pairs = (uint32_t)(t->n_pairs > UINT32_MAX ? UINT32_MAX : t->n_pairs);
	in->ns_per_tick = 1.0;
	in->offset_ns = 0.0;
	if (t->pairs_nomem)
		sgr_problem_add(t, "%s: out of memory for clock pairs: some were not checked",
				SGF_DEFS_NAME);
	size_t n = t->n_pairs;
	struct sgr_pair *p = t->pairs;
	if (n == 0)
		return;
	qsort(p, n, sizeof *p, pair_cmp);
	int epoch_off = 0;
	if (in->clock == SGF_CLOCK_NS) {
		/* ticks are ns since the epoch: every pair must say so */
		struct line l = { 0, in->epoch_ns, 1.0 };
		drop_outliers(t, p, n, &l, &epoch_off);
		return;
	}
	struct line l;
	if (n >= 2 && best_line(p, n, 1, &l)) {
		size_t k = count_on(&l, p, n);
		/* only a line that at least half the pairs agree on can say who is wrong */
		if (2 * k >= n)
			n = drop_outliers(t, p, n, &l, &epoch_off);
	}
	/* among pairs of equal ticks the first added, as the fit always took */
	size_t last = n - 1;
	while (last > 0 && p[last - 1].ticks == p[last].ticks)
		last--;
	struct sgr_pair a = p[0], b = p[last];
	if (n < 2 || b.ticks <= a.ticks || b.ns <= a.ns) {
		sgr_problem_add(t, "%s: fewer than two distinct clock pairs: times are in ticks",
				SGF_DEFS_NAME);
		return;
	}
	double rate = (double)(b.ns - a.ns) / (double)(b.ticks - a.ticks);
	if (rate < NS_PER_TICK_MIN || rate > NS_PER_TICK_MAX) {
		sgr_problem_add(t, "%s: the clock pairs give %.6g ns per tick, not a plausible "
				"TSC rate: times are in ticks", SGF_DEFS_NAME, rate);
		return;
	}
	in->ns_per_tick = rate;
	if (epoch_off) {
		/* the epoch's ns is wrong: count ns from tick 0 with the others' rate */
		sgr_problem_add(t, "%s: epoch_ns %" PRIu64 " is off the clock pairs: times are "
				"counted from tick 0", SGF_DEFS_NAME, in->epoch_ns);
		return;
	}
	in->offset_ns = ((double)a.ns - (double)in->epoch_ns) - (double)a.ticks * rate;
}
