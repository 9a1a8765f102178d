/* hog.c — an untraced CPU hog for test-budget.sh: spins for the seconds given. */
#include <stdlib.h>

#include "spin.h"

int main(int argc, char **argv)
{
	spin(argc > 1 ? atof(argv[1]) : 1.0);
	return 0;
}
