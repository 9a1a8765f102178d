/*
 * test_spec.c — experiment spec parser: the billiards spec of the issue, expressions, sizes,
 * command substitution, and invalid specs with their exact messages (data-driven).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "expr.h"
#include "spec.h"

static const char billiards[] =
	"# examples/billiards/billiards.sgx\n"
	"program     ./billiards --balls {balls} --steps {steps} --threads {N}\n"
	"sequential  ./billiards-seq --balls {balls} --steps {steps}\n"
	"threads     1 2 4 8\n"
	"repeat      3\n"
	"timeout     120s\n"
	"param balls 5000  bytes 960     # bytes per unit: C in eq. (14)\n"
	"param steps 100\n"
	"method fixed      balls=5000 steps=100              # I\n"
	"method balls      balls=5000*N                      # II\n"
	"method steps      steps=100*N                       # III\n"
	"method both       balls=5000*N steps=100*N          # IV\n"
	"memory-bound      4800000 per-thread along balls    # B bytes per thread\n"
	"time-bound        2s along both\n"
	"e-conserved       0.5 along both\n";

static void billiards_parses(void **state)
{
	struct spec s;
	char err[512] = "";
	(void)state;
	spec_init(&s);
	assert_int_equal(spec_parse(&s, "examples/billiards/billiards.sgx", billiards, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_string_equal(s.dir, "examples/billiards");
	assert_int_equal(s.program.argc, 7);
	assert_string_equal(s.program.argv[0], "./billiards");
	assert_int_equal(s.sequential.argc, 5);
	assert_int_equal(s.n_threads, 4);
	assert_int_equal(s.threads[3], 8);
	assert_int_equal(s.repeat, 3);
	assert_true(s.timeout_s == 120);
	assert_int_equal(s.n_params, 2);
	assert_true(s.param[0].bytes == 960);
	assert_true(s.param[1].bytes == 0);
	assert_int_equal(s.n_methods, 4);
	assert_int_equal(s.n_models, 3);
	assert_int_equal(s.model[0].kind, SPEC_MEMORY_BOUND);
	assert_true(s.model[0].target == 4800000);
	assert_int_equal(s.model[0].method, 1);
	assert_int_equal(s.model[1].kind, SPEC_TIME_BOUND);
	assert_true(s.model[1].target == 2);
	assert_int_equal(s.model[2].kind, SPEC_E_CONSERVED);
	assert_int_equal(s.model[2].method, 3);

	double sz[SPEC_MAX_PARAMS];
	char text[256], buf[1024], *argv[SPEC_MAX_ARGS + 1];
	assert_int_equal(spec_sizes(&s, 3, 4, sz, err, sizeof err), 0);
	spec_sizes_text(&s, sz, text, sizeof text);
	assert_string_equal(text, "balls=20000 steps=400");
	assert_true(spec_work(&s, sz) == 20000.0 * 400);
	assert_true(spec_memory(&s, sz) == 20000.0 * 960);
	/* the free scale of a search: integral sizes are rounded */
	assert_int_equal(spec_sizes(&s, 3, 1.2345, sz, err, sizeof err), 0);
	spec_sizes_text(&s, sz, text, sizeof text);
	assert_string_equal(text, "balls=6173 steps=123");
	assert_int_equal(spec_argv(&s, &s.program, 2, sz, argv, buf, sizeof buf), 0);
	assert_string_equal(argv[2], "6173");
	assert_string_equal(argv[4], "123");
	assert_string_equal(argv[6], "2");
	assert_null(argv[7]);
	spec_free(&s);
}

static int lookup_n4(void *ctx, const char *name, size_t len, double *v)
{
	(void)ctx;
	if (len != 1 || name[0] != 'N')
		return -ENOENT;
	*v = 4;
	return 0;
}

static void expressions(void **state)
{
	static const struct { const char *e; double v; } ok[] = {
		{ "1+2*3", 7 }, { "(1+2)*3", 9 }, { "2^3^2", 512 }, { "-2^2", -4 }, { "10/4", 2.5 },
		{ "5000*N", 20000 }, { "100*N^0.5", 200 }, { " ( N + 1 ) / 5 ", 1 }, { "1e3", 1000 },
	};
	static const struct { const char *e, *msg; size_t off; } bad[] = {
		{ "1+", "expected a number, a name or '(' at the end of the expression", 2 },
		{ "(1+2", "expected ')'", 4 },
		{ "2*M", "unknown name 'M'", 2 }, { "1 2", "unexpected '2' after the expression", 2 },
		{ "3$", "unexpected '$' after the expression", 1 },
		{ "10^400", "expression is not a finite number", 0 },
	};
	char err[256];
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double v;
		size_t off;
		assert_int_equal(expr_eval(ok[i].e, lookup_n4, NULL, &v, err, sizeof err, &off), 0);
		assert_true(fabs(v - ok[i].v) < 1e-9);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double v;
		size_t off = 99;
		assert_int_equal(expr_eval(bad[i].e, NULL, NULL, &v, err, sizeof err, &off), -EINVAL);
		assert_string_equal(err, bad[i].msg);
		assert_int_equal(off, bad[i].off);
	}
}

/* Issue 14: spec expressions had no log2 (FFT's size, 2^k points, needed a polynomial for
 * its exponent). The functions, their argument counts and domains, located at the name. */
static void defect14_spec_no_log2(void **state)
{
	static const struct { const char *e; double v; } ok[] = {
		{ "log2(1024)", 10 }, { "log2(N)", 2 }, { "log(1)", 0 }, { "log(2.718281828459045)", 1 },
		{ "sqrt(16)", 4 }, { "sqrt(0)", 0 }, { "min(3, N, 7)", 3 }, { "max(3,N,7,-1)", 7 },
		{ "min(N,2)", 2 }, { "floor(2.7)", 2 }, { "floor(-2.5)", -3 }, { "ceil(2.1)", 3 },
		{ "round(2.5)", 3 }, { "round(-2.5)", -3 }, { "round(2.49)", 2 },
		{ "2^log2(N)", 4 }, { "2 ^ ceil ( log2 ( N * 3 ) )", 16 }, { "log2 (N)", 2 },
		{ "-sqrt(N)^2", -4 }, { "max(min(N, 8), 1) * 10", 40 }, { "1/(N-3)", 1 },
	};
	static const struct { const char *e, *msg; size_t off; int rc; } bad[] = {
		{ "log2(0)", "log2(0) is not defined (the argument must be > 0)", 0, -EDOM },
		{ "3 + log(N-5)", "log(-1) is not defined (the argument must be > 0)", 4, -EDOM },
		{ "sqrt(-1)", "sqrt(-1) is not defined (the argument must be >= 0)", 0, -EDOM },
		{ "1/0", "division by zero", 1, -EDOM },
		{ "1/(N-4)", "division by zero", 1, -EDOM },
		/* the first domain error is the one named */
		{ "sqrt(-4) + log2(0)", "sqrt(-4) is not defined (the argument must be >= 0)", 0, -EDOM },
		/* a syntax error anywhere wins over a domain error before it */
		{ "log2(0) + (1", "expected ')'", 12, -EINVAL },
		{ "log2(0) + K", "unknown name 'K'", 10, -EINVAL },
		{ "log2(8, 2)", "log2 takes 1 argument, not 2", 0, -EINVAL },
		{ "N + sqrt()", "sqrt takes 1 argument, not 0", 4, -EINVAL },
		{ "min(N)", "min takes 2 to 16 arguments, not 1", 0, -EINVAL },
		{ "max(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)", "max takes 2 to 16 arguments, not 17",
		  0, -EINVAL },
		{ "exp(1)", "unknown function 'exp' (functions: log2, log, sqrt, min, max, floor, ceil, "
		  "round)", 0, -EINVAL },
		{ "N(2)", "unknown function 'N' (functions: log2, log, sqrt, min, max, floor, ceil, "
		  "round)", 0, -EINVAL },
		{ "log2(8", "expected ',' or ')' in the arguments", 6, -EINVAL },
		{ "min(1,)", "unexpected character ')' in expression", 6, -EINVAL },
		{ "log2", "unknown name 'log2'", 0, -EINVAL },
	};
	char err[256];
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double v = NAN;
		size_t off;
		int rc = expr_eval(ok[i].e, lookup_n4, NULL, &v, err, sizeof err, &off);
		if (rc != 0 || fabs(v - ok[i].v) > 1e-12)
			fail_msg("%s: rc %d (%s), value %.17g, want %g", ok[i].e, rc, rc ? err : "",
				 v, ok[i].v);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		double v = 12345;
		size_t off = 99;
		int rc = expr_eval(bad[i].e, lookup_n4, NULL, &v, err, sizeof err, &off);
		if (rc != bad[i].rc || strcmp(err, bad[i].msg) || off != bad[i].off)
			fail_msg("%s: got rc %d '%s' at %zu, want rc %d '%s' at %zu", bad[i].e, rc, err,
				 off, bad[i].rc, bad[i].msg, bad[i].off);
		assert_true(v == 12345);   /* no value on an error */
	}
}

/* The functions in a spec: a domain error is located PATH:LINE:COL at the thread count where
 * it happens, before anything runs; a wrong argument count when the spec is read. */
static void defect14_spec_functions_located(void **state)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "program ./p {size} {N}\nthreads 1 2 4\nparam size 64\nmethod m size=2^(log2(N)+6)\n",
		  NULL },
		{ "program ./p {size} {N}\nthreads 1 2 4\nparam size 64\nmethod m size=64*log2(N-1)\n",
		  "t.sgx:4:18: error: method m at N = 1: log2(0) is not defined (the argument must be > 0)" },
		{ "program ./p {size} {N}\nthreads 2 4\nparam size 64\nmethod m size=sqrt(N-4)+1\n",
		  "t.sgx:4:15: error: method m at N = 2: sqrt(-2) is not defined (the argument must be >= 0)" },
		{ "program ./p {size} {N}\nthreads 2 4\nparam size 64\nmethod m size=100/(N-2)\n",
		  "t.sgx:4:18: error: method m at N = 2: division by zero" },
		{ "program ./p {x} {N}\nthreads 1 2\nparam x 8\nmethod m x=N*8\nwork x*log2(x-16)\n",
		  "t.sgx:5:8: error: work at the sizes of method m at N = 1 (x=8): log2(-8) is not "
		  "defined (the argument must be > 0)" },
		{ "program ./p {size} {N}\nthreads 1\nparam size 64\nmethod m size=min(N)\n",
		  "t.sgx:4:15: error: min takes 2 to 16 arguments, not 1" },
		{ "program ./p {size} {N}\nthreads 1\nparam size 64\nmethod m size=log2(N,2)\n",
		  "t.sgx:4:15: error: log2 takes 1 argument, not 2" },
		{ "program ./p {size} {N}\nthreads 1\nparam size 64\nmethod m size=cbrt(N)\n",
		  "t.sgx:4:15: error: unknown function 'cbrt' (functions: log2, log, sqrt, min, max, "
		  "floor, ceil, round)" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct spec s;
		char err[512] = "";
		spec_init(&s);
		int rc = spec_parse(&s, "t.sgx", cases[i].text, err, sizeof err);
		if (rc == 0)
			rc = spec_finish(&s, err, sizeof err);
		if (rc == 0)
			rc = spec_check_eval(&s, err, sizeof err);
		if (cases[i].msg ? rc != -EINVAL || strcmp(err, cases[i].msg) : rc != 0)
			fail_msg("case %zu: %s\n  got rc %d: %s\n  want: %s", i, cases[i].text, rc, err,
				 cases[i].msg ? cases[i].msg : "no error");
		spec_free(&s);
	}
	/* the sizes FFT wanted: 2^(log2(N) + 6) doubles with N */
	struct spec s;
	char err[512] = "", text[64];
	double sz[SPEC_MAX_PARAMS];
	spec_init(&s);
	assert_int_equal(spec_parse(&s, "t.sgx", cases[0].text, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_int_equal(spec_sizes(&s, 0, 4, sz, err, sizeof err), 0);
	spec_sizes_text(&s, sz, text, sizeof text);
	assert_string_equal(text, "size=256");
	spec_free(&s);
}

/* Each invalid spec and its exact message. */
static const struct { const char *text, *msg; } invalid[] = {
	{ "frobnicate 3\n", "t.sgx:1:1: error: unknown keyword 'frobnicate'" },
	{ "threads 1 two\n", "t.sgx:1:11: error: thread count must be an integer in 1..4096, not 'two'" },
	{ "threads 1 2 1\n", "t.sgx:1:13: error: thread count 1 listed twice" },
	{ "threads\n", "t.sgx:1:8: error: 'threads' needs at least one thread count" },
	{ "repeat 0\n", "t.sgx:1:8: error: repeat must be an integer in 1..1000, not '0'" },
	{ "repeat 2 3\n", "t.sgx:1:10: error: 'repeat' takes exactly one value" },
	{ "timeout 2 days\n", "t.sgx:1:11: error: 'timeout' takes exactly one value" },
	{ "timeout 2d\n", "t.sgx:1:9: error: bad timeout '2d' (e.g. 120s, 500ms, 2m)" },
	{ "param 9x 3\n", "t.sgx:1:7: error: bad parameter name '9x'" },
	{ "param N 3\n", "t.sgx:1:7: error: 'N' is the thread count and cannot be a parameter" },
	{ "param x -3\n", "t.sgx:1:9: error: parameter value must be a positive number, not '-3'" },
	{ "param x 3\nparam x 4\n", "t.sgx:2:7: error: parameter 'x' declared twice" },
	{ "param x 3 byte 4\n", "t.sgx:1:11: error: expected 'bytes' or the end of the line, not 'byte'" },
	{ "param x 3 bytes\n", "t.sgx:1:11: error: 'bytes' needs a number of bytes per unit" },
	{ "method m y=N\n", "t.sgx:1:10: error: unknown parameter 'y' (declare it with 'param' first)" },
	{ "param x 3\nmethod m x = N\n", "t.sgx:2:10: error: expected PARAM=EXPR (no blanks), not 'x'" },
	{ "param x 3\nmethod m x=2*(N+1\n", "t.sgx:2:18: error: expected ')'" },
	{ "param x 3\nmethod m x=2*K\n", "t.sgx:2:14: error: unknown name 'K'" },
	{ "param x 3\nmethod m x=N x=2\n", "t.sgx:2:14: error: parameter 'x' assigned twice" },
	{ "param x 3\nmethod m x=N\nmethod m x=1\n", "t.sgx:3:8: error: method 'm' declared twice" },
	{ "time-bound 2s along nope\n",
	  "t.sgx:1:21: error: unknown method 'nope' (declare it with 'method' first)" },
	{ "param x 3\nmethod m x=N\ntime-bound 2 parsecs along m\n",
	  "t.sgx:3:14: error: expected 'along METHOD'" },
	{ "param x 3\nmethod m x=N\ntime-bound two along m\n",
	  "t.sgx:3:12: error: bad time bound 'two' (e.g. 2s, 500ms, 1m)" },
	{ "param x 3\nmethod m x=N\ne-conserved 1.5 along m\n",
	  "t.sgx:3:13: error: efficiency must be in (0, 1], not '1.5'" },
	{ "param x 3\nmethod m x=N\nmemory-bound 100 along m\n",
	  "t.sgx:3:18: error: expected 'per-thread' after the bytes" },
	{ "param x 3\nmethod m x=N\ne-conserved 0.5 along m extra\n",
	  "t.sgx:3:25: error: unexpected 'extra' at the end of the line" },
	{ "param x 3\nmethod m x=N\ne-conserved 0.5 along m\ne-conserved 0.6 along m\n",
	  "t.sgx:4:1: error: e-conserved along m given twice" },
	{ "program ./p 'unterminated\n", "t.sgx:1:13: error: unterminated single quote" },
	{ "program ./p\nprogram ./q\n", "t.sgx:2:1: error: duplicate 'program' line" },
	{ "program\n", "t.sgx:1:8: error: 'program' needs a command" },
	{ "threads 1\n", "t.sgx:1:1: error: no 'program' line (or command after --)" },
	{ "program ./p\n", "t.sgx:1:1: error: no 'threads' line (or --threads)" },
	{ "threads 1\nprogram ./p --n {n}\n",
	  "t.sgx:2:17: error: unknown placeholder '{n}' (N or a parameter)" },
	{ "threads 1\nprogram ./p --n {N\n", "t.sgx:2:17: error: unterminated '{' in command" },
	{ "threads 1\n\tprogram ./p\x01\n", "t.sgx:2:13: error: control character 0x01" },
	{ "param x 3\nwork x*\n", "t.sgx:2:8: error: expected a number, a name or '(' at the end of the expression" },
	/* issue 14: no {N} ran the same command at every thread count */
	/* issue 21: the plain build (program built with the ordinary compiler) */
	{ "plain\n", "t.sgx:1:6: error: 'plain' needs a command" },
	{ "plain ./a\nplain ./b\n", "t.sgx:2:1: error: duplicate 'plain' line" },
	{ "plain-repeat 0\n", "t.sgx:1:14: error: plain-repeat must be an integer in 1..1000, not '0'" },
	{ "plain-repeat two\n", "t.sgx:1:14: error: plain-repeat must be an integer in 1..1000, not 'two'" },
	{ "plain-repeat\n", "t.sgx:1:13: error: 'plain-repeat' takes exactly one value" },
	{ "plain-repeat 1 2\n", "t.sgx:1:16: error: 'plain-repeat' takes exactly one value" },
	{ "plain-repeat 2\nplain-repeat 3\n", "t.sgx:2:1: error: duplicate 'plain-repeat' line" },
	{ "threads 1\nprogram ./p\n  plain-repeat 2\n",
	  "t.sgx:3:3: error: 'plain-repeat' without a 'plain' line (or --plain): there is no plain "
	  "build to repeat" },
	{ "threads 1\nprogram ./p\nplain ./q --n {n}\n",
	  "t.sgx:3:15: error: unknown placeholder '{n}' (N or a parameter)" },
	{ "threads 1 2\nprogram ./p -p{N}\nplain   ./q -p2\n",
	  "t.sgx:3:9: error: the plain build's command has no {N}: it would run the same at every "
	  "thread count (1, 2); put {N} where it takes its thread count (e.g. --threads {N}, -p{N}, "
	  "or a launcher: env OMP_NUM_THREADS={N} PROGRAM), or give --same-command if the program "
	  "chooses its threads itself" },
	{ "threads 1 2 4\nprogram  ./p -p4\n", "t.sgx:2:10: error: the program's command has no {N}: "
	  "it would run the same at every thread count (1, 2, 4); put {N} where it takes its thread "
	  "count (e.g. --threads {N}, -p{N}, or a launcher: env OMP_NUM_THREADS={N} PROGRAM), or "
	  "give --same-command if the program chooses its threads itself" },
};

static void invalid_specs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
		struct spec s;
		char err[512] = "";
		spec_init(&s);
		int rc = spec_parse(&s, "t.sgx", invalid[i].text, err, sizeof err);
		if (rc == 0)
			rc = spec_finish(&s, err, sizeof err);
		if (rc != -EINVAL || strcmp(err, invalid[i].msg))
			fail_msg("case %zu: %s\n  got rc %d: %s\n  want: %s", i, invalid[i].text, rc,
				 err, invalid[i].msg);
		spec_free(&s);
	}
}

static void flags_override(void **state)
{
	struct spec s;
	char err[256];
	char *cmd[] = { "./prog", "--n", "{N}" };
	(void)state;
	spec_init(&s);
	assert_int_equal(spec_set_threads(&s, "1,2,4", err, sizeof err), 0);
	assert_int_equal(s.n_threads, 3);
	assert_int_equal(spec_set_threads(&s, "1,,4", err, sizeof err), -EINVAL);
	assert_string_equal(err, "--threads:1:3: error: thread count must be an integer in 1..4096, not ''");
	assert_int_equal(spec_set_threads(&s, "1,2,4", err, sizeof err), 0);
	assert_int_equal(spec_set_program(&s, 3, cmd, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_int_equal(s.n_methods, 1);
	assert_string_equal(s.method[0].name, "fixed");
	double sz[1];
	char buf[256], *argv[SPEC_MAX_ARGS + 1];
	assert_int_equal(spec_sizes(&s, 0, 4, sz, err, sizeof err), 0);
	assert_int_equal(spec_argv(&s, &s.program, 4, sz, argv, buf, sizeof buf), 0);
	assert_string_equal(argv[2], "4");
	spec_free(&s);

	/* the same command at every N: an error unless --same-command; {N} inside a word or a
	 * launcher's variable is enough; one thread count compares nothing */
	char *same[] = { "./prog", "-p4" }, *inword[] = { "env", "OMP_NUM_THREADS={N}", "./prog" };
	spec_init(&s);
	assert_int_equal(spec_set_threads(&s, "1,2", err, sizeof err), 0);
	assert_int_equal(spec_set_program(&s, 2, same, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "scalegraph run: error: the command after -- has no {N}: it would "
				    "run the same at every thread count (1, 2); put {N}"));
	s.same_command = 1;
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	spec_free(&s);
	spec_init(&s);
	assert_int_equal(spec_set_threads(&s, "1,2", err, sizeof err), 0);
	assert_int_equal(spec_set_program(&s, 3, inword, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	spec_free(&s);
	spec_init(&s);
	assert_int_equal(spec_set_threads(&s, "8", err, sizeof err), 0);
	assert_int_equal(spec_set_program(&s, 2, same, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	spec_free(&s);

	/* a command-line series' errors are the command line's, not "<command line>:0:0:" */
	char *ph[] = { "./prog", "-n", "{n}", "{N}" };
	spec_init(&s);
	assert_int_equal(spec_set_threads(&s, "1,2", err, sizeof err), 0);
	assert_int_equal(spec_set_program(&s, 4, ph, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), -EINVAL);
	assert_string_equal(err, "scalegraph run: error: unknown placeholder '{n}' in the command after "
			    "-- (N or a parameter)");
	spec_free(&s);
	spec_init(&s);
	assert_int_equal(spec_set_program(&s, 2, same, err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), -EINVAL);
	assert_string_equal(err, "scalegraph run: error: no thread counts: give --threads LIST (e.g. "
			    "--threads 1,2,4)");
	spec_free(&s);
}

/* issue 21: `plain`, `plain-repeat` and --plain */
static void plain_build(void **state)
{
	struct spec s;
	char err[512] = "", buf[512], *argv[SPEC_MAX_ARGS + 1];
	double sz[SPEC_MAX_PARAMS];
	(void)state;
	spec_init(&s);
	assert_int_equal(spec_parse(&s, "t.sgx", "threads 1 2\nparam n 100\n"
				    "program traced/prog --n {n} -p{N}\n"
				    "plain   plain/prog --n {n} -p{N}\nplain-repeat 3\n", err,
				    sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_int_equal(spec_check_eval(&s, err, sizeof err), 0);
	assert_int_equal(s.plain.argc, 4);
	assert_int_equal(s.plain.line, 4);
	assert_int_equal(s.plain.col[0], 9);
	assert_int_equal(s.plain_repeat, 3);
	assert_int_equal(spec_sizes(&s, 0, 2, sz, err, sizeof err), 0);
	assert_int_equal(spec_argv(&s, &s.plain, 2, sz, argv, buf, sizeof buf), 0);
	assert_string_equal(argv[0], "plain/prog");
	assert_string_equal(argv[2], "100");
	assert_string_equal(argv[3], "-p2");
	/* --plain replaces the line; quotes group as in a spec */
	assert_int_equal(spec_set_plain(&s, "sh -c 'plain/prog -p{N} > /dev/null'", err, sizeof err),
			 0);
	assert_int_equal(s.plain.argc, 3);
	assert_string_equal(s.plain.argv[2], "plain/prog -p{N} > /dev/null");
	assert_int_equal(s.plain.line, 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_int_equal(spec_set_plain(&s, "./q 'open", err, sizeof err), -EINVAL);
	assert_string_equal(err, "scalegraph run: error: --plain: unterminated single quote");
	assert_int_equal(spec_set_plain(&s, "  ", err, sizeof err), -EINVAL);
	assert_string_equal(err, "scalegraph run: error: --plain: --plain needs a command of 1..64 "
			    "words");
	assert_int_equal(spec_set_plain(&s, "./q {x} {N}", err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), -EINVAL);
	assert_string_equal(err, "scalegraph run: error: unknown placeholder '{x}' in --plain (N or a "
			    "parameter)");
	assert_int_equal(spec_set_plain(&s, "./q", err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "scalegraph run: error: the --plain command has no {N}"));
	spec_free(&s);
	/* without a plain line: none, and the default repetitions */
	spec_init(&s);
	assert_int_equal(spec_parse(&s, "t.sgx", "threads 1\nprogram ./p\n", err, sizeof err), 0);
	assert_int_equal(spec_finish(&s, err, sizeof err), 0);
	assert_int_equal(s.plain.argc, 0);
	assert_int_equal(s.plain_repeat, 1);
	spec_free(&s);
}

static void durations(void **state)
{
	double v;
	(void)state;
	assert_int_equal(spec_parse_duration("120s", &v), 0);
	assert_true(v == 120);
	assert_int_equal(spec_parse_duration("500ms", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(spec_parse_duration("2m", &v), 0);
	assert_true(v == 120);
	assert_int_equal(spec_parse_duration("1.5", &v), 0);
	assert_true(v == 1.5);
	assert_int_equal(spec_parse_duration("0s", &v), -EINVAL);
	assert_int_equal(spec_parse_duration("-1s", &v), -EINVAL);
	assert_int_equal(spec_parse_duration("5 s", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(billiards_parses),
		cmocka_unit_test(expressions),
		cmocka_unit_test(defect14_spec_no_log2),
		cmocka_unit_test(defect14_spec_functions_located),
		cmocka_unit_test(invalid_specs),
		cmocka_unit_test(flags_override),
		cmocka_unit_test(plain_build),
		cmocka_unit_test(durations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
