/* String and character literals containing braces, comment openers and quotes. */
#include <stdio.h>

static const char *s1 = "{ int f(void) { return 0; }";
static const char *s2 = "/* not a comment */ \" } still a string";
static char c1 = '{', c2 = '}', c3 = '"', c4 = '\'';

#include <sgtrace.h>
#line 8 "literals.c"
static int count(const char *s, char c)
{ static struct sg_func_desc sg_fd__ = { "count", "literals.c", 8, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int n = 0;
	for (; *s; s++)
		n += *s == c; /* a comment with { and " inside */
	return n;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "literals.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	// a line comment with } and /* and "
	printf("%d %d %c%c%c%c %s\n", count(s1, '{'), count(s2, '}'), c1, c2, c3, c4, "}{");
	return 0;
}
