/* Region pragmas: named begin/end, end alone, nested, and one at a bad position. */
#include <stdio.h>

#include <sgtrace.h>
#line 4 "regions.c"
static double work(int n)
{ static struct sg_func_desc sg_fd__ = { "work", "regions.c", 4, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	double s = 0;
sg_region_begin("outer");
	for (int i = 0; i < n; i++) {
sg_region_begin("inner");
		s += i * 0.5;
sg_region_end("inner");
	}
sg_region_end("outer");
	return s;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "regions.c", 17, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	double r = 0;
	if (r == 0)
#pragma scalegraph region begin "misplaced"
		r = work(4);
	printf("%g\n", r);
	return 0;
}
