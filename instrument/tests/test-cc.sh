#!/bin/bash
# `scalegraph cc` as a compiler driver: pass-through invocations (-E, -M, --version, link-only),
# -c/-o and default output names, errors reported against the user's file and line (not the
# temporary copy), gdb/addr2line line info, `#include "x.h"` next to the source, -MMD
# dependency files naming the user's source, --sg-dry-run, --filter forwarding, SG_CC.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
SGCC=$PWD/$B/libexec/scalegraph/scalegraph-cc
B_ABS=$PWD/$B
[ -x "$SGCC" ] || { echo "FAIL: cc: $SGCC not built"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
have_lib=0
[ -f "$B/lib/libsgtrace.so" ] && have_lib=1
ok() { echo "PASS: $1"; }
ko() { echo "FAIL: $1: $2"; }

mkdir -p "$work/src"
cat >"$work/src/local.h" <<'H'
#define LOCAL_VALUE 41
H
cat >"$work/src/prog.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include "local.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		s += i;
		pthread_mutex_unlock(&m);
	}
	return s;
}

int main(void)
{
	printf("%d %d\n", work(4), LOCAL_VALUE + 1);
	return 0;
}
C
cat >"$work/src/bad.c" <<'C'
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int f(int n)
{
	pthread_mutex_lock(&m);
	for (int i = 0; i < n; i++)
		undeclared_thing(i);
	return n;
}
C
cd "$work" || exit 1

# pass-through
if "$SGCC" --version 2>&1 | head -1 | grep -qiE 'gcc|clang|cc'; then ok "--version passes through"; else ko "--version" "no compiler banner"; fi
if "$SGCC" -E src/prog.c 2>/dev/null | grep -q 'pthread_mutex_lock(&m)' &&
   ! "$SGCC" -E src/prog.c 2>/dev/null | grep -q 'sg_pthread'; then
	ok "-E preprocesses the original source"
else
	ko "-E" "output missing or instrumented"
fi
if "$SGCC" -MM src/prog.c 2>/dev/null | grep -q 'prog.o: src/prog.c src/local.h'; then ok "-MM passes through"; else ko "-MM" "$("$SGCC" -MM src/prog.c 2>&1 | head -2)"; fi
if "$SGCC" --sg-dry-run -c src/prog.c | grep -q '^# scalegraph instrument src/prog.c' &&
   "$SGCC" --sg-dry-run -c src/prog.c | grep -q -- '-iquote src .*-c .*/prog.c -I '; then
	ok "--sg-dry-run prints the instrumentation and the compiler command"
else
	ko "--sg-dry-run" "$("$SGCC" --sg-dry-run -c src/prog.c 2>&1 | tail -1)"
fi
[ -z "$(ls -d "${TMPDIR:-/tmp}"/sgcc.DRYRUN 2>/dev/null)" ] && ok "--sg-dry-run writes nothing" || ko "--sg-dry-run" "left a directory"

# -c with the default output name, -MMD with the user's file in the .d
rm -f prog.o prog.d
if "$SGCC" -c -MMD src/prog.c 2>cc.err && [ -f prog.o ]; then ok "-c writes prog.o like the compiler"; else ko "-c" "$(head -3 cc.err)"; fi
if [ -f prog.d ] && grep -q 'src/prog.c' prog.d && ! grep -q sgcc prog.d; then
	ok "-MMD dependency file names the user's source"
else
	ko "-MMD" "$(cat prog.d 2>/dev/null | head -2)"
fi
if nm prog.o | grep -q 'U sg_pthread_mutex_lock' && nm prog.o | grep -q 'U sg_func_enter_rec'; then
	ok "object calls the sg_ wrappers and has function probes"
else
	ko "object" "no sg_ symbols referenced"
fi
if [ -z "$(ls -d "${TMPDIR:-/tmp}"/sgcc.* 2>/dev/null | grep -v DRYRUN)" ]; then ok "temporary files removed"; else ko "temporary files" "left behind"; fi

# errors point at the user's file and line
"$SGCC" -Wall -Werror=implicit-function-declaration -c src/bad.c -o bad.o 2>bad.err
if grep -q '^src/bad.c:9:[0-9]*: error:.*undeclared_thing' bad.err && ! grep -q sgcc bad.err; then
	ok "compile errors name src/bad.c:9, not the temporary copy"
else
	ko "errors" "$(head -3 bad.err)"
fi

# Diagnostics as the compiler prints them on the user's source (issue 14): columns and carets
# mapped back across every rename on the line (sg_ adds 3 columns per call) and the probe after
# a '{', renamed calls named as written, headers beside the source named as the compiler names
# them. same_diag NAME CC FILE FLAGS...: the whole stderr of `scalegraph cc` equals the
# compiler's own on FILE.
same_diag() {
	local name=$1 cc=$2 file=$3
	shift 3
	$cc "$@" -c "$file" -o plain.o 2>plain.err
	SG_CC=$cc "$SGCC" "$@" -c "$file" -o sg.o 2>sg.err
	if [ ! -s plain.err ]; then
		ko "$name" "the test case gives no diagnostic with $cc"
	elif cmp -s plain.err sg.err; then
		ok "$name: $cc's diagnostics on $file are the same as on the plain build ($(grep -m1 -o "$file:[0-9]*:[0-9]*" plain.err))"
	else
		ko "$name" "$cc: $(diff plain.err sg.err | head -6 | tr '\n' '|')"
	fi
}
mkdir -p diag
# 1, 2 and 3 renamed calls before the column (3:50 must stay 3:50); a tab before them; the
# probe's text after the '{' on the same line as the error
cat >diag/col1.c <<'C'
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int f1(int x) { pthread_mutex_lock(&m); return undeclared1(x); }
C
cat >diag/col2.c <<'C'
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int f2(int x) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); return undeclared2(x); }
C
printf '#include <pthread.h>\nstatic pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint f3(int x)\n{\n\tpthread_mutex_lock(&m);\tpthread_mutex_unlock(&m); pthread_mutex_lock(&m); return undeclared3(x) + x;\n}\n' >diag/col3.c
cat >diag/probed.c <<'C'
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g(int n) { int s = 0; for (int i = 0; i < n; i++) { pthread_mutex_lock(&m); s += undeclared4(i); pthread_mutex_unlock(&m); } return s; }
int main(void) { return g(3); }
C
for cc in gcc clang; do
	command -v $cc >/dev/null || { echo "SKIP: defect14-diag-columns: $cc not installed"; continue; }
	same_diag defect14-diag-column-1-rename $cc diag/col1.c -Wall
	same_diag defect14-diag-column-2-renames $cc diag/col2.c -Wall
	same_diag defect14-diag-column-3-renames-tabs $cc diag/col3.c -Wall
	same_diag defect14-diag-column-after-probe $cc diag/probed.c -Wall
done
same_diag defect14-diag-column-tabstop gcc diag/col3.c -Wall -ftabstop=4
same_diag defect14-diag-column-byte-unit gcc diag/col3.c -Wall -fdiagnostics-column-unit=byte
# the column gcc prints on the original, computed here, not written in
want=$(gcc -Wall -c diag/col2.c -o plain.o 2>&1 | grep -o '^diag/col2.c:3:[0-9]*' | head -1)
got=$("$SGCC" -Wall -c diag/col2.c -o sg.o 2>&1 | grep -o '^diag/col2.c:3:[0-9]*' | head -1)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "defect14-diag-column: gcc says $want, scalegraph cc too" ||
	ko "defect14-diag-column" "gcc says '$want', scalegraph cc '$got'"
# a message about a renamed call names it as the user wrote it, at the same place (clang's
# message also names the parameter, which sgtrace.h calls `barrier` where glibc has `__barrier`)
cat >diag/names.c <<'C'
#include <pthread.h>
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int h(pthread_barrier_t *b) { for (int i = 0; i < 2; i++) pthread_barrier_wait(b, 1); return 0; }
int k(void) { for (int i = 0; i < 2; i++) pthread_mutex_lock(&c); return 0; }
C
for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	$cc -c diag/names.c -o plain.o 2>plain.err
	SG_CC=$cc "$SGCC" -c diag/names.c -o sg.o 2>sg.err
	if grep -q 'sg_pthread' sg.err || ! grep -q 'pthread_barrier_wait' sg.err; then
		ko "defect14-diag-sg-names" "$cc: $(grep -m2 'pthread' sg.err | tr '\n' '|')"
	elif [ "$(grep -o '^diag/names.c:[0-9]*:[0-9]*: [a-z]*:' plain.err)" = "$(grep -o '^diag/names.c:[0-9]*:[0-9]*: [a-z]*:' sg.err)" ]; then
		ok "defect14-diag-sg-names: $cc's messages name pthread_barrier_wait and pthread_mutex_lock, never their sg_ wrappers"
	else
		ko "defect14-diag-sg-names" "$cc: $(diff <(grep '^diag/names.c:' plain.err) <(grep '^diag/names.c:' sg.err) | head -4 | tr '\n' '|')"
	fi
done
# Call sites (issue 15): a call that begins a wait becomes sg_NAME_at(&sg_site_K, args). Errors
# inside and after its arguments keep their columns and carets (an inserted argument and `_at`
# count for nothing), and an empty argument list gets no stray comma: the compiler says what it
# says on the plain build.
cat >diag/site1.c <<'C'
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int s1(int x) { pthread_mutex_lock(&m); pthread_mutex_trylock(&m + undeclared6); return undeclared7(x); }
int s2(pthread_barrier_t *b) { return pthread_barrier_wait(b) + pthread_barrier_wait(b) + undeclared8; }
C
for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	same_diag issue15-diag-site-argument-columns $cc diag/site1.c -Wall
done
# gcc numbers arguments: "passing argument 1 of 'pthread_mutex_lock'" as on the plain build,
# not "argument 2 of 'sg_pthread_mutex_lock_at'"; too few arguments to an empty call; the note
# on sgtrace.h shows the declaration as `int pthread_mutex_lock(pthread_mutex_t *mutex);` with
# the marks under the parameter. The notes themselves point at sgtrace.h, not pthread.h: they
# are left out of the comparison.
cat >diag/site2.c <<'C'
#include <pthread.h>
static int x;
int s3(void) { return pthread_mutex_lock(&x) + pthread_barrier_wait(); }
C
nonotes() {
	awk '/^In file included from/ { next } /(pthread|sgtrace)\.h:[0-9]+:[0-9]+: note:/ { skip = 2; next }
		skip > 0 { skip--; next } { print }' "$1"
}
gcc -Wall -c diag/site2.c -o plain.o 2>plain.err
SG_CC=gcc "$SGCC" -Wall -c diag/site2.c -o sg.o 2>sg.err
note=$(grep -A2 'sgtrace.h:[0-9]*:[0-9]*: note: expected' sg.err)
decl=$(printf '%s\n' "$note" | sed -n 2p | sed 's/^ *[0-9]* | //')
marks=$(printf '%s\n' "$note" | sed -n 3p | sed 's/^ *| //')
mark_at=$(printf '%s\n' "$marks" | awk '{ print index($0, "~") }')
param_at=$(printf '%s\n' "$decl" | awk '{ print index($0, "pthread_mutex_t *mutex") }')
if ! grep -q "passing argument 1 of .pthread_mutex_lock" plain.err; then
	ko "issue15-diag-site-argument-number" "plain gcc did not say 'passing argument 1' (locale?): $(head -1 plain.err)"
elif [ "$(nonotes plain.err)" != "$(nonotes sg.err)" ]; then
	ko "issue15-diag-site-argument-number" "$(diff <(nonotes plain.err) <(nonotes sg.err) | head -6 | tr '\n' '|')"
elif [ "$decl" != "int pthread_mutex_lock(pthread_mutex_t *mutex);" ] || [ "$mark_at" != "$param_at" ]; then
	ko "issue15-diag-site-argument-number" "sgtrace.h note: '$decl' marks from column $mark_at, parameter at $param_at"
else
	ok "issue15-diag-site-argument-number: gcc's messages on a call with a site are the plain build's (argument 1 of pthread_mutex_lock, too few arguments to pthread_barrier_wait()); the sgtrace.h note reads '$decl' with its marks under the parameter"
fi

# clang counts arguments: "expected 2, have 3" on pthread_cond_wait(&c, &m, 1), as on the plain
# build, not the site-counting "expected 3, have 4"; the same for too few
cat >diag/site3.c <<'C'
#include <pthread.h>
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int s4(void) { return pthread_cond_wait(&c, &m, 1) + pthread_cond_wait(&c); }
C
if command -v clang >/dev/null; then
	clang -Wall -c diag/site3.c -o plain.o 2>plain.err
	SG_CC=clang "$SGCC" -Wall -c diag/site3.c -o sg.o 2>sg.err
	if ! grep -q 'expected 2, have 3' plain.err; then
		ko "issue15-diag-clang-argument-counts" "plain clang said: $(head -1 plain.err)"
	elif [ "$(nonotes plain.err)" = "$(nonotes sg.err)" ]; then
		ok "issue15-diag-clang-argument-counts: clang's argument counts on calls with a site are the plain build's ($(grep -c 'expected 2, have' sg.err) messages)"
	else
		ko "issue15-diag-clang-argument-counts" "$(diff <(nonotes plain.err) <(nonotes sg.err) | head -6 | tr '\n' '|')"
	fi
fi

# a header beside a source in the current directory: gcc says memory.h (clang ./memory.h)
mkdir -p hdr
printf 'static inline int helper(int x)\n{\n\tint unused_var;\n\treturn x;\n}\n' >hdr/memory.h
printf '#include <pthread.h>\n#include "memory.h"\nstatic pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\nint f(int x) { for (;;) { pthread_mutex_lock(&m); return helper(x); } }\n' >hdr/hp.c
printf '#include <stdio.h>\n#include "memory.h"\nstatic const char *hfile = __FILE__;\n' >hdr/memory2.h
printf '#include "memory2.h"\nint main(void) { puts(hfile); return helper(0); }\n' >hdr/fm.c
(
	cd hdr || exit 1
	for cc in gcc clang; do
		command -v $cc >/dev/null || continue
		same_diag defect14-diag-header-path $cc hp.c -Wall
	done
	if [ $have_lib -eq 1 ]; then
		for cc in gcc clang; do
			command -v $cc >/dev/null || continue
			$cc fm.c -o fm.plain 2>/dev/null && SG_CC=$cc "$SGCC" fm.c -o fm.sg 2>/dev/null
			want=$(./fm.plain) got=$(SG_TRACE_DIR=tr ./fm.sg 2>/dev/null)
			[ -n "$want" ] && [ "$want" = "$got" ] && ok "defect14-header-file-macro: __FILE__ in a header beside the source is '$got' with $cc, as in the plain build" ||
				ko "defect14-header-file-macro" "$cc: plain '$want', scalegraph cc '$got'"
		done
		# the default compiler, cc, is gcc here: the same without SG_CC
		cc fm.c -o fm.plain 2>/dev/null && env -u SG_CC "$SGCC" fm.c -o fm.sg 2>/dev/null
		want=$(./fm.plain) got=$(SG_TRACE_DIR=tr ./fm.sg 2>/dev/null)
		[ -n "$want" ] && [ "$want" = "$got" ] && ok "defect14-header-file-macro: __FILE__ is '$got' with the default compiler (cc) too" ||
			ko "defect14-header-file-macro" "cc: plain '$want', scalegraph cc '$got'"
	fi
)
# --sg-explain prints the selection and builds the same object
cat >diag/ex.c <<'C'
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int run(int n) { int s = 0; for (int i = 0; i < n; i++) { pthread_mutex_lock(&m); s += fib(i); pthread_mutex_unlock(&m); } return s; }
C
"$SGCC" -c diag/ex.c -o ex1.o 2>ex1.err && "$SGCC" --sg-explain -c diag/ex.c -o ex2.o 2>ex2.err
if cmp -s ex1.o ex2.o && [ ! -s ex1.err ] &&
   grep -qx 'diag/ex.c:3 fib: left out: directly recursive' ex2.err &&
   grep -qx 'diag/ex.c:4 run: selected: loops and calls other functions' ex2.err; then
	ok "--sg-explain lists each function's selection on stderr and builds the same object"
else
	ko "--sg-explain" "$(head -3 ex2.err | tr '\n' '|')"
fi

# link, run, debug line info
if [ $have_lib -eq 1 ]; then
	if "$SGCC" -g -O0 src/prog.c -o prog 2>cc.err && [ "$(SG_TRACE_DIR=tr ./prog)" = "6 42" ]; then
		ok "compile+link in one command runs"
	else
		ko "link" "$(head -3 cc.err)"
	fi
	if command -v gdb >/dev/null; then
		line=$(gdb -batch -ex 'info line work' ./prog 2>/dev/null | head -1)
	else
		line=$(addr2line -e prog "$(nm prog | awk '$3 == "work" { print $1 }')" 2>/dev/null)
	fi
	case $line in
	# (gdb names it absolute when the unit's name is the source's own path: scalegraph cc maps
	# the private copy's folder to the source's in the debug info)
	*prog.c*:8* | *'Line 8 of "src/prog.c"'* | *'line 8 of "src/prog.c"'* | *'Line 7 of "src/prog.c"'* | \
	*'Line 8 of "'/*/src/prog.c'"'*) ok "debug info points at src/prog.c ($line)" ;;
	*) ko "debug info" "got '$line'" ;;
	esac
	"$SGCC" -c src/prog.c -o p1.o && "$SGCC" p1.o -o prog2 2>cc.err && SG_TRACE_DIR=tr2 ./prog2 >/dev/null &&
		ok "link-only invocation adds libsgtrace" || ko "link-only" "$(head -2 cc.err)"
	# --filter is forwarded: excluding everything leaves only the sync wrappers
	printf 'REGION_NAMES_BEGIN\n EXCLUDE *\nREGION_NAMES_END\n' >none.filter
	"$SGCC" --filter none.filter -c src/prog.c -o pf.o 2>cc.err
	if nm pf.o | grep -q 'U sg_pthread_mutex_lock' && ! nm pf.o | grep -q sg_func_enter_rec; then
		ok "--filter is forwarded to the instrumenter"
	else
		ko "--filter" "$(head -2 cc.err)"
	fi
	printf 'REGION_NAMES_BEGIN\n BOGUS\n' >bad.filter
	if ! "$SGCC" --filter bad.filter -c src/prog.c -o pb.o 2>cc.err && grep -q '^bad.filter:2:2: error:' cc.err; then
		ok "a bad filter file stops the build with file:line:col"
	else
		ko "bad filter" "$(head -2 cc.err)"
	fi
	if command -v clang >/dev/null && SG_CC=clang "$SGCC" --sg-dry-run -c src/prog.c | grep -q '^clang '; then
		SG_CC=clang "$SGCC" -c src/prog.c -o pc.o 2>cc.err && ok "SG_CC=clang compiles" || ko "SG_CC" "$(head -2 cc.err)"
		if SG_CC=clang "$SGCC" -Wall -Werror src/prog.c -o progc 2>cc.err &&
		   [ "$(SG_TRACE_DIR=trc ./progc)" = "6 42" ] && nm progc | grep -q sg_pthread_mutex_lock; then
			ok "SG_CC=clang builds and links a traced program that runs"
		else
			ko "SG_CC=clang link" "$(head -2 cc.err)"
		fi
		SG_CC=clang "$SGCC" -Werror=implicit-function-declaration -c src/bad.c -o badc.o 2>badc.err
		if grep -q '^src/bad.c:9:[0-9]*: error:' badc.err && ! grep -q sgcc badc.err; then
			ok "clang errors name src/bad.c:9 too"
		else
			ko "clang errors" "$(head -2 badc.err)"
		fi
	fi
	# hand markers of sgtrace.h are on in traced builds (-DSG_TRACE), unless the user decides
	cat >src/marked.c <<'M'
#include "sgtrace.h"
int main(void)
{
	SG_REGION_BEGIN("hand");
	SG_REGION_END("hand");
	return 0;
}
M
	if "$SGCC" src/marked.c -o marked 2>cc.err && SG_TRACE_DIR=trm ./marked &&
	   "$B_ABS/bin/scalegraph" dump trm 2>/dev/null | grep -q 'region_begin.*hand'; then
		ok "SG_REGION_BEGIN markers record regions in a scalegraph cc build"
	else
		ko "hand markers" "$(head -2 cc.err)"
	fi
	if "$SGCC" --sg-dry-run -USG_TRACE -c src/marked.c | tail -1 | grep -q -- '-DSG_TRACE'; then
		ko "-USG_TRACE" "scalegraph cc still adds -DSG_TRACE"
	else
		ok "-USG_TRACE from the user turns the hand markers off"
	fi
	# as CC in a Makefile
	printf 'prog3: prog.o\n\t$(CC) -o $@ prog.o\nprog.o: src/prog.c\n\t$(CC) -c -o $@ src/prog.c\n' >Makefile
	rm -f prog.o
	if make -s CC="$SGCC" >make.log 2>&1 && [ "$(SG_TRACE_DIR=tr3 ./prog3)" = "6 42" ]; then ok "works as CC in a Makefile"; else ko "make CC=" "$(tail -2 make.log)"; fi
else
	echo "SKIP: cc link tests: $B/lib/libsgtrace.so not built"
fi

# Issue 20. defect20-ifdef-split-header: a function whose header differs per `#ifdef _WIN32`
# branch, with pthread_create/pthread_join in the #else branch of its body (PARSEC
# blackscholes' bs_thread). The first parse reads every branch and the braces do not balance;
# the fallback read the first branch of each #if, the one this build does not compile: 0 calls
# renamed, no warning, a traced run of one thread. scalegraph cc asks the compiler's own
# preprocessor which branches it compiles and reads those.
mkdir -p split
cat >split/bs.c <<'C'
#include <pthread.h>
static void *worker(void *arg) { return arg; }
#ifdef _WIN32
DWORD WINAPI run(LPVOID arg) {
#else
int run(void *arg) {
#endif
#ifdef _WIN32
	WaitForSingleObject(CreateThread(NULL, 0, worker, arg, 0, NULL), INFINITE);
#else
	pthread_t t; pthread_create(&t, NULL, worker, arg); pthread_join(t, NULL);
#endif
	return 0;
}
int main(void) { return run(NULL); }
C
INST=$B_ABS/libexec/scalegraph/scalegraph-instrument
if [ $have_lib -eq 1 ]; then
	rm -rf split/tr
	if ! "$SGCC" -O2 split/bs.c -o split/bs 2>split/cc.err; then
		ko "defect20-ifdef-split-header" "build failed: $(head -2 split/cc.err)"
	elif [ -s split/cc.err ]; then
		ko "defect20-ifdef-split-header" "scalegraph cc warned: $(head -2 split/cc.err)"
	elif ! nm split/bs | grep -q 'U sg_pthread_create' || ! nm split/bs | grep -q 'U sg_pthread_join$'; then
		ko "defect20-ifdef-split-header" "pthread_create/pthread_join not renamed: $(nm split/bs | grep -c ' U sg_') sg_ symbols"
	elif ! SG_TRACE_DIR=split/tr ./split/bs; then
		ko "defect20-ifdef-split-header" "the traced program failed"
	else
		threads=$("$B_ABS/bin/scalegraph" dump split/tr 2>/dev/null | grep -c '^[0-9][0-9]* [0-9][0-9]* thread_begin ')
		[ "$threads" = 2 ] && ok "defect20-ifdef-split-header: scalegraph cc renames both calls of the #else branch, no warning, the traced run has $threads threads" ||
			ko "defect20-ifdef-split-header" "the traced run has $threads threads, not 2"
	fi
fi
# the same through scalegraph instrument alone: no flags, no preprocessor; the fallback reads
# the first branches and says which lines it did not read
"$INST" --stats split/bs.c -o split/bs.fb.c 2>split/fb.err
if grep -q '^split/bs.c:5:1: warning: line 6 not instrumented (this #else branch)' split/fb.err &&
   grep -q '^split/bs.c:10:1: warning: line 11 not instrumented (this #else branch).*-D/-U' split/fb.err &&
   grep -q '0 calls renamed' split/fb.err; then
	ok "defect20-ifdef-fallback-warning: scalegraph instrument without flags names the lines it did not read (6, 11) and how to have them read"
else
	ko "defect20-ifdef-fallback-warning" "$(tr '\n' '|' <split/fb.err | head -c 400)"
fi
# with the build's flags scalegraph instrument does what cc does: -D_WIN32 reads the other
# branch (no pthread call there), any flag without it the #else branches (both calls)
"$INST" --stats --explain -D_WIN32 split/bs.c -o split/bs.win.c 2>split/win.err
"$INST" --stats -DNDEBUG -I split split/bs.c -o split/bs.posix.c 2>split/posix.err
if grep -q '^split/bs.c:4 run: ' split/win.err && grep -q '0 calls renamed' split/win.err &&
   ! grep -q 'warning:' split/win.err && grep -q '2 calls renamed' split/posix.err &&
   ! grep -q 'warning:' split/posix.err && grep -q 'sg_pthread_join(' split/bs.posix.c; then
	ok "defect20-ifdef-flags: scalegraph instrument -D_WIN32 reads the _WIN32 branches, -DNDEBUG the others, as the compiler would"
else
	ko "defect20-ifdef-flags" "$(cat split/win.err split/posix.err | tr '\n' '|' | head -c 400)"
fi

# defect20-knr-main: a K&R main with implicit int (NPB 3.0) is a definition: its probe records
cat >src/knr.c <<'C'
#include <stdio.h>
static int total;
add(a) int a; { total += a; return total; }
main(argc, argv)
	int argc;
	char **argv;
{
	int i;
	for (i = 0; i < 3; i++)
		add(i + argc);
	printf("%d %s\n", total, argv[0] ? "ok" : "");
	return 0;
}
C
if [ $have_lib -eq 1 ]; then
	rm -rf knr.tr
	if "$SGCC" -std=gnu89 -w src/knr.c -o knr 2>cc.err && SG_TRACE_DIR=knr.tr ./knr >/dev/null &&
	   "$B_ABS/bin/scalegraph" dump knr.tr 2>/dev/null | grep -q 'func_enter main (src/knr.c:4)'; then
		ok "defect20-knr-main: a K&R main with implicit int gets its probe (func_enter main)"
	else
		ko "defect20-knr-main" "no func_enter main in the trace: $(head -2 cc.err)"
	fi
fi

# defect20-tiny-helper-across-files: helper.c defines a tiny helper (WATER-SPATIAL's CSHIFT:
# a 14-iteration loop, a libm call); a.c and b.c call it inside loops. Built with scalegraph
# cc in both compile orders and linked, the helper records nothing either way (the sidecars and
# the link settle it), and the same shape called once (once()) keeps its probe.
mkdir -p x3
cat >x3/helper.h <<'C'
void shift(double *xl, double box);
double once(double x);
void work_a(double *v, int n);
void work_b(double *v, int n);
C
cat >x3/helper.c <<'C'
#include <math.h>
#include "helper.h"

void shift(double *xl, double box)
{
	for (int i = 0; i < 14; i++)
		if (fabs(xl[i]) > box)
			xl[i] -= box;
}

double once(double x)
{
	for (int i = 0; i < 3; i++)
		x = fabs(x) * 0.5;
	return x;
}
C
cat >x3/a.c <<'C'
#include <stdio.h>
#include "helper.h"

void work_a(double *v, int n)
{
	for (int k = 0; k < n; k++)
		shift(v + (k % 16), 0.25);
}

int main(void)
{
	static double v[64];
	for (int i = 0; i < 64; i++)
		v[i] = i * 0.1;
	work_a(v, 20000);
	work_b(v, 20000);
	printf("%.3f %.3f\n", v[5], once(v[7]));
	return 0;
}
C
cat >x3/b.c <<'C'
#include "helper.h"

void work_b(double *v, int n)
{
	int k = 0;
	while (k < n)
		shift(v + (k++ % 8), 0.5);
}
C
if [ $have_lib -eq 1 ]; then
	for order in "helper a b" "a b helper"; do
		(
			cd x3 || exit 1
			rm -f ./*.o ./*.sgsel prog explain.err
			rm -rf tr
			for f in $order; do "$SGCC" -O2 -c $f.c 2>>cc.err || exit 1; done
			"$SGCC" --sg-explain a.o b.o helper.o -o prog -lm 2>explain.err || exit 1
			SG_TRACE_DIR=tr ./prog >/dev/null || exit 1
			"$B_ABS/bin/scalegraph" dump tr >dump.txt 2>/dev/null
		) || { ko "defect20-tiny-helper-across-files" "order '$order': build or run failed: $(head -3 x3/cc.err)"; continue; }
		n_shift=$(grep -c 'func_enter shift ' x3/dump.txt)
		n_once=$(grep -c 'func_enter once ' x3/dump.txt)
		why=$(grep -h 'shift' x3/explain.err x3/helper.o.sgsel | tr '\n' '|')
		if [ "$n_shift" = 0 ] && [ "$n_once" = 1 ] &&
		   { grep -q 'helper.c:4 shift: left out: tiny helper called in a loop at [ab].c:7, in another file' x3/explain.err ||
		     grep -qx 'def shift 4 1' x3/helper.o.sgsel; }; then
			ok "defect20-tiny-helper-across-files: compiled in the order '$order', shift() records no call (0 of 40000), once() keeps its probe; why: $why"
		else
			ko "defect20-tiny-helper-across-files" "order '$order': shift entered $n_shift times, once $n_once; $why"
		fi
	done
fi
