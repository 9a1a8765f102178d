/*
 * an_synth.c — test helpers: temporary directories and synthetic threads (an_synth.h).
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_synth.h"

const char *syn_tmpdir(void)
{
	static char slots[8][64];
	static int next;
	char *p = slots[next++ % 8];
	snprintf(p, 64, "/tmp/sgan.XXXXXX");
	return mkdtemp(p);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

void syn_rmtree(const char *path)
{
	if (path)
		nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int syn_thread(struct sgw_trace *w, uint32_t index, const struct syn_ev *ev)
{
	struct sgw_stream *s;
	int rc = sgw_thread(w, index, SG_NO_ID, 0, &s);
	for (; rc == 0 && ev->kind != SG_EV_NONE; ev++)
		rc = ev->kind == SG_EV_VALUE ? sgw_counter_value(s, ev->t, ev->id, (int64_t)ev->aux)
					     : sgw_event(s, ev->t, ev->kind, ev->id, ev->aux);
	return rc;
}
