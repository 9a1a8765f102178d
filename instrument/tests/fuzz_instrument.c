/*
 * fuzz_instrument.c — libFuzzer harness of the instrumenter (clang -fsanitize=fuzzer,address,
 * undefined; built by instrument/module.mk, run by `make fuzz` and, briefly, by test-fuzz.sh).
 * Each input is instrumented in the mode its first byte picks, and the structural promises of
 * docs/instrumenter.md are checked on the result, aborting (a libFuzzer crash) when one breaks:
 *   - inst_file never fails on any C text, and is deterministic;
 *   - every byte of the input is kept, in order (only region pragma lines are replaced);
 *   - with nothing selected and nothing to rename, the output is the input byte for byte;
 *   - every inserted `#include <sgtrace.h>` / `#line` pair starts at the beginning of a line;
 *   - the counters are consistent (probed <= functions).
 * The same bytes are also fed to the filter-file parser. Whether outputs still compile where
 * the inputs did is checked on the corpus afterwards by test-fuzz.sh (a compiler per input
 * would be far too slow here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "fuzz_instrument.c:%d: invariant broken: %s\n", __LINE__, #cond); \
	abort(); } } while (0)

/* the inserted include: a #line follows, or first the call sites' descriptors */
static const char inc_line[] = "#include <sgtrace.h>\n";

/* Is a[0..na) a subsequence of b[0..nb)? */
static int subsequence(const char *a, size_t na, const char *b, size_t nb)
{
	size_t i = 0;
	for (size_t j = 0; j < nb && i < na; j++)
		if (b[j] == a[i])
			i++;
	return i == na;
}

static size_t count(const char *s, size_t n, const char *w)
{
	size_t c = 0, l = strlen(w);
	for (const char *p = s; (p = memmem(p, n - (size_t)(p - s), w, l)); p += l)
		c++;
	return c;
}

/* Every inserted include pair sits at a line start (not after a backslash-newline). */
static int includes_at_bol(const char *s, size_t n)
{
	size_t l = strlen(inc_line);
	for (const char *p = s; (p = memmem(p, n - (size_t)(p - s), inc_line, l)); p += l) {
		size_t k = (size_t)(p - s);
		if (k > 0 && s[k - 1] != '\n')
			return 0;
		if (k > 1 && s[k - 2] == '\\')
			return 0;
	}
	return 1;
}

static void filter_parse(const uint8_t *data, size_t size)
{
	FILE *devnull = fopen("/dev/null", "w");
	struct inst_filter *f = NULL;
	if (inst_filter_parse((const char *)data, size, "fuzz.filter", devnull, &f) == 0) {
		CHECK(f != NULL);
		(void)inst_filter_select(f, "main", 4, "fuzz.c", 1);
		inst_filter_free(f);
	}
	if (devnull)
		fclose(devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	enum inst_func_mode mode = (enum inst_func_mode)(data[0] % 3);
	const char *src = (const char *)data + 1;
	size_t len = size - 1;
	struct inst_options o = { .func_mode = mode, .quiet = 1 };
	struct inst_result r, r2;

	CHECK(inst_file(src, len, "fuzz.c", &o, &r) == 0);
	CHECK(r.text != NULL && r.text[r.len] == '\0');
	CHECK(r.n_probed <= r.n_functions);
	if (r.n_regions == 0)
		CHECK(subsequence(src, len, r.text, r.len));
	if (r.n_probed == 0 && r.n_renamed == 0 && r.n_regions == 0)
		CHECK(r.len == len && memcmp(r.text, src, len) == 0);
	if (mode == INST_FUNC_NONE && !memmem(src, len, "pthread_", 8) &&
	    !memmem(src, len, "sem_", 4) && !memmem(src, len, "scalegraph", 10) &&
	    !memmem(src, len, "_exit", 5) && !memmem(src, len, "_Exit", 5) &&
	    !memmem(src, len, "exec", 4))
		CHECK(r.len == len && memcmp(r.text, src, len) == 0);
	if (count(src, len, inc_line) == 0)
		CHECK(includes_at_bol(r.text, r.len));

	CHECK(inst_file(src, len, "fuzz.c", &o, &r2) == 0);
	CHECK(r2.len == r.len && memcmp(r2.text, r.text, r.len) == 0);
	inst_result_free(&r2);
	inst_result_free(&r);

	filter_parse(data, size);
	return 0;
}
