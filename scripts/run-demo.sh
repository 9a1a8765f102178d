#!/bin/bash
# `make run`: the main job on the bundled example. Builds are done by make before this runs.
# Runs the paper's billiards program traced, at N=2, and prints a short summary of its trace.
set -eu
B=${B:-build}
sg=$B/bin/scalegraph
out=${SG_DEMO_DIR:-$B/demo}
rm -rf "$out" && mkdir -p "$out"
echo "== billiards, sequential and 2 threads (checksums must match)"
"$B/bin/billiards-seq" --balls 5000 --steps 200 | tee "$out/seq.txt"
SG_TRACE_DIR="$out/trace" "$B/bin/billiards-traced" --balls 5000 --steps 200 --threads 2 | tee "$out/par.txt"
if cmp -s <(grep checksum "$out/seq.txt") <(grep checksum "$out/par.txt"); then
	echo "checksums match"
else
	echo "run-demo: error: checksums differ between sequential and parallel runs" >&2
	exit 1
fi
echo
echo "== trace summary ($out/trace)"
"$sg" dump --summary "$out/trace"
