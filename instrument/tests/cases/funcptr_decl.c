/* Functions returning function pointers: the name is inside nested parentheses. */
#include <stdio.h>

static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }

static int (*pick(int which))(int)
{
	for (int i = 0; i < 1; i++)
		if (which)
			return inc;
	return dec;
}

typedef int (*op_fn)(int);
static op_fn (*chooser(void))(int)
{
	while (1)
		return pick;
}

int main(void)
{
	printf("%d %d %d\n", pick(1)(1), pick(0)(1), chooser()(1)(5));
	return 0;
}
