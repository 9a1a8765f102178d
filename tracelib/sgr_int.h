/*
 * sgr_int.h — the reader's internal state, shared by its files: sgr_defs.c (definitions),
 * sgr_clock.c (clock pairs and the fit), sgr_stream.c (mapping streams, walking chunks,
 * iteration), sgr_file.c (opening files) and sgr_open.c.
 */
#ifndef SGR_INT_H
#define SGR_INT_H

#include <pthread.h>
#include <sys/stat.h>

#include "sgf_int.h"
#include "sgtrace_read.h"

/* A chunk's state, set once, the first time a cursor reaches it: OK, BAD (its payload checksum
 * fails: not read), or FIXED: some of its records are out of time order and are left out, the
 * others read from a copy (sgr_stream.c, chunk_order). */
enum { CHUNK_UNCHECKED = 0, CHUNK_OK = 1, CHUNK_BAD = 2, CHUNK_FIXED = 3 };

struct sgr_chunk {
	const struct sgf_chunk_header *h;  /* in the mapped file; records follow */
	int state;                          /* CHUNK_*, read and written atomically */
	uint32_t n_fixed;                   /* CHUNK_FIXED: the records kept, in `fixed` */
	const struct sg_event_rec *fixed;   /* CHUNK_FIXED: a copy of those (owned) */
	const struct sg_event_rec *dec;     /* a compact chunk (format 1.6): its records decoded,
					       once checked (in the stream's dec_arena) */
	uint64_t dec_off;                   /* where in dec_arena (records) */
	int dec_state;                      /* DEC_*: decoded once, by one reader */
	uint8_t pair_off;                   /* its clock pair is off the line of the others
					       (sgr_clock.c): not a bound of its records */
	uint8_t recovered;                  /* read back from a killed writer's open buffer: its
					       pair is the chunk's start, not its end */
};

struct sgr_stream {
	struct sgr_thread th;
	char file[64];
	const unsigned char *map;
	size_t size;
	struct sgr_chunk *chunks;
	size_t n_chunks;
	void *open_copy;                   /* a chunk read back from the open buffer (sgr_status.c) */
	struct sg_event_rec *dec_arena;    /* the decoded records of its compact chunks, mapped
					      at the first one decoded (huge pages where the
					      kernel gives them: a fault per 2 MiB, not per 4 KiB) */
	uint64_t dec_total;                /* records of its compact chunks: dec_arena's size */
	uint32_t dec_max;                  /* records of its largest compact chunk */
	struct sg_event_rec *dec_one;      /* SGR_RELEASE: the one chunk's decoded records
					      (dec_max of them, reused chunk after chunk) */
	struct sgr_chunk *dec_one_of;      /* the chunk decoded there now, or NULL */
	uint32_t n_order_lines;            /* problem lines written for chunks out of time order
					      (atomically: the first few are named) */
};

/* Where a clock pair came from, for the problem line that rejects it. */
#define SGR_PAIR_EPOCH   UINT32_MAX         /* (0, epoch_ns) of defs.sgd's header */
#define SGR_PAIR_DEFS    (UINT32_MAX - 1)   /* a CLOCK definition */
#define SGR_PAIR_TRAILER UINT64_MAX         /* seq of a stream's trailer pair */

struct sgr_pair {
	uint64_t ticks, ns;
	uint32_t src;                      /* stream position, or SGR_PAIR_EPOCH / _DEFS */
	uint32_t order;                    /* order added (ties keep the first, as ever) */
	uint64_t seq;                      /* chunk of the stream, or SGR_PAIR_TRAILER */
};

struct sgr_trace {
	char *dir;                         /* the process directory read */
	char *root;                        /* the directory given to sgr_open */
	struct sgr_process *procs;         /* the processes found under root */
	size_t n_procs;
	struct sgr_sched sched;            /* the sched stream's summary (format 1.2) */
	struct sgr_stream *sched_stream;   /* NULL without sched.sgs */
	unsigned flags;
	struct sgr_info info;
	char *counters_off;
	char *stopped;                     /* SGF_DEF_STOPPED's text (format 1.5), or NULL */
	uint64_t stopped_ticks;
	int stopped_errno;
	struct sgr_function *funcs;
	size_t n_funcs;
	struct sgr_region *regions;
	size_t n_regions;
	struct sgr_object *objects;
	size_t n_objects;
	struct sgr_counter *counters;
	size_t n_counters;
	struct sgr_site *sites;            /* format 1.4 */
	size_t n_sites;
	struct sgr_site_pc *site_pcs;      /* format 1.6: the SITE_PC definitions, resolved into
					      `sites` once read (sgr_resolve.c) */
	size_t n_site_pcs;
	struct sgr_stream *streams;        /* sorted by thread index */
	size_t n_streams;
	struct sgr_pair *pairs;            /* every clock pair, for the fit (sgr_clock.c) */
	size_t n_pairs, cap_pairs;
	int pairs_nomem;                   /* a pair could not be kept (out of memory) */
	struct sgr_status_index *status_index;  /* threads.sgo's slots (sgr_status.c), while
						    the streams load */
	pthread_mutex_t lock;              /* guards problems */
	char **problems;
	size_t n_problems, cap_problems;
};

/* A call site known by its return address (SGF_DEF_SITE_PC). */
struct sgr_site_pc {
	uint32_t id;
	uint64_t addr;             /* return address in the object's own numbering */
	char *obj;                 /* the object's path, "" when the library did not know it */
	char *build_id;            /* hex, "" when none */
};

/* Fills in the file, line and function of the sites defined by SITE_PC (sgr_resolve.c):
 * addr2line on the object named, or a "(not resolved: why)" name. */
void sgr_sites_resolve(struct sgr_trace *t);

/* Appends a problem line (printf format). Thread-safe. */
void sgr_problem_add(struct sgr_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Takes a clock pair into account for the fit: src and seq say where it came from. */
void sgr_pair_add(struct sgr_trace *t, uint64_t ticks, uint64_t ns, uint32_t src, uint64_t seq);
/* Checks the clock pairs against each other, reports and drops the outliers, and sets
 * t->info's conversion from ticks to ns (sgr_clock.c). */
void sgr_clock_fit(struct sgr_trace *t);

/* Opens a file of the trace for reading: never blocks (O_NONBLOCK), never follows a link, and
 * fails unless it is a regular file. Returns the fd (with *st filled) or -errno with `why` set
 * to the reason, "not a regular file (a FIFO)" (sgr_file.c). */
int sgr_file_open(const char *path, struct stat *st, char *why, size_t whylen);
/* "a FIFO", "a directory", ... for a st_mode. */
const char *sgr_file_kind(mode_t mode);

/* Reads defs.sgd: info, definitions, thread definitions (creates their streams). 0 or -errno,
 * with a message in err. */
int sgr_defs_read(struct sgr_trace *t, char *err, size_t errlen);

/* Finds the stream of thread `index`, creating an empty one when `create`. NULL on ENOMEM or
 * when absent. */
struct sgr_stream *sgr_stream_get(struct sgr_trace *t, uint32_t index, int create);

/* Adds a stream for each of the n thread indices idx (sorted, unique) that has none yet, in one
 * merge (a defs file or directory with many threads in any order reads in O(n log n)). 0 or
 * -ENOMEM. */
int sgr_streams_add(struct sgr_trace *t, const uint32_t *idx, size_t n);

/* Maps every stream file of the directory and walks its chunk headers. 0 or -errno. */
int sgr_streams_load(struct sgr_trace *t);
/* The stream at cursor position pos: a thread's, or the sched stream (SGR_POS_SCHED). */
struct sgr_stream *sgr_stream_at(struct sgr_trace *t, size_t pos);
/* The stream's open buffer file (sgr_status.c): before the walk, the write error it records
 * (write_errno, lost, a problem line); after it, a killed writer's last chunk read back into
 * s->chunks. 0 or -ENOMEM. */
void sgr_status_errors(struct sgr_trace *t, struct sgr_stream *s);
int sgr_status_recover(struct sgr_trace *t, struct sgr_stream *s);
void sgr_status_free(struct sgr_trace *t);
/* Finds the processes under t->root, picks the one to read and sets t->dir. 0 or -errno. */
int sgr_procs_find(struct sgr_trace *t, char *err, size_t errlen);
void sgr_procs_free(struct sgr_trace *t);
void sgr_streams_free(struct sgr_trace *t);

/* The chunk numbered seq of the stream at position pos (not the sched stream), NULL when it has
 * none: for the clock fit to mark a chunk whose pair it left out (pair_off). */
struct sgr_chunk *sgr_chunk_of(struct sgr_trace *t, uint32_t pos, uint64_t seq);

/* Grows an array *p of *cap elements of `size` bytes to hold n+1. 0 or -ENOMEM. */
int sgr_grow(void *p, size_t *cap, size_t n, size_t size);

#endif /* SGR_INT_H */
