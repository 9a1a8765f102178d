#!/bin/bash
# End-to-end tests of the example programs: every parallel program prints the checksum of its
# sequential twin for N = 1, 2, 3, 4, 8 at a couple of sizes; billiards executes more collisions
# per iteration as balls grow (seeds/001 §5.2); bad options give "PROG: error: ..." and exit
# status 2. Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh protocol).
set -u
bin=${B:-build}/bin
fails=0
# The sequential twins are traced builds (T_seq is measured like T_para): these tests check
# what the programs print, so nothing is recorded (and no ./sgtrace.PID is left behind).
export SG_TRACE=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; fails=$((fails + 1)); }

for p in billiards billiards-seq jacobi jacobi-seq taskfarm taskfarm-seq; do
	if [ ! -x "$bin/$p" ]; then
		fail "build" "$bin/$p missing (run make B=${B:-build} first)"
		exit 1
	fi
done

checksum() { "$@" | awk '$1 == "checksum" { print $2 }'; }

# same_checksum NAME SEQ-ARGS... -- PAR-ARGS...: the sequential checksum, then every N.
same_checksum() {
	local name=$1 seq par ref got bad=""
	shift
	seq=()
	while [ "$1" != "--" ]; do seq+=("$1"); shift; done
	shift
	par=("$@")
	ref=$(checksum "$bin/${seq[0]}" "${seq[@]:1}")
	if [ -z "$ref" ]; then
		fail "$name" "${seq[*]} printed no checksum"
		return
	fi
	for n in 1 2 3 4 8; do
		got=$(checksum "$bin/${par[0]}" "${par[@]:1}" --threads "$n")
		[ "$got" = "$ref" ] || bad="$bad N=$n:${got:-none}"
	done
	if [ -n "$bad" ]; then
		fail "$name" "sequential $ref, parallel$bad"
	else
		pass "$name ($ref)"
	fi
}

same_checksum "billiards 1 ball" billiards-seq --balls 1 --steps 400 -- billiards --balls 1 --steps 400
same_checksum "billiards 2 balls" billiards-seq --balls 2 --steps 400 -- billiards --balls 2 --steps 400
same_checksum "billiards 300x200" billiards-seq --balls 300 --steps 200 -- billiards --balls 300 --steps 200
same_checksum "billiards 5000x100" billiards-seq --balls 5000 --steps 100 -- billiards --balls 5000 --steps 100
same_checksum "billiards 3000x50 bins 7" billiards-seq --balls 3000 --steps 50 -- billiards --balls 3000 --steps 50 --bins 7
# The coarse decomposition (bil_coarse.h) computes the same physics, bit for bit.
same_checksum "billiards --coarse 300x200" billiards-seq --balls 300 --steps 200 -- billiards --coarse --balls 300 --steps 200
same_checksum "billiards --coarse 20000x300" billiards-seq --balls 20000 --steps 300 -- billiards --coarse --balls 20000 --steps 300
same_checksum "jacobi 1x3" jacobi-seq --n 1 --iters 3 -- jacobi --n 1 --iters 3
same_checksum "jacobi 37x50" jacobi-seq --n 37 --iters 50 -- jacobi --n 37 --iters 50
same_checksum "jacobi 300x40" jacobi-seq --n 300 --iters 40 -- jacobi --n 300 --iters 40
same_checksum "taskfarm 1x10" taskfarm-seq --tasks 1 --size 10 -- taskfarm --tasks 1 --size 10
same_checksum "taskfarm 500x2000 q1" taskfarm-seq --tasks 500 --size 2000 -- taskfarm --tasks 500 --size 2000 --queue 1
same_checksum "taskfarm 2000x5000" taskfarm-seq --tasks 2000 --size 5000 -- taskfarm --tasks 2000 --size 5000

a=$(checksum "$bin/billiards-seq" --balls 1 --steps 400)
b=$(checksum "$bin/billiards" --coarse --balls 1 --steps 400 --threads 1)
[ -n "$a" ] && [ "$a" = "$b" ] && pass "billiards --coarse 1 ball at N=1 ($a)" ||
	fail "billiards --coarse 1 ball at N=1" "sequential $a, coarse $b"
# Windows: one at N = 1 (no boundary), several at N = 4, each with thousands of collisions.
line=$("$bin/billiards" --coarse --balls 20000 --steps 300 --threads 4 --stats |
	awk '$1 == "iterations" { w = $2 } $1 == "collisions" { c = $2 } END { print w, c }')
one=$("$bin/billiards" --coarse --balls 20000 --steps 300 --threads 1 --stats |
	awk '$1 == "iterations" { print $2 }')
if [ "$one" = "1" ] && awk -v l="$line" 'BEGIN { split(l, a, " "); exit !(a[1] > 1 && a[2] / a[1] > 1000) }'; then
	pass "billiards --coarse windows: 1 at N=1; windows, collisions at N=4: $line"
else
	fail "billiards --coarse windows" "N=1: $one windows; N=4 windows, collisions: $line"
fi

# The checksums must also differ when the sizes do (a constant would pass the tests above).
a=$(checksum "$bin/billiards-seq" --balls 300 --steps 200)
b=$(checksum "$bin/billiards-seq" --balls 300 --steps 201)
c=$(checksum "$bin/billiards-seq" --balls 301 --steps 200)
if [ "$a" != "$b" ] && [ "$a" != "$c" ] && [ "$b" != "$c" ]; then
	pass "billiards checksum depends on sizes"
else
	fail "billiards checksum depends on sizes" "$a $b $c"
fi

# Collisions executed per iteration grow with balls (fewer overlaps and early recollisions).
prev=0 line=""
ok=1
for balls in 20 200 2000 20000; do
	cpi=$("$bin/billiards" --balls "$balls" --steps 20 --threads 8 --stats |
		awk '$1 == "collisions_per_iteration" { print $2 }')
	line="$line $balls:$cpi"
	awk -v a="$prev" -v b="$cpi" 'BEGIN { exit !(b > a) }' || ok=0
	prev=$cpi
done
if [ $ok = 1 ] && awk -v b="$prev" 'BEGIN { exit !(b > 7) }'; then
	pass "billiards parallel collisions per iteration grow with balls ($line )"
else
	fail "billiards parallel collisions per iteration grow with balls" "balls:per-iteration$line"
fi
# ... and per iteration never exceeds N; one thread executes exactly one.
cpi=$("$bin/billiards" --balls 500 --steps 20 --threads 1 --stats |
	awk '$1 == "collisions_per_iteration" { print $2 }')
if [ "$cpi" = "1.0000" ]; then
	pass "billiards one collision per iteration at N=1"
else
	fail "billiards one collision per iteration at N=1" "got $cpi"
fi
bpb=$("$bin/billiards-seq" --balls 5000 --stats | awk '$1 == "bytes_per_ball" { print $2 }')
if awk -v b="$bpb" 'BEGIN { exit !(b > 24 && b < 1000) }'; then
	pass "billiards reports bytes per ball ($bpb)"
else
	fail "billiards reports bytes per ball" "got '$bpb'"
fi

# bad_option PROG ARGS...: must exit 2 with "PROG: error: " on stderr and nothing on stdout.
bad_option() {
	local prog=$1 out err rc
	shift
	out=$("$bin/$prog" "$@" 2>"$tmp/err")
	rc=$?
	err=$(head -1 "$tmp/err")
	if [ $rc -eq 2 ] && [ -z "$out" ] && [[ "$err" == "$prog: error: "* ]]; then
		pass "$prog $* -> $err"
	else
		fail "$prog $*" "exit $rc, stderr '$err', stdout '$out'"
	fi
}
bad_option billiards --balls 0
bad_option billiards --balls abc
bad_option billiards --balls 12x
bad_option billiards --balls ''
bad_option billiards --balls 99999999999999999999999
bad_option billiards --threads
bad_option billiards --threads 0
bad_option billiards --steps 5 --steps 6
bad_option billiards --bogus 1
bad_option billiards --stats=1
bad_option billiards extra
bad_option billiards-seq --threads 2
bad_option billiards --coarse --balls 7 --threads 2
bad_option billiards-seq --coarse
bad_option jacobi --n -3
bad_option jacobi-seq --iters=
bad_option taskfarm --queue 0
bad_option taskfarm-seq --size 1.5


for p in billiards billiards-seq jacobi jacobi-seq taskfarm taskfarm-seq; do
	if "$bin/$p" --help | grep -q "^usage: $p "; then
		pass "$p --help"
	else
		fail "$p --help" "no usage line"
	fi
done
# --name=value works like --name value
a=$(checksum "$bin/billiards" --balls=300 --steps=50 --threads=3)
b=$(checksum "$bin/billiards-seq" --balls 300 --steps 50)
[ "$a" = "$b" ] && pass "billiards --opt=value" || fail "billiards --opt=value" "$a != $b"
# The traced build (libsgtrace wrappers) computes the same result and records the barriers and
# bin locks of every iteration, losing nothing.
dump=${B:-build}/libexec/scalegraph/scalegraph-dump
if [ -x "$bin/billiards-traced" ] && [ -x "$dump" ]; then
	ref=$(checksum "$bin/billiards-seq" --balls 2000 --steps 50)
	got=$(SG_TRACE=1 SG_TRACE_DIR="$tmp/trace" "$bin/billiards-traced" --balls 2000 --steps 50 --threads 3 \
		--stats 2>/dev/null | tee "$tmp/traced.out" | awk '$1 == "checksum" { print $2 }')
	iters=$(awk '$1 == "iterations" { print $2 }' "$tmp/traced.out")
	"$dump" --summary "$tmp/trace" >"$tmp/summary" 2>&1
	arrive=$(awk '$1 == "barrier_arrive" { print $2 }' "$tmp/summary")
	locks=$(awk '$1 == "lock_acquired" { print $2 }' "$tmp/summary")
	# two barrier episodes per iteration for each of the 3 threads (none after the last peek)
	if [ "$got" = "$ref" ] && [ "${arrive:-0}" -eq $((3 * 2 * iters)) ] &&
	   [ "${locks:-0}" -gt 0 ] && grep -q '^threads 4, .*lost 0,' "$tmp/summary"; then
		pass "billiards-traced: checksum, $arrive barrier arrivals for $iters iterations, $locks locks, 0 lost"
	else
		fail "billiards-traced" "checksum $got (want $ref), arrivals ${arrive:-none} (want $((6 * iters))), locks ${locks:-none}: $(grep '^threads' "$tmp/summary")"
	fi
else
	echo "SKIP: billiards-traced: not built (needs libsgtrace and scalegraph-dump)"
fi
exit $((fails > 0))
