/*
 * calib_probe.c — sg-calib-probe, the helper by which `scalegraph calibrate` measures what one
 * trace record costs (calib_record.c runs it). Linked with libsgtrace like an instrumented
 * program, it calls an empty function with a function probe exactly as `scalegraph cc` writes
 * it (a static struct sg_func_desc and the scope guard) and the same function without one,
 * CALLS times a round, and prints the least time per call of each over ROUNDS rounds (the
 * least: the round no other process disturbed; each round still includes its share of buffer
 * flushes, which a traced program pays too):
 *   sg-calib-probe CALLS ROUNDS   ->   plain_ns X / probe_ns Y / active 1
 * The environment (set by the caller) decides what a probed call costs: every call recorded
 * (SG_THROTTLE=0), or counted after the first ones (SG_THROTTLE=1000,1000000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sgtrace.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* What the instrumenter makes of `static void probed(void) { }` (instrument/inst_probe.c). */
static __attribute__((noinline)) void probed(void)
{
	static struct sg_func_desc sg_fd__ = { "calib_probed", "calib_probe.c", 30, 0 };
	struct sg_func_scope sg_scope__ __attribute__((cleanup(sg_func_scope_exit), unused)) =
		sg_func_scope_enter(&sg_fd__);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline)) void plain(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	long rounds = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	double best_plain = 1e300, best_probe = 1e300;
	if (argc != 3 || calls < 1 || calls > 100000000 || rounds < 1 || rounds > 1000) {
		fprintf(stderr, "usage: sg-calib-probe CALLS ROUNDS (run by scalegraph calibrate)\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		double t0 = now_ns();
		for (long i = 0; i < calls; i++)
			plain();
		double t1 = now_ns();
		for (long i = 0; i < calls; i++)
			probed();
		double t2 = now_ns();
		if (t1 - t0 < best_plain)
			best_plain = t1 - t0;
		if (t2 - t1 < best_probe)
			best_probe = t2 - t1;
	}
	printf("plain_ns %.4f\nprobe_ns %.4f\nactive %d\n", best_plain / (double)calls,
	       best_probe / (double)calls, sg_trace_active ? 1 : 0);
	return 0;
}
