/* K&R definitions, old-style parameter declarations. */
#include <stdio.h>

int add(a, b)
	int a;
	int b;
{
	int s = 0;
	while (b-- > 0)
		s++;
	return a + s;
}

static long scale(x, f) long x; double f; { for (;;) return (long)(x * f); }

int main(void)
{
	printf("%d %ld\n", add(2, 3), scale(10L, 1.5));
	return 0;
}
