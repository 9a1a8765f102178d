#!/bin/bash
# test-run-outputs.sh — where `scalegraph run` writes and what it says when that fails (issue
# 20): the experiment directory reached through symbolic links (item 10: a link another user
# owns is refused before anything is created, the user's own works end to end), a full disk
# (item 12: the message names experiment.db and SQLite's reason, not an unset buffer; the runs
# recorded stay; the series resumes once space is freed), and what a run killed at its timeout
# left alive (its threads' names, states and wait channels, in the run's reason).
set -u
B=${B:-build}
SG="$(cd "$B/bin" && pwd)/scalegraph"
SYNTH="$(cd "$B/collector-tests" && pwd)/synth"
TRACED="$(cd "$B/bin" && pwd)/billiards-traced"
. "$(dirname "$0")/tlib.sh" outputs
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT

q() { sqlite3 "$1/experiment.db" "$2"; }
# run_to DIR [flags]: a one-run series of synth into DIR
run_to() {
	local dir=$1
	shift
	"$SG" run --threads 1 --no-trace --no-analyze "$@" -o "$dir" -- "$SYNTH" --size 1 \
		--threads {N} --base 0.001
}

# --- item 10: the experiment directory follows links ---------------------------------------------
# links owned by another user (nobody) are refused, naming the link and its owner, and nothing
# appears where they point; the user's own links are followed, and the store opens (before: the
# runner created lock and runs/ in the target, then SQLite refused the path: "unable to open
# database file").
L="$T/links"
mkdir -p "$L/target" "$L/tgt2" "$L/mine.real" "$L/tgt3"
if [ "$(id -u)" = 0 ] && chown -h 65534 "$L" 2>/dev/null && chown -h 0 "$L"; then
	ln -s target "$L/nob.exp"
	ln -s tgt2 "$L/via"
	chown -h 65534 "$L/nob.exp" "$L/via"
	owner=$(stat -c %U "$L/nob.exp")
	msg=$(run_to "$L/nob.exp" 2>&1)
	rc=$?
	check defect20-store-link-other-owner "rc=$rc: $msg; target holds '$(ls -A "$L/target")'" \
		test $rc -eq 1 -a -z "$(ls -A "$L/target")" -a \
		"$msg" = "scalegraph run: error: $L/nob.exp: a symbolic link (to target) owned by $owner (uid 65534), not by root or by the user running (uid 0): not followed"
	msg=$(run_to "$L/via/sub/x.exp" 2>&1)
	rc=$?
	check defect20-store-link-other-owner-intermediate "rc=$rc: $msg; target holds '$(ls -A "$L/tgt2")'" \
		test $rc -eq 1 -a -z "$(ls -A "$L/tgt2")" -a \
		"$msg" = "scalegraph run: error: $L/via: a symbolic link (to tgt2) owned by $owner (uid 65534), not by root or by the user running (uid 0): not followed"
	# a reader too (SQLite makes -wal and -shm beside the database even read-only): refused,
	# nothing made in the store it points to
	run_to "$L/tgt3/s.exp" >/dev/null 2>&1
	ln -s tgt3/s.exp "$L/nobstore"
	chown -h 65534 "$L/nobstore"
	msg=$("$SG" report "$L/nobstore" 2>&1)
	rc=$?
	check defect20-report-link-other-owner "rc=$rc: $msg; store holds $(ls -A "$L/tgt3/s.exp" | tr '\n' ' ')" \
		test $rc -ne 0 -a "$(ls -A "$L/tgt3/s.exp" | tr '\n' ' ')" = "experiment.db lock runs " -a \
		"${msg#*"$L/nobstore: a symbolic link (to tgt3/s.exp) owned by"*not followed}" != "$msg"
else
	echo "SKIP: defect20-store-link-other-owner: not root (a link of another user cannot be made)"
	echo "SKIP: defect20-store-link-other-owner-intermediate: not root"
	echo "SKIP: defect20-report-link-other-owner: not root"
fi
# the user's own link, as the experiment directory and as an intermediate component: a traced
# series runs, is analyzed and reported; its files are in the target
ln -s mine.real "$L/mine.exp"
ln -s tgt2 "$L/myvia"
for case in mine.exp myvia/sub/x.exp; do
	d="$L/$case"
	"$SG" run --threads 1,2 --no-analyze -o "$d" -- "$TRACED" --threads {N} --balls 16 --steps 2 \
		>"$T/own.out" 2>&1
	rc=$?
	rep=$("$SG" report "$d" 2>&1)
	r2=$?
	real=$(readlink -f "$d")
	ok=$(q "$real" "select count(*) from runs where status = 'ok'" 2>&1)
	name=defect20-store-link-own
	[ "$case" = mine.exp ] || name=defect20-store-link-own-intermediate
	check $name "run rc=$rc ($(tail -2 "$T/own.out" | head -1)); report rc=$r2 ($(head -1 <<<"$rep")); $ok ok runs in $real: $(ls -A "$real" | tr '\n' ' ')" \
		test $rc -eq 0 -a $r2 -eq 0 -a "$ok" = 2 -a -d "$real/runs/1/trace" -a \
		"$(head -1 <<<"$rep")" = "Experiment $d: 2 point(s), $(nproc) CPU(s)"
done

# --- item 12: a full disk ------------------------------------------------------------------------
# the store on a 300 KiB tmpfs (the runner keeps 256 KiB of it in reserve): the series fills it.
# Before: "scalegraph run: error: <uninitialised bytes>: cannot create the run directory:
# Input/output error".
mkdir -p "$T/full"
if mount -t tmpfs -o size=300k tmpfs "$T/full" 2>"$T/mount.err"; then
	run_to "$T/full/x.exp" --repeat 60 >"$T/full1.out" 2>&1
	rc=$?
	err=$(grep -a '^scalegraph run: error: ' "$T/full1.out")
	made=$(sed -n 's/.*: \([0-9]*\) runs made, .*/\1/p' "$T/full1.out")
	printable=1
	LC_ALL=C grep -q '[^[:print:]]' <<<"$err" && printable=0
	check defect20-full-disk-message "rc=$rc printable=$printable: $(cat -v <<<"$err")" \
		test $rc -eq 1 -a $printable -eq 1 -a \( "${err#"scalegraph run: error: $T/full/x.exp/experiment.db: database or disk is full; "}" != "$err" -o \
		"${err#"scalegraph run: error: $T/full/x.exp: no space left on the device (run "}" != "$err" \)
	kept=$(q "$T/full/x.exp" "select count(*) from runs where status = 'ok'" 2>&1)
	intact=$(q "$T/full/x.exp" "pragma integrity_check" 2>&1)
	check defect20-full-disk-runs-kept "$made runs made, $kept ok in the store, integrity '$intact'" \
		test -n "$made" -a "$kept" = "$made" -a "$intact" = ok -a "${made:-0}" -gt 0
	mount -o remount,size=8m "$T/full"
	run_to "$T/full/x.exp" --repeat 60 >"$T/full2.out" 2>&1
	rc=$?
	last=$(tail -2 "$T/full2.out" | head -1)
	check defect20-full-disk-resume "rc=$rc: $last; ok runs $(q "$T/full/x.exp" "select count(*) from runs where status = 'ok'")" \
		test $rc -eq 0 -a "$(q "$T/full/x.exp" "select count(*) from runs where status = 'ok'")" = 60 -a \
		"${last#*runs made, "$made" reused, 0 failed}" != "$last"
	umount "$T/full"
else
	for n in message runs-kept resume; do
		echo "SKIP: defect20-full-disk-$n: cannot mount a tmpfs here: $(head -1 "$T/mount.err")"
	done
fi

# --- the runner's diagnostic: what a timed-out run left alive --------------------------------------
# a program that sleeps past a short timeout: its one thread, state and wait channel (before:
# "timed out after 0.5 s (process group killed)" and nothing more)
"$SG" run --threads 1 --no-trace --no-analyze --timeout 0.5s -o "$T/hang.exp" -- "$SYNTH" \
	--size 1 --threads {N} --hang-at 1 >/dev/null 2>&1
reason=$(q "$T/hang.exp" "select reason from runs")
check defect20-timeout-threads-left "reason: $reason" \
	grep -Eq '^timed out after 0.5 s \(process group killed\); 1 thread left: synth \(S(, [a-z_.0-9]+)?\)$' <<<"$reason"
# a program whose main ended with pthread_exit while another thread lives on (the shape of
# issue 20's item 1, where the thread left was libsgtrace's drain thread)
cat >"$T/pexit.c" <<'EOC'
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>
static void *sleeper(void *arg)
{
	pthread_setname_np(pthread_self(), "sg-left");
	sleep(60);
	return arg;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, sleeper, NULL);
	pthread_exit(NULL);
}
EOC
if cc -o "$T/pexit" "$T/pexit.c" -pthread 2>"$T/cc.err"; then
	"$SG" run --threads 1 --no-trace --no-analyze --timeout 0.5s -o "$T/pexit.exp" \
		-- "$T/pexit" >/dev/null 2>&1
	reason=$(q "$T/pexit.exp" "select reason from runs")
	check defect20-timeout-main-ended "reason: $reason" \
		grep -Eq '^timed out after 0.5 s \(process group killed\); 1 thread left: sg-left \(S(, [a-z_.0-9]+)?\); main thread ended$' <<<"$reason"
	# the same program moved out of the run's process group (setsid): its process, whose stat
	# says Z once its main thread ended, was taken for a zombie and never killed
	# (a name of its own: with its main thread gone, /proc/PID/cmdline is empty and only the
	# process name is left to find it by)
	px=sgpx$$
	cp "$T/pexit" "$T/$px"
	printf "program sh -c 'setsid %s & sleep 30'\nthreads 1\ntimeout 1s\n" "$T/$px" >"$T/setsid.sgx"
	"$SG" run "$T/setsid.sgx" --no-analyze -o "$T/setsid.exp" >/dev/null 2>&1
	sleep 0.3
	left=$(pgrep -x "$px")
	[ -n "$left" ] && kill -9 $left 2>/dev/null
	check defect20-timeout-setsid-main-ended-killed "left running after the run: '${left}'; reason: $(q "$T/setsid.exp" "select reason from runs")" \
		test -z "$left"
else
	echo "SKIP: defect20-timeout-main-ended: no C compiler: $(head -1 "$T/cc.err")"
	echo "SKIP: defect20-timeout-setsid-main-ended-killed: no C compiler"
fi
