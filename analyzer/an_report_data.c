/*
 * an_report_data.c — the machine-readable reports: `--csv` (one row per (method, N, W), the
 * columns of issue 5 in order, times in seconds, unavailable values empty), `--matrix --csv`
 * (N,N2,time_bound,e_conserved,memory_bound) and `--json` (docs/report-json.md). The GUI reads
 * the CSV; its header lines are part of the contract (docs/analyzer.md): a change is a contract
 * change, made with the GUI's reader in the same commit.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

static const enum an_metric csv_cols[] = {
	AN_T_PARA, AN_T_SEQ, AN_E, AN_S, AN_L, AN_IT_EDGE, AN_IT_BARRIER, AN_IT_LOCK, AN_IT_COND,
	AN_IT_SEM, AN_IT_JOIN, AN_IT_SCHED, AN_IT_BLOCKED, AN_PT_BARRIER, AN_PT_LOCK, AN_PT_SEM,
	AN_PT_THREAD, AN_ML, AN_U, AN_PARALLELISM, AN_CLOSURE,
};
#define N_CSV_COLS (sizeof csv_cols / sizeof csv_cols[0])

static const char csv_header[] =
	"method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,IT_lock,IT_cond,IT_sem,IT_join,"
	"IT_sched,IT_blocked,PT_barrier,PT_lock,PT_sem,PT_thread,ML,U,parallelism,closure,"
	"oversubscribed,T_plain,T_traced_wall,overhead_measured,overhead_estimated,"
	"overhead_marked\n";

static void csv_fig(FILE *f, struct an_fig x)
{
	if (!x.unavailable && isfinite(x.value))
		fprintf(f, ",%.9g", x.value);
	else
		fputs(",", f);
}

/* A CSV field: quoted when it holds a comma or a quote. */
static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_matrix(FILE *f, const struct an_exp *e)
{
	int ns[256];
	size_t k = an_exp_matrix_n(e, ns, 256);
	fputs("N,N2,time_bound,e_conserved,memory_bound\n", f);
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++) {
			struct an_cell c;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			fprintf(f, "%d,%d", c.n, c.n2);
			for (int m = 0; m < AN_N_MODELS; m++)
				csv_fig(f, c.scale[m]);
			fputc('\n', f);
		}
}

int an_report_exp_csv(FILE *f, const struct an_exp *e, unsigned flags)
{
	if (flags & AN_REPORT_MATRIX_ONLY) {
		csv_matrix(f, e);
		return ferror(f) ? -EIO : 0;
	}
	fputs(csv_header, f);
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		csv_str(f, strcmp(o->model, "method") == 0 ? o->method : o->model);
		fprintf(f, ",%d,%.9g,%d", o->n_threads, o->work, o->n_reps);
		for (size_t c = 0; c < N_CSV_COLS; c++)
			csv_fig(f, o->med[csv_cols[c]]);
		fprintf(f, ",%d", o->med[AN_OVERSUB].value > 0);
		/* the distortion measured against the plain build (issue 21), empty where not
		 * measured; overhead_marked: measured and estimated differ by more than 5 points */
		csv_fig(f, o->t_plain);
		csv_fig(f, o->t_traced_wall);
		csv_fig(f, o->ovh_measured);
		csv_fig(f, o->ovh_estimated);
		fprintf(f, ",%d\n", o->ovh_marked);
	}
	return ferror(f) ? -EIO : 0;
}

int an_report_run_csv(FILE *f, const struct an_run *r)
{
	fputs(csv_header, f);
	fputs("run", f);
	fprintf(f, ",%.0f,,1", an_run_fig(r, AN_N).value);
	for (size_t c = 0; c < N_CSV_COLS; c++)
		csv_fig(f, an_run_fig(r, csv_cols[c]));
	fprintf(f, ",%d,,,,,0\n", an_run_fig(r, AN_OVERSUB).value > 0);
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON ---- */

/* Every string through the tools' one JSON writer: valid UTF-8 whatever the bytes of a name
 * (docs/report-json.md "Strings"). */
static void js_str(FILE *f, const char *s)
{
	sgr_json_fput(f, s);
}

static void js_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("null", f);
}

/* {"value": x} or {"value": null, "unavailable": "why"} */
static void js_fig(FILE *f, struct an_fig x)
{
	fputs("{\"value\": ", f);
	js_num(f, x.unavailable ? NAN : x.value);
	if (x.unavailable) {
		fputs(", \"unavailable\": ", f);
		js_str(f, x.unavailable);
	}
	fputc('}', f);
}

/* The function profile of a run as a JSON array, largest exclusive time first. */
static void js_funcs(FILE *f, const struct an_run *r)
{
	fputc('[', f);
	for (size_t i = 0; i < an_run_n_funcs(r); i++) {
		const struct an_func *x = an_run_func(r, i);
		fprintf(f, "%s\n  {\"id\": %u, \"name\": ", i ? "," : "", x->id);
		js_str(f, x->name);
		fputs(", \"file\": ", f);
		js_str(f, x->file);
		fprintf(f, ", \"line\": %d, \"calls\": %llu, \"incl_ns\": %lld, \"excl_ns\": %lld, "
			"\"incl_pct\": %.4f, \"excl_pct\": %.4f, \"recorded_calls\": %llu, "
			"\"unrecorded_calls\": %llu, \"unrecorded_ns\": %lld, \"throttled\": ", x->line,
			(unsigned long long)x->calls, (long long)x->incl_ns, (long long)x->excl_ns,
			x->incl_pct, x->excl_pct, (unsigned long long)x->rec_calls,
			(unsigned long long)x->unrec_calls, (long long)x->unrec_ns);
		if (!x->throttled)
			fputs("null", f);
		else
			fprintf(f, "{\"why\": \"%s\", \"at_ns\": %lld, \"after_calls\": %llu, "
				"\"threads\": %d}", x->throttled == SG_THROTTLE_BUDGET ? "budget" : "rule",
				(long long)x->throttled_ns, (unsigned long long)x->throttled_after,
				x->n_throttled);
		/* work only: the time in pthread_join taken out (an N=1 run's profile) */
		fprintf(f, ", \"join_ns\": %lld, \"work_excl_ns\": %lld, \"work_pct\": %.4f}",
			(long long)x->join_ns, (long long)x->work_excl_ns, x->work_pct);
	}
	fputc(']', f);
}

static void js_strs(FILE *f, size_t n, const char *(*get)(const void *, size_t), const void *o)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		js_str(f, get(o, i));
	}
	fputc(']', f);
}

/* "name": ns, or null when unknown (negative). */
static void js_ns(FILE *f, const char *name, int64_t v)
{
	fprintf(f, ", \"%s\": ", name);
	if (v >= 0)
		fprintf(f, "%lld", (long long)v);
	else
		fputs("null", f);
}

static const char *run_problem(const void *o, size_t i) { return an_run_problem(o, i); }
static const char *run_note(const void *o, size_t i) { return an_run_note(o, i); }
static const char *exp_problem(const void *o, size_t i) { return an_exp_problem(o, i); }

/* One source's sites: {"source", "what", "seconds", "runs", "sites": [{"id", "file", "line",
 * "function", "seconds", "share", "threads": [{"thread", "seconds"}]}]} (id null: the unknown
 * site). */
static void js_site_source(FILE *f, const struct an_sites *v)
{
	fputs("{\"source\": ", f);
	js_str(f, an_metric_name(v->source));
	fputs(", \"what\": ", f);
	js_str(f, an_site_source_what(v->source));
	fputs(", \"seconds\": ", f);
	js_num(f, v->total);
	fputs(", \"runs\": [", f);
	for (int k = 0; k < v->n_runs; k++)
		fprintf(f, "%s%lld", k ? ", " : "", (long long)v->run_ids[k]);
	fputs("], \"sites\": [", f);
	for (size_t i = 0; i < v->n; i++) {
		const struct an_site *x = &v->v[i];
		fputs(i ? ",\n    {\"id\": " : "\n    {\"id\": ", f);
		if (x->id == SG_NO_ID)
			fputs("null", f);
		else
			fprintf(f, "%u", x->id);
		fputs(", \"file\": ", f);
		js_str(f, x->file);
		fprintf(f, ", \"line\": %d, \"function\": ", x->line);
		js_str(f, x->func);
		fputs(", \"seconds\": ", f);
		js_num(f, x->s);
		fputs(", \"share\": ", f);
		js_num(f, x->share);
		fputs(", \"threads\": [", f);
		for (size_t j = 0; j < x->n_threads; j++) {
			fprintf(f, "%s{\"thread\": %u, \"seconds\": ", j ? ", " : "",
				x->threads[j].index);
			js_num(f, x->threads[j].s);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}

/* The sources with time at some site, as an array (sources without any left out). */
static void js_site_sources(FILE *f, const struct an_sites *v, size_t n_src)
{
	int first = 1;
	fputs("[", f);
	for (size_t k = 0; k < n_src; k++) {
		if (!v[k].n)
			continue;
		fputs(first ? "\n   " : ",\n   ", f);
		first = 0;
		js_site_source(f, &v[k]);
	}
	fputs("]", f);
}

/* "state": "no_call", "why": "call sites: no wrapped call was made (...)" (null when
 * recorded) */
static void js_sites_state(FILE *f, enum an_sites_state st)
{
	fputs("\"state\": ", f);
	js_str(f, an_sites_state_name(st));
	fputs(", \"why\": ", f);
	if (st == AN_SITES_RECORDED)
		fputs("null", f);
	else
		js_str(f, an_sites_state_text(st));
}

/* "call_sites" of a run: {"recorded": bool, "state": ..., "why": ..., "sources": [...]} */
static void js_run_sites(FILE *f, const struct an_run *r)
{
	size_t n_src = an_site_n_sources();
	an_sites_row v;
	for (size_t k = 0; k < n_src; k++)
		if (an_run_sites(r, an_site_source_at(k), &v[k]) < 0)
			memset(&v[k], 0, sizeof v[k]);
	fprintf(f, ",\n \"call_sites\": {\"recorded\": %s, ",
		an_run_sites_recorded(r) ? "true" : "false");
	js_sites_state(f, an_run_sites_state(r));
	fputs(", \"sources\": ", f);
	js_site_sources(f, v, n_src);
	fputc('}', f);
	for (size_t k = 0; k < n_src; k++)
		an_sites_free(&v[k]);
}

/* "call_sites" of an experiment: each method at its largest N, as the text report. */
static void js_exp_sites(FILE *f, const struct an_exp *e)
{
	size_t n_src = an_site_n_sources(), n_m = an_exp_n_methods(e);
	int recorded = 0;
	an_sites_row *v = an_exp_sites_table(e, &recorded);
	if (!v)
		return;
	fprintf(f, ",\n \"call_sites\": {\"recorded\": %s, \"points\": [",
		recorded ? "true" : "false");
	int first = 1;
	for (size_t i = 0; i < n_m; i++) {
		const struct an_point *o = an_exp_sites_point(e, an_exp_method(e, i));
		if (!o)
			continue;
		int rec = 0;
		for (size_t k = 0; k < n_src; k++)
			rec |= v[i][k].recorded;
		fputs(first ? "\n  {\"model\": " : ",\n  {\"model\": ", f);
		first = 0;
		js_str(f, o->model);
		fputs(", \"method\": ", f);
		js_str(f, o->method);
		fprintf(f, ", \"N\": %d, \"point_id\": %lld, \"recorded\": %s, ",
			o->n_threads, (long long)o->id, rec ? "true" : "false");
		js_sites_state(f, an_sites_row_state(v[i], n_src));
		fputs(", \"sources\": ", f);
		js_site_sources(f, v[i], n_src);
		fputc('}', f);
	}
	fputs("]}", f);
	an_exp_sites_table_free(e, v);
}

/* A p_x entry's (10): "L_from_E" (the point's), "identity" (an_point_l_e_note) and "terms":
 * {"runs": [2], "L": s, "U_over_N": s, "L_W1_over_N": s, "check3": x}, the terms of the
 * repetition of the median T_para (an_point_identity), null without one or by construction. */
static void js_px_identity(FILE *f, const struct an_exp *e, const struct an_point *o)
{
	struct an_identity x;
	if (!o)
		return;
	fputs(", \"L_from_E\": ", f);
	js_fig(f, o->med[AN_L_E]);
	fputs(", \"identity\": ", f);
	js_str(f, an_point_l_e_note(o));
	fputs(", \"terms\": ", f);
	if (!strncmp(an_point_l_e_note(o), "by construction", 15) || an_point_identity(e, o, &x) < 0) {
		fputs("null", f);
		return;
	}
	fputs("{\"runs\": [", f);
	for (int k = 0; k < x.n_runs; k++)
		fprintf(f, "%s%lld", k ? ", " : "", (long long)x.run_ids[k]);
	fputs("], \"T_para_1_minus_E\": ", f);
	js_num(f, x.l_e);
	fputs(", \"L\": ", f);
	js_num(f, x.l);
	fputs(", \"U_over_N\": ", f);
	js_num(f, x.u_n);
	fputs(", \"L_W1_over_N\": ", f);
	js_num(f, x.l_w1_n);
	fputs(", \"check3\": ", f);
	js_num(f, x.check3);
	fputc('}', f);
}

static void js_run_body(FILE *f, const struct an_run *r)
{
	int64_t t0, t1;
	an_run_span(r, &t0, &t1);
	fputs("{\"kind\": \"run\", \"dir\": ", f);
	js_str(f, an_run_dir(r));
	fprintf(f, ", \"events\": %llu, \"t0_ns\": %lld, \"t1_ns\": %lld, \"N_unsure\": ",
		(unsigned long long)an_run_n_events(r), (long long)t0, (long long)t1);
	if (an_run_n_unsure(r))
		js_str(f, an_run_n_unsure(r));
	else
		fputs("null", f);
	fputs(",\n \"figures\": {", f);
	for (int m = 0; m < AN_N_METRICS; m++) {
		fprintf(f, "%s\n  \"%s\": ", m ? "," : "", an_metric_name((enum an_metric)m));
		js_fig(f, an_run_fig(r, (enum an_metric)m));
	}
	fputs("},\n \"threads\": [", f);
	for (size_t i = 0; i < an_run_n_threads(r); i++) {
		const struct an_thread *t = an_run_thread(r, i);
		fprintf(f, "%s\n  {\"index\": %u, \"os_tid\": %d, \"processor\": %s, \"why\": ",
			i ? "," : "", t->index, (int)t->os_tid, t->processor ? "true" : "false");
		js_str(f, t->why);
		fprintf(f, ", \"s_ns\": %lld, \"e_ns\": %lld, \"T_i_ns\": %lld, \"busy_ns\": %lld, "
			"\"barrier_wait_ns\": %lld, \"barrier_ovh_ns\": %lld, \"lock_wait_ns\": %lld, "
			"\"lock_ovh_ns\": %lld, \"cond_ns\": %lld, \"sem_wait_ns\": %lld, "
			"\"sem_ovh_ns\": %lld, \"join_wait_ns\": %lld, \"thread_ns\": %lld",
			(long long)t->s_ns, (long long)t->e_ns, (long long)t->t_ns, (long long)t->busy_ns,
			(long long)t->barrier_wait_ns, (long long)t->barrier_ovh_ns,
			(long long)t->lock_wait_ns, (long long)t->lock_ovh_ns, (long long)t->cond_ns,
			(long long)t->sem_wait_ns, (long long)t->sem_ovh_ns,
			(long long)t->join_wait_ns, (long long)t->thread_ns);
		js_ns(f, "sched_ns", t->sched_ns);
		js_ns(f, "blocked_ns", t->blocked_ns);
		js_ns(f, "cpu_ns", t->cpu_ns);
		js_ns(f, "cpu_kernel_ns", t->cpu_kernel_ns);
		fprintf(f, ", \"events\": %llu, \"records\": %llu, \"unrecorded_calls\": %llu",
			(unsigned long long)t->n_events, (unsigned long long)t->n_records,
			(unsigned long long)t->unrec_calls);
		js_ns(f, "trace_cost_ns", t->trace_cost_ns);
		fputc('}', f);
	}
	fputs("],\n \"functions\": ", f);
	js_funcs(f, r);
	fputs(",\n \"locks\": [", f);
	for (size_t i = 0; i < an_run_n_locks(r); i++) {
		const struct an_lock *l = an_run_lock(r, i);
		fprintf(f, "%s\n  {\"id\": %u, \"kind\": \"%s\", \"acquires\": %llu, "
			"\"contended\": %llu, \"failed_trylocks\": %llu, \"wait_ns\": %lld, "
			"\"ovh_ns\": %lld, \"runnable_ns\": %lld, \"others_ns\": %lld, \"hold_ns\": %lld, "
			"\"max_wait_ns\": %lld}", i ? "," : "",
			l->id, l->kind, (unsigned long long)l->acquires,
			(unsigned long long)l->contended, (unsigned long long)l->failed_trylocks,
			(long long)l->wait_ns, (long long)l->ovh_ns, (long long)l->runnable_ns,
			(long long)l->others_ns, (long long)l->hold_ns, (long long)l->max_wait_ns);
	}
	fputs("],\n \"barriers\": [", f);
	for (size_t i = 0; i < an_run_n_barriers(r); i++) {
		const struct an_barrier *b = an_run_barrier(r, i);
		fprintf(f, "%s\n  {\"id\": %u, \"episodes\": %llu, \"wait_ns\": %lld, "
			"\"ovh_ns\": %lld, \"runnable_ns\": %lld, \"others_ns\": %lld, "
			"\"worst_skew_ns\": %lld, \"worst_episode\": %u}",
			i ? "," : "", b->id, (unsigned long long)b->episodes, (long long)b->wait_ns,
			(long long)b->ovh_ns, (long long)b->runnable_ns, (long long)b->others_ns,
			(long long)b->worst_skew_ns, b->worst_episode);
	}
	fputs("],\n \"semaphores\": [", f);
	for (size_t i = 0; i < an_run_n_sems(r); i++) {
		const struct an_sem *x = an_run_sem(r, i);
		fprintf(f, "%s\n  {\"id\": %u, \"waits\": %llu, \"blocked\": %llu, \"failed\": %llu, "
			"\"timeouts\": %llu, \"posts\": %llu, \"wait_ns\": %lld, \"ovh_ns\": %lld, "
			"\"runnable_ns\": %lld, \"others_ns\": %lld, \"max_wait_ns\": %lld}",
			i ? "," : "", x->id, (unsigned long long)x->waits,
			(unsigned long long)x->blocked, (unsigned long long)x->failed,
			(unsigned long long)x->timeouts, (unsigned long long)x->posts,
			(long long)x->wait_ns, (long long)x->ovh_ns, (long long)x->runnable_ns,
			(long long)x->others_ns, (long long)x->max_wait_ns);
	}
	fputc(']', f);
	js_run_sites(f, r);
	fputs(",\n \"notes\": ", f);
	js_strs(f, an_run_n_notes(r), run_note, r);
	fputs(",\n \"problems\": ", f);
	js_strs(f, an_run_n_problems(r), run_problem, r);
	fputs("}", f);
}

int an_report_run_json(FILE *f, const struct an_run *r)
{
	js_run_body(f, r);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* Sequential patterns vs W: one entry per method and size (an_report_text.c says the same). */
static void js_patterns(FILE *f, const struct an_exp *e)
{
	fputs(",\n \"patterns\": [", f);
	int first = 1;
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++) {
			const struct an_point *q = an_exp_point(e, j);
			seen = !strcmp(q->model, "method") && !strcmp(q->method, o->method) &&
			       !strcmp(q->sizes, o->sizes);
		}
		if (strcmp(o->model, "method") != 0 || seen)
			continue;
		const char *src;
		int64_t id;
		struct an_run *r = an_exp_seq_profile(e, o, &src, &id);
		fputs(first ? "\n  {\"method\": " : ",\n  {\"method\": ", f);
		first = 0;
		js_str(f, o->method);
		fputs(", \"W\": ", f);
		js_num(f, o->work);
		fputs(", \"sizes\": ", f);
		js_str(f, o->sizes);
		if (!r) {
			fputs(", \"source\": null, \"run\": null, \"unavailable\": ", f);
			js_str(f, "no traced sequential or N=1 run at these sizes");
			fputc('}', f);
			continue;
		}
		fputs(", \"source\": ", f);
		js_str(f, src);
		fprintf(f, ", \"run\": %lld, \"cpu_utilization\": ", (long long)id);
		js_fig(f, an_run_fig(r, AN_CPU_UTIL));
		fputs(", \"memory_access_rate\": ", f);
		js_fig(f, an_run_fig(r, AN_MEM_RATE));
		fputs(", \"miss_rate\": ", f);
		js_fig(f, an_run_fig(r, AN_MISS_RATE));
		fputs(",\n   \"functions\": ", f);
		js_funcs(f, r);
		fputc('}', f);
	}
	fputc(']', f);
}

static void js_point(FILE *f, const struct an_point *o)
{
	fprintf(f, "  {\"id\": %lld, \"model\": ", (long long)o->id);
	js_str(f, o->model);
	fputs(", \"method\": ", f);
	js_str(f, o->method);
	fprintf(f, ", \"N\": %d, \"sizes\": ", o->n_threads);
	js_str(f, o->sizes);
	fputs(", \"W\": ", f);
	js_num(f, o->work);
	fputs(", \"scale\": ", f);
	js_num(f, o->scale);
	fputs(", \"target\": ", f);
	js_num(f, o->target);
	fputs(", \"t_seq_source\": ", f);
	js_str(f, o->t_seq_source);
	fputs(", \"t_basis\": ", f);
	js_str(f, o->t_basis);
	fputs(", \"t_seq_how\": ", f);
	js_str(f, o->t_seq_how);
	fprintf(f, ", \"oversubscribed\": %s, \"note\": ",
		o->med[AN_OVERSUB].value > 0 ? "true" : "false");
	js_str(f, o->note);
	fprintf(f, ", \"seq_run\": %lld, \"reps\": [", (long long)o->seq_id);
	for (int k = 0; k < o->n_reps; k++)
		fprintf(f, "%s%lld", k ? ", " : "", (long long)o->rep_ids[k]);
	fputs("],\n   \"figures\": {", f);
	for (int m = 0; m < AN_N_METRICS; m++) {
		fprintf(f, "%s\n    \"%s\": ", m ? "," : "", an_metric_name((enum an_metric)m));
		if (o->med[m].unavailable) {
			js_fig(f, o->med[m]);
			continue;
		}
		fputs("{\"median\": ", f);
		js_num(f, o->med[m].value);
		fputs(", \"min\": ", f);
		js_num(f, o->min[m].unavailable ? NAN : o->min[m].value);
		fputs(", \"max\": ", f);
		js_num(f, o->max[m].unavailable ? NAN : o->max[m].value);
		fprintf(f, ", \"unit\": \"%s\"}", an_metric_unit((enum an_metric)m));
	}
	fputs("},\n   \"overhead\": {\"measured\": ", f);
	js_fig(f, o->ovh_measured);
	fputs(", \"estimated\": ", f);
	js_fig(f, o->ovh_estimated);
	fputs(", \"T_plain\": ", f);
	js_fig(f, o->t_plain);
	fputs(", \"T_traced_wall\": ", f);
	js_fig(f, o->t_traced_wall);
	fprintf(f, ", \"plain_runs\": %d, \"traced_runs\": %d, \"marked\": %s, \"why\": ",
		o->n_plain, o->n_traced, o->ovh_marked ? "true" : "false");
	if (o->ovh_why)
		js_str(f, o->ovh_why);
	else
		fputs("null", f);
	fputs("}}", f);
}

int an_report_exp_json(FILE *f, const struct an_exp *e, unsigned flags)
{
	fputs("{\"kind\": \"experiment\", \"dir\": ", f);
	js_str(f, an_exp_dir(e));
	fprintf(f, ", \"n_cpus\": %d,\n \"methods\": [", an_exp_n_cpus(e));
	for (size_t i = 0; i < an_exp_n_methods(e); i++) {
		fputs(i ? ", " : "", f);
		js_str(f, an_exp_method(e, i));
	}
	fputs("],\n \"points\": [", f);
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		fputs(i ? ",\n" : "\n", f);
		js_point(f, an_exp_point(e, i));
	}
	fputc(']', f);
	js_patterns(f, e);
	fputs(",\n \"p_x\": [", f);
	int first = 1;
	for (size_t i = 0; i < an_exp_n_methods(e); i++) {
		int px;
		struct an_fig tp, lat;
		if (an_exp_px(e, an_exp_method(e, i), &px, &tp, &lat) < 0)
			continue;
		fputs(first ? "\n  {\"method\": " : ",\n  {\"method\": ", f);
		first = 0;
		js_str(f, an_exp_method(e, i));
		fprintf(f, ", \"p_x\": %d, \"T_para\": ", px);
		js_fig(f, tp);
		fputs(", \"L\": ", f);
		js_fig(f, lat);
		js_px_identity(f, e, an_exp_point_find(e, "method", an_exp_method(e, i), px));
		fputc('}', f);
	}
	int ns[256];
	size_t k = an_exp_matrix_n(e, ns, 256);
	fputs("],\n \"matrix\": {\"N\": [", f);
	for (size_t i = 0; i < k; i++)
		fprintf(f, "%s%d", i ? ", " : "", ns[i]);
	fputs("], \"cells\": [", f);
	first = 1;
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k; j++) {
			struct an_cell c;
			if (an_exp_matrix_cell(e, ns[i], ns[j], &c) < 0)
				continue;
			fprintf(f, "%s\n  {\"N\": %d, \"N2\": %d", first ? "" : ",", c.n, c.n2);
			first = 0;
			for (int m = 0; m < AN_N_MODELS; m++) {
				fprintf(f, ", \"%s\": ", an_model_name((enum an_model)m));
				js_fig(f, c.scale[m]);
				fprintf(f, ", \"%s_points\": [%lld, %lld]",
					an_model_name((enum an_model)m), (long long)c.point[m],
					(long long)c.point2[m]);
				/* the operands: the value is L / L' (an_cell_explain) */
				fprintf(f, ", \"%s_L\": [", an_model_name((enum an_model)m));
				js_fig(f, c.side[m][0].point ? c.side[m][0].l : an_fig_na("no point"));
				fputs(", ", f);
				js_fig(f, c.side[m][1].point ? c.side[m][1].l : an_fig_na("no point"));
				fputc(']', f);
			}
			fputs(", \"isospeed\": ", f);
			js_fig(f, c.isospeed);
			fprintf(f, ", \"caveat\": %s, \"off_target\": [%s, %s, %s]}",
				c.caveat ? "true" : "false", c.off_target[0] ? "true" : "false",
				c.off_target[1] ? "true" : "false", c.off_target[2] ? "true" : "false");
		}
	fputs("]}", f);
	js_exp_sites(f, e);
	fputs(",\n \"failed_runs\": [", f);
	for (size_t i = 0; i < an_exp_n_failures(e); i++) {
		const struct an_run_failure *x = an_exp_failure(e, i);
		fprintf(f, "%s\n  {\"id\": %lld, \"kind\": ", i ? "," : "", (long long)x->id);
		js_str(f, x->kind);
		fprintf(f, ", \"N\": %d, \"sizes\": ", x->n_threads);
		js_str(f, x->sizes);
		fputs(", \"status\": ", f);
		js_str(f, x->status);
		fputs(", \"reason\": ", f);
		js_str(f, x->reason);
		fputs(", \"stderr_tail\": ", f);
		js_str(f, x->stderr_tail);
		fputc('}', f);
	}
	fputs("],\n \"problems\": ", f);
	js_strs(f, an_exp_n_problems(e), exp_problem, e);
	fputs("}\n", f);
	return ferror(f) ? -EIO : 0;
}
