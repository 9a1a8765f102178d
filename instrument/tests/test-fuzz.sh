#!/bin/bash
# test-fuzz.sh [SECONDS [CORPUS]] — runs the libFuzzer harness of the instrumenter
# (fuzz_instrument.c: no crash, no sanitizer report, structural invariants hold) for SECONDS
# (default 30, what `make check` uses; `make fuzz` passes FUZZ_SECONDS and a corpus it keeps).
# The corpus is seeded with the golden cases, once per selection mode (the first byte of an
# input picks the mode). Afterwards every corpus input that compiles as C must still compile
# once instrumented in its mode: the fuzzer itself cannot afford a compiler per input.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
FUZZ=$B/fuzz/fuzz-instrument
INST=$B/libexec/scalegraph/scalegraph-instrument
secs=${1:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=${2:-$work/corpus}
[ -x "$FUZZ" ] || { echo "SKIP: fuzz: $FUZZ not built (needs clang and libclang-rt-14-dev)"; exit 0; }
[ -x "$INST" ] || { echo "FAIL: fuzz: $INST not built"; exit 1; }
CASES=instrument/tests/cases

mkdir -p "$work/seeds"
for src in "$CASES"/*.c; do
	case $src in *.expected.c) continue ;; esac
	for m in 0 1 2; do
		{ printf "\\x0$m"; cat "$src"; } >"$work/seeds/seed-$m-$(basename "$src")"
	done
done
tests/fuzz-run.sh instrument "$work/seeds" "$secs" "$corpus" -max_len=4096 \
	-dict=instrument/tests/fuzz_instrument.dict

# Inputs that compile must still compile instrumented (gcc, warnings off: the inputs are
# mutations; what matters is that no valid program is turned into an invalid one).
n=0 ok=0 bad=""
for f in $( (ls "$corpus" | grep '^seed-'; ls "$corpus" | grep -v '^seed-' | sort | head -300) ); do
	tail -c +2 "$corpus/$f" >"$work/in.c"
	gcc -fsyntax-only -w -std=gnu11 -I"$CASES" "$work/in.c" 2>/dev/null || continue
	case $(head -c 1 "$corpus/$f" | od -An -tu1 | tr -d ' ') in
	1) opt=--all-functions ;; 2) opt=--no-functions ;; *) opt= ;;
	esac
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$INST" -q $opt --name in.c "$work/in.c" -o "$work/out.c" &&
		gcc -fsyntax-only -w -std=gnu11 -I"$CASES" -Itracelib "$work/out.c" 2>"$work/cc.err" &&
		ok=$((ok + 1)) || { bad="$bad $f"; cp "$corpus/$f" "$work/bad-$f"; }
done
if [ -z "$bad" ]; then
	echo "PASS: fuzz: all $n corpus inputs that compile still compile instrumented"
else
	echo "FAIL: fuzz: $((n - ok)) of $n compiling inputs fail to compile instrumented:$(echo $bad | cut -c1-200)"
	mkdir -p "$B/fuzz/noncompiling" && cp "$work"/bad-* "$B/fuzz/noncompiling/"
	echo "     kept in $B/fuzz/noncompiling; first error: $(grep -m1 error "$work/cc.err")"
fi
