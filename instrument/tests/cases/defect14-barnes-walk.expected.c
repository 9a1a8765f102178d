/* SPLASH-3 BARNES's shape (grav.c, the default rule's real target): a recursive tree walk that
 * loops over a cell's children and calls itself (walksub: 16.7 M calls per run), and a
 * few-statement helper with vector macros holding short `for` loops, a sqrt and a lock/unlock
 * pair, called from inside the walk's loop over a leaf's bodies (gravsub: 15.5 M calls). With
 * their probes BARNES ran 5.6-11.3x slower; the default rule leaves both out, and the helper
 * with a short fixed loop of its own called in the workers' loop too. The start routine and the
 * driver keep theirs. defect14-barnes-walk-all.c is the same file under --all-functions. */
#include <math.h>
#include <pthread.h>
#include <stddef.h>

#define NDIM 3
#define NSUB 8
typedef double vector[NDIM];
#define SUBV(v, u, w) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] - (w)[_i]; }
#define DOTVP(s, v, u) { int _i; (s) = 0.0; for (_i = 0; _i < NDIM; _i++) (s) += (v)[_i] * (u)[_i]; }
#define MULVS(v, u, s) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] * (s); }
#define ADDV(v, u, w) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] + (w)[_i]; }

struct node {
	int is_cell, n_bodies;
	double mass;
	vector pos;
	struct node *sub[NSUB];
};

struct local {
	vector pos0, acc0, dr;
	double phi0, drsq;
};

struct work {
	struct node *root, *bodies;
	int n;
	double rsize;
};

static pthread_mutex_t cell_lock[64];
static double epssq = 0.0025;

#include <sgtrace.h>
#line 41 "defect14-barnes-walk.c"
void gravsub(struct node *p, struct local *l)
{
	double drabs, phii, mor3;
	vector ai;

	sg_pthread_mutex_lock(&cell_lock[(size_t)p % 64]);
	SUBV(l->dr, p->pos, l->pos0);
	sg_pthread_mutex_unlock(&cell_lock[(size_t)p % 64]);
	DOTVP(l->drsq, l->dr, l->dr);
	l->drsq += epssq;
	drabs = sqrt(l->drsq);
	phii = p->mass / drabs;
	l->phi0 -= phii;
	mor3 = phii / l->drsq;
	MULVS(ai, l->dr, mor3);
	ADDV(l->acc0, l->acc0, ai);
}

void walksub(struct node *n, double dsq, struct local *l)
{
	struct node **nn;
	int i;

	if (n->is_cell) {
		for (nn = n->sub; nn < n->sub + NSUB; nn++)
			if (*nn != NULL)
				walksub(*nn, dsq / 4.0, l);
	} else {
		for (i = 0; i < n->n_bodies; i++)
			gravsub(n->sub[i], l);
	}
}

static void clamp(vector v, double lo)
{
	int k;
	for (k = 0; k < 3; k++)
		v[k] = fmax(v[k], lo);
}

static void *slave(void *arg)
{
	struct work *w = arg;
	for (int i = 0; i < w->n; i++) {
		struct local l = { { 0 } };
		walksub(w->root, w->rsize * w->rsize, &l);
		clamp(l.acc0, -1e9);
		w->bodies[i].mass += l.phi0;
	}
	return NULL;
} SG_FUNC_OUTSIDE(slave, "defect14-barnes-walk.c", 81, 0);

int compute_forces(struct work *w, int n_threads)
{
	pthread_t t[8];
	int i;
	for (i = 0; i < n_threads && i < 8; i++)
		if (sg_pthread_create(&t[i], NULL, slave, &w[i]))
			break;
	while (i-- > 0)
		sg_pthread_join(t[i], NULL);
	return 0;
}
