#!/bin/bash
# `make run`: the main job on the bundled example (make has built everything before this runs).
# Runs the billiards scaling series of examples/billiards/billiards-demo.sgx (the coarse-grained
# billiards, four scaling methods, N = 1 2 4, the matrix's size searches; about a minute here)
# into an experiment store, prints `scalegraph report` (its "Why E falls" names the cause of
# each fall), then opens xscalegraph on it when DISPLAY is set, or else renders every window to
# PNG and SVG and says where.
# SG_DEMO_SPEC picks another spec (e.g. examples/billiards/billiards-small.sgx, a few seconds);
# SG_DEMO_DIR another output folder. Running it again resumes the series (finished runs are kept).
set -eu
B=${B:-build}
sg=$B/bin/scalegraph
spec=${SG_DEMO_SPEC:-examples/billiards/billiards-demo.sgx}
out=${SG_DEMO_DIR:-$B/demo}
exp=$out/$(basename "$spec" .sgx).exp
mkdir -p "$out"
# the programs of the spec (billiards-traced, billiards-seq) are found on PATH
export PATH="$PWD/$B/bin:$PATH"

echo "== 1. the scaling series: $sg run $spec -o $exp"
"$sg" run "$spec" -o "$exp"
echo
echo "== 2. why it stops scaling: $sg report $exp"
"$sg" report "$exp" | tee "$out/report.txt"
"$sg" report --csv "$exp" >"$out/report.csv"
"$sg" report --matrix --csv "$exp" >"$out/matrix.csv"
echo
if [ -n "${DISPLAY:-}" ] && [ -z "${SG_DEMO_NO_GUI:-}" ]; then
	echo "== 3. the windows: $B/bin/xscalegraph $exp (close it with File > Quit)"
	exec "$B/bin/xscalegraph" "$exp"
fi
echo "== 3. no DISPLAY: every window of xscalegraph rendered to files"
"$B/bin/xscalegraph" --export "$out/plots" "$exp"
echo
echo "run-demo: the experiment store is $exp"
echo "run-demo: the report is $out/report.txt ($out/report.csv, $out/matrix.csv)"
echo "run-demo: the plots are in $out/plots/ ($(ls "$out/plots" | grep -c '\.png$') PNG, $(ls "$out/plots" | grep -c '\.svg$') SVG)"
echo "run-demo: with a display, look at them live: $B/bin/xscalegraph $exp"
