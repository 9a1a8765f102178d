#!/bin/bash
# scalegraph layout — which of a program's functions changed size (or moved) between its plain
# build and its `scalegraph cc` build (issue 21: an instrumented build must not change the
# machine code of the user's functions beyond the probes it asks for, so that hot loops keep
# their placement). Reads the symbol tables with `nm -S` (binutils), so it works on any two
# executables, objects or shared libraries that keep their symbols (not stripped).
#
#   scalegraph layout [-q] [--moved] PLAIN INSTRUMENTED
#
# Functions (text symbols with a size) present in both are compared by name; static functions
# of the same name in several files are paired in symbol-table order. libsgtrace's own symbols
# (sg_*, sgt_*, sgc_*, sgf_*; linked in by --sg-static) and those in only one build are counted,
# not compared. Prints one line per function whose size changed, then a summary; --moved also
# lists the functions that kept their size but not their address, -q only the summary.
# Exit status: 0 when every function kept its size, 1 when some changed, 2 on a usage error or
# an unreadable file.
set -u
quiet=0 moved=0
while [ $# -gt 0 ]; do
	case $1 in
	-q|--quiet) quiet=1; shift ;;
	--moved) moved=1; shift ;;
	-h|--help)
		sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		exit 0 ;;
	--) shift; break ;;
	-*) echo "scalegraph layout: error: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -ne 2 ]; then
	echo "usage: scalegraph layout [-q] [--moved] PLAIN INSTRUMENTED" >&2
	exit 2
fi
NM=${NM:-nm}
syms() {   # "name#k size address" per function with a size, k-th of its name
	"$NM" -S -t d --defined-only "$1" 2>/dev/null |
		awk 'NF == 4 && $3 ~ /^[tTwW]$/ && $4 !~ /^(sg_|sgt_|sgc_|sgf_|sgr_)/ {
			k[$4]++; print $4 "#" k[$4], $2, $1 }' | sort
}
for f in "$1" "$2"; do
	if [ ! -r "$f" ]; then echo "scalegraph layout: error: $f: cannot read" >&2; exit 2; fi
done
a=$(syms "$1") || exit 2
b=$(syms "$2") || exit 2
if [ -z "$a" ]; then
	echo "scalegraph layout: error: $1: no function symbols (stripped?)" >&2
	exit 2
fi
join -j 1 <(echo "$a") <(echo "$b") | awk -v quiet="$quiet" -v moved="$moved" \
	-v only_a="$(join -v 1 -j 1 <(echo "$a") <(echo "$b") | wc -l)" \
	-v only_b="$(join -v 2 -j 1 <(echo "$a") <(echo "$b") | wc -l)" '
	{
		name = $1; sub(/#1$/, "", name)
		sa = $2 + 0; sb = $4 + 0
		n++
		if (sa != sb) {
			changed++
			if (!quiet)
				printf "changed: %s %d -> %d bytes (%+d)\n", name, sa, sb, sb - sa
		} else if ($3 != $5) {
			mv++
			if (moved && !quiet)
				printf "moved:   %s %d bytes, 0x%x -> 0x%x\n", name, sa, $3, $5
		}
	}
	END {
		printf "layout: %d functions in both builds: %d changed size, %d kept it (%d of them moved)",
			n, changed, n - changed, mv
		printf "; %d only in the plain build, %d only in the instrumented one\n", only_a, only_b
		exit changed > 0
	}'
