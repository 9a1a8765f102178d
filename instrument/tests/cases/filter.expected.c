/* --filter: Score-P syntax; the last matching rule wins. */
#include <stdio.h>

#include <sgtrace.h>
#line 4 "filter.c"
static int solve_a(int n) { static struct sg_func_desc sg_fd__ = { "solve_a", "filter.c", 4, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
static int solve_b(int n) { int s = 0; for (int i = 0; i < n; i++) s -= i; return s; }
static int helper(int n) { static struct sg_func_desc sg_fd__ = { "helper", "filter.c", 6, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); return n + 1; }

int main(void)
{
	printf("%d %d %d\n", solve_a(3), solve_b(3), helper(1));
	return 0;
}
