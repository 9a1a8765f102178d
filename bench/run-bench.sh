#!/bin/bash
# Runs every bench program named on the command line; each prints its own figures.
# The figures are also kept in build/bench-results.txt for the closing note.
set -u
out=${B:-build}/bench-results.txt
: >"$out"
for b in "$@"; do
	echo "== $b" | tee -a "$out"
	"$b" 2>&1 | tee -a "$out"
done
echo "bench figures saved in $out"
