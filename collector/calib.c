/*
 * calib.c — the measurements of `scalegraph calibrate` (calib.h). Each one is short and
 * repeated enough to be stable: timer costs over 10^6 calls, the uncontended mutex over 10^6
 * lock/unlock pairs, barrier rounds over a fixed count per thread number, and the miss latency
 * by chasing a random cyclic permutation of cache lines through a buffer at least twice the
 * last-level cache (so nearly every load misses; huge pages requested to keep TLB misses out).
 */
#include "calib.h"
#include "fsutil.h"
#include "sgtrace_read.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void calib_identify(struct calib *c)
{
	struct utsname u;
	char line[512];
	snprintf(c->cpu_model, sizeof c->cpu_model, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "re");
	while (f && fgets(line, sizeof line, f)) {
		if (!strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');
			if (v) {
				v += 1 + (v[1] == ' ');
				v[strcspn(v, "\n")] = '\0';
				snprintf(c->cpu_model, sizeof c->cpu_model, "%s", v);
			}
			break;
		}
	}
	if (f)
		fclose(f);
	snprintf(c->kernel, sizeof c->kernel, "%s", uname(&u) == 0 ? u.release : "unknown");
	c->n_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(c->key, sizeof c->key, "v%d|%s|%s", CALIB_VERSION, c->cpu_model, c->kernel);
}

static void measure_tsc(struct calib *c)
{
#if HAVE_TSC
	unsigned a, b, cc, d;
	c->invariant_tsc = __get_cpuid(0x80000007, &a, &b, &cc, &d) ? (int)((d >> 8) & 1) : 0;
	double t0 = now_s();
	uint64_t k0 = __rdtsc();
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	nanosleep(&nap, NULL);
	double t1 = now_s();
	uint64_t k1 = __rdtsc();
	c->tsc_hz = (double)(k1 - k0) / (t1 - t0);
	enum { N = 1000000 };
	volatile uint64_t sink = 0;
	t0 = now_s();
	for (int i = 0; i < N; i++)
		sink += __rdtsc();
	c->rdtsc_ns = (now_s() - t0) * 1e9 / N;
	(void)sink;
#else
	c->invariant_tsc = -1;
	c->tsc_hz = 0;
	c->rdtsc_ns = 0;
#endif
}

static void measure_clock(struct calib *c)
{
	enum { N = 1000000 };
	struct timespec ts;
	double t0 = now_s();
	for (int i = 0; i < N; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	c->clock_gettime_ns = (now_s() - t0) * 1e9 / N;
}

static void measure_mutex(struct calib *c)
{
	enum { N = 1000000 };
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	double t0 = now_s();
	for (int i = 0; i < N; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	c->mutex_ns = (now_s() - t0) * 1e9 / N;
	pthread_mutex_destroy(&m);
}

struct barrier_arg {
	pthread_barrier_t *b;
	int rounds;
};

static void *barrier_worker(void *p)
{
	struct barrier_arg *a = p;
	for (int i = 0; i < a->rounds; i++)
		pthread_barrier_wait(a->b);
	return NULL;
}

/* Mean time of one round of a barrier of `n` threads (the caller is one of them). */
static int measure_barrier(int n, double *ns)
{
	enum { ROUNDS = 2000 };
	pthread_barrier_t b;
	pthread_t t[8];
	struct barrier_arg a = { &b, ROUNDS };
	int rc = pthread_barrier_init(&b, NULL, (unsigned)n);
	if (rc)
		return -rc;
	int started = 0;
	for (; started < n - 1; started++) {
		rc = pthread_create(&t[started], NULL, barrier_worker, &a);
		if (rc)
			break;
	}
	if (rc) {
		/* Cannot run the rounds with fewer threads: the barrier would never open. */
		for (int i = 0; i < started; i++)
			pthread_cancel(t[i]);
		for (int i = 0; i < started; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&b);
		return -rc;
	}
	pthread_barrier_wait(&b); /* everyone started */
	double t0 = now_s();
	for (int i = 1; i < ROUNDS; i++)
		pthread_barrier_wait(&b);
	*ns = (now_s() - t0) * 1e9 / (ROUNDS - 1);
	for (int i = 0; i < n - 1; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&b);
	return 0;
}

static size_t llc_size(void)
{
	size_t best = 0;
	int best_level = 0;
	for (int i = 0; i < 8; i++) {
		char path[128], buf[64];
		int level = 0;
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof buf, f)) {
			char *end;
			unsigned long long v = strtoull(buf, &end, 10);
			if (*end == 'K')
				v <<= 10;
			else if (*end == 'M')
				v <<= 20;
			if (level >= best_level) {
				best_level = level;
				best = (size_t)v;
			}
		}
		fclose(f);
	}
	return best;
}

/* Sattolo's algorithm: a random permutation that is a single cycle, so the chase visits every
 * line before it repeats. xorshift keeps it reproducible and fast. */
static int measure_miss(struct calib *c)
{
	enum { LINE = 64 };
	c->llc_bytes = llc_size();
	size_t bytes = c->llc_bytes * 2;
	if (bytes < ((size_t)64 << 20))
		bytes = (size_t)64 << 20;
	if (bytes > ((size_t)512 << 20))
		bytes = (size_t)512 << 20;
	c->chase_bytes = bytes;
	size_t n = bytes / LINE;
	char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	madvise(buf, bytes, MADV_HUGEPAGE);
	uint32_t *perm = malloc(n * sizeof *perm);
	if (!perm) {
		munmap(buf, bytes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t j = (size_t)(x % i);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	/* line perm[i] points to line perm[i+1]: one cycle through all lines */
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + (size_t)perm[i] * LINE) = buf + (size_t)perm[(i + 1) % n] * LINE;
	free(perm);
	void **p = (void **)buf;
	for (size_t i = 0; i < n; i++) /* warm the TLB and page tables */
		p = *p;
	size_t steps = n * 2;
	double t0 = now_s();
	for (size_t i = 0; i < steps; i++)
		p = *p;
	c->miss_ns = (now_s() - t0) * 1e9 / (double)steps;
	__asm__ volatile("" : : "r"(p));
	munmap(buf, bytes);
	return 0;
}

static void probe_counters(struct calib *c)
{
	struct pmu_event_list list;
	char err[128];
	if (pmu_events_parse(PMU_DEFAULT_EVENTS, &list, err, sizeof err) < 0)
		list.n = 0;
	pmu_probe_events(&list, c->counter);
	c->n_counters = list.n;
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", (long)syscall(SYS_gettid));
	c->schedstat = access(path, R_OK) == 0;
}

int calib_measure(struct calib *c)
{
	static const int threads[CALIB_N_BARRIER] = { 1, 2, 4 };
	double t0 = now_s();
	int rc = 0;
	memset(c, 0, sizeof *c);
	calib_identify(c);
	measure_tsc(c);
	measure_clock(c);
	measure_mutex(c);
	for (int i = 0; i < CALIB_N_BARRIER; i++) {
		c->barrier_threads[i] = threads[i];
		rc = measure_barrier(threads[i], &c->barrier_ns[i]);
		if (rc < 0)
			goto out;
	}
	rc = measure_miss(c);
	if (rc < 0)
		goto out;
	probe_counters(c);
	calib_record_cost(c);
	c->seconds = now_s() - t0;
out:
	return rc;
}

/* Appends `s` as a JSON string: the tools' one JSON string writer (tracelib/sgr_json.c), valid
 * UTF-8 whatever the bytes (a CPU model or kernel name is data from elsewhere). */
static void json_str(FILE *f, const char *s)
{
	sgr_json_fput(f, s);
}

int calib_to_json(const struct calib *c, char **json)
{
	size_t len;
	FILE *f = open_memstream(json, &len);
	if (!f)
		return -errno;
	fprintf(f, "{\n  \"key\": ");
	json_str(f, c->key);
	fprintf(f, ",\n  \"cpu_model\": ");
	json_str(f, c->cpu_model);
	fprintf(f, ",\n  \"kernel\": ");
	json_str(f, c->kernel);
	fprintf(f, ",\n  \"n_cpus\": %d,\n  \"invariant_tsc\": %s,\n  \"tsc_hz\": %.0f,\n"
		   "  \"rdtsc_ns\": %.2f,\n  \"clock_gettime_ns\": %.2f,\n"
		   "  \"mutex_lock_unlock_ns\": %.2f,\n  \"barrier_round_ns\": {",
		c->n_cpus, c->invariant_tsc < 0 ? "null" : c->invariant_tsc ? "true" : "false",
		c->tsc_hz, c->rdtsc_ns, c->clock_gettime_ns, c->mutex_ns);
	for (int i = 0; i < CALIB_N_BARRIER; i++)
		fprintf(f, "%s\"%d\": %.1f", i ? ", " : "", c->barrier_threads[i], c->barrier_ns[i]);
	fprintf(f, "},\n  \"llc_bytes\": %zu,\n  \"chase_bytes\": %zu,\n  \"miss_latency_ns\": %.2f,\n"
		   "  \"schedstat\": %s,\n",
		c->llc_bytes, c->chase_bytes, c->miss_ns, c->schedstat ? "true" : "false");
	/* absent when not measured, with the reason: a reader that takes a number after the
	 * key (analyzer/an_exp.c) must not read 0 from a null */
	if (c->record_ns >= 0)
		fprintf(f, "  \"record_ns\": %.2f,\n  \"unrecorded_call_ns\": %.2f,\n",
			c->record_ns, c->unrecorded_call_ns);
	else {
		fprintf(f, "  \"record_cost_unavailable\": ");
		json_str(f, c->record_why);
		fprintf(f, ",\n");
	}
	fprintf(f, "  \"counters\": [");
	for (int i = 0; i < c->n_counters; i++) {
		const struct pmu_probe *p = &c->counter[i];
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, p->name);
		fprintf(f, ", \"kind\": \"%s\", \"available\": %s, \"reason\": ",
			p->hardware ? "hardware" : "software", p->available ? "true" : "false");
		if (p->available)
			fprintf(f, "null}");
		else {
			json_str(f, p->reason);
			fputc('}', f);
		}
	}
	fprintf(f, "\n  ],\n  \"calibrate_seconds\": %.2f\n}\n", c->seconds);
	if (fclose(f) != 0)
		return -ENOMEM;
	return 0;
}

void calib_print_table(const struct calib *c, FILE *f)
{
	fprintf(f, "%-28s %s\n", "CPU model", c->cpu_model);
	fprintf(f, "%-28s %s\n", "kernel", c->kernel);
	fprintf(f, "%-28s %d\n", "CPUs online", c->n_cpus);
	fprintf(f, "%-28s %s\n", "invariant TSC",
		c->invariant_tsc < 0 ? "no TSC" : c->invariant_tsc ? "yes" : "no");
	if (c->tsc_hz > 0)
		fprintf(f, "%-28s %.3f GHz\n", "TSC rate", c->tsc_hz * 1e-9);
	fprintf(f, "%-28s %.1f ns\n", "rdtsc", c->rdtsc_ns);
	fprintf(f, "%-28s %.1f ns\n", "clock_gettime(MONOTONIC)", c->clock_gettime_ns);
	fprintf(f, "%-28s %.1f ns\n", "mutex lock+unlock", c->mutex_ns);
	for (int i = 0; i < CALIB_N_BARRIER; i++) {
		char label[48];
		snprintf(label, sizeof label, "barrier round, %d thread%s%s", c->barrier_threads[i],
			 c->barrier_threads[i] > 1 ? "s" : "",
			 c->barrier_threads[i] > c->n_cpus ? "*" : "");
		fprintf(f, "%-28s %.2f us\n", label, c->barrier_ns[i] * 1e-3);
	}
	fprintf(f, "%-28s %.1f ns (chase over %zu MiB; LLC %zu KiB)\n", "memory miss latency",
		c->miss_ns, c->chase_bytes >> 20, c->llc_bytes >> 10);
	fprintf(f, "%-28s %s\n", "schedstat run-delay", c->schedstat ? "available" : "unavailable");
	if (c->record_ns >= 0) {
		fprintf(f, "%-28s %.1f ns per event (function probe, written out)\n", "trace record",
			c->record_ns);
		fprintf(f, "%-28s %.1f ns per call (throttled: counted, not recorded)\n",
			"unrecorded call", c->unrecorded_call_ns);
	} else {
		fprintf(f, "%-28s unavailable: %s\n", "trace record", c->record_why);
	}
	fprintf(f, "counters:\n");
	for (int i = 0; i < c->n_counters; i++)
		fprintf(f, "  %-36s %s%s\n", c->counter[i].name,
			c->counter[i].available ? "available" : "unavailable: ", c->counter[i].reason);
	for (int i = 0; i < CALIB_N_BARRIER; i++)
		if (c->barrier_threads[i] > c->n_cpus) {
			fprintf(f, "* oversubscribed: more threads than CPUs\n");
			break;
		}
}

int calib_cache_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_CACHE_HOME");
	int n;
	if (x && *x == '/')
		n = snprintf(buf, len, "%s/scalegraph/machine.json", x);
	else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return -ENOENT;
		n = snprintf(buf, len, "%s/.cache/scalegraph/machine.json", home);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int calib_cache_load(const char *key, char **json)
{
	char path[4096], k[sizeof ((struct calib *)0)->key];
	int rc = calib_cache_path(path, sizeof path);
	*json = NULL;
	if (rc < 0)
		return rc;
	FILE *f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	char *text = calloc(1, 65536);
	size_t n = text ? fread(text, 1, 65535, f) : 0;
	fclose(f);
	if (!text)
		return -ENOMEM;
	text[n] = '\0';
	if (calib_json_string(text, "key", k, sizeof k) < 0 || strcmp(k, key)) {
		free(text);
		return -ENOENT;
	}
	*json = text;
	return 0;
}

int calib_cache_save(const char *json)
{
	char path[4096], tmp[4200];
	int rc = calib_cache_path(path, sizeof path);
	if (rc < 0)
		return rc;
	rc = fs_mkdir_parents(path);
	if (rc < 0)
		return rc;
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	FILE *f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fputs(json, f);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		rc = -errno;
		unlink(tmp);
	}
	return rc;
}

/* Finds `"key":` at the top level of our own flat-ish JSON and returns the value's start. */
static const char *json_find(const char *json, const char *key)
{
	char pat[80];
	snprintf(pat, sizeof pat, "\n  \"%s\": ", key);
	const char *p = strstr(json, pat);
	return p ? p + strlen(pat) : NULL;
}

int calib_json_number(const char *json, const char *key, double *value)
{
	const char *p = json_find(json, key);
	char *end;
	if (!p)
		return -ENOENT;
	*value = strtod(p, &end);
	return end == p ? -ENOENT : 0;
}

int calib_json_string(const char *json, const char *key, char *buf, size_t len)
{
	const char *p = json_find(json, key);
	size_t o = 0;
	if (!p || *p != '"')
		return -ENOENT;
	for (p++; *p && *p != '"' && o + 1 < len; p++) {
		if (*p == '\\' && p[1])
			p++;
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return 0;
}
