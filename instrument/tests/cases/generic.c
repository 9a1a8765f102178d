/* C11 _Generic selections, which contain ':' and type names in parentheses. */
#include <stdio.h>

#define KIND(x) _Generic((x), int: "int", double: "double", default: "other")

static const char *kind_of_sum(int n)
{
	double d = 0;
	for (int i = 0; i < n; i++)
		d += i;
	return _Generic(d, double: "double", default: "?");
}

int main(void)
{
	printf("%s %s %s\n", KIND(1), KIND(2.0), kind_of_sum(3));
	return 0;
}
