#!/bin/bash
# test-reader-defects.sh — the trace reader is total (issue 13): each defect the reliability
# campaign found in the reader, reproduced exactly and named after it. FIFOs and directories in
# place of trace files (dump, report and export must each return within seconds and say what
# is wrong), clock pairs that their checksums cannot tell wrong (mkbad.c), a chunk written
# twice, a stream whose writer was killed, ids beyond the format's limit.
# Prints PASS:/FAIL: lines (tests/run-tests.sh).
set -u
B=${B:-build}
sg=$B/bin/scalegraph
dump=$B/libexec/scalegraph/scalegraph-dump
mktrace=$B/tests/tracelib/mktrace
mkbad=$B/tests/tracelib/mkbad
. "$(dirname "$0")/tlib.sh" reader-defects "$sg" "$dump" "$mktrace" "$mkbad"

"$mktrace" "$work/syn" || { echo "FAIL: reader-defects: mktrace failed"; exit 1; }
timeout 10 "$dump" "$work/syn" >"$work/syn.out" 2>&1 || { echo "FAIL: reader-defects: dump of the intact trace"; exit 1; }

# each_tool NAME DIR WANT: dump, report and export --chrome of DIR each end within 10 s and
# say WANT (a fixed string) on stdout or stderr.
each_tool() {
	local name=$1 dir=$2 want=$3 bad="" rc
	for cmd in dump report export; do
		case $cmd in
		export) timeout 10 "$sg" export --chrome "$dir" "$work/out.json" >"$work/$cmd.out" 2>&1 ;;
		*) timeout 10 "$sg" $cmd "$dir" >"$work/$cmd.out" 2>&1 ;;
		esac
		rc=$?
		if [ $rc -eq 124 ]; then
			bad="$bad $cmd: hangs;"
		elif [ $rc -ge 128 ]; then
			bad="$bad $cmd: killed by signal $((rc - 128));"
		elif ! grep -qF -- "$want" "$work/$cmd.out"; then
			bad="$bad $cmd (exit $rc) does not say '$want': $(head -c 300 "$work/$cmd.out" | tr '\n' '|');"
		elif grep -q 'error: *$' "$work/$cmd.out"; then
			bad="$bad $cmd: an empty error message;"
		fi
	done
	[ -z "$bad" ]
	ok "$name" $? "$bad"
}

# --- defect 4: a FIFO in a trace directory hung dump, report and export ----------------------
cp -r "$work/syn" "$work/fifo-stream"
rm "$work/fifo-stream/thread.1.sgs" && mkfifo "$work/fifo-stream/thread.1.sgs"
each_tool defect4-fifo-thread-stream "$work/fifo-stream" "thread.1.sgs: not a regular file (a FIFO)"
# thread 0 is still read in full
timeout 10 "$dump" --summary "$work/fifo-stream" >"$work/fs.sum" 2>/dev/null
grep -qxF "thread 0: parent -, tid 100, 16 records in 2 chunks, 0 lost, 0 damaged chunks, complete" "$work/fs.sum"
ok defect4-fifo-thread-stream-rest-read $? "$(grep '^thread' "$work/fs.sum" | tr '\n' '|')"

cp -r "$work/syn" "$work/fifo-defs"
rm "$work/fifo-defs/defs.sgd" && mkfifo "$work/fifo-defs/defs.sgd"
each_tool defect4-fifo-defs "$work/fifo-defs" "defs.sgd: not a regular file (a FIFO)"
timeout 10 "$dump" "$work/fifo-defs" >/dev/null 2>&1; rc=$?
[ $rc -eq 1 ]
ok defect4-fifo-defs-exit-1 $? "dump exit $rc"
# the same under a trace root (proc.<pid>/): the reader's scan of the processes must not block
mkdir -p "$work/fifo-root" && cp -r "$work/fifo-defs" "$work/fifo-root/proc.4242"
each_tool defect4-fifo-defs-under-root "$work/fifo-root" "not a regular file (a FIFO)"

# a killed writer's open buffers (threads.sgo), read for a stream without a trailer, likewise
cp -r "$work/syn" "$work/fifo-open"
truncate -s $(( $(stat -c %s "$work/fifo-open/thread.1.sgs") - 64 )) "$work/fifo-open/thread.1.sgs"
mkfifo "$work/fifo-open/threads.sgo"
each_tool defect4-fifo-open-buffer "$work/fifo-open" "threads.sgo: not a regular file (a FIFO); not read"

# a link in place of a stream is not followed (a planted link must not make a reader read
# another file)
cp -r "$work/syn" "$work/link"
rm "$work/link/thread.1.sgs" && ln -s "$work/syn/thread.1.sgs" "$work/link/thread.1.sgs"
timeout 10 "$dump" "$work/link" >"$work/link.out" 2>&1
grep -qF "thread.1.sgs: not a regular file (a symbolic link, not followed)" "$work/link.out"
ok defect4-link-not-followed $? "$(grep thread.1.sgs "$work/link.out" | head -2 | tr '\n' '|')"

# --- defect 10: thread.1.sgs a directory said "mmap: No such device" -------------------------
cp -r "$work/syn" "$work/dir-stream"
rm "$work/dir-stream/thread.1.sgs" && mkdir "$work/dir-stream/thread.1.sgs"
each_tool defect10-stream-is-directory "$work/dir-stream" \
	"thread.1.sgs: not a regular file (a directory)"
! grep -rq "No such device" "$work"/*.out
ok defect10-stream-is-directory-no-mmap-error $? "$(grep -h 'No such device' "$work"/*.out | head -1)"

# --- defect 8: clocks ----------------------------------------------------------------------
# times of a dump (first column of the event lines)
times() { sed '/^# summary/,$d' "$1" | grep -E '^-?[0-9]+ ' | awk '{ print $1 }'; }

"$mkbad" clock-ok "$work/clock-ok" && "$mkbad" clock-absurd "$work/clock-absurd" &&
	"$mkbad" clock-overflow "$work/clock-overflow" ||
	{ echo "FAIL: defect8: mkbad failed"; exit 1; }
timeout 10 "$dump" --strict "$work/clock-ok" >"$work/ok.out" 2>&1; rc=$?
last_ok=$(times "$work/ok.out" | sort -n | tail -1)
# 251,000,000 ticks of 0.4 ns: the last event at 100.4 ms
[ $rc -eq 0 ] && [ "$last_ok" = 100400000 ]
ok defect8-clock-baseline $? "exit $rc, last event at '$last_ok' ns: $(grep -A3 '^problems' "$work/ok.out" | tr '\n' '|')"

# (a) epoch 0 against pairs at 1.7e19 ns: ticks times the fitted rate overflowed an int64
# (float-to-long at sgtrace_read.h:96 via sgr_iter_next): times must stay those of the ticks
timeout 10 "$dump" --strict "$work/clock-overflow" >"$work/ovf.out" 2>&1; rc=$?
bad=$(times "$work/ovf.out" | awk '$1 < 0 || $1 > 100400002' | head -1)
# (the rate comes from other pairs than the intact trace's: a time may differ by a rounding)
same_times() {
	paste <(times "$1") <(times "$2") |
		awk '{ d = $1 - $2; if (d < -2 || d > 2 || NF != 2) bad = 1 } END { exit bad || NR == 0 }'
}
[ $rc -eq 3 ] && [ -z "$bad" ] && same_times "$work/ovf.out" "$work/ok.out" &&
	grep -qF "defs.sgd: epoch_ns 0 is off the clock pairs: times are counted from tick 0" "$work/ovf.out"
ok defect8-clock-overflow $? "exit $rc, a time '$bad': $(grep -A4 '^problems' "$work/ovf.out" | tr '\n' '|')"

# (b) one checksum-valid pair 269,885,913 s late made T_para that long, and --strict exited 0
timeout 10 "$dump" --strict "$work/clock-absurd" >"$work/abs.out" 2>&1; rc=$?
[ $rc -eq 3 ] && [ "$(times "$work/abs.out")" = "$(times "$work/ok.out")" ] &&
	grep -q "thread.1.sgs: trailer: clock pair (ticks 251000000, ns [0-9]*) is 2.69886e+08 s off the line of the other pairs: ignored" "$work/abs.out"
ok defect8-absurd-clock-pair $? "exit $rc, last event at $(times "$work/abs.out" | sort -n | tail -1) ns: $(grep -A3 '^problems' "$work/abs.out" | tr '\n' '|')"
timeout 10 "$sg" report "$work/clock-ok" >"$work/rep-ok.out" 2>&1
timeout 10 "$sg" report "$work/clock-absurd" >"$work/rep-abs.out" 2>&1
tp_ok=$(grep -m1 '^T_para ' "$work/rep-ok.out")
tp_abs=$(grep -m1 '^T_para ' "$work/rep-abs.out")
[ -n "$tp_ok" ] && [ "$tp_ok" = "$tp_abs" ]
ok defect8-absurd-clock-pair-report $? "T_para '$tp_abs', intact '$tp_ok'"

# (c) a chunk written twice was counted twice and reported as "chunks missing"
cp -r "$work/syn" "$work/dup"
python3 - "$work/dup/thread.0.sgs" <<'PY'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
# file header 64 | chunk 0 (64 + 8 * 16) | chunk 1 (64 + 8 * 16) | trailer 64
c1 = d[64 + 192:64 + 384]
open(p, 'wb').write(d[:64 + 384] + c1 + d[64 + 384:])
PY
timeout 10 "$dump" "$work/dup" >"$work/dup.out" 2>&1; rc=$?
diff <(grep '^[0-9]' "$work/syn.out") <(grep '^[0-9]' "$work/dup.out") >/dev/null &&
	grep -qF "thread.0.sgs: chunk 1 duplicated: skipped" "$work/dup.out" &&
	! grep -q "chunks missing" "$work/dup.out" &&
	grep -qxF "thread 0: parent -, tid 100, 16 records in 2 chunks, 0 lost, 0 damaged chunks, complete" "$work/dup.out"
ok defect8-duplicated-chunk $? "exit $rc: $(grep -E '^thread 0|^  ' "$work/dup.out" | tr '\n' '|')"

# --- defect 11: a killed writer's stream said "0 lost" -------------------------------------
cp -r "$work/syn" "$work/killed"
size=$(stat -c %s "$work/killed/thread.1.sgs")
truncate -s $((size - 64)) "$work/killed/thread.1.sgs"   # its trailer never written
timeout 10 "$dump" --summary "$work/killed" >"$work/killed.out" 2>&1
grep -qx "thread 1: parent 0, tid 101, 11 records in 2 chunks, lost: unknown (no trailer: the writer was killed), 0 damaged chunks, cut short" "$work/killed.out" &&
	grep -qx "threads 2, events 26, lost unknown (0 counted; 1 stream without a trailer), damaged chunks 0, streams cut short 1" "$work/killed.out"
ok defect11-killed-stream-lost-unknown $? "$(grep -E '^thread' "$work/killed.out" | tr '\n' '|')"

# --- readers are total: ids beyond the format's limit --------------------------------------
"$mkbad" big-id "$work/big" || { echo "FAIL: readers-total: mkbad failed"; exit 1; }
timeout 10 "$dump" "$work/big" >"$work/big.out" 2>&1; rc=$?
[ $rc -eq 0 ] &&
	grep -qF "defs.sgd: definition at offset 64: function id 4294967280 beyond the format's limit (ids < 16777216)" "$work/big.out" &&
	grep -qF "object id 268435456 beyond the format's limit" "$work/big.out" &&
	grep -qF "thread.268435456.sgs: thread index beyond the format's limit (< 16777216): not read" "$work/big.out" &&
	grep -qF "10 0 func_enter function#4294967280(undefined)" "$work/big.out" &&
	grep -qF "40 0 func_enter work (prog.c:2)" "$work/big.out"
ok readers-total-id-limit $? "exit $rc: $(head -c 600 "$work/big.out" | tr '\n' '|')"
# (what `report` makes of such events is the analyzer's: analyzer/tests, defect 5)

# --- issue 20, item 13: what the reader took in silence ------------------------------------
# (a) a stream whose ticks run backwards: thread 1's chunk 2 begins with a record 405 s back
# (mkbad time-back; every checksum valid) read T_para 405 s for a 7 ms run, "problems: 0"; one
# 405 s late (time-spike) made the records after it go back. Each record out of time order is
# named with its chunk and record and how far it was off, and left out.
"$mkbad" time-back "$work/tback" && "$mkbad" time-spike "$work/tspike" ||
	{ echo "FAIL: defect20: mkbad failed"; exit 1; }
for k in back spike; do
	d="$work/t$k"
	timeout 10 "$dump" --summary "$d" >"$d.sum" 2>&1
	timeout 10 "$sg" report "$d" >"$d.rep" 2>&1
	case $k in
	back) want="thread.1.sgs: chunk 2: record 0 goes back 405.003 s (tick 1000 after 405002731696, the previous chunk's clock pair): out of time order; 1 of its 8 records left out" ;;
	spike) want="thread.1.sgs: chunk 2: record 0 is 404.996 s after the chunk's clock pair (tick 810000000000, pair 405004097544): out of time order; 1 of its 8 records left out" ;;
	esac
	grep -qF -- "$want" "$d.sum" && grep -qx "  thread 1: 1 records out of time order, left out" "$d.sum" &&
		grep -qx "problems: 1" "$d.sum"
	ok "defect20-time-$k-named" $? "$(grep -A3 '^problems' "$d.sum" | tr '\n' '|')"
	grep -qx "T_para  *7.00 ms" "$d.rep" && grep -qx "N  *2" "$d.rep" && grep -qF -- "$want" "$d.rep"
	ok "defect20-time-$k-t-para" $? "$(grep -E '^(T_para|N) ' "$d.rep" | tr '\n' '|') $(grep -c '^problem' "$d.rep") problem(s)"
done
# --no-verify skips the payload checks, but a chunk's first and last records are still checked
# against its window: the record 405 s back begins its chunk
timeout 10 "$sg" report --no-verify "$work/tback" >"$work/tback.nv" 2>&1
grep -qx "T_para  *7.00 ms" "$work/tback.nv" && grep -q "chunk 2: record 0 goes back 405.003 s" "$work/tback.nv"
ok defect20-time-back-no-verify $? "$(grep -E '^T_para ' "$work/tback.nv")"


# chunks of a stream file: python3 chunks.py FILE OUT ORDER... writes FILE's header, its
# chunks in ORDER (indexes in the file; "-" none), its trailer and whatever follows it
cat >"$work/chunks.py" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, chunks = 64, []
while off + 64 <= len(d) and struct.unpack_from('<I', d, off)[0] != struct.unpack_from('<I', d, len(d) - 64)[0]:
    n = struct.unpack_from('<I', d, off + 16)[0]
    chunks.append(d[off:off + 64 + 16 * n])
    off += 64 + 16 * n
order = [int(x) for x in sys.argv[3:] if x != '-']
open(sys.argv[2], 'wb').write(d[:64] + b''.join(chunks[i] for i in order) + d[off:])
PY
"$mkbad" clock-ok "$work/ord" || { echo "FAIL: defect20: mkbad failed"; exit 1; }
timeout 10 "$dump" "$work/ord" >"$work/ord.out" 2>&1
t0_ok="thread 0: parent -, tid 100, 44 records in 6 chunks, 0 lost, 0 damaged chunks, complete"

# (b) data after a trailer was ignored in silence: thread 0 of the synthetic trace with its
# chunk 1 written once more after the trailer (64 + 192 + 192 + 64 = 512 bytes before it)
cp -r "$work/syn" "$work/after"
python3 - "$work/after/thread.0.sgs" <<'PY'
import sys
p = sys.argv[1]
d = open(p, 'rb').read()
open(p, 'wb').write(d + d[64 + 192:64 + 384])
PY
timeout 10 "$dump" "$work/after" >"$work/after.out" 2>&1
diff <(grep '^[0-9]' "$work/syn.out") <(grep '^[0-9]' "$work/after.out") >/dev/null &&
	grep -qF "thread.0.sgs: 192 bytes after the trailer (offset 512): not read" "$work/after.out"
ok defect20-data-after-trailer $? "$(grep -A3 '^problems' "$work/after.out" | tr '\n' '|')"

# (c) a valid chunk out of order was dropped while the thread line said "0 lost ... complete":
# thread 0's chunks 2 and 3 swapped in the file; it is read in its place (the same events)
cp -r "$work/ord" "$work/swap"
python3 "$work/chunks.py" "$work/ord/thread.0.sgs" "$work/swap/thread.0.sgs" 0 1 3 2 4 5
timeout 10 "$dump" "$work/swap" >"$work/swap.out" 2>&1
diff <(grep '^[0-9]' "$work/ord.out") <(grep '^[0-9]' "$work/swap.out") >/dev/null &&
	grep -qF "thread.0.sgs: chunk 2 out of order (after a later chunk): read in its place" "$work/swap.out" &&
	! grep -q "chunks missing" "$work/swap.out" && grep -qxF "$t0_ok" "$work/swap.out"
ok defect20-out-of-order-chunk-read $? "$(grep -E '^thread 0|^  .*thread.0' "$work/swap.out" | tr '\n' '|')"

# ... and the trailer's counts are checked against what was read: chunk 3 of thread 0 gone,
# the trailer still counts it (6 chunks / 44 records, 5 / 36 read): 8 records lost, said so
cp -r "$work/ord" "$work/gone"
python3 "$work/chunks.py" "$work/ord/thread.0.sgs" "$work/gone/thread.0.sgs" 0 1 2 4 5
timeout 10 "$dump" --summary "$work/gone" >"$work/gone.out" 2>&1
grep -qF "thread.0.sgs: trailer counts 6 chunks / 44 records, 5 / 36 read: 8 records lost" "$work/gone.out" &&
	grep -qF "thread.0.sgs: chunk 4: expected chunk 3 (chunks missing)" "$work/gone.out" &&
	grep -qxF "thread 0: parent -, tid 100, 36 records in 5 chunks, 8 lost, 0 damaged chunks, complete" "$work/gone.out"
ok defect20-trailer-counts-lost $? "$(grep -E '^thread 0|thread.0.sgs' "$work/gone.out" | tr '\n' '|')"
