/*
 * inst_filter.c — filter files for function probes, in Score-P's syntax so existing filter files
 * work unchanged:
 *
 *   # comment
 *   SCOREP_REGION_NAMES_BEGIN        (or REGION_NAMES_BEGIN)
 *     EXCLUDE *
 *     INCLUDE main solve_* worker
 *   SCOREP_REGION_NAMES_END
 *   SCOREP_FILE_NAMES_BEGIN          (or FILE_NAMES_BEGIN)
 *     EXCLUDE *_gen.c parser.c
 *   SCOREP_FILE_NAMES_END
 *
 * Patterns are shell globs (fnmatch, `*` also matches '/'). Within each kind, rules apply in
 * order and the last one that matches decides; a function in an excluded file is excluded.
 * The verdict of the default rule (or --all-functions) is the starting point.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "inst_int.h"

struct filter_rule {
	int include;
	int is_file;
	unsigned line;  /* where the pattern is, for --explain */
	char *glob;
};

struct inst_filter {
	struct filter_rule *rules;
	size_t n, cap;
	char *path;
};

void inst_filter_free(struct inst_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		free(f->rules[i].glob);
	free(f->rules);
	free(f->path);
	free(f);
}

static int rule_add(struct inst_filter *f, int include, int is_file, unsigned line,
		    const char *w, size_t l)
{
	if (inst_grow(&f->rules, &f->cap, f->n, sizeof *f->rules, 16))
		return -ENOMEM;
	char *g = strndup(w, l);
	if (!g)
		return -ENOMEM;
	f->rules[f->n++] = (struct filter_rule){ include, is_file, line, g };
	return 0;
}

static int word_eq(const char *w, size_t l, const char *kw)
{
	size_t k = strlen(kw);
	if (l == k + 7 && !memcmp(w, "SCOREP_", 7))
		w += 7, l -= 7;
	return l == k && !memcmp(w, kw, k);
}

int inst_filter_parse(const char *text, size_t len, const char *path, FILE *diag,
		      struct inst_filter **out)
{
	enum { OUTSIDE, REGIONS, FILES } block = OUTSIDE;
	int mode = -1; /* -1 no INCLUDE/EXCLUDE yet in this block, 0 exclude, 1 include */
	unsigned line = 1, col = 1, bline = 0;
	int rc = 0;
	struct inst_filter *f = calloc(1, sizeof *f);
	if (!f)
		return -ENOMEM;
	f->path = strdup(path);
	if (!f->path) {
		free(f);
		return -ENOMEM;
	}
	const char *msg = NULL;
	size_t i = 0;
	while (i < len) {
		char c = text[i];
		if (c == '\n') {
			line++;
			col = 1;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r') {
			col++;
			i++;
			continue;
		}
		if (c == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		size_t l = 0;
		while (i + l < len && text[i + l] != ' ' && text[i + l] != '\t' &&
		       text[i + l] != '\n' && text[i + l] != '\r')
			l++;
		const char *w = text + i;
		if (word_eq(w, l, "REGION_NAMES_BEGIN") || word_eq(w, l, "FILE_NAMES_BEGIN")) {
			if (block != OUTSIDE) {
				msg = "nested *_BEGIN (missing *_END?)";
				goto bad;
			}
			block = word_eq(w, l, "FILE_NAMES_BEGIN") ? FILES : REGIONS;
			mode = -1;
			bline = line;
		} else if (word_eq(w, l, "REGION_NAMES_END") || word_eq(w, l, "FILE_NAMES_END")) {
			if (block != (word_eq(w, l, "FILE_NAMES_END") ? FILES : REGIONS)) {
				msg = "*_END without a matching *_BEGIN";
				goto bad;
			}
			block = OUTSIDE;
		} else if (block == OUTSIDE) {
			msg = "expected REGION_NAMES_BEGIN or FILE_NAMES_BEGIN";
			goto bad;
		} else if (l == 7 && !memcmp(w, "INCLUDE", 7)) {
			mode = 1;
		} else if (l == 7 && !memcmp(w, "EXCLUDE", 7)) {
			mode = 0;
		} else if (l == 7 && !memcmp(w, "MANGLED", 7) && mode >= 0) {
			/* C names are not mangled: the keyword is accepted and means nothing */
		} else if (mode < 0) {
			msg = "expected INCLUDE or EXCLUDE before a pattern";
			goto bad;
		} else {
			rc = rule_add(f, mode, block == FILES, line, w, l);
			if (rc)
				goto out;
		}
		i += l;
		col += (unsigned)l;
	}
	if (block != OUTSIDE) {
		line = bline;
		col = 1;
		msg = "block is never closed with *_END";
		goto bad;
	}
	*out = f;
	f = NULL;
	goto out;
bad:
	fprintf(diag ? diag : stderr, "%s:%u:%u: error: %s\n", path, line, col, msg);
	rc = -EINVAL;
out:
	inst_filter_free(f);
	return rc;
}

int inst_filter_load(const char *path, FILE *diag, struct inst_filter **out)
{
	char *text;
	size_t len;
	int rc = inst_read_file(path, &text, &len);
	if (rc) {
		fprintf(diag ? diag : stderr, "%s: error: cannot read filter file: %s\n", path,
			strerror(-rc));
		return rc;
	}
	rc = inst_filter_parse(text, len, path, diag, out);
	free(text);
	return rc;
}

int inst_filter_explain(const struct inst_filter *f, const char *name, size_t name_len,
			const char *file_name, int selected, char *why, size_t cap)
{
	char nm[256];
	if (cap)
		why[0] = '\0';
	if (!f)
		return selected;
	if (name_len >= sizeof nm)
		name_len = sizeof nm - 1;
	memcpy(nm, name, name_len);
	nm[name_len] = '\0';
	const struct filter_rule *by_name = NULL, *by_file = NULL;
	for (size_t i = 0; i < f->n; i++) {
		const struct filter_rule *r = &f->rules[i];
		if (r->is_file && fnmatch(r->glob, file_name, 0) == 0)
			by_file = r;
		else if (!r->is_file && fnmatch(r->glob, nm, 0) == 0)
			by_name = r;
	}
	const struct filter_rule *r = by_file && !by_file->include ? by_file : by_name;
	if (r && cap)
		snprintf(why, cap, "%sfilter %s:%u %s %s", r->is_file ? "file " : "", f->path,
			 r->line, r->include ? "INCLUDE" : "EXCLUDE", r->glob);
	if (by_name)
		selected = by_name->include;
	return (!by_file || by_file->include) && selected;
}

int inst_filter_select(const struct inst_filter *f, const char *name, size_t name_len,
		       const char *file_name, int selected)
{
	return inst_filter_explain(f, name, name_len, file_name, selected, NULL, 0);
}
