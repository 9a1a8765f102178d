/*
 * ex_cli.c — strict option parsing and the FNV-1a checksum hash of the example programs.
 * See ex_cli.h. Errors are printed here (the programs are the only callers) but never exit:
 * main() decides the exit status.
 */
#include "ex_cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses a decimal integer in [min, max]; the whole text must be the number. */
static int parse_ll(const char *text, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (text[0] == '\0' || text[0] == ' ' || text[0] == '+')
		return -EINVAL;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end != '\0')
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

static void usage_error(const char *prog)
{
	fprintf(stderr, "%s: try '%s --help' for the options\n", prog, prog);
}

/* Handles argv[*i] as option `o`; the value is `inline_val` ("--x=V") or the next argument. */
static int parse_one(int argc, char **argv, int *i, const char *prog, struct ex_opt *o,
		     const char *inline_val)
{
	const char *val = inline_val;
	int ret;

	if (o->seen) {
		fprintf(stderr, "%s: error: argument %d: --%s given twice\n", prog, *i, o->name);
		return -EINVAL;
	}
	if (!val) {
		if (*i + 1 >= argc) {
			fprintf(stderr, "%s: error: argument %d: --%s needs a value\n", prog, *i,
				o->name);
			return -EINVAL;
		}
		val = argv[++*i];
	}
	ret = parse_ll(val, o->min, o->max, o->value);
	if (ret == -ERANGE) {
		fprintf(stderr, "%s: error: argument %d: --%s '%s' is out of range [%lld, %lld]\n",
			prog, *i, o->name, val, o->min, o->max);
		return -EINVAL;
	}
	if (ret) {
		fprintf(stderr, "%s: error: argument %d: --%s '%s' is not a decimal integer\n",
			prog, *i, o->name, val);
		return -EINVAL;
	}
	o->seen = 1;
	return 0;
}

int ex_cli_parse(int argc, char **argv, const char *prog, const char *usage,
		 struct ex_opt *opts, size_t n_opts, struct ex_flag *flags, size_t n_flags)
{
	int ret = 0;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *eq;
		size_t name_len;
		int matched = 0;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			fputs(usage, stdout);
			return 1;
		}
		if (strncmp(arg, "--", 2) != 0) {
			fprintf(stderr, "%s: error: argument %d: unexpected '%s'\n", prog, i, arg);
			ret = -EINVAL;
			goto out;
		}
		eq = strchr(arg + 2, '=');
		name_len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
		for (size_t k = 0; k < n_opts && !matched; k++) {
			if (strlen(opts[k].name) != name_len ||
			    strncmp(opts[k].name, arg + 2, name_len) != 0)
				continue;
			matched = 1;
			ret = parse_one(argc, argv, &i, prog, &opts[k], eq ? eq + 1 : NULL);
			if (ret)
				goto out;
		}
		for (size_t k = 0; k < n_flags && !matched; k++) {
			if (strlen(flags[k].name) != name_len ||
			    strncmp(flags[k].name, arg + 2, name_len) != 0)
				continue;
			matched = 1;
			if (eq) {
				fprintf(stderr, "%s: error: argument %d: --%s takes no value\n",
					prog, i, flags[k].name);
				ret = -EINVAL;
				goto out;
			}
			*flags[k].value = 1;
		}
		if (!matched) {
			fprintf(stderr, "%s: error: argument %d: unknown option '%s'\n", prog, i, arg);
			ret = -EINVAL;
			goto out;
		}
	}
out:
	if (ret)
		usage_error(prog);
	return ret;
}

uint64_t ex_hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

uint64_t ex_hash_double(uint64_t h, double x)
{
	uint64_t bits;

	memcpy(&bits, &x, sizeof bits);
	return ex_hash_bytes(h, &bits, sizeof bits);
}
