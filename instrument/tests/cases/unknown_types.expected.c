/* Unknown typedef names and macros in declarations. */
#include <stdio.h>
#include "unknown_types.h"

#include <sgtrace.h>
#line 5 "unknown_types.c"
EXPORT vec3 vec3_scale(CONST vec3 *a, double f)
{ static struct sg_func_desc sg_fd__ = { "vec3_scale", "unknown_types.c", 5, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	vec3 r;
	for (int i = 0; i < 3; i++)
		r.v[i] = a->v[i] * f;
	return r;
}

static vec3_ptr first(vec3_ptr p, int n)
{ static struct sg_func_desc sg_fd__ = { "first", "unknown_types.c", 13, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	while (n-- > 1)
		p++;
	return p;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "unknown_types.c", 20, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	vec3 a = { { 1, 2, 3 } };
	vec3 b = vec3_scale(&a, 2.0);
	printf("%g %g\n", b.v[2], first(&b, 1)->v[0]);
	return 0;
}
