/*
 * otf2_read.c — the yardstick of the analyzer's speed target (DESIGN.md: the analysis of a real
 * trace at least 5x the OTF2 library's own reader with empty callbacks on the same events): reads
 * every event of an OTF2 archive (what `scalegraph export --otf2` wrote) through the library's
 * global event reader, all locations selected, no callback registered, and prints the events
 * read and the seconds it took (bench/analyzer-vs-otf2.sh times it beside `scalegraph report`).
 *
 * usage: otf2_read ARCHIVE/traces.otf2
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <otf2/otf2.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct locs {
	OTF2_LocationRef *v;
	size_t n, cap;
};

static OTF2_CallbackCode on_location(void *user, OTF2_LocationRef self, OTF2_StringRef name,
				     OTF2_LocationType type, uint64_t n_events,
				     OTF2_LocationGroupRef group)
{
	struct locs *L = user;
	if (L->n == L->cap) {
		size_t cap = L->cap ? 2 * L->cap : 64;
		OTF2_LocationRef *v = realloc(L->v, cap * sizeof *v);
		if (!v)
			return OTF2_CALLBACK_INTERRUPT;
		L->v = v;
		L->cap = cap;
	}
	L->v[L->n++] = self;
	return OTF2_CALLBACK_SUCCESS;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: otf2_read ARCHIVE/traces.otf2\n");
		return 2;
	}
	double t0 = now_s();
	OTF2_Reader *rd = OTF2_Reader_Open(argv[1]);
	if (!rd) {
		fprintf(stderr, "otf2_read: %s: cannot open\n", argv[1]);
		return 1;
	}
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	struct locs L = { 0 };
	uint64_t n_defs = 0, n_ev = 0;
	OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, on_location);
	OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, gcb, &L);
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n_defs);
	OTF2_Reader_CloseGlobalDefReader(rd, gd);
	for (size_t i = 0; i < L.n; i++)
		OTF2_Reader_SelectLocation(rd, L.v[i]);
	int defs = OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS;
	OTF2_Reader_OpenEvtFiles(rd);
	for (size_t i = 0; i < L.n; i++) {
		if (defs) {
			OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, L.v[i]);
			if (dr) {
				uint64_t n = 0;
				OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
				OTF2_Reader_CloseDefReader(rd, dr);
			}
		}
		OTF2_Reader_GetEvtReader(rd, L.v[i]);   /* the global reader reads through them */
	}
	if (defs)
		OTF2_Reader_CloseDefFiles(rd);
	OTF2_GlobalEvtReader *ge = OTF2_Reader_GetGlobalEvtReader(rd);
	OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
	OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ge, ecb, NULL);
	OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
	OTF2_ErrorCode ec = OTF2_Reader_ReadAllGlobalEvents(rd, ge, &n_ev);
	OTF2_Reader_CloseGlobalEvtReader(rd, ge);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);
	free(L.v);
	if (ec != OTF2_SUCCESS) {
		fprintf(stderr, "otf2_read: %s: %s\n", argv[1], OTF2_Error_GetName(ec));
		return 1;
	}
	printf("%llu events, %zu locations, %.3f s\n", (unsigned long long)n_ev, L.n, now_s() - t0);
	return 0;
}
