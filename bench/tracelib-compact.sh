#!/bin/bash
# tracelib-compact.sh — bytes per event of the trace format beside the recording cost, side by
# side in one run (issue 21, part 4: <= 8 bytes per event, recording <= 1.5 x one rdtsc per
# event). The same library writes chunks of 16-byte records (SG_TRACE_COMPACT=0, the format up
# to 1.5) and compact chunks (1.6, the default), alternately:
#   - bytes/event: the stream files (thread.*.sgs and sched.sgs, headers and trailers included)
#     over the records in them (threads' and sched's), for billiards at N=2 and a few sizes and
#     for the SPLASH-like lock/barrier-heavy bench/lock_heavy.c; with the program's wall time;
#   - ns/event: bench/record_cost.c's wrapped mutex lock/unlock (3 events) against the bare
#     one and a bare rdtsc loop in the same process, timed with the thread's CPU clock (a
#     shared machine's load swings wall-clock loops by 2x), ROUNDS (default 3) runs each;
#   - bench/compact_codec.c on the largest billiards trace: encode and decode ns/event alone.
# With SG_BENCH_BEFORE_B=DIR (the build directory of an older tree, its bench/lock_heavy and
# bench/record_cost built), its programs run too, in the same rounds, as "before".
# Usage: bench/tracelib-compact.sh    (B=build; ROUNDS=3; SIZES="2000x60 4000x60 20000x60";
#        LOCK_ARGS="2 200 2000"; ONLY=sizes or ONLY=record for one half)
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
ROUNDS=${ROUNDS:-3}
SIZES=${SIZES:-"2000x60 4000x60 20000x60"}
LOCK_ARGS=${LOCK_ARGS:-"2 200 2000"}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sgcompact.XXXXXX")
trap 'rm -rf "$dir"' EXIT
dump=$B/libexec/scalegraph-dump
[ -x "$dump" ] || dump="$B/bin/scalegraph dump"

# Prints "BYTES RECORDS" of the process trace under root $1.
trace_size() {
	local p
	p=$(ls -d "$1"/proc.* | head -1)
	local bytes
	bytes=$(cat "$p"/thread.*.sgs "$p"/sched.sgs 2>/dev/null | wc -c)
	$dump --summary "$p" | awk -v b="$bytes" '
		/^thread [0-9]+:/ { for (i = 1; i <= NF; i++) if ($(i+1) == "records") n += $i }
		/^sched:/ { for (i = 1; i <= NF; i++) if ($(i+1) == "records" || $(i+1) == "records;") n += $i }
		END { print b, n }'
}

# One traced run: label, env setting, program and arguments. Prints a line of the table.
size_run() {
	local label=$1 env=$2
	shift 2
	rm -rf "$dir/t"
	local t0 t1
	t0=$(date +%s.%N)
	env $env SG_TRACE_DIR="$dir/t" "$@" >/dev/null
	t1=$(date +%s.%N)
	read -r bytes recs < <(trace_size "$dir/t")
	awk -v l="$label" -v b="$bytes" -v n="$recs" -v w="$(echo "$t1 - $t0" | bc)" 'BEGIN {
		printf "%-34s %12d bytes %10d records %6.2f bytes/event  %6.3f s\n", l, b, n,
		       n ? b / n : 0, w }'
}

if [ "${ONLY:-}" != record ]; then
echo "# bytes per event (stream files over their records), and the program's wall time"
progs=()
for s in $SIZES; do
	progs+=("billiards-$s|billiards-traced --balls ${s%x*} --steps ${s#*x} --threads 2")
done
progs+=("lock_heavy-${LOCK_ARGS// /-}|lock_heavy $LOCK_ARGS")
path_of() {   # build dir, program name
	case $2 in
	billiards-traced) echo "$1/bin/billiards-traced" ;;
	*) echo "$1/bench/$2" ;;
	esac
}
for p in "${progs[@]}"; do
	label=${p%%|*}
	cmd=(${p#*|})
	for ((r = 0; r < ROUNDS; r++)); do
		if [ -n "${SG_BENCH_BEFORE_B:-}" ] && [ -x "$(path_of "$SG_BENCH_BEFORE_B" "${cmd[0]}")" ]; then
			size_run "before $label" "SG_TRACE=1" \
				"$(path_of "$SG_BENCH_BEFORE_B" "${cmd[0]}")" "${cmd[@]:1}"
		fi
		size_run "16-byte $label" "SG_TRACE_COMPACT=0" \
			"$(path_of "$B" "${cmd[0]}")" "${cmd[@]:1}"
		size_run "compact $label" "SG_TRACE_COMPACT=1" \
			"$(path_of "$B" "${cmd[0]}")" "${cmd[@]:1}"
		case $label in billiards-*) rm -rf "$dir/keep"; mv "$dir/t" "$dir/keep" ;; esac
	done
done

echo "# the encoding alone, on the last compact billiards trace (CPU time)"
"$B/bench/compact_codec" "$(ls -d "$dir"/keep/proc.* | head -1)"
fi
[ "${ONLY:-}" = sizes ] && exit 0
echo "# recording cost: wrapped mutex lock/unlock (3 events) vs bare, and one rdtsc (CPU time)"
rec_run() {
	local label=$1 env=$2 prog=$3
	rm -rf "$dir/r"
	printf '%-34s %s\n' "$label" "$(env $env SG_EVENTS=none SG_TRACE_DIR="$dir/r" "$prog" 2>&1)"
}
for ((r = 0; r < ROUNDS; r++)); do
	if [ -n "${SG_BENCH_BEFORE_B:-}" ] && [ -x "$SG_BENCH_BEFORE_B/bench/record_cost" ]; then
		rec_run "before" "SG_TRACE=1" "$SG_BENCH_BEFORE_B/bench/record_cost"
	fi
	rec_run "16-byte" "SG_TRACE_COMPACT=0" "$B/bench/record_cost"
	rec_run "compact" "SG_TRACE_COMPACT=1" "$B/bench/record_cost"
done
