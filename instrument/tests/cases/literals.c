/* String and character literals containing braces, comment openers and quotes. */
#include <stdio.h>

static const char *s1 = "{ int f(void) { return 0; }";
static const char *s2 = "/* not a comment */ \" } still a string";
static char c1 = '{', c2 = '}', c3 = '"', c4 = '\'';

static int count(const char *s, char c)
{
	int n = 0;
	for (; *s; s++)
		n += *s == c; /* a comment with { and " inside */
	return n;
}

int main(void)
{
	// a line comment with } and /* and "
	printf("%d %d %c%c%c%c %s\n", count(s1, '{'), count(s2, '}'), c1, c2, c3, c4, "}{");
	return 0;
}
