/* Functions returning function pointers: the name is inside nested parentheses. */
#include <stdio.h>

static int inc(int x) { return x + 1; }
static int dec(int x) { return x - 1; }

#include <sgtrace.h>
#line 7 "funcptr_decl.c"
static int (*pick(int which))(int)
{ static struct sg_func_desc sg_fd__ = { "int", "funcptr_decl.c", 7, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	for (int i = 0; i < 1; i++)
		if (which)
			return inc;
	return dec;
}

typedef int (*op_fn)(int);
static op_fn (*chooser(void))(int)
{ static struct sg_func_desc sg_fd__ = { "op_fn", "funcptr_decl.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	while (1)
		return pick;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "funcptr_decl.c", 22, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d %d %d\n", pick(1)(1), pick(0)(1), chooser()(1)(5));
	return 0;
}
