#!/bin/bash
# test-demo-story.sh — the story `make run` tells (issue 21 part 5), as structure, not speed: the
# coarse billiards series (billiards-coarse-small.sgx, the demo's program at smaller sizes) runs,
# every run computes billiards-seq's checksum, the barrier is met a few times per run (windows,
# not collisions), and the report's "Why E falls" has a line for each step of N that names a
# latency source — and says N = 4 is oversubscribed where the machine has fewer than 4 CPUs.
# No timed assertion: which source grows most is the machine's business.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$PWD/$B/bin:$PATH"
check() { if eval "$2"; then echo "PASS: $1"; else echo "FAIL: $1: $3"; fi; }
spec=examples/billiards/billiards-coarse-small.sgx
exp=$tmp/story.exp

"$sg" run "$spec" -o "$exp" >"$tmp/run.out" 2>&1
rc=$?
check "coarse series runs" "[ $rc -eq 0 ]" "status $rc: $(tail -3 "$tmp/run.out")"
"$sg" report "$exp" >"$tmp/report.txt" 2>&1
check "report" "[ $? -eq 0 ]" "$(tail -3 "$tmp/report.txt")"

# every parallel run's sizes and N give billiards-seq's checksum (the plain builds, untraced)
q() { sqlite3 "$exp/experiment.db" "$1"; }
bad=""
for row in $(q "SELECT n_threads || ':' || replace(sizes, ' ', ':') FROM runs WHERE kind = 'par' AND status = 'ok'"); do
	IFS=: read -r n b st <<<"$row"
	balls=${b#balls=} steps=${st#steps=}
	want=$(SG_TRACE=0 billiards-seq --balls "$balls" --steps "$steps" | awk '$1 == "checksum" { print $2 }')
	got=$(billiards --coarse --balls "$balls" --steps "$steps" --threads "$n" | awk '$1 == "checksum" { print $2 }')
	[ -n "$want" ] && [ "$want" = "$got" ] || bad="$bad $balls/$steps/N=$n:$got!=$want"
done
check "the series' sizes compute billiards-seq's checksum at their N" "[ -z '$bad' ]" "$bad"

# a few barrier episodes per run: windows of simulated time, not collisions
dump=$B/libexec/scalegraph/scalegraph-dump
id=$(q "SELECT id FROM runs WHERE kind = 'par' AND status = 'ok' AND n_threads = 2 ORDER BY id LIMIT 1")
if [ -x "$dump" ] && [ -n "$id" ]; then
	"$dump" --summary "$exp/runs/$id/trace" >"$tmp/summary" 2>&1
	arrive=$(awk '$1 == "barrier_arrive" { print $2 }' "$tmp/summary")
	check "N=2: a few barrier arrivals per run (${arrive:-none})" \
		"[ -n '$arrive' ] && [ '$arrive' -ge 2 ] && [ '$arrive' -le 200 ]" "$(head -3 "$tmp/summary")"
fi

# the report explains the fall of E, step by step of N, naming a source
sect=$(awk '/^Why E falls/ { on = 1; next } on && /^$/ { exit } on' "$tmp/report.txt")
check "report has 'Why E falls'" "grep -q '^Why E falls' '$tmp/report.txt'" "no section"
for m in fixed both; do
	for step in "1 -> 2" "2 -> 4"; do
		line=$(echo "$sect" | grep -E "^  $m +N=$step ")
		check "why: $m N=$step names a source or says E does not fall" \
			"echo \"\$line\" | grep -qE 'largest growth: (IT|PT|ML|U)[A-Za-z_]* [-+][0-9.]+ of N·T_para|\\(E does not fall\\)'" \
			"'$line'"
	done
	if [ "$(nproc)" -lt 4 ]; then
		line=$(echo "$sect" | grep -E "^  $m +N=2 -> 4 ")
		check "why: $m N=4 said oversubscribed on $(nproc) CPUs" \
			"echo \"\$line\" | grep -q 'N=4 is oversubscribed: 4 threads on $(nproc) CPUs'" "'$line'"
	fi
done
