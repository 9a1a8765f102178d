/* Function-pointer casts in pthread_create, and a start routine with another signature. */
#include <pthread.h>
#include <stdio.h>

static int result;

#include <sgtrace.h>
#line 7 "create_cast.c"
static void work(int *arg)
{ static struct sg_func_desc sg_fd__ = { "work", "create_cast.c", 7, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	result = *arg * 2;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "create_cast.c", 12, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	pthread_t t;
	int v = 21;
	if (sg_pthread_create(&t, NULL, (void *(*)(void *))(void (*)(void))work, &v) != 0)
		return 1;
	sg_pthread_join(t, NULL);
	printf("%d\n", result);
	return 0;
}
