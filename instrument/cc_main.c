/*
 * cc_main.c — `scalegraph cc [compiler args]`: use it as CC. Each C source on the command line
 * is instrumented into a private temporary directory (same base name, so default output names
 * such as foo.o stay the same), starting with `#line 1 "path/foo.c"` so diagnostics, __FILE__
 * and debug info name the user's file; `-iquote DIR` keeps `#include "x.h"` finding the
 * source's neighbours. The compiler (SG_CC, default cc) then runs with the user's flags plus
 * -I<include dir> and -DSG_TRACE (so sgtrace.h's hand markers are on, unless the user defines or
 * undefines SG_TRACE); links add libsgtrace (shared with an rpath, or --sg-static). Dependency
 * files written by -MD/-MMD are rewritten to name the user's source. The include and lib dirs
 * are ../../include and ../../lib from this executable (libexec/scalegraph/), overridable with
 * SG_INCLUDE_DIR / SG_LIB_DIR. --sg-dry-run prints the commands instead of running them.
 * A source whose #if branches change the instrumentation is read as the compiler compiles it:
 * its preprocessor is asked with the user's flags (inst_file_cpp). Compile-only commands leave
 * a sidecar beside each object and links settle the tiny-helper rule across files from them
 * (cc_sidecar.c, cc_settle.c): a source is told the calls in loops of the other sources of its
 * command and of the objects beside it; a link compiles again, privately, each object on its
 * line that was compiled without knowing this program's callers.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cli/exe_path.h"
#include "cc_int.h"

struct cmd {
	char **v;
	size_t n, cap;
};

static int cmd_push(struct cmd *c, const char *s)
{
	if (c->n + 2 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		char **v = realloc(c->v, cap * sizeof *v);
		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	char *d = strdup(s);
	if (!d)
		return -ENOMEM;
	c->v[c->n++] = d;
	c->v[c->n] = NULL;
	return 0;
}

static void cmd_free(struct cmd *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i]);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* The flags a program linked with this build's libsgtrace needs beyond -lsgtrace: the
 * sanitizer runtime when the library was built with -fsanitize (make check-sanitize). */
#ifndef SG_LIB_LINK_FLAGS
#define SG_LIB_LINK_FLAGS ""
#endif

static int cmd_push_words(struct cmd *c, const char *words)
{
	char *copy = strdup(words), *save = NULL;
	if (!copy)
		return -ENOMEM;
	int rc = 0;
	for (char *w = strtok_r(copy, " \t", &save); w && !rc; w = strtok_r(NULL, " \t", &save))
		rc = cmd_push(c, w);
	free(copy);
	return rc;
}

/* SG_CC may hold several words ("ccache gcc"). */
static int cmd_compiler(struct cmd *c)
{
	const char *cc = getenv("SG_CC");
	if (!cc || !*cc)
		cc = "cc";
	int rc = cmd_push_words(c, cc);
	return rc ? rc : c->n ? 0 : -EINVAL;
}

static void cmd_print(const struct cmd *c)
{
	for (size_t i = 0; i < c->n; i++) {
		const char *s = c->v[i];
		int plain = *s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789-_=+./,:@%") == strlen(s);
		if (plain) {
			fputs(s, stdout);
		} else {
			putchar('\'');
			for (; *s; s++)
				if (*s == '\'')
					fputs("'\\''", stdout);
				else
					putchar(*s);
			putchar('\'');
		}
		putchar(i + 1 < c->n ? ' ' : '\n');
	}
}

/* Runs the command; returns its exit status (127 when it cannot be started). With `d`, its
 * stderr goes through the diagnostics filter (cc_diag.c) on the way to ours. */
static int cmd_run(const struct cmd *c, struct cc_diag *d)
{
	int fd[2] = { -1, -1 };
	fflush(stdout);
	fflush(stderr);
	if (d && pipe(fd) < 0)
		d = NULL; /* unfiltered is better than not at all */
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "scalegraph cc: error: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		if (d) {
			dup2(fd[1], 2);
			close(fd[0]);
			close(fd[1]);
		}
		execvp(c->v[0], c->v);
		fprintf(stderr, "scalegraph cc: error: cannot run %s: %s\n", c->v[0], strerror(errno));
		_exit(127);
	}
	if (d) {
		close(fd[1]);
		FILE *in = fdopen(fd[0], "r");
		if (in) {
			cc_diag_filter(d, in, stderr);
			fclose(in);
		} else {
			close(fd[0]);
		}
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 127;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* What `$SG_CC --version` says: 2 for clang, 1 for gcc 8 or later (which has
 * -fmacro-prefix-map), 0 for anything else. Asked only when a diagnostic needs a column mapped
 * or a header path decided, once. */
static int compiler_kind(void)
{
	static int kind = -1;
	struct cmd c = { 0 };
	int fd[2];
	if (kind >= 0)
		return kind;
	kind = 0;
	if (cmd_compiler(&c) || cmd_push(&c, "--version") || pipe(fd) < 0)
		goto out;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		execvp(c.v[0], c.v);
		_exit(127);
	}
	close(fd[1]);
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	while (pid > 0 && n + 1 < sizeof buf && (r = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd[0]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	int fsf = strstr(buf, "Free Software Foundation") != NULL; /* gcc, also as "cc" */
	char *nl = strchr(buf, '\n'), *sp;
	if (nl)
		*nl = '\0';
	if (strstr(buf, "clang")) {
		kind = 2;
	} else if ((fsf || strstr(buf, "gcc") || strstr(buf, "GCC")) &&
		   (sp = strrchr(buf, ' ')) && atoi(sp + 1) >= 8) {
		kind = 1; /* "cc (Debian 12.2.0-14) 12.2.0": the version is the last word */
	}
out:
	cmd_free(&c);
	return kind;
}

static int compiler_is_clang(void *ctx)
{
	(void)ctx;
	return compiler_kind() == 2;
}

/* The diagnostics options of the user's command that change how columns count. */
static void diag_options(const struct cc_args *a, struct cc_diag *d)
{
	d->display = -1;
	d->clang = -1;
	d->tabstop = 8;
	d->origin = 1;
	for (int i = 0; i < a->argc; i++) {
		const char *s = a->argv[i];
		if (!strncmp(s, "-ftabstop=", 10) && atoi(s + 10) > 0 && atoi(s + 10) <= 100)
			d->tabstop = atoi(s + 10);
		else if (!strcmp(s, "-fdiagnostics-column-unit=byte"))
			d->display = 0;
		else if (!strncmp(s, "-fdiagnostics-column-origin=", 28))
			d->origin = atoi(s + 28);
	}
}

/* Does the user's command name `.` as an include directory itself (then "./x.h" in a
 * diagnostic may be the compiler's own spelling)? */
static int user_dot_include(const struct cc_args *a)
{
	static const char *const opt[] = { "-I", "-iquote", "-isystem", "-idirafter" };
	for (int i = 0; i < a->argc; i++)
		for (size_t k = 0; k < sizeof opt / sizeof opt[0]; k++) {
			size_t l = strlen(opt[k]);
			if (strncmp(a->argv[i], opt[k], l))
				continue;
			const char *dir = a->argv[i][l] ? a->argv[i] + l :
					  i + 1 < a->argc ? a->argv[i + 1] : "";
			if (!strcmp(dir, ".") || !strcmp(dir, "./"))
				return 1;
		}
	return 0;
}

/* <dir of this executable>/../../<leaf>, resolved where it exists, or the environment
 * override as given. */
static int tool_dir(const char *env, const char *leaf, char *out, size_t len)
{
	char rel[64], joined[PATH_MAX];
	snprintf(rel, sizeof rel, "../../%s", leaf);
	int rc = exe_path_join(env, rel, joined, sizeof joined);
	if (rc < 0)
		return rc;
	if (rc == 1 || !realpath(joined, out)) /* keep the unresolved path: the error shows later */
		return (size_t)snprintf(out, len, "%s", joined) < len ? 0 : -ENAMETOOLONG;
	return 0;
}

static int write_file(const char *path, const char *head, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -errno;
	int ok = fputs(head, f) >= 0 && fwrite(text, 1, len, f) == len;
	if (fclose(f) != 0 || !ok)
		return -EIO;
	return 0;
}

/* An instrumented source kept until the compiler has run. */
struct kept {
	char *text;
	size_t len;
	struct inst_result res;
	struct inst_summary sum; /* for the tiny-helper rule across files (its sidecar) */
	struct inst_summary first; /* the first attempt's, when instrumented again: the calls */
				   /* the others were told borrow from it */
	char *msg;               /* its warnings and --sg-explain lines, printed once settled */
	size_t msg_len;
};

static void kept_free(struct kept *k)
{
	struct inst_result r = { .summary = k->sum }, f = { .summary = k->first };
	free(k->text);
	free(k->msg);
	inst_result_free(&k->res);
	inst_result_free(&r);
	inst_result_free(&f);
	memset(k, 0, sizeof *k);
}

/* Makes room for instrumenting k's source again: its text and messages go, its summary is
 * kept aside (the calls others were told point into it). */
static void kept_again(struct kept *k)
{
	struct inst_result r = { .summary = k->sum };
	if (!k->first.n_defs && !k->first.n_calls)
		k->first = k->sum;
	else
		inst_result_free(&r);
	memset(&k->sum, 0, sizeof k->sum);
	free(k->text);
	free(k->msg);
	inst_result_free(&k->res);
	k->text = k->msg = NULL;
	k->len = k->msg_len = 0;
}

/* Instruments `src` into tmp/<k>/<basename>. Returns 1 when written (path in `out`), 0 when
 * nothing needed changing (compile the original), or -errno. */
static int instrument_one(const char *src, const char *tmp, int k, const struct inst_options *o,
			  struct cmd *cpp, int dry, char *out, size_t out_len, struct kept *keep)
{
	char *text = NULL;
	size_t len;
	struct inst_result res = { 0 };
	int rc = inst_read_file(src, &text, &len);
	if (rc) {
		rc = 0; /* let the compiler report the missing file as usual */
		goto out;
	}
	/* which #if branches the compiler compiles, asked of its preprocessor with the user's
	 * flags when they change the instrumentation (inst_file_cpp) */
	int pushed = cpp && cmd_push(cpp, src) == 0; /* a dry run too: it writes nothing */
	rc = inst_file_cpp(text, len, src, pushed ? cpp->v : NULL, src, o, &res, NULL);
	if (pushed) {
		free(cpp->v[--cpp->n]);
		cpp->v[cpp->n] = NULL;
	}
	if (rc)
		goto out;
	keep->sum = res.summary; /* what the other files of the program need to know */
	memset(&res.summary, 0, sizeof res.summary);
	if (res.len == len && !memcmp(res.text, text, len))
		goto out;
	const char *base = strrchr(src, '/');
	base = base ? base + 1 : src;
	char dir[PATH_MAX];
	if ((size_t)snprintf(dir, sizeof dir, "%s/%d", tmp, k) >= sizeof dir ||
	    (size_t)snprintf(out, out_len, "%s/%s", dir, base) >= out_len) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	if (dry) {
		printf("# scalegraph instrument %s -> %s (%u functions probed, %u calls, %u regions)\n",
		       src, out, res.n_probed, res.n_renamed, res.n_regions);
		rc = 1;
		goto out;
	}
	char head[PATH_MAX + 32], esc[PATH_MAX * 4];
	if (inst_c_escape(esc, sizeof esc, src, strlen(src)) ||
	    (size_t)snprintf(head, sizeof head, "#line 1 \"%s\"\n", esc) >= sizeof head) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		rc = -errno;
		goto out;
	}
	rc = write_file(out, head, res.text, res.len);
	if (!rc) {
		rc = 1;
		keep->text = text; /* for mapping the compiler's diagnostics back */
		keep->len = len;
		keep->res = res;
		text = NULL;
		memset(&res, 0, sizeof res);
	}
out:
	inst_result_free(&res);
	free(text);
	return rc;
}

/* Rewrites a dependency file so it names `orig` instead of `tmp`. */
static void fix_dep_file(const char *dep, const char *tmp, const char *orig)
{
	char *text;
	size_t len;
	if (inst_read_file(dep, &text, &len))
		return;
	size_t tl = strlen(tmp), ol = strlen(orig);
	char *out = malloc(len + 1 + (len / (tl ? tl : 1) + 1) * ol);
	if (!out) {
		free(text);
		return;
	}
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		if (tl && i + tl <= len && !memcmp(text + i, tmp, tl)) {
			memcpy(out + o, orig, ol);
			o += ol;
			i += tl;
		} else {
			out[o++] = text[i++];
		}
	}
	write_file(dep, "", out, o);
	free(out);
	free(text);
}

/* The .d file gcc writes for one source under -MD/-MMD. */
static void dep_path(const struct cc_args *a, const char *src, char *out, size_t len)
{
	const char *base;
	if (a->mf) {
		snprintf(out, len, "%s", a->mf);
		return;
	}
	if (a->out && a->compile_only) {
		base = a->out;
		snprintf(out, len, "%s", base);
	} else {
		base = strrchr(src, '/');
		snprintf(out, len, "%s", base ? base + 1 : src);
	}
	char *dot = strrchr(out, '.');
	char *slash = strrchr(out, '/');
	if (dot && (!slash || dot > slash))
		*dot = '\0';
	strncat(out, ".d", len - strlen(out) - 1);
}

static void remove_tree(const char *tmp, int n)
{
	char p[PATH_MAX];
	for (int k = 0; k < n; k++) {
		if ((size_t)snprintf(p, sizeof p, "%s/%d", tmp, k) < sizeof p)
			rmdir(p);
		if ((size_t)snprintf(p, sizeof p, "%s/v%d", tmp, k) < sizeof p)
			rmdir(p);
	}
	rmdir(tmp);
}

/* The private temporary directory, made on first use (an absolute path: the link's
 * recompiles run elsewhere). Returns 0 or -1 after a message. */
static int make_tmp(char *tmp, size_t len, int dry)
{
	if (tmp[0])
		return 0;
	const char *td = getenv("TMPDIR");
	char rel[PATH_MAX];
	snprintf(rel, sizeof rel, "%s/sgcc.%s", td && *td ? td : "/tmp", dry ? "DRYRUN" : "XXXXXX");
	if (!dry && !mkdtemp(rel)) {
		fprintf(stderr, "scalegraph cc: error: cannot create %s: %s\n", rel,
			strerror(errno));
		return -1;
	}
	if (dry || !realpath(rel, tmp))
		snprintf(tmp, len, "%s", rel);
	return 0;
}

/* The object a compile-only command writes for `src`: -o, or its base name with .o. */
static void obj_path(const struct cc_args *a, const char *src, char *out, size_t len)
{
	if (a->out && a->compile_only) {
		snprintf(out, len, "%s", a->out);
		return;
	}
	const char *base = strrchr(src, '/');
	snprintf(out, len, "%s", base ? base + 1 : src);
	char *dot = strrchr(out, '.');
	if (dot)
		*dot = '\0';
	strncat(out, ".o", len - strlen(out) - 1);
}

/* Does `obj` name one of the objects this compile-only command writes? */
static int own_object(const struct cc_args *a, const char *obj)
{
	char p[PATH_MAX];
	for (int i = 0; i < a->argc; i++) {
		if (!a->is_source[i])
			continue;
		obj_path(a, a->argv[i], p, sizeof p);
		const char *b = strrchr(p, '/'), *o = strrchr(obj, '/');
		if (!strcmp(b ? b + 1 : p, o ? o + 1 : obj))
			return 1;
	}
	return 0;
}

/* The calls in loops of the other objects beside this command's objects (their sidecars),
 * kept in *sib for as long as `e` borrows from them. */
static int add_siblings(const struct cc_args *a, struct cc_ext *e, struct cc_side **sib,
			size_t *n_sib)
{
	char obj[PATH_MAX], dir[PATH_MAX];
	for (int i = 0; i < a->argc; i++) {
		if (!a->is_source[i])
			continue;
		obj_path(a, a->argv[i], obj, sizeof obj);
		snprintf(dir, sizeof dir, "%s", obj);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		struct cc_side *v;
		size_t n;
		if (cc_side_siblings(slash ? dir : ".", obj, &v, &n))
			continue;
		int rc = 0;
		for (size_t k = 0; k < n && !rc; k++) /* not our own: stale, or the same */
			if (!own_object(a, v[k].obj))
				rc = cc_ext_add(e, &v[k].sum, v[k].source);
		struct cc_side *w = rc ? NULL : realloc(*sib, (*n_sib + n + 1) * sizeof *w);
		if (!w) {
			for (size_t k = 0; k < n; k++)
				cc_side_free(&v[k]);
			free(v);
			return -ENOMEM;
		}
		if (n)
			memcpy(w + *n_sib, v, n * sizeof *v);
		*sib = w;
		*n_sib += n;
		free(v);
		break; /* one directory: a command compiling several sources writes them to one */
	}
	return 0;
}

/* Writes the sidecar of each object a successful compile-only command made. */
static void write_sidecars(const struct cc_args *a, const struct kept *kept)
{
	char obj[PATH_MAX], cwd[PATH_MAX];
	struct stat st, so;
	if (!getcwd(cwd, sizeof cwd))
		return;
	char **args = calloc((size_t)a->argc + 4, sizeof *args);
	if (!args)
		return;
	for (int i = 0; i < a->argc; i++) {
		if (!a->is_source[i])
			continue;
		obj_path(a, a->argv[i], obj, sizeof obj);
		if (stat(obj, &st) != 0 || !S_ISREG(st.st_mode) || stat(a->argv[i], &so) != 0)
			continue;
		int n = 0; /* the command that compiles this source alone */
		if (a->filter) {
			args[n++] = "--filter";
			args[n++] = (char *)a->filter;
		}
		if (a->func_mode != INST_FUNC_DEFAULT)
			args[n++] = a->func_mode == INST_FUNC_ALL ? "--sg-all-functions" :
				    "--sg-no-functions";
		for (int j = 0; j < a->argc; j++)
			if (!a->is_source[j] || j == i)
				args[n++] = a->argv[j];
		const char *cc = getenv("SG_CC");
		struct cc_side s = { .source = a->argv[i], .cwd = cwd,
				     .mtime_ns = (long long)so.st_mtim.tv_sec * 1000000000LL +
						 so.st_mtim.tv_nsec,
				     .size = (long long)so.st_size, .args = args, .n_args = n,
				     .sum = kept[i].sum };
		s.cc = cc && *cc ? (char *)cc : NULL;
		int rc = cc_side_write(obj, &s);
		if (rc)
			fprintf(stderr, "scalegraph cc: warning: %s.sgsel: cannot write: %s (the "
				"tiny-helper rule across files will not know %s)\n", obj,
				strerror(-rc), a->argv[i]);
	}
	free(args);
}

/* The tiny-helper rule across files for this command's sources: each one with a tiny
 * candidate that a call in `e` names is instrumented again, told those calls. */
static int settle_sources(const struct cc_args *a, const struct inst_options *o, const char *tmp,
			  struct cmd *cpp, char **tmp_paths, struct kept *kept,
			  const struct cc_ext *e)
{
	for (int i = 0; i < a->argc; i++) {
		struct cc_ext m;
		if (!a->is_source[i] || !kept[i].sum.n_defs)
			continue;
		if (cc_ext_match(e, &kept[i].sum, &m))
			return -ENOMEM;
		if (m.n == 0) {
			free(m.v);
			continue;
		}
		struct inst_options oi = *o;
		char path[PATH_MAX];
		FILE *msg;
		kept_again(&kept[i]);
		if (!(msg = open_memstream(&kept[i].msg, &kept[i].msg_len))) {
			free(m.v);
			return -ENOMEM;
		}
		oi.diag = msg;
		oi.explain = o->explain ? msg : NULL;
		oi.ext_calls = m.v;
		oi.n_ext_calls = m.n;
		int r = instrument_one(a->argv[i], tmp, i, &oi, cpp, a->dry_run, path, sizeof path,
				       &kept[i]);
		fclose(msg);
		free(m.v);
		if (r < 0)
			fprintf(stderr, "%s: warning: not instrumented (%s); compiled as is\n",
				a->argv[i], strerror(-r));
		if (r != 1 && tmp_paths[i]) {
			unlink(tmp_paths[i]);
			free(tmp_paths[i]);
			tmp_paths[i] = NULL;
		} else if (r == 1 && !tmp_paths[i] && !(tmp_paths[i] = strdup(path))) {
			return -ENOMEM;
		}
	}
	return 0;
}

/* The tiny-helper rule across files at the link: an object on the line whose sidecar shows it
 * was compiled without knowing the calls `e` of its tiny candidates (or knowing others) is
 * compiled again into a private object (*subst, this link only). Returns 0 or -ENOMEM. */
static int settle_objects(const struct cc_args *a, struct cc_side *sides, const int *side_arg,
			  size_t n_sides, const struct cc_ext *e, char *tmp, size_t tmp_len,
			  char **subst)
{
	for (size_t k = 0; k < n_sides; k++) {
		struct cc_ext m;
		const struct cc_side *s = &sides[k];
		if (!s->sum.n_defs)
			continue;
		if (cc_ext_match(e, &s->sum, &m))
			return -ENOMEM;
		if (!cc_side_unsettled(s, &m)) {
			free(m.v);
			continue;
		}
		char dir[PATH_MAX], path[PATH_MAX];
		const char *base = strrchr(s->obj, '/');
		base = base ? base + 1 : s->obj;
		int r = make_tmp(tmp, tmp_len, a->dry_run) ? -EIO : 0;
		if (!r && (size_t)snprintf(dir, sizeof dir, "%s/v%d", tmp, side_arg[k]) >= sizeof dir)
			r = -ENAMETOOLONG;
		if (!r && (size_t)snprintf(path, sizeof path, "%s/%s", dir, base) >= sizeof path)
			r = -ENAMETOOLONG;
		if (!r && a->dry_run) {
			printf("# scalegraph cc: %s compiled again from %s for the tiny-helper "
			       "rule across files -> %s\n", s->obj, s->source, path);
			r = 1;
		}
		if (!r && mkdir(dir, 0700) && errno != EEXIST)
			r = -errno;
		if (!r)
			r = cc_side_recompile(s, &m, path, a->explain);
		free(m.v);
		if (r == 0 && !(subst[side_arg[k]] = strdup(path)))
			return -ENOMEM;
		if (r == -ESTALE)
			fprintf(stderr, "scalegraph cc: warning: %s: %s changed since it was "
				"compiled: linked as it is, not compiled again for the tiny-helper "
				"rule across files (rebuild it)\n", s->obj, s->source);
		else if (r < 0)
			fprintf(stderr, "scalegraph cc: warning: %s: cannot compile it again for the "
				"tiny-helper rule across files (%s): linked as it is\n", s->obj,
				r == -ECHILD ? "the compiler failed" : strerror(-r));
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cc_args a;
	struct cmd c = { 0 }, cpp = { 0 };
	struct inst_filter *filter = NULL;
	char tmp[PATH_MAX] = "", inc[PATH_MAX], lib[PATH_MAX];
	char **tmp_paths = NULL, **subst = NULL, *ext_buf = NULL;
	struct cc_side *sides = NULL, *sibs = NULL;
	int *side_arg = NULL;
	size_t n_sides = 0, n_sibs = 0;
	struct cc_ext ext = { 0 };
	struct kept *kept = NULL;
	struct cc_diag diag = { 0 };
	int status = 1;

	if (argc >= 2 && (!strcmp(argv[1], "--sg-help") || !strcmp(argv[1], "--help"))) {
		printf("usage: scalegraph cc [--filter FILE] [--sg-static] [--sg-dry-run] [--sg-explain]\n"
		       "                     [--sg-no-functions | --sg-all-functions] [--sg-no-cpp]\n"
		       "                     [--sg-no-sidecar] COMPILER-ARGS...\n"
		       "Compiles and links C with scalegraph probes; use as CC. SG_CC picks the\n"
		       "compiler (default cc); SG_INCLUDE_DIR/SG_LIB_DIR override where sgtrace.h\n"
		       "and libsgtrace are. A file whose #if branches change the probes is read as\n"
		       "the compiler's preprocessor says it compiles them (--sg-no-cpp: every\n"
		       "branch). Compiling with -c leaves OBJECT.sgsel beside each object (not with\n"
		       "--sg-no-sidecar): what the link needs to leave out a tiny helper that other\n"
		       "files call in loops, whatever the order of compilation. See\n"
		       "docs/instrumenter.md.\n");
		return 0;
	}
	if (cc_args_parse(argc, argv, &a))
		return 2;
	struct inst_options o = { .func_mode = a.func_mode, .explain = a.explain ? stderr : NULL };
	if (a.filter && inst_filter_load(a.filter, stderr, &filter))
		goto out;
	o.filter = filter;
	if (cmd_compiler(&c))
		goto oom;
	if (tool_dir("SG_INCLUDE_DIR", "include", inc, sizeof inc) ||
	    tool_dir("SG_LIB_DIR", "lib", lib, sizeof lib)) {
		fprintf(stderr, "scalegraph cc: error: cannot locate the scalegraph install\n");
		goto out;
	}
	/* the preprocessor command for inst_file_cpp: the compiler, the user's preprocessing
	 * flags, what we add (-DSG_TRACE, -I for sgtrace.h), -E -x c, then each source */
	char **cpp_flags = NULL;
	int n_cpp_flags = 0, have_cpp = 0;
	if (!a.passthrough && a.n_sources && !a.no_cpp &&
	    cc_args_cpp(&a, &cpp_flags, &n_cpp_flags) == 0) {
		have_cpp = cmd_compiler(&cpp) == 0;
		for (int i = 0; i < n_cpp_flags && have_cpp; i++)
			have_cpp = cmd_push(&cpp, cpp_flags[i]) == 0;
		if (have_cpp && !a.user_sg_trace)
			have_cpp = cmd_push(&cpp, "-DSG_TRACE") == 0;
		have_cpp = have_cpp && !cmd_push(&cpp, "-I") && !cmd_push(&cpp, inc) &&
			   !cmd_push(&cpp, "-E") && !cmd_push(&cpp, "-x") && !cmd_push(&cpp, "c");
		free(cpp_flags);
	}
	tmp_paths = calloc((size_t)a.argc + 1, sizeof *tmp_paths);
	subst = calloc((size_t)a.argc + 1, sizeof *subst);
	side_arg = calloc((size_t)a.argc + 1, sizeof *side_arg);
	sides = calloc((size_t)a.argc + 1, sizeof *sides);
	kept = calloc((size_t)a.argc + 1, sizeof *kept);
	diag.srcs = calloc((size_t)a.argc + 1, sizeof *diag.srcs);
	if (!tmp_paths || !kept || !diag.srcs || !subst || !side_arg || !sides)
		goto oom;
	/* The tiny-helper rule across files (cc_settle.c) is told the calls in loops of the
	 * other sources of this command, of the objects on a link line (their sidecars), of the
	 * link that asks for a recompile (--sg-ext-call) and, compiling only, of the objects
	 * beside ours. */
	if (a.n_ext_specs &&
	    cc_ext_parse(a.ext_specs, a.n_ext_specs, &ext_buf, &ext) == -ENOMEM)
		goto oom;
	if (!a.passthrough && a.links)
		for (int i = 0; i < a.argc; i++) {
			size_t l = strlen(a.argv[i]);
			if (!a.is_input[i] || a.is_source[i] || l < 3 || strcmp(a.argv[i] + l - 2, ".o") ||
			    cc_side_read(a.argv[i], &sides[n_sides]))
				continue;
			side_arg[n_sides] = i;
			if (cc_ext_add(&ext, &sides[n_sides].sum, sides[n_sides].source))
				goto oom;
			n_sides++;
		}
	int n_inst = 0, dot_src = 0, quote_inc = 0;
	o.summary = 1;
	if (!a.passthrough && a.n_sources) {
		if (make_tmp(tmp, sizeof tmp, a.dry_run))
			goto out;
		int any_defs = 0;
		for (int i = 0; i < a.argc; i++) {
			if (!a.is_source[i])
				continue;
			char path[PATH_MAX];
			struct inst_options oi = o;
			FILE *msg = open_memstream(&kept[i].msg, &kept[i].msg_len);
			if (!msg)
				goto oom;
			oi.diag = msg;
			oi.explain = o.explain ? msg : NULL;
			int r = instrument_one(a.argv[i], tmp, i, &oi, have_cpp ? &cpp : NULL,
					       a.dry_run, path, sizeof path, &kept[i]);
			fclose(msg);
			if (r < 0)
				fprintf(stderr, "%s: warning: not instrumented (%s); compiled as is\n",
					a.argv[i], strerror(-r));
			if (r == 1 && !(tmp_paths[i] = strdup(path)))
				goto oom;
			if (cc_ext_add(&ext, &kept[i].sum, a.argv[i]))
				goto oom;
			any_defs |= kept[i].sum.n_defs > 0;
		}
		if (any_defs && a.compile_only && !a.no_siblings && !a.n_ext_specs &&
		    add_siblings(&a, &ext, &sibs, &n_sibs))
			goto oom;
		if (any_defs && !a.dry_run &&
		    settle_sources(&a, &o, tmp, have_cpp ? &cpp : NULL, tmp_paths, kept, &ext))
			goto oom;
		for (int i = 0; i < a.argc; i++) {
			if (kept[i].msg_len) /* each source's messages, in order, once settled */
				fwrite(kept[i].msg, 1, kept[i].msg_len, stderr);
			if (!tmp_paths[i])
				continue;
			n_inst++;
			if (kept[i].text) {
				struct cc_src *cs = &diag.srcs[diag.n++];
				cs->name = a.argv[i];
				cs->text = kept[i].text;
				cs->len = kept[i].len;
				cs->out = kept[i].res.text;
				/* a source with #line directives of its own (generated code) numbers
				 * lines the filter cannot follow: its columns are left as the compiler
				 * gives them */
				if (!memmem(cs->text, cs->len, "#line", 5)) {
					cs->sp = kept[i].res.splices;
					cs->n_sp = kept[i].res.n_splices;
				}
				diag.strip_dot |= !strchr(a.argv[i], '/');
				dot_src |= !strncmp(a.argv[i], "./", 2);
				quote_inc |= memmem(cs->text, cs->len, "#include \"", 10) != NULL;
			}
		}
	}
	if (n_sides && settle_objects(&a, sides, side_arg, n_sides, &ext, tmp, sizeof tmp, subst))
		goto oom;
	/* the command: compiler, -iquote for moved sources, user args, -I, link flags */
	if (!a.passthrough)
		for (int i = 0; i < a.argc; i++) {
			if (!tmp_paths[i])
				continue;
			char d[PATH_MAX];
			snprintf(d, sizeof d, "%s", a.argv[i]);
			char *slash = strrchr(d, '/');
			if (slash)
				*slash = '\0';
			if (cmd_push(&c, "-iquote") || cmd_push(&c, slash ? d : "."))
				goto oom;
			/* the debug info names the source's own folder (absolute, as the copy's
			 * was: binutils 2.40's addr2line confuses a relative one with the #line
			 * name), not the private copy's, so that the object is the same from one
			 * build to the next (and -g1, below, adds debug info where there was none) */
			char map[2 * PATH_MAX + 32], t[PATH_MAX];
			snprintf(t, sizeof t, "%s", tmp_paths[i]);
			char *ts = strrchr(t, '/');
			if (ts)
				*ts = '\0';
			char real[PATH_MAX];
			if (!realpath(slash ? d : ".", real))
				snprintf(real, sizeof real, "%s", slash ? d : ".");
			snprintf(map, sizeof map, "-fdebug-prefix-map=%s=%s", ts ? t : ".", real);
			if (cmd_push(&c, map))
				goto oom;
		}
	for (int i = 0; i < a.argc; i++)
		if (cmd_push(&c, tmp_paths[i] ? tmp_paths[i] : subst[i] ? subst[i] : a.argv[i]))
			goto oom;
	diag_options(&a, &diag);
	diag.strip_dot &= !dot_src && !user_dot_include(&a);
	diag.is_clang = compiler_is_clang;
	if (diag.strip_dot && quote_inc && compiler_kind() == 1) {
		/* gcc names a header beside a source in the current directory "x.h" in __FILE__;
		 * found through our -iquote . it would be "./x.h" (clang says "./x.h" either way) */
		if (cmd_push(&c, "-fmacro-prefix-map=./="))
			goto oom;
	}
	if (!a.passthrough) {
		if (cmd_push(&c, "-I") || cmd_push(&c, inc))
			goto oom;
		/* hand-written SG_REGION_BEGIN/END and SG_COUNTER_ADD markers are on in traced builds */
		if (a.n_sources && !a.user_sg_trace && cmd_push(&c, "-DSG_TRACE"))
			goto oom;
		/* the wrappers' call sites are return addresses, read back through the line table
		 * (docs/instrumenter.md "Call sites"): line tables where the user asked for no debug
		 * info; -g never changes the code gcc generates */
		if (a.n_sources && !a.user_g && cmd_push(&c, "-g1"))
			goto oom;
		if (a.links) {
			char buf[PATH_MAX + 32];
			if (a.link_static) {
				snprintf(buf, sizeof buf, "%s/libsgtrace.a", lib);
				if (cmd_push(&c, buf) || cmd_push(&c, "-lpfm"))
					goto oom;
			} else {
				snprintf(buf, sizeof buf, "-Wl,-rpath,%s", lib);
				if (cmd_push(&c, "-L") || cmd_push(&c, lib) || cmd_push(&c, buf) ||
				    cmd_push(&c, "-lsgtrace"))
					goto oom;
			}
			if (cmd_push(&c, "-pthread") || cmd_push_words(&c, SG_LIB_LINK_FLAGS))
				goto oom;
		}
	}
	if (a.dry_run) {
		cmd_print(&c);
		status = 0;
		goto out;
	}
	status = cmd_run(&c, diag.n ? &diag : NULL);
	if (status == 0 && a.compile_only && a.n_sources && !a.no_sidecar)
		write_sidecars(&a, kept);
	if (status == 0 && a.dep_file)
		for (int i = 0; i < a.argc; i++) {
			if (!tmp_paths[i])
				continue;
			char dep[PATH_MAX];
			dep_path(&a, a.argv[i], dep, sizeof dep);
			fix_dep_file(dep, tmp_paths[i], a.argv[i]);
		}
	goto out;
oom:
	fprintf(stderr, "scalegraph cc: error: out of memory\n");
	status = 1;
out:
	if (tmp_paths) {
		for (int i = 0; i < a.argc; i++) {
			if (tmp_paths[i] && !a.dry_run)
				unlink(tmp_paths[i]);
			free(tmp_paths[i]);
		}
		free(tmp_paths);
	}
	if (kept) {
		for (int i = 0; i < a.argc; i++)
			kept_free(&kept[i]);
		free(kept);
	}
	if (subst) {
		for (int i = 0; i < a.argc; i++) {
			if (subst[i] && !a.dry_run)
				unlink(subst[i]);
			free(subst[i]);
		}
		free(subst);
	}
	for (size_t k = 0; sides && k < n_sides; k++)
		cc_side_free(&sides[k]);
	free(sides);
	free(side_arg);
	for (size_t k = 0; k < n_sibs; k++)
		cc_side_free(&sibs[k]);
	free(sibs);
	free(ext.v);
	free(ext_buf);
	cc_diag_free(&diag);
	free(diag.srcs);
	if (tmp[0] && !a.dry_run)
		remove_tree(tmp, a.argc);
	inst_filter_free(filter);
	cmd_free(&c);
	cmd_free(&cpp);
	cc_args_free(&a);
	return status;
}
