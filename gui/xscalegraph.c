/*
 * xscalegraph.c — main() of xscalegraph, the Scale-Graph windows for a scalegraph experiment.
 *
 *   xscalegraph [options] [EXPERIMENT]       open the windows (needs a display)
 *   xscalegraph --export DIR EXPERIMENT      render every window to DIR/<window>.png and .svg
 *                                            (and .pdf with --pdf) without a display
 * EXPERIMENT is an experiment store written by `scalegraph run` (read through the analyzer)
 * or a directory holding the analyzer's CSV report (report.csv, see docs/gui.md); with none,
 * an empty main window whose File menu opens one (File > Open, Open Recent); --demo opens the
 * bundled synthetic fixture, titled so. Further EXPERIMENTs are compared with the first: their
 * methods are overlaid on the curve windows (window 10). The store is watched: windows follow
 * new runs. Test hooks: --action CMD (repeatable) and SG_GUI_ACTIONS="cmd;cmd;..." run named
 * commands after start-up, as menus and keys do.
 */
#include "xsg.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double xsg_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xscalegraph [--timing] [--poll MS] [--run ID] [--action CMD]... [EXPERIMENT]...\n"
		"       xscalegraph --demo [options]\n"
		"       xscalegraph --export DIR [--pdf] [--run ID] EXPERIMENT...\n"
		"\n"
		"EXPERIMENT  an experiment store (scalegraph run -o DIR), or a directory with the\n"
		"            analyzer's report.csv (+ matrix.csv, runs.csv, ...); none: an empty\n"
		"            window (File > Open); further EXPERIMENTs are compared with the first\n"
		"            (their methods overlaid on windows 4-7)\n"
		"--demo        open the bundled synthetic fixture (example data, not a measurement)\n"
		"--poll MS     check the store for new runs every MS ms (default 1000, 0: never)\n"
		"--timing      print the time to the first complete draw and every redraw\n"
		"--export DIR  write every window as DIR/<window>.png and .svg (no display needed)\n"
		"--pdf         with --export, also DIR/<window>.pdf\n"
		"--run ID      the run shown in the timeline (window 9); default: the first\n"
		"              finished parallel run with the most threads that has a trace\n"
		"--action CMD  run a named command after start-up (repeatable; also SG_GUI_ACTIONS,\n"
		"              ';'-separated); the commands are:\n");
	xsg_commands_list(f);
}

/* The bundled fixture beside the binary (build tree: <B>/bin/../../gui/tests/fixture) or in
 * the source tree when run from it. */
static char *default_source(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	static const char *const rel[] = { "/../share/scalegraph/fixture", "/../../gui/tests/fixture" };
	size_t i;

	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')))
			*slash = '\0';
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s%s/report.csv", exe, rel[i]);
			if (access(path, R_OK) == 0) {
				path[strlen(path) - strlen("/report.csv")] = '\0';
				return strdup(path);
			}
		}
	}
	return strdup("gui/tests/fixture");
}

/* Appends the ';'-separated commands of s. */
static int add_actions(struct xsg_app *app, const char *s)
{
	char *copy = strdup(s), *save = NULL, *tok;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		char **a;
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		if (!(a = realloc(app->actions, (app->n_actions + 1) * sizeof(*a))) ||
		    !(a[app->n_actions] = strdup(tok))) {
			if (a)
				app->actions = a;
			rc = -ENOMEM;
			break;
		}
		app->actions = a;
		app->n_actions++;
	}
	free(copy);
	return rc;
}

/* The timeline of the export: run `run_id` when given (> 0), else the default run; an
 * experiment without traces exports the window's "no run" page. */
static int export_timeline(struct timeline *tl, const struct model *m, const char *source,
			   long long run_id)
{
	char err[1024];
	int k = run_id > 0 ? timeline_run_by_id(m, run_id) : timeline_default_run(m, source);
	int rc;

	if (k < 0) {
		if (run_id > 0) {
			fprintf(stderr, "xscalegraph: %s: error: no run %lld\n", source, run_id);
			return -ENOENT;
		}
		return 0;
	}
	if ((rc = timeline_open_run(tl, m, k, source, err, sizeof(err))) < 0)
		fprintf(stderr, "xscalegraph: %s\n", err);
	return rc;
}

static int run_export(const char *dir, char *const *dirs, size_t n_dirs, int pdf, long long run_id)
{
	struct model m;
	struct teach_params tp;
	struct timeline tl;
	struct view_ctx v;
	char err[1024];
	int rc;

	model_init(&m);
	timeline_init(&tl);
	teach_defaults(&tp);
	if ((rc = model_load_compare(&m, dirs, n_dirs, err, sizeof(err))) < 0) {
		fprintf(stderr, "xscalegraph: %s\n", err);
		goto out;
	}
	if ((rc = export_timeline(&tl, &m, dirs[0], run_id)) < 0)
		goto out;
	v = (struct view_ctx){ &m, &tp, -1, -1, &tl };
	if ((rc = view_export_all(dir, &v, pdf, 1, err, sizeof(err))) < 0) {
		fprintf(stderr, "xscalegraph: %s\n", err);
		goto out;
	}
	printf("xscalegraph: wrote %d windows to %s/ (png, svg%s); timeline: %s\n", VIEW_COUNT, dir,
	       pdf ? ", pdf" : "", tl.run ? tl.label : "no traced run");
out:
	timeline_clear(&tl);
	model_clear(&m);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct xsg_app app;
	const char *export_dir = NULL, *env;
	int i, pdf = 0, rc;
	long long run_id = 0;
	int xargc = 1;
	char **xargv = calloc((size_t)argc + 1, sizeof(char *));

	app.t_start_ms = xsg_now_ms();
	app.poll_ms = 1000;
	setvbuf(stdout, NULL, _IOLBF, 0); /* status and timing lines reach pipes as they happen */
	if (!xargv)
		return 1;
	xargv[0] = argv[0];
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--export") == 0 && i + 1 < argc) {
			export_dir = argv[++i];
		} else if (strcmp(argv[i], "--run") == 0 && i + 1 < argc) {
			char *end;
			run_id = strtoll(argv[++i], &end, 10);
			if (*end || run_id <= 0) {
				fprintf(stderr, "xscalegraph: error: --run wants a run id, not %s\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--pdf") == 0) {
			pdf = 1;
		} else if (strcmp(argv[i], "--poll") == 0 && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 0 || v > 3600000) {
				fprintf(stderr, "xscalegraph: error: --poll wants milliseconds, not %s\n", argv[i]);
				return 2;
			}
			app.poll_ms = (int)v;
		} else if (strcmp(argv[i], "--demo") == 0) {
			app.demo = 1;
		} else if (strcmp(argv[i], "--timing") == 0) {
			app.timing = 1;
		} else if (strcmp(argv[i], "--action") == 0 && i + 1 < argc) {
			if (add_actions(&app, argv[++i]) < 0)
				return 1;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			fprintf(stderr, "xscalegraph: error: unknown option %s (see --help)\n", argv[i]);
			return 2;
		} else if (argv[i][0] == '-') {
			xargv[xargc++] = argv[i];           /* X toolkit options: -display, -geometry */
			if (i + 1 < argc && strcmp(argv[i], "-display") == 0)
				xargv[xargc++] = argv[++i];
			else if (i + 1 < argc && strcmp(argv[i], "-geometry") == 0)
				xargv[xargc++] = argv[++i];
		} else if (xsg_dirs_add(&app, argv[i]) < 0) {
			return 1;
		}
	}
	if (app.demo && app.n_dirs) {
		fprintf(stderr, "xscalegraph: error: --demo opens the fixture: no EXPERIMENT with it\n");
		return 2;
	}
	if (app.demo) {
		char *def = default_source();
		if (!def || xsg_dirs_add(&app, def) < 0)
			return 1;
		free(def);
	}
	if (export_dir && app.n_dirs == 0) {
		fprintf(stderr, "xscalegraph: error: --export needs an EXPERIMENT (or --demo)\n");
		return 2;
	}
	app.source = app.n_dirs ? app.dirs[0] : "";
	if (export_dir) {
		rc = run_export(export_dir, app.dirs, app.n_dirs, pdf, run_id);
		free(xargv);
		return rc;
	}
	if ((env = getenv("SG_GUI_ACTIONS")) && add_actions(&app, env) < 0)
		return 1;
	rc = xsg_app_run(&app, &xargc, xargv);
	free(xargv);
	return rc;
}
