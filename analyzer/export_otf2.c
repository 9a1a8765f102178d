/*
 * export_otf2.c — `scalegraph export --otf2`: an OTF2 archive (libotf2) that otf2-print,
 * Vampir and Scalasca read. One location per thread (location id = thread index) in one
 * process location group; functions and user regions are Enter/Leave; every pthread call the
 * trace records is a region named after it (pthread_barrier_wait with role BARRIER,
 * pthread_mutex_lock, pthread_create, ...) and in addition locks give ThreadAcquireLock /
 * ThreadReleaseLock (paradigm PTHREAD, lock id = the trace's object id, acquisition order
 * counted per lock in time order) and threads ThreadCreate / ThreadBegin / ThreadEnd /
 * ThreadWait on one PTHREAD communicator (sequence count = the created thread's index).
 * Semaphore calls are regions too (sem_wait, sem_trywait, sem_timedwait, sem_post, sem_init;
 * OTF2 has no semaphore events, and its lock events assume the acquirer releases), with the
 * wait's result as an attribute of its Leave. From the sched stream, off-CPU spans are leaf
 * regions "off CPU (runnable)" / "off CPU (blocked)" inside whatever the thread is in, and CPU
 * time and run delay samples are metrics. Counters are OTF2 metrics, one metric class each.
 * docs/export.md has the full table.
 *
 * Events are written as the walk delivers them; OTF2 flushes a location's buffer to disk
 * whenever its few chunks are full (memory callbacks below). Definitions are collected during the walk (only what is used) and written at
 * the end, when the clock properties and event counts are known.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "export_int.h"

enum { SPACE_FUNCTION = 1, SPACE_REGION = 2, SPACE_API = 3, SPACE_COUNTER = 4, SPACE_SCHED = 5,
       SPACE_RESULT = 6 };

/* The pthread and semaphore calls that become regions, and the off-CPU states. */
enum api {
	API_BARRIER, API_MUTEX_LOCK, API_MUTEX_TRYLOCK, API_RDLOCK, API_TRYRDLOCK, API_WRLOCK,
	API_TRYWRLOCK, API_SPIN_LOCK, API_SPIN_TRYLOCK, API_LOCK, API_COND_WAIT, API_COND_SIGNAL,
	API_COND_BROADCAST, API_CREATE, API_JOIN, API_SEM_WAIT, API_SEM_TRYWAIT, API_SEM_TIMEDWAIT,
	API_SEM_POST, API_SEM_INIT, API_OFF_RUNNABLE, API_OFF_BLOCKED,
};

#define WRAP OTF2_REGION_ROLE_WRAPPER, OTF2_PARADIGM_PTHREAD
static const struct {
	const char *name;
	OTF2_RegionRole role;
	OTF2_Paradigm paradigm;
} api_def[] = {
	[API_BARRIER] = { "pthread_barrier_wait", OTF2_REGION_ROLE_BARRIER, OTF2_PARADIGM_PTHREAD },
	[API_MUTEX_LOCK] = { "pthread_mutex_lock", WRAP },
	[API_MUTEX_TRYLOCK] = { "pthread_mutex_trylock", WRAP },
	[API_RDLOCK] = { "pthread_rwlock_rdlock", WRAP },
	[API_TRYRDLOCK] = { "pthread_rwlock_tryrdlock", WRAP },
	[API_WRLOCK] = { "pthread_rwlock_wrlock", WRAP },
	[API_TRYWRLOCK] = { "pthread_rwlock_trywrlock", WRAP },
	[API_SPIN_LOCK] = { "pthread_spin_lock", WRAP },
	[API_SPIN_TRYLOCK] = { "pthread_spin_trylock", WRAP },
	[API_LOCK] = { "lock (unknown kind)", WRAP },
	[API_COND_WAIT] = { "pthread_cond_wait", WRAP },
	[API_COND_SIGNAL] = { "pthread_cond_signal", WRAP },
	[API_COND_BROADCAST] = { "pthread_cond_broadcast", WRAP },
	[API_CREATE] = { "pthread_create", OTF2_REGION_ROLE_THREAD_CREATE, OTF2_PARADIGM_PTHREAD },
	[API_JOIN] = { "pthread_join", OTF2_REGION_ROLE_THREAD_WAIT, OTF2_PARADIGM_PTHREAD },
	/* POSIX semaphores: OTF2 has no paradigm of their own; they are POSIX thread sync */
	[API_SEM_WAIT] = { "sem_wait", WRAP },
	[API_SEM_TRYWAIT] = { "sem_trywait", WRAP },
	[API_SEM_TIMEDWAIT] = { "sem_timedwait", WRAP },
	[API_SEM_POST] = { "sem_post", WRAP },
	[API_SEM_INIT] = { "sem_init", WRAP },
	/* the kernel's scheduler, not a call of the program: artificial, of no paradigm */
	[API_OFF_RUNNABLE] = { "off CPU (runnable)", OTF2_REGION_ROLE_ARTIFICIAL,
			       OTF2_PARADIGM_NONE },
	[API_OFF_BLOCKED] = { "off CPU (blocked)", OTF2_REGION_ROLE_ARTIFICIAL,
			      OTF2_PARADIGM_NONE },
};
#undef WRAP

/* Attributes of events: object and episode on sync regions' Enter events, result on a
 * semaphore wait's Leave (and a failed post), value on sem_init, cpu on off-CPU regions. */
enum { ATTR_OBJECT = 0, ATTR_EPISODE = 1, ATTR_RESULT = 2, ATTR_VALUE = 3, ATTR_CPU = 4,
       N_ATTRS };
static const struct {
	const char *name, *description;
	OTF2_Type type;
} attr_def[N_ATTRS] = {
	[ATTR_OBJECT] = { "object", "sync object id (lock ids in lock events are the same ids)",
			  OTF2_TYPE_UINT32 },
	[ATTR_EPISODE] = { "episode", "this thread's n-th wait at this barrier, 1..",
			   OTF2_TYPE_UINT32 },
	[ATTR_RESULT] = { "result", "how a semaphore call ended: taken, busy (a trywait found it "
			  "zero), timed out, interrupted, or error N (errno)", OTF2_TYPE_STRING },
	[ATTR_VALUE] = { "value", "the semaphore's initial value", OTF2_TYPE_UINT32 },
	[ATTR_CPU] = { "cpu", "the CPU the thread left (Enter) or came back on (Leave)",
		       OTF2_TYPE_UINT32 },
};
#define COMM_THREADS 0

struct held {
	uint32_t lock, order;
};

struct loc {
	OTF2_EvtWriter *w;
	uint64_t n_events;
	struct held *held;          /* locks this thread holds, with their acquisition order */
	size_t n_held, cap_held;
};

struct region_def {
	OTF2_StringRef name, file;
	OTF2_RegionRole role;
	OTF2_Paradigm paradigm;
	uint32_t line;
};

struct otf2 {
	struct sgr_trace *t;
	struct export_stats *st;
	OTF2_Archive *ar;
	OTF2_AttributeList *attrs;
	OTF2_ErrorCode oerr;        /* first OTF2 error */
	const char *owhat;          /* what failed */
	uint64_t epoch_ns;
	struct loc *loc;
	size_t n_loc;
	struct export_map regions;  /* (space, id) -> region ref */
	struct region_def *reg;
	size_t n_reg, cap_reg;
	struct export_map metrics;  /* (SPACE_COUNTER, counter id) or (SPACE_SCHED, kind) ->
				       metric ref */
	uint64_t *metric_src;       /* metric ref -> its key in `metrics` */
	size_t n_metric, cap_metric;
	struct export_map results;  /* (SPACE_RESULT, errno) -> string ref of a result */
	/* Attribute refs are given in order of first use (OTF2 wants definitions 0, 1, ...):
	 * object and episode always, the others when used. */
	uint32_t attr_ref[N_ATTRS];
	unsigned attr_of_ref[N_ATTRS];
	unsigned n_attr_refs;
	struct export_map lock_order; /* lock id -> acquisitions so far */
	char **str;                 /* string definitions, ref = index */
	size_t n_str, cap_str;
};

/* Grows array *p of *cap elements of `size` bytes to hold n + 1. */
static int reserve(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? 2 * *cap : 32;
	void *q = realloc(*(void **)p, c * size);
	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	*cap = c;
	return 0;
}

/* A new string definition; OTF2_UNDEFINED_STRING when out of memory (reported at the end). */
static OTF2_StringRef str(struct otf2 *o, const char *s)
{
	char *d = strdup(s);
	if (!d || reserve(&o->str, &o->cap_str, o->n_str, sizeof *o->str) < 0) {
		free(d);
		if (!o->owhat)
			o->owhat = "out of memory";
		return OTF2_UNDEFINED_STRING;
	}
	o->str[o->n_str] = d;
	return (OTF2_StringRef)o->n_str++;
}

static int check(struct otf2 *o, OTF2_ErrorCode e, const char *what)
{
	if (e == OTF2_SUCCESS)
		return 0;
	if (!o->owhat) {
		o->oerr = e;
		o->owhat = what;
	}
	return -EIO;
}

/* The region of (space, id), defined on first use. Returns its ref via *ref. */
static int region(struct otf2 *o, unsigned space, uint32_t id, OTF2_RegionRef *ref)
{
	int created;
	uint32_t *r = export_map_slot(&o->regions, export_key(space, id), (uint32_t)o->n_reg,
				      &created);
	char text[512];
	if (!r || reserve(&o->reg, &o->cap_reg, o->n_reg, sizeof *o->reg) < 0)
		return -ENOMEM;
	*ref = *r;
	if (!created)
		return 0;
	struct region_def d = { .file = OTF2_UNDEFINED_STRING, .paradigm = OTF2_PARADIGM_USER,
				.role = OTF2_REGION_ROLE_CODE };
	if (space == SPACE_FUNCTION) {
		const struct sgr_function *f = sgr_function(o->t, id);
		d.role = OTF2_REGION_ROLE_FUNCTION;
		d.paradigm = OTF2_PARADIGM_COMPILER;
		if (f) {
			d.name = str(o, f->name);
			d.file = str(o, f->file);
			d.line = f->line > 0 ? (uint32_t)f->line : 0;
		} else {
			snprintf(text, sizeof text, "function#%" PRIu32 " (undefined)", id);
			d.name = str(o, text);
		}
	} else if (space == SPACE_REGION) {
		const struct sgr_region *g = sgr_region(o->t, id);
		if (g) {
			d.name = str(o, g->name);
		} else {
			snprintf(text, sizeof text, "region#%" PRIu32 " (undefined)", id);
			d.name = str(o, text);
		}
	} else {
		d.name = str(o, api_def[id].name);
		d.role = api_def[id].role;
		d.paradigm = api_def[id].paradigm;
	}
	o->reg[o->n_reg++] = d;
	return 0;
}

static enum api lock_api(uint32_t aux)
{
	int try = (aux & SG_LOCK_TRY) != 0;
	switch (SG_LOCK_MODE(aux)) {
	case SG_LOCK_MUTEX: return try ? API_MUTEX_TRYLOCK : API_MUTEX_LOCK;
	case SG_LOCK_RWLOCK_READ: return try ? API_TRYRDLOCK : API_RDLOCK;
	case SG_LOCK_RWLOCK_WRITE: return try ? API_TRYWRLOCK : API_WRLOCK;
	case SG_LOCK_SPIN: return try ? API_SPIN_TRYLOCK : API_SPIN_LOCK;
	}
	return API_LOCK;
}

/* The region a slice opened by (kind, id, aux) stands in. */
static int slice_region(struct otf2 *o, enum sg_ev_kind kind, uint32_t id, uint32_t aux,
			OTF2_RegionRef *ref)
{
	switch (kind) {
	case SG_EV_FUNC_ENTER: return region(o, SPACE_FUNCTION, id, ref);
	case SG_EV_REGION_BEGIN: return region(o, SPACE_REGION, id, ref);
	case SG_EV_BARRIER_ARRIVE: return region(o, SPACE_API, API_BARRIER, ref);
	case SG_EV_LOCK_REQUEST: return region(o, SPACE_API, lock_api(aux), ref);
	case SG_EV_COND_WAIT_BEGIN: return region(o, SPACE_API, API_COND_WAIT, ref);
	case SG_EV_SEM_WAIT_BEGIN:
		return region(o, SPACE_API, aux & SG_SEM_TRY ? API_SEM_TRYWAIT :
			      aux & SG_SEM_TIMED ? API_SEM_TIMEDWAIT : API_SEM_WAIT, ref);
	case SG_EV_SWITCH_OUT:
		return region(o, SPACE_API, aux & SG_SWITCH_PREEMPTED ? API_OFF_RUNNABLE :
			      API_OFF_BLOCKED, ref);
	case SG_EV_CREATE_BEGIN: return region(o, SPACE_API, API_CREATE, ref);
	default: return region(o, SPACE_API, API_JOIN, ref);
	}
}

static OTF2_TimeStamp ts(const struct otf2 *o, const struct sgr_event *ev)
{
	int64_t t = (int64_t)o->epoch_ns + ev->t_ns;
	return t < 0 ? 0 : (OTF2_TimeStamp)t;
}

/* The attribute ref of ATTR_..., given on first use. */
static uint32_t attr_ref(struct otf2 *o, unsigned attr)
{
	if (o->attr_ref[attr] == UINT32_MAX) {
		o->attr_of_ref[o->n_attr_refs] = attr;
		o->attr_ref[attr] = o->n_attr_refs++;
	}
	return o->attr_ref[attr];
}

static int add_attr(struct otf2 *o, unsigned attr, uint32_t value)
{
	return check(o, OTF2_AttributeList_AddUint32(o->attrs, attr_ref(o, attr), value),
		     "attribute");
}

/* The attribute `result` of a semaphore call: "taken", "busy", ... (one string each). */
static int add_result(struct otf2 *o, uint32_t aux)
{
	int created;
	uint32_t *ref = export_map_slot(&o->results, export_key(SPACE_RESULT, aux), 0, &created);
	char buf[32];
	if (!ref)
		return -ENOMEM;
	if (created)
		*ref = str(o, export_sem_result(aux, buf, sizeof buf));
	return check(o, OTF2_AttributeList_AddStringRef(o->attrs, attr_ref(o, ATTR_RESULT), *ref),
		     "attribute");
}

static int enter(struct otf2 *o, size_t pos, const struct sgr_event *ev, OTF2_RegionRef r)
{
	o->st->n_written++;
	return check(o, OTF2_EvtWriter_Enter(o->loc[pos].w, o->attrs, ts(o, ev), r), "Enter");
}

static int leave(struct otf2 *o, size_t pos, const struct sgr_event *ev, OTF2_RegionRef r)
{
	o->st->n_written++;
	return check(o, OTF2_EvtWriter_Leave(o->loc[pos].w, o->attrs, ts(o, ev), r), "Leave");
}

static int acquire(struct otf2 *o, size_t pos, const struct sgr_event *ev)
{
	struct loc *l = &o->loc[pos];
	int created;
	uint32_t *n = export_map_slot(&o->lock_order, ev->id, 0, &created);
	if (!n || reserve(&l->held, &l->cap_held, l->n_held, sizeof *l->held) < 0)
		return -ENOMEM;
	l->held[l->n_held++] = (struct held){ ev->id, ++*n };
	o->st->n_written++;
	return check(o, OTF2_EvtWriter_ThreadAcquireLock(l->w, NULL, ts(o, ev),
							 OTF2_PARADIGM_PTHREAD, ev->id, *n),
		     "ThreadAcquireLock");
}

static int release(struct otf2 *o, size_t pos, const struct sgr_event *ev)
{
	struct loc *l = &o->loc[pos];
	uint32_t order = 0;       /* acquisition not in the trace (damage): order unknown */
	for (size_t i = l->n_held; i-- > 0;)
		if (l->held[i].lock == ev->id) {
			order = l->held[i].order;
			l->held[i] = l->held[--l->n_held];
			break;
		}
	o->st->n_written++;
	return check(o, OTF2_EvtWriter_ThreadReleaseLock(l->w, NULL, ts(o, ev),
							 OTF2_PARADIGM_PTHREAD, ev->id, order),
		     "ThreadReleaseLock");
}

static int on_begin(void *ctx, size_t pos, const struct sgr_event *ev)
{
	struct otf2 *o = ctx;
	OTF2_RegionRef r;
	int rc = slice_region(o, ev->kind, ev->id, ev->aux, &r);
	if (!rc && (ev->kind == SG_EV_BARRIER_ARRIVE || ev->kind == SG_EV_LOCK_REQUEST ||
		    ev->kind == SG_EV_COND_WAIT_BEGIN || ev->kind == SG_EV_SEM_WAIT_BEGIN) &&
	    ev->id != SG_NO_ID)
		rc = add_attr(o, ATTR_OBJECT, ev->id);
	if (!rc && ev->kind == SG_EV_BARRIER_ARRIVE)
		rc = add_attr(o, ATTR_EPISODE, ev->aux);
	if (!rc && ev->kind == SG_EV_SWITCH_OUT)
		rc = add_attr(o, ATTR_CPU, SG_SWITCH_CPU(ev->aux));
	return rc ? rc : enter(o, pos, ev, r);
}

static int thread_event(struct otf2 *o, size_t pos, const struct sgr_event *ev,
			OTF2_ErrorCode (*fn)(OTF2_EvtWriter *, OTF2_AttributeList *,
					     OTF2_TimeStamp, OTF2_CommRef, uint64_t),
			uint32_t thread, const char *what)
{
	o->st->n_written++;
	return check(o, fn(o->loc[pos].w, NULL, ts(o, ev), COMM_THREADS, thread), what);
}

static int on_end(void *ctx, size_t pos, const struct export_slice *s, const struct sgr_event *ev,
		  int repaired)
{
	struct otf2 *o = ctx;
	OTF2_RegionRef r;
	int rc = slice_region(o, s->begin, s->id, s->aux, &r);
	int ok = !repaired && ev->aux == 0 && ev->id != SG_NO_ID;
	if (!rc && s->begin == SG_EV_LOCK_REQUEST && ev->kind == SG_EV_LOCK_ACQUIRED)
		rc = acquire(o, pos, ev);
	else if (!rc && s->begin == SG_EV_CREATE_BEGIN && ok)
		rc = thread_event(o, pos, ev, OTF2_EvtWriter_ThreadCreate, ev->id, "ThreadCreate");
	else if (!rc && s->begin == SG_EV_JOIN_BEGIN && ok)
		rc = thread_event(o, pos, ev, OTF2_EvtWriter_ThreadWait, ev->id, "ThreadWait");
	else if (!rc && s->begin == SG_EV_SEM_WAIT_BEGIN && !repaired)
		rc = add_result(o, ev->aux);
	else if (!rc && s->begin == SG_EV_SWITCH_OUT && ev->aux != SG_NO_ID)
		rc = add_attr(o, ATTR_CPU, SG_SWITCH_CPU(ev->aux));
	return rc ? rc : leave(o, pos, ev, r);
}

/* The metric ref of key (SPACE_COUNTER, counter id) or (SPACE_SCHED, kind), defined on first
 * use; NULL when out of memory. */
static uint32_t *metric_ref(struct otf2 *o, uint64_t key)
{
	int created;
	uint32_t *m = export_map_slot(&o->metrics, key, (uint32_t)o->n_metric, &created);
	if (!m || !created)
		return m;
	if (reserve(&o->metric_src, &o->cap_metric, o->n_metric, sizeof *o->metric_src) < 0)
		return NULL;
	o->metric_src[o->n_metric++] = key;
	return export_map_find(&o->metrics, key);
}

/* A counter sample, or a CPU time / run delay sample of the sched stream. */
static int metric(struct otf2 *o, size_t pos, const struct sgr_event *ev)
{
	uint32_t *m = metric_ref(o, ev->kind == SG_EV_COUNTER ? export_key(SPACE_COUNTER, ev->id)
				 : export_key(SPACE_SCHED, ev->kind));
	if (!m)
		return -ENOMEM;
	OTF2_Type type = OTF2_TYPE_INT64;
	OTF2_MetricValue v = { .signed_int = ev->value };
	o->st->n_written++;
	return check(o, OTF2_EvtWriter_Metric(o->loc[pos].w, NULL, ts(o, ev), *m, 1, &type, &v),
		     "Metric");
}

static int on_point(void *ctx, size_t pos, const struct sgr_event *ev)
{
	struct otf2 *o = ctx;
	OTF2_RegionRef r;
	int rc;
	int created_thread = sgr_thread(o->t, pos)->parent != SG_NO_ID;
	switch (ev->kind) {
	case SG_EV_THREAD_BEGIN:
		if (!created_thread)
			return 0;
		return thread_event(o, pos, ev, OTF2_EvtWriter_ThreadBegin, ev->thread,
				    "ThreadBegin");
	case SG_EV_THREAD_END:
		if (!created_thread)
			return 0;
		return thread_event(o, pos, ev, OTF2_EvtWriter_ThreadEnd, ev->thread, "ThreadEnd");
	case SG_EV_LOCK_ACQUIRED:
		return acquire(o, pos, ev);
	case SG_EV_LOCK_RELEASE:
		return release(o, pos, ev);
	case SG_EV_COUNTER:
	case SG_EV_TASK_CPU:
	case SG_EV_TASK_DELAY:
		return metric(o, pos, ev);
	default: /* COND_SIGNAL, COND_BROADCAST, SEM_POST, SEM_INIT: a region of no length */
		rc = region(o, SPACE_API, ev->kind == SG_EV_COND_SIGNAL ? API_COND_SIGNAL :
			    ev->kind == SG_EV_COND_BROADCAST ? API_COND_BROADCAST :
			    ev->kind == SG_EV_SEM_POST ? API_SEM_POST : API_SEM_INIT, &r);
		if (!rc && ev->id != SG_NO_ID)
			rc = add_attr(o, ATTR_OBJECT, ev->id);
		if (!rc && ev->kind == SG_EV_SEM_INIT)
			rc = add_attr(o, ATTR_VALUE, ev->aux);
		if (!rc)
			rc = enter(o, pos, ev, r);
		if (!rc && ev->kind == SG_EV_SEM_POST && ev->aux)
			rc = add_result(o, ev->aux);
		return rc ? rc : leave(o, pos, ev, r);
	}
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
				void *caller, bool final)
{
	return OTF2_FLUSH;
}

/*
 * OTF2 keeps a location's events in memory until its pool (128 MiB per writer by default) is
 * full. To stream, chunks of event buffers come from here, at most EVT_CHUNKS per location:
 * when they are used up, allocation fails and OTF2 flushes the buffer (pre_flush) and frees
 * them (free_all) before asking again.
 */
#define EVT_CHUNK_BYTES (1024 * 1024)
#define EVT_CHUNKS 4

struct chunk_list {
	size_t n;
	void *chunk[];
};

static void *chunk_alloc(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			 uint64_t size)
{
	struct chunk_list *l = *per_buffer;
	size_t max = type == OTF2_FILETYPE_EVENTS ? EVT_CHUNKS : 4096;
	if (!l) {
		l = calloc(1, sizeof *l + max * sizeof l->chunk[0]);
		if (!l)
			return NULL;
		*per_buffer = l;
	}
	if (l->n == max)
		return NULL;
	void *c = malloc(size);
	if (c)
		l->chunk[l->n++] = c;
	return c;
}

static void chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef loc,
			   void **per_buffer, bool final)
{
	struct chunk_list *l = *per_buffer;
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->chunk[i]);
	l->n = 0;
	if (final) {
		free(l);
		*per_buffer = NULL;
	}
}

/* Empty local definition files, one per location, as readers expect. */
static int write_local_defs(struct otf2 *o)
{
	int rc = check(o, OTF2_Archive_OpenDefFiles(o->ar), "OpenDefFiles");
	for (size_t i = 0; !rc && i < o->n_loc; i++) {
		uint32_t index = sgr_thread(o->t, i)->index;
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(o->ar, index);
		if (!d)
			return check(o, OTF2_ERROR_INVALID, "GetDefWriter");
		rc = check(o, OTF2_Archive_CloseDefWriter(o->ar, d), "CloseDefWriter");
	}
	return rc ? rc : check(o, OTF2_Archive_CloseDefFiles(o->ar), "CloseDefFiles");
}

/* Strings of the definitions written at the end, made before any is written. */
struct late_strings {
	OTF2_StringRef machine, node, process, threads, all;
	OTF2_StringRef attr[N_ATTRS][2];   /* name, description */
	OTF2_StringRef *loc_name;   /* per location */
	OTF2_StringRef *metric;     /* name, description, unit per metric */
};

static int make_strings(struct otf2 *o, struct late_strings *ls)
{
	const struct sgr_info *in = sgr_info(o->t);
	char text[512];
	ls->loc_name = calloc(o->n_loc ? o->n_loc : 1, sizeof *ls->loc_name);
	ls->metric = calloc(o->n_metric ? 3 * o->n_metric : 1, sizeof *ls->metric);
	if (!ls->loc_name || !ls->metric)
		return -ENOMEM;
	ls->machine = str(o, "machine");
	ls->node = str(o, "traced machine");
	snprintf(text, sizeof text, "process %" PRIu32, in->pid);
	ls->process = str(o, text);
	ls->threads = str(o, "pthreads");
	ls->all = str(o, "all threads");
	for (unsigned r = 0; r < o->n_attr_refs; r++) {
		unsigned a = o->attr_of_ref[r];
		ls->attr[a][0] = str(o, attr_def[a].name);
		ls->attr[a][1] = str(o, attr_def[a].description);
	}
	for (size_t i = 0; i < o->n_loc; i++) {
		export_thread_name(sgr_thread(o->t, i), text, sizeof text);
		ls->loc_name[i] = str(o, text);
	}
	for (size_t i = 0; i < o->n_metric; i++) {
		uint32_t id = (uint32_t)o->metric_src[i];
		if (o->metric_src[i] >> 32 == SPACE_SCHED) {
			int cpu = id == SG_EV_TASK_CPU;
			ls->metric[3 * i] = str(o, cpu ? "CPU time" : "run delay");
			ls->metric[3 * i + 1] = str(o, cpu ?
				"time the thread ran on a CPU (sched stream), accumulated since the "
				"thread began" :
				"time the thread was runnable but waited for a CPU (sched stream), "
				"accumulated since the thread began");
			ls->metric[3 * i + 2] = str(o, "ns");
			continue;
		}
		const struct sgr_counter *k = sgr_counter(o->t, id);
		if (k)
			snprintf(text, sizeof text, "%s", k->name);
		else
			snprintf(text, sizeof text, "counter#%" PRIu32, id);
		ls->metric[3 * i] = str(o, text);
		if (k && k->unavailable)
			snprintf(text, sizeof text, "unavailable: %s", k->unavailable);
		else if (in->counters_off)
			snprintf(text, sizeof text, "unavailable: %s", in->counters_off);
		else
			snprintf(text, sizeof text, "%s, accumulated since the thread began",
				 k && k->origin == SG_COUNTER_USER ? "user counter" : "counter");
		ls->metric[3 * i + 1] = str(o, text);
		ls->metric[3 * i + 2] = str(o, k ? k->unit : "");
	}
	return o->owhat ? -ENOMEM : 0;
}

/* Threads: system tree, process, one location each, and the communicator of thread events. */
static int write_threads(struct otf2 *o, OTF2_GlobalDefWriter *g, const struct late_strings *ls)
{
	uint64_t *members = calloc(o->n_loc ? o->n_loc : 1, sizeof *members);
	uint64_t *ranks = calloc(o->n_loc ? o->n_loc : 1, sizeof *ranks);
	int rc = members && ranks ? 0 : -ENOMEM;
	for (size_t i = 0; !rc && i < o->n_loc; i++) {
		members[i] = sgr_thread(o->t, i)->index;
		ranks[i] = i;
	}
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_PTHREAD,
				ls->threads, OTF2_PARADIGM_CLASS_THREAD_CREATE_WAIT), "WriteParadigm");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, ls->node, ls->machine,
				OTF2_UNDEFINED_SYSTEM_TREE_NODE), "WriteSystemTreeNode");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, ls->process,
				OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP),
			   "WriteLocationGroup");
	for (size_t i = 0; !rc && i < o->n_loc; i++)
		rc = check(o, OTF2_GlobalDefWriter_WriteLocation(g, members[i], ls->loc_name[i],
				OTF2_LOCATION_TYPE_CPU_THREAD, o->loc[i].n_events, 0),
			   "WriteLocation");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteGroup(g, 0, ls->threads,
				OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_PTHREAD,
				OTF2_GROUP_FLAG_NONE, (uint32_t)o->n_loc, members), "WriteGroup");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteGroup(g, 1, ls->all,
				OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_PTHREAD,
				OTF2_GROUP_FLAG_NONE, (uint32_t)o->n_loc, ranks), "WriteGroup");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteComm(g, COMM_THREADS, ls->all, 1,
				OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "WriteComm");
	for (unsigned r = 0; !rc && r < o->n_attr_refs; r++) {
		unsigned a = o->attr_of_ref[r];
		rc = check(o, OTF2_GlobalDefWriter_WriteAttribute(g, r, ls->attr[a][0],
				ls->attr[a][1], attr_def[a].type), "WriteAttribute");
	}
	free(members);
	free(ranks);
	return rc;
}

/* Regions used, and one metric class per counter (unavailable ones say why). */
static int write_regions_metrics(struct otf2 *o, OTF2_GlobalDefWriter *g,
				 const struct late_strings *ls)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < o->n_reg; i++) {
		const struct region_def *d = &o->reg[i];
		rc = check(o, OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)i, d->name,
				d->name, OTF2_UNDEFINED_STRING, d->role, d->paradigm,
				OTF2_REGION_FLAG_NONE, d->file, d->line, 0), "WriteRegion");
	}
	for (size_t i = 0; !rc && i < o->n_metric; i++) {
		const struct sgr_counter *k = o->metric_src[i] >> 32 == SPACE_COUNTER ?
			sgr_counter(o->t, (uint32_t)o->metric_src[i]) : NULL;
		OTF2_MetricMemberRef member = (OTF2_MetricMemberRef)i;
		rc = check(o, OTF2_GlobalDefWriter_WriteMetricMember(g, member, ls->metric[3 * i],
				ls->metric[3 * i + 1], k && k->origin == SG_COUNTER_USER ?
				OTF2_METRIC_TYPE_USER : OTF2_METRIC_TYPE_OTHER,
				OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0,
				ls->metric[3 * i + 2]), "WriteMetricMember");
		if (!rc)
			rc = check(o, OTF2_GlobalDefWriter_WriteMetricClass(g, (OTF2_MetricRef)i, 1,
					&member, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_CPU),
				   "WriteMetricClass");
	}
	return rc;
}

static int write_global_defs(struct otf2 *o)
{
	const struct sgr_info *in = sgr_info(o->t);
	struct late_strings ls = { 0 };
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(o->ar);
	struct sgr_event first = { .t_ns = o->st->n_read ? o->st->t_first_ns : 0 };
	uint64_t offset = ts(o, &first);
	uint64_t length = o->st->n_read ? (uint64_t)(o->st->t_last_ns - o->st->t_first_ns) : 0;
	uint64_t real = in->epoch_real_ns ? in->epoch_real_ns + (offset - in->epoch_ns)
					  : OTF2_UNDEFINED_TIMESTAMP;
	int rc = g ? make_strings(o, &ls) : check(o, OTF2_ERROR_INVALID, "GetGlobalDefWriter");
	if (!rc)
		rc = check(o, OTF2_GlobalDefWriter_WriteClockProperties(g, UINT64_C(1000000000),
				offset, length, real), "WriteClockProperties");
	for (size_t i = 0; !rc && i < o->n_str; i++)
		rc = check(o, OTF2_GlobalDefWriter_WriteString(g, (OTF2_StringRef)i, o->str[i]),
			   "WriteString");
	if (!rc)
		rc = write_threads(o, g, &ls);
	if (!rc)
		rc = write_regions_metrics(o, g, &ls);
	free(ls.loc_name);
	free(ls.metric);
	return rc;
}

/* Every defined counter becomes a metric, also those never sampled (unavailable ones). */
static int define_counters(struct otf2 *o)
{
	for (size_t i = 0; i < sgr_n_counters(o->t); i++)
		if (!metric_ref(o, export_key(SPACE_COUNTER, sgr_counter_at(o->t, i)->id)))
			return -ENOMEM;
	return 0;
}

static int open_archive(struct otf2 *o, const char *out_dir, const char *source, char *err,
			size_t errlen)
{
	static const OTF2_FlushCallbacks flush = { pre_flush, NULL };
	static const OTF2_MemoryCallbacks memory = { chunk_alloc, chunk_free_all };
	char path[4096], desc[4200];
	struct stat sb;
	if (mkdir(out_dir, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: cannot create: %s", out_dir, strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof path, "%s/traces.otf2", out_dir);
	if (stat(path, &sb) == 0) {
		snprintf(err, errlen, "%s: exists (remove it or choose another directory)", path);
		return -EEXIST;
	}
	o->ar = OTF2_Archive_Open(out_dir, "traces", OTF2_FILEMODE_WRITE, EVT_CHUNK_BYTES,
				  4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o->ar) {
		snprintf(err, errlen, "%s: cannot create the OTF2 archive", out_dir);
		return -EIO;
	}
	snprintf(desc, sizeof desc, "scalegraph trace of %s", source);
	int rc = check(o, OTF2_Archive_SetFlushCallbacks(o->ar, &flush, NULL), "SetFlushCallbacks");
	if (!rc)
		rc = check(o, OTF2_Archive_SetMemoryCallbacks(o->ar, &memory, NULL),
			   "SetMemoryCallbacks");
	if (!rc)
		rc = check(o, OTF2_Archive_SetSerialCollectiveCallbacks(o->ar), "SetCollectives");
	if (!rc)
		rc = check(o, OTF2_Archive_SetCreator(o->ar, "scalegraph export"), "SetCreator");
	if (!rc)
		rc = check(o, OTF2_Archive_SetDescription(o->ar, desc), "SetDescription");
	if (!rc)
		rc = check(o, OTF2_Archive_OpenEvtFiles(o->ar), "OpenEvtFiles");
	for (size_t i = 0; !rc && i < o->n_loc; i++) {
		o->loc[i].w = OTF2_Archive_GetEvtWriter(o->ar, sgr_thread(o->t, i)->index);
		if (!o->loc[i].w)
			rc = check(o, OTF2_ERROR_INVALID, "GetEvtWriter");
	}
	return rc;
}

int export_otf2(struct sgr_trace *t, const char *out_dir, const char *source, unsigned flags,
		struct export_stats *st, char *err, size_t errlen)
{
	static const struct export_ops ops = { on_begin, on_end, on_point };
	struct otf2 o = { .t = t, .st = st, .epoch_ns = sgr_info(t)->epoch_ns,
			  .n_loc = sgr_n_threads(t) };
	int rc;
	err[0] = '\0';
	for (unsigned a = 0; a < N_ATTRS; a++)
		o.attr_ref[a] = UINT32_MAX;
	attr_ref(&o, ATTR_OBJECT);
	attr_ref(&o, ATTR_EPISODE);
	o.loc = calloc(o.n_loc ? o.n_loc : 1, sizeof *o.loc);
	o.attrs = OTF2_AttributeList_New();
	rc = o.loc && o.attrs ? define_counters(&o) : -ENOMEM;
	if (!rc)
		rc = open_archive(&o, out_dir, source, err, errlen);
	if (!rc)
		rc = export_walk(t, &ops, &o, flags, st);
	for (size_t i = 0; o.ar && i < o.n_loc; i++) {
		uint64_t n = 0;
		if (!o.loc[i].w)
			continue;
		if (!rc)
			rc = check(&o, OTF2_EvtWriter_GetNumberOfEvents(o.loc[i].w, &n),
				   "NumberOfEvents");
		int rc2 = check(&o, OTF2_Archive_CloseEvtWriter(o.ar, o.loc[i].w), "CloseEvtWriter");
		o.loc[i].w = NULL;
		o.loc[i].n_events = n;
		rc = rc ? rc : rc2;
	}
	if (!rc)
		rc = check(&o, OTF2_Archive_CloseEvtFiles(o.ar), "CloseEvtFiles");
	if (!rc)
		rc = write_local_defs(&o);
	if (!rc)
		rc = write_global_defs(&o);
	if (o.ar && check(&o, OTF2_Archive_Close(o.ar), "Close") < 0 && !rc)
		rc = -EIO;
	if (rc && !err[0]) {
		if (o.oerr != OTF2_SUCCESS)
			snprintf(err, errlen, "%s/traces.otf2: OTF2 %s failed: %s: %s", out_dir,
				 o.owhat, OTF2_Error_GetName(o.oerr),
				 OTF2_Error_GetDescription(o.oerr));
		else
			snprintf(err, errlen, "%s/traces.otf2: %s", out_dir,
				 rc == -ENOMEM ? "out of memory" : strerror(-rc));
	}
	for (size_t i = 0; i < o.n_loc; i++)
		free(o.loc[i].held);
	free(o.loc);
	if (o.attrs)
		OTF2_AttributeList_Delete(o.attrs);
	for (size_t i = 0; i < o.n_str; i++)
		free(o.str[i]);
	free(o.str);
	free(o.reg);
	free(o.metric_src);
	export_map_free(&o.results);
	export_map_free(&o.regions);
	export_map_free(&o.metrics);
	export_map_free(&o.lock_order);
	return rc;
}
