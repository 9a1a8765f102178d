/* CRLF line endings. */
#include <stdio.h>

#include <sgtrace.h>
#line 4 "crlf.c"
static int tri(int n)
{ static struct sg_func_desc sg_fd__ = { "tri", "crlf.c", 4, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
	for (int i = 1; i <= n; i++)
		s += i;
	return s;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "crlf.c", 12, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d\n", tri(4));
	return 0;
}
