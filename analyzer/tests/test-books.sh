#!/bin/bash
# test-books.sh — the books of every run of the fine-grained billiards series (billiards-fine.sgx,
# what `make run` showed before issue 21 made its demo coarse-grained): each run's parts add up to
# N T_para within 0.5 % (its closure in the store's metrics), E(N=1) <= 1.02 on every N=1 point,
# parallelism never above min(N, CPUs), and no negative U without the report saying
# "superlinear". Runs the series into a temporary store (about 20 s here). Not the coarse demo:
# its N=1 run does what billiards-seq does plus the segments' queues (E(1) ~ 0.9), so the run-time
# scatter of a shared machine can lift E(1) over 1.02 with nothing wrong in the books, where the
# fine-grained program's E(1) ~ 0.6 tests T_seq's measurement with a margin.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
export PATH="$PWD/$B/bin:$PATH"
exp=$tmp/demo.exp
if ! "$sg" run examples/billiards/billiards-fine.sgx -o "$exp" >"$tmp/run.out" 2>&1; then
	echo "FAIL: series: $(tail -5 "$tmp/run.out")"
	exit 0
fi
"$sg" report "$exp" >"$tmp/report.txt" 2>&1 || echo "FAIL: report: $(tail -3 "$tmp/report.txt")"
q() { sqlite3 "$exp/experiment.db" "$1"; }
# the runs with figures: every repetition behind a point and the sequential runs (the search
# probes that no point took are not analyzed)
n_runs=$(q "SELECT COUNT(DISTINCT run_id) FROM metrics WHERE name = 'T_para' AND run_id > 0")
n_closed=$(q "SELECT COUNT(*) FROM metrics WHERE name = 'closure' AND run_id > 0 AND value IS NOT NULL")
[ "$n_closed" -gt 0 ] && [ "$n_closed" = "$n_runs" ] && echo "PASS: every run has its closure ($n_runs)" ||
	echo "FAIL: every run has its closure: $n_closed of $n_runs; $(q "SELECT DISTINCT unavailable FROM metrics WHERE name = 'closure' AND run_id > 0" | head -3)"
# every run within 0.5 %, under any load (issue 20), without a retry: the run delay of the books
# is the kernel's time awake less the records' on-CPU time, carried to the books' window by the
# records (docs/analyzer.md, "The run delay of the books"). What is left is where the kernel's
# own figures and the switch records cannot agree, and the run's report names it in a note
# ("closure: -0.009 s of it is the kernel's figures beyond what the switch records leave room
# for (thread 1: ...)": on this VM the kernel's clock lags and catches up by milliseconds at
# once). A run beyond 0.5 % passes only when that note names all of it but 0.5 % and it is
# under 5 %; it is listed. A store that does not close is kept beside the log.
bad= named=
for row in $(q "SELECT run_id || ':' || value FROM metrics WHERE name = 'closure' AND run_id > 0 AND abs(value) > 0.005"); do
	id=${row%%:*} c=${row#*:}
	"$sg" report --json "$exp/runs/$id" >"$tmp/run$id.json" 2>/dev/null
	why=$(python3 - "$tmp/run$id.json" "$c" <<'PY'
import json, re, sys
rep = json.load(open(sys.argv[1]))
f = rep["figures"]
nt = f["N"]["value"] * f["T_para"]["value"]
c = float(sys.argv[2])
k = sum(float(m.group(1)) for n in rep["notes"] for m in [re.match(r"closure: ([-+0-9.e]+) s of it", n)] if m)
ok = nt > 0 and abs(c) <= 0.05 and abs(c - k / nt) <= 0.005
print("%s %+.3f %% (the kernel's figures beyond the records: %+.3f %%)" % ("ok" if ok else "no", 100 * c, 100 * k / nt if nt > 0 else 0))
PY
)
	case $why in
	ok*) named="$named $id: ${why#ok }" ;;
	*) bad="$bad $id: ${why#no }" ;;
	esac
done
[ -n "$named" ] && echo "# runs beyond 0.5 % by the kernel's own figures (named in their notes):$named"
if [ -n "$bad" ]; then
	rm -rf "$B/test-out/books-open" && mkdir -p "$B/test-out" && cp -r "$exp" "$B/test-out/books-open"
	echo "FAIL: defect20-books-close-under-load: not within 0.5 %:$bad (store kept in $B/test-out/books-open/)"
else
	echo "PASS: defect20-books-close-under-load (every run within 0.5 %, but what the kernel's figures have beyond the records)"
fi
worst=$(q "SELECT printf('%.3f %%', 100 * max(abs(value))) FROM metrics WHERE name = 'closure' AND run_id > 0")
echo "# largest closure of a run: $worst"
bad=$(q "SELECT p.model || '/' || p.method || ': ' || m.value FROM metrics m JOIN points p ON p.id = m.point_id WHERE m.name = 'E' AND p.n_threads = 1 AND m.value > 1.02")
[ -z "$bad" ] && echo "PASS: E(N=1) <= 1.02" || echo "FAIL: E(N=1) <= 1.02: $bad"
cpus=$(q "SELECT n_cpus FROM machine")
bad=$(q "SELECT m.run_id || ': N ' || r.n_threads || ' parallelism ' || m.value FROM metrics m JOIN runs r ON r.id = m.run_id WHERE m.name = 'parallelism' AND m.value > min(r.n_threads, $cpus) + 0.01")
[ -z "$bad" ] && echo "PASS: parallelism <= min(N, CPUs)" || echo "FAIL: parallelism <= min(N, CPUs): $bad"
neg=$(q "SELECT COUNT(*) FROM metrics WHERE name = 'U' AND point_id > 0 AND (point2_id IS NULL OR point2_id = 0) AND value < 0")
if [ "$neg" -gt 0 ]; then
	grep -q "superlinear" "$tmp/report.txt" && echo "PASS: negative U explained ($neg point(s))" ||
		echo "FAIL: negative U explained: $neg point(s) with U < 0 and no word of it"
else
	echo "PASS: negative U explained (none)"
fi
grep -q "^The books: " "$tmp/report.txt" && echo "PASS: report prints the books" ||
	echo "FAIL: report prints the books"
