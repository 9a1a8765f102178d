#!/bin/bash
# test-visibility.sh — libsgtrace is linked into other people's programs, so it may define only
# sg_* names (DESIGN.md): checks the dynamic symbol table of libsgtrace.so (nm -D) and the
# global symbols of libsgtrace.a (nm), then links a program against the static library that
# defines a function named like one of the library's internals, which must not clash.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
B=${B:-build}
so=$B/lib/libsgtrace.so
ar=$B/lib/libsgtrace.a
inc=$B/include

# Names the toolchain itself may add to a shared object (old binutils list these with nm -D).
allowed='^(sg_[A-Za-z0-9_]*|_init|_fini|_edata|_end|__bss_start)$'
# A sanitizer build (SG_SAN_FLAGS, config.mk) adds AddressSanitizer's one-definition markers
# of the library's own sg_ globals.
[ -n "${SG_SAN_FLAGS:-}" ] && allowed='^(sg_[A-Za-z0-9_]*|__odr_asan[._]sg_[A-Za-z0-9_]*|_init|_fini|_edata|_end|__bss_start)$'

# check NAME "defined global symbols, one per line"
check() {
	local name=$1 syms=$2
	if [ -z "$syms" ]; then
		echo "FAIL: $name: no symbols found at all"
		return
	fi
	local bad
	bad=$(echo "$syms" | grep -Ev "$allowed" | tr '\n' ' ')
	if [ -n "$bad" ]; then
		echo "FAIL: $name: exports non-sg_ symbols: $bad"
	elif ! echo "$syms" | grep -qx sg_pthread_mutex_lock; then
		echo "FAIL: $name: sg_pthread_mutex_lock is not exported"
	else
		echo "PASS: $name ($(echo "$syms" | wc -l) symbols, all sg_*)"
	fi
}

if [ ! -f "$so" ] || [ ! -f "$ar" ]; then
	echo "FAIL: visibility: $so or $ar not built"
	exit 1
fi
check "so-exports-only-sg" "$(nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }')"
check "archive-exports-only-sg" \
	"$(nm -g --defined-only "$ar" | awk 'NF == 3 && $2 != "U" { print $3 }')"

# The exported set is the same in both forms of the library.
a=$(nm -D --defined-only "$so" | awk 'NF == 3 && $3 ~ /^sg_/ { print $3 }' | sort)
b=$(nm -g --defined-only "$ar" | awk 'NF == 3 && $3 ~ /^sg_/ { print $3 }' | sort)
if [ "$a" = "$b" ]; then
	echo "PASS: so-and-archive-export-the-same"
else
	echo "FAIL: so-and-archive-export-the-same: $(diff <(echo "$a") <(echo "$b") | tr '\n' ' ')"
fi

# A program with its own sgt_env_parse and sgf_hash (internal names of the library) links
# statically and dynamically, and both copies stay separate.
work=$(mktemp -d "${TMPDIR:-/tmp}/sgtest.vis.XXXXXX")
trap 'rm -rf "$work"' EXIT
cat >"$work/p.c" <<'EOF'
#include <stdio.h>
#include "sgtrace.h"
int sgt_env_parse(void);
unsigned long sgf_hash(void);
int sgt_env_parse(void) { return 42; }
unsigned long sgf_hash(void) { return 7; }
int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	sg_pthread_mutex_lock(&m);
	sg_pthread_mutex_unlock(&m);
	printf("%d %lu\n", sgt_env_parse(), sgf_hash());
	return 0;
}
EOF
# The counter code built into the library may use libpfm4.
libs_extra=
if nm "$ar" | grep -q ' U pfm_'; then libs_extra=-lpfm; fi
for how in static shared; do
	if [ $how = static ]; then
		link=("$ar" $libs_extra)
	else
		link=(-L"$B/lib" -Wl,-rpath,"$PWD/$B/lib" -lsgtrace)
	fi
	if ! "${CC:-cc}" -std=c11 -I"$inc" "$work/p.c" -o "$work/p-$how" "${link[@]}" -pthread ${SG_SAN_FLAGS:-} \
		2>"$work/err-$how"; then
		echo "FAIL: no-clash-$how: link failed: $(head -3 "$work/err-$how" | tr '\n' ' ')"
		continue
	fi
	out=$(SG_TRACE=0 "$work/p-$how")
	if [ "$out" = "42 7" ]; then
		echo "PASS: no-clash-$how"
	else
		echo "FAIL: no-clash-$how: program printed '$out', expected '42 7'"
	fi
done

# The markers compile to nothing without -DSG_TRACE, in C89 too (the header goes into any user
# program), and are real calls with it.
cat >"$work/m.c" <<'EOF'
#include "sgtrace.h"
int main(void)
{
	SG_REGION_BEGIN(undeclared_name_is_fine_when_off);
	SG_COUNTER_ADD(also_undeclared, 1);
	SG_REGION_END(undeclared_name_is_fine_when_off);
	return 0;
}
EOF
if "${CC:-cc}" -std=c89 -pedantic -Wall -Werror -I"$inc" -c "$work/m.c" -o "$work/m.o" 2>"$work/err-m"; then
	echo "PASS: markers-compile-to-nothing-c89"
else
	echo "FAIL: markers-compile-to-nothing-c89: $(head -3 "$work/err-m" | tr '\n' ' ')"
fi
if "${CC:-cc}" -std=c11 -DSG_TRACE -Wall -Werror -I"$inc" -c "$work/m.c" -o "$work/m2.o" 2>/dev/null; then
	echo "FAIL: markers-active-with-SG_TRACE: undeclared names compiled with -DSG_TRACE"
else
	echo "PASS: markers-active-with-SG_TRACE"
fi
