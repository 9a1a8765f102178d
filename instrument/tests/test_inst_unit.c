/*
 * test_inst_unit.c — cmocka unit tests of the instrumenter's parts through its public API and
 * private helpers: filter files (syntax, errors with file:line:col, last-match-wins), region
 * pragma parsing, edit splicing, the selection rules, the wrapped-name check and the renaming of
 * semaphore calls, and inputs that must never crash or change (empty, NUL bytes, unbalanced
 * brackets, deep nesting, huge identifiers).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "inst_int.h"

/* Instruments `src` with `mode`, quietly; returns the malloc'd output. */
static char *run(const char *src, enum inst_func_mode mode, const struct inst_filter *f,
		 struct inst_result *res)
{
	struct inst_options o = { .func_mode = mode, .filter = f, .quiet = 1 };
	assert_int_equal(inst_file(src, strlen(src), "t.c", &o, res), 0);
	return res->text;
}

static void test_filter_syntax(void **state)
{
	(void)state;
	const char *txt = "# comment\nSCOREP_REGION_NAMES_BEGIN\n EXCLUDE *\n INCLUDE solve_* main\n"
			  " EXCLUDE solve_b\nSCOREP_REGION_NAMES_END\nFILE_NAMES_BEGIN\n"
			  " EXCLUDE *gen*.c\nFILE_NAMES_END\n";
	struct inst_filter *f = NULL;
	assert_int_equal(inst_filter_parse(txt, strlen(txt), "f.filt", stderr, &f), 0);
	assert_int_equal(inst_filter_select(f, "solve_a", 7, "x.c", 0), 1);
	assert_int_equal(inst_filter_select(f, "solve_b", 7, "x.c", 1), 0);
	assert_int_equal(inst_filter_select(f, "helper", 6, "x.c", 1), 0);
	assert_int_equal(inst_filter_select(f, "main", 4, "x.c", 0), 1);
	assert_int_equal(inst_filter_select(f, "main", 4, "src/gen_parser.c", 1), 0);
	inst_filter_free(f);
}

static void test_filter_errors(void **state)
{
	(void)state;
	char buf[256] = "";
	FILE *mem = fmemopen(buf, sizeof buf, "w");
	struct inst_filter *f = NULL;
	const char *bad = "REGION_NAMES_BEGIN\n  foo\nREGION_NAMES_END\n";
	assert_int_equal(inst_filter_parse(bad, strlen(bad), "x.filt", mem, &f), -EINVAL);
	fclose(mem);
	assert_non_null(strstr(buf, "x.filt:2:3: error: expected INCLUDE or EXCLUDE"));
	assert_null(f);
	const char *open = "REGION_NAMES_BEGIN\n INCLUDE a\n";
	mem = fmemopen(buf, sizeof buf, "w");
	assert_int_equal(inst_filter_parse(open, strlen(open), "y.filt", mem, &f), -EINVAL);
	fclose(mem);
	assert_non_null(strstr(buf, "y.filt:1:1: error: block is never closed"));
}

static void test_pragma_parse(void **state)
{
	(void)state;
	const char *name;
	size_t n;
	const char *p1 = "  #  pragma scalegraph region begin \"solve\" // c";
	assert_int_equal(inst_pragma_parse(p1, strlen(p1), &name, &n), PRAGMA_BEGIN);
	assert_int_equal(n, 7);
	assert_memory_equal(name, "\"solve\"", 7);
	const char *p2 = "#pragma scalegraph region end";
	assert_int_equal(inst_pragma_parse(p2, strlen(p2), &name, &n), PRAGMA_END);
	assert_null(name);
	const char *p3 = "#pragma scalegraph regoin begin \"x\"";
	assert_int_equal(inst_pragma_parse(p3, strlen(p3), &name, &n), PRAGMA_BAD);
	const char *p4 = "#pragma omp parallel";
	assert_int_equal(inst_pragma_parse(p4, strlen(p4), &name, &n), 0);
}

static void test_edits(void **state)
{
	(void)state;
	struct inst_edits e = { 0 };
	const char *src = "abcdef";
	edits_add(&e, 3, 0, "X", 1);
	edits_add(&e, 0, 1, "Z", 1);
	edits_add(&e, 3, 1, "Y", 1); /* same offset: kept in insertion order */
	edits_addf(&e, 6, 0, "<%d>", 7);
	char *out;
	size_t len;
	assert_int_equal(edits_apply(&e, src, 6, &out, &len), 0);
	assert_string_equal(out, "ZbcXYef<7>");
	assert_int_equal(len, 10);
	free(out);
	edits_free(&e);
}

static void test_selection(void **state)
{
	(void)state;
	/* default rule: loops or sync calls count only in functions that also call others */
	const char *src = "static int leaf(int x) { return x; }\n"
			  "int loop(int n) { while (n) n -= leaf(1); return n; }\n"
			  "int leaf_loop(int n) { while (n) n--; return n; }\n"
			  "int straight(int n) { return leaf(n); }\n";
	struct inst_result r;
	char *out = run(src, INST_FUNC_DEFAULT, NULL, &r);
	assert_int_equal(r.n_functions, 4);
	assert_int_equal(r.n_probed, 1);
	assert_non_null(strstr(out, "{ \"loop\", \"t.c\", 2, 0 }"));
	assert_null(strstr(out, "\"leaf\""));
	assert_null(strstr(out, "\"leaf_loop\""));
	assert_null(strstr(out, "\"straight\""));
	assert_non_null(strstr(out, "#include <sgtrace.h>\n#line 2 \"t.c\"\nint loop"));
	inst_result_free(&r);
	out = run(src, INST_FUNC_ALL, NULL, &r);
	assert_int_equal(r.n_probed, 4);
	assert_non_null(strstr(out, "#include <sgtrace.h>\n#line 1 \"t.c\"\nstatic int leaf"));
	inst_result_free(&r);
	out = run(src, INST_FUNC_NONE, NULL, &r);
	assert_string_equal(out, src);
	inst_result_free(&r);
}

/* A helper of n statements with a short loop and a libm-like call, called in a loop. */
static char *tiny_src(int n_stmts, const char *loop)
{
	static char buf[4096];
	int o = snprintf(buf, sizeof buf, "double h(double *v) { double s = 0; %s s += ext(v[k]);",
			 loop);
	for (int i = 2; i < n_stmts; i++)
		o += snprintf(buf + o, sizeof buf - (size_t)o, " s += %d;", i);
	snprintf(buf + o, sizeof buf - (size_t)o, " }\n"
		 "double d(double *v, int n) { double s = 0; while (n--) s += h(v); return s; }\n");
	return buf;
}

static void test_tiny_helper_bounds(void **state)
{
	(void)state;
	struct inst_result r;
	/* 32 statements (the declaration, the loop, 30 more): tiny, left out */
	char *out = run(tiny_src(32, "for (int k = 0; k < 3; k++)"), INST_FUNC_DEFAULT, NULL, &r);
	assert_null(strstr(out, "\"h\""));
	assert_non_null(strstr(out, "\"d\""));
	inst_result_free(&r);
	/* 33: not tiny any more, probed */
	out = run(tiny_src(33, "for (int k = 0; k < 3; k++)"), INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	/* a loop bound above 16, or a while loop, is a real loop: not tiny */
	out = run(tiny_src(4, "for (int k = 0; k < 17; k++)"), INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	out = run(tiny_src(4, "for (int k = 0; k <= 0x10; k++)"), INST_FUNC_DEFAULT, NULL, &r);
	assert_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	out = run(tiny_src(4, "for (int k = 0; k < n_dim; k++)"), INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	/* a helper calling a function defined here is not tiny: the callee may be big */
	const char *src = "static int big(int x) { for (;;) return x; }\n"
			  "int h(int x) { for (int k = 0; k < 2; k++) x += big(x); return x; }\n"
			  "int d(int n) { int s = 0; while (n--) s += h(n); return s; }\n";
	out = run(src, INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	/* not called in a loop: probed */
	src = "int h(int x) { for (int k = 0; k < 2; k++) x += ext(x); return x; }\n"
	      "int d(int n) { if (n) return h(n); for (;;) return ext(0); }\n";
	out = run(src, INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"h\""));
	inst_result_free(&r);
	/* a member call of the same name is not recursion */
	src = "int walk(struct t *n) { int s = 0; while (n) { s += n->walk(n) + ext(n); n = n->next; } return s; }\n";
	out = run(src, INST_FUNC_DEFAULT, NULL, &r);
	assert_non_null(strstr(out, "\"walk\""));
	inst_result_free(&r);
}

static void test_include_once_per_branch(void **state)
{
	(void)state;
	const char *src = "#ifdef A\nint f(void) { for (;;) return 1; }\n#endif\n"
			  "int g(void) { for (;;) return 2; }\nint h(void) { for (;;) return 3; }\n";
	struct inst_result r;
	char *out = run(src, INST_FUNC_ALL, NULL, &r);
	assert_int_equal(r.n_probed, 3);
	/* one include inside #ifdef A for f, one outside for g (A may be off), none for h */
	const char *first = strstr(out, "#include <sgtrace.h>");
	assert_non_null(first);
	const char *second = strstr(first + 1, "#include <sgtrace.h>");
	assert_non_null(second);
	assert_null(strstr(second + 1, "#include <sgtrace.h>"));
	assert_true(strstr(out, "#endif") < second);
	inst_result_free(&r);
}

/* A region name with NUL bytes inside its literal (fuzz find; gcc keeps them): the call gets
 * the whole literal, closing quote included. */
static void test_region_name_with_nul(void **state)
{
	(void)state;
	static const char src[] = "void f(void)\n{\n#pragma scalegraph region begin \"o\0\0uter\"\n"
				  "\t;\n#pragma scalegraph region end\n}\n";
	static const char want[] = "sg_region_begin(\"o\0\0uter\");";
	struct inst_options o = { .func_mode = INST_FUNC_NONE, .quiet = 1 };
	struct inst_result r;
	assert_int_equal(inst_file(src, sizeof src - 1, "t.c", &o, &r), 0);
	assert_int_equal(r.n_regions, 2);
	assert_non_null(memmem(r.text, r.len, want, sizeof want - 1));
	inst_result_free(&r);
}

/* A stray backslash before the first probed item (fuzz find): the include must not be spliced
 * onto the backslash's line by the newline inserted before it. */
static void test_include_after_stray_backslash(void **state)
{
	(void)state;
	const char *src = "int a;\n\\void f(void) { pthread_mutex_lock(&m); }\n";
	struct inst_result r;
	char *out = run(src, INST_FUNC_NONE, NULL, &r);
	assert_int_equal(r.n_renamed, 1);
	assert_non_null(strstr(out, "int a;\n\\\n\n#include <sgtrace.h>\n"
			       "#line 2 \"t.c\"\nvoid f"));
	inst_result_free(&r);
}

/* The fast check of wrapped names: every name sgtrace.h wraps, and the near misses around them
 * (other sem_/pthread_ functions, prefixes, longer names, the length bound respected). */
static void test_is_wrapped(void **state)
{
	(void)state;
	static const char *yes[] = {
		"pthread_create", "pthread_join", "pthread_mutex_lock", "pthread_mutex_trylock",
		"pthread_mutex_unlock", "pthread_barrier_wait", "pthread_spin_lock",
		"pthread_spin_trylock", "pthread_spin_unlock", "pthread_rwlock_rdlock",
		"pthread_rwlock_tryrdlock", "pthread_rwlock_wrlock", "pthread_rwlock_trywrlock",
		"pthread_rwlock_unlock", "pthread_cond_wait", "pthread_cond_timedwait",
		"pthread_cond_signal", "pthread_cond_broadcast",
		"sem_init", "sem_open", "sem_wait", "sem_trywait", "sem_post", "sem_timedwait",
		"sem_clockwait",
		"_exit", "_Exit", "execve", "execv", "execvp", "execvpe", "execl", "execlp",
		"execle", "fexecve",
	};
	static const char *no[] = {
		"", "s", "p", "sem_", "sem_w", "sem_wai", "sem_waitx", "sem_wait_count",
		"my_sem_wait", "Sem_wait", "sem_destroy", "sem_getvalue", "sem_close", "sem_unlink",
		"sem_timedwaitx", "sem_clockwai", "semwait", "sem_post_", "pthread_",
		"pthread_mutex_init", "pthread_create_x", "pthread_self", "pthread_exit",
		"sg_sem_wait", "sg_pthread_mutex_lock", "main",
		"exit", "_exi", "_exit_", "__exit", "_EXIT", "exec", "execx", "execvx", "execlpe",
		"fexecv", "fexecvex", "extern", "errno", "_Bool", "fprintf", "sg__exit",
	};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		assert_true(inst_is_wrapped(yes[i], strlen(yes[i])));
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_false(inst_is_wrapped(no[i], strlen(no[i])));
	/* only len bytes count: the start of a longer identifier is not the name */
	assert_true(inst_is_wrapped("sem_waitx", 8));
	assert_false(inst_is_wrapped("sem_wait", 7));
	assert_false(inst_is_wrapped("pthread_join", 11));
}

/* Semaphore calls are renamed like pthread calls (also in #define bodies); struct members and
 * identifiers that merely contain a wrapped name are not, and a member access is not warned
 * about, while a name taken as a function pointer is. */
static void test_sem_rename(void **state)
{
	(void)state;
	const char *src =
		"#define ACQ(s) sem_wait(s)\n"
		"int f(sem_t *s, struct st *o)\n"
		"{\n"
		"\tint my_sem_wait_count = 0;\n"
		"\tsem_post(s); sem_trywait(s); o->sem_post++; o->sem_wait(s);\n"
		"\tint (*fp)(sem_t *) = sem_post;\n"
		"\treturn ACQ(s) + my_sem_wait_count + sem_getvalue(s, 0) + fp(s);\n"
		"}\n";
	char buf[512] = "";
	FILE *mem = fmemopen(buf, sizeof buf, "w");
	struct inst_options o = { .diag = mem, .func_mode = INST_FUNC_NONE, .site_args = 1 };
	struct inst_result r;
	assert_int_equal(inst_file(src, strlen(src), "s.c", &o, &r), 0);
	fclose(mem);
	assert_int_equal(r.n_renamed, 3);
	/* waits pass their call site (the body's first, then the #define's) */
	assert_non_null(strstr(r.text, "#define ACQ(s) sg_sem_wait_at(&sg_site_2, s)\n"));
	assert_non_null(strstr(r.text, "\tsg_sem_post(s); sg_sem_trywait_at(&sg_site_1, s); "
			       "o->sem_post++; o->sem_wait(s);\n"));
	assert_non_null(strstr(r.text, "\tint (*fp)(sem_t *) = sem_post;\n"));
	assert_non_null(strstr(r.text, "+ my_sem_wait_count + sem_getvalue(s, 0) +"));
	assert_string_equal(buf, "s.c:6:23: warning: 'sem_post' is named but not called here (its "
			    "address taken?): calls through it are not traced\n");
	inst_result_free(&r);
}

/* Call sites (issue 15): which wrapped names take one, and the rewrite of calls that do: the
 * descriptor's file, line and function (none in a macro body), no comma for an empty argument
 * list, comments and line breaks between the name and its arguments. */
static void test_site_calls(void **state)
{
	(void)state;
	static const char *site[] = {
		"pthread_join", "pthread_mutex_lock", "pthread_mutex_trylock", "pthread_barrier_wait",
		"pthread_spin_lock", "pthread_spin_trylock", "pthread_rwlock_rdlock",
		"pthread_rwlock_tryrdlock", "pthread_rwlock_wrlock", "pthread_rwlock_trywrlock",
		"pthread_cond_wait", "pthread_cond_timedwait", "sem_wait", "sem_trywait",
		"sem_timedwait", "sem_clockwait",
	};
	static const char *plain[] = {
		"pthread_create", "pthread_mutex_unlock", "pthread_spin_unlock",
		"pthread_rwlock_unlock", "pthread_cond_signal", "pthread_cond_broadcast", "sem_init",
		"sem_open", "sem_post",
	};
	for (size_t i = 0; i < sizeof site / sizeof site[0]; i++)
		assert_true(inst_is_wrapped(site[i], strlen(site[i])) &&
			    inst_is_site_call(site[i], strlen(site[i])));
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		assert_false(inst_is_site_call(plain[i], strlen(plain[i])));
	const char *src =
		"#define W(b) pthread_barrier_wait \\\n (b)\n"
		"int g(pthread_barrier_t *b)\n"
		"{\n"
		"\treturn pthread_barrier_wait( /* none */ ) + pthread_barrier_wait\n"
		"\t\t(b) + W(b);\n"
		"}\n";
	struct inst_options o = { .func_mode = INST_FUNC_NONE, .diag = NULL, .site_args = 1 };
	struct inst_result r;
	char sink[256];
	FILE *mem = fmemopen(sink, sizeof sink, "w");
	o.diag = mem;
	assert_int_equal(inst_file(src, strlen(src), "d/g.c", &o, &r), 0);
	fclose(mem);
	assert_non_null(strstr(r.text, "#define W(b) sg_pthread_barrier_wait_at \\\n (&sg_site_3, b)\n"));
	assert_non_null(strstr(r.text, "\treturn sg_pthread_barrier_wait_at(&sg_site_1 /* none */ ) + "
			       "sg_pthread_barrier_wait_at\n\t\t(&sg_site_2, b) + W(b);\n"));
	assert_non_null(strstr(r.text, "#include <sgtrace.h>\n"
		"static struct sg_site_desc sg_site_1 __attribute__((unused)) = { \"d/g.c\", 5, \"g\", 0 };\n"
		"static struct sg_site_desc sg_site_2 __attribute__((unused)) = { \"d/g.c\", 5, \"g\", 0 };\n"
		"static struct sg_site_desc sg_site_3 __attribute__((unused)) = { \"d/g.c\", 1, \"\", 0 };\n"
		"#line 3 \"d/g.c\"\nint g("));
	inst_result_free(&r);
}

static void test_never_crash(void **state)
{
	(void)state;
	static const char *inputs[] = {
		"", "{", "}", ")", "((((", "int f( {", "int f(void) { return (1; }",
		"#if 0\n", "#endif\n#else\n", "\"unterminated", "'", "/* open comment",
		"#pragma scalegraph region end\n", "int f(void) {\n#pragma scalegraph region end\n}",
		"int main(void) { pthread_create(, , , ); pthread_create(); }",
		"a b c d e f g h\\\n", "<%%>", "<::>",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		struct inst_result r;
		struct inst_options o = { .quiet = 1, .func_mode = INST_FUNC_ALL };
		assert_int_equal(inst_file(inputs[i], strlen(inputs[i]), "x.c", &o, &r), 0);
		assert_non_null(r.text);
		inst_result_free(&r);
	}
	/* NUL bytes and deep nesting */
	char nul[] = "int f(void) { return 0; }\0\0int g(void) { for(;;) return 1; }";
	struct inst_result r;
	struct inst_options o = { .quiet = 1 };
	assert_int_equal(inst_file(nul, sizeof nul - 1, "x.c", &o, &r), 0);
	inst_result_free(&r);
	size_t n = 200000;
	char *deep = malloc(n * 2 + 64);
	assert_non_null(deep);
	strcpy(deep, "int f(void) { return ");
	size_t k = strlen(deep);
	memset(deep + k, '(', n);
	memset(deep + k + n, ')', n);
	strcpy(deep + k + 2 * n, "; }");
	assert_int_equal(inst_file(deep, strlen(deep), "x.c", &o, &r), 0);
	assert_int_equal(r.len, strlen(deep)); /* too deep to parse: left as is */
	assert_memory_equal(r.text, deep, r.len);
	inst_result_free(&r);
	free(deep);
}

static void test_unparsable_warns(void **state)
{
	(void)state;
	const char *src = "int f(void)\n{\n\treturn (1;\n}\n";
	char buf[512] = "";
	FILE *mem = fmemopen(buf, sizeof buf, "w");
	struct inst_options o = { .diag = mem, .func_mode = INST_FUNC_ALL };
	struct inst_result r;
	assert_int_equal(inst_file(src, strlen(src), "u.c", &o, &r), 0);
	fclose(mem);
	assert_int_equal(r.n_probed, 0);
	assert_string_equal(r.text, src);
	/* bison stops at the '}' (a ';' may sit inside parentheses: `for (;;)`); the message names
	 * the bracket the user left open */
	assert_non_null(strstr(buf, "u.c:4:1: warning: cannot parse this (syntax error, "
			       "unexpected '}'; the '(' at 3:9 is not closed"));
	inst_result_free(&r);
}

/* Lines `seen` (a list ending with 0) of a file of n_lines lines, as inst_cpp_lines gives them. */
static struct inst_lines lines_of(size_t n_lines, const unsigned *seen)
{
	struct inst_lines l = { calloc(n_lines + 2, 1), n_lines + 2 };
	assert_non_null(l.seen);
	for (; *seen; seen++)
		l.seen[*seen] = 1;
	return l;
}

/* The text the parser reads for `src` when lines `seen` are compiled (NULL: nothing blanked);
 * *rc gets inst_live_text's result. */
static char *live_of(const char *src, const unsigned *seen, int *rc)
{
	size_t n = 1;
	for (const char *p = src; *p; p++)
		n += *p == '\n';
	struct inst_lines l = lines_of(n, seen);
	char *out = NULL;
	*rc = inst_live_text(src, strlen(src), &l, &out);
	inst_lines_free(&l);
	if (out) { /* NUL-terminated for the checks; same length, same newlines */
		char *t = malloc(strlen(src) + 1);
		assert_non_null(t);
		memcpy(t, out, strlen(src));
		t[strlen(src)] = '\0';
		for (size_t i = 0; src[i]; i++)
			assert_true((src[i] == '\n') == (t[i] == '\n'));
		free(out);
		out = t;
	}
	return out;
}

/* Issue 20 item 3: the #if groups the compiler does not compile are blanked for the parser,
 * judged by their own code lines; kept when unsure (no code line, inside parentheses, a
 * complete #if/#else none of whose groups showed up); a text the lines do not fit is refused. */
static void defect20_live_groups(void **state)
{
	(void)state;
	int rc;
	/* the split header: lines 3 and 8 (the _WIN32 branches) are not compiled */
	const char *split = "#include <pthread.h>\n"          /* 1 */
			    "#ifdef _WIN32\n"                  /* 2 */
			    "DWORD WINAPI f(LPVOID a) {\n"     /* 3 */
			    "#else\n"                          /* 4 */
			    "int f(void *a) {\n"               /* 5 */
			    "#endif\n"                         /* 6 */
			    "#ifdef _WIN32\n"                  /* 7 */
			    "\tWait(a); /* # else */\n"        /* 8 */
			    "#else\n"                          /* 9 */
			    "\tpthread_join(*(pthread_t *)a, 0);\n" /* 10 */
			    "#endif\n"                         /* 11 */
			    "\treturn 0;\n"                    /* 12 */
			    "}\n";                             /* 13 */
	char *t = live_of(split, (const unsigned[]){ 5, 10, 12, 13, 0 }, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	assert_null(strstr(t, "DWORD"));
	assert_null(strstr(t, "Wait"));
	assert_non_null(strstr(t, "int f(void *a) {"));
	assert_non_null(strstr(t, "pthread_join"));
	assert_non_null(strstr(t, "#else\n"));
	free(t);
	/* a conditional among a macro's arguments: its expansion shows on the invocation's line,
	 * so neither group shows up; both are kept */
	const char *args = "int g(void)\n{\n\treturn M(1,\n#ifdef X\n\t\t2\n#else\n\t\t3\n#endif\n\t);\n}\n";
	assert_null(live_of(args, (const unsigned[]){ 1, 2, 3, 9, 10, 0 }, &rc));
	assert_int_equal(rc, 0);
	/* #if/#else with neither group seen (something hid them): kept; a lone #ifdef group
	 * with code not seen: blanked; a group of comments only: nothing to blank */
	const char *hid = "int x;\n#if A\nint y;\n#else\nint z;\n#endif\n#ifdef B\nint w;\n#endif\n"
			  "#ifdef C\n/* only a comment */\n#endif\n";
	t = live_of(hid, (const unsigned[]){ 1, 0 }, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	assert_non_null(strstr(t, "int y;"));
	assert_non_null(strstr(t, "int z;"));
	assert_null(strstr(t, "int w;"));
	assert_non_null(strstr(t, "only a comment"));
	free(t);
	/* nested groups are judged on their own; a #pragma line counts as code; a directive
	 * inside a comment is no directive */
	const char *nest = "int a;\n#ifdef OUT\n#ifdef IN\nint b;\n#endif\nint c;\n#endif\n"
			   "#ifdef P\n#pragma scalegraph region begin \"r\"\n#endif\n/*\n#if 1\n*/\n"
			   "int d;\n";
	t = live_of(nest, (const unsigned[]){ 1, 6, 14, 0 }, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(t);
	assert_null(strstr(t, "int b;"));
	assert_non_null(strstr(t, "int c;"));
	assert_null(strstr(t, "#pragma"));
	assert_non_null(strstr(t, "int d;"));
	free(t);
	/* lines that cannot be this file's: no line outside the conditionals showed up */
	assert_null(live_of(hid, (const unsigned[]){ 5, 0 }, &rc));
	assert_int_equal(rc, -EPROTO);
	assert_int_equal(inst_has_line_directive("int x;\n#line 7 \"y.y\"\n", 21), 1);
	assert_int_equal(inst_has_line_directive("  # 12 \"y.c\" 2\n", 15), 1);
	assert_int_equal(inst_has_line_directive("#define lineno 3\n#linear\n", 25), 0);
}

/* Issue 20 item 3: the build's own preprocessor tells which lines are compiled (here `cc`),
 * and a failing one (a missing header) tells nothing. */
static void defect20_cpp_lines(void **state)
{
	(void)state;
	char path[] = "/tmp/sg-test-cpp-XXXXXX.c";
	const char *src = "#ifdef TWO\nint two;\n#else\nint one;\n#endif\nint all;\n";
	int fd = mkstemps(path, 2);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	char *argv[] = { "cc", "-DTWO", "-E", "-x", "c", path, NULL };
	struct inst_lines l;
	assert_int_equal(inst_cpp_lines(argv, path, src, strlen(src), &l), 0);
	assert_true(l.n_lines > 6);
	assert_true(l.seen[2] && !l.seen[4] && l.seen[6]);
	inst_lines_free(&l);
	char *argv2[] = { "cc", "-E", "-x", "c", path, NULL };
	assert_int_equal(inst_cpp_lines(argv2, path, src, strlen(src), &l), 0);
	assert_true(!l.seen[2] && l.seen[4] && l.seen[6]);
	inst_lines_free(&l);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("#include \"sg-no-such-header.h\"\nint x;\n", f);
	fclose(f);
	assert_int_equal(inst_cpp_lines(argv2, path, "#include \"sg-no-such-header.h\"\nint x;\n",
					39, &l), -EPROTO);
	unlink(path);
}

/* Issue 20 item 4: definitions with no type before the name (implicit int, C89): K&R ones
 * with parameter declarations, `name(a, b) {` and `main() {`; an all-caps NAME(x) { is still
 * taken for a macro. */
static void defect20_implicit_int(void **state)
{
	(void)state;
	struct inst_result r;
	struct inst_options o = { .func_mode = INST_FUNC_ALL, .quiet = 1 };
	const char *src = "main(argc, argv) int argc; char **argv; { return argc; }\n"
			  "foo(a) int a; { return a; }\n"
			  "bar(a, b) { return a + b; }\n"
			  "baz() { return 0; }\n"
			  "TEST(x) { return 0; }\n";
	assert_int_equal(inst_file(src, strlen(src), "k.c", &o, &r), 0);
	assert_int_equal(r.n_functions, 4);
	assert_non_null(strstr(r.text, "{ static struct sg_func_desc sg_fd__ = { \"main\""));
	assert_null(strstr(r.text, "\"TEST\""));
	inst_result_free(&r);
}

/* Issue 20 item 5: a non-static tiny function is a candidate for the rule across files (the
 * summary lists it, with the calls of other files' functions in loops), and is left out when
 * another file calls it in a loop. */
static void defect20_tiny_across_files(void **state)
{
	(void)state;
	const char *src = "void shift(double *x) { for (int i = 0; i < 14; i++) x[i] = fabs(x[i]); }\n"
			  "static void local(double *x) { for (int i = 0; i < 3; i++) x[i] = sqrt(x[i]); }\n"
			  "void user(double *x, int n) { for (int k = 0; k < n; k++) other(x + k); local(x); }\n";
	char buf[1024] = "";
	FILE *mem = fmemopen(buf, sizeof buf, "w");
	struct inst_options o = { .summary = 1, .explain = mem, .quiet = 1 };
	struct inst_result r;
	assert_int_equal(inst_file(src, strlen(src), "h.c", &o, &r), 0);
	fflush(mem);
	assert_non_null(strstr(buf, "h.c:1 shift: selected: loops and calls other functions"));
	assert_int_equal(r.summary.n_defs, 1); /* `local` is static: no other file calls it */
	assert_string_equal(r.summary.defs[0].name, "shift");
	assert_int_equal(r.summary.defs[0].ext, 0);
	int found = 0;
	for (size_t k = 0; k < r.summary.n_calls; k++)
		found |= !strcmp(r.summary.calls[k].name, "other") && !r.summary.calls[k].rec &&
			 !strcmp(r.summary.calls[k].caller, "user") && r.summary.calls[k].line == 3;
	assert_true(found);
	inst_result_free(&r);
	fclose(mem);
	const struct inst_ext_call calls[] = { { "shift", "a.c", "work_a", 7, 0 } };
	mem = fmemopen(buf, sizeof buf, "w");
	o.explain = mem;
	o.ext_calls = calls;
	o.n_ext_calls = 1;
	assert_int_equal(inst_file(src, strlen(src), "h.c", &o, &r), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "h.c:1 shift: left out: tiny helper called in a loop at a.c:7, "
			       "in another file"));
	assert_int_equal(r.summary.defs[0].ext, 1);
	assert_null(strstr(r.text, "\"shift\""));
	inst_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_syntax),
		cmocka_unit_test(test_filter_errors),
		cmocka_unit_test(test_pragma_parse),
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_tiny_helper_bounds),
		cmocka_unit_test(test_include_once_per_branch),
		cmocka_unit_test(test_region_name_with_nul),
		cmocka_unit_test(test_include_after_stray_backslash),
		cmocka_unit_test(test_is_wrapped),
		cmocka_unit_test(test_sem_rename),
		cmocka_unit_test(test_site_calls),
		cmocka_unit_test(test_never_crash),
		cmocka_unit_test(test_unparsable_warns),
		cmocka_unit_test(defect20_live_groups),
		cmocka_unit_test(defect20_cpp_lines),
		cmocka_unit_test(defect20_implicit_int),
		cmocka_unit_test(defect20_tiny_across_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
