/* A function whose braces come from macros, in the default mode: the statements the parser
 * then sees at file scope give it away, so the #include for main goes before that function,
 * surely at file scope, not before `END int main` (which is inside it). */
#include <stdio.h>

#define BEGIN {
#define END }

#include <sgtrace.h>
#line 9 "hidden_braces.c"
static int twice(int n)
BEGIN
	while (n > 100)
		n -= 100;
	return 2 * n;
END

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += twice(i);
	printf("%d\n", s);
	return 0;
} SG_FUNC_OUTSIDE(main, "hidden_braces.c", 16, 1);
