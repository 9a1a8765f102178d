/*
 * sgt_probe.c — the recorders behind the inline probes of sgtrace.h (function entry/exit,
 * regions, user counters) and the trace_counter_* functions the counter code records through.
 */
#include <string.h>

#include "sg_counters_int.h"
#include "sgt_int.h"

/*
 * Function probes. The fast path records the event and keeps the function's per-thread state
 * that the throttling rule needs (sgt_throttle.c): a call count, the sum of exit minus entry
 * ticks, the depth of open calls — three adds to the first half of its 64-byte slot (struct
 * sgt_fn), beside the loads the checks need anyway. Anything unusual takes the slow path in one test: the thread's or the function's
 * first call (no slot yet; slot 0 is never fast), a full buffer, a function the rule must look
 * at or that is throttled (n >= lim; lim is 0 once throttled), an unrecorded call open (the
 * depth's high half), the trace budget spent, the clock_gettime clock (its call would need a
 * stack frame here). A throttled function's calls are counted right there, without a call;
 * the rest are tail calls: no stack frame on either path.
 */
SG_EXPORT void sg_func_enter_rec(struct sg_func_desc *fd)
{
	struct sgt_thread *t = sgt_self;
	uint32_t id = fd->id;
	if (SGT_UNLIKELY(!t || id >= t->n_fns)) {
		sgt_func_enter_slow(fd);
		return;
	}
	struct sgt_fn *f = &t->fns[id];
	struct sg_event_rec *r = t->pos;
	if (SGT_UNLIKELY((f->n >= f->lim) | (r == t->end) | !sgt_g.func_fast)) {
		if (f->lim == 0 && id != 0)   /* throttled: counted here, no call */
			sgt_fn_unrec_enter(f);
		else
			sgt_func_enter_slow(fd);
		return;
	}
	/* the slot first: nothing of it is live across the record's checksum stripe */
	uint64_t ticks = sgt_tsc_ticks();
	f->n++;
	f->sum -= (int64_t)ticks;
	f->depth++;
	sgt_rec_put(t, r, ticks, SG_EV_FUNC_ENTER, id, 0);
}

SG_EXPORT void sg_func_exit_rec(struct sg_func_desc *fd)
{
	struct sgt_thread *t = sgt_self;
	uint32_t id = fd->id;
	if (SGT_UNLIKELY(!t || id >= t->n_fns)) {
		sgt_func_exit_slow(fd);
		return;
	}
	struct sgt_fn *f = &t->fns[id];
	struct sg_event_rec *r = t->pos;
	/* fast only when no unrecorded call is open and a recorded one is: depth in 1..2^32-1 */
	if (SGT_UNLIKELY((f->depth - 1 >= SGT_DEPTH_UNREC - 1) | (r == t->end) | !SGT_FAST_CLOCK)) {
		if (f->depth >> 32)   /* an unrecorded call: counted here */
			sgt_fn_unrec_exit(f);
		else
			sgt_func_exit_slow(fd);
		return;
	}
	uint64_t ticks = sgt_tsc_ticks();
	f->sum += (int64_t)ticks;
	f->depth--;
	sgt_rec_put(t, r, ticks, SG_EV_FUNC_EXIT, id, 0);
}

/* New name slots are resolved by name_slot itself, from the text. */
static uint32_t make_unresolved(uintptr_t key, const void *name)
{
	(void)key;
	(void)name;
	return SG_NO_ID;
}

/* The slot of the name `name` in thread t's cache, keyed by the pointer and checked against
 * the text (a caller may reuse one buffer for several names). kind_bit separates regions (0)
 * from user counters (1) in the key. */
static struct sgt_slot *name_slot(struct sgt_thread *t, const char *name, unsigned kind_bit)
{
	uintptr_t key = ((uintptr_t)name << 1) | kind_bit;
	struct sgt_slot *s = sgt_map_get(&t->names, key, make_unresolved, name);
	if (!s)
		return NULL;
	if (!s->name || strcmp(s->name, name)) {
		const char *stored = NULL;
		s->id = kind_bit ? sgt_registry_counter(name, "", SG_COUNTER_USER, NULL, &stored)
				 : sgt_registry_region(name, &stored);
		s->name = stored;
		s->n = 0;
	}
	return s;
}

static void region_rec(const char *name, enum sg_ev_kind kind)
{
	struct sgt_thread *t = sgt_me();
	if (!t)
		return;
	if (!name)
		name = "";
	struct sgt_slot *s = name_slot(t, name, 0);
	uint32_t id = s ? s->id : SG_NO_ID;
	/* the samples of every thread's CPU time and run delay just outside the region, so that
	 * their cost is not in it; the calling thread's counters just inside, as before */
	if (kind == SG_EV_REGION_BEGIN)
		sgc_sched_sample_all();
	if (kind == SG_EV_REGION_END)
		sgc_sample();
	sgt_rec_t(t, kind, id, 0);
	if (kind == SG_EV_REGION_BEGIN)
		sgc_sample();
	if (kind == SG_EV_REGION_END)
		sgc_sched_sample_all();
}

SG_EXPORT void sg_region_begin_rec(const char *name)
{
	region_rec(name, SG_EV_REGION_BEGIN);
}

SG_EXPORT void sg_region_end_rec(const char *name)
{
	region_rec(name, SG_EV_REGION_END);
}

SG_EXPORT void sg_counter_add_rec(const char *name, int64_t value)
{
	struct sgt_thread *t = sgt_me();
	if (!t)
		return;
	if (!name)
		name = "";
	struct sgt_slot *s = name_slot(t, name, 1);
	if (!s)
		return;
	s->n += value;
	sgt_rec_value(t, s->id, s->n);
}

uint32_t trace_counter_define(const char *name, const char *unit, enum sg_counter_origin origin,
			      const char *unavailable)
{
	return sgt_registry_counter(name, unit, origin, unavailable, NULL);
}

void trace_counter_record(uint32_t id, int64_t value)
{
	struct sgt_thread *t = sg_trace_active ? sgt_me() : NULL;
	if (t)
		sgt_rec_value(t, id, value);
}

int trace_verbose(void)
{
	return sgt_g.verbose;
}

void trace_counters_unavailable(const char *reason)
{
	sgt_registry_counters_off(reason);
}

/*
 * main and the start routines probed from outside their bodies (sgtrace.h SG_FUNC_OUTSIDE):
 * the program's table of their descriptors, a weak definition in each of its instrumented
 * files; absent (a plain program, one built before) or empty, nothing is found and nothing is
 * recorded for them here (their bodies carry the probes, if any).
 */
extern struct sg_func_outside_table sg_func_outside_table
	__attribute__((weak, visibility("default")));

struct sg_func_desc *sgt_outside_find(void *(*start)(void *), int want_main)
{
	if (!&sg_func_outside_table)
		return NULL;
	struct sg_func_outside *o = sg_func_outside_table.begin, *e = sg_func_outside_table.end;
	if (!o || !e)
		return NULL;
	for (; o < e; o++)
		if (o->fd && (want_main ? o->is_main != 0 : o->fn == (void (*)(void))start))
			return o->fd;
	return NULL;
}
