#!/bin/bash
# The three examples built with `scalegraph cc` (as CC: -c per file, then a link) print the same
# checksums as their plain builds at N = 1, 2, 4, and their traces (`scalegraph dump`) hold the
# synchronisation events the programs perform: barriers (billiards, jacobi), locks (billiards'
# queue, taskfarm), function entries. Also checks the default and --sg-static link modes.
# Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
SG=$B/bin/scalegraph
for f in "$SG" "$B/libexec/scalegraph/scalegraph-cc" "$B/lib/libsgtrace.so" "$B/libexec/scalegraph/scalegraph-dump"; do
	[ -e "$f" ] || { echo "SKIP: examples: $f not built"; exit 0; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CFLAGS="-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Iexamples/common"
common="examples/common/ex_cli.c examples/common/ex_threads.c"

# build NAME SOURCES...: compile each with `scalegraph cc -c`, link with `scalegraph cc`.
build() {
	local name=$1 objs=() s o
	shift
	mkdir -p "$work/$name.obj"
	for s in "$@"; do
		o=$work/$name.obj/$(basename "$s" .c).o
		# shellcheck disable=SC2086
		"$SG" cc $CFLAGS -c "$s" -o "$o" 2>>"$work/$name.log" || return 1
		objs+=("$o")
	done
	"$SG" cc "${objs[@]}" -o "$work/$name" -lm 2>>"$work/$name.log"
}

checksum() { "$@" 2>/dev/null | awk '$1 == "checksum" { print $2 }'; }

# check NAME ARGS -- EVENTS...: same checksum as $B/bin/NAME for N=1,2,4; trace has EVENTS.
# $label (default NAME) names the traces and the lines, for a second check of one program.
check() {
	local name=$1 args=() n ref got bad="" ev tag
	shift
	tag=${label:-$name}
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	for n in 1 2 4; do
		ref=$(checksum "$B/bin/$name" "${args[@]}" --threads $n)
		got=$(SG_TRACE_DIR="$work/$tag.trace.$n" checksum "$work/$name" "${args[@]}" --threads $n)
		[ -n "$ref" ] && [ "$ref" = "$got" ] || bad="$bad N=$n:plain=${ref:-none},traced=${got:-none}"
	done
	if [ -n "$bad" ]; then echo "FAIL: $tag: checksums differ:$bad"; return; fi
	echo "PASS: $tag: same checksums as the plain build at N=1,2,4 ($ref)"
	"$SG" dump "$work/$tag.trace.2" >"$work/$tag.dump" 2>&1
	for ev in "$@"; do
		if awk -v e="$ev" '$3 == e { found = 1 } END { exit !found }' "$work/$tag.dump"; then
			echo "PASS: $tag: trace at N=2 has $ev events"
		else
			echo "FAIL: $tag: trace at N=2 has no $ev event ($(wc -l <"$work/$tag.dump") lines)"
		fi
	done
}

if build billiards examples/billiards/billiards_par.c examples/billiards/bil_sim.c \
	examples/billiards/bil_queue.c examples/billiards/bil_coarse.c examples/billiards/bil_cli.c \
	$common; then
	check billiards --balls 300 --steps 100 -- barrier_arrive barrier_leave lock_acquired func_enter func_exit
	label=billiards-coarse check billiards --coarse --balls 300 --steps 100 -- barrier_arrive barrier_leave func_enter func_exit
else
	echo "FAIL: billiards: scalegraph cc build failed: $(head -3 "$work/billiards.log")"
fi
if build jacobi examples/jacobi/jacobi_par.c examples/jacobi/jac_grid.c examples/jacobi/jac_cli.c $common; then
	check jacobi --n 64 --iters 20 -- barrier_arrive barrier_leave func_enter
else
	echo "FAIL: jacobi: scalegraph cc build failed: $(head -3 "$work/jacobi.log")"
fi
if build taskfarm examples/taskfarm/taskfarm_par.c examples/taskfarm/farm_task.c \
	examples/taskfarm/farm_cli.c $common; then
	check taskfarm --tasks 200 --size 500 -- lock_request lock_acquired lock_release func_enter
else
	echo "FAIL: taskfarm: scalegraph cc build failed: $(head -3 "$work/taskfarm.log")"
fi

# --sg-static links libsgtrace.a (and libpfm) instead of the shared library.
if [ -f "$B/lib/libsgtrace.a" ]; then
	# shellcheck disable=SC2086
	if "$SG" cc --sg-static $CFLAGS examples/jacobi/jacobi_par.c examples/jacobi/jac_grid.c \
		examples/jacobi/jac_cli.c $common -o "$work/jacobi-static" -lm 2>"$work/static.log" &&
		! ldd "$work/jacobi-static" | grep -q libsgtrace &&
		[ "$(SG_TRACE_DIR="$work/st" checksum "$work/jacobi-static" --n 32 --iters 5)" = \
		  "$(checksum "$B/bin/jacobi" --n 32 --iters 5)" ]; then
		echo "PASS: --sg-static links libsgtrace.a and runs"
	else
		echo "FAIL: --sg-static: $(head -3 "$work/static.log")"
	fi
fi
