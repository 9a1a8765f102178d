# bench-lib.sh — sourced by bench scripts: interleaved timing and a build of the tree as it was
# before a change, so that "before" and "after" are measured side by side in one run.
#
#   bench_before_tree         sets $before to a build of git ref $BENCH_BEFORE (default: the
#                             commit before issue 14's work) with libsgtrace, its headers and
#                             `scalegraph cc`, built once into $B/bench/before-REF; returns 1
#                             (and says why) when this is not a git checkout
#   bench_time NAME CMD...    runs CMD once, appends "NAME wall_s" to $work/times
#   bench_median NAME [COL]   the median of column COL (default 2: the wall time) of NAME's
#                             lines in $work/times
#   bench_ratio A B           A's median / B's median, 2 decimals
# The caller sets $work (a temporary directory) and $B.

bench_before_tree() {
	local ref=${BENCH_BEFORE:-3d5fd31}
	if ! git rev-parse --verify -q "$ref^{commit}" >/dev/null 2>&1; then
		echo "SKIP: before-tree: '$ref' is not a commit of this checkout (not a git clone?)"
		return 1
	fi
	before=$PWD/$B/bench/before-$ref
	if [ ! -x "$before/build/bin/scalegraph" ] || [ ! -f "$before/build/lib/libsgtrace.a" ]; then
		rm -rf "$before" && mkdir -p "$before"
		git archive "$ref" | tar -x -C "$before" || return 1
		if ! make -C "$before" -j2 build/lib/libsgtrace.a build/bin/scalegraph \
			build/libexec/scalegraph/scalegraph-cc build/include/sgtrace.h \
			build/include/sgtrace_format.h >"$before.log" 2>&1; then
			echo "SKIP: before-tree: building $ref failed (see $before.log)"
			return 1
		fi
	fi
	return 0
}

bench_time() {
	local name=$1 s e
	shift
	s=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$name $(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", b - a }')" >>"$work/times"
}

bench_median() {
	awk -v v="$1" -v c="${2:-2}" '$1 == v { print $c }' "$work/times" | sort -n |
		awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }'
}

bench_ratio() {
	awk -v a="$(bench_median "$1")" -v b="$(bench_median "$2")" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}
