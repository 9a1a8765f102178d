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

sum_to(n, k) int n; int k; { int i, s = 0; for (i = 0; i < n; i++) s += twice(i) * k; return s; }

report()
{
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
}
