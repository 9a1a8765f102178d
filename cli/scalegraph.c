/*
 * scalegraph — the command dispatcher. `scalegraph CMD ARGS...` runs the program
 * scalegraph-CMD from ../libexec/scalegraph/ beside this executable (the same layout in the
 * build tree and after `make install`), the way git runs its subcommands. Each stage of the
 * pipeline builds its own subcommands, so the dispatcher knows only their names. It also holds
 * the one help that belongs to no subcommand: the environment variables (help_env.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exe_path.h"
#include "help_env.h"

struct subcommand {
	const char *name;
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "cc",         "compile and link C with probes, like `scorep gcc`" },
	{ "instrument", "insert probes into one C source file" },
	{ "layout",     "which functions changed size between a plain and a traced build" },
	{ "run",        "run a scaling series into an experiment store" },
	{ "calibrate",  "measure this machine: timers, primitives, miss latency, counters" },
	{ "report",     "metrics, latency sources and the scalability matrix" },
	{ "export",     "write a run as OTF2 or Chrome trace JSON" },
	{ "dump",       "print every event of a trace as text" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: scalegraph COMMAND [ARGS...]\n"
		   "       scalegraph COMMAND --help    (or scalegraph help COMMAND)\n"
		   "       scalegraph --help env        (or scalegraph help env)\n\n"
		   "Measures why a parallel C program stops scaling (Scale-Graph, 1997).\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		fprintf(f, "  %-11s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\nhelp topics:\n  %-11s %s\n", "env",
		"every environment variable the tools and libsgtrace read");
}

/* Directory holding the subcommand programs: $SCALEGRAPH_LIBEXEC, else ../libexec/scalegraph
 * relative to this executable. Returns 0 or -errno. */
static int libexec_dir(char *out, size_t len)
{
	int rc = exe_path_join("SCALEGRAPH_LIBEXEC", "../libexec/scalegraph", out, len);
	return rc < 0 ? rc : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		/* `scalegraph help TOPIC`: env, or a command (its own --help) */
		if (argc == 2) {
			usage(stdout);
			return 0;
		}
		if (argc > 3) {
			fprintf(stderr, "scalegraph: error: %s takes one topic, not %d\n", cmd, argc - 2);
			return 2;
		}
		if (!strcmp(argv[2], "env")) {
			help_env_print(stdout);
			return 0;
		}
		static char help_flag[] = "--help";
		cmd = argv[1] = argv[2];   /* as `scalegraph CMD --help` */
		argv[2] = help_flag;
	}
	if (!strcmp(cmd, "--version")) {
		printf("scalegraph 0.1\n");
		return 0;
	}
	if (strchr(cmd, '/') || cmd[0] == '-') {
		fprintf(stderr, "scalegraph: error: unknown option or command '%s'\n", cmd);
		usage(stderr);
		return 2;
	}
	char dir[PATH_MAX], prog[PATH_MAX];
	int rc = libexec_dir(dir, sizeof dir);
	if (rc < 0) {
		fprintf(stderr, "scalegraph: error: cannot find the libexec folder: %s\n", strerror(-rc));
		return 1;
	}
	if ((size_t)snprintf(prog, sizeof prog, "%s/scalegraph-%s", dir, cmd) >= sizeof prog) {
		fprintf(stderr, "scalegraph: error: command name too long\n");
		return 2;
	}
	if (access(prog, X_OK) != 0) {
		fprintf(stderr, "scalegraph: error: '%s' is not a scalegraph command (see scalegraph --help)\n", cmd);
		return 2;
	}
	argv[1] = prog;
	execv(prog, argv + 1);
	fprintf(stderr, "scalegraph: error: cannot run %s: %s\n", prog, strerror(errno));
	return 1;
}
