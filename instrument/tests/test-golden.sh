#!/bin/bash
# Golden tests of the instrumenter: each cases/NAME.c is instrumented (options from NAME.opts)
# and compared with NAME.expected.c (and its warnings with NAME.expected.err when present).
# The input and the expected output are then compiled with -Wall -Werror (gcc and clang; extra
# flags from NAME.flags); cases with a main() are linked with libsgtrace and run, and must print
# what the plain build prints. Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
INST=$B/libexec/scalegraph/scalegraph-instrument
CASES=instrument/tests/cases
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
have_lib=0
[ -f "$B/lib/libsgtrace.so" ] && have_lib=1

# decls OBJ: "tag name line" of every function, variable, parameter and label the debug info
# declares (not sg_ probe names): the #line directives must keep all of the user's lines.
decls() {
	readelf --debug-dump=info "$1" 2>/dev/null | awk '
		/^ *<[0-9]+><[0-9a-f]+>: Abbrev/ { if (tag != "" && name != "" && line != "" && !decl) print tag, name, line
			tag = ""; name = ""; line = ""; decl = 0
			if ($0 ~ /DW_TAG_(subprogram|variable|formal_parameter|label)\)/) { tag = $NF } }
		/DW_AT_name/ { name = $NF }
		/DW_AT_decl_line/ { line = $NF }
		/DW_AT_declaration/ { decl = 1 }
		END { if (tag != "" && name != "" && line != "" && !decl) print tag, name, line }' |
		grep -v ' sg_' | sort -u
}

for src in "$CASES"/*.c; do
	case $src in *.expected.c) continue ;; esac
	name=$(basename "$src" .c)
	opts=$(cat "$CASES/$name.opts" 2>/dev/null)
	flags=$(cat "$CASES/$name.flags" 2>/dev/null)
	exp=$CASES/$name.expected.c
	# shellcheck disable=SC2086
	"$INST" $opts --name "$name.c" "$src" -o "$work/$name.out.c" 2>"$work/$name.err"
	if [ $? -ne 0 ]; then echo "FAIL: $name: instrumenter failed: $(head -1 "$work/$name.err")"; continue; fi
	if ! cmp -s "$exp" "$work/$name.out.c"; then
		echo "FAIL: $name: output differs from $exp:"; diff "$exp" "$work/$name.out.c" | head -20
		continue
	fi
	echo "PASS: $name: output"
	if [ -f "$CASES/$name.expected.err" ]; then
		if cmp -s "$CASES/$name.expected.err" "$work/$name.err"; then
			echo "PASS: $name: warnings"
		else
			echo "FAIL: $name: warnings differ:"; diff "$CASES/$name.expected.err" "$work/$name.err"
		fi
	elif [ -s "$work/$name.err" ]; then
		echo "FAIL: $name: unexpected warnings: $(head -1 "$work/$name.err")"
	fi
	for cc in gcc clang; do
		command -v $cc >/dev/null || { echo "SKIP: $name: $cc: not installed"; continue; }
		# shellcheck disable=SC2086
		if ! $cc -Wall -Werror $flags -I"$CASES" -c "$src" -o "$work/$name.in.o" 2>"$work/cc.err"; then
			echo "FAIL: $name: the input itself does not compile with $cc: $(head -3 "$work/cc.err")"; continue
		fi
		# shellcheck disable=SC2086
		if $cc -Wall -Werror $flags -I"$CASES" -Itracelib -c "$exp" -o "$work/$name.o" 2>"$work/cc.err"; then
			echo "PASS: $name: expected output compiles with $cc -Wall -Werror"
		else
			echo "FAIL: $name: expected output does not compile with $cc: $(head -5 "$work/cc.err")"
			continue
		fi
		[ $cc = gcc ] || continue
		# shellcheck disable=SC2086
		$cc -g $flags -I"$CASES" -c "$src" -o "$work/$name.in.o" 2>/dev/null &&
		$cc -g $flags -I"$CASES" -Itracelib -c "$exp" -o "$work/$name.o" 2>/dev/null
		decls "$work/$name.in.o" >"$work/$name.in.decls"
		decls "$work/$name.o" >"$work/$name.out.decls"
		missing=$(comm -23 "$work/$name.in.decls" "$work/$name.out.decls" | head -3 | tr '\n' ';')
		if [ -n "$missing" ]; then
			echo "FAIL: $name: debug info lines moved (#line): input has $missing not found in the output"
		else
			echo "PASS: $name: debug info keeps all $(wc -l <"$work/$name.in.decls") declaration lines (#line)"
		fi
	done
	grep -q '^int main' "$src" || continue
	if [ $have_lib -eq 0 ]; then echo "SKIP: $name: run: $B/lib/libsgtrace.so not built"; continue; fi
	# shellcheck disable=SC2086
	gcc $flags -I"$CASES" "$src" -o "$work/$name.plain" -pthread 2>/dev/null &&
	gcc $flags -I"$CASES" -Itracelib "$exp" -o "$work/$name.traced" -L"$B/lib" \
		-Wl,-rpath,"$PWD/$B/lib" -lsgtrace -pthread ${SG_SAN_FLAGS:-} 2>"$work/cc.err" || {
		echo "FAIL: $name: run: link failed: $(head -3 "$work/cc.err")"; continue; }
	want=$("$work/$name.plain" 2>&1)
	got=$(SG_TRACE_DIR="$work/$name.trace" "$work/$name.traced" 2>/dev/null)
	if [ "$want" = "$got" ]; then
		echo "PASS: $name: runs, same output as the plain build"
	else
		echo "FAIL: $name: run: printed '$got', plain build printed '$want'"
	fi
done

# With nothing to do the output is the input, byte for byte.
if cmp -s "$CASES/nothing.c" "$CASES/nothing.expected.c" && cmp -s "$CASES/empty.c" "$CASES/empty.expected.c"; then
	echo "PASS: unchanged input comes back byte for byte"
else
	echo "FAIL: unchanged input: nothing.expected.c or empty.expected.c differs from its input"
fi
