/* CRLF line endings. */
#include <stdio.h>

static int tri(int n)
{
	int s = 0;
	for (int i = 1; i <= n; i++)
		s += i;
	return s;
}

int main(void)
{
	printf("%d\n", tri(4));
	return 0;
}
