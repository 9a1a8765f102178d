/*
 * an_synth.h — helpers of the analyzer's tests: temporary directories and compact synthetic
 * traces written through sgtrace_write.h (ticks are ns, so every answer is exact to the ns).
 */
#ifndef AN_SYNTH_H
#define AN_SYNTH_H

#include <stdint.h>

#include "sgtrace_write.h"

/* One event of a synthetic thread; a list ends with kind SG_EV_NONE. */
struct syn_ev {
	uint64_t t;
	enum sg_ev_kind kind;
	uint32_t id, aux;
};

/* Creates a fresh temporary directory and returns its path (static storage per call slot 0..7). */
const char *syn_tmpdir(void);
/* Removes a directory tree (tests clean up after themselves). */
void syn_rmtree(const char *path);
/* Writes thread `index` (parent SG_NO_ID) with the events of `ev` into w. 0 or -errno. */
int syn_thread(struct sgw_trace *w, uint32_t index, const struct syn_ev *ev);

#endif
