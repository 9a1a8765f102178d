/* A function header split across #ifdef/#else (PARSEC blackscholes' bs_thread), with the
 * threads created in the #else branch of its body (issue 20, item 3). Read alone, without the
 * build's flags: every branch does not balance, so the first branch of each #if is read and a
 * warning names the lines that were not. The -cpp and -old cases are the same file read with
 * the build's flags: the compiled branches are read. */
#include <pthread.h>
#include <stdio.h>

static int sum;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#include <sgtrace.h>
#line 12 "defect20-ifdef-header-old.c"
static void *worker(void *arg)
{
	sg_pthread_mutex_lock(&m);
	sum += *(int *)arg;
	sg_pthread_mutex_unlock(&m);
	return NULL;
}

#ifdef OLD_API
int run(int n, int unused) { static struct sg_func_desc sg_fd__ = { "run", "defect20-ifdef-header-old.c", 21, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
#else
int run(int n) {
#endif
	int i;
#ifdef OLD_API
	for (i = 0; i < n; i++)
		worker(&i);
	(void)unused;
#else
	pthread_t t[4];
	int arg[4];
	for (i = 0; i < n; i++) {
		arg[i] = i;
		pthread_create(&t[i], NULL, worker, &arg[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
#endif
	return sum;
}

int main(void)
{
#ifdef OLD_API
	printf("%d\n", run(4, 0));
#else
	printf("%d\n", run(4));
#endif
	return 0;
} SG_FUNC_OUTSIDE(main, "defect20-ifdef-header-old.c", 43, 1);
