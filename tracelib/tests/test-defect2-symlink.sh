#!/bin/bash
# test-defect2-symlink.sh — defect 2 of issue 13, "symlink attack through the trace library":
# a traced program run as root must never write through a link or into a directory someone
# else prepared, and its trace must be private. Cases (the victim is a file whose content must
# stay as it was):
#   - a link planted in the process's directory (thread.1.sgs -> victim) before the thread's
#     stream is made: refused (O_EXCL|O_NOFOLLOW), said on stderr, the victim untouched;
#   - the default root ./sgtrace-<program>-<time>-<pid> planted beforehand (defs.sgd and
#     proc.<pid> links in it): the library takes the name with .2 and says so (SG_VERBOSE=1);
#     nothing is written in the planted one;
#   - an explicit SG_TRACE_DIR owned by another user (nobody), or a link to a directory: refused
#     with one line, tracing off, the program runs on;
#   - a sticky root-owned directory (like /tmp) is accepted as the root of a program run as
#     nobody (setpriv), a plain root-owned one is not;
#   - modes: the root and proc.<pid>/ 0700, every file 0600.
# Needs root (chown, setpriv): SKIP otherwise. Prints PASS:/FAIL:/SKIP: lines.
set -u
B=${B:-build}
dump=$B/libexec/scalegraph/scalegraph-dump
crashee=$(realpath "$B/tests/tracelib/crashee")
. "$(dirname "$0")/tlib.sh" defect2 "$dump" "$crashee"
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: defect2-symlink-trace-dir: needs root (to plant links as another user)"
	exit 0
fi
export SG_EVENTS=none
unset SG_TRACE_DIR SG_TRACE_ROOT SG_TRACE_PARENT
victim=$work/victim
echo "precious content" >"$victim"
sum0=$(md5sum <"$victim")
victim_ok() { [ "$(md5sum <"$victim")" = "$sum0" ] && [ ! -L "$victim" ]; }

# 1. a link planted in proc.<pid>/ before thread 1's stream is created
mkfifo "$work/in"
SG_TRACE_DIR="$work/t1" "$crashee" plant 100 <"$work/in" >"$work/t1.out" 2>"$work/t1.err" &
pid=$!
exec 3>"$work/in"
for _ in $(seq 100); do [ -s "$work/t1.out" ] && break; sleep 0.1; done
pdir=$(head -1 "$work/t1.out")
ln -s "$victim" "$pdir/thread.1.sgs"
echo go >&3
exec 3>&-
wait $pid
rc=$?
victim_ok && [ $rc -eq 0 ] &&
	grep -q "^sgtrace: error: $pdir/thread.1.sgs: cannot create: File exists; thread 1 is not traced\$" "$work/t1.err"
ok defect2-symlink-trace-dir-planted-stream $? "exit $rc, victim: $(head -c 40 "$victim" | tr -cd "[:print:]"), stderr: $(head -2 "$work/t1.err")"

# 2. the default root ./sgtrace-<program>-<time>-<pid> planted before the program starts (sh
# execs it: same pid), under every name of the next seconds; SG_VERBOSE=1 to hear the warning
mkdir "$work/cwd" && chmod 1777 "$work/cwd"
(cd "$work/cwd" && SG_VERBOSE=1 sh -c 'for i in -1 0 1 2 3 4 5 6 7 8 9; do
		d=sgtrace-crashee-$(date -d "+$i sec" +%Y%m%d_%H%M%S)-$$
		mkdir $d && ln -s "$1" $d/defs.sgd && ln -s "$1" $d/proc.$$ || exit 9
	done; exec "$2" ok 100' sh "$victim" "$crashee") \
	>/dev/null 2>"$work/t2.err"
rc=$?
taken=$(ls -d "$work"/cwd/sgtrace-crashee-*.2 2>/dev/null | head -1)
planted=${taken%.2}
name=${planted##*/}
victim_ok && [ $rc -eq 0 ] && [ -n "$taken" ] && [ "$(ls "$planted" | wc -l)" -eq 2 ] &&
	grep -q "^sgtrace: warning: ./$name exists already (not made by this process); tracing into ./$name.2 instead\$" "$work/t2.err" &&
	"$dump" --strict --summary "$taken" >/dev/null 2>&1
ok defect2-symlink-trace-dir-default-root $? "exit $rc, taken '$taken', planted holds: $(ls "$planted" 2>/dev/null | tr '\n' ' '), stderr: $(head -2 "$work/t2.err"), made: $(ls "$work/cwd" | tr '\n' ' ')"

# 3. an explicit root owned by another user, and a link to a directory
mkdir -m 0777 "$work/evil" && chown nobody "$work/evil"
SG_TRACE_DIR="$work/evil" "$crashee" ok 100 >/dev/null 2>"$work/t3.err"
rc=$?
[ $rc -eq 0 ] && [ -z "$(ls "$work/evil")" ] &&
	grep -q "^sgtrace: error: SG_TRACE_DIR=$work/evil: refused as the trace root: owned by another user (and not a sticky directory of root's); tracing is off\$" "$work/t3.err"
ok defect2-symlink-trace-dir-foreign-root $? "exit $rc, written: $(ls "$work/evil" | tr '\n' ' '), stderr: $(head -2 "$work/t3.err")"
mkdir "$work/real" && ln -s "$work/real" "$work/link"
SG_TRACE_DIR="$work/link" "$crashee" ok 100 >/dev/null 2>"$work/t3b.err"
rc=$?
[ $rc -eq 0 ] && [ -z "$(ls "$work/real")" ] &&
	grep -q "^sgtrace: error: SG_TRACE_DIR=$work/link: refused as the trace root: a symbolic link, not a directory; tracing is off\$" "$work/t3b.err"
ok defect2-symlink-trace-dir-link-root $? "exit $rc, written: $(ls "$work/real" | tr '\n' ' '), stderr: $(head -2 "$work/t3b.err")"

# 4. run as nobody: a sticky root-owned root is fine, a plain root-owned one is refused
chmod 755 "$work"
mkdir -m 1777 "$work/sticky" && mkdir -m 0777 "$work/plain"
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
nobody env SG_TRACE_DIR="$work/sticky" "$crashee" ok 100 >/dev/null 2>"$work/t4.err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$work/t4.err" ] && "$dump" --strict --summary "$work/sticky" >/dev/null 2>&1
ok defect2-symlink-trace-dir-sticky-root $? "exit $rc, stderr: $(head -2 "$work/t4.err")"
nobody env SG_TRACE_DIR="$work/plain" "$crashee" ok 100 >/dev/null 2>"$work/t4b.err"
rc=$?
[ $rc -eq 0 ] && [ -z "$(ls "$work/plain")" ] && grep -q 'refused as the trace root: owned by another user' "$work/t4b.err"
ok defect2-symlink-trace-dir-plain-root $? "exit $rc, written: $(ls "$work/plain" | tr '\n' ' '), stderr: $(head -2 "$work/t4b.err")"

# 5. modes: a fresh root and proc.<pid>/ 0700, every file 0600 (whatever the umask)
(umask 000 && SG_TRACE_DIR="$work/t5" "$crashee" ok 100 >/dev/null 2>&1)
bad=$(find "$work/t5" \( -type d ! -perm 0700 \) -o \( -type f ! -perm 0600 \) | head -3)
[ -d "$work/t5" ] && [ -z "$bad" ] && [ "$(find "$work/t5" -type f | wc -l)" -ge 3 ]
ok defect2-symlink-trace-dir-modes $? "not 0700/0600: $(for f in $bad; do stat -c '%a %n' "$f"; done)"
victim_ok
ok defect2-symlink-trace-dir-victim-untouched $? "victim now: $(ls -l "$victim"; head -c 40 "$victim" | tr -cd "[:print:]")"
