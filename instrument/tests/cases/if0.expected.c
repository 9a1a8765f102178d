/* #if 0 blocks may hold anything: unbalanced braces, prose. */
#include <stdio.h>

#if 0
This is not C at all { { {
int broken( {
#endif

#include <sgtrace.h>
#line 9 "if0.c"
static int loop(int n)
{ static struct sg_func_desc sg_fd__ = { "loop", "if0.c", 9, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
#if 0
	if (n) { { still open
#else
	for (int i = 0; i < n; i++)
		s += i;
#endif
	return s;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "if0.c", 21, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d\n", loop(5));
	return 0;
}
