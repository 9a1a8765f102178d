/* `--explain`: one line per function definition, `file:line name: selected|left out: why`,
 * with every reason of the default rule (docs/instrumenter.md, "The default rule"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;
struct tree {
	struct tree *left, *right;
	int value;
};

static int sq(int x) { return x * x; }
#include <sgtrace.h>
#line 16 "explain.c"
static void locked_inc(void) { sg_pthread_mutex_lock(&m); counter++; sg_pthread_mutex_unlock(&m); }
static int straight(int x) { return sq(x) + 1; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int scale(int x) { int r; sg_pthread_mutex_lock(&m); r = abs(x) * counter; sg_pthread_mutex_unlock(&m); return r; }
static int visit(const struct tree *t) { int s = 0; for (int k = 0; k < 2; k++) s += abs(t->value); return s; }

static int tree_sum(const struct tree *t)
{
	if (!t)
		return 0;
	return visit(t) + tree_sum(t->left) + tree_sum(t->right);
}

static int row(int n)
{ static struct sg_func_desc sg_fd__ = { "row", "explain.c", 29, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
	for (int i = 0; i < n; i++)
		s += sq(i);
	return s;
}

static int grid(int n)
{ static struct sg_func_desc sg_fd__ = { "grid", "explain.c", 37, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
	for (int i = 0; i < n; i++)
		s += row(i) + scale(i);
	return s;
}

static void push(int v)
{ static struct sg_func_desc sg_fd__ = { "push", "explain.c", 45, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	sg_pthread_mutex_lock(&m);
	counter += v;
	memset(&v, 0, sizeof v);
	sg_pthread_mutex_unlock(&m);
}

static void *worker(void *arg)
{
	locked_inc();
	push(*(int *)arg);
	return arg;
} SG_FUNC_OUTSIDE(worker, "explain.c", 53, 0);

int main(void)
{
	pthread_t t;
	int one = 1;
	struct tree leaf = { NULL, NULL, 3 }, root = { &leaf, NULL, 4 };
	sg_pthread_create(&t, NULL, (void *(*)(void *))(worker), &one);
	sg_pthread_join(t, NULL);
	printf("%d %d %d %d %d\n", straight(2), fib(10), grid(4), tree_sum(&root), counter);
	return 0;
} SG_FUNC_OUTSIDE(main, "explain.c", 60, 1);
