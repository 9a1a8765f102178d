#!/bin/bash
# test-billiards.sh — the reduced billiards series (examples/billiards/billiards-small.sgx) end
# to end through `scalegraph run`, with assertions on the experiment store via sqlite3.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
SPEC=examples/billiards/billiards-small.sgx
. "$(dirname "$0")/tlib.sh" bil
q() { sqlite3 "$T/exp/experiment.db" "$1"; }
if [ ! -f "$SPEC" ] || [ ! -x "$B/bin/billiards-traced" ] || [ ! -x "$B/bin/billiards-seq" ]; then
	echo "SKIP: billiards_small_series: $SPEC or the billiards programs are missing"
	exit 0
fi
"$SG" run "$SPEC" -o "$T/exp" >"$T/out" 2>&1
rc=$?
check series_completes "exit $rc: $(tail -5 "$T/out")" test $rc -eq 0
# the runner ends by letting the analyzer cache its figures: every repetition behind a point has
# them (search probes outside any point are not analyzed)
uncached=$(q "select count(*) from runs r where r.status = 'ok' and r.kind = 'par' and exists
	(select 1 from point_runs pr where pr.run_id = r.id and pr.role = 'rep') and not exists
	(select 1 from metrics m where m.run_id = r.id and m.name = 'T_para')")
check analyzed_at_end "$(grep analyzed "$T/out"); $uncached runs without cached figures" \
	sh -c "grep -q 'analyzed in .* s (figures cached' '$T/out' && test '$uncached' -eq 0"
check wal_mode "journal mode $(q 'pragma journal_mode')" test "$(q 'pragma journal_mode')" = wal
check spec_text_stored "spec row" test "$(q 'select text from spec')" = "$(cat "$SPEC")"
check machine_stored "machine: $(q 'select cpu_model, n_cpus from machine')" \
	test "$(q 'select n_cpus from machine')" = "$(nproc)"
check methods_stored "$(q 'select group_concat(name) from methods')" \
	test "$(q 'select group_concat(name) from (select name from methods order by position)')" = "fixed,balls,steps,both"
check params_stored "$(q 'select * from params')" \
	test "$(q "select bytes_per_unit from params where name='balls'")" = "960.0"
bad=$(q "select count(*) from runs where status != 'ok'")
check all_runs_ok "$bad runs not ok: $(q "select id, status, reason from runs where status != 'ok'")" test "$bad" -eq 0
# sequential pattern series: the sequential program at every method's sizes
n=$(q "select count(distinct sizes) from runs where kind='seq'")
check sequential_pattern_series "$n sizes" test "$n" -ge 4
# each method at each N with its repetitions, plus the model points
n=$(q "select count(*) from points where model='method'")
check method_points "$n points" test "$n" -eq 8
n=$(q "select count(*) from point_runs pr join points p on p.id = pr.point_id where p.model='method' and pr.role='rep'")
check repetitions_linked "$n rep links" test "$n" -eq 16
for m in memory-bound time-bound e-conserved; do
	n=$(q "select count(*) from points where model='$m'")
	check "${m}_points" "$n points" test "$n" -eq 2
done
sizes=$(q "select group_concat(sizes, ';') from points where model='memory-bound' order by n_threads")
check memory_bound_eq14 "sizes $sizes" test "$sizes" = "balls=500 steps=40;balls=1000 steps=40"
# searches: at most 6 probes per N; converged, or the closest with the reason
n=$(q "select count(*) from points where model in ('time-bound','e-conserved') and (search_runs > 6 or search_runs < 1 or (converged = 0 and coalesce(note,'') = ''))")
check searches_bounded_and_explained "$n bad: $(q "select model, n_threads, search_runs, converged, note from points where model in ('time-bound','e-conserved')")" test "$n" -eq 0
n=$(q "select count(*) from points where model='method' and (efficiency is null or t_seq_source != 'sequential')")
check efficiency_from_sequential "$n points without E from the sequential program" test "$n" -eq 0
dirs=$(ls "$T/exp/runs" | wc -l)
check run_directories "$dirs dirs for $(q 'select count(*) from runs') runs" test "$dirs" -eq "$(q 'select count(*) from runs')"
check outputs_kept "stdout of run 1: $(cat "$T/exp/runs/1/stdout")" grep -q checksum "$T/exp/runs/1/stdout"
# the program is traced: each par run has its trace, T_para from it, counters in the store
n=$(q "select count(*) from runs where kind='par' and status='ok'")
traced=0
for id in $(q "select id from runs where kind='par' and status='ok'"); do
	[ -d "$T/exp/runs/$id/trace" ] && traced=$((traced + 1))
done
check par_runs_traced "$traced of $n par runs have a trace" test "$traced" -eq "$n" -a "$n" -gt 0
n=$(q "select count(*) from runs where kind='par' and status='ok' and t_para_source not in ('region','threads')")
check t_para_from_trace "$n par runs timed by wall: $(q "select distinct t_para_source from runs where kind='par'")" test "$n" -eq 0
n=$(q "select count(*) from runs r where kind='par' and status='ok' and not exists (select 1 from run_counters c where c.run_id = r.id and c.name = 'task-clock' and c.value > 0 and c.thread >= 0)")
check software_counters_stored "$n traced runs without task-clock totals" test "$n" -eq 0
has_pmu=0
for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
	 /sys/bus/event_source/devices/armv8_pmuv3_0; do
	[ -e "$d" ] && has_pmu=1
done
if [ $has_pmu -eq 0 ]; then
	why=$(q "select distinct thread || ':' || coalesce(value, 'NULL') || ':' || unavailable from run_counters where name = 'cycles'")
	check cycles_unavailable_not_zero "cycles rows: $why" test "$why" = "-1:NULL:no hardware PMU (ENOENT)"
else
	echo "SKIP: cycles_unavailable_not_zero: this machine has a PMU"
fi
# a second invocation makes no run
"$SG" run "$SPEC" -o "$T/exp" >"$T/out2" 2>&1
check rerun_makes_nothing "$(tail -1 "$T/out2")" grep -q ': 0 runs made' "$T/out2"
