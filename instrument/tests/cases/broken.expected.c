/* A macro that opens a brace the parser cannot see: the unbalanced part is left as is
 * (with a warning) and the file still compiles exactly as before. */
#include <pthread.h>
#include <stdio.h>

#define OPEN_SCOPE(x) if (x) {

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

#include <sgtrace.h>
#line 10 "broken.c"
static int guarded(int x)
{ static struct sg_func_desc sg_fd__ = { "guarded", "broken.c", 10, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int r = 0;
	OPEN_SCOPE(x)
		sg_pthread_mutex_lock(&m);
		r = x;
		sg_pthread_mutex_unlock(&m);
	}
	return r;
}

static int fine(int n)
{ static struct sg_func_desc sg_fd__ = { "fine", "broken.c", 21, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
	while (n--)
		s++;
	return s;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "broken.c", 29, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d %d\n", guarded(3), fine(2));
	return 0;
}
