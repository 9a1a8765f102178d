/* GNU C: attributes, __asm__, statement expressions, typeof, labels as values. */
#include <stdio.h>

#define MAX(a, b) ({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })

#include <sgtrace.h>
#line 6 "gnu_ext.c"
__attribute__((noinline)) static int twice(int x)
{ static struct sg_func_desc sg_fd__ = { "twice", "gnu_ext.c", 6, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	int r;
	__asm__ volatile("" : "=r"(r) : "0"(x));
	for (int i = 0; i < 1; i++)
		r *= 2;
	return r;
}

static int dispatch(int n) __attribute__((unused));
static int dispatch(int n)
{ static struct sg_func_desc sg_fd__ = { "dispatch", "gnu_ext.c", 16, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	static void *table[] = { &&zero, &&one };
	int acc = 0;
	while (n >= 0) {
		goto *table[n & 1];
	zero:
		acc += 10;
		n--;
		continue;
	one:
		acc += 1;
		n--;
	}
	return acc;
}

int main(void)
{ static struct sg_func_desc sg_fd__ = { "main", "gnu_ext.c", 33, 0 }; struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) = sg_func_scope_enter(&sg_fd__);
	__typeof__(twice(1)) v = ({ int t = twice(21); t; });
	printf("%d %d %d\n", v, MAX(3, 7), dispatch(3));
	return 0;
}
