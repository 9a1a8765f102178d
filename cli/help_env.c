/*
 * help_env.c — the environment variables of scalegraph, in one place (issue 14: they were
 * spread over five docs pages, and the library's were not listed anywhere a user would look).
 * Grouped by who reads them: a traced program (libsgtrace), `scalegraph cc`, `scalegraph run`
 * and `calibrate`, the dispatcher, the GUI. The library's rows say what docs/tracelib.md's
 * "Environment" table says, shorter; a test compares the names of both, and of every getenv
 * in the sources, with this table, so that none is added in one place only.
 */
#include "help_env.h"

#include <string.h>

struct env_var {
	const char *name;
	const char *text;   /* values, meaning, and the default */
};

struct env_group {
	const char *title;
	const struct env_var *vars;
};

static const struct env_var lib_vars[] = {
	{ "SG_TRACE", "0: record nothing and write nothing (the program runs as if not "
		      "instrumented); 1: record. Default 1." },
	{ "SG_TRACE_DIR", "the trace root: missing parents are created (0700); an existing one "
			  "must be this user's, or a sticky one of root's; each process writes "
			  "proc.<pid>/ in it. Default: SG_TRACE_ROOT from a traced parent, else a "
			  "new directory in the current one named after the program and the time "
			  "(./sgtrace-<program>-<YYYYmmdd_HHMMSS>-<pid>). `scalegraph run` sets it "
			  "for each run (unless --no-trace)." },
	{ "SG_TRACE_ROOT", "set by a traced process for the programs it runs (the trace root), so "
			   "that they are traced beside it; not meant to be set by hand." },
	{ "SG_TRACE_PARENT", "set by a traced process for the programs it runs (its pid); not "
			     "meant to be set by hand." },
	{ "SG_TRACE_BUFFER", "per-thread buffer in bytes, with an optional K or M suffix; "
			     "4K..1024M. Default 1M." },
	{ "SG_TRACE_CLOCK", "auto: the TSC where the CPU reports it invariant, else "
			    "clock_gettime(CLOCK_MONOTONIC); tsc or ns forces one. Default auto." },
	{ "SG_TRACE_MAX", "trace budget of a process: bytes with a K, M or G suffix, 0 for none. "
			  "When the process has written that much, function probes stop in every "
			  "thread (their calls are counted, not recorded) and the trace says so; "
			  "synchronization events are never stopped. Default 1G." },
	{ "SG_THROTTLE", "the throttling rule of function probes: 0 or off, or CALLS,USEC. "
			 "Default 100000,5: after 100,000 calls of a function on a thread "
			 "averaging under 5 us each, its further calls on that thread are "
			 "counted, not recorded (the trace says which, when, and how many). "
			 "Synchronization events are never throttled." },
	{ "SG_TRACE_COMPACT", "0: write chunks of 16-byte records (the trace format up to 1.5) "
			      "instead of compact ones (format 1.6, 3-4 bytes an event). "
			      "Default 1." },
	{ "SG_SCHED", "0: no context-switch records (the accounting budget is then "
		      "unavailable). Default 1." },
	{ "SG_EVENTS", "the counters sampled per thread: a comma-separated list of event "
		       "names (docs/collector.md), or none. Default: the built-in list." },
	{ "SG_COUNTERS_BARRIER", "1: also sample counters at every barrier arrive and leave. "
				 "Default 0." },
	{ "SG_VERBOSE", "1: the library prints its warnings on stderr (a counter it could not "
			"open, a trace directory taken under another name). Default: quiet; "
			"what it could not do is recorded in the trace, and an error that makes "
			"tracing impossible is always printed." },
	{ NULL, NULL }
};

static const struct env_var cc_vars[] = {
	{ "SG_CC", "the compiler `scalegraph cc` runs; several words allowed "
		   "(SG_CC=\"ccache gcc\"). Default cc." },
	{ "SG_INCLUDE_DIR", "where sgtrace.h is. Default: include/ of the scalegraph install "
			    "(or build tree) that `scalegraph cc` belongs to." },
	{ "SG_LIB_DIR", "where libsgtrace is. Default: lib/ of the same install." },
	{ "TMPDIR", "where `scalegraph cc` writes the instrumented sources it compiles (removed "
		    "afterwards), and `scalegraph calibrate` the trace of its probe. "
		    "Default /tmp." },
	{ NULL, NULL }
};

static const struct env_var run_vars[] = {
	{ "PATH", "where a program's bare name is looked up, after the spec's directory and "
		  "scalegraph's bin/ (docs/collector.md, \"Finding the program\"). Unset: "
		  "/usr/local/bin:/usr/bin:/bin." },
	{ "XDG_CACHE_HOME", "the machine description of `scalegraph calibrate` is cached in "
			    "$XDG_CACHE_HOME/scalegraph/machine.json (an absolute path only)." },
	{ "HOME", "without XDG_CACHE_HOME, the cache is ~/.cache/scalegraph/machine.json." },
	{ "SCALEGRAPH_RUN", "set by `scalegraph run` in each run's environment: a marker by "
			    "which the next runner finds (and kills) what a killed runner's run "
			    "left behind; not meant to be set by hand." },
	{ NULL, NULL }
};

static const struct env_var cli_vars[] = {
	{ "SCALEGRAPH_LIBEXEC", "the directory of the subcommand programs (scalegraph-run, "
				"...). Default: ../libexec/scalegraph beside the scalegraph "
				"program." },
	{ NULL, NULL }
};

static const struct env_var gui_vars[] = {
	{ "SG_GUI_ACTIONS", "\"cmd;cmd;...\": named commands run once the main window is drawn, "
			    "as --action does (docs/gui.md)." },
	{ "SG_GUI_ECHO_STATUS", "set: each status-line message is also printed on stdout (for "
				"tests)." },
	{ "XDG_CONFIG_HOME", "File > Open Recent keeps the experiments opened last in "
			     "$XDG_CONFIG_HOME/scalegraph/recent (an absolute path only; else "
			     "~/.config/scalegraph/recent under HOME)." },
	{ NULL, NULL }
};

static const struct env_var reader_vars[] = {
	{ "SG_SITE_RESOLVE", "0: call sites recorded by return address (format 1.6) are not "
			     "resolved through the program's line table; they read "
			     "\"prog+0x1a2b in (not resolved: ...)\". Default: resolved." },
	{ "SG_ADDR2LINE", "the addr2line program the reader runs to resolve those call sites "
			  "(docs/tracelib.md, \"Call sites\"). Default addr2line (binutils)." },
	{ NULL, NULL }
};

static const struct env_group groups[] = {
	{ "A traced program (libsgtrace; docs/tracelib.md, \"Environment\"). Parsed strictly when "
	  "it starts: a bad value is reported once on stderr, tracing stays off, and the program "
	  "runs on unchanged. A set-uid or set-gid program reads none of them and is not traced "
	  "(trace a copy without the bit).", lib_vars },
	{ "scalegraph cc (docs/instrumenter.md)", cc_vars },
	{ "Reading a trace: scalegraph report, dump, export, xscalegraph", reader_vars },
	{ "scalegraph run and scalegraph calibrate (docs/collector.md)", run_vars },
	{ "scalegraph (the command dispatcher)", cli_vars },
	{ "xscalegraph (docs/gui.md)", gui_vars },
};

#define WIDTH 79
#define INDENT 23

/* Prints `text` from column `col` (where the cursor is, at the start of a line's text),
 * wrapped at WIDTH, the following lines indented by `indent`. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	int at_start = 1;
	while (*text) {
		size_t word = strcspn(text, " ");
		if (!at_start && col + 1 + (int)word > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			at_start = 1;
		}
		if (!at_start) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)word, text);
		col += (int)word;
		at_start = 0;
		text += word;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

void help_env_print(FILE *f)
{
	fprintf(f, "Environment variables read by scalegraph's tools and by libsgtrace in\n"
		   "traced programs. The analyzer (scalegraph report, export, dump) reads none.\n");
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		fputc('\n', f);
		wrap(f, groups[g].title, 0, 0);
		for (const struct env_var *v = groups[g].vars; v->name; v++) {
			/* NAME, then its text in a column; a long name has its text below */
			int col = fprintf(f, "  %s", v->name);
			if (col >= INDENT - 1)
				fprintf(f, "\n%*s", INDENT, "");
			else
				fprintf(f, "%*s", INDENT - col, "");
			wrap(f, v->text, INDENT, INDENT);
		}
	}
}
