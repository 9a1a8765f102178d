/*
 * compact_codec.c — what the compact chunk encoding (format 1.6, sgf.c) costs and saves on a
 * real trace: reads every stream of trace DIR through the reader (any format), then encodes each
 * chunk's records as libsgtrace does when it writes the chunk, and decodes them back as the
 * reader does, best of 5 passes each, timed with the thread's CPU clock (the machine is shared).
 * Prints bytes/event compact vs 16, and ns/event to encode and to decode, side by side.
 * Usage: compact_codec TRACE-DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgf_int.h"
#include "sgtrace_read.h"

struct chunk {
	struct sg_event_rec *recs;
	size_t n;
};

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int add_stream(struct sgr_trace *t, size_t pos, struct chunk **cs, size_t *n, size_t *cap)
{
	struct sgr_cursor c;
	struct sgr_span sp;
	sgr_cursor_init(&c, t, pos);
	while (sgr_cursor_next(&c, &sp)) {
		if (*n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			struct chunk *g = realloc(*cs, *cap * sizeof **cs);
			if (!g)
				return -1;
			*cs = g;
		}
		struct sg_event_rec *r = malloc((sp.n ? sp.n : 1) * sizeof *r);
		if (!r)
			return -1;
		memcpy(r, sp.recs, sp.n * sizeof *r);
		(*cs)[(*n)++] = (struct chunk){ r, sp.n };
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: compact_codec TRACE-DIR\n");
		return 2;
	}
	struct sgr_trace *t;
	char err[512];
	if (sgr_open(argv[1], 0, &t, err, sizeof err) < 0) {
		fprintf(stderr, "compact_codec: %s\n", err);
		return 1;
	}
	struct chunk *cs = NULL;
	size_t n_cs = 0, cap = 0, max_n = 0;
	uint64_t recs = 0;
	for (size_t i = 0; i < sgr_n_threads(t); i++)
		if (add_stream(t, i, &cs, &n_cs, &cap) < 0)
			return 1;
	if (add_stream(t, SGR_POS_SCHED, &cs, &n_cs, &cap) < 0)
		return 1;
	sgr_close(t);
	for (size_t k = 0; k < n_cs; k++) {
		recs += cs[k].n;
		max_n = cs[k].n > max_n ? cs[k].n : max_n;
	}
	size_t ccap = max_n * SGF_CT_REC_MAX + 32;
	unsigned char *buf = malloc(ccap);
	struct sg_event_rec *back_recs = malloc((max_n ? max_n : 1) * sizeof *back_recs);
	size_t *len = calloc(n_cs ? n_cs : 1, sizeof *len);
	unsigned char **enc = calloc(n_cs ? n_cs : 1, sizeof *enc);
	if (!buf || !back_recs || !len || !enc)
		return 1;
	double best_enc = 1e30, best_dec = 1e30;
	uint64_t bytes = 0;
	for (int pass = 0; pass < 5; pass++) {
		bytes = 0;
		double t0 = cpu_ns();
		for (size_t k = 0; k < n_cs; k++) {
			len[k] = sgf_compact_encode(cs[k].recs, cs[k].n, buf, ccap);
			bytes += len[k] + sizeof(struct sgf_chunk_header);
			if (pass == 0 && len[k]) {
				enc[k] = malloc(len[k]);
				if (!enc[k])
					return 1;
				memcpy(enc[k], buf, len[k]);
			}
		}
		double t1 = cpu_ns();
		for (size_t k = 0; k < n_cs; k++) {
			uint64_t b;
			if (len[k] && sgf_compact_decode(enc[k], len[k], back_recs, (uint32_t)cs[k].n,
							 &b) < 0) {
				fprintf(stderr, "compact_codec: chunk %zu does not decode\n", k);
				return 1;
			}
		}
		double t2 = cpu_ns();
		if (t1 - t0 < best_enc)
			best_enc = t1 - t0;
		if (t2 - t1 < best_dec)
			best_dec = t2 - t1;
	}
	uint64_t raw = recs * 16 + n_cs * sizeof(struct sgf_chunk_header);
	printf("records: %llu in %zu chunks\n", (unsigned long long)recs, n_cs);
	printf("bytes_per_event: %.2f compact vs %.2f 16-byte (chunk headers included)\n",
	       recs ? (double)bytes / (double)recs : 0, recs ? (double)raw / (double)recs : 0);
	printf("encode: %.2f ns/event (when a chunk is written)\n",
	       recs ? best_enc / (double)recs : 0);
	printf("decode: %.2f ns/event (when the reader first reaches a chunk)\n",
	       recs ? best_dec / (double)recs : 0);
	return 0;
}
