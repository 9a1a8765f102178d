#!/bin/bash
# test-trace-fuzz.sh — the trace reader against damaged input, through the commands users run
# on traces: a real trace of billiards-traced is mutated (random bytes overwritten, files cut
# at random lengths, definitions file emptied or removed) with a fixed seed, and
# `scalegraph dump --summary`, `scalegraph report` and `scalegraph export --chrome` must each
# end without a crash or a hang: exit 0 with what is readable, or non-zero with a message.
# Under a sanitizer build (B=build-san, built with OPT='-O1 -g -fsanitize=address,undefined')
# a sanitizer's report on stderr counts as a crash, whether or not the program went on.
# SG_FUZZ_ROUNDS (default 100) sets the number of mutated traces.
set -u
B=${B:-build}
sg=$B/bin/scalegraph
rounds=${SG_FUZZ_ROUNDS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

SG_TRACE_DIR="$tmp/seed" "$B/bin/billiards-traced" --balls 300 --steps 30 --threads 2 \
	>/dev/null 2>&1
if ! "$sg" dump --summary "$tmp/seed" >/dev/null 2>&1; then
	echo "FAIL: seed trace: billiards-traced did not leave a readable trace"
	exit 1
fi
echo "PASS: seed trace readable"

# mutate SEED_DIR OUT_DIR ROUND: one deterministic kind of damage per round
mutate() {
	python3 - "$1" "$2" "$3" <<'PY'
import os, random, shutil, sys
src, dst, rnd = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = random.Random(rnd)
shutil.copytree(src, dst)
# every file of the trace: the root holds one proc.<pid>/ directory per process
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(dst) for f in fs)
if not files:
    sys.exit('no trace files under %s' % src)
f = r.choice(files)
data = bytearray(open(f, 'rb').read())
kind = rnd % 5
if kind == 0 and data:                      # a few random bytes
    for _ in range(r.randint(1, 8)):
        data[r.randrange(len(data))] = r.randrange(256)
elif kind == 1:                             # cut short
    data = data[:r.randrange(len(data) + 1)]
elif kind == 2 and len(data) > 64:          # a run of garbage
    at = r.randrange(len(data) - 32)
    data[at:at + 32] = bytes(r.randrange(256) for _ in range(32))
elif kind == 3 and len(data) >= 8:          # one 64-bit word set to an extreme value
    at = r.randrange(len(data) // 8) * 8
    data[at:at + 8] = r.choice([b'\xff' * 8, b'\x00' * 8, b'\xff\xff\xff\x7f\x00\x00\x00\x00'])
else:                                       # the file gone
    os.remove(f)
    sys.exit(0)
open(f, 'wb').write(data)
PY
}

crashes=0 hangs=0 silent=0 unmutated=0
for i in $(seq 1 "$rounds"); do
	d="$tmp/m$i"
	mutate "$tmp/seed" "$d" "$i"
	# a mutation can write the bytes that were there (the seed trace differs run to run): such
	# a round is mutated once more with another seed; still undamaged, it tests nothing: count it
	if diff -r -q "$tmp/seed" "$d" >/dev/null 2>&1; then
		rm -rf "$d"; mutate "$tmp/seed" "$d" "$((i + 100000))"
	fi
	if diff -r -q "$tmp/seed" "$d" >/dev/null 2>&1; then
		unmutated=$((unmutated + 1)); echo "unmutated: round $i"
	fi
	for cmd in "dump --summary" "report" "export --chrome"; do
		# shellcheck disable=SC2086
		if [ "$cmd" = "export --chrome" ]; then
			timeout 20 "$sg" export --chrome "$d" "$tmp/out.json" >/dev/null 2>"$tmp/err"
		else
			timeout 20 "$sg" $cmd "$d" >/dev/null 2>"$tmp/err"
		fi
		rc=$?
		# a sanitizer build (make OPT='-O1 -g -fsanitize=address,undefined') may report and
		# go on: its report is a crash all the same
		if grep -qE 'runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer' "$tmp/err"; then
			crashes=$((crashes + 1)); echo "sanitizer: round $i: scalegraph $cmd: $(grep -m1 -E 'runtime error:|ERROR:' "$tmp/err")"
		elif [ $rc -eq 124 ]; then
			hangs=$((hangs + 1)); echo "hang: round $i: scalegraph $cmd"
		elif [ $rc -ge 128 ]; then
			crashes=$((crashes + 1)); echo "crash: round $i: scalegraph $cmd: status $rc"
		elif [ $rc -ne 0 ] && ! [ -s "$tmp/err" ]; then
			silent=$((silent + 1)); echo "silent failure: round $i: scalegraph $cmd: status $rc"
		fi
	done
	rm -rf "$d"
done
[ $crashes -eq 0 ] && echo "PASS: no crash on $rounds damaged traces" ||
	echo "FAIL: crashes: $crashes crash(es) on $rounds damaged traces (seeds above)"
[ $hangs -eq 0 ] && echo "PASS: no hang on $rounds damaged traces" ||
	echo "FAIL: hangs: $hangs hang(s)"
[ $unmutated -eq 0 ] && echo "PASS: every round damaged the trace" ||
	echo "FAIL: $unmutated of $rounds rounds left the trace as it was"
[ $silent -eq 0 ] && echo "PASS: every failure says why" ||
	echo "FAIL: silent failures: $silent non-zero exit(s) with nothing on stderr"
