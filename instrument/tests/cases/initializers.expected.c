/* Designated and compound initializers: braces that are not blocks. */
#include <stdio.h>

struct point { int x, y; };
static struct point origin = { .x = 0, .y = 0 };
static int table[4] = { [0] = 1, [3] = 4 };
static struct { struct point p[2]; int n; } shape = { { { 1, 2 }, { 3, 4 } }, 2 };

static int sum(struct point p) { return p.x + p.y; }

#include <sgtrace.h>
#line 11 "initializers.c"
int main(void)
{
	int total = 0;
	for (int i = 0; i < 2; i++)
		total += sum((struct point){ .x = i, .y = table[3] });
	struct point q = (struct point){ 5, 6 };
	printf("%d %d %d %d\n", total, sum(q), origin.x, shape.n);
	return 0;
} SG_FUNC_OUTSIDE(main, "initializers.c", 11, 1);
