#!/bin/bash
# test-sites.sh — call sites of sync calls (issue 15, format 1.4), end to end: sitee.c is built
# with `scalegraph cc` and run with 2 threads; its trace must define exactly the sites it calls
# waits at, with their file:line and function, and every wait-begin of a stream must come after
# the SYNC_SITE of the place it was called at. Prints PASS:/FAIL: lines (tests/run-tests.sh).
#
# What `sitee basic 2` records, by hand (ROUNDS = 3 in sitee.c):
#   each worker (threads 1 and 2), in its stream: ROUNDS times [site A, lock_request (add_a);
#   site B, lock_request (add_b); site C, barrier_arrive (worker)], then site P and
#   lock_request (the call through a function pointer to the plain wrapper: since format 1.6
#   its return address is its site, the line of the call through the pointer): 3*3 + 1 = 10
#   sync_site, 2*3 + 1 = 7 lock_request, 3 barrier_arrive; the site changes before every wait,
#   so each one gets its own sync_site.
#   main (thread 0): site J, then join_begin twice (the site does not change in between):
#   1 sync_site, 2 join_begin.
#   In all: 5 sites defined (A, B, C, J, P), 2*10 + 1 = 21 sync_site, 14 lock_request, 6
#   barrier_arrive, 2 join_begin.
set -u
B=${B:-build}
dump=$PWD/$B/libexec/scalegraph/scalegraph-dump
sgcc=$PWD/$B/libexec/scalegraph/scalegraph-cc
src=$PWD/tracelib/tests/sitee.c
. "$(dirname "$0")/tlib.sh" sites "$dump" "$sgcc"
cd "$work" || exit 1
cp "$src" sitee.c
if ! "$sgcc" -O2 -Wall -Werror sitee.c -o sitee 2>cc.err || ! cc -O2 -Wall -I"$OLDPWD/$B/include" \
	-DSG_TRACE sitee.c -o sitee.plain -L"$OLDPWD/$B/lib" -Wl,-rpath,"$OLDPWD/$B/lib" -lsgtrace \
	-pthread ${SG_SAN_FLAGS:-} 2>>cc.err; then
	echo "FAIL: sites: building sitee.c: $(head -3 cc.err | tr '\n' '|')"
	exit 1
fi
line() { grep -n "SITE_$1 \*/" sitee.c | cut -d: -f1; }
A="sitee.c:$(line A) in add_a" Bs="sitee.c:$(line B) in add_b" C="sitee.c:$(line C) in worker"
J="sitee.c:$(line J) in main" P="sitee.c:$(line P) in worker"

# The wait-begin events of each thread's stream, each with the site the stream was at then:
# "THREAD KIND@FILE:LINE in FUNC" (or @none, @unset before any sync_site).
waits() {
	awk '$3 == "sync_site" { s = $4 == "site=none" ? "none" : NF > 5 ? $5 " " $6 " " $7 : $5
			       cur[$2] = s }
	     $3 ~ /^(lock_request|barrier_arrive|join_begin|cond_wait_begin|sem_wait_begin)$/ {
		print $2, $3 "@" ($2 in cur ? cur[$2] : "unset") }' "$1"
}
count() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

SG_TRACE_DIR=basic ./sitee basic 2 >basic.out 2>basic.err
rc=$?
"$dump" basic >basic.dump 2>&1
"$dump" --summary basic >basic.sum 2>&1
ok sites-program-runs $((rc != 0 || $(cat basic.out) != 218)) \
	"exit $rc, printed '$(cat basic.out)' (2 threads: 2 * (3 * 3 + 100) = 218): $(head -2 basic.err)"

# exactly the four sites, with the file, line and function of the call
got=$(sed -n 's/^site [0-9]*: //p' basic.sum | sort)
want=$(printf '%s\n' "$A" "$Bs" "$C" "$J" "$P" | sort)
[ "$got" = "$want" ]
ok sites-defined $? "the trace defines: $(echo "$got" | tr '\n' '|'); want $(echo "$want" | tr '\n' '|')"

# each wait-begin after the site it was called at, in its own stream
waits basic.dump >basic.waits
expect_worker=$(for r in 1 2 3; do echo "lock_request@$A"; echo "lock_request@$Bs"; \
	echo "barrier_arrive@$C"; done; echo "lock_request@$P")
fail=
for th in 1 2; do
	got=$(awk -v t=$th '$1 == t { $1 = ""; print substr($0, 2) }' basic.waits)
	[ "$got" = "$expect_worker" ] || fail="$fail thread $th: $(echo "$got" | tr '\n' '|');"
done
got=$(awk '$1 == 0 { $1 = ""; print substr($0, 2) }' basic.waits)
[ "$got" = "$(printf 'join_begin@%s\njoin_begin@%s' "$J" "$J")" ] || fail="$fail thread 0: $(echo "$got" | tr '\n' '|')"
[ -z "$fail" ]
ok sites-before-each-wait $? "$fail"

# the counts worked out above: a site is written only when it changes
n0=$(awk '$2 == 0 && $3 == "sync_site"' basic.dump | wc -l)
n1=$(awk '$2 == 1 && $3 == "sync_site"' basic.dump | wc -l)
n2=$(awk '$2 == 2 && $3 == "sync_site"' basic.dump | wc -l)
[ "$n0" -eq 1 ] && [ "$n1" -eq 10 ] && [ "$n2" -eq 10 ] &&
	[ "$(count basic.sum sync_site)" = 21 ] && [ "$(count basic.sum lock_request)" = 14 ] &&
	[ "$(count basic.sum barrier_arrive)" = 6 ] && [ "$(count basic.sum join_begin)" = 2 ]
ok sites-counts $? "sync_site per thread 0/1/2: $n0/$n1/$n2 (want 1/10/10); summary: $(grep -E 'sync_site|lock_request|barrier_arrive|join_begin' basic.sum | tr -s ' ' | tr '\n' '|')"

# the call through a function pointer went to the plain wrapper: its site is its return address
# (format 1.6), the line of the call through the pointer; no wait is left without a site
n=$(grep -c " sync_site site=[0-9]* $P\$" basic.dump)
[ "$n" -eq 2 ] && ! grep -q 'undefined\|site=none' basic.dump
ok sites-plain-wrapper-pointer $? "$n 'sync_site ... $P' lines (want 2, one per worker); $(grep -m1 'undefined\|site=none' basic.dump)"

# every other wait with a site: all events still balance, every wait-begin has a defined site
# (none only for the plain wrapper), the program's result is the plain build's
SG_TRACE_DIR=all ./sitee all 2 >all.out 2>all.err
rc=$?
./sitee.plain all 2 >plain.out 2>/dev/null
"$dump" all >all.dump 2>&1
"$dump" --summary all >all.sum 2>&1
c() { count all.sum "$1" | grep . || echo 0; }
bad=
[ "$rc" -eq 0 ] && cmp -s all.out plain.out || bad="exit $rc, printed '$(cat all.out)', plain '$(cat plain.out)';"
# a condition wait re-acquires its mutex without a request of its own
[ $(($(c lock_request) + $(c cond_wait_end))) -eq $(($(c lock_acquired) + $(c lock_failed))) ] ||
	bad="$bad lock_request $(c lock_request) + cond_wait_end $(c cond_wait_end) != acquired $(c lock_acquired) + failed $(c lock_failed);"
[ "$(c lock_release)" -eq "$(c lock_acquired)" ] || bad="$bad lock_release $(c lock_release) != lock_acquired $(c lock_acquired);"
for k in barrier_arrive:barrier_leave join_begin:join_end cond_wait_begin:cond_wait_end \
	sem_wait_begin:sem_wait_end; do
	[ "$(c "${k%:*}")" -eq "$(c "${k#*:}")" ] || bad="$bad ${k%:*} $(c "${k%:*}") != ${k#*:} $(c "${k#*:}");"
done
[ "$(c cond_wait_begin)" -ge 2 ] && [ "$(c sem_wait_begin)" -ge 6 ] || bad="$bad too few cond/sem waits: $(c cond_wait_begin)/$(c sem_wait_begin);"
waits all.dump >all.waits
unknown=$(grep -Ev '@sitee.c:[0-9]+( in [a-z_]+)?$' all.waits | grep -vc 'lock_request@none$')
[ "$unknown" -eq 0 ] || bad="$bad $unknown wait-begins without a site: $(grep -Ev '@sitee.c:[0-9]+( in [a-z_]+)?$' all.waits | grep -v 'lock_request@none' | head -3 | tr '\n' '|');"
grep -q undefined all.dump && bad="$bad $(grep -m1 undefined all.dump)"
[ -z "$bad" ]
ok sites-all-kinds-balance $? "$bad"
# the call in a macro body: since format 1.6 (return-address sites, the line table) the line
# where the macro is used, in its function (SITE_T), not the line in the #define (SITE_M)
M="sitee.c:$(line T) in every_kind"
grep -qx "site [0-9]*: $M" all.sum && grep -q " sync_site site=[0-9]* $M\$" all.dump
ok sites-macro-body $? "no 'site N: $M' in the summary, or no sync_site naming it: $(grep "sitee.c:$(line T)" all.sum all.dump | head -2 | tr '\n' '|')"
for fn in every_kind; do
	n=$(sed -n 's/^site [0-9]*: //p' all.sum | grep -c " in $fn\$")
	[ "$n" -ge 12 ]
	ok sites-all-kinds-defined $? "$n sites in $fn (want its 12+ wait calls: try-locks, rwlocks, spin, sem, cond)"
done

# tracing off: the same program, the same result, no trace written
SG_TRACE=0 SG_TRACE_DIR=off ./sitee all 2 >off.out 2>off.err
rc=$?
[ "$rc" -eq 0 ] && cmp -s off.out plain.out && [ ! -e off ] && [ ! -s off.err ]
ok sites-trace-off $? "exit $rc, printed '$(cat off.out)' (plain '$(cat plain.out)'), $(ls -d off 2>/dev/null) $(head -1 off.err)"

# a forked child: its trace defines the site its own events name (replayed definitions)
SG_TRACE_DIR=fork ./sitee fork 2 >fork.out 2>&1
child=$(for d in fork/proc.*; do
	"$dump" --summary "$d" 2>/dev/null | grep -q '(child of' && echo "$d"; done | head -1)
if [ -z "$child" ]; then
	ok sites-fork-child 1 "no child trace under fork/: $(ls fork | tr '\n' ' ')"
else
	"$dump" "$child" >child.dump 2>&1
	grep -q " sync_site site=[0-9]* $A\$" child.dump && ! grep -q undefined child.dump
	ok sites-fork-child $? "the child's dump: $(grep -m2 -E 'sync_site|undefined' child.dump | tr '\n' '|')"
fi

# the descriptor form of before format 1.6 (`scalegraph instrument --site-args`: the _at
# wrappers with a static struct sg_site_desc per call, SITE definitions), as programs built
# then still run: the same sites, with the macro body's call at its #define line and no
# function, and the call through the function pointer (a plain wrapper) by return address, so
# that one trace mixes SITE and SITE_PC definitions. The instrumented copy is compiled under
# the source's own name (as scalegraph cc does): binutils 2.40's addr2line names some addresses
# by the DWARF 5 file 0 (the name on the command line) rather than the #line file, depending on
# the code around them.
inst=$(dirname "$sgcc")/scalegraph-instrument
inc=$OLDPWD/$B/include lib=$OLDPWD/$B/lib
mkdir -p oldsrc
if "$inst" -q --site-args sitee.c -o oldsrc/sitee.c && cp oldsrc/sitee.c sitee.old.c &&
   (cd oldsrc && cc -O2 -g -Wall -I"$inc" -DSG_TRACE sitee.c -o ../sitee.old -L"$lib" \
	-Wl,-rpath,"$lib" -lsgtrace -pthread ${SG_SAN_FLAGS:-}) 2>old.err; then
	SG_TRACE_DIR=old ./sitee.old all 2 >old.out 2>&1
	"$dump" old >old.dump 2>&1
	"$dump" --summary old >old.sum 2>&1
	got=$(sed -n 's/^site [0-9]*: //p' old.sum | sort -u)
	bad=
	for want in "$A" "$Bs" "$C" "$J" "$P" "sitee.c:$(line M)"; do
		echo "$got" | grep -qxF "$want" || bad="$bad missing '$want';"
	done
	grep -q 'undefined\|not resolved' old.dump && bad="$bad $(grep -m1 'undefined\|not resolved' old.dump)"
	grep -q 'sg_pthread_mutex_lock_at(&sg_site_' sitee.old.c || bad="$bad no _at call in the --site-args output;"
	[ -z "$bad" ]
	ok sites-descriptor-form $? "$bad sites: $(echo "$got" | tr '\n' '|')"
else
	ok sites-descriptor-form 1 "building the --site-args form: $(head -3 old.err | tr '\n' '|')"
fi
