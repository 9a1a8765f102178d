/*
 * splash_lu.c — a SPLASH-like synthetic for bench/many-core.sh: blocked dense LU factorization
 * without pivoting (the shape of SPLASH-3 LU, contiguous blocks) on pthreads and barriers.
 *
 * Per step k of the n/B block steps: thread 0 factors the diagonal block (a serial phase whose
 * share grows with N), barrier; the threads solve the k-th block row and column (blocks dealt
 * round-robin), barrier; they update the trailing blocks (a 2-D cyclic deal), barrier. The work
 * per step shrinks as k grows while the three barrier episodes do not, so E falls with N for a
 * fixed n, and rises with n: the textbook story of LU. Every block is computed by the same
 * operations in the same order whatever its owner, so `checksum HEX` is the same for every N.
 *
 *   splash-lu [--n N] [--block B] [--threads P]     (defaults 512, 32, 2)
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SG_TRACE
#include "sgtrace.h"
#else
#define SG_REGION_BEGIN(name) ((void)0)
#define SG_REGION_END(name) ((void)0)
#endif

static long n = 512, bs = 32, nthreads = 2, nb;
static double *a;	/* n x n, row major */
static pthread_barrier_t barrier;

#define A(i, j) a[(size_t)(i) * (size_t)n + (size_t)(j)]

/* LU of the diagonal block (kk, kk) in place. */
static void lu_diag(long kk)
{
	long o = kk * bs;

	for (long k = o; k < o + bs; k++) {
		for (long i = k + 1; i < o + bs; i++) {
			A(i, k) /= A(k, k);
			for (long j = k + 1; j < o + bs; j++)
				A(i, j) -= A(i, k) * A(k, j);
		}
	}
}

/* Block (kk, jj) of the k-th block row: solve L(kk,kk) X = A. */
static void solve_row(long kk, long jj)
{
	long o = kk * bs, c = jj * bs;

	for (long k = o; k < o + bs; k++) {
		for (long i = k + 1; i < o + bs; i++) {
			for (long j = c; j < c + bs; j++)
				A(i, j) -= A(i, k) * A(k, j);
		}
	}
}

/* Block (ii, kk) of the k-th block column: solve X U(kk,kk) = A. */
static void solve_col(long ii, long kk)
{
	long o = kk * bs, r = ii * bs;

	for (long k = o; k < o + bs; k++) {
		for (long i = r; i < r + bs; i++) {
			A(i, k) /= A(k, k);
			for (long j = k + 1; j < o + bs; j++)
				A(i, j) -= A(i, k) * A(k, j);
		}
	}
}

/* Trailing block (ii, jj) -= (ii, kk) * (kk, jj): SPLASH's bmod, most of the time. */
static void bmod(long ii, long jj, long kk)
{
	long r = ii * bs, c = jj * bs, o = kk * bs;

	for (long i = r; i < r + bs; i++) {
		for (long k = o; k < o + bs; k++) {
			double f = A(i, k);

			for (long j = c; j < c + bs; j++)
				A(i, j) -= f * A(k, j);
		}
	}
}

static void *worker(void *arg)
{
	long id = (long)(intptr_t)arg;

	for (long kk = 0; kk < nb; kk++) {
		long deal = 0;

		if (id == 0)
			lu_diag(kk);
		pthread_barrier_wait(&barrier);
		for (long t = kk + 1; t < nb; t++, deal += 2) {
			if (deal % nthreads == id)
				solve_row(kk, t);
			if ((deal + 1) % nthreads == id)
				solve_col(t, kk);
		}
		pthread_barrier_wait(&barrier);
		for (long ii = kk + 1; ii < nb; ii++) {
			for (long jj = kk + 1; jj < nb; jj++) {
				if ((ii * nb + jj) % nthreads == id)
					bmod(ii, jj, kk);
			}
		}
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

static long arg_long(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
		fprintf(stderr, "splash-lu: error: '%s' is not a number in %ld..%ld\n", s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	pthread_t *tid;
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--n"))
			n = arg_long(argv[i + 1], 1, 65536);
		else if (!strcmp(argv[i], "--block"))
			bs = arg_long(argv[i + 1], 1, 4096);
		else if (!strcmp(argv[i], "--threads"))
			nthreads = arg_long(argv[i + 1], 1, 4096);
		else {
			fprintf(stderr, "splash-lu: error: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (argc % 2 == 0 || n % bs) {
		fprintf(stderr, "usage: splash-lu [--n N] [--block B] [--threads P] (B divides N)\n");
		return 2;
	}
	nb = n / bs;
	a = malloc((size_t)n * (size_t)n * sizeof *a);
	tid = calloc((size_t)nthreads, sizeof *tid);
	if (!a || !tid) {
		fprintf(stderr, "splash-lu: error: out of memory\n");
		return 1;
	}
	for (long i = 0; i < n; i++) {	/* diagonally dominant: no pivoting needed */
		for (long j = 0; j < n; j++)
			A(i, j) = i == j ? (double)n : (double)((i * 7 + j * 13) % 17) / 17.0;
	}
	pthread_barrier_init(&barrier, NULL, (unsigned)nthreads);
	SG_REGION_BEGIN("lu");
	for (long t = 0; t < nthreads; t++) {
		if (pthread_create(&tid[t], NULL, worker, (void *)(intptr_t)t)) {
			fprintf(stderr, "splash-lu: error: cannot start thread %ld\n", t);
			exit(1);
		}
	}
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	SG_REGION_END("lu");
	for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
		uint64_t bits;

		memcpy(&bits, &a[i], sizeof bits);
		h = (h ^ bits) * UINT64_C(0x100000001b3);
	}
	printf("checksum %016" PRIx64 "\n", h);
	pthread_barrier_destroy(&barrier);
	free(tid);
	free(a);
	return 0;
}
