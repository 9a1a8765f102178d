#!/bin/bash
# test-defect20-outputs.sh — item 10 of issue 20, the trace library's half: "a set-uid traced
# program honours the caller's SG_TRACE_DIR, SG_EVENTS, SG_TRACE_BUFFER, ...", and "intermediate
# components of SG_TRACE_DIR follow links".
#   - a set-uid copy of a traced program (owned by nobody, run by root: the real and effective
#     users differ, so the kernel marks it AT_SECURE) traces nothing at all: neither into the
#     SG_TRACE_DIR its caller gives (in a directory nobody may write), nor a default root in its
#     working directory, and says nothing; the program itself runs as it would;
#   - a symbolic link owned by nobody in the middle of SG_TRACE_DIR is not followed: one line
#     naming the link and its owner, tracing off, nothing created where it points; a link
#     owned by root there is followed; the trace root itself is still never a link.
# endee.c (built with `scalegraph cc`) is the program. Needs root (chown, a set-uid copy) and
# the user nobody: SKIP otherwise. Prints PASS:/FAIL:/SKIP: lines.
set -u
B=${B:-build}
sgcc=$PWD/$B/libexec/scalegraph/scalegraph-cc
dump=$PWD/$B/libexec/scalegraph/scalegraph-dump
src=$PWD/tracelib/tests/endee.c
. "$(dirname "$0")/tlib.sh" defect20-outputs "$sgcc" "$dump"
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: defect20-outputs: needs root (to make a set-uid copy and links of another user)"
	exit 0
fi
if ! id -u nobody >/dev/null 2>&1; then
	echo "SKIP: defect20-outputs: no user nobody on this machine"
	exit 0
fi
nobody=$(id -u nobody)
export SG_EVENTS=none
unset SG_TRACE_DIR SG_TRACE_ROOT SG_TRACE_PARENT SG_SCHED SG_TRACE
cd "$work" || exit 1
chmod 755 "$work"
cp "$src" endee.c
if ! "$sgcc" -O2 -Wall -Werror endee.c -o endee 2>cc.err; then
	echo "FAIL: defect20-outputs: building endee.c: $(head -3 cc.err | tr '\n' '|')"
	exit 1
fi

# --- a set-uid copy --------------------------------------------------------------------------
mkdir suid pub && chmod 755 suid && chmod 1777 pub
cp endee suid/endee
# LeakSanitizer cannot work in a set-uid process, which cannot read its own environment's
# ASAN_OPTIONS either (the sanitizer run of make check): that copy has it off built in
if [ -n "${SG_SAN_FLAGS:-}" ]; then
	echo 'const char *__asan_default_options(void); const char *__asan_default_options(void) { return "detect_leaks=0"; }' >nolsan.c
	if ! "$sgcc" -O1 endee.c nolsan.c -o suid/endee 2>cc.err; then
		echo "FAIL: defect20-outputs: building the set-uid copy: $(head -3 cc.err | tr '\n' '|')"
		exit 1
	fi
fi
chown nobody suid/endee && chmod 4755 suid/endee
# the program must be able to run at all as nobody (its libsgtrace.so under the build tree)
(cd pub && SG_TRACE_DIR="$work/pub/t" SG_TRACE_BUFFER=4K SG_VERBOSE=1 "$work/suid/endee" plain \
	>"$work/suid.out" 2>"$work/suid.err")
rc=$?
left=$(cd pub && ls -A)
[ $rc -eq 0 ] && [ "$(cat suid.out)" = atexit ] && [ -z "$left" ] && [ ! -s suid.err ]
ok defect20-setuid-traces-nothing $? "exit $rc, stdout '$(cat suid.out)', stderr '$(head -c 200 suid.err)', written in SG_TRACE_DIR's directory or the working directory: '$left' (want nothing)"
# the same copy without the set-uid bit traces (how a set-uid program is traced: a copy)
cp endee suid/endee-plain
(cd pub && SG_TRACE_DIR="$work/pub/t2" "$work/suid/endee-plain" plain >/dev/null 2>&1)
[ -n "$(ls pub/t2/proc.* 2>/dev/null)" ]
ok defect20-setuid-copy-without-bit-traces $? "a copy without the bit wrote: $(ls -R pub/t2 2>&1 | head -3 | tr '\n' ' ')"

# --- links in the middle of SG_TRACE_DIR -------------------------------------------------------
mkdir -p links target-n target-r && chmod 755 links
ln -s "$work/target-n" links/by-nobody && chown -h nobody links/by-nobody
ln -s "$work/target-r" links/by-root
SG_TRACE_DIR="$work/links/by-nobody/sub/t" ./endee plain >ln.out 2>ln.err
rc=$?
want="sgtrace: error: SG_TRACE_DIR=$work/links/by-nobody/sub/t: $work/links/by-nobody: a symbolic link owned by uid $nobody, neither root nor this user: not followed; tracing is off"
[ $rc -eq 0 ] && [ "$(cat ln.out)" = atexit ] && [ "$(cat ln.err)" = "$want" ] &&
	[ -z "$(ls -A target-n)" ]
ok defect20-link-of-another-user-refused $? "exit $rc, stderr '$(cat ln.err)', want '$want'; created where it points: '$(ls -A target-n)'"
# relative to the working directory, and as a link to a link: the same rule at each step
ln -s links/by-nobody via-root && SG_TRACE_DIR=via-root/sub/t ./endee plain >/dev/null 2>ln2.err
grep -q "^sgtrace: error: SG_TRACE_DIR=via-root/sub/t: links/by-nobody: a symbolic link owned by uid $nobody, neither root nor this user: not followed; tracing is off\$" ln2.err &&
	[ -z "$(ls -A target-n)" ]
ok defect20-link-of-another-user-refused-through-link $? "stderr '$(cat ln2.err)'; created in the target: '$(ls -A target-n)'"
SG_TRACE_DIR="$work/links/by-root/sub/t" ./endee plain >/dev/null 2>lr.err
d=$(ls -d target-r/sub/t/proc.* 2>/dev/null)
[ -n "$d" ] && [ ! -s lr.err ] && "$dump" --summary "$d" 2>/dev/null | grep -q '^problems: 0$'
ok defect20-link-of-root-followed $? "trace under the link's target: '$d', stderr '$(cat lr.err)'"
# the root itself stays never a link, whoever owns it
SG_TRACE_DIR="$work/links/by-root" ./endee plain >/dev/null 2>lt.err
grep -q "^sgtrace: error: SG_TRACE_DIR=$work/links/by-root: refused as the trace root: a symbolic link, not a directory; tracing is off\$" lt.err
ok defect20-link-as-root-still-refused $? "stderr '$(cat lt.err)'"
