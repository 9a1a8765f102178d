/*
 * mkbig.c — writes a large synthetic trace with the writer API, for measuring the readers
 * (`scalegraph dump`, `report`) at many threads: mkbig THREADS EVENTS DIR
 * EVENTS in all, split evenly over THREADS threads, interleaved in time (event i of thread k at
 * tick i * THREADS + k) so that a merge across threads has to take turns between all of them:
 * each thread begins, enters and leaves a function and locks and unlocks a mutex in a loop,
 * inside region "measured", and ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgtrace_write.h"

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mkbig THREADS EVENTS DIR\n");
		return 2;
	}
	unsigned long n_th = strtoul(argv[1], NULL, 10);
	unsigned long long n_ev = strtoull(argv[2], NULL, 10);
	if (n_th == 0 || n_th >= SG_ID_LIMIT || n_ev < 4 * n_th) {
		fprintf(stderr, "mkbig: error: need 1 <= THREADS < %u and EVENTS >= 4 * THREADS\n",
			SG_ID_LIMIT);
		return 2;
	}
	struct sgw_options o = { .pid = 4245, .epoch_ns = 1000000000ull, .chunk_recs = 8192 };
	struct sgw_trace *w;
	int rc = sgw_create(argv[3], &o, &w);
	struct sgw_stream **s = calloc(n_th, sizeof *s);
	if (rc < 0 || !s) {
		fprintf(stderr, "mkbig: error: %s: %s\n", argv[3], strerror(rc < 0 ? -rc : ENOMEM));
		return 1;
	}
	rc |= sgw_function(w, 1, "work", "big.c", 1);
	rc |= sgw_region(w, 1, "measured");
	rc |= sgw_object(w, 1, SG_OBJ_MUTEX, 0x1000);
	for (unsigned long k = 0; k < n_th && rc == 0; k++)
		rc = sgw_thread(w, (uint32_t)k, k ? 0 : SG_NO_ID, (int32_t)(1000 + k), &s[k]);
	static const enum sg_ev_kind loop[4] = { SG_EV_FUNC_ENTER, SG_EV_LOCK_REQUEST,
						 SG_EV_LOCK_ACQUIRED, SG_EV_LOCK_RELEASE };
	unsigned long long per = n_ev / n_th;
	/* thread by thread: the writer keeps one chunk buffer per stream */
	for (unsigned long k = 0; k < n_th && rc == 0; k++) {
		uint32_t self = (uint32_t)k;
		for (unsigned long long i = 0; i < per && rc == 0; i++) {
			uint64_t tk = i * n_th + k;
			if (i == 0)
				rc = sgw_event(s[k], tk, SG_EV_THREAD_BEGIN, self, k ? 0 : SG_NO_ID);
			else if (i == 1)
				rc = sgw_event(s[k], tk, SG_EV_REGION_BEGIN, 1, 0);
			else if (i == per - 2)
				rc = sgw_event(s[k], tk, SG_EV_REGION_END, 1, 0);
			else if (i == per - 1)
				rc = sgw_event(s[k], tk, SG_EV_THREAD_END, self, 0);
			else {
				enum sg_ev_kind kind = loop[i % 4];
				int lock = kind != SG_EV_FUNC_ENTER;
				rc = sgw_event(s[k], tk, kind, 1, lock ? SG_LOCK_MUTEX : 0);
			}
		}
		if (rc == 0)
			rc = sgw_flush(s[k]);
	}
	if (rc == 0)
		rc = sgw_close(w, 0);
	free(s);
	if (rc < 0) {
		fprintf(stderr, "mkbig: error: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
