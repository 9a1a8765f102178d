/*
 * sgt_probe.c — the recorders behind the inline probes of sgtrace.h (function entry/exit,
 * regions, user counters) and the trace_counter_* functions the counter code records through.
 */
#include <string.h>

#include "sg_counters_int.h"
#include "sgt_int.h"

/* A function's first event: registers it, then records. Cold, so that the probes below need
 * no stack frame. */
static __attribute__((cold, noinline)) void func_rec_first(struct sg_func_desc *fd,
							   enum sg_ev_kind kind)
{
	sgt_rec(kind, sgt_registry_function(fd), 0);
}

SG_EXPORT void sg_func_enter_rec(struct sg_func_desc *fd)
{
	uint32_t id = fd->id;
	if (SGT_UNLIKELY(id == 0)) {
		func_rec_first(fd, SG_EV_FUNC_ENTER);
		return;
	}
	sgt_rec(SG_EV_FUNC_ENTER, id, 0);
}

SG_EXPORT void sg_func_exit_rec(struct sg_func_desc *fd)
{
	uint32_t id = fd->id;
	if (SGT_UNLIKELY(id == 0)) {
		func_rec_first(fd, SG_EV_FUNC_EXIT);
		return;
	}
	sgt_rec(SG_EV_FUNC_EXIT, id, 0);
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

void trace_counters_unavailable(const char *reason)
{
	sgt_registry_counters_off(reason);
}
