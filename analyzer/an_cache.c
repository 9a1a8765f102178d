/*
 * an_cache.c — per-run figures cached in the store's metrics table, so that reopening an
 * analyzed experiment (the GUI, a second report) reads no trace. Each run's rows carry an
 * `analysis_key` row: a hash of what its figures depend on — the names, sizes and mtimes of its
 * trace files, the options the analysis used (T_seq, the T_para paired with it, N, CPUs, the
 * calibrated costs), the trace of the run giving ML(1), and AN_CACHE_VERSION. A run whose key
 * differs (a new run, a re-recorded trace, a new N=1 run changing T_seq) is analyzed again; the
 * others are loaded from the rows. Bump AN_CACHE_VERSION whenever a figure's definition changes.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "an_int.h"
#include "store.h"

#define AN_CACHE_VERSION 7u   /* 3: the time budget, format 1.2 traces; 4: switch-ins at the
				 switch; 5: run delay without the kernel's clock skip; 6: tracing
				 cost and compensated figures, counted calls (format 1.3); 7: the
				 processors of the parallel phase, records out of time order left
				 out, L_W1 and the checks with it, the run delay over the books'
				 window corrected both ways by the kernel's CPU time (issue 20) */
#define KEY_NAME "analysis_key"
#define PROBLEM_NAME "problem"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* Order-independent hash of a directory's files (name, size, mtime), and of the files of its
 * subdirectories (a trace root holds one directory per process). */
static uint64_t dir_stat_key(const char *dir, int depth)
{
	char path[4352];
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	uint64_t sum = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) < 0)
			continue;
		uint64_t h = fnv(0xcbf29ce484222325ull, de->d_name, strlen(de->d_name));
		if (S_ISDIR(st.st_mode)) {
			if (depth > 0)
				sum += fnv(h, &(uint64_t){ dir_stat_key(path, depth - 1) },
					   sizeof(uint64_t));
			continue;
		}
		int64_t v[3] = { (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
				 (int64_t)st.st_mtim.tv_nsec };
		sum += fnv(h, v, sizeof v);
	}
	closedir(d);
	return sum;
}

static uint64_t trace_stat_key(const struct an_exp *e, int64_t id)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/runs/%lld/trace", e->dir, (long long)id);
	return dir_stat_key(dir, 1);
}

static uint64_t fnv_num(uint64_t h, double v)
{
	return fnv(h, &v, sizeof v);
}

void an_cache_keys(struct an_exp *e)
{
	for (size_t i = 0; i < e->n_runs; i++) {
		struct an_exp_run *x = &e->runs[i];
		if (!x->have_opts || !x->has_trace)
			continue;
		const struct an_run_opts *o = &x->opts;
		uint64_t h = fnv(0xcbf29ce484222325ull, &(unsigned){ AN_CACHE_VERSION },
				 sizeof(unsigned));
		h = fnv_num(h, (double)trace_stat_key(e, x->id));
		h = fnv_num(h, o->t_seq_s);
		h = fnv_num(h, o->t_para_e_s);
		h = fnv_num(h, o->t_para_ref_s);
		h = fnv_num(h, o->miss_ns);
		h = fnv_num(h, o->unlock_ns);
		h = fnv_num(h, o->record_ns);
		h = fnv_num(h, o->unrecorded_call_ns);
		h = fnv_num(h, (double)o->n_threads);
		h = fnv_num(h, (double)o->n_cpus);
		h = fnv_num(h, (double)o->flags);
		if (o->t_seq_source)
			h = fnv(h, o->t_seq_source, strlen(o->t_seq_source));
		if (x->seq >= 0) {
			h = fnv_num(h, (double)e->runs[x->seq].id);
			h = fnv_num(h, (double)trace_stat_key(e, e->runs[x->seq].id));
		}
		/* 53 bits: the key is stored in a REAL column */
		x->key = (h & ((1ull << 53) - 1)) | 1;
	}
}

/* Loads the cached rows; a run is taken from them when its stored key equals x->key and
 * every metric is there. Problems recorded with it are listed again. */
int an_cache_load(struct an_exp *e, sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM metrics WHERE name = '" KEY_NAME "'", -1,
			       &s, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(s) == SQLITE_ROW)
		e->n_cache_keys = (size_t)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (sqlite3_prepare_v2(db, "SELECT run_id, name, value, unavailable FROM metrics WHERE "
			       "run_id IS NOT NULL AND point_id IS NULL ORDER BY run_id, id", -1, &s,
			       NULL) != SQLITE_OK)
		return -EIO;
	struct an_exp_run *x = NULL;
	int n_figs = 0;
	uint64_t key = 0;
	for (int more = 1; more;) {
		more = sqlite3_step(s) == SQLITE_ROW;
		int64_t id = more ? sqlite3_column_int64(s, 0) : -1;
		if (x && (!more || id != x->id)) {
			/* the previous run's rows are complete: keep them if current */
			x->from_cache = key && key == x->key && n_figs == AN_N_METRICS;
			x->have_fig = x->from_cache;
			x = NULL;
		}
		if (!more)
			break;
		if (!x) {
			x = an_exp_run_find(e, id);
			n_figs = 0;
			key = 0;
			if (!x || !x->key || x->have_fig) {
				x = NULL;   /* a row of a run not asked for: skip its rows */
				continue;
			}
		}
		const char *name = (const char *)sqlite3_column_text(s, 1);
		const char *why = (const char *)sqlite3_column_text(s, 3);
		int null = sqlite3_column_type(s, 2) == SQLITE_NULL;
		double v = null ? NAN : sqlite3_column_double(s, 2);
		if (!name)
			continue;
		if (!strcmp(name, KEY_NAME)) {
			/* a damaged value outside uint64_t would be undefined to convert */
			key = null || !(v >= 0 && v < 18446744073709551616.0) ? 0 : (uint64_t)v;
			continue;
		}
		int m = an_metric_find(name);
		if (m < 0)
			continue;
		x->fig[m] = why ? an_fig_na(an_exp_str(e, "%s", why))
				: null ? an_fig_na("unavailable") : an_fig_val(v);
		n_figs++;
	}
	sqlite3_finalize(s);
	/* problems of the runs taken from the cache, in run order */
	if (sqlite3_prepare_v2(db, "SELECT run_id, unavailable FROM metrics WHERE name = '"
			       PROBLEM_NAME "' AND run_id IS NOT NULL ORDER BY run_id, id", -1, &s,
			       NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(s) == SQLITE_ROW) {
		struct an_exp_run *r = an_exp_run_find(e, sqlite3_column_int64(s, 0));
		const char *why = (const char *)sqlite3_column_text(s, 1);
		if (r && r->from_cache && why)
			an_exp_problem_add(e, "run %lld: %s", (long long)r->id, why);
	}
	sqlite3_finalize(s);
	return 0;
}

/* Writes run x's figures, key and problems (inside the caller's transaction). */
static void cache_store_run(const struct an_exp *e, struct store *st, const struct an_exp_run *x)
{
	for (int m = 0; m < AN_N_METRICS; m++)
		store_metric_put(st, x->id, 0, 0, an_metric_name((enum an_metric)m), x->fig[m].value,
				 an_metric_unit((enum an_metric)m), x->fig[m].unavailable);
	if (!x->key)
		return;
	store_metric_put(st, x->id, 0, 0, KEY_NAME, (double)x->key, "", NULL);
	/* the run's problem lines as the experiment lists them: "run ID: text" */
	char tag[32];
	int n = snprintf(tag, sizeof tag, "run %lld: ", (long long)x->id);
	for (size_t k = 0; k < e->n_problems; k++)
		if (!strncmp(e->problems[k], tag, (size_t)n))
			store_metric_put(st, x->id, 0, 0, PROBLEM_NAME, NAN, "", e->problems[k] + n);
}

/* Writes every run's figures, key and problems (inside the caller's transaction). */
void an_cache_store(const struct an_exp *e, struct store *st)
{
	for (size_t i = 0; i < e->n_runs; i++)
		if (e->runs[i].have_fig)
			cache_store_run(e, st, &e->runs[i]);
}

/* --- the first analysis, run by run -------------------------------------------------------
 * an_exp_open analyses every uncached run before it returns, and keeps each analysed trace
 * until the experiment is freed: the first open of a 60-run store took seconds with nothing to
 * show and peaked at a gigabyte. The prewarm does the same analyses one run per step, writes
 * each run's cache rows at once and frees its trace (a run that gives others their ML(1) once
 * the last of them is done: they follow it), so that a caller (xscalegraph) can show its window and
 * the progress between steps; the an_exp_open after it finds every run in the cache. The
 * figures are an_exp_run_analyze's, as an_exp_open would compute them. */
struct an_prewarm {
	struct an_exp *e;
	struct store *st;
	struct an_exp_run **todo;   /* runs with a key and no current cache rows: each run giving
				       ML(1) followed by the runs that take it from there */
	size_t n_todo, next;
	unsigned *refs;             /* refs[i]: runs still to do that take their ML(1) from run i */
};

int an_prewarm_open(const char *dir, struct an_prewarm **out, char *err, size_t errlen)
{
	struct an_prewarm *p = calloc(1, sizeof *p);
	int rc = -ENOMEM;
	*out = NULL;
	if (!p || !(p->e = calloc(1, sizeof *p->e)) || !(p->e->dir = strdup(dir))) {
		snprintf(err, errlen, "%s: out of memory", dir);
		goto fail;
	}
	if ((rc = store_open_msg(dir, STORE_UPDATE, &p->st, err, errlen)) < 0 ||
	    (rc = an_exp_read_store(p->e, p->st, 0, 1, err, errlen)) < 0)
		goto fail;
	struct an_exp *e = p->e;
	rc = -ENOMEM;
	char *queued = calloc(e->n_runs + 1, 1);
	if (!queued || !(p->refs = calloc(e->n_runs + 1, sizeof *p->refs)) ||
	    !(p->todo = calloc(e->n_runs + 1, sizeof *p->todo))) {
		free(queued);
		snprintf(err, errlen, "%s: out of memory", dir);
		goto fail;
	}
#define TODO(x) ((x)->key && !(x)->from_cache)
	for (size_t i = 0; i < e->n_runs; i++)
		if (TODO(&e->runs[i]) && e->runs[i].seq >= 0)
			p->refs[e->runs[i].seq]++;
	/* a run giving ML(1), then its takers: its analysis is freed after the last of them */
	for (size_t i = 0; i < e->n_runs; i++) {
		if (!p->refs[i])
			continue;
		if (TODO(&e->runs[i]) && !queued[i]) {
			queued[i] = 1;
			p->todo[p->n_todo++] = &e->runs[i];
		}
		for (size_t k = 0; k < e->n_runs; k++)
			if (TODO(&e->runs[k]) && e->runs[k].seq == (long)i && !queued[k]) {
				queued[k] = 1;
				p->todo[p->n_todo++] = &e->runs[k];
			}
	}
	for (size_t i = 0; i < e->n_runs; i++)
		if (TODO(&e->runs[i]) && !queued[i])
			p->todo[p->n_todo++] = &e->runs[i];
#undef TODO
	free(queued);
	*out = p;
	return 0;
fail:
	an_prewarm_close(p);
	return rc;
}

size_t an_prewarm_total(const struct an_prewarm *p) { return p->n_todo; }
size_t an_prewarm_done(const struct an_prewarm *p) { return p->next; }

int an_prewarm_step(struct an_prewarm *p)
{
	if (p->next >= p->n_todo)
		return 0;
	struct an_exp *e = p->e;
	struct an_exp_run *x = p->todo[p->next++];
	an_exp_run_analyze(e, x);
	if (x->have_fig) {
		sqlite3_stmt *s = NULL;
		int rc = store_begin(p->st);
		if (rc == 0 && sqlite3_prepare_v2(store_db(p->st), "DELETE FROM metrics WHERE "
						  "run_id = ? AND point_id IS NULL", -1, &s,
						  NULL) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, x->id);
			if (sqlite3_step(s) != SQLITE_DONE)
				rc = -EIO;
		} else if (rc == 0) {
			rc = -EIO;
		}
		sqlite3_finalize(s);
		if (rc == 0) {
			cache_store_run(e, p->st, x);
			rc = store_commit(p->st);
		} else {
			store_rollback(p->st);
		}
		if (rc < 0)
			return rc;
	}
	/* bounded memory: a trace's analysis goes once its figures are stored and no run still
	 * to do takes its ML(1) from it */
	if (x->seq >= 0 && p->refs[x->seq] && !--p->refs[x->seq] && e->runs[x->seq].run) {
		an_run_free(e->runs[x->seq].run);
		e->runs[x->seq].run = NULL;
	}
	if (x->run && !p->refs[x - e->runs]) {
		an_run_free(x->run);
		x->run = NULL;
	}
	return p->next < p->n_todo;
}

void an_prewarm_close(struct an_prewarm *p)
{
	if (!p)
		return;
	an_exp_free(p->e);
	if (p->st)
		store_close(p->st);
	free(p->todo);
	free(p->refs);
	free(p);
}
