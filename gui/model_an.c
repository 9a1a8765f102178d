/*
 * model_an.c — the analyzer adapter: fills the GUI model from an experiment store through the
 * analyzer library (analyzer.h: points with repetition medians, the t/E/m matrix, the function
 * profile and patterns of the sequential runs) and reads the runs table and machine row of
 * the store itself (docs/store-schema.md) so the browser also shows runs still in progress and
 * failures with their reasons. It only calls model_add_*: the model stays X- and SQL-free.
 * Nothing here parses a trace.
 */
#include "model.h"

#include "analyzer.h"
#include "store.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The name a point goes by in the model: the method for plain methods, the scaling model
 * ("time-bound") for the size-bound models, so matrix and windows find them by those names. */
static void point_name(const struct an_point *p, char *buf, size_t len)
{
	if (strcmp(p->model, "method") == 0)
		snprintf(buf, len, "%s", p->method);
	else
		snprintf(buf, len, "%s", p->model);
}

struct model_fig model_fig_from_an(struct model *m, const struct an_fig *f)
{
	struct model_fig r = { f->value, NULL };

	if (f->unavailable)
		r.why = model_intern(m, f->unavailable);
	else if (isnan(f->value))
		r.why = model_intern(m, "not computed");
	return r;
}

static struct model_fig fig_of(struct model *m, struct an_fig f)
{
	return model_fig_from_an(m, &f);
}

/* The analyzer's metric behind each model metric (the CSV columns, an_report_data.c). */
static const enum an_metric an_of[] = {
	[MODEL_T_PARA] = AN_T_PARA, [MODEL_T_SEQ] = AN_T_SEQ, [MODEL_E] = AN_E, [MODEL_S] = AN_S,
	[MODEL_L] = AN_L, [MODEL_IT_EDGE] = AN_IT_EDGE, [MODEL_IT_BARRIER] = AN_IT_BARRIER,
	[MODEL_IT_LOCK] = AN_IT_LOCK, [MODEL_IT_COND] = AN_IT_COND, [MODEL_IT_SEM] = AN_IT_SEM,
	[MODEL_IT_JOIN] = AN_IT_JOIN, [MODEL_IT_SCHED] = AN_IT_SCHED,
	[MODEL_IT_BLOCKED] = AN_IT_BLOCKED, [MODEL_PT_BARRIER] = AN_PT_BARRIER,
	[MODEL_PT_LOCK] = AN_PT_LOCK, [MODEL_PT_SEM] = AN_PT_SEM, [MODEL_PT_THREAD] = AN_PT_THREAD,
	[MODEL_ML] = AN_ML, [MODEL_U] = AN_U, [MODEL_PARALLELISM] = AN_PARALLELISM,
	[MODEL_CLOSURE] = AN_CLOSURE,
};
_Static_assert(sizeof(an_of) / sizeof(an_of[0]) == MODEL_N_METRICS, "every model metric mapped");

static int add_points(struct model *m, const struct an_exp *e)
{
	size_t i;
	int k, rc = 0;
	char name[128];

	for (i = 0; i < an_exp_n_points(e) && rc == 0; i++) {
		const struct an_point *p = an_exp_point(e, i);
		struct model_point mp;

		memset(&mp, 0, sizeof(mp));
		mp.n = p->n_threads;
		mp.w = p->work;
		mp.reps = p->n_reps;
		/* the report's oversub column: the runner's flag or N above the store's CPUs */
		mp.oversubscribed = !p->med[AN_OVERSUB].unavailable && p->med[AN_OVERSUB].value > 0;
		for (k = 0; k < MODEL_N_METRICS; k++)
			mp.fig[k] = fig_of(m, p->med[an_of[k]]);
		/* the tracing cost and the report's `!` on the point's sources (an_report_text.c:
		 * its share above AN_TRACE_SHARE_MARK) */
		mp.trace_cost = fig_of(m, p->med[AN_TRACE_COST]);
		mp.trace_share = fig_of(m, p->med[AN_TRACE_SHARE]);
		mp.cost_marked = !mp.trace_share.why && mp.trace_share.v > AN_TRACE_SHARE_MARK;
		/* the measured overhead against the plain build and the report's ≠ (an_overhead.c) */
		{
			char line[512];
			mp.ovh_measured = fig_of(m, p->ovh_measured);
			mp.ovh_estimated = fig_of(m, p->ovh_estimated);
			mp.t_plain = fig_of(m, p->t_plain);
			mp.ovh_marked = p->ovh_marked;
			an_point_overhead_text(p, line, sizeof(line));
			if (!(mp.ovh_text = model_intern(m, line)) ||
			    (p->ovh_why && !(mp.ovh_why = model_intern(m, p->ovh_why))))
				return -ENOMEM;
		}
		/* which T_seq E and S stand on, per point: the windows' notes say it */
		if (!(mp.t_seq_basis = model_intern(m, an_point_t_seq_basis(p))))
			return -ENOMEM;
		point_name(p, name, sizeof(name));
		rc = model_add_point(m, name, &mp);
	}
	return rc;
}

/* p_x of every plain method, from the analyzer (an_exp_px, the report's p_x lines): the N, its
 * T_para and L, and T_para (1 - E) there with the analyzer's word on how it relates to L. The
 * windows mark these; they compute no p_x or latency of their own. */
static int add_px(struct model *m, const struct an_exp *e)
{
	size_t i;

	for (i = 0; i < an_exp_n_methods(e); i++) {
		const char *name = an_exp_method(e, i);
		const struct an_point *o;
		struct model_method *me;
		struct an_fig tp, lat;
		int px, k;

		if ((k = model_method_find(m, name)) < 0)
			continue;
		me = &m->methods[k];
		me->px_set = 1;
		if (an_exp_px(e, name, &px, &tp, &lat) < 0)
			continue;
		o = an_exp_point_find(e, "method", name, px);
		me->px_n = px;
		me->px_t_para = fig_of(m, tp);
		me->px_l = fig_of(m, lat);
		me->px_l_e = o ? fig_of(m, o->med[AN_L_E]) :
			(struct model_fig){ NAN, model_intern(m, "no point at p_x") };
		me->px_l_e_note = o ? model_intern(m, an_point_l_e_note(o)) : NULL;
	}
	return 0;
}

/* Profile and patterns of the sequential program per method and size (METRICS.md §4.2.1): the
 * traced sequential run there, else the N=1 run there (an_exp_seq_profile); the profile window
 * shows the first one found and says which run it is. */
static int add_sequential(struct model *m, const struct an_exp *e)
{
	size_t i, k;
	int rc = 0, have_profile = 0, seq_runs = 0, found = 0;
	char name[128], src_text[200];

	for (i = 0; i < an_exp_n_points(e) && rc == 0; i++) {
		const struct an_point *p = an_exp_point(e, i);
		const char *source = NULL;
		int64_t run_id = 0;
		struct an_run *r;
		struct model_pattern pat;

		seq_runs += p->seq_id != 0;
		if (strcmp(p->model, "method") != 0)
			continue;
		r = an_exp_seq_profile(e, p, &source, &run_id);
		if (!r)
			continue;
		found++;
		if (!have_profile) {
			for (k = 0; k < an_run_n_funcs(r) && rc == 0; k++) {
				const struct an_func *f = an_run_func(r, k);
				char fname[160];
				/* a throttled function's calls were counted, not recorded: its
				 * calls are complete, its bar is the recorded calls' time only, and
				 * the estimated time of the counted ones is in its callers' bars
				 * (docs/analyzer.md) — the label says how much, so that a short
				 * bar is not read as a cheap function */
				if (f->throttled)
					snprintf(fname, sizeof(fname),
						 "%s [throttled: ~%.3g ms more in its callers]", f->name,
						 (double)f->unrec_ns / 1e6);
				else
					snprintf(fname, sizeof(fname), "%s", f->name);
				/* the report's share (excl_pct: of the profiled threads' summed
				 * time), not one of the window's own */
				int n1 = strcmp(source, "n1") == 0;
				/* an N=1 stand-in shows work only, as report --profile: its
				 * master's pthread_join is waiting (an_func.work_*) */
				struct model_func mf = { fname, (long)f->calls, f->incl_ns / 1e9,
							 (n1 ? f->work_excl_ns : f->excl_ns) / 1e9,
							 (n1 ? f->work_pct : f->excl_pct) / 100 };
				rc = model_add_func(m, &mf);
			}
			have_profile = an_run_n_funcs(r) > 0;
			if (have_profile) {
				snprintf(src_text, sizeof(src_text), "%s run %lld, W = %g",
					 strcmp(source, "n1") == 0 ?
					 "no traced sequential run: the N=1" : "sequential",
					 (long long)run_id, p->work);
				m->seq_source = model_intern(m, src_text);
				m->seq_is_n1 = strcmp(source, "n1") == 0;
			}
		}
		point_name(p, name, sizeof(name));
		pat.method = name;
		pat.w = p->work;
		pat.cpu_util = fig_of(m, an_run_fig(r, AN_CPU_UTIL));
		pat.mem_rate = fig_of(m, an_run_fig(r, AN_MEM_RATE));
		pat.miss_rate = fig_of(m, an_run_fig(r, AN_MISS_RATE));
		if (rc == 0)
			rc = model_add_pattern(m, &pat);
	}
	/* say why the profile and patterns windows will be empty */
	if (rc == 0 && !found)
		m->seq_why = model_intern(m, seq_runs ? "neither the sequential runs nor the N=1 runs "
					  "have a trace (build the programs with scalegraph cc)" :
					  "no sequential runs and no traced N=1 runs (a spec's "
					  "sequential line)");
	return rc;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static enum model_run_status run_status(const char *s)
{
	if (strcmp(s, "ok") == 0)
		return MODEL_RUN_OK;
	if (strcmp(s, "running") == 0)
		return MODEL_RUN_RUNNING;
	if (strcmp(s, "interrupted") == 0)
		return MODEL_RUN_INTERRUPTED;
	return MODEL_RUN_FAILED;
}

/* The end of failed run `id`'s stderr, as the analyzer read it for the report's "Runs without
 * a measurement" (an_exp_failure), or "". */
static const char *stderr_tail(const struct an_exp *e, long long id)
{
	size_t i;

	for (i = 0; e && i < an_exp_n_failures(e); i++)
		if (an_exp_failure(e, i)->id == id)
			return an_exp_failure(e, i)->stderr_tail;
	return "";
}

static const char runs_sql[] =
	"select r.kind, r.n_threads, r.sizes, r.work, r.rep, r.status, r.reason,"
	" (select case p.model when 'method' then p.method else p.model end"
	"  from point_runs pr join points p on p.id = pr.point_id"
	"  where pr.run_id = r.id order by pr.role = 'rep' desc limit 1), r.id"
	", r.t_wall_s, r.oversubscribed from runs r order by r.id";
static const char machine_sql[] =
	"select cpu_model, n_cpus, kernel, tsc_hz,"
	" json_extract(json, '$.miss_latency_ns'), json_extract(json, '$.schedstat')"
	" from machine where id = 1";

/* Runs (every status) and the machine row, straight from the store; e (may be NULL) gives the
 * failed runs' stderr. */
static int add_store_tables(struct model *m, const struct an_exp *e, const char *dir, char *err,
			    size_t err_len)
{
	char path[4096], buf[64];
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int rc = 0, s, runner = -2;   /* store_runner_active, asked at the first running row */

	snprintf(path, sizeof(path), "%s/experiment.db", dir);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		snprintf(err, err_len, "%s: error: %s", path, db ? sqlite3_errmsg(db) : "cannot open");
		rc = -EIO;
		goto out;
	}
	sqlite3_extended_result_codes(db, 1);
	sqlite3_busy_timeout(db, 2000);
	if (sqlite3_prepare_v2(db, runs_sql, -1, &st, NULL) != SQLITE_OK)
		goto sql_error;
	while ((s = sqlite3_step(st)) == SQLITE_ROW && rc == 0) {
		struct model_run r;
		const char *method = col_text(st, 7);
		const char *kind = col_text(st, 0);
		memset(&r, 0, sizeof(r));
		r.method = (char *)(*method ? method : strcmp(kind, "seq") == 0 ? "sequential" : kind);
		r.n = sqlite3_column_int(st, 1);
		r.sizes = (char *)col_text(st, 2);
		r.w = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);
		r.rep = sqlite3_column_int(st, 4);
		r.status = run_status(col_text(st, 5));
		r.reason = (char *)col_text(st, 6);
		/* a store this GUI may not write keeps a gone runner's rows "running" (the analyzer
		 * marks them interrupted only where it can write): shown as what they are */
		if (r.status == MODEL_RUN_RUNNING && (runner == -2 ? (runner = store_runner_active(dir))
							       : runner) == 0) {
			r.status = MODEL_RUN_INTERRUPTED;
			r.reason = "its runner is gone; the store is left unmarked, being read-only here "
				   "or of schema < 3";
		}
		r.id = sqlite3_column_int64(st, 8);
		r.seq = strcmp(kind, "seq") == 0;
		r.t_s = sqlite3_column_type(st, 9) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 9);
		r.stderr_tail = (char *)stderr_tail(e, r.id);
		r.oversubscribed = sqlite3_column_int(st, 10) != 0;
		if (e) {
			/* the run's own figures, as `scalegraph report STORE/runs/<id>` prints them */
			struct an_fig ov = an_exp_run_fig(e, r.id, AN_OVERSUB);
			if (!ov.unavailable)
				r.oversubscribed = ov.value > 0;
			r.trace_cost = fig_of(m, an_exp_run_fig(e, r.id, AN_TRACE_COST));
			r.trace_share = fig_of(m, an_exp_run_fig(e, r.id, AN_TRACE_SHARE));
			r.cost_marked = !r.trace_share.why && r.trace_share.v > AN_TRACE_SHARE_MARK;
		} else {
			r.trace_cost = r.trace_share = (struct model_fig){ NAN, model_intern(m,
									"not analysed") };
		}
		rc = model_add_run(m, &r);
	}
	if (rc == 0 && s != SQLITE_DONE && s != SQLITE_ROW)
		goto sql_error;
	sqlite3_finalize(st);
	st = NULL;
	if (rc == 0 && sqlite3_prepare_v2(db, machine_sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		rc = model_add_machine(m, "cpu", col_text(st, 0));
		snprintf(buf, sizeof(buf), "%d", sqlite3_column_int(st, 1));
		if (rc == 0)
			rc = model_add_machine(m, "cpus", buf);
		if (rc == 0)
			rc = model_add_machine(m, "kernel", col_text(st, 2));
		snprintf(buf, sizeof(buf), "%s", sqlite3_column_double(st, 3) > 0 ? "" : "none");
		if (sqlite3_column_double(st, 3) > 0)
			snprintf(buf, sizeof(buf), "%.4g GHz", sqlite3_column_double(st, 3) / 1e9);
		if (rc == 0)
			rc = model_add_machine(m, "tsc", buf);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			snprintf(buf, sizeof(buf), "%.0f ns (calibrated)", sqlite3_column_double(st, 4));
		else
			snprintf(buf, sizeof(buf), "unknown (not calibrated)");
		if (rc == 0)
			rc = model_add_machine(m, "t_miss", buf);
		if (rc == 0)
			rc = model_add_machine(m, "schedstat", sqlite3_column_int(st, 5) ? "yes" : "no");
	}
	goto out;
sql_error:
	snprintf(err, err_len, "%s: error: %s", path, sqlite3_errmsg(db));
	rc = -EIO;
out:
	if (st)
		sqlite3_finalize(st);
	if (db)
		sqlite3_close(db);
	return rc;
}

int model_load_store(struct model *m, const char *dir, char *err, size_t err_len)
{
	struct an_exp *e = NULL;
	const char *base = strrchr(dir, '/');
	char name[256];
	int rc;

	err[0] = '\0';
	snprintf(name, sizeof(name), "%s", base && base[1] ? base + 1 : dir);
	if ((rc = model_set_name(m, name)) < 0)
		goto out;
	if ((rc = an_exp_open(dir, 0, &e, err, err_len)) < 0)
		goto out;
	if ((rc = add_points(m, e)) < 0 || (rc = add_px(m, e)) < 0 || (rc = model_matrix_add(m, e)) < 0 ||
	    (rc = add_sequential(m, e)) < 0)
		goto out;
	{
		/* no matrix: the report's words on why (window 8 says them) */
		char why[2048];
		if (an_exp_matrix_why(e, why, sizeof(why)) && !(m->matrix_why = model_intern(m, why))) {
			rc = -ENOMEM;
			goto out;
		}
	}
	rc = add_store_tables(m, e, dir, err, err_len);
	if (rc == 0 && an_exp_n_cpus(e) > 0)
		m->n_cpus = an_exp_n_cpus(e);
	m->cost_mark = AN_TRACE_SHARE_MARK;
out:
	if (rc == -ENOMEM && !err[0])
		snprintf(err, err_len, "%s: error: out of memory", dir);
	if (rc == 0)
		model_finish(m);
	an_exp_free(e);
	return rc;
}

int model_prewarm_open(const char *dir, struct model_prewarm **out, size_t *total, char *err,
		       size_t err_len)
{
	struct an_prewarm *p = NULL;
	char path[4096];
	struct stat sb;
	int rc;

	*out = NULL;
	*total = 0;
	snprintf(path, sizeof(path), "%s/experiment.db", dir);
	if (stat(path, &sb) < 0)
		return -ENOENT;   /* a CSV experiment: nothing to analyse */
	if ((rc = an_prewarm_open(dir, &p, err, err_len)) < 0)
		return rc;
	*total = an_prewarm_total(p);
	*out = (struct model_prewarm *)p;
	return 0;
}

int model_prewarm_step(struct model_prewarm *p, size_t *done)
{
	int rc = an_prewarm_step((struct an_prewarm *)p);

	*done = an_prewarm_done((struct an_prewarm *)p);
	return rc;
}

void model_prewarm_close(struct model_prewarm *p)
{
	an_prewarm_close((struct an_prewarm *)p);
}

int model_load_dir(struct model *m, const char *dir, char *err, size_t err_len)
{
	char path[4096];
	struct stat sb;

	if (stat(dir, &sb) < 0) {
		int e = errno;
		snprintf(err, err_len, "%s: error: %s", dir,
			 e == ENOENT ? "no such directory" : strerror(e));
		return -e;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(err, err_len, "%s: error: not a directory (an experiment is a directory made "
			 "by scalegraph run)", dir);
		return -ENOTDIR;
	}
	snprintf(path, sizeof(path), "%s/experiment.db", dir);
	if (stat(path, &sb) == 0)
		return model_load_store(m, dir, err, err_len);
	snprintf(path, sizeof(path), "%s/report.csv", dir);
	if (stat(path, &sb) < 0) {
		snprintf(err, err_len, "%s: error: not an experiment: neither experiment.db (a store "
			 "of scalegraph run) nor report.csv (the analyzer's CSV) is there", dir);
		return -ENOENT;
	}
	return model_load_csv_dir(m, dir, err, err_len);
}

/* The stamp of a store that does not open: its error, so that the live monitor retries it
 * when the error changes (xsg_live.c). */
static long long err_stamp(const char *err)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	const char *p;

	for (p = err; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return -(long long)(h >> 2) - 1;   /* negative: an error, never a generation */
}

/* The stores watched: each keeps a read-only connection open, so that a poll of an idle store
 * is one PRAGMA data_version (it changes only when another connection commits; then the
 * generation is read again) instead of opening the database and parsing its schema every
 * second. A store replaced on disk (another inode) is opened anew. */
#define N_WATCH 8
static struct watch {
	char dir[4096];
	dev_t dev;
	ino_t ino;
	struct store *st;
	long long data_version, gen;
} watches[N_WATCH];
static unsigned next_watch;

static int data_version(struct store *st, long long *v)
{
	sqlite3_stmt *q = NULL;
	int rc = -EIO;

	if (sqlite3_prepare_v2(store_db(st), "PRAGMA data_version", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW) {
		*v = sqlite3_column_int64(q, 0);
		rc = 0;
	}
	sqlite3_finalize(q);
	return rc;
}

/* A store's stamp is its content's generation (store_generation: runs, points, methods and the
 * machine row), never the times of its files: opening the store touches experiment.db-wal and
 * -shm (the GUI's own load among others), which made the GUI reload every second. */
static long long store_stamp(const char *dir, const struct stat *db_sb)
{
	struct watch *w = NULL;
	char err[512];
	long long dv = 0;
	size_t i;

	for (i = 0; i < N_WATCH && !w; i++)
		if (watches[i].st && strcmp(watches[i].dir, dir) == 0)
			w = &watches[i];
	if (w && (w->dev != db_sb->st_dev || w->ino != db_sb->st_ino)) {
		store_close(w->st);   /* replaced on disk: open the new file */
		w->st = NULL;
	}
	if (w && w->st && data_version(w->st, &dv) == 0) {
		if (dv == w->data_version)
			return w->gen;
		if (store_generation(w->st, &w->gen) == 0) {
			w->data_version = dv;
			return w->gen;
		}
	}
	if (w) {   /* the kept connection failed: open anew */
		store_close(w->st);
		w->st = NULL;
	} else {
		w = &watches[next_watch++ % N_WATCH];
		store_close(w->st);
		w->st = NULL;
	}
	if (store_open_msg(dir, STORE_READ, &w->st, err, sizeof(err)) < 0)
		return err_stamp(err);
	if (data_version(w->st, &w->data_version) < 0 || store_generation(w->st, &w->gen) < 0) {
		snprintf(err, sizeof(err), "%s", store_errmsg(w->st)[0] ? store_errmsg(w->st) :
			 sqlite3_errmsg(store_db(w->st)));
		store_close(w->st);
		w->st = NULL;
		return err_stamp(err);
	}
	snprintf(w->dir, sizeof(w->dir), "%s", dir);
	w->dev = db_sb->st_dev;
	w->ino = db_sb->st_ino;
	return w->gen;
}

long long model_dir_stamp(const char *dir)
{
	static const char *const files[] = { "report.csv", "runs.csv" };
	char path[4096];
	struct stat sb;
	unsigned long long stamp = 0; /* a hash of the times and sizes: wraps, never overflows */
	size_t i;

	snprintf(path, sizeof(path), "%s/experiment.db", dir);
	if (stat(path, &sb) == 0)
		return store_stamp(dir, &sb);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (stat(path, &sb) == 0)
			stamp += (unsigned long long)sb.st_mtim.tv_sec * 1000000000ULL +
				 (unsigned long long)sb.st_mtim.tv_nsec +
				 (unsigned long long)sb.st_size * 7;
	}
	return (long long)(stamp >> 1);
}
