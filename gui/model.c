/*
 * model.c — storage, queries, selection and listeners of the GUI model (see model.h). No X:
 * the export path and the tests use it without a display.
 */
#include "model.h"

#include "analyzer.h"   /* an_matrix_caveat: one rule for the caveat */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct model_listener {
	model_listener_fn fn;
	void *arg;
	struct model_listener *next;
};

static const char *const metric_names[] = {
	"T_para", "T_seq", "E", "S", "L",
	"IT_edge", "IT_barrier", "IT_lock", "IT_cond", "IT_sem", "IT_join", "IT_sched",
	"IT_blocked", "PT_barrier", "PT_lock", "PT_sem", "PT_thread", "ML", "U", "parallelism",
	"closure",
};

static const char *const metric_titles[] = {
	"parallel time", "sequential time", "efficiency", "speedup", "average latency",
	"idle at the edges", "barrier waiting", "lock waiting", "condition waiting",
	"semaphore waiting", "join waiting", "runnable (CPU contention)",
	"blocked outside primitives", "barrier overhead", "lock overhead", "semaphore overhead",
	"thread create/join", "miss stall", "extra work", "parallelism",
	"unaccounted share of N T_para",
};
_Static_assert(sizeof(metric_names) / sizeof(metric_names[0]) == MODEL_N_METRICS &&
	       sizeof(metric_titles) / sizeof(metric_titles[0]) == MODEL_N_METRICS,
	       "a name and a title for every metric");

const enum model_metric model_source_order[MODEL_N_SOURCES] = {
	MODEL_IT_EDGE, MODEL_IT_BARRIER, MODEL_PT_BARRIER, MODEL_IT_LOCK, MODEL_PT_LOCK,
	MODEL_IT_COND, MODEL_IT_SEM, MODEL_PT_SEM, MODEL_IT_JOIN, MODEL_PT_THREAD,
	MODEL_IT_SCHED, MODEL_IT_BLOCKED, MODEL_ML, MODEL_U,
};

void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->cur_method = -1;
	m->sel_run = -1;
}

void model_clear(struct model *m)
{
	size_t i;

	for (i = 0; i < m->n_methods; i++) {
		free(m->methods[i].name);
		free(m->methods[i].pts);
	}
	for (i = 0; i < m->n_runs; i++) {
		free(m->runs[i].method);
		free(m->runs[i].sizes);
		free(m->runs[i].reason);
		free(m->runs[i].stderr_tail);
	}
	for (i = 0; i < m->n_funcs; i++)
		free(m->funcs[i].name);
	for (i = 0; i < m->n_patterns; i++)
		free(m->patterns[i].method);
	for (i = 0; i < m->n_machine; i++) {
		free(m->machine[i].key);
		free(m->machine[i].value);
	}
	for (i = 0; i < m->n_strings; i++)
		free(m->strings[i]);
	for (i = 0; i < m->n_exps; i++)
		free(m->exps[i]);
	free(m->exps);
	while (m->listeners) {
		struct model_listener *l = m->listeners;
		m->listeners = l->next;
		free(l);
	}
	free(m->methods);
	free(m->runs);
	free(m->cells);
	free(m->funcs);
	free(m->patterns);
	free(m->machine);
	free(m->strings);
	free(m->name);
	model_init(m);
}

/* Appends one element of `size` bytes to *arr (length *n). Capacity is implicit: 8, then
 * doubled whenever the length reaches a power of two, so arrays must only grow through here. */
static int grow_append(void *arr, size_t *n, size_t size, const void *elem)
{
	void **pa = arr;

	if (*n == 0 || (*n >= 8 && (*n & (*n - 1)) == 0)) {
		void *p = realloc(*pa, (*n == 0 ? 8 : 2 * *n) * size);
		if (!p)
			return -ENOMEM;
		*pa = p;
	}
	memcpy((char *)*pa + *n * size, elem, size);
	(*n)++;
	return 0;
}

const char *model_intern(struct model *m, const char *why)
{
	size_t i;
	char *s;

	for (i = 0; i < m->n_strings; i++)
		if (strcmp(m->strings[i], why) == 0)
			return m->strings[i];
	s = strdup(why);
	if (!s || grow_append(&m->strings, &m->n_strings, sizeof(s), &s) < 0) {
		free(s);
		return NULL;
	}
	return s;
}

int model_set_name(struct model *m, const char *name)
{
	char *s = strdup(name);

	if (!s)
		return -ENOMEM;
	free(m->name);
	m->name = s;
	return 0;
}

int model_method_find(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n_methods; i++)
		if (strcmp(m->methods[i].name, name) == 0)
			return (int)i;
	return -1;
}

int model_add_point(struct model *m, const char *method, const struct model_point *p)
{
	int k = model_method_find(m, method);
	struct model_method me;

	if (k < 0) {
		memset(&me, 0, sizeof(me));
		me.name = strdup(method);
		me.shown = 1;
		if (!me.name || grow_append(&m->methods, &m->n_methods, sizeof(me), &me) < 0) {
			free(me.name);
			return -ENOMEM;
		}
		k = (int)m->n_methods - 1;
	}
	return grow_append(&m->methods[k].pts, &m->methods[k].n_pts, sizeof(*p), p);
}

int model_add_run(struct model *m, const struct model_run *r)
{
	struct model_run c = *r;
	int rc = -ENOMEM;

	c.method = strdup(r->method);
	c.sizes = strdup(r->sizes ? r->sizes : "");
	c.reason = strdup(r->reason ? r->reason : "");
	c.stderr_tail = strdup(r->stderr_tail ? r->stderr_tail : "");
	if (!c.method || !c.sizes || !c.reason || !c.stderr_tail)
		goto out;
	rc = grow_append(&m->runs, &m->n_runs, sizeof(c), &c);
out:
	if (rc < 0) {
		free(c.method);
		free(c.sizes);
		free(c.reason);
		free(c.stderr_tail);
	}
	return rc;
}

int model_add_cell(struct model *m, const struct model_cell *c)
{
	return grow_append(&m->cells, &m->n_cells, sizeof(*c), c);
}

int model_add_func(struct model *m, const struct model_func *f)
{
	struct model_func c = *f;

	c.name = strdup(f->name);
	if (!c.name || grow_append(&m->funcs, &m->n_funcs, sizeof(c), &c) < 0) {
		free(c.name);
		return -ENOMEM;
	}
	return 0;
}

int model_add_pattern(struct model *m, const struct model_pattern *p)
{
	struct model_pattern c = *p;

	c.method = strdup(p->method);
	if (!c.method || grow_append(&m->patterns, &m->n_patterns, sizeof(c), &c) < 0) {
		free(c.method);
		return -ENOMEM;
	}
	return 0;
}

int model_add_machine(struct model *m, const char *key, const char *value)
{
	struct model_kv kv = { strdup(key), strdup(value) };

	if (!kv.key || !kv.value || grow_append(&m->machine, &m->n_machine, sizeof(kv), &kv) < 0) {
		free(kv.key);
		free(kv.value);
		return -ENOMEM;
	}
	if (strcmp(key, "cpus") == 0)
		m->n_cpus = atoi(value);
	return 0;
}

static int point_cmp(const void *a, const void *b)
{
	const struct model_point *p = a, *q = b;

	if (p->n != q->n)
		return p->n < q->n ? -1 : 1;
	return (p->w > q->w) - (p->w < q->w);
}

static int func_cmp(const void *a, const void *b)
{
	const struct model_func *p = a, *q = b;

	return (p->excl_s < q->excl_s) - (p->excl_s > q->excl_s);
}

/* The paper (§6.4) shows the time-bound reading overestimates scalability when E and E' are
 * both low and close: for a CSV matrix (values only), the analyzer's rule on the points' E. */
static int time_bound_caveat(const struct model *m, int n, int n2)
{
	const struct model_point *p = model_point_at(m, "time-bound", n);
	const struct model_point *q = model_point_at(m, "time-bound", n2);

	if (!p || !q || p->fig[MODEL_E].why || q->fig[MODEL_E].why)
		return 0;
	return an_matrix_caveat(p->fig[MODEL_E].v, q->fig[MODEL_E].v);
}

int model_is_size_model(const char *name)
{
	return strcmp(name, "time-bound") == 0 || strcmp(name, "e-conserved") == 0 ||
	       strcmp(name, "memory-bound") == 0;
}

/* p_x of a method the adapter did not set (a CSV experiment): the analyzer's definition,
 * an_exp_px — the point of smallest T_para of a plain method — with the table's L there.
 * T_para (1 - E) is not in report --csv: unavailable, not recomputed here from T_para and a
 * rounded E (which gave 0.5 ns where the analyzer has 0). */
static void px_from_points(struct model_method *me)
{
	int k;

	if (me->px_set || model_is_size_model(me->name))
		return;
	if ((k = model_method_px(me)) < 0)
		return;
	me->px_n = me->pts[k].n;
	me->px_t_para = me->pts[k].fig[MODEL_T_PARA];
	me->px_l = me->pts[k].fig[MODEL_L];
	me->px_l_e = (struct model_fig){ NAN, "T_para (1 - E) is not in report --csv" };
	me->px_l_e_note = NULL;
}

void model_finish(struct model *m)
{
	size_t i;

	for (i = 0; i < m->n_methods; i++)
		if (m->methods[i].n_pts > 1)
			qsort(m->methods[i].pts, m->methods[i].n_pts, sizeof(struct model_point),
			      point_cmp);
	if (m->n_funcs > 1)   /* qsort on a NULL table is undefined even for 0 elements */
		qsort(m->funcs, m->n_funcs, sizeof(struct model_func), func_cmp);
	for (i = 0; i < m->n_cells; i++)
		if (!m->cells[i].caveat && !m->cells[i].explain[0])   /* the analyzer's said */
			m->cells[i].caveat = time_bound_caveat(m, m->cells[i].n, m->cells[i].n2);
	for (i = 0; i < m->n_methods; i++)
		px_from_points(&m->methods[i]);
	/* a run above the CPU count is oversubscribed, as the analyzer says of points (runs.csv
	 * has no such column; the store's runner may predate it) */
	for (i = 0; i < m->n_runs; i++)
		if (m->n_cpus > 0 && m->runs[i].n > m->n_cpus && !m->runs[i].seq)
			m->runs[i].oversubscribed = 1;
	if (m->cur_method < 0 && m->n_methods > 0)
		m->cur_method = 0;
	model_notify(m, MODEL_CHANGED_DATA);
}

int model_method_px(const struct model_method *me)
{
	int best = -1;
	size_t i;

	for (i = 0; i < me->n_pts; i++) {
		const struct model_fig *f = &me->pts[i].fig[MODEL_T_PARA];
		if (f->why)
			continue;
		if (best < 0 || f->v < me->pts[best].fig[MODEL_T_PARA].v)
			best = (int)i;
	}
	return best;
}

int model_method_fixed_size(const struct model_method *me)
{
	size_t i;

	for (i = 1; i < me->n_pts; i++)
		if (me->pts[i].w != me->pts[0].w)
			return 0;
	return me->n_pts > 1;
}

const struct model_point *model_point_at(const struct model *m, const char *method, int n)
{
	int k = model_method_find(m, method);
	size_t i;

	if (k < 0)
		return NULL;
	for (i = 0; i < m->methods[k].n_pts; i++)
		if (m->methods[k].pts[i].n == n)
			return &m->methods[k].pts[i];
	return NULL;
}

const char *model_metric_name(enum model_metric k)
{
	return k < MODEL_N_METRICS ? metric_names[k] : "?";
}

const char *model_metric_title(enum model_metric k)
{
	return k < MODEL_N_METRICS ? metric_titles[k] : "?";
}

const char *model_run_status_name(enum model_run_status s)
{
	switch (s) {
	case MODEL_RUN_OK: return "ok";
	case MODEL_RUN_FAILED: return "failed";
	case MODEL_RUN_RUNNING: return "running";
	case MODEL_RUN_PENDING: return "pending";
	case MODEL_RUN_INTERRUPTED: return "interrupted";
	}
	return "?";
}

void model_set_shown(struct model *m, int method, int shown)
{
	if (method < 0 || (size_t)method >= m->n_methods || m->methods[method].shown == !!shown)
		return;
	m->methods[method].shown = !!shown;
	model_notify(m, MODEL_CHANGED_SHOWN);
}

void model_set_current(struct model *m, int method)
{
	if (method < 0 || (size_t)method >= m->n_methods || m->cur_method == method)
		return;
	m->cur_method = method;
	model_notify(m, MODEL_CHANGED_SHOWN);
}

void model_select_run(struct model *m, int run)
{
	if (run < -1 || (run >= 0 && (size_t)run >= m->n_runs) || m->sel_run == run)
		return;
	m->sel_run = run;
	model_notify(m, MODEL_CHANGED_RUN);
}

void model_set_source_shown(struct model *m, enum model_metric k, int shown)
{
	unsigned bit;

	if (k < MODEL_FIRST_SOURCE || k > MODEL_LAST_SOURCE)
		return;
	bit = 1u << (k - MODEL_FIRST_SOURCE);
	if (!!(m->sources_hidden & bit) == !shown)
		return;
	m->sources_hidden ^= bit;
	model_notify(m, MODEL_CHANGED_SOURCES);
}

int model_source_shown(const struct model *m, enum model_metric k)
{
	if (k < MODEL_FIRST_SOURCE || k > MODEL_LAST_SOURCE)
		return 0;
	return !(m->sources_hidden & (1u << (k - MODEL_FIRST_SOURCE)));
}

int model_add_listener(struct model *m, model_listener_fn fn, void *arg)
{
	struct model_listener *l = malloc(sizeof(*l));

	if (!l)
		return -ENOMEM;
	l->fn = fn;
	l->arg = arg;
	l->next = m->listeners;
	m->listeners = l;
	return 0;
}

void model_remove_listener(struct model *m, model_listener_fn fn, void *arg)
{
	struct model_listener **pl;

	for (pl = &m->listeners; *pl; pl = &(*pl)->next) {
		if ((*pl)->fn == fn && (*pl)->arg == arg) {
			struct model_listener *l = *pl;
			*pl = l->next;
			free(l);
			return;
		}
	}
}

void model_notify(struct model *m, unsigned what)
{
	struct model_listener *l, *next;

	for (l = m->listeners; l; l = next) {
		next = l->next; /* a listener may remove itself */
		l->fn(m, what, l->arg);
	}
}
