/* C11 _Generic selections, which contain ':' and type names in parentheses. */
#include <stdio.h>

#define KIND(x) _Generic((x), int: "int", double: "double", default: "other")

#include <sgtrace.h>
#line 6 "generic.c"
static const char *kind_of_sum(int n)
{ static struct sg_func_desc sg_fd__ = { "kind_of_sum", "generic.c", 6, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	double d = 0;
	for (int i = 0; i < n; i++)
		d += i;
	return _Generic(d, double: "double", default: "?");
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "generic.c", 14, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%s %s %s\n", KIND(1), KIND(2.0), kind_of_sum(3));
	return 0;
}
