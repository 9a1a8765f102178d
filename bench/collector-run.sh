#!/bin/bash
# collector-run.sh — what `scalegraph run` costs around each run, and how many runs its searches
# need. Side by side in one go: K runs of /bin/true made directly from this script and K runs of
# it made by `scalegraph run` (fork/exec, process group, timeout watch, run directory, one store
# transaction per run); the difference per run is the runner's overhead. Then the time-bound and
# E-conserved searches on the synthetic program (collector/tests/synth.c: T = base + per*size/N
# + ovh*(N-1), by sleeping, so the run counts do not depend on the machine's load).
set -eu
B=${B:-build}
SG="$B/bin/scalegraph"
SYNTH="$(cd "$B/collector-tests" && pwd)/synth"
T=$(mktemp -d "${TMPDIR:-/tmp}/sgbench-coll.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
K=200
now() { date +%s.%N; }

# A full calibration (measured, not cached); then the series below reuse its cached description.
c0=$(now)
"$SG" calibrate --force >/dev/null
awk -v a="$c0" -v b="$(now)" 'BEGIN { printf "scalegraph calibrate (full measurement): %.2f s\n", b - a }'
t0=$(now)
for ((i = 0; i < K; i++)); do /bin/true; done
t1=$(now)
"$SG" run --threads 1 --repeat $K --no-trace -o "$T/true.exp" -- /bin/true >/dev/null
t2=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v k=$K 'BEGIN {
	direct = (b - a) / k * 1e3; series = (c - b) / k * 1e3
	printf "direct spawn of /bin/true: %.3f ms per run\n", direct
	printf "scalegraph run of /bin/true: %.3f ms per run\n", series
	printf "runner overhead per run: %.3f ms (target <= 10 ms, i.e. <= 1 %% of a 1 s run)\n", series - direct
}'

cat >"$T/search.sgx" <<EOS
program    $SYNTH --size {size} --threads {N} --base 0.01 --per 0.001 --ovh 0.02
sequential $SYNTH --size {size} --threads 1 --base 0.01 --per 0.001
threads 1 2 4
param size 100
method grow size=100*N
time-bound  0.25s along grow
e-conserved 0.8  along grow
EOS
t3=$(now)
"$SG" run "$T/search.sgx" -o "$T/search.exp" >/dev/null
t4=$(now)
for m in time-bound e-conserved; do
	sqlite3 "$T/search.exp/experiment.db" "select n_threads, search_runs, converged, efficiency, t_para_s from points where model = '$m' order by n_threads" |
	while IFS='|' read -r n runs conv e tp; do
		printf "%s search runs at N=%d (synthetic): %d runs (target <= 6; %s, T_para %.3f s, E %.3f)\n" \
			"$m" "$n" "$runs" "$([ "$conv" = 1 ] && echo converged || echo not converged)" "$tp" "$e"
	done
done
awk -v a="$t3" -v b="$t4" 'BEGIN { printf "synthetic search series wall time: %.1f s\n", b - a }'
