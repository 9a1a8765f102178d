/*
 * calibrate_main.c — `scalegraph calibrate [--json] [--force]`: prints this machine's
 * description (calib.h), from the per-user cache unless --force or the machine changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: scalegraph calibrate [--json] [--force]\n\n"
		   "Measures this machine: CPU, TSC rate, timer costs, mutex and barrier costs,\n"
		   "memory miss latency (pointer chase), and which counters open. The result is\n"
		   "cached in $XDG_CACHE_HOME/scalegraph/machine.json (~/.cache by default).\n\n"
		   "  --json    print the JSON description instead of the table\n"
		   "  --force   measure again even when the cache matches this machine\n");
}

int main(int argc, char **argv)
{
	int json_out = 0, force = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json_out = 1;
		else if (!strcmp(argv[i], "--force"))
			force = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "scalegraph calibrate: error: unknown argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	struct calib c;
	char *json = NULL;
	memset(&c, 0, sizeof c);
	calib_identify(&c);
	if (!force && calib_cache_load(c.key, &json) == 0 && json_out) {
		fputs(json, stdout);
		free(json);
		return 0;
	}
	free(json);
	json = NULL;
	/* The table needs the measured struct: re-measure unless only JSON is wanted from cache. */
	int rc = calib_measure(&c);
	if (rc < 0) {
		fprintf(stderr, "scalegraph calibrate: error: %s\n", strerror(-rc));
		return 1;
	}
	rc = calib_to_json(&c, &json);
	if (rc < 0) {
		fprintf(stderr, "scalegraph calibrate: error: %s\n", strerror(-rc));
		return 1;
	}
	rc = calib_cache_save(json);
	if (rc < 0)
		fprintf(stderr, "scalegraph calibrate: warning: cannot write the cache: %s\n",
			strerror(-rc));
	if (json_out)
		fputs(json, stdout);
	else
		calib_print_table(&c, stdout);
	free(json);
	return 0;
}
