/* Macros that expand to braces or hide a function header: left alone, still compiled. */
#include <stdio.h>

#define BEGIN {
#define END }
#define DEFINE_GETTER(name, val) static int get_##name(void) { return val; }
#define FUNC(name) static int name(void)

#include <sgtrace.h>
#line 9 "macro_braces.c"
DEFINE_GETTER(answer, 42)

FUNC(seven)
{ static struct sg_func_desc sg_fd__ = { "FUNC", "macro_braces.c", 11, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
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
{ static struct sg_func_desc sg_fd__ = { "main", "macro_braces.c", 27, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d %d %d\n", get_answer(), seven(), looped(3));
	return 0;
}
