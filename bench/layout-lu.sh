#!/bin/bash
# layout-lu.sh — issue 21 part 1's table on an LU-like kernel (bench/layout_lu.c): the plain
# build against `scalegraph cc` with recording off (SG_TRACE=0) and traced, at N = 1 and 2, in
# interleaved rounds, as ratios of medians to the plain build. Beside them, the layout before
# issue 21 (`scalegraph instrument --site-args`: every wait passed a static call-site descriptor,
# one more argument per call) compiled the same way, and what `scalegraph layout` says of each
# build. Targets: SG_TRACE=0 within 2 % of plain, traced within 5 %. Wall time and, beside it,
# user CPU time (/usr/bin/time): on a shared machine the wall time of a CPU-bound run spreads
# by several times with the load; the CPU time much less.
#
#   REPS=5 LU_N=1536 bench/layout-lu.sh
set -u
B=${B:-build}
REPS=${REPS:-5}
LU_N=${LU_N:-1536}
CC=${CC:-cc}
B_ABS=$(cd "$B" && pwd)
SGCC=$B_ABS/libexec/scalegraph/scalegraph-cc
INST=$B_ABS/libexec/scalegraph/scalegraph-instrument
LAYOUT=$B_ABS/libexec/scalegraph/scalegraph-layout
for f in "$SGCC" "$INST" "$LAYOUT" "$B_ABS/lib/libsgtrace.so"; do
	[ -x "$f" ] || [ -f "$f" ] || { echo "SKIP: layout-lu: $f not built"; exit 0; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/sgbench.layout.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/bench-lib.sh"
src=$PWD/bench/layout_lu.c
cd "$work" || exit 1
cp "$src" layout_lu.c
FLAGS="-O2 -g -pthread"
export SG_CC=$CC
$CC $FLAGS layout_lu.c -o plain || exit 1
"$SGCC" $FLAGS layout_lu.c -o sgcc || exit 1
"$SGCC" --sg-no-functions $FLAGS layout_lu.c -o nofn || exit 1
"$INST" -q --site-args --name layout_lu.c layout_lu.c -o old.c &&
	$CC $FLAGS -I"$B_ABS/include" -DSG_TRACE old.c -o old -L"$B_ABS/lib" \
		-Wl,-rpath,"$B_ABS/lib" -lsgtrace || exit 1
for v in sgcc nofn old; do
	printf '%-5s %s\n' "$v" "$("$LAYOUT" plain $v | tail -1)"
	"$LAYOUT" plain $v | grep '^changed' | sed 's/^/      /'
done
expect=$(./plain -n "$LU_N" -p 1)
for v in sgcc nofn old; do
	got=$(SG_TRACE=0 ./$v -n "$LU_N" -p 1)
	[ "$got" = "$expect" ] || { echo "FAIL: layout-lu: $v printed $got, plain $expect"; exit 1; }
done
# NAME CMD...: "NAME wall_s user_s" into $work/times
tm() {
	local name=$1
	shift
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "$name %e %U" -a -o "$work/times" "$@" >/dev/null 2>&1
	else
		bench_time "$name" "$@"
	fi
}
ratio3() {
	awk -v a="$(bench_median "$1" 3)" -v b="$(bench_median "$2" 3)" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}
: >"$work/times"
for r in $(seq "$REPS"); do
	for p in 1 2; do
		tm "plain-$p" ./plain -n "$LU_N" -p $p
		tm "sgcc0-$p" env SG_TRACE=0 ./sgcc -n "$LU_N" -p $p
		tm "nofn0-$p" env SG_TRACE=0 ./nofn -n "$LU_N" -p $p
		tm "old0-$p" env SG_TRACE=0 ./old -n "$LU_N" -p $p
		rm -rf tr
		tm "sgcc-$p" env SG_TRACE_DIR=tr ./sgcc -n "$LU_N" -p $p
	done
done
echo "layout_lu -n $LU_N, medians of $REPS interleaved rounds: wall s (ratio to plain) / user CPU ratio:"
printf '%-3s %8s  %-28s %-28s %-28s %-28s\n' N plain "scalegraph cc, TRACE=0" "--sg-no-functions, 0" \
	"before (site args), 0" "scalegraph cc, traced"
for p in 1 2; do
	row=$(printf '%-3s %8s ' $p "$(bench_median "plain-$p")")
	for v in sgcc0 nofn0 old0 sgcc; do
		row=$row$(printf ' %-28s' "$(bench_median "$v-$p") ($(bench_ratio "$v-$p" "plain-$p")x) / $(ratio3 "$v-$p" "plain-$p")x")
	done
	echo "$row"
done
