/*
 * instrument_callheavy.c — a call-heavy program in SPLASH-3 BARNES's shape, for
 * bench/instrument-callheavy.sh: each thread walks an octree once per body it owns (walk:
 * recursive, loops over a cell's children), and in each leaf calls a tiny helper per body
 * (interact: a few statements, vector macros with short loops, a sqrt, and on every 8th call
 * a lock/unlock pair — BARNES's gravsub locks on 2.1 M of its 15.5 M calls). Millions of calls
 * of both per run; what the default probes cost here is what they cost BARNES. Usage: instrument_callheavy [THREADS [BODIES [DEPTH]]]; prints a checksum.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NDIM 3
#define NSUB 8
#define NLOCK 64
typedef double vector[NDIM];
#define SUBV(v, u, w) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] - (w)[_i]; }
#define DOTVP(s, v, u) { int _i; (s) = 0.0; for (_i = 0; _i < NDIM; _i++) (s) += (v)[_i] * (u)[_i]; }
#define MULVS(v, u, s) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] * (s); }
#define ADDV(v, u, w) { int _i; for (_i = 0; _i < NDIM; _i++) (v)[_i] = (u)[_i] + (w)[_i]; }

struct node {
	int is_cell, n_bodies, lock;
	double mass;
	vector pos;
	struct node *sub[NSUB];
};

struct local {
	vector pos0, acc0, dr;
	double phi0, drsq;
	unsigned long n;
};

struct work {
	struct node *root;
	struct node **mine;
	int n_mine;
	double sum;
};

static pthread_mutex_t locks[NLOCK];
static const double epssq = 0.0025;

void interact(struct node *p, struct local *l)
{
	double drabs, phii, mor3;
	vector ai;

	if ((++l->n & 7) == 0) {
		pthread_mutex_lock(&locks[p->lock]);
		SUBV(l->dr, p->pos, l->pos0);
		pthread_mutex_unlock(&locks[p->lock]);
	} else {
		SUBV(l->dr, p->pos, l->pos0);
	}
	DOTVP(l->drsq, l->dr, l->dr);
	l->drsq += epssq;
	drabs = sqrt(l->drsq);
	phii = p->mass / drabs;
	l->phi0 -= phii;
	mor3 = phii / l->drsq;
	MULVS(ai, l->dr, mor3);
	ADDV(l->acc0, l->acc0, ai);
}

void walk(struct node *n, double dsq, struct local *l)
{
	struct node **nn;
	int i;

	if (n->is_cell) {
		for (nn = n->sub; nn < n->sub + NSUB; nn++)
			if (*nn != NULL)
				walk(*nn, dsq / 4.0, l);
	} else {
		for (i = 0; i < n->n_bodies; i++)
			interact(n->sub[i], l);
	}
}

static void *worker(void *arg)
{
	struct work *w = arg;
	for (int i = 0; i < w->n_mine; i++) {
		struct local l = { 0 };
		for (int k = 0; k < NDIM; k++)
			l.pos0[k] = w->mine[i]->pos[k] + 0.5;
		walk(w->root, 1.0, &l);
		w->sum += l.phi0 + l.acc0[0];
	}
	return NULL;
}

/* A cell tree of `depth` levels whose leaves hold up to NSUB bodies each. */
static struct node *build(int depth, struct node **bodies, int *next, int n)
{
	struct node *c = calloc(1, sizeof *c);
	if (!c)
		exit(1);
	if (depth == 0) {
		for (int i = 0; i < NSUB && *next < n; i++)
			c->sub[c->n_bodies++] = bodies[(*next)++];
		return c;
	}
	c->is_cell = 1;
	for (int i = 0; i < NSUB; i++)
		if (*next < n)
			c->sub[i] = build(depth - 1, bodies, next, n);
	return c;
}

int main(int argc, char **argv)
{
	int n_threads = argc > 1 ? atoi(argv[1]) : 2;
	int n = argc > 2 ? atoi(argv[2]) : 4096;
	int depth = argc > 3 ? atoi(argv[3]) : 3;
	unsigned seed = 1;
	if (n_threads < 1 || n_threads > 64 || n < 1)
		return 2;
	struct node **bodies = calloc((size_t)n, sizeof *bodies);
	struct work *w = calloc((size_t)n_threads, sizeof *w);
	pthread_t *t = calloc((size_t)n_threads, sizeof *t);
	if (!bodies || !w || !t)
		return 1;
	for (int i = 0; i < NLOCK; i++)
		pthread_mutex_init(&locks[i], NULL);
	for (int i = 0; i < n; i++) {
		bodies[i] = calloc(1, sizeof **bodies);
		if (!bodies[i])
			return 1;
		bodies[i]->mass = 1.0 / n;
		bodies[i]->lock = i % NLOCK;
		for (int k = 0; k < NDIM; k++)
			bodies[i]->pos[k] = (double)(rand_r(&seed) % 10000) / 10000.0;
	}
	int next = 0;
	struct node *root = build(depth, bodies, &next, n);
	for (int i = 0; i < n_threads; i++) {
		w[i].root = root;
		w[i].mine = bodies + (size_t)i * (size_t)n / (size_t)n_threads;
		w[i].n_mine = (int)((size_t)(i + 1) * (size_t)n / (size_t)n_threads -
				    (size_t)i * (size_t)n / (size_t)n_threads);
		pthread_create(&t[i], NULL, worker, &w[i]);
	}
	double sum = 0;
	for (int i = 0; i < n_threads; i++) {
		pthread_join(t[i], NULL);
		sum += w[i].sum;
	}
	printf("checksum %.6e\n", sum);
	return 0;
}
