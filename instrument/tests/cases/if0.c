/* #if 0 blocks may hold anything: unbalanced braces, prose. */
#include <stdio.h>

#if 0
This is not C at all { { {
int broken( {
#endif

static int loop(int n)
{
	int s = 0;
#if 0
	if (n) { { still open
#else
	for (int i = 0; i < n; i++)
		s += i;
#endif
	return s;
}

int main(void)
{
	printf("%d\n", loop(5));
	return 0;
}
