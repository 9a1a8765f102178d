/*
 * layout_lu.c — an LU-like kernel for bench/layout-lu.sh (issue 21 part 1): SPLASH-3 LU's shape
 * (contiguous blocks, a daxpy inner loop that holds most of the time, a barrier after each phase
 * of each step, blocks owned round-robin by the threads), small enough to build in a second.
 * The question it answers is whether `scalegraph cc` moves the hot loop: its timing, plain and
 * instrumented with SG_TRACE=0, must be the same.
 *
 *   layout_lu [-n N] [-b B] [-p THREADS]     (defaults 512, 16, 1); prints a checksum
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long n = 512, bs = 16, nproc = 1;
static long nblocks;
static double **blk;                 /* blk[I * nblocks + J]: a bs x bs block, column-major */
static pthread_barrier_t bar;
static pthread_mutex_t sum_lock = PTHREAD_MUTEX_INITIALIZER;
static double checksum;

static long owner(long I, long J)
{
	return (I + J * nblocks) % nproc;
}

/* c -= a * b over a block: the daxpy loop of SPLASH-3 LU's bmod */
static void bmod(const double *a, const double *b, double *c, long m)
{
	for (long k = 0; k < m; k++)
		for (long j = 0; j < m; j++) {
			double alpha = -b[k + j * m];
			const double *ak = &a[k * m];
			double *cj = &c[j * m];
			for (long i = 0; i < m; i++)
				cj[i] += alpha * ak[i];
		}
}

/* the diagonal block's own factorization */
static void lu0(double *a, long m)
{
	for (long k = 0; k < m; k++)
		for (long j = k + 1; j < m; j++) {
			a[k + j * m] /= a[k + k * m];
			double alpha = -a[k + j * m];
			for (long i = k + 1; i < m; i++)
				a[i + j * m] += alpha * a[i + k * m];
		}
}

/* a block of the row right of the diagonal: solve with the diagonal's L */
static void bdiv(const double *diag, double *a, long m)
{
	for (long j = 0; j < m; j++)
		for (long k = 0; k < m; k++) {
			double alpha = -a[k + j * m];
			for (long i = k + 1; i < m; i++)
				a[i + j * m] += alpha * diag[i + k * m];
		}
}

/* a block of the column below the diagonal: scale by the diagonal's U */
static void bmodd(const double *diag, double *c, long m)
{
	for (long k = 0; k < m; k++)
		for (long j = 0; j < m; j++) {
			c[j + k * m] /= diag[k + k * m];
			double alpha = -c[j + k * m];
			for (long i = k + 1; i < m; i++)
				c[j + i * m] += alpha * diag[k + i * m];
		}
}

static void *slave(void *arg)
{
	long me = (long)arg;
	for (long K = 0; K < nblocks; K++) {
		double *d = blk[K * nblocks + K];
		if (owner(K, K) == me)
			lu0(d, bs);
		pthread_barrier_wait(&bar);
		for (long J = K + 1; J < nblocks; J++)
			if (owner(K, J) == me)
				bdiv(d, blk[K * nblocks + J], bs);
		for (long I = K + 1; I < nblocks; I++)
			if (owner(I, K) == me)
				bmodd(d, blk[I * nblocks + K], bs);
		pthread_barrier_wait(&bar);
		for (long I = K + 1; I < nblocks; I++)
			for (long J = K + 1; J < nblocks; J++)
				if (owner(I, J) == me)
					bmod(blk[I * nblocks + K], blk[K * nblocks + J],
					     blk[I * nblocks + J], bs);
		pthread_barrier_wait(&bar);
	}
	double s = 0;
	for (long I = 0; I < nblocks; I++)
		for (long J = 0; J < nblocks; J++)
			if (owner(I, J) == me)
				for (long i = 0; i < bs * bs; i++)
					s += blk[I * nblocks + J][i];
	pthread_mutex_lock(&sum_lock);
	checksum += s;
	pthread_mutex_unlock(&sum_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	int c;
	while ((c = getopt(argc, argv, "n:b:p:")) != -1) {
		if (c == 'n')
			n = atol(optarg);
		else if (c == 'b')
			bs = atol(optarg);
		else if (c == 'p')
			nproc = atol(optarg);
		else
			return 2;
	}
	if (n <= 0 || bs <= 0 || n % bs || nproc <= 0 || nproc > 256) {
		fprintf(stderr, "layout_lu: -n must be a multiple of -b, -p in 1..256\n");
		return 2;
	}
	nblocks = n / bs;
	blk = calloc((size_t)(nblocks * nblocks), sizeof *blk);
	if (!blk)
		return 1;
	unsigned seed = 1;
	for (long I = 0; I < nblocks; I++)
		for (long J = 0; J < nblocks; J++) {
			double *b;
			if (posix_memalign((void **)&b, 64, (size_t)(bs * bs) * sizeof *b))
				return 1;
			for (long i = 0; i < bs; i++)
				for (long j = 0; j < bs; j++) {
					seed = seed * 1103515245u + 12345u;
					b[i + j * bs] = (double)(seed >> 16 & 0x7fff) / 32768.0 +
							(I == J && i == j ? (double)n : 0.0);
				}
			blk[I * nblocks + J] = b;
		}
	pthread_barrier_init(&bar, NULL, (unsigned)nproc);
	pthread_t *t = malloc((size_t)nproc * sizeof *t);
	if (!t)
		return 1;
	for (long p = 1; p < nproc; p++)
		if (pthread_create(&t[p], NULL, slave, (void *)p))
			return 1;
	slave((void *)0);
	for (long p = 1; p < nproc; p++)
		pthread_join(t[p], NULL);
	printf("%.6e\n", checksum);
	return 0;
}
