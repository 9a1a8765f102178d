#!/bin/bash
# test-defects.sh — the analyzer's defects of issue 13, each on the exact damaged trace of the
# issue (analyzer/tests/an_mkbad.c writes them): `scalegraph report` ends in bounded time and
# memory whatever ids a record carries, says what is wrong in a message that names it, and
# computes no figure through an integer overflow. Run on the sanitizer build as well
# (make B=build-asan OPT='-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined'):
# a "runtime error" there fails the test.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
mk=$B/tests/analyzer/an_mkbad
tmp=$(mktemp -d /tmp/sg-defects.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS: $1: $2"; }
fail() { echo "FAIL: $1: $2"; fails=$((fails + 1)); }

# report NAME CASE: writes the case's trace and runs `scalegraph report` on it (limited to
# 60 s and 4 GB of address space beyond the sanitizer's: before the fix it asked for 10 GB),
# into $tmp/NAME.{out,err,time}; returns its status
report() {
	local d=$tmp/$1
	"$mk" "$2" "$d" || { echo "an_mkbad $2 failed"; return 99; }
	local lim=4194304
	if [ -n "${ASAN_OPTIONS+x}" ] || nm "$B/libexec/scalegraph/scalegraph-report" 2>/dev/null \
		| grep -q __asan_init; then
		lim=unlimited   # ASan reserves terabytes of address space
	fi
	( ulimit -v $lim; timeout 60 /usr/bin/time -o "$tmp/$1.time" -f '%e %M' \
		"$sg" report "$d" >"$tmp/$1.out" 2>"$tmp/$1.err" )
}

# No "error: " without a message, no sanitizer report.
clean_stderr() {
	! grep -qE 'error: *$|runtime error|AddressSanitizer' "$tmp/$1.err"
}

# defect 5: one checksum-valid record of function id 0x10000000 (never defined) made report
# size its per-thread tables by the id: 39 s and 10.5 GB. Now: well under 2 s and 200 MB, the
# record skipped and named, the defined functions still profiled.
name=defect5-huge-function-id
report $name huge-function-id
rc=$?
read -r secs kb < "$tmp/$name.time" 2>/dev/null || { secs=99; kb=99999999; }
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif ! awk -v s="$secs" 'BEGIN { exit !(s < 2) }'; then
	fail $name "report took $secs s (limit 2 s)"
elif [ "$kb" -ge 204800 ]; then
	fail $name "report peaked at $((kb / 1024)) MB (limit 200 MB)"
elif ! grep -q "first function id 0x10000000 in thread.0.sgs" "$tmp/$name.out"; then
	fail $name "no problem line naming function id 0x10000000: $(grep -i problem "$tmp/$name.out")"
elif ! grep -qE '^f2 +100 ' "$tmp/$name.out"; then
	fail $name "the defined functions' profile is gone: $(grep -A3 '^Function' "$tmp/$name.out")"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "report in $secs s, peak $((kb / 1024)) MB, the record skipped and named"
fi

# defect 5: id 0xfffffff0 made the allocation fail and report print "error: " and nothing
# else. Now: the report, with the id named.
name=defect5-id-fffffff0-message
report $name id-fffffff0
rc=$?
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: stderr \"$(head -c 300 "$tmp/$name.err")\""
elif ! grep -q "function id 0xfffffff0" "$tmp/$name.out"; then
	fail $name "no problem line naming function id 0xfffffff0"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "$(grep -o 'problem: .*0xfffffff0[^:]*' "$tmp/$name.out" | head -1)"
fi

# defect 5, objects: lock, barrier, semaphore and condition records of ids near 2^32 and a
# barrier episode of 0xfffffff0 sized the object and episode tables the same way.
name=defect5-huge-object-ids
report $name huge-object-ids
rc=$?
read -r secs kb < "$tmp/$name.time" 2>/dev/null || { secs=99; kb=99999999; }
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif [ "$kb" -ge 204800 ] || ! awk -v s="$secs" 'BEGIN { exit !(s < 2) }'; then
	fail $name "report took $secs s and $((kb / 1024)) MB (limits 2 s, 200 MB)"
elif ! grep -q "27 record(s) name an id .*first object id 0x10000000" "$tmp/$name.out" ||
     ! grep -q "1 barrier wait(s) with an episode number far beyond" "$tmp/$name.out"; then
	fail $name "the damage is not reported: $(grep problem "$tmp/$name.out")"
elif ! grep -qE '^ +2  mutex +1 ' "$tmp/$name.out"; then
	fail $name "the defined mutex 2 is not in the lock table"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "report in $secs s, peak $((kb / 1024)) MB, 27 records and 1 episode reported"
fi

# defect 8 (an_source.c): run-delay samples INT64_MAX then INT64_MIN: last - first overflowed
# (undefined) and wrapped to a run delay of 1 ns. Now: unavailable, and why.
name=defect8-analyzer-overflow-counter
report $name counter-extremes
rc=$?
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif ! grep -qE '^IT_sched +- +unavailable' "$tmp/$name.out" ||
     ! grep -q 'sched-run-delay: its samples go backwards' "$tmp/$name.out"; then
	fail $name "IT_sched: $(grep -E 'IT_sched' "$tmp/$name.out" | head -2)"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "IT_sched unavailable: the samples go backwards"
fi

# defect 8 (an_run.c): 160 threads each over the whole 56-bit clock: the processors' summed
# T_i overflowed int64 ns, IT_edge came out as 18446744074 s. Every thread spans the interval:
# IT_edge is 0.
name=defect8-analyzer-overflow
report $name span-overflow
rc=$?
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif ! grep -qE '^IT_edge +0$' "$tmp/$name.out"; then
	fail $name "$(grep -E '^IT_edge' "$tmp/$name.out") (expected 0: every thread spans T_para)"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "IT_edge 0 with 160 threads over the whole clock"
fi

# defect 8 (an_budget.c): a CPU-time sample of INT64_MAX, corrected by the records' CPU time
# outside the samples, overflowed. Now: no undefined behaviour (the sanitizer build checks), the
# kernel CPU time unknown.
name=defect8-analyzer-overflow-sched
report $name sched-extremes
rc=$?
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
elif ! grep -qE '^ +0 +yes ' "$tmp/$name.out"; then
	fail $name "no thread table row for thread 0"
else
	pass $name "report made, thread 0: $(grep -E '^ +0 +yes ' "$tmp/$name.out" | tr -s ' ' | cut -c1-60)"
fi
# defect 5, CPU numbers: a switch record's CPU (16 bits) sized each thread's per-CPU tables:
# 1024 threads on CPU 65535 took 1 GB. Now: skipped as damaged, with a problem line.
name=defect5-sched-cpu-number
report $name sched-cpu-65535
rc=$?
read -r secs kb < "$tmp/$name.time" 2>/dev/null || { secs=99; kb=99999999; }
if [ $rc -ne 0 ]; then
	fail $name "report exited $rc: $(head -c 300 "$tmp/$name.err")"
elif [ "$kb" -ge 204800 ] || ! awk -v s="$secs" 'BEGIN { exit !(s < 2) }'; then
	fail $name "report took $secs s and $((kb / 1024)) MB (limits 2 s, 200 MB)"
elif ! grep -q "2048 switch record(s) name a CPU number above 8191" "$tmp/$name.out"; then
	fail $name "not reported: $(grep problem "$tmp/$name.out" | head -3)"
elif ! clean_stderr $name; then
	fail $name "stderr: $(head -c 300 "$tmp/$name.err")"
else
	pass $name "report in $secs s, peak $((kb / 1024)) MB, 2048 records reported"
fi
# defect 5, every error path: an allocation that failed deep in a pass left the message empty
# ("error: " and nothing after it). Under memory limits from too small to enough, report either
# works or says what failed. Not under ASan (it reserves terabytes of address space).
name=defect5-error-messages
if nm "$B/libexec/scalegraph/scalegraph-report" 2>/dev/null | grep -q __asan_init; then
	echo "SKIP: $name: address-space limits do not apply to the sanitizer build"
else
	"$mk" sched-cpu-65535 "$tmp/$name" || fail $name "an_mkbad failed"
	bad= failed=0
	for lim in 4000 6000 8000 10000 12000 16000 24000 32000 64000; do
		( ulimit -v $lim; "$sg" report "$tmp/$name" >/dev/null 2>"$tmp/$name.err" )
		rc=$?
		[ $rc -ne 0 ] && failed=$((failed + 1))
		if [ $rc -ne 0 ] && { ! [ -s "$tmp/$name.err" ] ||
			grep -qE 'error: *$' "$tmp/$name.err"; }; then
			bad="$bad $lim KB: \"$(head -c 200 "$tmp/$name.err")\";"
		fi
	done
	if [ -n "$bad" ]; then
		fail $name "empty message at$bad"
	else
		pass $name "$failed of 9 memory limits failed, each with a message"
	fi
fi
exit $((fails > 0))
