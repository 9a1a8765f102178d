/* Functions returning function pointers: the name is inside nested parentheses. */
#include <stdio.h>

#include <sgtrace.h>
#line 4 "funcptr_decl.c"
static int inc(int x) { static struct sg_func_desc sg_fd__ = { "inc", "funcptr_decl.c", 4, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); return x + 1; }
static int dec(int x) { static struct sg_func_desc sg_fd__ = { "dec", "funcptr_decl.c", 5, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__); return x - 1; }

static int (*pick(int which))(int)
{ static struct sg_func_desc sg_fd__ = { "pick", "funcptr_decl.c", 7, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	for (int i = 0; i < 1; i++)
		if (which)
			return inc;
	return dec;
}

typedef int (*op_fn)(int);
static op_fn (*chooser(void))(int)
{ static struct sg_func_desc sg_fd__ = { "chooser", "funcptr_decl.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	while (1)
		return pick;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "funcptr_decl.c", 22, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	printf("%d %d %d\n", pick(1)(1), pick(0)(1), chooser()(1)(5));
	return 0;
}
