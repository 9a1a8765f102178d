/* Implicit int (C89): NPB 3.0's K&R main with no return type, other K&R definitions without
 * one, and `name() {` definitions; all are definitions (issue 20, item 4). An all-caps name
 * is still taken for a macro. */
#include <stdio.h>

static int calls;

twice(a)
	int a;
{
	int s = 0, i;
	for (i = 0; i < a; i++)
		s += 2;
	calls++;
	return s;
}

#include <sgtrace.h>
#line 18 "defect20-knr-implicit-int.c"
sum_to(n, k) int n; int k; { static struct sg_func_desc sg_fd__ = { "sum_to", "defect20-knr-implicit-int.c", 18, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); int i, s = 0; for (i = 0; i < n; i++) s += twice(i) * k; return s; }

report()
{ static struct sg_func_desc sg_fd__ = { "report", "defect20-knr-implicit-int.c", 20, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int i;
	for (i = 0; i < 2; i++)
		printf("calls %d\n", calls);
	return 0;
}

main(argc, argv)
	int argc;
	char **argv;
{
	int s = sum_to(3 + argc, 2);
	printf("%d %s\n", s, argv[0] ? "ok" : "");
	return report();
} SG_FUNC_OUTSIDE(main, "defect20-knr-implicit-int.c", 28, 1);
