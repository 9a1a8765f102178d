/*
 * store.c — SQLite side of the experiment store (store.h; schema in docs/store-schema.md).
 * Writers hold an flock on DIR/lock so two runners never interleave; readers need none (WAL
 * lets them read while a runner writes). Every multi-row write is one transaction, so a killed
 * runner leaves either the whole run or a "running" row that the next runner drops.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct store {
	sqlite3 *db;
	int version;          /* meta.schema_version as found (0: a new store) */
	int lock_fd;
	int runs_fd;          /* DIR/runs, opened without following links (writers only) */
	char dir[PATH_MAX];   /* as given: the name messages use */
	char real[PATH_MAX];  /* the path its files are reached by: dir, or (when reaching it
				 followed a link) its resolved path, with no link in it */
	char errmsg[PATH_MAX + 512];
};

/* SQLite's unix VFS takes database paths of at most 512 bytes (mxPathname) and fails with
 * "unable to open database file" beyond; the -journal/-wal names are 8 longer. Refused up front
 * with the length, rather than as an I/O error. */
#define STORE_DB_PATH_MAX 500

/* A trigger adding one to meta.generation after `event` (docs/store-schema.md, Generation). */
#define GEN_TRIGGER(name, event)                                                                \
	"CREATE TRIGGER IF NOT EXISTS generation_" name " AFTER " event " BEGIN UPDATE meta SET " \
	"value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'; END;\n"

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);\n"
	"CREATE TABLE IF NOT EXISTS spec(id INTEGER PRIMARY KEY CHECK(id = 1), path TEXT,\n"
	"  text TEXT, overrides TEXT, work_expr TEXT);\n"
	"CREATE TABLE IF NOT EXISTS machine(id INTEGER PRIMARY KEY CHECK(id = 1), cpu_model TEXT,\n"
	"  n_cpus INTEGER, kernel TEXT, tsc_hz REAL, json TEXT);\n"
	"CREATE TABLE IF NOT EXISTS params(name TEXT PRIMARY KEY, base REAL,\n"
	"  bytes_per_unit REAL, position INTEGER);\n"
	"CREATE TABLE IF NOT EXISTS methods(name TEXT PRIMARY KEY, formulas TEXT, position INTEGER);\n"
	"CREATE TABLE IF NOT EXISTS models(kind TEXT, target REAL, unit TEXT, along TEXT,\n"
	"  PRIMARY KEY(kind, along));\n"
	"CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL\n"
	"  CHECK(kind IN ('par', 'seq')), n_threads INTEGER NOT NULL, sizes TEXT NOT NULL,\n"
	"  work REAL, rep INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT, argv TEXT,\n"
	"  exit_code INTEGER, signal INTEGER, oversubscribed INTEGER, t_wall_s REAL, t_user_s REAL,\n"
	"  t_sys_s REAL, max_rss_kb INTEGER, t_para_s REAL, t_para_source TEXT, started_at TEXT,\n"
	"  finished_at TEXT, pid INTEGER, pid_start INTEGER, marker TEXT,\n"
	"  UNIQUE(kind, n_threads, sizes, rep));\n"
	"CREATE TABLE IF NOT EXISTS run_params(run_id INTEGER NOT NULL REFERENCES runs(id)\n"
	"  ON DELETE CASCADE, name TEXT NOT NULL, value REAL, PRIMARY KEY(run_id, name));\n"
	"CREATE TABLE IF NOT EXISTS run_counters(run_id INTEGER NOT NULL REFERENCES runs(id)\n"
	"  ON DELETE CASCADE, thread INTEGER, name TEXT NOT NULL, unit TEXT, value REAL,\n"
	"  unavailable TEXT);\n"
	"CREATE TABLE IF NOT EXISTS points(id INTEGER PRIMARY KEY, model TEXT NOT NULL,\n"
	"  method TEXT NOT NULL, n_threads INTEGER NOT NULL, scale REAL, sizes TEXT, work REAL,\n"
	"  target REAL, t_para_s REAL, t_seq_s REAL, t_seq_source TEXT, efficiency REAL,\n"
	"  search_runs INTEGER, converged INTEGER, oversubscribed INTEGER, note TEXT,\n"
	"  UNIQUE(model, method, n_threads));\n"
	"CREATE TABLE IF NOT EXISTS point_runs(point_id INTEGER NOT NULL REFERENCES points(id)\n"
	"  ON DELETE CASCADE, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
	"  role TEXT NOT NULL, PRIMARY KEY(point_id, run_id, role));\n"
	"CREATE TABLE IF NOT EXISTS metrics(id INTEGER PRIMARY KEY, run_id INTEGER,\n"
	"  point_id INTEGER, point2_id INTEGER, name TEXT NOT NULL, value REAL, unit TEXT,\n"
	"  unavailable TEXT);\n"
	/* schema 4 (issue 21): the plain build's runs, untraced, apart from runs */
	"CREATE TABLE IF NOT EXISTS plain_runs(id INTEGER PRIMARY KEY, n_threads INTEGER NOT NULL,\n"
	"  sizes TEXT NOT NULL, rep INTEGER NOT NULL, status TEXT NOT NULL, reason TEXT, argv TEXT,\n"
	"  exit_code INTEGER, signal INTEGER, t_wall_s REAL, t_user_s REAL, t_sys_s REAL,\n"
	"  max_rss_kb INTEGER, started_at TEXT, finished_at TEXT, UNIQUE(n_threads, sizes, rep));\n"
	"CREATE INDEX IF NOT EXISTS metrics_by_point ON metrics(point_id, name);\n"
	"CREATE INDEX IF NOT EXISTS metrics_by_run ON metrics(run_id, name);\n"
	/* the generation: bumped by every change of what the readers show (runs, points, methods,
	 * the machine), not by the analyzer's metrics (derived from those, and written by the
	 * GUI's own load: a bump there would make every load cause the next) */
	"INSERT OR IGNORE INTO meta(key, value) VALUES ('generation', '0');\n"
	GEN_TRIGGER("runs_ins", "INSERT ON runs")
	GEN_TRIGGER("runs_del", "DELETE ON runs")
	GEN_TRIGGER("runs_upd", "UPDATE OF status, t_para_s ON runs")
	GEN_TRIGGER("points_ins", "INSERT ON points")
	GEN_TRIGGER("points_del", "DELETE ON points")
	GEN_TRIGGER("points_upd", "UPDATE ON points")
	GEN_TRIGGER("methods_ins", "INSERT ON methods")
	GEN_TRIGGER("methods_del", "DELETE ON methods")
	GEN_TRIGGER("machine_ins", "INSERT ON machine")
	GEN_TRIGGER("machine_upd", "UPDATE ON machine")
	GEN_TRIGGER("plain_ins", "INSERT ON plain_runs")
	GEN_TRIGGER("plain_del", "DELETE ON plain_runs");

/* The errno of an SQLite result: a full disk is -ENOSPC (the runner stops on it, saying so),
 * a busy database -EBUSY, anything else -EIO. */
static int sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	default:
		return -EIO;
	}
}

static int fail(struct store *st, int rc)
{
	snprintf(st->errmsg, sizeof st->errmsg, "%s", sqlite3_errmsg(st->db));
	return sql_errno(rc);
}

/* Every statement starts with errmsg cleared, so that store_errmsg() is the text of the
 * statement that failed last, never of an earlier failure a caller recovered from (which would
 * blame the store for what failed elsewhere). */
static int exec(struct store *st, const char *sql)
{
	char *msg = NULL;
	st->errmsg[0] = '\0';
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		snprintf(st->errmsg, sizeof st->errmsg, "%s", msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return sql_errno(rc);
	}
	return 0;
}

static int prepare(struct store *st, const char *sql, sqlite3_stmt **stmt)
{
	st->errmsg[0] = '\0';
	int rc = sqlite3_prepare_v2(st->db, sql, -1, stmt, NULL);
	return rc == SQLITE_OK ? 0 : fail(st, rc);
}

/* Steps a statement expected to finish (no rows) and finalizes it. */
static int step_done(struct store *st, sqlite3_stmt *stmt)
{
	int rc = sqlite3_step(stmt);
	int ret = rc == SQLITE_DONE ? 0 : fail(st, rc);
	sqlite3_finalize(stmt);
	return ret;
}

/* Steps one row of a statement that is reused for several rows, and resets it for the next. */
static int step_row(struct store *st, sqlite3_stmt *stmt)
{
	int rc = sqlite3_step(stmt);
	int ret = rc == SQLITE_DONE ? 0 : fail(st, rc);
	sqlite3_reset(stmt);
	return ret;
}

/* Ends the transaction that store_begin() opened: commits when rc is 0, else rolls back. */
static int end_tx(struct store *st, int rc)
{
	if (rc == 0)
		rc = store_commit(st);
	if (rc < 0)
		store_rollback(st);
	return rc;
}

static void bind_real(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

static void bind_text(sqlite3_stmt *s, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(s, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Runs one statement with its parameters bound in order by `types`: 't' text (NULL allowed),
 * 'r' double (NAN binds NULL), 'i' int, 'l' int64_t, 'L' int64_t bound as NULL when 0 (an
 * unused id). Returns 0 or -EIO / -EBUSY. */
static int exec_bound(struct store *st, const char *sql, const char *types, ...)
{
	sqlite3_stmt *s;
	va_list ap;
	int rc = prepare(st, sql, &s);
	if (rc < 0)
		return rc;
	va_start(ap, types);
	for (int i = 0; types[i]; i++) {
		int64_t l;
		switch (types[i]) {
		case 't':
			bind_text(s, i + 1, va_arg(ap, const char *));
			break;
		case 'r':
			bind_real(s, i + 1, va_arg(ap, double));
			break;
		case 'i':
			sqlite3_bind_int(s, i + 1, va_arg(ap, int));
			break;
		default: /* 'l', 'L' */
			l = va_arg(ap, int64_t);
			if (l || types[i] == 'l')
				sqlite3_bind_int64(s, i + 1, l);
			break;
		}
	}
	va_end(ap);
	return step_done(st, s);
}

static void seterr(struct store *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void seterr(struct store *st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->errmsg, sizeof st->errmsg, fmt, ap);
	va_end(ap);
}

/* --- reaching the experiment directory ----------------------------------------------------
 * The rule by which a store's directory is reached (docs/collector.md, "The experiment
 * directory"): the path is walked by descriptors, so that what is checked is what is used, and
 * a symbolic link is followed only when its owner is root or the user running — a link another
 * user planted in a shared directory (/tmp) cannot send a runner's files elsewhere. */

enum fs_open_flags {
	FS_CREATE = 1,     /* make the missing directories of the path (mkdirat) */
};

/* The links a walk may follow, as the kernel's MAXSYMLINKS. */
#define FS_MAX_LINKS 40

struct walk {
	int flags;
	mode_t last_mode;
	int n_links;
	const char *path;     /* the caller's path, */
	size_t link_end;      /* up to the end of its component whose link is being followed */
	char *err;
	size_t err_len;
};

/* "name (uid N)" of a user, or "uid N" when it has no name. */
static void user_name(uid_t uid, char *out, size_t len)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	if (getpwuid_r(uid, &pw, buf, sizeof buf, &res) == 0 && res)
		snprintf(out, len, "%s (uid %u)", res->pw_name, (unsigned)uid);
	else
		snprintf(out, len, "uid %u", (unsigned)uid);
}

static int walk_fail(struct walk *w, int rc, const char *shown, const char *path, size_t at,
		     const char *why)
{
	snprintf(w->err, w->err_len, "%s%.*s: %s", shown, (int)at, path, why);
	return rc;
}

/* Walks `path` from the directory `fd` (taken over: closed, or returned). `shown` prefixes the
 * component named in a message ("" for the caller's path, "LINK -> " inside a link's target);
 * `top` is non-zero for the caller's path, whose missing components FS_CREATE makes. Returns
 * the descriptor of the directory reached, or -errno. */
static int walk(struct walk *w, int fd, const char *path, const char *shown, int top)
{
	size_t at = 0, n = strlen(path);
	while (at < n) {
		while (at < n && path[at] == '/')
			at++;
		if (at == n)
			break;
		size_t end = at;
		while (end < n && path[end] != '/')
			end++;
		size_t rest = end;
		while (rest < n && path[rest] == '/')
			rest++;
		int last = rest == n;
		char comp[NAME_MAX + 1];
		if (end - at > NAME_MAX) {
			close(fd);
			return walk_fail(w, -ENAMETOOLONG, shown, path, end, strerror(ENAMETOOLONG));
		}
		memcpy(comp, path + at, end - at);
		comp[end - at] = '\0';
		at = end;
		if (!strcmp(comp, "."))
			continue;
		int nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && top && (w->flags & FS_CREATE)) {
			if (mkdirat(fd, comp, last ? w->last_mode : 0777) < 0 && errno != EEXIST) {
				int e = errno;
				close(fd);
				char why[300];
				snprintf(why, sizeof why, "cannot create: %s", strerror(e));
				return walk_fail(w, -e, shown, path, end, why);
			}
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd >= 0) {
			close(fd);
			fd = nfd;
			continue;
		}
		int e = errno;
		struct stat sb;
		if ((e != ELOOP && e != ENOTDIR) || fstatat(fd, comp, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			close(fd);
			return walk_fail(w, -e, shown, path, end, strerror(e));
		}
		if (!S_ISLNK(sb.st_mode)) {
			close(fd);
			return walk_fail(w, -ENOTDIR, shown, path, end, "not a directory");
		}
		char target[PATH_MAX];
		ssize_t tl = readlinkat(fd, comp, target, sizeof target - 1);
		if (tl <= 0) {
			e = tl < 0 ? errno : ENOENT;
			close(fd);
			return walk_fail(w, -e, shown, path, end, strerror(e));
		}
		target[tl] = '\0';
		if (sb.st_uid != 0 && sb.st_uid != geteuid()) {
			char owner[300], why[PATH_MAX + 400];
			user_name(sb.st_uid, owner, sizeof owner);
			snprintf(why, sizeof why, "a symbolic link (to %.*s) owned by %s, not by root or "
				 "by the user running (uid %u): not followed", PATH_MAX, target, owner,
				 (unsigned)geteuid());
			close(fd);
			return walk_fail(w, -EPERM, shown, path, end, why);
		}
		if (top)
			w->link_end = end;
		if (++w->n_links > FS_MAX_LINKS) {
			close(fd);
			snprintf(w->err, w->err_len, "%.*s: more than %d symbolic links to follow (a "
				 "loop?)", (int)w->link_end, w->path, FS_MAX_LINKS);
			return -ELOOP;
		}
		char inner[PATH_MAX + 16];
		snprintf(inner, sizeof inner, "%s%.*s -> ", shown, (int)end, path);
		int start = target[0] == '/' ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
					     : fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (start < 0) {
			e = errno;
			close(fd);
			return walk_fail(w, -e, shown, path, end, strerror(e));
		}
		nfd = walk(w, start, target, inner, 0);
		close(fd);
		if (nfd < 0)
			return nfd;
		fd = nfd;
	}
	return fd;
}

/* Opens the directory `path` by walking it one component at a time with openat(O_NOFOLLOW |
 * O_DIRECTORY), each relative to its parent's descriptor. A component that is a symbolic link
 * is followed only when the link itself is owned by root or by the effective user (in every
 * directory, like the kernel's protected_symlinks in sticky ones), its target walked by the
 * same rule; one owned by anyone else is refused (-EPERM) before anything is created. With
 * FS_CREATE the missing components of `path` are made by mkdirat under their parent's
 * descriptor, the last with mode `last_mode`, the others 0777 (less the umask); the target of
 * a link is never created (a dangling link is an error). At most 40 links are followed.
 * Returns the directory's descriptor (O_RDONLY, close-on-exec) and sets *n_links to the number
 * of links followed, or returns -errno with `err` naming the component and why ("exp/link: a
 * symbolic link (to /data/x) owned by nobody (uid 65534), not by root or by the user running
 * (uid 0): not followed"). */
static int fs_open_dir(const char *path, int flags, mode_t last_mode, int *n_links, char *err,
		       size_t err_len)
{
	char dummy[8];
	struct walk w = { flags, last_mode, 0, path, 0, err ? err : dummy,
			  err ? err_len : sizeof dummy };
	w.err[0] = '\0';
	*n_links = 0;
	if (!path[0]) {
		snprintf(w.err, w.err_len, "an empty path");
		return -ENOENT;
	}
	int fd = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(w.err, w.err_len, "%s: %s", path[0] == '/' ? "/" : ".", strerror(e));
		return -e;
	}
	fd = walk(&w, fd, path, "", 1);
	*n_links = w.n_links;
	return fd;
}

/* The path of the directory open as `fd`, with no link in it (/proc/self/fd/FD). 0 or -errno. */
static int fs_fd_path(int fd, char *out, size_t len)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(proc, out, len - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	out[n] = '\0';
	if (out[0] != '/')
		return -ENOENT;   /* "... (deleted)" or not a path */
	return 0;
}

/* A directory of the store must be ours: a store in a shared directory (/tmp) could otherwise
 * be a link or a directory planted by another user, through which the runner would write. */
static int check_own_dir(struct store *st, int fd, const char *path)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0) {
		seterr(st, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(sb.st_mode)) {
		seterr(st, "%s: not a directory", path);
		return -ENOTDIR;
	}
	if (sb.st_uid != geteuid()) {
		seterr(st, "%s: owned by uid %u, not by this user (uid %u): refusing to write there",
		       path, (unsigned)sb.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	return 0;
}

/* The runner lock. A reader that found "running" rows holds it shared for the few milliseconds
 * it takes to mark them interrupted (store_runs_interrupt): a runner starting then waits for it
 * (up to a second) instead of taking the reader for another runner. */
static int lock_writer(int fd)
{
	for (int i = 0; i < 50; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			return -1;
		struct timespec nap = { 0, 20000000 };
		nanosleep(&nap, NULL);
	}
	errno = EWOULDBLOCK;
	return -1;
}

/* Writers: in the experiment directory `fd` (reached by fs_open_dir, made 0700 when it was
 * missing), creates runs/ (0700) when missing, checks both are directories of this user,
 * keeps runs/ open (runs are created relative to it, never through a link) and takes the
 * runner lock. */
static int open_writer_dirs(struct store *st, int fd, const char *dir)
{
	char path[PATH_MAX + 32];
	int rc = check_own_dir(st, fd, dir);
	if (rc == 0 && mkdirat(fd, "runs", 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		seterr(st, "%s/runs: cannot create: %s", dir, strerror(errno));
	}
	if (rc == 0) {
		st->runs_fd = openat(fd, "runs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		snprintf(path, sizeof path, "%s/runs", dir);
		if (st->runs_fd < 0) {
			rc = -errno;
			seterr(st, "%s: %s", path, errno == ENOTDIR || errno == ELOOP ?
			       "not a directory (a link or a file)" : strerror(errno));
		} else {
			rc = check_own_dir(st, st->runs_fd, path);
		}
	}
	if (rc == 0) {
		st->lock_fd = openat(fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (st->lock_fd < 0) {
			rc = -errno;
			seterr(st, "%s/lock: %s", dir, strerror(errno));
		} else if (lock_writer(st->lock_fd) < 0) {
			rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
			seterr(st, "%s: %s", dir, rc == -EBUSY ? "another scalegraph run is writing this "
			       "experiment" : strerror(errno));
		}
	}
	return rc;
}

/* The schema version of an existing database: 0 for a new (empty) one. A newer version than
 * this program's is refused: its runs may mean something this program does not know. */
static int check_version(struct store *st, const char *db_path, int *version)
{
	sqlite3_stmt *s;
	*version = 0;
	int src = sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master WHERE type = "
				     "'table' AND name = 'meta'", -1, &s, NULL);
	if (src != SQLITE_OK) {
		seterr(st, "%s: %s", db_path, sqlite3_errmsg(st->db));
		return -EIO;
	}
	src = sqlite3_step(s);
	int have_meta = src == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
	if (src != SQLITE_ROW)
		seterr(st, "%s: %s", db_path, sqlite3_errmsg(st->db));
	sqlite3_finalize(s);
	if (src != SQLITE_ROW)
		return -EIO;
	if (!have_meta)
		return 0;
	char v[32];
	int rc = store_meta_get(st, "schema_version", v, sizeof v);
	if (rc == -ENOENT) {
		seterr(st, "%s: no schema_version in its meta table: not an experiment store",
		       db_path);
		return -EPROTO;
	}
	if (rc < 0) {
		char m[sizeof st->errmsg];
		snprintf(m, sizeof m, "%s", st->errmsg);
		seterr(st, "%s: %.400s", db_path, m);
		return rc;
	}
	char *end;
	long n = strtol(v, &end, 10);
	if (end == v || *end || n < 1) {
		seterr(st, "%s: schema_version '%s' is not a version number", db_path, v);
		return -EPROTO;
	}
	if (n > STORE_SCHEMA_VERSION) {
		seterr(st, "%s: schema version %ld is newer than this scalegraph reads (up to %d): "
		       "use the scalegraph that made it", db_path, n, STORE_SCHEMA_VERSION);
		return -EPROTO;
	}
	*version = (int)n;
	return 0;
}

/* The check of an existing store's pages on every open (docs/store-schema.md, "Damage").
 * PRAGMA integrity_check reads every page of every table and index, checks each b-tree's
 * structure and records, and matches every index entry with its row; quick_check does all but
 * the matching, in O(N) instead of O(N log N). Measured on billiards stores (docs): 63 runs
 * (428 KiB) 4.2 / 2.4 ms, 819 runs (3.7 MiB) 44 / 15 ms, 6363 runs (28 MiB) 465 / 66 ms. The
 * runner, whose series lasts minutes, always takes integrity_check; a reader (report, the GUI,
 * whose open of 64 runs must stay under 300 ms, and which reopens the store after each run
 * of a live series) takes it up to STORE_FULL_CHECK_BYTES and quick_check beyond. A store that
 * fails is refused in every mode (-EPROTO): readers would show figures from damaged pages
 * without a word, and a runner writing into it could spread the damage; the message names the
 * file, gives SQLite's first finding and how to save what is left. */
#define STORE_FULL_CHECK_BYTES (4LL << 20)

static int check_damage(struct store *st, const char *db_path, enum store_mode mode)
{
	sqlite3_stmt *s;
	char first[400] = "";
	long long bytes = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT page_count * page_size FROM pragma_page_count, "
			       "pragma_page_size", -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			bytes = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	const char *pragma = mode == STORE_WRITE || bytes <= STORE_FULL_CHECK_BYTES ?
			     "integrity_check" : "quick_check";
	char sql[32];
	snprintf(sql, sizeof sql, "PRAGMA %s", pragma);
	int n = 0, src = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (src == SQLITE_OK) {
		while ((src = sqlite3_step(s)) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(s, 0);
			if (!t || !strcmp(t, "ok"))
				continue;
			if (!n++)
				snprintf(first, sizeof first, "%s", t);
		}
		sqlite3_finalize(s);
	}
	const char *what = mode == STORE_WRITE ? "nothing is written into it" : "not read";
	if (src != SQLITE_DONE && src != SQLITE_OK) {
		/* the check itself stopped: SQLite's own words ("database disk image is
		 * malformed"), as every other statement on the store would say them */
		int code = sqlite3_errcode(st->db) & 0xff;
		if (code != SQLITE_CORRUPT && code != SQLITE_NOTADB && code != SQLITE_FORMAT) {
			seterr(st, "%s: cannot check the store (PRAGMA %s): %s", db_path, pragma,
			       sqlite3_errmsg(st->db));
			return sql_errno(code);
		}
		seterr(st, "%s: %s (PRAGMA %s stopped on it): the store is damaged; %s: save what "
		       "is left with sqlite3 %s .recover", db_path, sqlite3_errmsg(st->db), pragma,
		       what, db_path);
		return -EPROTO;
	}
	if (!n)
		return 0;
	/* one line; without the "*** in database main ***" heading of the first finding */
	const char *head = "*** in database main ***";
	char *f = first;
	if (!strncmp(f, head, strlen(head)))
		f += strlen(head);
	f += strspn(f, " \n");
	for (char *c = f; *c; c++)
		if (*c == '\n')
			*c = ' ';
	char more[48] = "";
	if (n > 1)
		snprintf(more, sizeof more, "; and %d more finding%s", n - 1, n > 2 ? "s" : "");
	seterr(st, "%s: the store is damaged (PRAGMA %s: %s%s); %s: save what is left with sqlite3 "
	       "%s .recover", db_path, pragma, f, more, what, db_path);
	return -EPROTO;
}

/* Version 1 -> 2: the runs table gains the process of a running run (pid, pid_start, marker).
 * 2 -> 3 needs no statement: the generation and its triggers are made by schema_sql; nor does
 * 3 -> 4: schema_sql makes the plain_runs table (empty) and its triggers. */
static int migrate(struct store *st, int version)
{
	if (version == 1)
		return exec(st, "ALTER TABLE runs ADD COLUMN pid INTEGER; "
			    "ALTER TABLE runs ADD COLUMN pid_start INTEGER; "
			    "ALTER TABLE runs ADD COLUMN marker TEXT;");
	return 0;
}

/* meta.runner: who holds the lock now, named in the reason of the runs it leaves interrupted. */
static int set_runner(struct store *st)
{
	char host[256] = "", v[320];
	if (gethostname(host, sizeof host - 1) < 0)
		snprintf(host, sizeof host, "?");
	snprintf(v, sizeof v, "pid %d on %s", (int)getpid(), host);
	return store_meta_set(st, "runner", v);
}

int store_open_msg(const char *dir, enum store_mode mode, struct store **out, char *err,
		   size_t err_len)
{
	char path[PATH_MAX + 32], abs[PATH_MAX];
	int rc = 0, version = 0, fd = -1;
	struct store *st = calloc(1, sizeof *st);
	*out = NULL;
	if (err && err_len)
		err[0] = '\0';
	if (!st) {
		if (err)
			snprintf(err, err_len, "%s: out of memory", dir);
		return -ENOMEM;
	}
	st->lock_fd = st->runs_fd = -1;
	if (snprintf(st->dir, sizeof st->dir, "%s", dir) >= (int)sizeof st->dir) {
		seterr(st, "%.64s...: path longer than %d bytes", dir, PATH_MAX);
		rc = -ENAMETOOLONG;
		goto out;
	}
	/* the directory, reached by the link rule above in every mode: a writer creates files in
	 * it, and so does a reader (SQLite makes experiment.db-wal and -shm beside a WAL database
	 * even for a read-only connection) */
	char why[PATH_MAX + 1024];
	int n_links = 0;
	fd = fs_open_dir(dir, mode == STORE_WRITE ? FS_CREATE : 0, 0700, &n_links, why, sizeof why);
	if (fd < 0) {
		rc = fd;
		fd = -1;
		if (rc == -ENOENT && mode != STORE_WRITE)
			seterr(st, "%s: no experiment store here (%s)", dir, n_links ? why :
			       "no such directory");
		else
			seterr(st, "%s", why);
		goto out;
	}
	if ((rc = fs_fd_path(fd, abs, sizeof abs)) < 0) {
		seterr(st, "%s: cannot tell its path (/proc/self/fd): %s", dir, strerror(-rc));
		goto out;
	}
	/* everything below the directory is reached by one path: the one given when it holds no
	 * link (its messages name what the user typed), else the resolved one, in which SQLite
	 * (opened with SQLITE_OPEN_NOFOLLOW, which refuses a path holding any link) and the
	 * runner's files meet the directory that the walk checked */
	snprintf(st->real, sizeof st->real, "%s", n_links ? abs : dir);
	if (strlen(abs) + sizeof "/experiment.db-journal" > STORE_DB_PATH_MAX) {
		seterr(st, "%s: the store's path is %zu characters long; SQLite opens databases of "
		       "at most %zu (choose a shorter experiment directory)", dir, strlen(abs),
		       STORE_DB_PATH_MAX - sizeof "/experiment.db-journal");
		rc = -ENAMETOOLONG;
		goto out;
	}
	if (mode == STORE_WRITE && (rc = open_writer_dirs(st, fd, dir)) < 0)
		goto out;
	snprintf(path, sizeof path, "%s/experiment.db", st->real);
	if (mode != STORE_WRITE) {
		struct stat sb;
		if (fstatat(fd, "experiment.db", &sb, 0) < 0) {
			rc = -errno;
			seterr(st, "%s: %s", dir, rc == -ENOENT ? "no experiment store here "
			       "(experiment.db missing)" : strerror(errno));
			goto out;
		}
		if (!S_ISREG(sb.st_mode)) {
			seterr(st, "%s: not a regular file", path);
			rc = -EINVAL;
			goto out;
		}
	}
	int flags = mode == STORE_READ ? SQLITE_OPEN_READONLY
				       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	int src = sqlite3_open_v2(path, &st->db, flags | SQLITE_OPEN_NOFOLLOW, NULL);
	if (src != SQLITE_OK) {
		seterr(st, "%s: %s", path, st->db ? sqlite3_errmsg(st->db) : sqlite3_errstr(src));
		rc = -EIO;
		goto out;
	}
	sqlite3_busy_timeout(st->db, 5000);
	if ((rc = exec(st, "PRAGMA foreign_keys = ON;")) < 0)
		goto sql_fail;
	if ((rc = check_version(st, path, &version)) < 0)
		goto out;
	if (version > 0 && (rc = check_damage(st, path, mode)) < 0)
		goto out;
	st->version = version;
	if (mode != STORE_WRITE && version == 0) {
		seterr(st, "%s: not an experiment store (no meta table)", path);
		rc = -EPROTO;
		goto out;
	}
	if (mode != STORE_READ &&
	    (rc = exec(st, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")) < 0)
		goto sql_fail;
	if (mode == STORE_WRITE) {
		char v[16];
		snprintf(v, sizeof v, "%d", STORE_SCHEMA_VERSION);
		rc = store_begin(st);
		if (rc == 0)
			rc = migrate(st, version);
		if (rc == 0)
			rc = exec(st, schema_sql);
		if (rc == 0)
			rc = store_meta_set(st, "schema_version", v);
		if (rc == 0)
			rc = set_runner(st);
		if ((rc = end_tx(st, rc)) < 0)
			goto sql_fail;
		st->version = STORE_SCHEMA_VERSION;
	}
	goto out;
sql_fail: {
	/* SQLite's text says what, not where */
	char m[sizeof st->errmsg];
	snprintf(m, sizeof m, "%s", st->errmsg);
	seterr(st, "%s: %.400s", path, m[0] ? m : strerror(-rc));
}
out:
	if (fd >= 0)
		close(fd);
	if (rc < 0) {
		if (err)
			snprintf(err, err_len, "%s", st->errmsg[0] ? st->errmsg : strerror(-rc));
		store_close(st);
	} else {
		*out = st;
	}
	return rc;
}

int store_open(const char *dir, enum store_mode mode, struct store **out)
{
	return store_open_msg(dir, mode, out, NULL, 0);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->db)
		sqlite3_close(st->db);
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	if (st->runs_fd >= 0)
		close(st->runs_fd);
	free(st);
}

int store_runs_fd(const struct store *st) { return st->runs_fd; }
sqlite3 *store_db(struct store *st) { return st->db; }
const char *store_dir(const struct store *st) { return st->dir; }
const char *store_real_dir(const struct store *st) { return st->real; }
const char *store_errmsg(const struct store *st) { return st->errmsg; }

int store_begin(struct store *st) { return exec(st, "BEGIN IMMEDIATE"); }
int store_commit(struct store *st) { return exec(st, "COMMIT"); }
void store_rollback(struct store *st) { sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL); }

int store_meta_set(struct store *st, const char *key, const char *value)
{
	return exec_bound(st, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", "tt", key,
			  value);
}

int store_meta_get(struct store *st, const char *key, char *value, size_t len)
{
	sqlite3_stmt *s;
	int rc = prepare(st, "SELECT value FROM meta WHERE key = ?", &s);
	if (rc < 0)
		return rc;
	bind_text(s, 1, key);
	int src = sqlite3_step(s);
	if (src == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(s, 0);
		snprintf(value, len, "%s", t ? (const char *)t : "");
	} else {
		rc = src == SQLITE_DONE ? -ENOENT : fail(st, src);
	}
	sqlite3_finalize(s);
	return rc;
}

int store_generation(struct store *st, long long *gen)
{
	char v[32];
	sqlite3_stmt *s;
	int rc = store_meta_get(st, "generation", v, sizeof v);
	if (rc == 0) {
		*gen = strtoll(v, NULL, 10);
		return 0;
	}
	if (rc != -ENOENT)
		return rc;
	/* a store of schema < 3 has no generation: a digest of what its runner changes */
	rc = prepare(st, "SELECT count(*), total(id), total(length(status) * id), "
		     "total(t_para_s), (SELECT count(*) || ':' || total(id) FROM points) FROM runs",
		     &s);
	if (rc < 0)
		return rc;
	unsigned long long h = 0xcbf29ce484222325ull;
	if (sqlite3_step(s) == SQLITE_ROW)
		for (int i = 0; i < 5; i++) {
			const unsigned char *t = sqlite3_column_text(s, i);
			for (; t && *t; t++)
				h = (h ^ *t) * 0x100000001b3ull;
			h = (h ^ '|') * 0x100000001b3ull;
		}
	else
		rc = fail(st, sqlite3_errcode(st->db));
	sqlite3_finalize(s);
	*gen = (long long)(h >> 1) | (1ll << 62);   /* never a small generation number */
	return rc;
}

int store_spec_set(struct store *st, const char *path, const char *text, const char *overrides,
		   const char *work_expr)
{
	return exec_bound(st, "INSERT OR REPLACE INTO spec(id, path, text, overrides, work_expr) "
			      "VALUES (1, ?, ?, ?, ?)", "tttt", path, text, overrides, work_expr);
}

int store_machine_set(struct store *st, const char *cpu_model, int n_cpus, const char *kernel,
		      double tsc_hz, const char *json)
{
	return exec_bound(st, "INSERT OR REPLACE INTO machine(id, cpu_model, n_cpus, kernel, tsc_hz, "
			      "json) VALUES (1, ?, ?, ?, ?, ?)", "titrt", cpu_model, n_cpus, kernel,
			  tsc_hz, json);
}

int store_defs_clear(struct store *st)
{
	return exec(st, "DELETE FROM params; DELETE FROM methods; DELETE FROM models;");
}

int store_param_add(struct store *st, const char *name, double base, double bytes_per_unit,
		    int position)
{
	return exec_bound(st, "INSERT INTO params(name, base, bytes_per_unit, position) "
			      "VALUES (?, ?, ?, ?)", "trri", name, base, bytes_per_unit, position);
}

int store_method_add(struct store *st, const char *name, const char *formulas, int position)
{
	return exec_bound(st, "INSERT INTO methods(name, formulas, position) VALUES (?, ?, ?)", "tti",
			  name, formulas, position);
}

int store_model_add(struct store *st, const char *kind, double target, const char *along,
		    const char *unit)
{
	return exec_bound(st, "INSERT INTO models(kind, target, unit, along) VALUES (?, ?, ?, ?)",
			  "trtt", kind, target, unit, along);
}

/* The highest run id ever given, kept in meta so that no id is given twice even after its row
 * was dropped (an id names a directory runs/<id>/ that may outlive its row). */
static int64_t last_run_id(struct store *st)
{
	char v[32];
	int64_t max = 0;
	sqlite3_stmt *s;
	if (store_meta_get(st, "last_run_id", v, sizeof v) == 0)
		max = strtoll(v, NULL, 10);
	if (prepare(st, "SELECT max(id) FROM runs", &s) == 0) {
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int64(s, 0) > max)
			max = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	return max < 0 ? 0 : max;
}

static int set_last_run_id(struct store *st, int64_t id)
{
	char v[32];
	snprintf(v, sizeof v, "%lld", (long long)id);
	return store_meta_set(st, "last_run_id", v);
}

int store_run_id_floor(struct store *st, int64_t id)
{
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	if (last_run_id(st) < id)
		rc = set_last_run_id(st, id);
	return end_tx(st, rc);
}

int store_run_begin(struct store *st, struct store_run *r)
{
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	r->id = last_run_id(st) + 1;
	rc = exec_bound(st, "INSERT INTO runs(id, kind, n_threads, sizes, work, rep, status, argv, "
			    "oversubscribed, started_at, marker) VALUES (?, ?, ?, ?, ?, ?, 'running', ?, "
			    "?, ?, ?)", "ltitrititt", r->id, r->kind, r->n_threads, r->sizes, r->work,
			    r->rep, r->argv, r->oversubscribed, r->started_at,
			    r->marker[0] ? r->marker : NULL);
	if (rc == 0)
		rc = set_last_run_id(st, r->id);
	rc = end_tx(st, rc);
	if (rc == 0)
		snprintf(r->status, sizeof r->status, "running");
	return rc;
}

int store_run_set_pid(struct store *st, int64_t id, int pid, int64_t pid_start)
{
	return exec_bound(st, "UPDATE runs SET pid = ?, pid_start = ? WHERE id = ?", "ill", pid,
			  pid_start, id);
}

int store_run_delete(struct store *st, int64_t id)
{
	return exec_bound(st, "DELETE FROM runs WHERE id = ?", "l", id);
}

static int run_update(struct store *st, const struct store_run *r)
{
	return exec_bound(st, "UPDATE runs SET status = ?, reason = ?, exit_code = ?, signal = ?, "
			      "t_wall_s = ?, t_user_s = ?, t_sys_s = ?, max_rss_kb = ?, t_para_s = ?, "
			      "t_para_source = ?, finished_at = ?, argv = ? WHERE id = ?", "ttiirrrlrtttl",
			  r->status, r->reason[0] ? r->reason : NULL, r->exit_code, r->signal,
			  r->t_wall_s, r->t_user_s, r->t_sys_s, (int64_t)r->max_rss_kb, r->t_para_s,
			  r->t_para_source[0] ? r->t_para_source : NULL, r->finished_at, r->argv, r->id);
}

int store_run_finish(struct store *st, const struct store_run *r, int n_params,
		     const char *const *param_names, const double *param_values,
		     int n_counters, const struct store_counter *counters)
{
	sqlite3_stmt *s = NULL;
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	rc = run_update(st, r);
	if (rc < 0)
		goto out;
	rc = prepare(st, "INSERT OR REPLACE INTO run_params(run_id, name, value) VALUES (?, ?, ?)", &s);
	for (int i = 0; rc == 0 && i < n_params; i++) {
		sqlite3_bind_int64(s, 1, r->id);
		bind_text(s, 2, param_names[i]);
		bind_real(s, 3, param_values[i]);
		rc = step_row(st, s);
	}
	sqlite3_finalize(s);
	s = NULL;
	if (rc < 0)
		goto out;
	rc = prepare(st, "INSERT INTO run_counters(run_id, thread, name, unit, value, unavailable) "
			 "VALUES (?, ?, ?, ?, ?, ?)", &s);
	for (int i = 0; rc == 0 && i < n_counters; i++) {
		const struct store_counter *c = &counters[i];
		sqlite3_bind_int64(s, 1, r->id);
		sqlite3_bind_int(s, 2, c->thread);
		bind_text(s, 3, c->name);
		bind_text(s, 4, c->unit);
		bind_real(s, 5, c->unavailable ? NAN : c->value);
		bind_text(s, 6, c->unavailable);
		rc = step_row(st, s);
	}
	sqlite3_finalize(s);
out:
	return end_tx(st, rc);
}

static void col_text(sqlite3_stmt *s, int i, char *buf, size_t len)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	snprintf(buf, len, "%s", t ? (const char *)t : "");
}

static double col_real(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

int store_run_find(struct store *st, const char *kind, int n_threads, const char *sizes, int rep,
		   struct store_run *out)
{
	sqlite3_stmt *s;
	int rc = prepare(st, "SELECT id, work, status, reason, argv, exit_code, signal, "
			     "oversubscribed, t_wall_s, t_user_s, t_sys_s, max_rss_kb, t_para_s, "
			     "t_para_source, started_at, finished_at FROM runs WHERE kind = ? AND "
			     "n_threads = ? AND sizes = ? AND rep = ? AND status NOT IN ('running', "
			     "'interrupted')", &s);
	if (rc < 0)
		return rc;
	bind_text(s, 1, kind);
	sqlite3_bind_int(s, 2, n_threads);
	bind_text(s, 3, sizes);
	sqlite3_bind_int(s, 4, rep);
	int src = sqlite3_step(s);
	if (src == SQLITE_ROW) {
		memset(out, 0, sizeof *out);
		out->id = sqlite3_column_int64(s, 0);
		snprintf(out->kind, sizeof out->kind, "%s", kind);
		out->n_threads = n_threads;
		snprintf(out->sizes, sizeof out->sizes, "%s", sizes);
		out->rep = rep;
		out->work = col_real(s, 1);
		col_text(s, 2, out->status, sizeof out->status);
		col_text(s, 3, out->reason, sizeof out->reason);
		col_text(s, 4, out->argv, sizeof out->argv);
		out->exit_code = sqlite3_column_int(s, 5);
		out->signal = sqlite3_column_int(s, 6);
		out->oversubscribed = sqlite3_column_int(s, 7);
		out->t_wall_s = col_real(s, 8);
		out->t_user_s = col_real(s, 9);
		out->t_sys_s = col_real(s, 10);
		out->max_rss_kb = (long)sqlite3_column_int64(s, 11);
		out->t_para_s = col_real(s, 12);
		col_text(s, 13, out->t_para_source, sizeof out->t_para_source);
		col_text(s, 14, out->started_at, sizeof out->started_at);
		col_text(s, 15, out->finished_at, sizeof out->finished_at);
	} else {
		rc = src == SQLITE_DONE ? -ENOENT : fail(st, src);
	}
	sqlite3_finalize(s);
	return rc;
}

int store_plain_next_id(struct store *st, int64_t *id)
{
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	int64_t next = last_run_id(st) + 1;
	sqlite3_stmt *s;
	/* a plain run's id is above every plain row too (their ids are runs' ids) */
	if (prepare(st, "SELECT max(id) FROM plain_runs", &s) == 0) {
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int64(s, 0) >= next)
			next = sqlite3_column_int64(s, 0) + 1;
		sqlite3_finalize(s);
	}
	rc = set_last_run_id(st, next);
	rc = end_tx(st, rc);
	if (rc == 0)
		*id = next;
	return rc;
}

int store_plain_put(struct store *st, const struct store_run *r)
{
	return exec_bound(st, "INSERT OR REPLACE INTO plain_runs(id, n_threads, sizes, rep, status, "
			      "reason, argv, exit_code, signal, t_wall_s, t_user_s, t_sys_s, "
			      "max_rss_kb, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
			      "?, ?, ?, ?, ?, ?)", "lititttiirrrltt", r->id, r->n_threads, r->sizes,
			  r->rep, r->status, r->reason[0] ? r->reason : NULL, r->argv, r->exit_code,
			  r->signal, r->t_wall_s, r->t_user_s, r->t_sys_s, (int64_t)r->max_rss_kb,
			  r->started_at, r->finished_at);
}

int store_plain_find(struct store *st, int n_threads, const char *sizes, int rep,
		     struct store_run *out)
{
	sqlite3_stmt *s;
	int rc = prepare(st, "SELECT id, status, reason, argv, exit_code, signal, t_wall_s, "
			     "t_user_s, t_sys_s, max_rss_kb, started_at, finished_at FROM plain_runs "
			     "WHERE n_threads = ? AND sizes = ? AND rep = ?", &s);
	if (rc < 0)
		return rc;
	sqlite3_bind_int(s, 1, n_threads);
	bind_text(s, 2, sizes);
	sqlite3_bind_int(s, 3, rep);
	int src = sqlite3_step(s);
	if (src == SQLITE_ROW) {
		memset(out, 0, sizeof *out);
		out->id = sqlite3_column_int64(s, 0);
		snprintf(out->kind, sizeof out->kind, "pln");
		out->n_threads = n_threads;
		snprintf(out->sizes, sizeof out->sizes, "%s", sizes);
		out->rep = rep;
		col_text(s, 1, out->status, sizeof out->status);
		col_text(s, 2, out->reason, sizeof out->reason);
		col_text(s, 3, out->argv, sizeof out->argv);
		out->exit_code = sqlite3_column_int(s, 4);
		out->signal = sqlite3_column_int(s, 5);
		out->t_wall_s = col_real(s, 6);
		out->t_user_s = col_real(s, 7);
		out->t_sys_s = col_real(s, 8);
		out->max_rss_kb = (long)sqlite3_column_int64(s, 9);
		out->t_para_s = NAN;
		col_text(s, 10, out->started_at, sizeof out->started_at);
		col_text(s, 11, out->finished_at, sizeof out->finished_at);
	} else {
		rc = src == SQLITE_DONE ? -ENOENT : fail(st, src);
	}
	sqlite3_finalize(s);
	return rc;
}

int store_plain_select(struct store *st, int all, int64_t **out)
{
	sqlite3_stmt *s;
	int n = 0, cap = 0, src;
	*out = NULL;
	int rc = prepare(st, all ? "SELECT id FROM plain_runs ORDER BY id"
			 : "SELECT id FROM plain_runs WHERE status <> 'ok' ORDER BY id", &s);
	if (rc < 0)
		return rc;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			int nc = cap ? 2 * cap : 16;
			int64_t *v = realloc(*out, (size_t)nc * sizeof *v);
			if (!v) {
				sqlite3_finalize(s);
				free(*out);
				*out = NULL;
				return -ENOMEM;
			}
			*out = v;
			cap = nc;
		}
		(*out)[n++] = sqlite3_column_int64(s, 0);
	}
	if (src != SQLITE_DONE) {
		rc = fail(st, src);
		free(*out);
		*out = NULL;
	}
	sqlite3_finalize(s);
	return rc < 0 ? rc : n;
}

int store_plain_delete(struct store *st, int64_t id)
{
	return exec_bound(st, "DELETE FROM plain_runs WHERE id = ?", "l", id);
}

static const char *drop_where(enum store_drop which)
{
	return which == STORE_DROP_STALE ? "status IN ('running', 'interrupted')"
					 : "status IN ('failed', 'timeout', 'incomplete')";
}

/* 1 when no runner holds the lock of the store in `dir` (taken shared: *fd keeps it until the
 * caller closes it), 0 when one does or when that cannot be told (the lock file unreadable). */
static int runner_gone(const char *dir, int *fd)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/lock", dir);
	*fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT;   /* no runner ever locked it */
	if (flock(*fd, LOCK_SH | LOCK_NB) < 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	return 1;
}

int store_runner_active(const char *dir)
{
	int fd = -1;
	int gone = runner_gone(dir, &fd);
	if (fd >= 0)
		close(fd);
	if (gone)
		return 0;
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/lock", dir);
	return access(path, R_OK) == 0 ? 1 : -1;   /* held, or a lock we cannot read */
}

int store_runs_interrupt(struct store *st)
{
	char runner[256] = "", reason[400];
	int fd = -1, n = 0, rc = 0;
	sqlite3_stmt *s;
	if (st->version < 3 || !st->db || sqlite3_db_readonly(st->db, "main") == 1)
		return 0;
	/* the runner itself (holding the lock) knows every running row is stale */
	if (st->lock_fd < 0 && !runner_gone(st->real, &fd))
		return 0;
	if ((rc = prepare(st, "SELECT count(*) FROM runs WHERE status = 'running'", &s)) < 0)
		goto out;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (n == 0)
		goto out;
	if (store_meta_get(st, "runner", runner, sizeof runner) < 0 || !runner[0])
		snprintf(runner, sizeof runner, "that made it");
	snprintf(reason, sizeof reason, "the runner (%s) ended before the run finished; the next "
		 "scalegraph run makes it again", runner);
	rc = exec_bound(st, "UPDATE runs SET status = 'interrupted', reason = ? WHERE status = "
			    "'running'", "t", reason);
	if (rc == 0)
		rc = sqlite3_changes(st->db);
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

int store_runs_select(struct store *st, enum store_drop which, struct store_run_ref **out)
{
	char sql[200];
	sqlite3_stmt *s;
	struct store_run_ref *v = NULL;
	size_t n = 0, cap = 0;
	*out = NULL;
	snprintf(sql, sizeof sql, "SELECT id, pid, pid_start, marker FROM runs WHERE %s ORDER BY id",
		 drop_where(which));
	int rc = prepare(st, sql, &s);
	if (rc < 0)
		return rc;
	int src;
	while ((src = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 64;
			struct store_run_ref *g = realloc(v, nc * sizeof *v);
			if (!g) {
				rc = -ENOMEM;
				break;
			}
			v = g;
			cap = nc;
		}
		struct store_run_ref *x = &v[n++];
		memset(x, 0, sizeof *x);
		x->id = sqlite3_column_int64(s, 0);
		x->pid = sqlite3_column_int(s, 1);
		x->pid_start = sqlite3_column_int64(s, 2);
		col_text(s, 3, x->marker, sizeof x->marker);
	}
	if (rc == 0 && src != SQLITE_DONE)
		rc = fail(st, src);
	sqlite3_finalize(s);
	if (rc < 0) {
		free(v);
		return rc;
	}
	*out = v;
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

int store_runs_drop(struct store *st, enum store_drop which)
{
	char sql[200];
	snprintf(sql, sizeof sql, "DELETE FROM runs WHERE %s", drop_where(which));
	int rc = store_begin(st);
	if (rc == 0)
		rc = exec(st, sql);
	int n = rc == 0 ? sqlite3_changes(st->db) : 0;
	rc = end_tx(st, rc);
	return rc < 0 ? rc : n;
}

int store_point_put(struct store *st, struct store_point *p, int n_runs, const int64_t *run_ids,
		    const char *const *roles)
{
	sqlite3_stmt *s = NULL;
	int rc = store_begin(st);
	if (rc < 0)
		return rc;
	rc = prepare(st, "DELETE FROM points WHERE model = ? AND method = ? AND n_threads = ?", &s);
	if (rc < 0)
		goto out;
	bind_text(s, 1, p->model);
	bind_text(s, 2, p->method);
	sqlite3_bind_int(s, 3, p->n_threads);
	rc = step_done(st, s);
	if (rc < 0)
		goto out;
	rc = prepare(st, "INSERT INTO points(model, method, n_threads, scale, sizes, work, target, "
			 "t_para_s, t_seq_s, t_seq_source, efficiency, search_runs, converged, "
			 "oversubscribed, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		     &s);
	if (rc < 0)
		goto out;
	bind_text(s, 1, p->model);
	bind_text(s, 2, p->method);
	sqlite3_bind_int(s, 3, p->n_threads);
	bind_real(s, 4, p->scale);
	bind_text(s, 5, p->sizes);
	bind_real(s, 6, p->work);
	bind_real(s, 7, p->target);
	bind_real(s, 8, p->t_para_s);
	bind_real(s, 9, p->t_seq_s);
	bind_text(s, 10, p->t_seq_source[0] ? p->t_seq_source : NULL);
	bind_real(s, 11, p->efficiency);
	sqlite3_bind_int(s, 12, p->search_runs);
	sqlite3_bind_int(s, 13, p->converged);
	sqlite3_bind_int(s, 14, p->oversubscribed);
	bind_text(s, 15, p->note[0] ? p->note : NULL);
	rc = step_done(st, s);
	if (rc < 0)
		goto out;
	p->id = sqlite3_last_insert_rowid(st->db);
	rc = prepare(st, "INSERT OR IGNORE INTO point_runs(point_id, run_id, role) VALUES (?, ?, ?)",
		     &s);
	for (int i = 0; rc == 0 && i < n_runs; i++) {
		sqlite3_bind_int64(s, 1, p->id);
		sqlite3_bind_int64(s, 2, run_ids[i]);
		bind_text(s, 3, roles[i]);
		rc = step_row(st, s);
	}
	sqlite3_finalize(s);
out:
	return end_tx(st, rc);
}

int store_metric_put(struct store *st, int64_t run_id, int64_t point_id, int64_t point2_id,
		     const char *name, double value, const char *unit, const char *unavailable)
{
	return exec_bound(st, "INSERT INTO metrics(run_id, point_id, point2_id, name, value, unit, "
			      "unavailable) VALUES (?, ?, ?, ?, ?, ?, ?)", "LLLtrtt", run_id, point_id,
			  point2_id, name, unavailable ? NAN : value, unit, unavailable);
}
