/* Region pragmas: named begin/end, end alone, nested, and one at a bad position. */
#include <stdio.h>

static double work(int n)
{
	double s = 0;
#pragma scalegraph region begin "outer"
	for (int i = 0; i < n; i++) {
#pragma scalegraph region begin "inner"
		s += i * 0.5;
#pragma scalegraph region end
	}
#pragma scalegraph region end "outer"
	return s;
}

int main(void)
{
	double r = 0;
	if (r == 0)
#pragma scalegraph region begin "misplaced"
		r = work(4);
	printf("%g\n", r);
	return 0;
}
