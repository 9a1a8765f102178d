/*
 * search.c — bracketing and interpolation for the size searches (the algorithm is described in
 * search.h and docs/collector.md).
 */
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void search_init(struct search *sr, enum search_kind kind, double target, double tol,
		 double s_min, double s_max, double exponent, int max_probes)
{
	memset(sr, 0, sizeof *sr);
	sr->kind = kind;
	sr->target = target;
	sr->tol = tol;
	sr->s_min = s_min;
	sr->s_max = s_max;
	sr->exponent = exponent > 0.05 ? exponent : 1;
	sr->sign = 1;
	sr->max_probes = max_probes > 0 ? (max_probes > SEARCH_MAX_PROBES ? SEARCH_MAX_PROBES
									  : max_probes) : 6;
}

void search_add(struct search *sr, double s, double y)
{
	if (sr->n < SEARCH_MAX_PROBES)
		sr->probe[sr->n++] = (struct search_probe){ s, y };
}

int search_within(const struct search *sr, double y)
{
	if (isnan(y))
		return 0;
	if (sr->kind == SEARCH_TIME)
		return fabs(y - sr->target) <= sr->tol * sr->target;
	return fabs(y - sr->target) <= sr->tol + 1e-12;
}

/* The transformed value whose zero is the target, growing with s. */
static double gap(const struct search *sr, double y)
{
	return sr->kind == SEARCH_TIME ? log(y / sr->target) : sr->sign * (y - sr->target);
}

/* E found to fall as s grows: search the other way (once; T always grows with the work). */
static int turn_around(struct search *sr)
{
	if (sr->kind == SEARCH_TIME || sr->sign < 0)
		return 0;
	sr->sign = -1;
	return 1;
}

static double clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static int closest(const struct search *sr)
{
	int best = -1;
	for (int i = 0; i < sr->n; i++) {
		if (isnan(sr->probe[i].y))
			continue;
		if (best < 0 || fabs(gap(sr, sr->probe[i].y)) < fabs(gap(sr, sr->probe[best].y)))
			best = i;
	}
	return best;
}

/* Whether s was probed already, or is so near a probe that its run could only repeat it within
 * the scatter of run times: a quarter of the tolerance, in s (T ~ s^exponent). */
static int tried(const struct search *sr, double s, int (*same)(void *, double, double), void *ctx)
{
	double res = sr->kind == SEARCH_TIME ? sr->tol / (4 * sr->exponent) : 0.002;
	for (int i = 0; i < sr->n; i++)
		if (fabs(sr->probe[i].s - s) <= res * s || (same && same(ctx, sr->probe[i].s, s)))
			return 1;
	return 0;
}

/* Was a size within a quarter of s (either way) tried? */
static int near_tried(const struct search *sr, double s)
{
	for (int i = 0; i < sr->n; i++)
		if (!isnan(sr->probe[i].y) && fabs(log(sr->probe[i].s / s)) < log(1.25))
			return 1;
	return 0;
}

enum search_state search_next(struct search *sr, double *s_next, int *best, char *why,
			      size_t why_len, int (*same)(void *ctx, double a, double b), void *ctx)
{
	const char *what = sr->kind == SEARCH_TIME ? "T_para" : "E";
	int b = closest(sr);
	*best = b;
	why[0] = '\0';
	if (b >= 0 && search_within(sr, sr->probe[b].y))
		return SEARCH_CONVERGED;
	if (b < 0) {
		snprintf(why, why_len, "every run of the search failed");
		return SEARCH_GAVE_UP;
	}
	if (sr->n >= sr->max_probes) {
		snprintf(why, why_len, "not within tolerance after %d runs; closest %s = %.4g at s = %.4g",
			 sr->n, what, sr->probe[b].y, sr->probe[b].s);
		return SEARCH_GAVE_UP;
	}
	/* tightest bracket: lo = largest s below the target, hi = smallest s above */
	int lo = -1, hi = -1;
	for (int i = 0; i < sr->n; i++) {
		double y = sr->probe[i].y;
		if (isnan(y))
			continue;
		double g = gap(sr, y);
		if (g < 0 && (lo < 0 || sr->probe[i].s > sr->probe[lo].s))
			lo = i;
		if (g > 0 && (hi < 0 || sr->probe[i].s < sr->probe[hi].s))
			hi = i;
	}
	double u, ub = log(sr->probe[b].s);
	if (lo >= 0 && hi >= 0 && sr->probe[lo].s < sr->probe[hi].s) {
		double u0 = log(sr->probe[lo].s), u1 = log(sr->probe[hi].s);
		double g0 = gap(sr, sr->probe[lo].y), g1 = gap(sr, sr->probe[hi].y);
		u = u0 + (u1 - u0) * (0 - g0) / (g1 - g0);
		u = clamp(u, u0 + 0.1 * (u1 - u0), u1 - 0.1 * (u1 - u0));
	} else if (lo >= 0 && hi >= 0) {
		if (turn_around(sr))
			return search_next(sr, s_next, best, why, why_len, same, ctx);
		snprintf(why, why_len, "%s does not grow with the size along this path; closest %s = %.4g "
			 "at s = %.4g", what, what, sr->probe[b].y, sr->probe[b].s);
		return SEARCH_GAVE_UP;
	} else {
		/* one side only: extrapolate from the two probes nearest the target */
		int c = -1, anchor = b;
		double u_min = ub, u_max = ub, g_min = gap(sr, sr->probe[b].y), g_max = g_min;
		for (int i = 0; i < sr->n; i++) {
			if (isnan(sr->probe[i].y))
				continue;
			double ui = log(sr->probe[i].s), gi = gap(sr, sr->probe[i].y);
			if (i != b && (c < 0 || fabs(gi) < fabs(gap(sr, sr->probe[c].y))))
				c = i;
			u_min = fmin(u_min, ui);
			u_max = fmax(u_max, ui);
			g_min = fmin(g_min, gi);
			g_max = fmax(g_max, gi);
			/* the probe farthest toward the target (largest s when y is below it) */
			if ((gi < 0 && ui > log(sr->probe[anchor].s)) ||
			    (gi > 0 && ui < log(sr->probe[anchor].s)))
				anchor = i;
		}
		double gb = gap(sr, sr->probe[b].y);
		double slope = 0;
		if (c >= 0 && fabs(log(sr->probe[c].s) - ub) > 1e-9)
			slope = (gap(sr, sr->probe[c].y) - gb) / (log(sr->probe[c].s) - ub);
		/* What moves y less than the tolerance over a full step (x8) of sizes is noise,
		 * not the size. A move away from the target is believed when y did not grow over a
		 * full step, or (E) when the gap still to go is over four times the change seen:
		 * the target is then far beyond anything the scatter could hide. A fall of y
		 * between nearby sizes alone is scatter of the run times (T grows with the work). */
		double noise = sr->kind == SEARCH_TIME ? log1p(sr->tol) : sr->tol;
		double span = u_max - u_min, dg = g_max - g_min;
		if (c >= 0 && dg <= noise && span >= log(8) - 1e-9) {
			snprintf(why, why_len, "%s responds too little to the size along this path (%.4g at "
				 "s = %.4g, %.4g at s = %.4g): target unreachable at this N", what,
				 sr->probe[b].y, sr->probe[b].s, sr->probe[c].y, sr->probe[c].s);
			return SEARCH_GAVE_UP;
		}
		int i_lo = -1, i_hi = -1;   /* a pair a full step apart where y did not grow */
		for (int i = 0; i < sr->n && i_lo < 0; i++)
			for (int j = 0; j < sr->n && i_lo < 0; j++)
				if (!isnan(sr->probe[i].y) && !isnan(sr->probe[j].y) &&
				    log(sr->probe[j].s / sr->probe[i].s) >= log(8) - 1e-9 &&
				    gap(sr, sr->probe[j].y) <= gap(sr, sr->probe[i].y)) {
					i_lo = i;
					i_hi = j;
				}
		if (i_lo >= 0 && gap(sr, sr->probe[i_lo].y) - gap(sr, sr->probe[i_hi].y) > 2 * noise &&
		    turn_around(sr))
			return search_next(sr, s_next, best, why, why_len, same, ctx);
		if (i_lo < 0 && c >= 0 && slope <= 1e-3 && sr->kind == SEARCH_EFFICIENCY &&
		    fabs(gb) > 4 * fabs(gap(sr, sr->probe[c].y) - gb)) {
			i_lo = sr->probe[b].s < sr->probe[c].s ? b : c;
			i_hi = i_lo == b ? c : b;
		}
		if (i_lo >= 0) {
			int toward = gap(sr, sr->probe[i_hi].y) > gap(sr, sr->probe[i_lo].y);
			snprintf(why, why_len, "%s %s %.4g along this path (%.4g at s = %.4g, %.4g at s = "
				 "%.4g): target unreachable at this N", what,
				 toward ? "moves far too little toward" : "does not move toward", sr->target,
				 sr->probe[i_lo].y, sr->probe[i_lo].s, sr->probe[i_hi].y, sr->probe[i_hi].s);
			return SEARCH_GAVE_UP;
		}
		double ua = log(sr->probe[anchor].s), ga = gap(sr, sr->probe[anchor].y);
		double dir = gb < 0 ? 1 : -1;
		if (slope > 1e-3) {
			u = clamp(ub - gb / slope, ub - log(8), ub + log(8));
		} else if (sr->kind == SEARCH_TIME) {
			u = clamp(ua - ga / sr->exponent, ua - log(8), ua + log(8));
		} else if (c < 0) {
			u = ub + dir * log(2);
		} else {
			/* E flat within the noise so far: widen the span to a full step */
			u = ua + dir * fmax(log(2), log(8) - span);
		}
	}
	double s = clamp(exp(u), sr->s_min, sr->s_max);
	/* the target lies beyond a limit the search already stands at: a probe within a quarter
	 * of it (the run-time cap narrows s_max a little after each run near it, so the next size
	 * is never quite one tried; five probes of 5 s each found nothing new) */
	int at_limit = (exp(u) >= sr->s_max && near_tried(sr, sr->s_max)) ||
		       (exp(u) <= sr->s_min && near_tried(sr, sr->s_min));
	if (at_limit && !(lo >= 0 && hi >= 0)) {
		snprintf(why, why_len, "target unreachable within the size limits (s in %.4g..%.4g, "
			 "the largest capped by the run time); closest %s = %.4g at s = %.4g",
			 sr->s_min, sr->s_max, what, sr->probe[b].y, sr->probe[b].s);
		return SEARCH_GAVE_UP;
	}
	if (tried(sr, s, same, ctx)) {
		if (s >= sr->s_max * (1 - 1e-9) || s <= sr->s_min * (1 + 1e-9))
			snprintf(why, why_len, "target unreachable within the size limits (s in %.4g..%.4g); "
				 "closest %s = %.4g at s = %.4g", sr->s_min, sr->s_max, what,
				 sr->probe[b].y, sr->probe[b].s);
		else if (lo >= 0 && hi >= 0)
			snprintf(why, why_len, "sizes cannot be resolved finer between the bracketing runs; "
				 "closest %s = %.4g at s = %.4g", what, sr->probe[b].y, sr->probe[b].s);
		else
			snprintf(why, why_len, "%s responds too little to the size (the next size was "
				 "already tried): target unreachable at this N; closest %s = %.4g at s = %.4g",
				 what, what, sr->probe[b].y, sr->probe[b].s);
		return SEARCH_GAVE_UP;
	}
	*s_next = s;
	return SEARCH_CONTINUE;
}
