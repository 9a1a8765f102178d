/*
 * an_sites.c — "where in my code": the latency sources of synchronization attributed per call
 * site (trace format 1.4, docs/analyzer.md "Call sites").
 *
 * The scan (an_scan.c) notes, per thread, from which interval on each SYNC_SITE record applies,
 * and counts the lock releases by the site of the hold's acquire. Here every sync-related part
 * of the time budget (an_budget.c) — IT_barrier, PT_barrier, IT_lock, PT_lock, IT_cond, IT_sem,
 * PT_sem, IT_join, PT_thread — is split by the site of the interval it comes from, with the
 * budget's own code (an_budget_sites), so that per source the sites add up to the source's
 * figure to the ns: the wake-up tails' runnable part is placed per site with the thread's one
 * rounding, and ticks become ns as differences of the running sum's conversion. A create has no
 * site (the format gives sites to wait-begin calls only): its PT_thread is the unknown site's,
 * as is every part of a thread before its first SYNC_SITE, and all of a trace without any.
 *
 * A point's sites are its median repetition's for that source (the mean of the middle two for an
 * even count), the repetition(s) whose figure is the point's median: they add up to it as well.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_int.h"

/* The sources split by site, and the budget category each comes from. */
static const struct {
	enum an_metric m;
	int cat;
	const char *what;          /* for reports: "61 % of barrier waiting" */
} src_tab[] = {
	{ AN_IT_BARRIER, CAT_BAR_W, "barrier waiting" },
	{ AN_PT_BARRIER, CAT_BAR_P, "barrier overhead" },
	{ AN_IT_LOCK, CAT_LOCK_W, "lock waiting" },
	{ AN_PT_LOCK, CAT_LOCK_P, "lock overhead" },
	{ AN_IT_COND, CAT_COND, "condition waiting" },
	{ AN_IT_SEM, CAT_SEM_W, "semaphore waiting" },
	{ AN_PT_SEM, CAT_SEM_P, "semaphore overhead" },
	{ AN_IT_JOIN, CAT_JOIN_W, "join waiting" },
	{ AN_PT_THREAD, CAT_THREAD_P, "create and join" },
};
#define N_SRC (sizeof src_tab / sizeof src_tab[0])
_Static_assert(N_SRC <= AN_SITE_SOURCES_MAX, "an_sites_row holds every source");

size_t an_site_n_sources(void) { return N_SRC; }

enum an_metric an_site_source_at(size_t i)
{
	return i < N_SRC ? src_tab[i].m : AN_N_METRICS;
}

static int src_index(enum an_metric m)
{
	for (size_t k = 0; k < N_SRC; k++)
		if (src_tab[k].m == m)
			return (int)k;
	return -1;
}

int an_site_source(enum an_metric m) { return src_index(m) >= 0; }

const char *an_site_source_what(enum an_metric m)
{
	int k = src_index(m);
	return k < 0 ? "?" : src_tab[k].what;
}

const struct an_point *an_exp_sites_point(const struct an_exp *e, const char *method)
{
	const struct an_point *best = NULL;
	for (size_t i = 0; i < an_exp_n_points(e); i++) {
		const struct an_point *o = an_exp_point(e, i);
		if (!strcmp(o->model, "method") && !strcmp(o->method, method) && o->n_reps > 0 &&
		    (!best || o->n_threads > best->n_threads))
			best = o;
	}
	return best;
}

uint32_t an_site_slot(const struct an_run *r, uint32_t id)
{
	size_t lo = 0, hi = sgr_n_sites(r->tr);
	if (id == SG_NO_ID)
		return 0;
	while (lo < hi) {   /* the definitions are in id order */
		size_t mid = lo + (hi - lo) / 2;
		const struct sgr_site *d = sgr_site_at(r->tr, mid);
		uint32_t x = d->id;
		if (x == id)   /* a site the reader found at the same line as an earlier one */
			return d->same && d->same < id ? an_site_slot(r, d->same) : (uint32_t)mid + 1;
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* A trace records call sites when it defines one: SYNC_SITE records without a definition name
 * only the unknown site (calls the instrumenter did not rename), as a trace without any. */
int an_run_sites_recorded(const struct an_run *r)
{
	return sgr_n_sites(r->tr) > 0;
}

/* ---- why there is no table (issue 20, item 8) ---- */

static const char *const state_text[] = {
	[AN_SITES_RECORDED] = "",
	[AN_SITES_NO_CALL] = "call sites: no wrapped call was made (one thread, and no lock, barrier, "
			     "condition variable or semaphore in the trace)",
	[AN_SITES_NO_WAIT] = "call sites: no time in synchronization (wrapped calls were made; none "
			     "took time in the processors' waits or primitives)",
	[AN_SITES_NO_SITE] = "call sites: none known (every wait went through a wrapper without a "
			     "site: a call through a function pointer, or code built against an "
			     "older sgtrace.h)",
	[AN_SITES_OLD_FORMAT] = "call sites: not recorded (program built before format 1.4)",
	[AN_SITES_UNREADABLE] = "call sites: not recorded (no readable trace)",
};
static const char *const state_name[] = {
	[AN_SITES_RECORDED] = "recorded", [AN_SITES_NO_CALL] = "no_call",
	[AN_SITES_NO_WAIT] = "no_wait", [AN_SITES_NO_SITE] = "no_site",
	[AN_SITES_OLD_FORMAT] = "old_format", [AN_SITES_UNREADABLE] = "unreadable",
};

const char *an_sites_state_text(enum an_sites_state st)
{
	return (unsigned)st <= AN_SITES_UNREADABLE ? state_text[st] : "";
}

const char *an_sites_state_name(enum an_sites_state st)
{
	return (unsigned)st <= AN_SITES_UNREADABLE ? state_name[st] : "?";
}

/* What trace t (its definitions) and the run's figures fig say: sites defined; else the format
 * the program was built with; else whether any wrapped call was made (libsgtrace defines an
 * object at its first call, and a second thread means a pthread_create); else whether any
 * source has time. */
static enum an_sites_state state_of(const struct sgr_trace *t, const struct an_fig *fig)
{
	if (sgr_n_sites(t) > 0)
		return AN_SITES_RECORDED;
	if (sgr_info(t)->version_minor < 4)
		return AN_SITES_OLD_FORMAT;
	if (!sgr_n_objects(t) && sgr_n_threads(t) <= 1)
		return AN_SITES_NO_CALL;
	double sum = 0;
	for (size_t k = 0; k < N_SRC; k++)
		if (!fig[src_tab[k].m].unavailable && fig[src_tab[k].m].value > 0)
			sum += fig[src_tab[k].m].value;
	return sum > 0 ? AN_SITES_NO_SITE : AN_SITES_NO_WAIT;
}

enum an_sites_state an_run_sites_state(const struct an_run *r)
{
	return state_of(r->tr, r->fig);
}

enum an_sites_state an_sites_row_state(const struct an_sites *v, size_t n_src)
{
	enum an_sites_state st = n_src ? v[0].state : AN_SITES_UNREADABLE;
	for (size_t k = 0; k < n_src; k++) {
		if (v[k].recorded || v[k].state == AN_SITES_RECORDED)
			return AN_SITES_RECORDED;
		if (v[k].state == AN_SITES_NO_SITE)
			st = AN_SITES_NO_SITE;
	}
	return st;
}

const char *an_site_label(const struct an_site *s, char *buf, size_t len)
{
	if (s->id == SG_NO_ID)
		snprintf(buf, len, "(unknown site)");
	else if (s->line <= 0)   /* a return address not resolved: "prog+0x1a2b in (not resolved...)" */
		snprintf(buf, len, "%s%s%s", s->file, s->func && s->func[0] ? " in " : "",
			 s->func ? s->func : "");
	else if (s->func && s->func[0])
		snprintf(buf, len, "%s:%d in %s", s->file, s->line, s->func);
	else
		snprintf(buf, len, "%s:%d", s->file, s->line);
	return buf;
}

void an_sites_free(struct an_sites *x)
{
	for (size_t k = 0; x && k < x->n; k++)
		free(x->v[k].threads);
	if (x) {
		free(x->v);
		x->v = NULL;
		x->n = 0;
	}
}

/* ---- one run ---- */

/* Thread pos's interval slots from its site runs; a create has none. NULL on ENOMEM. */
static uint32_t *iv_slots(const struct an_run *r, size_t pos)
{
	const struct an_tscan *s = &r->ts[pos];
	uint32_t *v = malloc((s->n_iv ? s->n_iv : 1) * sizeof *v);
	if (!v)
		return NULL;
	uint32_t slot = 0;
	size_t j = 0;
	for (size_t k = 0; k < s->n_iv; k++) {
		while (j < s->n_site_run && s->site_run[j].iv <= k)
			slot = s->site_run[j++].slot;
		v[k] = s->iv[k].type == IV_THREAD && s->iv[k].aux == 0 ? 0 : slot;
	}
	return v;
}

/* The release part of PT_lock of p releases on a thread whose compute is `compute` ns, as
 * thread_figures (an_run.c) makes it. */
static int64_t release_ns(const struct an_run *r, uint64_t p, int64_t compute)
{
	double d = (double)p * r->opts.unlock_ns;
	int64_t v = d > 0 && d < 9.2e18 ? (int64_t)llround(d) : 0;
	return v > compute ? compute : v;
}

/* ns of source k of every processor by slot: out[(pos * n_slots + slot) * N_SRC + k], over
 * [lo, hi] (ticks; the whole run: 0, SG_TICKS_MAX). With the whole run each processor's slots add
 * up to its figure (struct an_thread) exactly; a window has no release part (releases are
 * counted, not kept with their times) and its tails placed with the thread's share. */
static int sites_table(const struct an_run *r, uint64_t lo, uint64_t hi, size_t n_slots,
		       int64_t *out)
{
	struct an_budget *per = calloc(n_slots, sizeof *per);
	int whole = lo == 0 && hi == SG_TICKS_MAX;
	if (!per)
		return -ENOMEM;
	for (size_t pos = 0; pos < r->n_threads; pos++) {
		const struct an_tscan *s = &r->ts[pos];
		if (!r->th[pos].processor || !s->seen)
			continue;
		uint32_t *slots = iv_slots(r, pos);
		if (!slots) {
			free(per);
			return -ENOMEM;
		}
		memset(per, 0, n_slots * sizeof *per);
		an_budget_sites(r, pos, lo, hi, slots, n_slots, per);
		free(slots);
		int64_t *row = out + pos * n_slots * N_SRC;
		for (size_t k = 0; k < N_SRC; k++) {
			int c = src_tab[k].cat;
			uint64_t pre = 0;
			int64_t done = 0;
			/* ns as differences of the running sum's conversion: they add up to
			 * an_ticks_ns of the thread's ticks, as its figure is made */
			for (size_t sl = 0; sl < n_slots; sl++) {
				pre += per[sl].total[c] - per[sl].run[c];
				int64_t upto = an_ticks_ns(r, pre);
				row[sl * N_SRC + k] = upto - done;
				done = upto;
			}
		}
		if (!whole || r->opts.unlock_ns <= 0)
			continue;
		/* the release part of PT_lock, by the site of each hold's acquire */
		const struct an_budget *b = &r->bud[pos];
		int64_t compute = an_ticks_ns(r, b->total[CAT_COMPUTE]);
		if (r->budget_ok)
			compute = an_ticks_ns(r, b->total[CAT_COMPUTE] - b->run[CAT_COMPUTE] -
					      b->sleep[CAT_COMPUTE]);
		int k_lock = src_index(AN_PT_LOCK);
		uint64_t pre = 0;
		int64_t done = 0;
		for (size_t sl = 0; sl < n_slots; sl++) {
			/* rel_slot has a count per slot; without sites every release is unknown */
			pre += s->rel_slot ? s->rel_slot[sl] : sl == 0 ? s->n_releases : 0;
			int64_t upto = release_ns(r, pre, compute);
			row[sl * N_SRC + k_lock] += upto - done;
			done = upto;
		}
	}
	free(per);
	return 0;
}

static int site_cmp(const void *a, const void *b)
{
	const struct an_site *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

static int thr_cmp(const void *a, const void *b)
{
	const struct an_site_thread *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? 1 : -1;
	return (x->index > y->index) - (x->index < y->index);
}

/* Sorts the sites and their threads, sets the shares against total. */
static void sites_finish(struct an_sites *out)
{
	for (size_t k = 0; k < out->n; k++) {
		struct an_site *x = &out->v[k];
		x->share = out->total > 0 ? x->s / out->total : 0;
		if (x->n_threads > 1)
			qsort(x->threads, x->n_threads, sizeof *x->threads, thr_cmp);
	}
	if (out->n > 1)   /* qsort of a NULL array, even empty, is undefined */
		qsort(out->v, out->n, sizeof *out->v, site_cmp);
}

static void site_ident(const struct an_run *r, size_t slot, struct an_site *x)
{
	const struct sgr_site *d = slot ? sgr_site_at(r->tr, slot - 1) : NULL;
	x->id = d ? d->id : SG_NO_ID;
	x->file = d ? d->file : "";
	x->line = d ? d->line : 0;
	x->func = d ? d->func : "";
}

/* The sites of source k from a table; seconds are ns * 1e-9 of the exact integer sums. */
static int sites_from_table(const struct an_run *r, const int64_t *tab, size_t n_slots, size_t k,
			    struct an_sites *out)
{
	int64_t total = 0;
	for (size_t sl = 0; sl < n_slots; sl++) {
		int64_t ns = 0;
		size_t nt = 0;
		for (size_t pos = 0; pos < r->n_threads; pos++) {
			int64_t v = tab[(pos * n_slots + sl) * N_SRC + k];
			if (r->th[pos].processor && v > 0)
				ns += v, nt++;
		}
		total += ns;
		if (!ns)
			continue;
		struct an_site *v = realloc(out->v, (out->n + 1) * sizeof *v);
		if (!v)
			return -ENOMEM;
		out->v = v;
		struct an_site *x = &v[out->n++];
		memset(x, 0, sizeof *x);
		site_ident(r, sl, x);
		x->ns = ns;
		x->s = (double)ns * 1e-9;
		if (!(x->threads = calloc(nt, sizeof *x->threads)))
			return -ENOMEM;
		for (size_t pos = 0; pos < r->n_threads; pos++) {
			int64_t t = tab[(pos * n_slots + sl) * N_SRC + k];
			if (r->th[pos].processor && t > 0)
				x->threads[x->n_threads++] = (struct an_site_thread){
					r->th[pos].index, (double)t * 1e-9, t };
		}
	}
	out->total_ns = total;
	out->total = (double)total * 1e-9;
	sites_finish(out);
	return 0;
}

int an_run_sites_window(const struct an_run *r, enum an_metric source, int64_t from_ns,
			int64_t to_ns, struct an_sites *out)
{
	int k = src_index(source), rc;
	memset(out, 0, sizeof *out);
	out->source = source;
	if (k < 0)
		return -EINVAL;
	out->recorded = an_run_sites_recorded(r);
	out->state = an_run_sites_state(r);
	out->n_runs = 1;
	size_t n_slots = sgr_n_sites(r->tr) + 1;
	uint64_t lo = 0, hi = SG_TICKS_MAX;
	if (from_ns > INT64_MIN || to_ns < INT64_MAX) {
		/* a window: ns since the epoch to ticks (whole when it covers the run) */
		int64_t t0, t1;
		an_run_span(r, &t0, &t1);
		if (from_ns > t0)
			lo = sgr_ns_to_ticks(r->info, from_ns);
		if (to_ns < t1)
			hi = sgr_ns_to_ticks(r->info, to_ns);
		out->window = lo != 0 || hi != SG_TICKS_MAX;
	}
	if (r->n_threads && n_slots > SIZE_MAX / r->n_threads / N_SRC / sizeof(int64_t))
		return -ENOMEM;
	int whole = lo == 0 && hi == SG_TICKS_MAX;
	int64_t *tab = whole ? r->sites_tab : NULL;
	if (tab) {
		rc = sites_from_table(r, tab, n_slots, (size_t)k, out);
	} else {
		if (!(tab = calloc(r->n_threads * n_slots * N_SRC + 1, sizeof *tab)))
			return -ENOMEM;
		if ((rc = sites_table(r, lo, hi, n_slots, tab)) == 0)
			rc = sites_from_table(r, tab, n_slots, (size_t)k, out);
		if (whole && rc == 0)
			((struct an_run *)r)->sites_tab = tab;   /* a cache: the run's figures */
		else
			free(tab);
	}
	if (rc < 0)
		an_sites_free(out);
	return rc;
}

int an_run_sites(const struct an_run *r, enum an_metric source, struct an_sites *out)
{
	return an_run_sites_window(r, source, INT64_MIN, INT64_MAX, out);
}

/* ---- a point: its median repetition's sites ---- */

static int same_site(const struct an_site *a, const struct an_site *b)
{
	if ((a->id == SG_NO_ID) != (b->id == SG_NO_ID))
		return 0;
	return a->id == SG_NO_ID ||
	       (a->line == b->line && !strcmp(a->file, b->file) && !strcmp(a->func, b->func));
}

/* Adds w times the sites of `in` to acc (sites matched by file, line and function: two runs
 * number their sites in the order they were first used). */
static int sites_add(struct an_sites *acc, const struct an_sites *in, double w)
{
	for (size_t i = 0; i < in->n; i++) {
		const struct an_site *x = &in->v[i];
		struct an_site *y = NULL;
		for (size_t k = 0; k < acc->n && !y; k++)
			if (same_site(&acc->v[k], x))
				y = &acc->v[k];
		if (!y) {
			struct an_site *v = realloc(acc->v, (acc->n + 1) * sizeof *v);
			if (!v)
				return -ENOMEM;
			acc->v = v;
			y = &v[acc->n++];
			*y = *x;
			y->s = 0;
			y->ns = 0;
			y->n_threads = 0;
			y->threads = NULL;
		}
		y->s += w * x->s;
		y->ns += (int64_t)llround(w * (double)x->ns);
		for (size_t t = 0; t < x->n_threads; t++) {
			const struct an_site_thread *a = &x->threads[t];
			size_t j = 0;
			while (j < y->n_threads && y->threads[j].index != a->index)
				j++;
			if (j == y->n_threads) {
				struct an_site_thread *q = realloc(y->threads, (j + 1) * sizeof *q);
				if (!q)
					return -ENOMEM;
				y->threads = q;
				y->threads[y->n_threads++] = (struct an_site_thread){ a->index, 0, 0 };
			}
			y->threads[j].s += w * a->s;
			y->threads[j].ns += (int64_t)llround(w * (double)a->ns);
		}
	}
	acc->total += w * in->total;
	acc->total_ns += (int64_t)llround(w * (double)in->total_ns);
	acc->recorded |= in->recorded;
	return 0;
}

struct rep_val {
	struct an_exp_run *x;
	double v;
};

static int rep_cmp(const void *a, const void *b)
{
	const struct rep_val *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->x->id > y->x->id) - (x->x->id < y->x->id);
}

/* Run x's call-site state; read from its definitions alone when the run was not analyzed (its
 * figures came from the store's cache): a report of a store recorded before format 1.4, or of a
 * program without synchronization, then reads no trace to say so. */
static enum an_sites_state rep_state(const struct an_exp *e, const struct an_exp_run *x)
{
	if (x->run)
		return an_run_sites_state(x->run);
	char dir[4096];
	struct sgr_trace *t = NULL;
	snprintf(dir, sizeof dir, "%s/runs/%lld/trace", e->dir, (long long)x->id);
	if (sgr_open(dir, SGR_NO_VERIFY, &t, NULL, 0) < 0)
		return AN_SITES_RECORDED;   /* let the analysis say what is wrong */
	enum an_sites_state st = state_of(t, x->fig);
	sgr_close(t);
	return st;
}

/* A repetition without call sites: all of the source at the unknown site, the threads not
 * told apart (that needs the trace's analysis, which would tell nothing more). */
static int sites_unrecorded(struct an_sites *acc, enum an_metric source, double s, double w)
{
	struct an_sites one = { .source = source, .total = s, .total_ns = llround(s * 1e9) };
	struct an_site unk = { .id = SG_NO_ID, .file = "", .func = "", .s = s,
			       .ns = llround(s * 1e9) };
	if (s > 0) {
		one.v = &unk;
		one.n = 1;
	}
	return sites_add(acc, &one, w);
}

int an_exp_point_sites(const struct an_exp *e, const struct an_point *p, enum an_metric source,
		       struct an_sites *out)
{
	memset(out, 0, sizeof *out);
	out->source = source;
	if (src_index(source) < 0 || !p)
		return -EINVAL;
	struct rep_val *rv = calloc(p->n_reps ? (size_t)p->n_reps : 1, sizeof *rv);
	size_t n = 0;
	int rc = 0;
	if (!rv)
		return -ENOMEM;
	for (int i = 0; i < p->n_reps; i++) {
		/* the repetitions' figures the point's median was made of (cached or analyzed) */
		struct an_exp_run *x = an_exp_run_find(e, p->rep_ids[i]);
		if (x && !x->have_fig)
			an_exp_run(e, x->id);
		if (x && x->have_fig && !x->fig[source].unavailable)
			rv[n++] = (struct rep_val){ x, x->fig[source].value };
	}
	if (!n) {
		free(rv);
		return -ENOENT;
	}
	qsort(rv, n, sizeof *rv, rep_cmp);
	/* the median as an_stats makes it: the middle one, or the mean of the middle two */
	size_t a = (n - 1) / 2, b = n / 2;
	for (size_t k = a; k <= b && rc == 0; k++) {
		struct an_sites one;
		double w = a == b ? 1.0 : 0.5;
		const struct an_run *r;
		out->run_ids[out->n_runs++] = rv[k].x->id;
		enum an_sites_state st = rep_state(e, rv[k].x);
		if (st != AN_SITES_RECORDED) {
			if (!out->recorded && out->state != AN_SITES_NO_SITE)
				out->state = st;
			rc = sites_unrecorded(out, source, rv[k].v, w);
			continue;
		}
		if (!(r = an_exp_run(e, rv[k].x->id))) {
			rc = -ENOENT;
			break;
		}
		if ((rc = an_run_sites(r, source, &one)) < 0)
			break;
		if (one.state == AN_SITES_RECORDED || out->state != AN_SITES_NO_SITE)
			out->state = one.state;
		rc = sites_add(out, &one, w);
		an_sites_free(&one);
	}
	free(rv);
	if (rc < 0) {
		an_sites_free(out);
		return rc;
	}
	if (out->recorded)
		out->state = AN_SITES_RECORDED;
	sites_finish(out);
	return 0;
}

an_sites_row *an_exp_sites_table(const struct an_exp *e, int *recorded)
{
	size_t n_src = an_site_n_sources(), n_m = an_exp_n_methods(e);
	an_sites_row *v = calloc(n_m ? n_m : 1, sizeof *v);
	*recorded = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < n_m; i++) {
		const struct an_point *o = an_exp_sites_point(e, an_exp_method(e, i));
		for (size_t k = 0; o && k < n_src; k++) {
			if (an_exp_point_sites(e, o, an_site_source_at(k), &v[i][k]) < 0) {
				memset(&v[i][k], 0, sizeof v[i][k]);
				v[i][k].state = AN_SITES_UNREADABLE;
			}
			*recorded |= v[i][k].recorded;
		}
	}
	return v;
}

void an_exp_sites_table_free(const struct an_exp *e, an_sites_row *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < an_exp_n_methods(e); i++)
		for (size_t k = 0; k < an_site_n_sources(); k++)
			an_sites_free(&v[i][k]);
	free(v);
}
