/* With --no-functions and no sync calls or pragmas the output is the input, byte for byte. */
#include <stdio.h>

static int f(int n) { int s = 0; while (n--) s += n; return s; }

int main(void)
{
	printf("%d\n", f(4));
	return 0;
}
