#!/bin/bash
# test-compact.sh — compact chunks end to end (format 1.6; docs/trace-format.md "Compact
# chunks"): libsgtrace writes its thread and sched streams compact by default and 16-byte
# chunks with SG_TRACE_COMPACT=0, and both read back with the same events (crashee.c's lock
# pairs: their counts are known); a strict environment refuses a bad value; and a trace that
# the library of format 1.5 recorded (tracelib/tests/fixtures/format-1.5, SPLASH-like
# bench/lock_heavy.c at 2 threads, recorded by the tree before compact chunks) dumps exactly as
# that tree's `scalegraph dump` printed it (format-1.5.dump). The round trip of every kind,
# damaged and cut compact chunks are test_compact.c's.
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
crashee=$B/tests/tracelib/crashee
. "$(dirname "$0")/tlib.sh" compact "$dump" "$crashee"
fx=$(cd "$(dirname "$0")" && pwd)/fixtures

# flags of chunk 0 of a stream file, and whether every chunk's header says compact
chunk_flags() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, flags = 64, []
while off + 64 <= len(d):
    magic, = struct.unpack_from('<I', d, off)
    if magic != 0x4b434753:
        break
    n, f = struct.unpack_from('<II', d, off + 16)
    pb, = struct.unpack_from('<Q', d, off + 48)
    flags.append(f)
    off += 64 + (pb if f & 1 else 16 * n)
print(' '.join(str(f) for f in flags) or 'none')
PY
}

N=3000
for mode in compact 16-byte; do
	env=SG_TRACE_COMPACT=1
	[ $mode = 16-byte ] && env=SG_TRACE_COMPACT=0
	rm -rf "$work/$mode"
	env $env SG_TRACE_DIR="$work/$mode" SG_TRACE_BUFFER=16K "$crashee" ok $N >/dev/null 2>&1
	rc=$?
	p=$(ls -d "$work/$mode"/proc.* 2>/dev/null | head -1)
	[ $rc -eq 0 ] && [ -n "$p" ]
	ok "$mode-recorded" $? "exit $rc, no trace"
	[ -n "$p" ] || continue
	f0=$(chunk_flags "$p/thread.0.sgs")
	f1=$(chunk_flags "$p/thread.1.sgs")
	fs=$(chunk_flags "$p/sched.sgs")
	want=1
	[ $mode = 16-byte ] && want=0
	# several chunks (a 16K buffer), each compact or each not; the sched stream alike when it
	# has any record (no perf_event here: none)
	[ "$(echo $f0 $f1 | tr ' ' '\n' | sort -u)" = "$want" ] && [ $(echo $f0 | wc -w) -ge 3 ] &&
		{ [ "$fs" = none ] || [ "$(echo $fs | tr ' ' '\n' | sort -u)" = "$want" ]; }
	ok "$mode-chunk-flags" $? "thread 0: $f0; thread 1: $f1; sched: $fs"
	"$dump" --summary "$p" >"$work/$mode.sum" 2>&1
	rc=$?
	req=$(awk '$1 == "lock_request" { print $2 }' "$work/$mode.sum")
	rel=$(awk '$1 == "lock_release" { print $2 }' "$work/$mode.sum")
	[ $rc -eq 0 ] && [ "$req" = $((2 * N)) ] && [ "$rel" = $((2 * N)) ] &&
		grep -q '^problems: 0' "$work/$mode.sum" && ! grep -q 'damaged chunks [1-9]' "$work/$mode.sum"
	ok "$mode-reads-back" $? "exit $rc, lock_request $req, lock_release $rel: $(tail -3 "$work/$mode.sum")"
done
# the compact streams are the smaller by far
if [ -d "$work/compact" ] && [ -d "$work/16-byte" ]; then
	c=$(cat "$work"/compact/proc.*/thread.*.sgs | wc -c)
	r=$(cat "$work"/16-byte/proc.*/thread.*.sgs | wc -c)
	[ $((c * 3)) -lt "$r" ]
	ok compact-smaller $? "compact $c bytes, 16-byte $r bytes"
fi

SG_TRACE_COMPACT=2 SG_TRACE_DIR="$work/bad" "$crashee" ok 10 >/dev/null 2>"$work/bad.err"
grep -q 'SG_TRACE_COMPACT' "$work/bad.err" && [ ! -d "$work/bad" ]
ok env-strict $? "stderr: $(head -2 "$work/bad.err")"

# a trace of format 1.5, recorded by libsgtrace before compact chunks
cp -r "$fx/format-1.5" "$work/old"
"$dump" "$work/old" >"$work/old.dump" 2>&1
rc=$?
sed 's|^# summary of .*|# summary|' "$work/old.dump" >"$work/old.got"
sed 's|^# summary of .*|# summary|' "$fx/format-1.5.dump" >"$work/old.want"
[ $rc -eq 0 ] && diff -q "$work/old.want" "$work/old.got" >/dev/null
ok format-1.5-fixture-reads $? "exit $rc: $(diff "$work/old.want" "$work/old.got" | head -5)"
