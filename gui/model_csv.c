/*
 * model_csv.c — fills the GUI model from a directory of CSV files: the analyzer's
 * `scalegraph report --csv` (report.csv) and `--matrix --csv` (matrix.csv) outputs, plus the
 * side tables a fixture carries for the browser and sequential windows (runs.csv, profile.csv,
 * patterns.csv, machine.txt, unavailable.csv; formats in docs/gui.md). An empty field is an
 * unavailable figure; its reason comes from unavailable.csv, else "not reported".
 *
 * Grammar handled (RFC 4180 without embedded newlines):
 *   file   -> header-line row-line*
 *   line   -> field (',' field)* '\n'
 *   field  -> chars-without-comma | '"' (chars | '""')* '"'
 */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_MAX_FIELDS 32

static const char report_header[] =
	"method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,IT_lock,IT_cond,IT_sem,IT_join,"
	"IT_sched,IT_blocked,PT_barrier,PT_lock,PT_sem,PT_thread,ML,U,parallelism,closure,"
	"oversubscribed";
/* the same with the measured overhead (issue 21) after it: what report --csv writes now; the
 * header above (an older report's) is read too, without those figures */
static const char report_header_ovh[] =
	"method,N,W,reps,T_para,T_seq,E,S,L,IT_edge,IT_barrier,IT_lock,IT_cond,IT_sem,IT_join,"
	"IT_sched,IT_blocked,PT_barrier,PT_lock,PT_sem,PT_thread,ML,U,parallelism,closure,"
	"oversubscribed,T_plain,T_traced_wall,overhead_measured,overhead_estimated,overhead_marked";
static const char matrix_header[] = "N,N2,time_bound,e_conserved,memory_bound";
static const char runs_header[] = "method,N,W,rep,sizes,status,reason";
static const char profile_header[] = "function,calls,incl_s,excl_s";
static const char patterns_header[] = "method,W,cpu_util,mem_access_rate,miss_rate";
static const char unavail_header[] = "metric,reason";

/* One open CSV file being read. */
struct csv {
	FILE *f;
	const char *path;
	int line;
	char buf[4096];
	char *field[CSV_MAX_FIELDS];
	int col[CSV_MAX_FIELDS];      /* 1-based column where each field starts */
	int n;
	char *err;
	size_t err_len;
	int ovh;                      /* report.csv with the measured overhead's columns */
};

static int csv_error(struct csv *c, int col, const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(c->err, c->err_len, "%s:%d:%d: error: ", c->path, c->line, col);
	if (k < 0 || (size_t)k >= c->err_len)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err + k, c->err_len - (size_t)k, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Reads the next line and splits it in place. Returns 1 with a line, 0 at EOF, <0 on error. */
static int csv_next(struct csv *c)
{
	char *p, *out;
	size_t len;

	if (!fgets(c->buf, sizeof(c->buf), c->f))
		return 0;
	c->line++;
	len = strlen(c->buf);
	if (len == sizeof(c->buf) - 1 && c->buf[len - 1] != '\n')
		return csv_error(c, 1, "line longer than %zu bytes", sizeof(c->buf) - 2);
	while (len > 0 && (c->buf[len - 1] == '\n' || c->buf[len - 1] == '\r'))
		c->buf[--len] = '\0';
	c->n = 0;
	p = c->buf;
	for (;;) {
		if (c->n == CSV_MAX_FIELDS)
			return csv_error(c, (int)(p - c->buf) + 1, "more than %d fields", CSV_MAX_FIELDS);
		c->col[c->n] = (int)(p - c->buf) + 1;
		c->field[c->n++] = out = p;
		if (*p == '"') {
			for (p++;; p++) {
				if (*p == '\0')
					return csv_error(c, c->col[c->n - 1], "unterminated quoted field");
				if (*p == '"' && p[1] == '"')
					p++;
				else if (*p == '"') {
					p++;
					break;
				}
				*out++ = *p;
			}
			if (*p != ',' && *p != '\0')
				return csv_error(c, (int)(p - c->buf) + 1, "expected ',' after quoted field");
		} else {
			while (*p && *p != ',')
				*out++ = *p++;
		}
		if (*p == '\0') {
			*out = '\0';
			return 1;
		}
		*out = '\0';
		p++;
	}
}

/* Opens dir/name and checks its header line. Returns 0, -ENOENT when absent, or <0. */
static int csv_open(struct csv *c, const char *path, const char *header)
{
	int rc;
	char *p;

	c->f = fopen(path, "r");
	c->path = path;
	c->line = 0;
	if (!c->f) {
		snprintf(c->err, c->err_len, "%s: error: %s", path, strerror(errno));
		return -errno;
	}
	rc = csv_next(c);
	if (rc == 0)
		return csv_error(c, 1, "empty file, expected header \"%s\"", header);
	if (rc < 0)
		return rc;
	/* the split put NULs between fields: rejoin to compare the header as text */
	for (p = c->buf; p < c->field[c->n - 1]; p++)
		if (*p == '\0')
			*p = ',';
	c->ovh = header == report_header && strcmp(c->buf, report_header_ovh) == 0;
	if (strcmp(c->buf, header) != 0 && !c->ovh) {
		/* the same first three columns, other figures after them: written by another
		 * version of the report */
		const char *lead = header;
		int other, k;
		for (k = 0; k < 3 && lead; k++)
			if ((lead = strchr(lead, ',')))
				lead++;
		other = lead && strncmp(c->buf, header, (size_t)(lead - header)) == 0;
		return csv_error(c, 1, "header \"%s\" is not \"%s\"%s", c->buf, header,
				 other ? " (columns of another scalegraph version: write the file "
					 "again with this version's `scalegraph report --csv`)" : "");
	}
	return 0;
}

static int csv_want(struct csv *c, int n)
{
	if (c->n != n)
		return csv_error(c, 1, "%d fields, expected %d", c->n, n);
	return 0;
}

static int parse_double(struct csv *c, int i, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(c->field[i], &end);
	if (c->field[i][0] == '\0' || *end || errno || !isfinite(*v))
		return csv_error(c, c->col[i], "\"%s\" is not a number", c->field[i]);
	return 0;
}

static int parse_long(struct csv *c, int i, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(c->field[i], &end, 10);
	if (c->field[i][0] == '\0' || *end || errno)
		return csv_error(c, c->col[i], "\"%s\" is not an integer", c->field[i]);
	return 0;
}

static int parse_int(struct csv *c, int i, int *v, int min)
{
	long l;
	int rc = parse_long(c, i, &l);

	if (rc < 0)
		return rc;
	if (l < min || l > 1000000000L)
		return csv_error(c, c->col[i], "%ld out of range", l);
	*v = (int)l;
	return 0;
}

/* A figure: empty means unavailable with `why`. */
static int parse_fig(struct csv *c, int i, struct model_fig *f, const char *why)
{
	f->v = 0;
	f->why = NULL;
	if (c->field[i][0] == '\0') {
		f->why = why;
		return 0;
	}
	return parse_double(c, i, &f->v);
}

struct loader {
	struct model *m;
	const char *why[MODEL_N_METRICS];  /* reason per metric, interned */
	const char *not_reported;
	char path[4096];
	char *err;
	size_t err_len;
};

static const char *loader_path(struct loader *ld, const char *dir, const char *name)
{
	snprintf(ld->path, sizeof(ld->path), "%s/%s", dir, name);
	return ld->path;
}

static int load_unavailable(struct loader *ld, struct csv *c)
{
	int rc, k;

	while ((rc = csv_next(c)) > 0) {
		if ((rc = csv_want(c, 2)) < 0)
			return rc;
		for (k = 0; k < MODEL_N_METRICS; k++)
			if (strcmp(c->field[0], model_metric_name(k)) == 0)
				break;
		if (k == MODEL_N_METRICS)
			return csv_error(c, 1, "unknown metric \"%s\"", c->field[0]);
		if (!(ld->why[k] = model_intern(ld->m, c->field[1])))
			return -ENOMEM;
	}
	return rc;
}

/* report.csv: method,N,W,reps,<MODEL_N_METRICS figures>,oversubscribed */
#define REPORT_FIELDS (4 + MODEL_N_METRICS + 1)
static int load_report(struct loader *ld, struct csv *c)
{
	struct model_point p;
	const char *no_cost = model_intern(ld->m, "report.csv has no tracing cost column (a store "
					   "has it)");
	const char *no_ovh = model_intern(ld->m, "not measured (report.csv gives no value: no plain "
					  "build in the spec, or no plain run here)");
	int rc, k;

	if (!no_cost || !no_ovh)
		return -ENOMEM;
	while ((rc = csv_next(c)) > 0) {
		memset(&p, 0, sizeof(p));
		p.trace_cost = p.trace_share = (struct model_fig){ NAN, no_cost };
		/* an older report.csv says nothing of it (the windows then say nothing either) */
		p.ovh_measured = p.ovh_estimated = p.t_plain =
			(struct model_fig){ NAN, c->ovh ? no_ovh : NULL };
		if ((rc = csv_want(c, REPORT_FIELDS + (c->ovh ? 5 : 0))) < 0)
			return rc;
		/* T_plain, T_traced_wall, overhead_measured, overhead_estimated, overhead_marked */
		if (c->ovh && ((rc = parse_fig(c, REPORT_FIELDS, &p.t_plain, no_ovh)) < 0 ||
			       (rc = parse_fig(c, REPORT_FIELDS + 2, &p.ovh_measured, no_ovh)) < 0 ||
			       (rc = parse_fig(c, REPORT_FIELDS + 3, &p.ovh_estimated, no_ovh)) < 0 ||
			       (rc = parse_int(c, REPORT_FIELDS + 4, &p.ovh_marked, 0)) < 0))
			return rc;
		if (c->field[0][0] == '\0')
			return csv_error(c, 1, "empty method name");
		if ((rc = parse_int(c, 1, &p.n, 1)) < 0 || (rc = parse_double(c, 2, &p.w)) < 0 ||
		    (rc = parse_int(c, 3, &p.reps, 0)) < 0 ||
		    (rc = parse_int(c, REPORT_FIELDS - 1, &p.oversubscribed, 0)) < 0)
			return rc;
		for (k = 0; k < MODEL_N_METRICS; k++)
			if ((rc = parse_fig(c, 4 + k, &p.fig[k], ld->why[k] ? ld->why[k] : ld->not_reported)) < 0)
				return rc;
		if ((rc = model_add_point(ld->m, c->field[0], &p)) < 0)
			return rc;
	}
	return rc;
}

static int load_matrix(struct loader *ld, struct csv *c)
{
	struct model_cell cell;
	const char *why;
	int rc;

	if (!(why = model_intern(ld->m, "no runs for this model at N or N'")))
		return -ENOMEM;
	while ((rc = csv_next(c)) > 0) {
		memset(&cell, 0, sizeof(cell));
		if ((rc = csv_want(c, 5)) < 0 || (rc = parse_int(c, 0, &cell.n, 1)) < 0 ||
		    (rc = parse_int(c, 1, &cell.n2, 1)) < 0 ||
		    (rc = parse_fig(c, 2, &cell.time_bound, why)) < 0 ||
		    (rc = parse_fig(c, 3, &cell.e_conserved, why)) < 0 ||
		    (rc = parse_fig(c, 4, &cell.memory_bound, why)) < 0)
			return rc;
		if (cell.n >= cell.n2)
			return csv_error(c, c->col[1], "N'=%d is not above N=%d", cell.n2, cell.n);
		if ((rc = model_add_cell(ld->m, &cell)) < 0)
			return rc;
	}
	return rc;
}

static int load_runs(struct loader *ld, struct csv *c)
{
	static const char *const status[] = { "ok", "failed", "running", "pending" };
	struct model_run r;
	const char *no_cost = model_intern(ld->m, "runs.csv has no figures of its runs");
	int rc, k;

	if (!no_cost)
		return -ENOMEM;
	while ((rc = csv_next(c)) > 0) {
		memset(&r, 0, sizeof(r));
		r.trace_cost = r.trace_share = (struct model_fig){ NAN, no_cost };
		if ((rc = csv_want(c, 7)) < 0 || (rc = parse_int(c, 1, &r.n, 1)) < 0 ||
		    (rc = parse_double(c, 2, &r.w)) < 0 || (rc = parse_int(c, 3, &r.rep, 0)) < 0)
			return rc;
		for (k = 0; k < 4; k++)
			if (strcmp(c->field[5], status[k]) == 0)
				break;
		if (k == 4)
			return csv_error(c, c->col[5], "unknown status \"%s\"", c->field[5]);
		r.status = (enum model_run_status)k;
		r.method = c->field[0];
		r.sizes = c->field[4];
		r.reason = c->field[6];
		if ((rc = model_add_run(ld->m, &r)) < 0)
			return rc;
	}
	return rc;
}

static int load_profile(struct loader *ld, struct csv *c)
{
	struct model_func f;
	int rc;

	while ((rc = csv_next(c)) > 0) {
		if ((rc = csv_want(c, 4)) < 0 || (rc = parse_long(c, 1, &f.calls)) < 0 ||
		    (rc = parse_double(c, 2, &f.incl_s)) < 0 || (rc = parse_double(c, 3, &f.excl_s)) < 0)
			return rc;
		f.name = c->field[0];
		f.excl_share = NAN;   /* profile.csv has no denominator: the window says so */
		if ((rc = model_add_func(ld->m, &f)) < 0)
			return rc;
	}
	return rc;
}

static int load_patterns(struct loader *ld, struct csv *c)
{
	struct model_pattern p;
	int rc;

	while ((rc = csv_next(c)) > 0) {
		if ((rc = csv_want(c, 5)) < 0 || (rc = parse_double(c, 1, &p.w)) < 0 ||
		    (rc = parse_fig(c, 2, &p.cpu_util, ld->not_reported)) < 0 ||
		    (rc = parse_fig(c, 3, &p.mem_rate, ld->not_reported)) < 0 ||
		    (rc = parse_fig(c, 4, &p.miss_rate, ld->not_reported)) < 0)
			return rc;
		p.method = c->field[0];
		if ((rc = model_add_pattern(ld->m, &p)) < 0)
			return rc;
	}
	return rc;
}

/* machine.txt: key=value lines, '#' comments. */
static int load_machine(struct loader *ld, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024], *eq;
	int rc = 0, ln = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (!(eq = strchr(line, '='))) {
			snprintf(ld->err, ld->err_len, "%s:%d:1: error: expected key=value", path, ln);
			rc = -EINVAL;
			goto out;
		}
		*eq = '\0';
		if ((rc = model_add_machine(ld->m, line, eq + 1)) < 0)
			goto out;
	}
out:
	fclose(f);
	return rc;
}

typedef int (*load_fn)(struct loader *ld, struct csv *c);

/* Loads one CSV file; a missing optional file is not an error. */
static int load_file(struct loader *ld, const char *dir, const char *name, const char *header,
		     load_fn fn, int required)
{
	struct csv c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.err = ld->err;
	c.err_len = ld->err_len;
	rc = csv_open(&c, loader_path(ld, dir, name), header);
	if (rc == -ENOENT && !required) {
		ld->err[0] = '\0';
		rc = 0;
		goto out;
	}
	if (rc < 0)
		goto out;
	rc = fn(ld, &c);
out:
	if (c.f)
		fclose(c.f);
	return rc;
}

int model_load_csv_dir(struct model *m, const char *dir, char *err, size_t err_len)
{
	struct loader ld;
	const char *base;
	int rc;

	memset(&ld, 0, sizeof(ld));
	ld.m = m;
	ld.err = err;
	ld.err_len = err_len;
	err[0] = '\0';
	base = strrchr(dir, '/');
	base = base && base[1] ? base + 1 : dir;
	if ((rc = model_set_name(m, base)) < 0)
		goto out;
	if (!(ld.not_reported = model_intern(m, "not reported by the analyzer"))) {
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = load_file(&ld, dir, "unavailable.csv", unavail_header, load_unavailable, 0)) < 0 ||
	    (rc = load_file(&ld, dir, "report.csv", report_header, load_report, 1)) < 0 ||
	    (rc = load_file(&ld, dir, "matrix.csv", matrix_header, load_matrix, 0)) < 0 ||
	    (rc = load_file(&ld, dir, "runs.csv", runs_header, load_runs, 0)) < 0 ||
	    (rc = load_file(&ld, dir, "profile.csv", profile_header, load_profile, 0)) < 0 ||
	    (rc = load_file(&ld, dir, "patterns.csv", patterns_header, load_patterns, 0)) < 0)
		goto out;
	rc = load_machine(&ld, loader_path(&ld, dir, "machine.txt"));
	if (rc == -ENOENT)
		rc = 0;
	if (rc < 0)
		goto out;
	model_finish(m);
out:
	if (rc == -ENOMEM && !err[0])
		snprintf(err, err_len, "%s: error: out of memory", dir);
	return rc;
}
