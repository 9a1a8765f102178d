/*
 * lookup.c — finding the program of a series (lookup.h). The rule is a shell's with two
 * additions: a spec's bare names are first looked for beside the spec (a spec travels with its
 * programs), and scalegraph's own bin/ comes before PATH (the bundled examples run by name).
 * When nothing is found the message lists exactly what was searched: it used to say "looked
 * in ., ..." for a quick-form command whose `.` was never searched (issue 14), so a user with
 * FFT in the current directory could not tell why it was not found.
 */
#include "lookup.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/* What a candidate is: 0 runnable, else the reason it is not (for the message). */
static const char *not_runnable(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return errno == ENOENT || errno == ENOTDIR ? "" : strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory";
	if (!S_ISREG(st.st_mode))
		return "is not a regular file";
	if (access(path, X_OK) < 0)
		return "is not executable";
	return NULL;
}

struct search {
	char *out;
	size_t len;
	char bad[PATH_MAX + 64];   /* the first candidate that exists but cannot run */
};

/* Tries DIR/NAME (DIR of `dlen` bytes; "" = the name as is). 1 found, 0 not, -ENAMETOOLONG. */
static int try_at(struct search *s, const char *dir, size_t dlen, const char *name)
{
	int n = dlen ? snprintf(s->out, s->len, "%.*s/%s", (int)dlen, dir, name)
		     : snprintf(s->out, s->len, "%s", name);
	if (n < 0 || (size_t)n >= s->len)
		return -ENAMETOOLONG;
	const char *why = not_runnable(s->out);
	if (!why)
		return 1;
	if (*why && !s->bad[0])
		snprintf(s->bad, sizeof s->bad, "%s %s", s->out, why);
	return 0;
}

/* Appends to `why` (a sentence being built). */
static void add(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(char *why, size_t len, const char *fmt, ...)
{
	size_t used = strlen(why);
	va_list ap;
	va_start(ap, fmt);
	if (used < len)
		vsnprintf(why + used, len - used, fmt, ap);
	va_end(ap);
}

/* Is the current directory the directory `dir`? */
static int is_cwd(const char *dir)
{
	struct stat a, b;
	return stat(".", &a) == 0 && stat(dir, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int lookup_program(const char *name, const char *spec_dir, const char *bin_dir, char *out,
		   size_t len, char *why, size_t why_len)
{
	struct search s = { out, len, "" };
	char abs[PATH_MAX];
	int in_spec = spec_dir && spec_dir[0], rc;
	why[0] = '\0';
	if (!name[0]) {
		snprintf(why, why_len, "'' is no program name");
		return -ENOENT;
	}
	if (strchr(name, '/')) {
		/* a path: from the spec's directory or the current one, nothing else */
		const char *base = name[0] == '/' || !in_spec ? "" : spec_dir;
		rc = try_at(&s, base, strlen(base), name);
		if (rc != 0)
			return rc < 0 ? rc : 0;
		if (s.bad[0])
			add(why, why_len, "cannot be run: %s", s.bad);
		else
			add(why, why_len, "not found: %s does not exist", out);
		if (base[0] && !is_cwd(base) && !not_runnable(name) && realpath(name, abs))
			add(why, why_len, "; a path in a spec is taken from the spec's directory (%s): "
			    "did you mean %s, in the current directory?", spec_dir, abs);
		return -ENOENT;
	}
	/* a bare name: the spec's directory, bin/, PATH — said in that order */
	add(why, why_len, "not found in %s%s", in_spec ? spec_dir : "", in_spec ? ", " : "");
	if (in_spec && (rc = try_at(&s, spec_dir, strlen(spec_dir), name)) != 0)
		return rc < 0 ? rc : 0;
	if (bin_dir && bin_dir[0]) {
		add(why, why_len, "%s, ", bin_dir);
		if ((rc = try_at(&s, bin_dir, strlen(bin_dir), name)) != 0)
			return rc < 0 ? rc : 0;
	}
	const char *path = getenv("PATH"), *p;
	int cwd_searched = in_spec && is_cwd(spec_dir);
	size_t used = strlen(why);
	if (used >= 2 && !strcmp(why + used - 2, ", "))
		why[used - 2] = '\0';   /* "in A, B or PATH" */
	add(why, why_len, "%sPATH (%s%s)", used > strlen("not found in ") ? " or " : "",
	    path ? path : DEFAULT_PATH, path ? "" : ", the default: PATH is unset");
	if (!path)
		path = DEFAULT_PATH;
	for (p = path;;) {
		size_t n = strcspn(p, ":");
		/* an empty entry is the current directory (POSIX) */
		if (n == 0 || (n == 1 && p[0] == '.'))
			cwd_searched = 1;
		if ((rc = try_at(&s, n ? p : ".", n ? n : 1, name)) != 0)
			return rc < 0 ? rc : 0;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (s.bad[0])
		add(why, why_len, "; %s", s.bad);
	if (cwd_searched)
		return -ENOENT;
	/* the case of the issue: the name is in the current directory, which was not searched */
	const char *cwd_why = not_runnable(name);
	if (cwd_why && *cwd_why)
		add(why, why_len, "; ./%s (the current directory, not searched) %s", name, cwd_why);
	else if (!cwd_why && !in_spec)
		add(why, why_len, "; did you mean ./%s? (the current directory is not searched, as "
		    "in a shell)", name);
	else if (!cwd_why && realpath(name, abs))
		/* "./FFT" in a spec would be taken from the spec's directory */
		add(why, why_len, "; did you mean %s? (the current directory is not searched for a "
		    "spec's programs)", abs);
	return -ENOENT;
}
