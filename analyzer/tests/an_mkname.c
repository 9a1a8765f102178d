/*
 * an_mkname.c — writes a small trace whose names are given bytes, for test-json-utf8.sh (every
 * JSON string the tools write is valid UTF-8, whatever a name holds):
 *
 *   an_mkname DIR NAME
 *
 * Two threads over [0, 1 ms]: thread 0 calls function NAME (file NAME.c) inside region NAME,
 * takes lock 1 at call site NAME.c:7 in NAME, and has counter NAME (unit NAME) sampled; thread 1
 * waits for that lock. NAME is taken as raw bytes (a test passes $'\xff\xfe').
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sgtrace_write.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: an_mkname DIR NAME\n");
		return 2;
	}
	const char *name = argv[2];
	char file[512];
	snprintf(file, sizeof file, "%s.c", name);
	struct sgw_trace *w = NULL;
	struct sgw_stream *t0 = NULL, *t1 = NULL;
	int rc = sgw_create(argv[1], NULL, &w);
	if (!rc)
		rc = sgw_function(w, 1, name, file, 3);
	if (!rc)
		rc = sgw_region(w, 1, name);
	if (!rc)
		rc = sgw_site(w, 1, file, 7, name);
	if (!rc)
		rc = sgw_object(w, 1, SG_OBJ_MUTEX, 0x1000);
	if (!rc)
		rc = sgw_counter(w, 1, name, name, SG_COUNTER_USER, NULL);
	if (!rc)
		rc = sgw_thread(w, 0, SG_NO_ID, 0, &t0);
	if (!rc)
		rc = sgw_thread(w, 1, 0, 0, &t1);
	static const struct {
		int thread;
		uint64_t t;
		enum sg_ev_kind kind;
		uint32_t id, aux;
	} ev[] = {
		{ 0, 0, SG_EV_THREAD_BEGIN, 0, SG_NO_ID },
		{ 0, 10000, SG_EV_REGION_BEGIN, 1, 0 },
		{ 0, 20000, SG_EV_FUNC_ENTER, 1, 0 },
		{ 0, 30000, SG_EV_SYNC_SITE, 1, 0 },
		{ 0, 30000, SG_EV_LOCK_REQUEST, 1, 0 },
		{ 0, 31000, SG_EV_LOCK_ACQUIRED, 1, 0 },
		{ 0, 500000, SG_EV_LOCK_RELEASE, 1, 0 },
		{ 0, 900000, SG_EV_FUNC_EXIT, 1, 0 },
		{ 0, 990000, SG_EV_REGION_END, 1, 0 },
		{ 0, 1000000, SG_EV_THREAD_END, 0, 0 },
		{ 1, 5000, SG_EV_THREAD_BEGIN, 1, 0 },
		{ 1, 100000, SG_EV_LOCK_REQUEST, 1, 0 },
		{ 1, 500500, SG_EV_LOCK_ACQUIRED, 1, 0 },
		{ 1, 600000, SG_EV_LOCK_RELEASE, 1, 0 },
		{ 1, 995000, SG_EV_THREAD_END, 1, 0 },
	};
	for (size_t k = 0; !rc && k < sizeof ev / sizeof ev[0]; k++) {
		rc = sgw_event(ev[k].thread ? t1 : t0, ev[k].t, ev[k].kind, ev[k].id, ev[k].aux);
		if (!rc && ev[k].kind == SG_EV_FUNC_ENTER)
			rc = sgw_counter_value(t0, ev[k].t, 1, 42);
	}
	if (w) {
		int rc2 = sgw_close(w, 0);
		if (!rc)
			rc = rc2;
	}
	if (rc) {
		fprintf(stderr, "an_mkname: writing the trace failed (%d)\n", rc);
		return 1;
	}
	return 0;
}
