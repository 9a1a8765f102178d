/*
 * export_main.c — `scalegraph export --otf2 RUN DIR | --chrome RUN FILE.json`: the command
 * around export.h. Finds the trace of RUN, exports everything readable (of a multi-process
 * trace its main process, naming the others on stderr), reports damage as
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
		"  --no-sched   leave out the sched stream: no off-CPU spans, no CPU time and\n"
		"             run delay samples\n"
		"  --no-verify  skip payload checksums\n"
		"  --quiet    no closing line on stderr\n\n"
		"RUN is a run directory of an experiment store (runs/ID/, whose trace is in\n"
		"trace/) or a trace directory (sgtrace-PROG-TIME-PID/, a root with one proc.PID/\n"
		"per process: its main process is exported and the others are named; export one\n"
		"of them by naming its directory). Damaged or truncated traces: what is\n"
		"readable is exported, each problem reported as TRACE/FILE: chunk K: reason.\n"
		"The mapping of events to each format is described in docs/export.md.\n\n"
		"exit status: 0 exported, 1 nothing readable or output error, 2 usage error or\n"
		"RUN missing or without a trace\n");
}

/* One line per process of a multi-process trace that is not exported. */
static void say_processes(struct sgr_trace *t, const char *dir)
{
	size_t n = sgr_n_processes(t);
	if (n < 2)
		return;
	fprintf(stderr, "scalegraph-export: %s holds %zu processes; exporting pid %" PRIu32
		" (%s)\n", dir, n, sgr_info(t)->pid, sgr_dir(t));
	for (size_t i = 0; i < n; i++) {
		const struct sgr_process *p = sgr_process(t, i);
		if (p->read)
			continue;
		if (p->parent_pid)
			fprintf(stderr, "scalegraph-export: not exported: pid %" PRIu32 " (child of "
				"%" PRIu32 "): %s\n", p->pid, p->parent_pid, p->dir);
		else
			fprintf(stderr, "scalegraph-export: not exported: pid %" PRIu32 ": %s\n",
				p->pid, p->dir);
	}
}

static int run_export(int otf2, const char *run, const char *out, unsigned flags,
		      unsigned eflags, int quiet)
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
	say_processes(t, dir);
	if (otf2) {
		rc = export_otf2(t, out, run, eflags, &st, err, sizeof err);
	} else {
		f = strcmp(out, "-") ? fopen(out, "w") : stdout;
		if (!f) {
			fprintf(stderr, "scalegraph-export: error: %s: %s\n", out, strerror(errno));
			sgr_close(t);
			return 1;
		}
		rc = export_chrome(t, f, run, eflags, &st, err, sizeof err);
		if (f != stdout && fclose(f) != 0 && !rc) {
			rc = -EIO;
			snprintf(err, sizeof err, "%s: %s", out, strerror(errno));
		}
	}
	for (size_t i = 0; i < sgr_n_problems(t); i++)
		fprintf(stderr, "%s/%s\n", sgr_dir(t), sgr_problem(t, i));
	if (rc < 0) {
		fprintf(stderr, "scalegraph-export: error: %s\n", err);
		rc = 1;
	} else if (st.n_read == st.n_sched_read) {   /* the sched stream alone: nothing to show */
		fprintf(stderr, "scalegraph-export: error: %s: no readable event\n", sgr_dir(t));
		rc = 1;
	} else if (!quiet) {
		const struct sgr_sched *sc = sgr_sched(t);
		fprintf(stderr, "scalegraph-export: %s: %" PRIu64 " events of %zu threads -> %"
			PRIu64 " %s records in %s", sgr_dir(t), st.n_read, sgr_n_threads(t),
			st.n_written, otf2 ? "OTF2" : "JSON", out);
		if (st.n_repaired || st.n_dropped)
			fprintf(stderr, " (%" PRIu64 " unclosed slices closed, %" PRIu64
				" unmatched ends dropped)", st.n_repaired, st.n_dropped);
		if (st.n_off_cpu)
			fprintf(stderr, "; %" PRIu64 " off-CPU slices", st.n_off_cpu);
		if (st.n_off_fitted)
			fprintf(stderr, " (%" PRIu64 " fitted between events of their thread: the "
				"kernel's clock and the trace's disagree)", st.n_off_fitted);
		if (st.n_sched_lost)
			fprintf(stderr, " (the kernel lost %" PRIu64 " switch records: some spans "
				"are missing or too long)", st.n_sched_lost);
		fprintf(stderr, "\n");
		if (sc->defined && sc->unavailable && !(eflags & EXPORT_NO_SCHED))
			fprintf(stderr, "scalegraph-export: no off-CPU spans: %s\n", sc->text);
	}
	sgr_close(t);
	return rc;
}

int main(int argc, char **argv)
{
	int otf2 = -1, quiet = 0;
	unsigned flags = 0, eflags = 0;
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
		} else if (!strcmp(argv[i], "--no-sched")) {
			eflags |= EXPORT_NO_SCHED;
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
	return run_export(otf2, args[0], args[1], flags, eflags, quiet);
}
