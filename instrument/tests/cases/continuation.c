/* Line continuations inside code, strings, comments and directives. */
#include <stdio.h>

#define ADD(a, b) \
	((a) + \
	 (b))

static int sum\
mer(int n)
{
	int s = 0; // comment continued \
	   on the next line
	for (int i = 0; \
	     i < n; i++)
		s = ADD(s, i);
	return s;
}

int main(void)
{
	printf("%d %s\n", summer(4), "a long \
string");
	return 0;
}
