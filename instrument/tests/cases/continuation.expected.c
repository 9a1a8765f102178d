/* Line continuations inside code, strings, comments and directives. */
#include <stdio.h>

#define ADD(a, b) \
	((a) + \
	 (b))

#include <sgtrace.h>
#line 8 "continuation.c"
static int sum\
mer(int n)
{ static struct sg_func_desc sg_fd__ = { "mer", "continuation.c", 9, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0; // comment continued \
	   on the next line
	for (int i = 0; \
	     i < n; i++)
		s = ADD(s, i);
	return s;
}

int main(void)
{
	printf("%d %s\n", summer(4), "a long \
string");
	return 0;
} SG_FUNC_OUTSIDE(main, "continuation.c", 19, 1);
