#!/bin/bash
# test-layout.sh — issue 21 part 1: an instrumented build changes the machine code of the user's
# functions only where it puts probes. instrument/tests/programs/layout_prog.c (locks, a barrier,
# a condition, a semaphore, a try-lock, joins, a lock in a tail position, a loop) is built plain
# and with `scalegraph cc`; the builds differ only by the renamed calls:
#   - with function probes off every function keeps its size (`scalegraph layout`, nm -S), and
#     the calls are the plain sg_ wrappers (no call-site argument);
#   - with SG_TRACE=0 the wrappers forward without recording: same output, no trace;
#   - traced, every wait has its site, resolved to the line it was written at through the line
#     table (-g1 added by scalegraph cc), the tail-called lock said to be one;
#   - a binary without its line table, or rebuilt since the run, gives sites that say they are
#     not resolved, never another line;
#   - with the default probes, main and the start routine are probed from outside their bodies:
#     every function keeps its size (`scalegraph layout`, nm -S) and the trace still has their
#     entries and exits; a filter that selects main for its own sake changes main alone.
# No speed is asserted here: bench/layout-lu.sh measures it. PASS:/FAIL: lines.
set -u
B=${B:-build}
B_ABS=$(cd "$B" && pwd)
SG=$B_ABS/bin/scalegraph
SGCC=$B_ABS/libexec/scalegraph/scalegraph-cc
LAYOUT=$B_ABS/libexec/scalegraph/scalegraph-layout
DUMP=$B_ABS/libexec/scalegraph/scalegraph-dump
CC=${CC:-cc}
export SG_CC=$CC
for f in "$SGCC" "$LAYOUT" "$DUMP" "$B_ABS/lib/libsgtrace.so"; do
	if [ ! -e "$f" ]; then echo "FAIL: layout: $f not built"; exit 1; fi
done
if ! command -v nm >/dev/null || ! command -v addr2line >/dev/null; then
	echo "SKIP: layout: binutils (nm, addr2line) not installed"
	exit 0
fi
src=$PWD/instrument/tests/programs/layout_prog.c
work=$(mktemp -d "${TMPDIR:-/tmp}/sgtest.layout.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cp "$src" layout_prog.c
ok() { if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1: $3"; fi; }

# (in the sanitizer stage scalegraph cc compiles with the library's -fsanitize flags: the plain
# build gets them too, or every function differs by the sanitizer's code)
if ! $CC -O2 -pthread layout_prog.c -o plain ${SG_SAN_FLAGS:-} 2>cc.err ||
   ! "$SGCC" --sg-no-functions -O2 -pthread layout_prog.c -o nofn 2>>cc.err ||
   ! "$SGCC" --sg-explain -O2 -pthread layout_prog.c -o probed 2>explain.err; then
	echo "FAIL: layout: building layout_prog.c: $(head -3 cc.err explain.err | tr '\n' '|')"
	exit 1
fi

# function probes off: every function of the program keeps its size
"$LAYOUT" plain nofn >nofn.layout 2>&1
rc=$?
grep -q '^layout: [1-9][0-9]* functions in both builds: 0 changed size' nofn.layout
ok layout-no-functions-same-size $((rc != 0 || $? != 0)) "exit $rc: $(tr '\n' '|' <nofn.layout)"
n_fn=$(nm -S --defined-only plain | awk 'NF == 4 && $3 ~ /^[tT]$/ && $4 ~ /^(main|worker|take)($|\.)/' | wc -l)
[ "$n_fn" -ge 3 ]
ok layout-functions-compared $? "plain build has $n_fn of main, worker, take (want the 3, take not inlined: take.constprop counts)"

# the calls are renamed, with the original arguments (no call-site descriptor)
u=$(nm nofn | awk '$1 == "U" && $2 ~ /^sg_/ { print $2 }' | sort | tr '\n' ' ')
want="sg_pthread_barrier_wait sg_pthread_cond_broadcast sg_pthread_cond_wait sg_pthread_create sg_pthread_join sg_pthread_mutex_lock sg_pthread_mutex_trylock sg_pthread_mutex_unlock sg_sem_init sg_sem_post sg_sem_wait "
[ "$u" = "$want" ] && ! nm nofn | grep -q 'sg_site_'
ok layout-renamed-calls $? "wrappers called: $u; want $want"

# SG_TRACE=0: the wrappers forward without recording
./plain >plain.out 2>&1
SG_TRACE=0 SG_TRACE_DIR=off ./nofn >off.out 2>off.err
rc=$?
[ "$rc" -eq 0 ] && cmp -s plain.out off.out && [ ! -e off ] && [ ! -s off.err ]
ok layout-trace-off-forwards $? "exit $rc, printed '$(cat off.out)' (plain '$(cat plain.out)'), $(ls -d off 2>/dev/null) $(head -1 off.err)"

# traced: the sites are the lines the waits were written at
line() { grep -n "$1" layout_prog.c | head -1 | cut -d: -f1; }
SG_TRACE_DIR=tr ./nofn >tr.out 2>&1
"$DUMP" --summary tr >tr.sum 2>&1
sites=$(sed -n 's/^site [0-9]*: //p' tr.sum | sort -u)
bad=
for want in "layout_prog.c:$(line 'pthread_barrier_wait(&bar)') in worker" \
	    "layout_prog.c:$(line 'CHECKED') in checked_take" \
	    "layout_prog.c:$(line 'sem_wait(&sem)') in worker" \
	    "layout_prog.c:$(line 'pthread_mutex_trylock(&m)') in worker" \
	    "layout_prog.c:$(line 'pthread_join(t\[i\]') in main" \
	    "layout_prog.c:$(line 'take(&m);') in worker, via take (tail call)"; do
	echo "$sites" | grep -qxF "$want" || bad="$bad missing '$want';"
done
cmp -s plain.out tr.out || bad="$bad output differs;"
grep -q 'undefined\|not resolved' tr.sum && bad="$bad $(grep -m1 'undefined\|not resolved' tr.sum)"
[ -z "$bad" ]
ok layout-sites-resolved $? "$bad sites: $(echo "$sites" | tr '\n' '|')"

# libsgtrace linked in (--sg-static): a direct call to the wrapper is no tail call, though the
# wrapper's first instructions belong to an inlined helper of the library
if "$SGCC" --sg-static --sg-no-functions -O2 -pthread layout_prog.c -o static 2>static.err; then
	SG_TRACE_DIR=trs ./static >trs.out 2>&1
	"$DUMP" --summary trs >trs.sum 2>&1
	vias=$(grep '^site' trs.sum | grep 'via' | grep -vc 'via take (tail call)$')
	[ "$vias" -eq 0 ] && grep -q "^site [0-9]*: layout_prog.c:$(line 'take(&m);') in worker, via take (tail call)\$" trs.sum
	ok layout-sites-static $? "$vias sites with a wrong 'via': $(grep '^site' trs.sum | tr '\n' '|')"
else
	ok layout-sites-static 1 "building with --sg-static: $(head -2 static.err | tr '\n' '|')"
fi

# no line table any more: the sites say so, with the address, and name no line
cp -r tr tr2
objcopy --strip-debug nofn
"$DUMP" --summary tr2 >strip.sum 2>&1
n_un=$(grep -c '^site [0-9]*: nofn+0x[0-9a-f]* in (not resolved: no line table' strip.sum)
n_all=$(grep -c '^site [0-9]*: ' strip.sum)
[ "$n_all" -gt 0 ] && [ "$n_un" -eq "$n_all" ]
ok layout-sites-no-line-table $? "$n_un of $n_all sites unresolved: $(grep -m2 '^site' strip.sum | tr '\n' '|')"
# rebuilt since the run: another build-id, so its lines are not taken
"$SGCC" --sg-no-functions -O1 -pthread layout_prog.c -o nofn 2>/dev/null
"$DUMP" --summary tr2 >rebuilt.sum 2>&1
n_re=$(grep -c '^site [0-9]*: nofn+0x[0-9a-f]* in (not resolved: binary rebuilt since the run' rebuilt.sum)
[ "$n_re" -eq "$n_all" ]
ok layout-sites-rebuilt-binary $? "$n_re of $n_all sites say the binary was rebuilt: $(grep -m2 '^site' rebuilt.sum | tr '\n' '|')"

# default probes: the functions that changed size are the ones probed for their own sake, and
# only they. main and the start routine (worker), selected by the default rule, are probed from
# outside their bodies (SG_FUNC_OUTSIDE: the library's start-up and exit, the pthread_create
# trampoline): here no other function is probed, so every function keeps its size and address
"$LAYOUT" --moved plain probed >probed.layout 2>&1
rc=$?
outside=$(sed -n 's/^layout_prog.c:[0-9]* \([^:]*\): selected: .*(probed from outside its body)$/\1/p' explain.err | sort | tr '\n' ' ')
grep -q '^layout: [1-9][0-9]* functions in both builds: 0 changed size, [0-9]* kept it (0 of them moved)' probed.layout
ok layout-default-probes-main-outside $((rc != 0 || $? != 0)) "exit $rc, probed from outside: '$outside' (want main worker): $(tr '\n' '|' <probed.layout)"
[ "$outside" = "main worker " ]
ok layout-default-probes-outside-named $? "--sg-explain: probed from outside: '$outside', want 'main worker '"
# the same by nm -S, function by function (name, size), beside the plain build
nm_sizes() { nm -S --defined-only "$1" | awk 'NF == 4 && $3 ~ /^[tT]$/ && $4 !~ /^(sg_|sgt_|_)/ { print $4, $2 }' | sort; }
nm_sizes plain >plain.sizes
nm_sizes probed >probed.sizes
[ -s plain.sizes ] && cmp -s plain.sizes probed.sizes
ok layout-default-probes-nm-sizes $? "nm -S differs: $(diff plain.sizes probed.sizes | tr '\n' '|' | head -c 400)"
# ... and its trace still has main's and each worker's entry and exit
SG_TRACE_DIR=trp ./probed >trp.out 2>&1
"$DUMP" trp >trp.dump 2>&1
n_t=$(grep -c '^[0-9][0-9]* [0-9][0-9]* thread_begin ' trp.dump)
fe_main=$(grep -c '^[0-9]* 0 func_enter main (layout_prog.c:[0-9]*)$' trp.dump)
fx_main=$(grep -c '^[0-9]* 0 func_exit main (layout_prog.c:[0-9]*)$' trp.dump)
fe_w=$(grep -c ' func_enter worker (layout_prog.c:[0-9]*)$' trp.dump)
fx_w=$(grep -c ' func_exit worker (layout_prog.c:[0-9]*)$' trp.dump)
grep '^[0-9]* 0 \(thread_\|func_\)' trp.dump | awk '{print $3, $4}' >main.ev
first=$(head -2 main.ev | tr '\n' '/')
last=$(tail -2 main.ev | tr '\n' '/')
[ "$fe_main" -eq 1 ] && [ "$fx_main" -eq 1 ] && [ "$n_t" -ge 2 ] && [ "$fe_w" -eq $((n_t - 1)) ] &&
	[ "$fx_w" -eq $((n_t - 1)) ] && [ "$first" = "thread_begin thread/func_enter main/" ] &&
	[ "$last" = "func_exit main/thread_end thread/" ] && cmp -s plain.out trp.out
ok layout-default-probes-trace $? "main entered $fe_main, left $fx_main (want 1, 1), first '$first', last '$last'; $n_t threads, worker entered $fe_w, left $fx_w times (want $((n_t - 1)))"
# a filter that selects main for its own sake probes it in its body: it, and only it, changes
printf 'SCOREP_REGION_NAMES_BEGIN\n  INCLUDE main\nSCOREP_REGION_NAMES_END\n' >main.filt
"$SGCC" --sg-explain --sg-filter main.filt -O2 -pthread layout_prog.c -o inmain 2>inmain.err
"$LAYOUT" plain inmain >inmain.layout 2>&1
rc=$?
changed=$(sed -n 's/^changed: \([^ ]*\) .*/\1/p' inmain.layout | sort | tr '\n' ' ')
[ "$rc" -eq 1 ] && [ "$changed" = "main " ] && grep -q '^layout_prog.c:[0-9]* main: selected: .*INCLUDE' inmain.err
ok layout-filter-main-in-body $? "exit $rc, changed: '$changed' (want main): $(grep ' main: ' inmain.err)"

# the command's own errors
"$LAYOUT" plain >/dev/null 2>&1
rc1=$?
"$LAYOUT" plain /no/such/file >/dev/null 2>&1
rc2=$?
"$SG" layout -q plain plain >same.out 2>&1
rc3=$?
[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && [ "$rc3" -eq 0 ] && [ "$(wc -l <same.out)" -eq 1 ]
ok layout-command-usage $? "one file: exit $rc1, missing file: exit $rc2 (want 2, 2); scalegraph layout -q on one build: exit $rc3, $(tr '\n' '|' <same.out)"
