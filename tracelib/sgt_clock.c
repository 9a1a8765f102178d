/*
 * sgt_clock.c — the recorder's clock. Timestamps are TSC ticks when the CPU reports an
 * invariant TSC (CPUID 0x80000007, EDX bit 8), else CLOCK_MONOTONIC ns. Either way they count
 * from the trace's epoch, and (ticks, ns) pairs taken at each flush let the reader convert.
 */
#include <time.h>

#include "sgt_int.h"
#if SGT_HAVE_TSC
#include <cpuid.h>
#endif

uint64_t sgt_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Does the CPU promise a TSC that ticks at a constant rate in every power state? */
static int tsc_invariant(void)
{
#if SGT_HAVE_TSC
	unsigned a, b, c, d;
	if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
		return 0;
	if (!__get_cpuid(0x80000007u, &a, &b, &c, &d))
		return 0;
	return (d >> 8) & 1;
#else
	return 0;
#endif
}

/*
 * A raw (TSC, ns) pair: the TSC read is the midpoint of two reads around clock_gettime, from
 * the tightest of a few tries. A process's first clock_gettime takes 5-8 us (the vDSO's data
 * page faults in), which would put the midpoint, and so every converted time of the trace,
 * microseconds off the kernel's own clock that stamps the switch records.
 */
static void raw_pair(uint64_t *tsc, uint64_t *ns)
{
#if SGT_HAVE_TSC
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 4 && best > 400; i++) {
		uint64_t a = __rdtsc();
		uint64_t n = sgt_mono_ns();
		uint64_t b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*ns = n;
			*tsc = a + (b - a) / 2;
		}
	}
#else
	*ns = sgt_mono_ns();
	*tsc = 0;
#endif
}

void sgt_clock_init(int want)
{
	uint64_t tsc, ns;
	if (want == SGF_CLOCK_TSC && SGT_HAVE_TSC)
		sgt_g.clock = SGF_CLOCK_TSC;
	else if (want == SGF_CLOCK_NS)
		sgt_g.clock = SGF_CLOCK_NS;
	else
		sgt_g.clock = tsc_invariant() ? SGF_CLOCK_TSC : SGF_CLOCK_NS;
	raw_pair(&tsc, &ns);
	sgt_g.epoch_tsc = tsc;
	sgt_g.epoch_ns = ns;
	sgt_g.epoch_real_ns = real_ns();
}

void sgt_clock_pair(uint64_t *ticks, uint64_t *ns)
{
	uint64_t tsc;
	raw_pair(&tsc, ns);
	if (sgt_g.clock == SGF_CLOCK_TSC)
		*ticks = (tsc - sgt_g.epoch_tsc) & SG_TICKS_MAX;
	else
		*ticks = (*ns - sgt_g.epoch_ns) & SG_TICKS_MAX;
}
