/*
 * sites.h — the call-sites pane without X (the window is win_sites.c): for one latency source
 * and a focus — a point (method, N), a matrix cell's points, or a run of the timeline with its
 * selected interval — the call sites behind the source and the threads behind each site, most
 * time first, with their shares, as lines of text. Every figure is the analyzer's
 * (an_exp_point_sites, an_run_sites, an_run_sites_window: docs/analyzer.md "Call sites"); this
 * file only chooses what to ask for and lays the answer out (the Cube idea: metric -> where ->
 * who).
 */
#ifndef GUI_SITES_H
#define GUI_SITES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

struct an_exp;
struct an_run;

enum sites_focus { SITES_NONE, SITES_POINT, SITES_CELL, SITES_RUN };

struct sites_row {
	int kind;                  /* 0 a heading, 1 a site, 2 a thread under the site above */
	char text[320];
};

struct sites_view {
	enum model_metric source;  /* one of the sync sources (sites_source_ok) */
	enum sites_focus focus;
	char method[96];           /* SITES_POINT: the model's method name ("fixed", "time-bound",
				      "a.exp:fixed" when compared) */
	int n, n2;                 /* SITES_POINT: N (0: the method's largest); SITES_CELL: N < N2 */
	long long run_id;          /* SITES_RUN: the store's id, -1 a bare trace */
	int window;                /* SITES_RUN: only [w0, w1] */
	double w0, w1;             /* s since the run's t0 */

	char title[256];           /* "IT_lock (lock waiting) at fixed N=2" */
	char note[1024];           /* how the figures were made, or why there are none */
	char status[1600];         /* one line for the status bar (tests read it) */
	struct sites_row *rows;
	size_t n_rows, cap_rows;
	size_t n_sites;            /* site rows */

	struct an_exp *exp;        /* opened on demand (AN_EXP_NO_STORE_WRITE), owned */
	char exp_dir[4096];
};

void sites_view_init(struct sites_view *v);
/* Frees the rows and closes the experiment. */
void sites_view_clear(struct sites_view *v);
/* Closes the experiment (the store changed: it is opened again on the next refresh). */
void sites_view_forget(struct sites_view *v);

/* 1 when k is a source the analyzer splits by call site (IT/PT_barrier, IT/PT_lock, IT_cond,
 * IT/PT_sem, IT_join, PT_thread). */
int sites_source_ok(enum model_metric k);
/* The sync source called `name` ("IT_lock", or a chart series' label that starts with it:
 * "IT_lock lock waiting"), or -1. */
int sites_source_find(const char *name);

/* Recomputes the rows for the current source and focus. `dirs` are the experiment directories
 * (dirs[0] the one opened, then the compared ones: a method "NAME:m" of model_method.exp = k
 * is looked up in dirs[k]); `run` is the timeline's open run for SITES_RUN (its interval
 * [t0_ns, ...] gives the window's origin), NULL when none. Returns 0, or -errno with the reason
 * in v->note (no store, no such point, no trace). */
int sites_view_refresh(struct sites_view *v, const struct model *m, char *const *dirs,
		       size_t n_dirs, struct an_run *run, int64_t run_t0_ns);

/* Writes the title, the rows and the note as text (sites-export). 0 or -EIO. */
int sites_view_write(const struct sites_view *v, FILE *f);

#endif /* GUI_SITES_H */
