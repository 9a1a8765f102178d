/* --filter: Score-P syntax; the last matching rule wins. */
#include <stdio.h>

static int solve_a(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
static int solve_b(int n) { int s = 0; for (int i = 0; i < n; i++) s -= i; return s; }
static int helper(int n) { return n + 1; }

int main(void)
{
	printf("%d %d %d\n", solve_a(3), solve_b(3), helper(1));
	return 0;
}
