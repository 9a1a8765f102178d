/*
 * export_chrome.c — `scalegraph export --chrome`: the Chrome trace-event JSON that Perfetto and
 * chrome://tracing load. One JSON object {"traceEvents":[...], "displayTimeUnit":"ns",
 * "otherData":{...}}; one event per trace event (counter values folded in), in time order,
 * with pid = the traced process and tid = the thread index. Functions and regions are B/E
 * slices, waits are slices named "barrier wait", "lock wait", "cond wait", "sem wait",
 * "thread create", "join wait", single moments are instant events, counters are "C" events
 * (one track per counter and thread). From the sched stream, a thread's off-CPU spans are
 * leaf slices "off CPU (runnable)" / "off CPU (blocked)" on its own row (the walk keeps them
 * properly nested) and its CPU time and run delay samples are counters. The table of every
 * kind is in docs/export.md.
 *
 * Written through a private buffer with hand-made number formatting: printf per field would
 * make this the slow part of the export.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export_int.h"

enum { SPACE_FUNCTION = 1, SPACE_REGION = 2, SPACE_COUNTER = 3 };

#define BUF_BYTES (1u << 16)

struct chrome {
	struct sgr_trace *t;
	FILE *f;
	char *buf;
	size_t n;
	int err;                    /* a write failed */
	int first;                  /* no event written yet */
	uint32_t pid;
	int no_sched;               /* EXPORT_NO_SCHED */
	struct export_map names;    /* (space, id) -> index into name[] */
	char **name;                /* JSON string literals, quotes included */
	size_t n_name, cap_name;
	struct export_stats *st;
};

static void flush(struct chrome *c)
{
	if (c->n && fwrite(c->buf, 1, c->n, c->f) != c->n)
		c->err = 1;
	c->n = 0;
}

static void put(struct chrome *c, const char *s, size_t len)
{
	if (c->n + len > BUF_BYTES) {
		flush(c);
		if (len > BUF_BYTES) {
			if (fwrite(s, 1, len, c->f) != len)
				c->err = 1;
			return;
		}
	}
	memcpy(c->buf + c->n, s, len);
	c->n += len;
}

#define PUT(c, lit) put((c), (lit), sizeof(lit) - 1)

static void put_str(struct chrome *c, const char *s)
{
	put(c, s, strlen(s));
}

static void put_u64(struct chrome *c, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof tmp;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(c, tmp + i, sizeof tmp - i);
}

static void put_i64(struct chrome *c, int64_t v)
{
	if (v < 0) {
		PUT(c, "-");
		put_u64(c, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(c, (uint64_t)v);
	}
}

/* ns as µs with three decimals: exact. */
static void put_us(struct chrome *c, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	char frac[4] = { '.', (char)('0' + a % 1000 / 100), (char)('0' + a % 100 / 10),
			 (char)('0' + a % 10) };
	if (ns < 0)
		PUT(c, "-");
	put_u64(c, a / 1000);
	put(c, frac, sizeof frac);
}

/* A JSON string literal of s (quotes included), malloc'ed; NULL when out of memory. The one
 * JSON string writer of the tools (sgr_json.c): valid UTF-8 whatever the bytes of a name. */
static char *json_string(const char *s)
{
	char *out = malloc(SGR_JSON_MAX(strlen(s)));
	if (out)
		sgr_json_quote(out, s);
	return out;
}

static void put_json(struct chrome *c, const char *s)
{
	char *j = json_string(s);
	if (!j) {
		c->err = 1;
		return;
	}
	put(c, j, strlen(j));
	free(j);
}

/* The JSON name of function, region or counter `id` (made once, then looked up). */
static const char *name_of(struct chrome *c, unsigned space, uint32_t id)
{
	int created;
	uint32_t *ix = export_map_slot(&c->names, export_key(space, id), (uint32_t)c->n_name,
				       &created);
	char text[512];
	if (!ix)
		return NULL;
	if (!created)
		return c->name[*ix];
	if (c->n_name == c->cap_name) {
		size_t cap = c->cap_name ? 2 * c->cap_name : 64;
		char **nn = realloc(c->name, cap * sizeof *nn);
		if (!nn)
			return NULL;
		c->name = nn;
		c->cap_name = cap;
	}
	if (space == SPACE_FUNCTION) {
		const struct sgr_function *f = sgr_function(c->t, id);
		if (f)
			snprintf(text, sizeof text, "%s", f->name);
		else
			snprintf(text, sizeof text, "function#%" PRIu32, id);
	} else if (space == SPACE_REGION) {
		const struct sgr_region *r = sgr_region(c->t, id);
		if (r)
			snprintf(text, sizeof text, "%s", r->name);
		else
			snprintf(text, sizeof text, "region#%" PRIu32, id);
	} else {
		const struct sgr_counter *k = sgr_counter(c->t, id);
		if (k && *k->unit)
			snprintf(text, sizeof text, "%s [%s]", k->name, k->unit);
		else if (k)
			snprintf(text, sizeof text, "%s", k->name);
		else
			snprintf(text, sizeof text, "counter#%" PRIu32, id);
	}
	char *j = json_string(text);
	if (!j)
		return NULL;
	/* Counter names are completed per thread by the caller: drop the closing quote. */
	if (space == SPACE_COUNTER)
		j[strlen(j) - 1] = '\0';
	c->name[c->n_name++] = j;
	return j;
}

/* {"ph":"X","pid":P,"tid":T,"ts":U  — the caller adds the rest and the closing brace. */
static void head(struct chrome *c, char ph, size_t pos, const struct sgr_event *ev)
{
	char p[] = "{\"ph\":\"X\",\"pid\":";
	p[7] = ph;
	if (!c->first)
		PUT(c, ",\n");
	c->first = 0;
	put(c, p, sizeof p - 1);
	put_u64(c, c->pid);
	PUT(c, ",\"tid\":");
	put_u64(c, ev->thread);
	PUT(c, ",\"ts\":");
	put_us(c, ev->t_ns);
	c->st->n_written++;
}

static void put_id(struct chrome *c, uint32_t id)
{
	if (id == SG_NO_ID)
		PUT(c, "null");
	else
		put_u64(c, id);
}

static void put_object_arg(struct chrome *c, const struct sgr_event *ev)
{
	PUT(c, ",\"args\":{\"object\":");
	put_id(c, ev->id);
}

static int on_begin(void *ctx, size_t pos, const struct sgr_event *ev)
{
	struct chrome *c = ctx;
	const char *nm;
	head(c, 'B', pos, ev);
	switch (ev->kind) {
	case SG_EV_FUNC_ENTER:
	case SG_EV_REGION_BEGIN:
		nm = name_of(c, ev->kind == SG_EV_FUNC_ENTER ? SPACE_FUNCTION : SPACE_REGION,
			     ev->id);
		if (!nm)
			return -ENOMEM;
		if (ev->kind == SG_EV_FUNC_ENTER)
			PUT(c, ",\"cat\":\"function\",\"name\":");
		else
			PUT(c, ",\"cat\":\"region\",\"name\":");
		put(c, nm, strlen(nm));
		PUT(c, "}");
		break;
	case SG_EV_BARRIER_ARRIVE:
		PUT(c, ",\"cat\":\"barrier\",\"name\":\"barrier wait\"");
		put_object_arg(c, ev);
		PUT(c, ",\"episode\":");
		put_u64(c, ev->aux);
		PUT(c, "}}");
		break;
	case SG_EV_LOCK_REQUEST:
		PUT(c, ",\"cat\":\"lock\",\"name\":\"lock wait\"");
		put_object_arg(c, ev);
		PUT(c, ",\"mode\":\"");
		put(c, sg_lock_mode_name(ev->aux), strlen(sg_lock_mode_name(ev->aux)));
		if (ev->aux & SG_LOCK_TRY)
			PUT(c, "\",\"try\":true}}");
		else
			PUT(c, "\"}}");
		break;
	case SG_EV_COND_WAIT_BEGIN:
		PUT(c, ",\"cat\":\"cond\",\"name\":\"cond wait\"");
		put_object_arg(c, ev);
		PUT(c, ",\"mutex\":");
		put_id(c, ev->aux);
		PUT(c, "}}");
		break;
	case SG_EV_SEM_WAIT_BEGIN:
		PUT(c, ",\"cat\":\"sem\",\"name\":\"sem wait\"");
		put_object_arg(c, ev);
		if (ev->aux & SG_SEM_TRY)
			PUT(c, ",\"try\":true");
		if (ev->aux & SG_SEM_TIMED)
			PUT(c, ",\"timed\":true");
		PUT(c, "}}");
		break;
	case SG_EV_SWITCH_OUT:
		if (ev->aux & SG_SWITCH_PREEMPTED)
			PUT(c, ",\"cat\":\"sched\",\"name\":\"off CPU (runnable)\"");
		else
			PUT(c, ",\"cat\":\"sched\",\"name\":\"off CPU (blocked)\"");
		PUT(c, ",\"args\":{\"cpu\":");
		put_u64(c, SG_SWITCH_CPU(ev->aux));
		if (ev->value)
			PUT(c, ",\"fitted\":true");
		PUT(c, "}}");
		break;
	case SG_EV_CREATE_BEGIN:
		PUT(c, ",\"cat\":\"create\",\"name\":\"thread create\"}");
		break;
	default: /* SG_EV_JOIN_BEGIN */
		PUT(c, ",\"cat\":\"join\",\"name\":\"join wait\",\"args\":{\"thread\":");
		put_id(c, ev->id);
		PUT(c, "}}");
		break;
	}
	return c->err ? -EIO : 0;
}

static int on_end(void *ctx, size_t pos, const struct export_slice *s, const struct sgr_event *ev,
		  int repaired)
{
	struct chrome *c = ctx;
	head(c, 'E', pos, ev);
	switch (s->begin) {
	case SG_EV_FUNC_ENTER: PUT(c, ",\"cat\":\"function\""); break;
	case SG_EV_REGION_BEGIN: PUT(c, ",\"cat\":\"region\""); break;
	case SG_EV_BARRIER_ARRIVE: PUT(c, ",\"cat\":\"barrier\""); break;
	case SG_EV_COND_WAIT_BEGIN: PUT(c, ",\"cat\":\"cond\""); break;
	case SG_EV_JOIN_BEGIN: PUT(c, ",\"cat\":\"join\""); break;
	case SG_EV_SEM_WAIT_BEGIN:
		PUT(c, ",\"cat\":\"sem\"");
		if (!repaired) {
			char buf[32];
			const char *r = export_sem_result(ev->aux, buf, sizeof buf);
			PUT(c, ",\"args\":{\"result\":\"");
			put(c, r, strlen(r));
			PUT(c, "\"}");
		}
		break;
	case SG_EV_SWITCH_OUT:
		if (ev->aux == SG_NO_ID) {
			PUT(c, ",\"cat\":\"sched\",\"args\":{\"cut\":true}");
		} else {
			PUT(c, ",\"cat\":\"sched\",\"args\":{\"cpu\":");
			put_u64(c, SG_SWITCH_CPU(ev->aux));
			PUT(c, "}");
		}
		break;
	case SG_EV_LOCK_REQUEST:
		if (repaired)
			PUT(c, ",\"cat\":\"lock\"");
		else if (ev->kind == SG_EV_LOCK_ACQUIRED)
			PUT(c, ",\"cat\":\"lock\",\"args\":{\"result\":\"acquired\"}");
		else
			PUT(c, ",\"cat\":\"lock\",\"args\":{\"result\":\"failed\"}");
		break;
	default: /* SG_EV_CREATE_BEGIN */
		PUT(c, ",\"cat\":\"create\"");
		if (!repaired) {
			PUT(c, ",\"args\":{\"child\":");
			put_id(c, ev->id);
			PUT(c, ",\"rc\":");
			put_u64(c, ev->aux);
			PUT(c, "}");
		}
		break;
	}
	if (repaired)
		PUT(c, ",\"args\":{\"repaired\":true}}");
	else
		PUT(c, "}");
	return c->err ? -EIO : 0;
}

/* The instants that name a sync object: lock acquired/release, cond signal/broadcast. */
static void put_instant_object(struct chrome *c, const struct sgr_event *ev)
{
	const char *what;
	switch (ev->kind) {
	case SG_EV_LOCK_ACQUIRED: what = ",\"cat\":\"lock\",\"name\":\"lock acquired\""; break;
	case SG_EV_LOCK_RELEASE: what = ",\"cat\":\"lock\",\"name\":\"lock release\""; break;
	case SG_EV_COND_SIGNAL: what = ",\"cat\":\"cond\",\"name\":\"cond signal\""; break;
	default: what = ",\"cat\":\"cond\",\"name\":\"cond broadcast\""; break;
	}
	put(c, what, strlen(what));
	put_object_arg(c, ev);
	PUT(c, "}}");
}

static int on_point(void *ctx, size_t pos, const struct sgr_event *ev)
{
	struct chrome *c = ctx;
	const char *nm;
	if (ev->kind == SG_EV_TASK_CPU || ev->kind == SG_EV_TASK_DELAY) {
		head(c, 'C', pos, ev);
		if (ev->kind == SG_EV_TASK_CPU)
			PUT(c, ",\"cat\":\"sched\",\"name\":\"CPU time [ns] (thread ");
		else
			PUT(c, ",\"cat\":\"sched\",\"name\":\"run delay [ns] (thread ");
		put_u64(c, ev->thread);
		PUT(c, ")\",\"args\":{\"value\":");
		put_i64(c, ev->value);
		PUT(c, "}}");
		return c->err ? -EIO : 0;
	}
	if (ev->kind == SG_EV_COUNTER) {
		nm = name_of(c, SPACE_COUNTER, ev->id);
		if (!nm)
			return -ENOMEM;
		head(c, 'C', pos, ev);
		PUT(c, ",\"cat\":\"counter\",\"name\":");
		put(c, nm, strlen(nm));
		PUT(c, " (thread ");
		put_u64(c, ev->thread);
		PUT(c, ")\",\"args\":{\"value\":");
		put_i64(c, ev->value);
		PUT(c, "}}");
		return c->err ? -EIO : 0;
	}
	head(c, 'i', pos, ev);
	PUT(c, ",\"s\":\"t\"");
	switch (ev->kind) {
	case SG_EV_THREAD_BEGIN:
		PUT(c, ",\"cat\":\"thread\",\"name\":\"thread begin\",\"args\":{\"parent\":");
		put_id(c, ev->aux);
		PUT(c, "}}");
		break;
	case SG_EV_THREAD_END:
		PUT(c, ",\"cat\":\"thread\",\"name\":\"thread end\"}");
		break;
	case SG_EV_SEM_POST:
		PUT(c, ",\"cat\":\"sem\",\"name\":\"sem post\"");
		put_object_arg(c, ev);
		if (ev->aux) {
			PUT(c, ",\"errno\":");
			put_u64(c, ev->aux);
		}
		PUT(c, "}}");
		break;
	case SG_EV_SEM_INIT:
		PUT(c, ",\"cat\":\"sem\",\"name\":\"sem init\"");
		put_object_arg(c, ev);
		PUT(c, ",\"value\":");
		put_u64(c, ev->aux);
		PUT(c, "}}");
		break;
	default:
		put_instant_object(c, ev);
		break;
	}
	return c->err ? -EIO : 0;
}

/* {"ph":"M","pid":P,"tid":T,"name":"NAME","args":{  — a metadata event up to its args. */
static void meta_head(struct chrome *c, uint32_t tid, const char *name)
{
	if (!c->first)
		PUT(c, ",\n");
	c->first = 0;
	PUT(c, "{\"ph\":\"M\",\"pid\":");
	put_u64(c, c->pid);
	PUT(c, ",\"tid\":");
	put_u64(c, tid);
	PUT(c, ",\"name\":\"");
	put(c, name, strlen(name));
	PUT(c, "\",\"args\":{");
}

/* Process and thread names (metadata events, "ph":"M"). */
static void put_metadata(struct chrome *c)
{
	char text[128];
	meta_head(c, 0, "process_name");
	snprintf(text, sizeof text, "scalegraph trace of pid %" PRIu32, c->pid);
	PUT(c, "\"name\":");
	put_json(c, text);
	PUT(c, "}}");
	for (size_t i = 0; i < sgr_n_threads(c->t); i++) {
		const struct sgr_thread *th = sgr_thread(c->t, i);
		export_thread_name(th, text, sizeof text);
		meta_head(c, th->index, "thread_name");
		PUT(c, "\"name\":");
		put_json(c, text);
		PUT(c, "}}");
		meta_head(c, th->index, "thread_sort_index");
		PUT(c, "\"sort_index\":");
		put_u64(c, th->index);
		PUT(c, "}}");
	}
}

/* "sched": how the sched stream was recorded and what became of it (null without one). */
static void put_sched(struct chrome *c)
{
	const struct sgr_sched *sc = sgr_sched(c->t);
	PUT(c, ",\"sched\":");
	if (!sc->defined && !sc->present) {
		PUT(c, "null");
		return;
	}
	PUT(c, "{\"recorded\":");
	put_json(c, sc->text);
	put_str(c, sc->unavailable ? ",\"available\":false" : ",\"available\":true");
	put_str(c, c->no_sched ? ",\"exported\":false" : ",\"exported\":true");
	PUT(c, ",\"off_cpu\":");
	put_u64(c, c->st->n_off_cpu);
	PUT(c, ",\"off_cpu_fitted\":");
	put_u64(c, c->st->n_off_fitted);
	PUT(c, ",\"off_cpu_cut\":");
	put_u64(c, c->st->n_off_cut);
	PUT(c, ",\"off_cpu_dropped\":");
	put_u64(c, c->st->n_off_dropped);
	PUT(c, ",\"records_of_untraced_threads\":");
	put_u64(c, c->st->n_sched_foreign);
	PUT(c, ",\"switches_lost\":");
	put_u64(c, c->st->n_sched_lost);
	PUT(c, "}");
}

/* "processes": the processes of a multi-process trace, the exported one marked. */
static void put_processes(struct chrome *c)
{
	size_t n = sgr_n_processes(c->t);
	if (n < 2)
		return;
	PUT(c, ",\"processes\":[");
	for (size_t i = 0; i < n; i++) {
		const struct sgr_process *p = sgr_process(c->t, i);
		put_str(c, i ? ",{\"pid\":" : "{\"pid\":");
		put_u64(c, p->pid);
		PUT(c, ",\"parent_pid\":");
		put_u64(c, p->parent_pid);
		PUT(c, ",\"dir\":");
		put_json(c, p->dir);
		put_str(c, p->read ? ",\"exported\":true}" : ",\"exported\":false}");
	}
	PUT(c, "]");
}

/* "otherData": where the trace came from, what was unreadable or unavailable. */
static void put_other(struct chrome *c, const char *source)
{
	const struct sgr_info *in = sgr_info(c->t);
	PUT(c, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"scalegraph "
	    "export\",\"source\":");
	put_json(c, source);
	PUT(c, ",\"clock\":");
	if (in->clock == SGF_CLOCK_TSC)
		PUT(c, "\"tsc\"");
	else
		PUT(c, "\"ns\"");
	PUT(c, ",\"epoch_monotonic_ns\":");
	put_u64(c, in->epoch_ns);
	PUT(c, ",\"events\":");
	put_u64(c, c->st->n_read);
	PUT(c, ",\"repaired\":");
	put_u64(c, c->st->n_repaired);
	PUT(c, ",\"dropped\":");
	put_u64(c, c->st->n_dropped);
	put_sched(c);
	put_processes(c);
	PUT(c, ",\"problems\":[");
	for (size_t i = 0; i < sgr_n_problems(c->t); i++) {
		if (i)
			PUT(c, ",");
		put_json(c, sgr_problem(c->t, i));
	}
	PUT(c, "],\"counters_unavailable\":{");
	int any = 0;
	if (in->counters_off) {
		PUT(c, "\"*\":");
		put_json(c, in->counters_off);
		any = 1;
	}
	for (size_t i = 0; i < sgr_n_counters(c->t); i++) {
		const struct sgr_counter *k = sgr_counter_at(c->t, i);
		if (!k->unavailable)
			continue;
		if (any)
			PUT(c, ",");
		any = 1;
		put_json(c, k->name);
		PUT(c, ":");
		put_json(c, k->unavailable);
	}
	PUT(c, "}}}\n");
}

int export_chrome(struct sgr_trace *t, FILE *out, const char *source, unsigned flags,
		  struct export_stats *st, char *err, size_t errlen)
{
	static const struct export_ops ops = { on_begin, on_end, on_point };
	struct chrome c = { .t = t, .f = out, .first = 1, .pid = sgr_info(t)->pid, .st = st,
			    .no_sched = (flags & EXPORT_NO_SCHED) != 0 };
	int rc = 0;
	c.buf = malloc(BUF_BYTES);
	if (!c.buf) {
		rc = -ENOMEM;
		goto out;
	}
	PUT(&c, "{\"traceEvents\":[\n");
	put_metadata(&c);
	rc = export_walk(t, &ops, &c, flags, st);
	if (rc)
		goto out;
	put_other(&c, source);
	flush(&c);
	if (c.err || fflush(out) != 0)
		rc = -EIO;
out:
	if (rc == -EIO)
		snprintf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	else if (rc)
		snprintf(err, errlen, "%s", strerror(-rc));
	for (size_t i = 0; i < c.n_name; i++)
		free(c.name[i]);
	free(c.name);
	export_map_free(&c.names);
	free(c.buf);
	return rc;
}
