#!/bin/bash
# test-defect7-full-disk.sh — defect 7 of issue 13, "a full disk gives silent wrong results":
# a traced program (crashee ok: two threads, 3N lock events each) writes its trace into a 1 MiB
# tmpfs, far less than the ~20 MB its events take. The program must run to its end; stderr must
# say once which file could not be written and why; the reader must tell the full disk from a
# crash (a problem line "thread.N.sgs: the writer stopped at event K: No space left on device;
# M events lost", write_errno in dump's summary) and count the lost events. Needs root to mount
# the tmpfs: SKIP otherwise. Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh).
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
crashee=$B/tests/tracelib/crashee
. "$(dirname "$0")/tlib.sh" defect7 "$dump" "$crashee"

mnt=$work/mnt
mkdir "$mnt"
if ! mount -t tmpfs -o size=1m tmpfs "$mnt" 2>"$work/mount.err"; then
	echo "SKIP: defect7-full-disk: cannot mount a 1 MiB tmpfs: $(head -1 "$work/mount.err")"
	exit 0
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$work"' EXIT

n=200000
SG_EVENTS=none SG_TRACE_BUFFER=64K SG_TRACE_DIR="$mnt/trace" "$crashee" ok $n \
	>"$work/out" 2>"$work/err"
rc=$?
ok defect7-full-disk-program-runs $((rc != 0)) "exit $rc: $(head -3 "$work/err")"
said=$(grep -c '^sgtrace: error: ' "$work/err")
grep -Eq "^sgtrace: error: $mnt/trace/proc\.[0-9]+/(thread\.[0-9]+|sched)\.sgs: No space left on device; events from here on are lost\$" "$work/err" &&
	[ "$said" -eq 1 ]
ok defect7-full-disk-said-once $? "$said error line(s) on stderr, want exactly one naming the file and ENOSPC: $(head -3 "$work/err")"

"$dump" --summary "$work/mnt/trace" >"$work/sum" 2>"$work/sum.err"
grep -Eq "thread\.[0-9]+\.sgs: the writer stopped at event [0-9]+: No space left on device; [1-9][0-9]* events lost\$" "$work/sum.err"
ok defect7-full-disk-problem-line $? "no problem line naming ENOSPC: $(head -4 "$work/sum.err")"
! grep -q 'thread\.[0-9]*\.sgs: no trailer: .*crash or kill' "$work/sum.err"
ok defect7-full-disk-not-blamed-on-a-crash $? "$(grep 'crash or kill' "$work/sum.err" | head -2)"
grep -q '^  thread [0-9]*: write error: No space left on device$' "$work/sum"
ok defect7-full-disk-summary-write-error $? "$(grep -A1 '^thread' "$work/sum" | head -6)"
lost=$(sed -n 's/^threads [0-9]*, events \([0-9]*\), lost \([0-9]*\),.*/\2/p' "$work/sum")
events=$(sed -n 's/^threads [0-9]*, events \([0-9]*\), lost \([0-9]*\),.*/\1/p' "$work/sum")
# every event is in the trace or counted lost: 2 threads x 3n lock events; a thread that could
# not even start is counted one per probe call, 2 per pair (a lower bound: docs/tracelib.md)
[ "${lost:-0}" -gt 0 ] && [ $(( ${lost:-0} + ${events:-0} )) -ge $((5 * n)) ]
ok defect7-full-disk-lost-counted $? "events '${events:-}', lost '${lost:-}' (want lost > 0 and events + lost >= $((5 * n)))"
