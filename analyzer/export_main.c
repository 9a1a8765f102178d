/*
 * export_main.c — `scalegraph export --otf2 RUN DIR | --chrome RUN FILE.json`: the command
 * around export.h. Finds the trace of RUN, exports everything readable, reports damage as
 * "TRACE/FILE: chunk K: reason" lines on stderr and says what it wrote.
 *
 * Exit status: 0 exported (possibly with damage reported), 1 nothing readable or the output
 * could not be written, 2 usage error or RUN missing / holding no trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: scalegraph export --otf2 RUN DIR\n"
		"       scalegraph export --chrome RUN FILE.json\n\n"
		"Exports the trace of one run for other tools.\n"
		"  --otf2     writes DIR/traces.otf2 (+ traces.def, traces/): OTF2 for Vampir,\n"
		"             Scalasca and otf2-print; DIR is created, an existing archive in it\n"
		"             is not overwritten\n"
		"  --chrome   writes FILE.json (\"-\": stdout): the Chrome trace-event format for\n"
		"             Perfetto (ui.perfetto.dev) and chrome://tracing\n"
		"  --no-verify  skip payload checksums\n"
		"  --quiet    no closing line on stderr\n\n"
		"RUN is a run directory of an experiment store (runs/ID/, whose trace is in\n"
		"trace/) or a trace directory (sgtrace.PID/). Damaged or truncated traces: what is\n"
		"readable is exported, each problem reported as TRACE/FILE: chunk K: reason.\n"
		"The mapping of events to each format is described in docs/export.md.\n\n"
		"exit status: 0 exported, 1 nothing readable or output error, 2 usage error or\n"
		"RUN missing or without a trace\n");
}

static int run_export(int otf2, const char *run, const char *out, unsigned flags, int quiet)
{
	char dir[4096], err[1024];
	struct sgr_trace *t = NULL;
	struct export_stats st;
	FILE *f = NULL;
	int rc = export_locate(run, dir, sizeof dir, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "scalegraph-export: error: %s\n", err);
		return 2;
	}
	if (sgr_open(dir, flags, &t, err, sizeof err) < 0) {
		fprintf(stderr, "scalegraph-export: error: %s\n", err);
		return 1;
	}
	if (otf2) {
		rc = export_otf2(t, out, run, &st, err, sizeof err);
	} else {
		f = strcmp(out, "-") ? fopen(out, "w") : stdout;
		if (!f) {
			fprintf(stderr, "scalegraph-export: error: %s: %s\n", out, strerror(errno));
			sgr_close(t);
			return 1;
		}
		rc = export_chrome(t, f, run, &st, err, sizeof err);
		if (f != stdout && fclose(f) != 0 && !rc) {
			rc = -EIO;
			snprintf(err, sizeof err, "%s: %s", out, strerror(errno));
		}
	}
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		fprintf(stderr, "%s/%s\n", dir, sgr_problem(t, i));
	if (rc < 0) {
		fprintf(stderr, "scalegraph-export: error: %s\n", err);
		rc = 1;
	} else if (st.n_read == 0) {
		fprintf(stderr, "scalegraph-export: error: %s: no readable event\n", dir);
		rc = 1;
	} else if (!quiet) {
		fprintf(stderr, "scalegraph-export: %s: %" PRIu64 " events of %zu threads -> %"
			PRIu64 " %s records in %s", dir, st.n_read, sgr_n_threads(t), st.n_written,
			otf2 ? "OTF2" : "JSON", out);
		if (st.n_repaired || st.n_dropped)
			fprintf(stderr, " (%" PRIu64 " unclosed slices closed, %" PRIu64
				" unmatched ends dropped)", st.n_repaired, st.n_dropped);
		fprintf(stderr, "\n");
	}
	sgr_close(t);
	return rc;
}

int main(int argc, char **argv)
{
	int otf2 = -1, quiet = 0;
	unsigned flags = 0;
	const char *args[2];
	int n_args = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--otf2") || !strcmp(argv[i], "--chrome")) {
			if (otf2 >= 0) {
				fprintf(stderr, "scalegraph-export: error: give one of --otf2 and "
					"--chrome\n");
				return 2;
			}
			otf2 = !strcmp(argv[i], "--otf2");
		} else if (!strcmp(argv[i], "--no-verify")) {
			flags |= SGR_NO_VERIFY;
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = 1;
		} else if ((argv[i][0] == '-' && strcmp(argv[i], "-")) || n_args == 2) {
			fprintf(stderr, "scalegraph-export: error: unexpected argument '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		} else {
			args[n_args++] = argv[i];
		}
	}
	if (otf2 < 0 || n_args != 2) {
		fprintf(stderr, "scalegraph-export: error: %s\n", otf2 < 0 ?
			"no format given (--otf2 or --chrome)" : "expected RUN and an output");
		usage(stderr);
		return 2;
	}
	return run_export(otf2, args[0], args[1], flags, quiet);
}
