/*
 * calib.h — `scalegraph calibrate`: measures this machine once (CPU, TSC, timer and primitive
 * costs, memory miss latency, which counters open) and describes it as JSON. The description is
 * cached per user in $XDG_CACHE_HOME/scalegraph/machine.json (default ~/.cache/...), keyed by
 * CPU model and kernel, and saved into the store of every series. Private to collector/.
 */
#ifndef CALIB_H
#define CALIB_H

#include <stddef.h>
#include <stdio.h>

#include "pmu_open.h"

#define CALIB_N_BARRIER 3   /* barrier round cost at 1, 2 and 4 threads */
/* Part of the cache key: a description measured by an older calibrate lacks figures that a
 * newer one has (2: the record cost; 3: the throttled call measured with throttling in the
 * library — a version 2 description timed it recorded), so it is measured again. */
#define CALIB_VERSION 3

struct calib {
	char key[400];            /* "v<CALIB_VERSION>|cpu_model|kernel release" */
	char cpu_model[128];
	char kernel[128];
	int n_cpus;
	int invariant_tsc;        /* -1 unknown (not x86) */
	double tsc_hz;            /* 0 when there is no TSC */
	double rdtsc_ns;
	double clock_gettime_ns;
	double mutex_ns;          /* uncontended lock + unlock */
	int barrier_threads[CALIB_N_BARRIER];
	double barrier_ns[CALIB_N_BARRIER];   /* one round (all threads pass once) */
	size_t llc_bytes;         /* 0 when unknown */
	size_t chase_bytes;
	double miss_ns;           /* one dependent load missing every cache */
	int n_counters;
	struct pmu_probe counter[PMU_MAX_EVENTS];
	int schedstat;            /* /proc/self/task/TID/schedstat exists */
	double record_ns;         /* one recorded function-probe event; < 0: not measured */
	double unrecorded_call_ns; /* one throttled (counted, not recorded) call; < 0: not measured */
	char record_why[256];     /* why they were not measured */
	double seconds;           /* how long calibration took */
};

/* Identifies the machine: fills cpu_model, kernel, n_cpus and key. */
void calib_identify(struct calib *c);
/* Measures everything (well under 5 s). Returns 0 or -errno (out of memory, thread creation). */
int calib_measure(struct calib *c);
/* The cost of a trace record and of a throttled call, by running sg-calib-probe (beside this
 * program) linked with libsgtrace (calib_record.c). Not measured: both < 0 and the reason in
 * record_why. */
void calib_record_cost(struct calib *c);
/* Writes the description as one JSON object into a malloc'd string (*json, caller frees). */
int calib_to_json(const struct calib *c, char **json);
/* Human-readable table. */
void calib_print_table(const struct calib *c, FILE *f);

/* Path of the per-user cache file into `buf`. Returns 0 or -ENAMETOOLONG/-ENOENT (no HOME). */
int calib_cache_path(char *buf, size_t len);
/* Reads the cached JSON if it exists and its key matches this machine's; -ENOENT otherwise.
 * *json is malloc'd. */
int calib_cache_load(const char *key, char **json);
/* Writes the JSON to the cache (creating the directory, atomically by rename). */
int calib_cache_save(const char *json);

/* Reads a number or a string field of a top-level key from calibrate's own JSON.
 * Returns 0 or -ENOENT. */
int calib_json_number(const char *json, const char *key, double *value);
int calib_json_string(const char *json, const char *key, char *buf, size_t len);

#endif /* CALIB_H */
