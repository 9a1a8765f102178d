/* Unknown typedef names and macros in declarations. */
#include <stdio.h>
#include "unknown_types.h"

EXPORT vec3 vec3_scale(CONST vec3 *a, double f)
{
	vec3 r;
	for (int i = 0; i < 3; i++)
		r.v[i] = a->v[i] * f;
	return r;
}

static vec3_ptr first(vec3_ptr p, int n)
{
	while (n-- > 1)
		p++;
	return p;
}

int main(void)
{
	vec3 a = { { 1, 2, 3 } };
	vec3 b = vec3_scale(&a, 2.0);
	printf("%g %g\n", b.v[2], first(&b, 1)->v[0]);
	return 0;
}
