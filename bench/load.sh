#!/bin/bash
# load.sh — `scalegraph report` and `scalegraph dump --summary` on the same number of events
# spread over 4, 256 and 1024 threads (traces written by bench/load_trace.c): wall time and peak
# resident memory of each (/usr/bin/time -f '%e %M'), and the ratios 256/4 and 1024/4. The
# target (issue 13): report at 1024 threads within 2x the time and memory of 4 threads.
#
# usage: bench/load.sh [--events N] [--threads "4 256 1024"] [--dir DIR] [--keep] [--reuse]
#   --events N   total events of each trace (default 4000000; the full bench is 100000000,
#                ~1.6 GB of trace per thread count)
#   --dir DIR    where the traces go (default /tmp/sgload); deleted afterwards unless --keep
#   --reuse      use traces already in DIR with the same thread and event counts
set -u
B=${B:-build}
events=4000000
threads="4 256 1024"
dir=/tmp/sgload
keep=0
reuse=0
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--reuse) reuse=1; keep=1; shift ;;
	*) echo "usage: $0 [--events N] [--threads LIST] [--dir DIR] [--keep] [--reuse]" >&2
	   exit 2 ;;
	esac
done
sg=$B/bin/scalegraph
gen=$B/bench/load_trace
for x in "$sg" "$gen" /usr/bin/time; do
	[ -x "$x" ] || { echo "load: $x missing (make all $gen)" >&2; exit 1; }
done
mkdir -p "$dir" || exit 1
[ $keep = 1 ] || trap 'for t in $threads; do rm -rf "$dir/t$t-e$events"; done; rm -f "$dir/time" "$dir/err"' EXIT

# measure NAME CMD...: "wall_s peak_kB" of the command (its output discarded)
measure() {
	/usr/bin/time -o "$dir/time" -f '%e %M' "$@" >/dev/null 2>"$dir/err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		echo "load: $* failed ($rc): $(tail -2 "$dir/err")" >&2
		echo "- -"
		return
	fi
	tail -1 "$dir/time"
}

declare -A rt rm dt dm
for t in $threads; do
	tr=$dir/t$t-e$events
	if [ $reuse = 0 ] || [ ! -f "$tr/defs.sgd" ]; then
		rm -rf "$tr"
		"$gen" "$tr" "$t" "$events" >/dev/null || exit 1
	fi
	read -r a b < <(measure "$sg" report "$tr")
	rt[$t]=$a rm[$t]=$b
	read -r a b < <(measure "$sg" dump --summary "$tr")
	dt[$t]=$a dm[$t]=$b
	printf 'load_%s_threads: report %s s %s MB, dump --summary %s s %s MB (%s events, %s)\n' \
		"$t" "${rt[$t]}" "$(( ${rm[$t]/-/0} / 1024 ))" "${dt[$t]}" \
		"$(( ${dm[$t]/-/0} / 1024 ))" "$events" "$(du -sh "$tr" | cut -f1)"
done
base=${threads%% *}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-";
	else printf "%.2f", a / b }'; }
printf '\n%-8s %10s %10s %10s %10s\n' threads "report s" "report MB" "dump s" "dump MB"
for t in $threads; do
	printf '%-8s %10s %10s %10s %10s\n' "$t" "${rt[$t]}" "$(( ${rm[$t]/-/0} / 1024 ))" \
		"${dt[$t]}" "$(( ${dm[$t]/-/0} / 1024 ))"
done
for t in $threads; do
	[ "$t" = "$base" ] && continue
	printf '%-8s %10s %10s %10s %10s\n' "$t/$base" "$(ratio "${rt[$t]}" "${rt[$base]}")" \
		"$(ratio "${rm[$t]}" "${rm[$base]}")" "$(ratio "${dt[$t]}" "${dt[$base]}")" \
		"$(ratio "${dm[$t]}" "${dm[$base]}")"
	echo "load_report_ratio_${t}_${base}: time $(ratio "${rt[$t]}" "${rt[$base]}")x memory $(ratio "${rm[$t]}" "${rm[$base]}")x (target <= 2x both)"
done
