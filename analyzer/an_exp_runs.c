/*
 * an_exp_runs.c — the runs of an experiment store as the analyzer sees them: every row of the
 * runs table (kind, N, sizes, the runner's wall time and T_para), which T_seq a point uses and
 * how it was measured, the options each run's figures are computed with, and the analysis of a
 * run's trace on demand (an_exp_open reads only runs whose cached figures are stale; an_exp_run
 * reads the others when a caller wants their profile or timeline).
 *
 * T_seq must be measured like the T_para it is divided by (METRICS.md (9)), the same way the
 * runner does (collector/series.c), so that progress lines, searches and reports agree:
 *   1. traced sequential runs at the point's sizes: their T_para (trace against trace);
 *   2. else, when the sequential runs have wall times only: their wall time against each
 *      repetition's own wall time ("wall"), never against a traced region;
 *   3. else, without a sequential program, the N=1 runs at these sizes with a trace ("n1"):
 *      E(N=1) is 1 by construction and U is measured against their CPU time in compute;
 *   4. no such run in the store at all: the runner's T_seq as given ("runner").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_int.h"
#include "store.h"

static int traced_source(const char *src)
{
	return !strcmp(src, "region") || !strcmp(src, "threads");
}

int an_exp_runs_read(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT id, kind, n_threads, sizes, status, t_wall_s, t_para_s, "
			       "t_para_source FROM runs WHERE status NOT IN ('running', 'interrupted') "
			       "ORDER BY id", -1, &s, NULL) != SQLITE_OK)
		return -EIO;
	int rc = 0, src;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if ((rc = an_grow(&e->runs, &e->cap_runs, e->n_runs, sizeof *e->runs)) < 0)
			break;
		struct an_exp_run *x = &e->runs[e->n_runs++];
		memset(x, 0, sizeof *x);
		x->id = sqlite3_column_int64(s, 0);
		const unsigned char *t;
		snprintf(x->kind, sizeof x->kind, "%s", (t = sqlite3_column_text(s, 1)) ? (const char *)t : "");
		x->n_threads = sqlite3_column_int(s, 2);
		snprintf(x->sizes, sizeof x->sizes, "%s", (t = sqlite3_column_text(s, 3)) ? (const char *)t : "");
		t = sqlite3_column_text(s, 4);
		x->ok = t && !strcmp((const char *)t, "ok");
		x->t_wall_s = sqlite3_column_type(s, 5) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 5);
		x->t_para_s = sqlite3_column_type(s, 6) == SQLITE_NULL ? NAN : sqlite3_column_double(s, 6);
		snprintf(x->t_para_source, sizeof x->t_para_source, "%s",
			 (t = sqlite3_column_text(s, 7)) ? (const char *)t : "");
		char dir[4096];
		snprintf(dir, sizeof dir, "%s/runs/%lld/trace", e->dir, (long long)x->id);
		x->has_trace = access(dir, F_OK) == 0;
		x->seq = -1;
	}
	/* a damaged page ends the rows early: an error, not an experiment with fewer runs */
	if (rc == 0 && src != SQLITE_DONE && src != SQLITE_ROW)
		rc = -EIO;
	sqlite3_finalize(s);
	return rc;
}

struct an_exp_run *an_exp_run_find(const struct an_exp *e, int64_t id)
{
	size_t lo = 0, hi = e->n_runs;   /* rows are in id order */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->runs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->n_runs && e->runs[lo].id == id ? &e->runs[lo] : NULL;
}

void an_exp_run_base_opts(struct an_exp *e, struct an_exp_run *x)
{
	if (x->have_opts)
		return;
	memset(&x->opts, 0, sizeof x->opts);
	x->opts.n_cpus = e->n_cpus;
	x->opts.miss_ns = e->miss_ns;
	x->opts.unlock_ns = e->unlock_ns;
	x->opts.record_ns = e->record_ns;
	x->opts.unrecorded_call_ns = e->unrec_ns;
	x->have_opts = 1;
}

/* Median of the chosen times of the ok runs at `sizes` that `pick` selects (all of them). */
static size_t runs_median(const struct an_exp *e, const char *sizes, int (*pick)(const struct
			  an_exp_run *), int wall, double *med, long *first)
{
	double mn, mx, *v = malloc((e->n_runs ? e->n_runs : 1) * sizeof *v);
	size_t n = 0;
	*first = -1;
	for (size_t i = 0; v && i < e->n_runs; i++) {
		const struct an_exp_run *x = &e->runs[i];
		double t = wall ? x->t_wall_s : x->t_para_s;
		if (!x->ok || strcmp(x->sizes, sizes) || !pick(x) || isnan(t) || t <= 0)
			continue;
		if (*first < 0)
			*first = (long)i;
		v[n++] = t;
	}
	if (n)
		an_stats(v, n, med, &mn, &mx);
	free(v);
	return n;
}

static int is_seq(const struct an_exp_run *x) { return !strcmp(x->kind, "seq"); }
static int is_seq_traced(const struct an_exp_run *x)
{
	return is_seq(x) && traced_source(x->t_para_source);
}
static int is_n1_traced(const struct an_exp_run *x)
{
	return !strcmp(x->kind, "par") && x->n_threads == 1 && traced_source(x->t_para_source);
}
/* The run giving ML(1) at these sizes: a sequential run with a trace, else (N > 1) the N=1 run
 * with a trace; -1 none. */
static long ml1_run(const struct an_exp *e, const struct an_pt *p)
{
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < e->n_runs; i++) {
			const struct an_exp_run *x = &e->runs[i];
			if (!x->ok || !x->has_trace || strcmp(x->sizes, p->sizes))
				continue;
			if (pass == 0 ? is_seq(x) : p->pub.n_threads > 1 && !strcmp(x->kind, "par") &&
			    x->n_threads == 1)
				return (long)i;
		}
	}
	return -1;
}

size_t an_exp_t_seq_runs(const struct an_exp *e, const struct an_point *o, int64_t *ids,
			 size_t max)
{
	/* the choice an_exp_point_opts made, read back from the point: same picks, same filter
	 * as runs_median */
	int (*pick)(const struct an_exp_run *) = NULL;
	int wall = !strcmp(o->t_basis, "wall");
	size_t n = 0;
	if (!strcmp(o->t_basis, "runner"))
		return 0;
	if (!strcmp(o->t_seq_source, "sequential"))
		pick = wall ? is_seq : is_seq_traced;
	else if (!strcmp(o->t_seq_source, "n1"))
		pick = is_n1_traced;
	else
		return 0;
	for (size_t i = 0; i < e->n_runs; i++) {
		const struct an_exp_run *x = &e->runs[i];
		double t = wall ? x->t_wall_s : x->t_para_s;
		if (!x->ok || strcmp(x->sizes, o->sizes) || !pick(x) || isnan(t) || t <= 0)
			continue;
		if (n < max)
			ids[n] = x->id;
		n++;
	}
	return n;
}

void an_exp_point_opts(struct an_exp *e, struct an_pt *p)
{
	struct an_point *o = &p->pub;
	double ts = NAN;
	long first;
	size_t n;
	const char *basis = "trace";
	p->n1 = 0;
	if ((n = runs_median(e, p->sizes, is_seq_traced, 0, &ts, &first))) {
		snprintf(p->t_seq_source, sizeof p->t_seq_source, "sequential");
		snprintf(p->t_seq_how, sizeof p->t_seq_how, "T_seq: median T_para of %zu traced "
			 "sequential run(s) at these sizes, measured like T_para (the same region and "
			 "clock)", n);
	} else if ((n = runs_median(e, p->sizes, is_seq, 1, &ts, &first))) {
		/* the sequential program has wall times only: the parallel program's wall times
		 * go with them, never its traced region (one of each is what E > 1 came from) */
		basis = "wall";
		snprintf(p->t_seq_source, sizeof p->t_seq_source, "sequential");
		snprintf(p->t_seq_how, sizeof p->t_seq_how, "T_seq: median wall time of %zu "
			 "untraced sequential run(s); E, S, U pair it with each run's wall time (build "
			 "the sequential program with scalegraph cc to measure both by the region)", n);
	} else if ((n = runs_median(e, p->sizes, is_n1_traced, 0, &ts, &first))) {
		p->n1 = 1;
		snprintf(p->t_seq_source, sizeof p->t_seq_source, "n1");
		snprintf(p->t_seq_how, sizeof p->t_seq_how, "T_seq: median T_para of %zu N=1 run(s) "
			 "at these sizes (no sequential program): E(1) = 1 by construction, L(W,1) is "
			 "the program's own overhead at one thread, U is measured against the N=1 "
			 "runs' CPU time in compute", n);
	} else {
		/* no run behind the runner's figure: take it as given */
		basis = "runner";
		ts = o->t_seq_s;
		snprintf(p->t_seq_how, sizeof p->t_seq_how, "T_seq: the runner's (%s), no run of it "
			 "in the store", p->t_seq_source[0] ? p->t_seq_source : "source unknown");
	}
	snprintf(p->t_basis, sizeof p->t_basis, "%s", basis);
	long ml1 = ml1_run(e, p);
	for (int k = 0; k < o->n_reps; k++) {
		struct an_exp_run *x = an_exp_run_find(e, p->reps[k]);
		if (!x || x->have_opts)
			continue;   /* a run shared by points keeps the first point's options */
		an_exp_run_base_opts(e, x);
		struct an_run_opts *r = &x->opts;
		r->t_seq_s = isnan(ts) ? 0 : ts;
		r->t_seq_source = p->t_seq_source;
		r->n_threads = o->n_threads;
		r->t_para_ref_s = traced_source(x->t_para_source) && !isnan(x->t_para_s) ? x->t_para_s
											 : 0;
		if (!strcmp(basis, "wall")) {
			r->t_para_e_s = isnan(x->t_wall_s) ? 0 : x->t_wall_s;
			if (r->t_para_e_s <= 0)
				r->t_seq_s = 0;   /* no wall time to pair with: E unknown */
		}
		x->seq = ml1 >= 0 && &e->runs[ml1] != x ? ml1 : -1;
	}
}

/* With T_seq the N=1 run itself, U (extra work) is measured against the N=1 runs' CPU time in
 * compute at the same sizes, not against their T_para, which holds their own overhead: at N=1
 * it is then 0 up to the spread of the repetitions, not -L(W,1). */
void an_exp_n1_baseline(struct an_exp *e, struct an_pt *p)
{
	double md, mn, mx, mdc = 0, *v, *vc;
	size_t n = 0, nc = 0;
	if (!p->n1 || !(v = malloc((e->n_runs ? e->n_runs : 1) * sizeof *v)))
		return;
	if (!(vc = malloc((e->n_runs ? e->n_runs : 1) * sizeof *vc))) {
		free(v);
		return;
	}
	for (size_t i = 0; i < e->n_runs; i++) {
		struct an_exp_run *x = &e->runs[i];
		if (!x->ok || strcmp(x->sizes, p->sizes) || !is_n1_traced(x))
			continue;
		if (!x->have_fig)
			an_exp_run_analyze(e, x);
		if (x->have_fig && !x->fig[AN_COMPUTE].unavailable)
			v[n++] = x->fig[AN_COMPUTE].value;
		if (x->have_fig && !x->fig[AN_COMPUTE_C].unavailable)
			vc[nc++] = x->fig[AN_COMPUTE_C].value;
	}
	if (n)
		an_stats(v, n, &md, &mn, &mx);
	if (nc)
		an_stats(vc, nc, &mdc, &mn, &mx);
	free(v);
	free(vc);
	if (!n)
		return;
	for (int k = 0; k < p->pub.n_reps; k++) {
		struct an_exp_run *x = an_exp_run_find(e, p->reps[k]);
		if (x && !x->have_fig)
			an_exp_run_analyze(e, x);
		if (!x || !x->have_fig || x->fig[AN_COMPUTE].unavailable ||
		    x->fig[AN_U].unavailable)
			continue;
		x->opts.u_base_s = md;
		x->opts.u_base_comp_s = mdc;
		double ml = x->fig[AN_ML].unavailable ? 0 : x->fig[AN_ML].value;
		x->fig[AN_U] = an_fig_val(x->fig[AN_COMPUTE].value - md - ml);
		if (!x->fig[AN_U_C].unavailable && !x->fig[AN_COMPUTE_C].unavailable && mdc > 0)
			x->fig[AN_U_C] = an_fig_val(x->fig[AN_COMPUTE_C].value - mdc - ml);
		/* (3) and (10) with the baseline U now has: T_seq holds L(W,1) = T_seq - md (the
		 * figures, cached or not, are the run's own report's: issue 20) */
		double tp = x->fig[AN_T_PARA].value;
		if (!x->fig[AN_T_SEQ].unavailable && tp > 0)
			an_checks_set(x->fig, x->opts.t_seq_s, tp, x->opts.t_para_ref_s > 0
				      ? x->opts.t_para_ref_s : tp, x->opts.t_seq_s - md, 0);
		if (x->run)
			an_run_set_opts(x->run, &x->opts);
	}
}

void an_exp_comp_t_seq(struct an_exp *e, struct an_pt *p)
{
	int seq = !strcmp(p->t_basis, "trace") && !strcmp(p->t_seq_source, "sequential");
	double md, mn, mx, *v;
	size_t n = 0;
	p->t_seq_comp = 0;
	if (!(e->record_ns > 0) || (!seq && !p->n1) ||
	    !(v = malloc((e->n_runs ? e->n_runs : 1) * sizeof *v)))
		return;
	for (size_t i = 0; i < e->n_runs; i++) {
		struct an_exp_run *x = &e->runs[i];
		if (!x->ok || strcmp(x->sizes, p->sizes) || !(seq ? is_seq_traced(x) : is_n1_traced(x)))
			continue;
		if (!x->have_fig)
			an_exp_run_analyze(e, x);
		if (x->have_fig && !x->fig[AN_T_PARA_C].unavailable)
			v[n++] = x->fig[AN_T_PARA_C].value;
	}
	if (n)
		an_stats(v, n, &md, &mn, &mx);
	free(v);
	if (!n || !(md > 0))
		return;
	p->t_seq_comp = md;
	for (int k = 0; k < p->pub.n_reps; k++) {
		struct an_exp_run *x = an_exp_run_find(e, p->reps[k]);
		if (!x || !x->have_fig || x->opts.t_para_e_s > 0)
			continue;   /* a wall-clock E: its T_seq is untraced */
		x->opts.t_seq_comp_s = md;
		if (x->run) {
			an_run_set_opts(x->run, &x->opts);
			x->fig[AN_E_C] = an_run_fig(x->run, AN_E_C);
			x->fig[AN_U_C] = an_run_fig(x->run, AN_U_C);
			continue;
		}
		/* figures from the cache: the same formulas as an_run.c's cost_figures */
		struct an_fig *f = x->fig;
		if (f[AN_E_C].unavailable || f[AN_T_PARA_C].unavailable || !(f[AN_T_PARA_C].value > 0))
			continue;
		double N = f[AN_N].value, ml = f[AN_ML].unavailable ? 0 : f[AN_ML].value;
		f[AN_E_C] = an_fig_val(md / (N * f[AN_T_PARA_C].value));
		if (p->n1 && x->opts.u_base_comp_s > 0)
			continue;   /* U_comp against the N=1 runs' compute (an_exp_n1_baseline) */
		if (!f[AN_COMPUTE_C].unavailable)
			f[AN_U_C] = an_fig_val(f[AN_COMPUTE_C].value - md - ml);
		else if (!f[AN_IT_C].unavailable && !f[AN_PT_C].unavailable)
			f[AN_U_C] = an_fig_val(N * f[AN_T_PARA_C].value - md -
					       (f[AN_IT_C].value + f[AN_PT_C].value + ml));
	}
}

struct an_run *an_exp_run_analyze(struct an_exp *e, struct an_exp_run *x)
{
	if (x->run || x->tried)
		return x->run;
	x->tried = 1;
	if (!x->has_trace && !traced_source(x->t_para_source)) {
		/* an untraced build or --no-trace, not a lost trace: counted, said once (an_exp.c) */
		e->n_untraced++;
		return NULL;
	}
	an_exp_run_base_opts(e, x);
	struct an_run_opts o = x->opts;
	if (x->seq >= 0)
		o.seq = an_exp_run_analyze(e, &e->runs[x->seq]);
	char dir[4096], err[1024] = "";
	snprintf(dir, sizeof dir, "%s/runs/%lld/trace", e->dir, (long long)x->id);
	if (an_run_open(dir, &o, &x->run, err, sizeof err) < 0) {
		an_exp_problem_add(e, "run %lld: %s", (long long)x->id, err);
		x->run = NULL;
		return NULL;
	}
	e->n_analyzed++;
	if (!x->from_cache)
		for (size_t i = 0; i < an_run_n_problems(x->run); i++)
			an_exp_problem_add(e, "run %lld: %s", (long long)x->id,
					   an_run_problem(x->run, i));
	if (!x->have_fig) {
		for (int m = 0; m < AN_N_METRICS; m++)
			x->fig[m] = an_run_fig(x->run, (enum an_metric)m);
		x->have_fig = 1;
	}
	return x->run;
}

struct an_fig an_exp_run_fig(const struct an_exp *e, int64_t run_id, enum an_metric m)
{
	const struct an_exp_run *x = an_exp_run_find(e, run_id);
	if (!x)
		return an_fig_na("no such run in the store");
	if (!x->have_fig || (unsigned)m >= AN_N_METRICS)
		return an_fig_na(x->ok ? "not analysed (no point of the experiment uses this run)"
				       : "the run gave no measurement");
	return x->fig[m];
}

struct an_run *an_exp_run(const struct an_exp *e, int64_t run_id)
{
	struct an_exp_run *x = an_exp_run_find(e, run_id);
	if (!x || (!x->run && !x->has_trace))
		return NULL;
	/* analysis on first use mutates the experiment's own heap state, never a const object */
	return an_exp_run_analyze((struct an_exp *)e, x);
}

struct an_run *an_exp_seq_profile(const struct an_exp *e, const struct an_point *o,
				  const char **source, int64_t *run_id)
{
	*source = NULL;
	*run_id = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < e->n_runs; i++) {
			struct an_exp_run *x = &e->runs[i];
			if (!x->ok || !x->has_trace || strcmp(x->sizes, o->sizes) ||
			    (pass == 0 ? !is_seq(x) : strcmp(x->kind, "par") || x->n_threads != 1))
				continue;
			struct an_run *r = an_exp_run(e, x->id);
			if (!r)
				continue;
			*source = pass == 0 ? "sequential" : "n1";
			*run_id = x->id;
			return r;
		}
	return NULL;
}
