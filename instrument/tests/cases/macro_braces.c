/* Macros that expand to braces or hide a function header: left alone, still compiled. */
#include <stdio.h>

#define BEGIN {
#define END }
#define DEFINE_GETTER(name, val) static int get_##name(void) { return val; }
#define FUNC(name) static int name(void)

DEFINE_GETTER(answer, 42)

FUNC(seven)
{
	int s = 0;
	for (int i = 0; i < 7; i++)
		s++;
	return s;
}

static int looped(int n)
BEGIN
	int s = 0;
	while (n--)
		s += 2;
	return s;
END

int main(void)
{
	printf("%d %d %d\n", get_answer(), seven(), looped(3));
	return 0;
}
