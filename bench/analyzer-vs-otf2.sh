#!/bin/bash
# analyzer-vs-otf2.sh — the analyzer's speed and memory against the OTF2 library's own reader
# (DESIGN.md's target: `scalegraph report` at least 5x the OTF2 global event reader with empty
# callbacks on the same events, at most 12 bytes per event resident beyond the mapped trace).
# Records the billiards of issue 21 (12 M events, 1.8 M switch records) unless --trace names a
# trace, exports it with `scalegraph export --otf2`, then times, interleaved K times,
# bench/otf2_read (global event reader, no callbacks) and `scalegraph report` (and an older
# report binary with --old, on the same trace): wall, user + system CPU, peak RSS.
# Bytes per event = (peak RSS - the trace's stream files, all mapped and read) / events, and
# the peak of the anonymous memory sampled in a run of its own (RssAnon: the analysis's memory,
# whatever of the trace is mapped) / events.
#
# usage: bench/analyzer-vs-otf2.sh [--trace DIR] [--runs K] [--old REPORT] [--dir DIR] [--keep]
set -u
B=${B:-build}
runs=3
trace=
old=
dir=/tmp/sg-vs-otf2
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--trace) trace=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--old) old=$2; shift 2 ;;
	--dir) dir=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	*) echo "usage: $0 [--trace DIR] [--runs K] [--old REPORT] [--dir DIR] [--keep]" >&2
	   exit 2 ;;
	esac
done
report=$B/libexec/scalegraph/scalegraph-report
for x in "$report" "$B/bin/scalegraph" "$B/bench/otf2_read" /usr/bin/time; do
	[ -x "$x" ] || { echo "vs-otf2: $x missing (make all $B/bench/otf2_read)" >&2; exit 1; }
done
rm -rf "$dir"
mkdir -p "$dir" || exit 1
[ $keep = 1 ] || trap 'rm -rf "$dir"' EXIT
if [ -z "$trace" ]; then
	trace=$dir/trace
	[ -x "$B/bin/billiards-traced" ] || { echo "vs-otf2: billiards-traced missing" >&2; exit 1; }
	SG_TRACE_DIR=$trace "$B/bin/billiards-traced" --balls 50000 --steps 600 --threads 2 \
		>/dev/null || exit 1
fi
"$B/bin/scalegraph" export --otf2 "$trace" "$dir/otf2" >/dev/null 2>"$dir/err" ||
	{ echo "vs-otf2: export failed: $(tail -2 "$dir/err")" >&2; exit 1; }
events=$("$report" --no-store-write "$trace" | sed -n '1s/.*: \([0-9]*\) events.*/\1/p')
bytes=$(find -L "$trace" -name '*.sgs' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
echo "trace: $trace, $events events, $((bytes / 1048576)) MiB of streams"
# one CMD...: "wall cpu peak_kB"
one() {
	/usr/bin/time -o "$dir/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$dir/err" ||
		{ echo "vs-otf2: $* failed: $(tail -2 "$dir/err")" >&2; echo "- - -"; return; }
	awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$dir/time"
}
declare -A best
keep_best() {   # name "wall cpu kB": the fastest wall time
	local name=$1 line=$2
	if [ -z "${best[$name]:-}" ] || awk -v a="$line" -v b="${best[$name]}" \
		'BEGIN { split(a, x); split(b, y); exit !(x[1] < y[1]) }'; then
		best[$name]=$line
	fi
}
names="otf2 report"
[ -n "$old" ] && names="otf2 report old"
for k in $(seq 1 "$runs"); do
	for n in $names; do
		case $n in
		otf2) line=$(one "$B/bench/otf2_read" "$dir/otf2/traces.otf2") ;;
		report) line=$(one "$report" --no-store-write "$trace") ;;
		old) line=$(one "$old" --no-store-write "$trace") ;;
		esac
		echo "run $k $n: wall $(echo "$line" | cut -d' ' -f1) s, cpu $(echo "$line" |
			cut -d' ' -f2) s, peak $(( $(echo "$line" | cut -d' ' -f3) / 1024 )) MB"
		keep_best "$n" "$line"
	done
done
read -r ow oc om <<< "${best[otf2]}"
for n in $names; do
	[ "$n" = otf2 ] && continue
	read -r w c m <<< "${best[$n]}"
	awk -v n="$n" -v w="$w" -v c="$c" -v m="$m" -v ow="$ow" -v oc="$oc" -v ev="$events" \
		-v by="$bytes" 'BEGIN {
		printf "%s: best wall %.2f s (otf2 %.2f s): %.1fx the OTF2 reader (cpu %.1fx);", n, w,
			ow, ow / w, oc / c
		printf " %.1f bytes/event resident beyond the mapped trace (target 12), %.1f M events/s\n",
			(m * 1024 - by) / ev, ev / w / 1e6 }'
done
echo "(target: report >= 5x the OTF2 reader)"
# memory, untimed: the analyzer's own memory (RssAnon) and what of the trace is mapped
# (RssFile) sampled every 20 ms: since the analyzer keeps one stream resident at a time, peak
# RSS minus the trace's size understates its memory; the anonymous peak is the honest figure
anon_peak() {
	"$@" >/dev/null 2>&1 &
	local pid=$! a=0 f=0 x y
	while kill -0 $pid 2>/dev/null; do
		read -r x y < <(awk '/^RssAnon/ { a = $2 } /^RssFile/ { f = $2 }
			END { print a + 0, f + 0 }' /proc/$pid/status 2>/dev/null)
		[ "${x:-0}" -gt $a ] && a=$x
		[ "${y:-0}" -gt $f ] && f=$y
		sleep 0.02
	done
	wait $pid
	echo "$a $f"
}
for n in $names; do
	case $n in
	otf2) continue ;;
	report) read -r a f < <(anon_peak "$report" --no-store-write "$trace") ;;
	old) read -r a f < <(anon_peak "$old" --no-store-write "$trace") ;;
	esac
	awk -v n="$n" -v a="$a" -v f="$f" -v ev="$events" 'BEGIN {
		printf "%s: peak anonymous %d MB = %.1f bytes/event (target 12), peak of the trace mapped %d MB\n",
			n, a / 1024, a * 1024 / ev, f / 1024 }'
done
