/*
 * help_env.h — `scalegraph --help env`: every environment variable the tools and libsgtrace
 * read, in one table. cli/tests/test-help-env.sh keeps it complete against docs/tracelib.md
 * and the sources' getenv calls.
 */
#ifndef HELP_ENV_H
#define HELP_ENV_H

#include <stdio.h>

/* Prints the table, wrapped to 79 columns. */
void help_env_print(FILE *f);

#endif /* HELP_ENV_H */
