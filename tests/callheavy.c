/*
 * callheavy.c — a call-heavy parallel program with a known answer, for the overhead-control
 * test (tests/test-callheavy.sh) and bench (bench/callheavy.sh).
 *
 * Each of T threads walks a complete binary tree of depth D, R times, recursively (walk: the
 * shape of SPLASH-3 BARNES's walksub). At every node it calls visit(), which loops over the
 * node's K values and calls the tiny leaf weight() on each (BARNES's gravsub: a few operations
 * and a sqrt). Every 64th visit of a thread takes the shared mutex to add its partial sum.
 *
 *   calls of walk   = calls of visit = T * R * (2^(D+1) - 1)
 *   calls of weight = K * calls of visit
 *   mutex lock/unlock pairs per thread = floor(R * (2^(D+1) - 1) / 64)
 *
 * Under the instrumenter's default rule walk (directly recursive) and weight (a tiny leaf called
 * in a loop) get no probes; visit (a loop that calls a function of this file) and worker do.
 * Usage: callheavy [-t THREADS] [-d DEPTH] [-r REPEATS]; prints the counts and a checksum that
 * does not depend on the thread count's scheduling.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define K 4

struct node {
	struct node *kid[2];
	double val[K];
};

static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static double total;
static long lock_pairs;
static int depth = 16, repeats = 4;
static struct node *root;

static struct node *build(int d, unsigned *seed)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n) {
		perror("callheavy");
		exit(1);
	}
	for (int k = 0; k < K; k++)
		n->val[k] = (double)(rand_r(seed) % 1000) / 1000.0;
	if (d > 0) {
		n->kid[0] = build(d - 1, seed);
		n->kid[1] = build(d - 1, seed);
	}
	return n;
}

static double weight(double x)
{
	return sqrt(x * x + 1.0);
}

/* One per thread, each on its own cache line: adjacent walkers shared one, and the threads'
 * stores to it made two-thread runs two to three times slower at random (false sharing), which
 * is noise a bench of the tracing cost must not measure. */
struct walker {
	_Alignas(64) double partial;
	long visits;
	long locks;
};

static void visit(struct node *n, struct walker *w)
{
	for (int k = 0; k < K; k++)
		w->partial += weight(n->val[k]);
	if (++w->visits % 64 == 0) {
		pthread_mutex_lock(&sum_lock);
		total += w->partial;
		lock_pairs++;
		pthread_mutex_unlock(&sum_lock);
		w->locks++;
		w->partial = 0;
	}
}

static void walk(struct node *n, struct walker *w)
{
	visit(n, w);
	for (int c = 0; c < 2; c++)
		if (n->kid[c])
			walk(n->kid[c], w);
}

static void *worker(void *arg)
{
	struct walker *w = arg;
	for (int r = 0; r < repeats; r++)
		walk(root, w);
	pthread_mutex_lock(&sum_lock);
	total += w->partial;
	pthread_mutex_unlock(&sum_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 2, opt;
	while ((opt = getopt(argc, argv, "t:d:r:")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 'd': depth = atoi(optarg); break;
		case 'r': repeats = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-t THREADS] [-d DEPTH] [-r REPEATS]\n", argv[0]);
			return 2;
		}
	}
	if (threads < 1 || threads > 256 || depth < 0 || depth > 24 || repeats < 1) {
		fprintf(stderr, "callheavy: threads 1..256, depth 0..24, repeats >= 1\n");
		return 2;
	}
	unsigned seed = 12345;
	root = build(depth, &seed);

	pthread_t tid[256];
	struct walker w[256] = { { 0 } };
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, &w[i])) {
			fprintf(stderr, "callheavy: cannot create thread %d\n", i);
			return 1;
		}
	long visits = 0, locks = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		visits += w[i].visits;
		locks += w[i].locks;
	}
	printf("visits %ld weight-calls %ld lock-pairs %ld\n", visits, visits * K, locks);
	printf("checksum %.3f\n", total / threads);
	return 0;
}
