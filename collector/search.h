/*
 * search.h — the size search of the time-bound and E-conserved models: find the scale s of a
 * method's path at which a measured quantity y(s) (T_para, or E) meets a target. Pure: the
 * caller measures y at the s this proposes and feeds it back, so the algorithm is tested on
 * synthetic functions and replays identically from stored runs on resume.
 *
 * Algorithm (docs/collector.md): y is assumed to grow with s (E may be found to fall with s
 * instead, once, from two probes a factor 8 apart; the search then turns around). Work in u = log s and v = log y
 * (time) or v = y (efficiency). One probe: step by the caller's model exponent (time: T ~ s^b
 * with b = d log W / d log s) or by a factor of 2 (E). Two or more probes on one side: secant
 * through the two probes nearest the target, the step limited to a factor of 8. Once the target
 * is bracketed: interpolation between the tightest bracket, kept inside its middle 80 % so that
 * a bad secant cannot stall (safeguarded regula falsi). Stops when a probe is within the
 * tolerance, when s is pinned at a limit (target unreachable), when the bracket cannot be split
 * (sizes are integers), or after max_probes; then the closest probe is reported with why.
 */
#ifndef SEARCH_H
#define SEARCH_H

#include <stddef.h>

#define SEARCH_MAX_PROBES 16

enum search_kind { SEARCH_TIME, SEARCH_EFFICIENCY };

struct search_probe {
	double s;
	double y;   /* NAN when the run failed */
};

struct search {
	enum search_kind kind;
	double target;
	double tol;            /* relative for time (0.02), absolute for E (0.02) */
	double s_min, s_max;   /* the caller may narrow s_max between steps (timeout) */
	double exponent;       /* time: d log T / d log s guess for the first step */
	int sign;              /* +1: y grows with s; -1: E found to fall with s (flipped once) */
	int max_probes;
	int n;
	struct search_probe probe[SEARCH_MAX_PROBES];
};

enum search_state { SEARCH_CONTINUE, SEARCH_CONVERGED, SEARCH_GAVE_UP };

/* Initializes a search (max_probes defaults to 6 when 0). */
void search_init(struct search *sr, enum search_kind kind, double target, double tol,
		 double s_min, double s_max, double exponent, int max_probes);

/* Records the outcome y at s of the last proposal. */
void search_add(struct search *sr, double s, double y);

/* Decides the next step: SEARCH_CONTINUE with the next s in *s_next, or a final state with the
 * best probe's index in *best and the reason in `why` (for GAVE_UP). `same` tells whether two
 * scales give the same sizes (integral rounding), may be NULL. */
enum search_state search_next(struct search *sr, double *s_next, int *best, char *why,
			      size_t why_len, int (*same)(void *ctx, double a, double b), void *ctx);

/* Whether probe y meets the target within the tolerance. */
int search_within(const struct search *sr, double y);

#endif /* SEARCH_H */
