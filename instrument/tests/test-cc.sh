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
	*prog.c*:8* | *'Line 8 of "src/prog.c"'* | *'line 8 of "src/prog.c"'* | *'Line 7 of "src/prog.c"'*) ok "debug info points at src/prog.c ($line)" ;;
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
