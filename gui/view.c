/*
 * view.c — the table of xscalegraph's windows (names, titles, sizes, drawings), the series pool
 * the drawings share, and the export of every window to PNG/SVG/PDF.
 */
#include "view.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct view_desc views[VIEW_COUNT] = {
	[VIEW_BROWSER] = { "browser", "Experiment browser", 1, 1000, 760, view_browser_draw },
	[VIEW_PROFILE] = { "profile", "Execution profile (sequential)", 2, 900, 520, view_profile_draw },
	[VIEW_PATTERNS] = { "patterns", "Sequential patterns vs problem size", 3, 1000, 720, view_patterns_draw },
	[VIEW_TIME] = { "time", "Execution time, speedup and efficiency vs N", 4, 1000, 760, view_time_draw },
	[VIEW_LATENCY] = { "latency", "Average latency L(W,N) vs N", 5, 900, 560, view_latency_draw },
	[VIEW_SOURCES] = { "sources", "Latency sources vs N", 6, 1100, 620, view_sources_draw },
	[VIEW_PARALLELISM] = { "parallelism", "Parallelism vs problem size", 7, 900, 560, view_parallelism_draw },
	[VIEW_MATRIX] = { "matrix", "Scalability matrix (t/E/m)", 8, 1000, 720, view_matrix_draw },
	[VIEW_TIMELINE] = { "timeline", "Run timeline", 9, 1100, 440, view_timeline_draw },
	[VIEW_TEACH] = { "teach", "Teaching model", 11, 1200, 820, view_teach_draw },
};

const struct view_desc *view_get(enum view_id id)
{
	return (unsigned)id < VIEW_COUNT ? &views[id] : NULL;
}

const struct view_desc *view_find(const char *name)
{
	int i;

	for (i = 0; i < VIEW_COUNT; i++)
		if (strcmp(views[i].name, name) == 0)
			return &views[i];
	return NULL;
}

int view_draw(enum view_id id, cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	int rc;

	if ((unsigned)id >= VIEW_COUNT)
		return -EINVAL;
	cairo_save(cr);
	plot_background(cr, (struct plot_rect){ 0, 0, w, h });
	rc = views[id].draw(cr, w, h, v);
	cairo_restore(cr);
	return rc;
}

int view_timeline_draw(cairo_t *cr, double w, double h, const struct view_ctx *v)
{
	struct timeline none;

	if (v->tl)
		return timeline_draw(cr, w, h, v->tl);
	timeline_init(&none);
	return timeline_draw(cr, w, h, &none);
}

/* Colours and markers are keyed by method name, not by position: a live series that adds a
 * method, or a second store with other methods, must not recolour the ones on screen. The
 * scaling methods of the paper's specs have fixed places (so "fixed" and "time-bound" look the
 * same in every store); other names get the next free style on first sight, kept for the life
 * of the process (the app, the export, a test run). */
static const char *const known_methods[] = {
	"fixed", "balls", "steps", "both", "time-bound", "e-conserved", "memory-bound",
};
#define N_KNOWN (sizeof(known_methods) / sizeof(known_methods[0]))
static char seen_methods[64][64];
static size_t n_seen_methods;

size_t view_method_style_index(const char *name)
{
	size_t k;

	for (k = 0; k < N_KNOWN; k++)
		if (strcmp(known_methods[k], name) == 0)
			return k;
	for (k = 0; k < n_seen_methods; k++)
		if (strcmp(seen_methods[k], name) == 0)
			return N_KNOWN + k;
	if (n_seen_methods == sizeof(seen_methods) / sizeof(seen_methods[0]))
		return N_KNOWN + n_seen_methods;   /* full: a shared style, still stable */
	snprintf(seen_methods[n_seen_methods], sizeof(seen_methods[0]), "%s", name);
	return N_KNOWN + n_seen_methods++;
}

const char *view_method_base(const struct model *m, size_t i)
{
	const struct model_method *me = &m->methods[i];
	size_t n;

	if (me->exp <= 0 || (size_t)me->exp > m->n_exps)
		return me->name;
	n = strlen(m->exps[me->exp - 1]);
	return strncmp(me->name, m->exps[me->exp - 1], n) == 0 && me->name[n] == ':' ?
		       me->name + n + 1 : me->name;
}

static char chosen[2][128];   /* sources, parallelism */

static int chosen_slot(enum view_id which)
{
	return which == VIEW_SOURCES ? 0 : which == VIEW_PARALLELISM ? 1 : -1;
}

int view_set_method(enum view_id which, const char *name)
{
	int k = chosen_slot(which);

	if (k < 0)
		return -EINVAL;
	snprintf(chosen[k], sizeof(chosen[k]), "%s", name ? name : "");
	return 0;
}

const char *view_get_method(enum view_id which)
{
	int k = chosen_slot(which);

	return k < 0 ? "" : chosen[k];
}

int view_chosen_method(const struct model *m, enum view_id which)
{
	int k = chosen_slot(which), i;

	if (k >= 0 && chosen[k][0] && (i = model_method_find(m, chosen[k])) >= 0)
		return i;
	return m->cur_method;
}

void view_method_style(const struct model *m, struct plot_series *s, size_t i)
{
	/* "EXP:fixed" looks like the first experiment's "fixed", dashed, so the same method is
	 * the same colour and marker in both */
	view_series_style(s, view_method_style_index(view_method_base(m, i)));
	if (m->methods[i].exp > 0)
		s->dashed = 1;
}

void view_title(char *buf, size_t len, const struct view_ctx *v, const char *what)
{
	size_t n, i;

	if (!v->m || !v->m->name) {
		snprintf(buf, len, "%s", what);
		return;
	}
	snprintf(buf, len, "%s \xe2\x80\x94 %s", what, v->m->name);
	for (i = 0; i < v->m->n_exps && (n = strlen(buf)) < len; i++)
		snprintf(buf + n, len - n, "%s%s", i ? ", " : " vs ", v->m->exps[i]);
}

int view_pool_init(struct view_pool *p, size_t max_series, size_t max_points)
{
	memset(p, 0, sizeof(*p));
	p->s = calloc(max_series ? max_series : 1, sizeof(*p->s));
	p->labels = calloc(max_series ? max_series : 1, sizeof(*p->labels));
	p->pts = malloc((2 * max_points + 1) * sizeof(double));
	p->ptext = calloc(2 * max_points + 1, sizeof(*p->ptext));
	p->notes = calloc(max_points + 1, sizeof(*p->notes));
	p->cap_s = max_series;
	p->cap_pts = 2 * max_points;
	p->cap_notes = max_points + 1;
	if (!p->s || !p->labels || !p->pts || !p->ptext || !p->notes) {
		view_pool_free(p);
		return -ENOMEM;
	}
	return 0;
}

void view_pool_free(struct view_pool *p)
{
	free(p->s);
	free(p->labels);
	free(p->pts);
	free(p->ptext);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

struct plot_series *view_pool_series(struct view_pool *p, const char *label, size_t n)
{
	struct plot_series *s;
	double *x;
	size_t k;

	if (p->n_s == p->cap_s || p->used + 2 * n > p->cap_pts)
		return NULL;
	s = &p->s[p->n_s];
	memset(s, 0, sizeof(*s));
	snprintf(p->labels[p->n_s], sizeof(p->labels[0]), "%s", label);
	s->label = p->labels[p->n_s];
	x = p->pts + p->used;
	for (k = 0; k < 2 * n; k++)
		x[k] = NAN;
	s->x = x;
	s->y = x + n;
	s->n = n;
	s->tags = p->ptext + p->used;
	s->notes = p->ptext + p->used + n;
	view_series_style(s, p->n_s);
	p->used += 2 * n;
	p->n_s++;
	return s;
}

void view_pool_point_text(struct view_pool *p, struct plot_series *s, size_t k, const char *tag,
			  const char *note)
{
	if (k >= s->n)
		return;
	((const char **)s->tags)[k] = tag;
	if (note && p->n_notes < p->cap_notes) {
		snprintf(p->notes[p->n_notes], sizeof(p->notes[0]), "%s", note);
		((const char **)s->notes)[k] = p->notes[p->n_notes++];
	}
}

void view_series_style(struct plot_series *s, size_t k)
{
	/* seven colours (yellow is poor on white), each paired with its own marker */
	s->color = (int)(k % 7);
	s->marker = (enum plot_marker)(k % 8);
	s->dashed = k >= 7;
}

/* Largest matrix N list. */
size_t view_matrix_ns(const struct model *m, int *ns, size_t max)
{
	size_t i, k, n = 0;
	int vals[2];

	for (i = 0; i < m->n_cells; i++) {
		vals[0] = m->cells[i].n;
		vals[1] = m->cells[i].n2;
		for (k = 0; k < 2; k++) {
			size_t j, pos;
			for (j = 0; j < n && ns[j] < vals[k]; j++)
				;
			if (j < n && ns[j] == vals[k])
				continue;
			if (n == max)
				continue;
			for (pos = n; pos > j; pos--)
				ns[pos] = ns[pos - 1];
			ns[j] = vals[k];
			n++;
		}
	}
	return n;
}

struct export_arg {
	enum view_id id;
	const struct view_ctx *v;
};

static int export_draw(cairo_t *cr, double w, double h, void *arg)
{
	struct export_arg *a = arg;

	return view_draw(a->id, cr, w, h, a->v);
}

int view_export_all(const char *dir, const struct view_ctx *v, int pdf, int replace, char *err,
		    size_t err_len)
{
	static const char *const ext[] = { "png", "svg", "pdf" };
	char name[64];
	int i, f, rc = 0, dfd;

	/* the directory once, as a descriptor: every file is made relative to it */
	if ((dfd = out_dir_open(dir, OUT_DIR_MODE_SHARED, err, err_len)) < 0)
		return dfd;
	for (i = 0; i < VIEW_COUNT; i++) {
		struct export_arg a = { (enum view_id)i, v };
		for (f = PLOT_PNG; f <= (pdf ? PLOT_PDF : PLOT_SVG); f++) {
			char title[256];
			snprintf(name, sizeof(name), "%s.%s", views[i].name, ext[f]);
			view_title(title, sizeof(title), v, views[i].title);
			rc = plot_render_at(dfd, dir, name, replace, (enum plot_format)f, views[i].w,
					    views[i].h, title, export_draw, &a, err, err_len);
			if (rc < 0)
				goto out;
		}
	}
out:
	close(dfd);
	return rc;
}
