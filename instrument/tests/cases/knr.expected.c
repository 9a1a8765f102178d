/* K&R definitions, old-style parameter declarations. */
#include <stdio.h>

#include <sgtrace.h>
#line 4 "knr.c"
int add(a, b)
	int a;
	int b;
{ static struct sg_func_desc sg_fd__ = { "add", "knr.c", 4, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int s = 0;
	while (b-- > 0)
		s++;
	return a + s;
}

static long scale(x, f) long x; double f; { static struct sg_func_desc sg_fd__ = { "scale", "knr.c", 14, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); for (;;) return (long)(x * f); }

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "knr.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d %ld\n", add(2, 3), scale(10L, 1.5));
	return 0;
}
