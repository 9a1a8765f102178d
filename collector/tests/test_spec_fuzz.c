/*
 * test_spec_fuzz.c — mutation fuzzing of the spec parser: 20000 mutants of a valid spec
 * (byte flips, deletions, insertions of grammar-relevant characters, duplicated and truncated
 * lines) must each parse or fail with one "t.sgx:LINE:COL: error: ..." message whose line and
 * column lie inside the input, and never crash (run under the test's own sanity checks; the
 * runner catches signals). Deterministic: a fixed xorshift seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spec.h"

static const char seed_spec[] =
	"program ./billiards --balls {balls} --steps {steps} --threads {N}\n"
	"sequential ./billiards-seq --balls {balls} --steps {steps}\n"
	"threads 1 2 4 8\nrepeat 3\ntimeout 120s\n"
	"param balls 5000 bytes 960 # C\nparam steps 100\nwork balls*steps\n"
	"method fixed balls=5000 steps=100\nmethod balls balls=5000*N\n"
	"method both balls=5000*N^(1/2)*(N+1)/N steps=100*N\n"
	"memory-bound 4800000 per-thread along balls\ntime-bound 2s along both\n"
	"e-conserved 0.5 along both\n";

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static void mutate(char *buf, size_t *len, size_t cap)
{
	static const char alphabet[] = "{}()=*^+-/#'\" \t\n0123456789.,Nxe-_abz\x01\xff";
	int k = 1 + (int)(next() % 4);
	for (int i = 0; i < k && *len > 0; i++) {
		size_t at = next() % *len;
		switch (next() % 5) {
		case 0: /* replace */
			buf[at] = alphabet[next() % (sizeof alphabet - 1)];
			break;
		case 1: /* delete */
			memmove(buf + at, buf + at + 1, *len - at - 1);
			(*len)--;
			break;
		case 2: /* insert */
			if (*len + 1 < cap) {
				memmove(buf + at + 1, buf + at, *len - at);
				buf[at] = alphabet[next() % (sizeof alphabet - 1)];
				(*len)++;
			}
			break;
		case 3: /* truncate */
			*len = at;
			break;
		default: { /* duplicate a chunk */
			size_t n = next() % 40;
			if (at + n <= *len && *len + n < cap) {
				memmove(buf + at + n, buf + at, *len - at);
				(*len) += n;
			}
		}
		}
	}
	buf[*len] = '\0';
}

static int lines_of(const char *s)
{
	int n = 1;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void fuzz_mutants(void **state)
{
	char buf[4096], err[512];
	int parsed = 0, rejected = 0;
	(void)state;
	for (int i = 0; i < 20000; i++) {
		size_t len = strlen(seed_spec);
		memcpy(buf, seed_spec, len + 1);
		mutate(buf, &len, sizeof buf - 64);
		size_t real_len = strlen(buf); /* a mutated NUL ends the text early */
		struct spec s;
		spec_init(&s);
		err[0] = '\0';
		int rc = spec_parse(&s, "t.sgx", buf, err, sizeof err);
		if (rc == 0)
			rc = spec_finish(&s, err, sizeof err);
		if (rc == 0) {
			double sz[SPEC_MAX_PARAMS];
			for (int m = 0; m < s.n_methods; m++)
				(void)spec_sizes(&s, m, 3, sz, err, sizeof err);
			parsed++;
		} else {
			int line = 0, col = 0;
			if (sscanf(err, "t.sgx:%d:%d: error: ", &line, &col) != 2 ||
			    !strstr(err, ": error: ") || line < 1 || line > lines_of(buf) || col < 1 ||
			    (size_t)col > real_len + 2)
				fail_msg("mutant %d: bad message '%s' for:\n%s", i, err, buf);
			rejected++;
		}
		spec_free(&s);
	}
	print_message("%d mutants parsed, %d rejected with a located message\n", parsed, rejected);
	assert_true(rejected > 1000);
	assert_true(parsed > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fuzz_mutants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
