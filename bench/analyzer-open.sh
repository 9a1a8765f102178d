#!/bin/bash
# analyzer-open.sh — bench of an_exp_open on a real store (bench/analyzer_open.c): the store
# named by SG_BENCH_EXP, else a billiards-small series recorded here for the purpose (~10 s,
# about 1 GB of traces, deleted afterwards).
set -u
B=${B:-build}
exp=${SG_BENCH_EXP:-}
tmp=
if [ -z "$exp" ]; then
	tmp=$(mktemp -d /tmp/sg-bench-open.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
	exp=$tmp/billiards-small.exp
	PATH="$PWD/$B/bin:$PATH" "$B/bin/scalegraph" run examples/billiards/billiards-small.sgx \
		-o "$exp" >"$tmp/run.log" 2>&1 || { echo "analyzer-open: scalegraph run failed:"; tail -3 "$tmp/run.log"; exit 1; }
fi
echo "exp_open_store: $exp ($(sqlite3 "$exp/experiment.db" 'select count(*) from runs') runs, $(du -sh "$exp" | cut -f1))"
"$B/bench/analyzer_open" "$exp"
