#!/bin/bash
# load.sh — `scalegraph report` and `scalegraph dump --summary` on the same number of events
# spread over 4, 256 and 1024 threads (traces written by bench/load_trace.c): wall time, CPU time
# (user + system: steadier than the wall time on a shared machine) and peak resident memory of
# each (/usr/bin/time -f '%e %M %U %S'), and the ratios to the first thread count. The target
# (issue 13): report at 1024 threads within 2x the time and memory of 4 threads.
#
# usage: bench/load.sh [--events N] [--threads "4 256 1024"] [--dir DIR] [--runs K] [--no-dump]
#                      [--keep] [--reuse]
#   --events N   total events of each trace (default 4000000; the full bench is 100000000,
#                ~1.6 GB of trace per thread count)
#   --dir DIR    where the traces go (default /tmp/sgload); deleted afterwards unless --keep
#   --runs K     time each command K times, keep the fastest (default 1)
#   --no-dump    time report only (dump --summary scans every thread per event before issue 13:
#                minutes at 1024 threads)
#   --reuse      use traces already in DIR with the same thread and event counts (implies --keep)
# Peak RSS includes the trace's pages mapped by the reader (16 bytes an event when all read).
set -u
B=${B:-build}
events=4000000
threads="4 256 1024"
dir=/tmp/sgload
keep=0
reuse=0
runs=1
dump=1
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=$2; shift 2 ;;
	--threads) threads=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--no-dump) dump=0; shift ;;
	--keep) keep=1; shift ;;
	--reuse) reuse=1; keep=1; shift ;;
	*) echo "usage: $0 [--events N] [--threads LIST] [--dir DIR] [--runs K] [--no-dump]" \
		"[--keep] [--reuse]" >&2
	   exit 2 ;;
	esac
done
sg=$B/bin/scalegraph
gen=$B/bench/load_trace
for x in "$sg" "$gen" /usr/bin/time; do
	[ -x "$x" ] || { echo "load: $x missing (make all $gen)" >&2; exit 1; }
done
mkdir -p "$dir" || exit 1
cleanup() {
	[ $keep = 1 ] || for t in $threads; do rm -rf "$dir/t$t-e$events"; done
	rm -f "$dir/time" "$dir/err"
}
trap cleanup EXIT

# measure CMD...: "wall_s cpu_s peak_kB" of the fastest of $runs runs (output discarded), or
# "- - -" when it fails
measure() {
	local best="" k
	for k in $(seq 1 "$runs"); do
		if ! /usr/bin/time -o "$dir/time" -f '%e %M %U %S' "$@" >/dev/null 2>"$dir/err"; then
			echo "load: $* failed: $(tail -2 "$dir/err")" >&2
			echo "- - -"
			return
		fi
		local line
		line=$(tail -1 "$dir/time" | awk '{ printf "%s %.2f %s", $1, $3 + $4, $2 }')
		if [ -z "$best" ] || awk -v a="$line" -v b="$best" \
			'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
			best=$line
		fi
	done
	echo "$best"
}

mb() { [ "$1" = - ] && echo - || echo $(( $1 / 1024 )); }
declare -A rw rc rm dw dc dm
for t in $threads; do
	tr=$dir/t$t-e$events
	if [ $reuse = 0 ] || [ ! -f "$tr/defs.sgd" ]; then
		rm -rf "$tr"
		"$gen" "$tr" "$t" "$events" >/dev/null || exit 1
	fi
	read -r a b c < <(measure "$sg" report "$tr")
	rw[$t]=$a rc[$t]=$b rm[$t]=$c
	if [ $dump = 1 ]; then
		read -r a b c < <(measure "$sg" dump --summary "$tr")
	else
		a=- b=- c=-
	fi
	dw[$t]=$a dc[$t]=$b dm[$t]=$c
	printf 'load_%s_threads: report %s s (cpu %s s) %s MB, dump --summary %s s (cpu %s s) %s MB' \
		"$t" "${rw[$t]}" "${rc[$t]}" "$(mb "${rm[$t]}")" "${dw[$t]}" "${dc[$t]}" \
		"$(mb "${dm[$t]}")"
	printf ' (%s events, %s)\n' "$events" "$(du -sh "$tr" | cut -f1)"
done
base=${threads%% *}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-";
	else printf "%.2f", a / b }'; }
printf '\n%-9s %9s %9s %9s %9s %9s %9s\n' threads "report s" "cpu s" "MB" "dump s" "cpu s" "MB"
for t in $threads; do
	printf '%-9s %9s %9s %9s %9s %9s %9s\n' "$t" "${rw[$t]}" "${rc[$t]}" "$(mb "${rm[$t]}")" \
		"${dw[$t]}" "${dc[$t]}" "$(mb "${dm[$t]}")"
done
for t in $threads; do
	[ "$t" = "$base" ] && continue
	printf '%-9s %9s %9s %9s %9s %9s %9s\n' "$t/$base" "$(ratio "${rw[$t]}" "${rw[$base]}")" \
		"$(ratio "${rc[$t]}" "${rc[$base]}")" "$(ratio "${rm[$t]}" "${rm[$base]}")" \
		"$(ratio "${dw[$t]}" "${dw[$base]}")" "$(ratio "${dc[$t]}" "${dc[$base]}")" \
		"$(ratio "${dm[$t]}" "${dm[$base]}")"
done
for t in $threads; do
	[ "$t" = "$base" ] && continue
	echo "load_report_ratio_${t}_${base}: wall $(ratio "${rw[$t]}" "${rw[$base]}")x cpu" \
		"$(ratio "${rc[$t]}" "${rc[$base]}")x memory $(ratio "${rm[$t]}" "${rm[$base]}")x" \
		"(target <= 2x)"
done
