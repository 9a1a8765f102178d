/*
 * sgf_names.c — the names of event kinds, object kinds and lock modes (sgtrace_format.h).
 * A file of its own so that a program linking both libsgtrace.a (where these are exported) and
 * libsgtread.a does not pull a second definition in with the reader's encoders.
 */
#include "sgtrace_format.h"
#include "sgt_export.h"

SG_EXPORT const char *sg_ev_kind_name(enum sg_ev_kind kind)
{
	static const char *const names[SG_EV_KIND_COUNT] = {
		[SG_EV_NONE] = "none",
		[SG_EV_THREAD_BEGIN] = "thread_begin",
		[SG_EV_THREAD_END] = "thread_end",
		[SG_EV_FUNC_ENTER] = "func_enter",
		[SG_EV_FUNC_EXIT] = "func_exit",
		[SG_EV_REGION_BEGIN] = "region_begin",
		[SG_EV_REGION_END] = "region_end",
		[SG_EV_BARRIER_ARRIVE] = "barrier_arrive",
		[SG_EV_BARRIER_LEAVE] = "barrier_leave",
		[SG_EV_LOCK_REQUEST] = "lock_request",
		[SG_EV_LOCK_ACQUIRED] = "lock_acquired",
		[SG_EV_LOCK_FAILED] = "lock_failed",
		[SG_EV_LOCK_RELEASE] = "lock_release",
		[SG_EV_COND_WAIT_BEGIN] = "cond_wait_begin",
		[SG_EV_COND_WAIT_END] = "cond_wait_end",
		[SG_EV_COND_SIGNAL] = "cond_signal",
		[SG_EV_COND_BROADCAST] = "cond_broadcast",
		[SG_EV_CREATE_BEGIN] = "create_begin",
		[SG_EV_CREATE_END] = "create_end",
		[SG_EV_JOIN_BEGIN] = "join_begin",
		[SG_EV_JOIN_END] = "join_end",
		[SG_EV_COUNTER] = "counter",
		[SG_EV_VALUE] = "value",
		[SG_EV_SEM_WAIT_BEGIN] = "sem_wait_begin",
		[SG_EV_SEM_WAIT_END] = "sem_wait_end",
		[SG_EV_SEM_POST] = "sem_post",
		[SG_EV_SEM_INIT] = "sem_init",
		[SG_EV_SWITCH_OUT] = "switch_out",
		[SG_EV_SWITCH_IN] = "switch_in",
		[SG_EV_TASK_CPU] = "task_cpu",
		[SG_EV_TASK_DELAY] = "task_delay",
		[SG_EV_SWITCH_LOST] = "switch_lost",
		[SG_EV_FUNC_THROTTLED] = "func_throttled",
		[SG_EV_FUNC_UNRECORDED] = "func_unrecorded",
		[SG_EV_FUNC_UNRECORDED_TIME] = "func_unrecorded_time",
		[SG_EV_TRACE_BUDGET] = "trace_budget",
		[SG_EV_SYNC_SITE] = "sync_site",
	};
	if ((unsigned)kind >= SG_EV_KIND_COUNT)
		return "?";
	return names[kind];
}

SG_EXPORT const char *sg_obj_kind_name(enum sg_obj_kind kind)
{
	switch (kind) {
	case SG_OBJ_MUTEX: return "mutex";
	case SG_OBJ_RWLOCK: return "rwlock";
	case SG_OBJ_SPIN: return "spinlock";
	case SG_OBJ_BARRIER: return "barrier";
	case SG_OBJ_COND: return "cond";
	case SG_OBJ_SEM: return "semaphore";
	}
	return "?";
}

SG_EXPORT const char *sg_lock_mode_name(uint32_t aux)
{
	switch (SG_LOCK_MODE(aux)) {
	case SG_LOCK_MUTEX: return "mutex";
	case SG_LOCK_RWLOCK_READ: return "read";
	case SG_LOCK_RWLOCK_WRITE: return "write";
	case SG_LOCK_SPIN: return "spin";
	}
	return "?";
}
