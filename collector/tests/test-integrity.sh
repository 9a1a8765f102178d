#!/bin/bash
# test-integrity.sh — regression tests of issue 13 for the runner, the store and the spec, one
# (or more) per defect, each reproducing the case the issue reports: stale run directories
# merged into new runs (1), writes through planted links (2), orphans of a killed runner and of
# a timeout (3), a huge number in a command line (6), incomplete traces stored as ok (7),
# silent caps (9) and empty or misleading errors (10); and of issue 20's item 13 for the store: a
# damaged store (48 variants of flipped bytes) read without a word.
set -u
B=${B:-build}
SG="$B/bin/scalegraph"
SYNTH="$(cd "$B/collector-tests" && pwd)/synth"
TRACED="$(cd "$B/bin" && pwd)/billiards-traced"
. "$(dirname "$0")/tlib.sh" integrity

q() { sqlite3 "$1/experiment.db" "$2"; }
# the thread streams of a trace (the report's N counts the threads that worked, which a tiny
# run makes vary): a run merged with another's directory has more, or two processes
n_streams() { find "$1" -name 'thread.*.sgs' | wc -l; }
# processes whose command line holds $1 (not this script's own pgrep)
alive() { pgrep -f -- "$1" >/dev/null; }
cleanup_procs() { pkill -9 -f -- "$1" 2>/dev/null; true; }

# --- defect 1: stale run directories merged into new runs -------------------------------------
# a program that writes a trace of N threads, then fails until the file "ok" exists
cat >"$T/tprog.sh" <<EOS
#!/bin/sh
"$TRACED" --threads "\$1" --balls 16 --steps 2 >/dev/null 2>&1
[ -e "$T/ok" ] || exit 1
EOS
chmod +x "$T/tprog.sh"
cat >"$T/d1.sgx" <<EOS
program $T/tprog.sh {N}
sequential $T/tprog.sh 1
threads 4
repeat 150
timeout 20s
EOS
ref=$(mktemp -d "$T/ref.XXXX")
rmdir "$ref"
SG_TRACE_DIR="$ref" "$TRACED" --threads 2 --balls 16 --steps 2 >/dev/null 2>&1
want_n=$(n_streams "$ref")
# 300 failed runs (150 sequential, 150 at N=4), then --retry-failed at N=2 succeeding: the
# dropped runs' directories must all go, and no run may find another's files in its directory
"$SG" run "$T/d1.sgx" --no-analyze -o "$T/d1.exp" >"$T/d1a.out" 2>&1
failed=$(q "$T/d1.exp" "select count(*) from runs where status = 'failed'")
touch "$T/ok"
"$SG" run "$T/d1.sgx" --no-analyze --retry-failed --threads 2 -o "$T/d1.exp" >"$T/d1b.out" 2>&1
rc=$?
bad=""
for id in $(q "$T/d1.exp" "select id from runs where kind = 'par' and n_threads = 2 and status = 'ok' order by id"); do
	n=$(n_streams "$T/d1.exp/runs/$id/trace")
	[ "$n" = "$want_n" ] || bad="$bad run $id: $n streams;"
done
procs=$(for d in "$T"/d1.exp/runs/*/trace; do ls "$d" | grep -c '^proc\.'; done | sort -u | tr '\n' ' ')
nok=$(q "$T/d1.exp" "select count(*) from runs where status = 'ok' and kind = 'par' and n_threads = 2")
check defect1-stale-run-dirs-300-failed "rc=$rc failed=$failed ok(N=2)=$nok want $want_n streams:$(cut -c1-300 <<<"$bad") proc dirs per trace: $procs" \
	test $rc -eq 0 -a "$failed" -eq 300 -a "$nok" -eq 150 -a -z "$bad" -a "$procs" = "1 "

# deleting experiment.db and running again: the old directories are not reused
rm -f "$T/ok"
printf 'program %s {N}\nthreads 4\n' "$T/tprog.sh" >"$T/d1b.sgx"
touch "$T/ok"
"$SG" run "$T/d1b.sgx" --no-analyze -o "$T/d1b.exp" >/dev/null 2>&1
old=$(ls "$T/d1b.exp/runs" | sort -n | tail -1)
rm -f "$T/d1b.exp/experiment.db"*
"$SG" run "$T/d1b.sgx" --no-analyze --threads 2 -o "$T/d1b.exp" >"$T/d1c.out" 2>&1
rc=$?
ids=$(q "$T/d1b.exp" "select group_concat(id) from (select id from runs order by id)")
bad=""
for id in $(q "$T/d1b.exp" "select id from runs where n_threads = 2"); do
	n=$(n_streams "$T/d1b.exp/runs/$id/trace")
	[ "$n" = "$want_n" ] || bad="$bad run $id: $n streams;"
done
check defect1-deleted-db-reuses-dirs "rc=$rc old dirs up to $old, new ids $ids:$bad" \
	test $rc -eq 0 -a -n "$ids" -a -z "$bad" -a "${ids%%,*}" -gt "$old"

# --- defect 2: the runner writes through planted links ----------------------------------------
mkdir -p "$T/d2.exp/runs/1" "$T/victimdir"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/d2.exp/runs/1/stdout"
ln -s "$T/victim" "$T/d2.exp/runs/1/stderr"
ln -s "$T/victimdir" "$T/d2.exp/runs/1/trace"
printf 'program %s --threads 2 --balls 16 --steps 2\nthreads 2\n' "$TRACED" >"$T/d2.sgx"
"$SG" run "$T/d2.sgx" --no-analyze -o "$T/d2.exp" >"$T/d2.out" 2>&1
rc=$?
id=$(q "$T/d2.exp" "select id from runs where n_threads = 2")
modes=$(stat -c '%a' "$T/d2.exp/runs/$id" "$T/d2.exp/runs/$id/stdout" "$T/d2.exp/runs/$id/trace" 2>&1 | tr '\n' ' ')
check defect2-runner-symlinks "rc=$rc victim '$(cat "$T/victim")', victimdir '$(ls "$T/victimdir")', run $id modes $modes" \
	test $rc -eq 0 -a "$(cat "$T/victim")" = precious -a -z "$(ls "$T/victimdir")" -a "$id" != 1 \
	-a "$modes" = "700 600 700 " -a ! -L "$T/d2.exp/runs/$id/stdout"
# a planted runs/ link is refused, not followed
mkdir -p "$T/d2b.exp" "$T/elsewhere"
ln -s "$T/elsewhere" "$T/d2b.exp/runs"
msg=$("$SG" run "$T/d2.sgx" --no-analyze -o "$T/d2b.exp" 2>&1)
rc=$?
check defect2-runner-symlinks-runs-link "rc=$rc: $msg; elsewhere '$(ls "$T/elsewhere")'" \
	test $rc -eq 1 -a -z "$(ls "$T/elsewhere")" -a "${msg#*runs: not a directory}" != "$msg"

# --- defect 3: the runner owns its children -----------------------------------------------------
# kill -9 of the runner during a hanging run: the run dies with it (not after its timeout)
printf 'program %s --size 1 --threads {N} --hang-at 1 --base 0.0131\nthreads 1\ntimeout 5s\n' \
	"$SYNTH" >"$T/d3a.sgx"
"$SG" run "$T/d3a.sgx" --no-analyze -o "$T/d3a.exp" >/dev/null 2>&1 &
runner=$!
sleep 1
alive "base 0.0131"
before=$?
{ kill -9 $runner; wait $runner; } 2>/dev/null
sleep 0.5
alive "base 0.0131"
after=$?
cleanup_procs "base 0.0131"
check defect3-kill9-runner-no-orphan "running before the kill: $([ $before = 0 ] && echo yes || echo no), after: $([ $after = 0 ] && echo yes || echo no)" \
	test $before -eq 0 -a $after -ne 0

# a setsid grandchild does not escape the timeout kill
cat >"$T/d3b.sgx" <<EOS
program sh -c 'setsid sleep 71.31 & sleep 71.32'
threads 1
timeout 1s
EOS
"$SG" run "$T/d3b.sgx" --no-analyze -o "$T/d3b.exp" >/dev/null 2>&1
st=$(q "$T/d3b.exp" "select status from runs")
alive "sleep 71.31"
left=$?
cleanup_procs "sleep 71.3"
check defect3-setsid-grandchild-timeout "status $st, setsid grandchild $([ $left = 0 ] && echo 'still running' || echo gone)" \
	test "$st" = timeout -a $left -ne 0

# a grandchild outlives the runner's kill -9 (the parent-death signal reaches the child only):
# the resume finds it by its SCALEGRAPH_RUN marker and kills it before making the run again
cat >"$T/d3c.sgx" <<EOS
program sh -c 'sleep 72.41; echo done'
threads 1
timeout 3s
EOS
"$SG" run "$T/d3c.sgx" --no-analyze -o "$T/d3c.exp" >/dev/null 2>&1 &
runner=$!
sleep 1
{ kill -9 $runner; wait $runner; } 2>/dev/null
sleep 0.3
orphan=$(pgrep -f -- "sleep 72.41" | head -1)
"$SG" run "$T/d3c.sgx" --no-analyze -o "$T/d3c.exp" >"$T/d3c.out" 2>&1
gone=1
[ -n "$orphan" ] && kill -0 "$orphan" 2>/dev/null && gone=0
cleanup_procs "sleep 72.41"
check defect3-resume-kills-orphan "orphan '$orphan' gone=$gone; $(grep -m1 'killed' "$T/d3c.out")" \
	test -n "$orphan" -a $gone -eq 1 -a "$(grep -c 'killed 1 process(es) left running' "$T/d3c.out")" -eq 1

# --- defect 6: a number that does not fit ------------------------------------------------------
printf 'program /bin/echo {n}\nthreads 1\nparam n 5\nmethod big n=10^100\n' >"$T/d6.sgx"
msg=$("$SG" run "$T/d6.sgx" --no-analyze -o "$T/d6.exp" 2>&1)
rc=$?
check defect6-spec-argv-huge-number "rc=$rc: $msg" \
	test $rc -eq 1 -a ! -e "$T/d6.exp" -a "${msg#"$T/d6.sgx:4:14: error: method big: n = 1e+100"}" != "$msg"

# --- defect 7: a trace that lacks events is not an ok run ----------------------------------------
# the program's traced process is killed (no trailers: events lost, amount unknown), the
# program itself exits 0
cat >"$T/d7.sgx" <<EOS
program sh -c '"$TRACED" --threads 2 --balls 2000 --steps 1000000 >/dev/null 2>&1 & sleep 0.5; kill -9 \$!; exit 0'
threads 1
EOS
"$SG" run "$T/d7.sgx" -o "$T/d7.exp" >"$T/d7.out" 2>&1
row=$(q "$T/d7.exp" "select status || ': ' || coalesce(reason, '') from runs")
rep=$("$SG" report "$T/d7.exp" 2>&1)
check defect7-runner-marks-incomplete "run '$row'; report: $(grep -m1 incomplete <<<"$rep")" \
	test "${row#incomplete: }" != "$row" -a "${row#incomplete: }" != "" -a \
	"$(grep -c 'is incomplete, left out of the means' <<<"$rep")" -ge 1
# a full disk: the store on a 1 MB tmpfs, the trace fills it
mkdir -p "$T/full"
if mount -t tmpfs -o size=1m tmpfs "$T/full" 2>/dev/null; then
	printf 'program %s --threads 2 --balls 2000 --steps 3000\nthreads 2\n' "$TRACED" >"$T/d7b.sgx"
	"$SG" run "$T/d7b.sgx" --no-analyze -o "$T/full/x.exp" >"$T/d7b.out" 2>&1
	rc=$?
	row=$(q "$T/full/x.exp" "select status || ': ' || coalesce(reason, '') from runs" 2>&1)
	check defect7-full-disk-run-incomplete "rc=$rc run '$row'; $(tail -2 "$T/d7b.out")" \
		test "${row#incomplete: }" != "$row" -a "$(q "$T/full/x.exp" "select count(*) from runs where status = 'ok'")" -eq 0
	umount "$T/full"
else
	echo "SKIP: defect7-full-disk-run-incomplete: cannot mount a tmpfs here (not root, or no mount permission)"
fi

# --- defect 9: no silent caps ------------------------------------------------------------------
"$SG" run --threads 1 --repeat 70 --no-trace --no-analyze -o "$T/d9.exp" -- "$SYNTH" --size 1 \
	--threads {N} --base 0.001 >/dev/null 2>&1
links=$(q "$T/d9.exp" "select count(*) from point_runs")
runs=$(q "$T/d9.exp" "select count(*) from runs where status = 'ok'")
check defect9-point-runs-over-64 "$links links for $runs runs (each a repetition and T_seq)" \
	test "$links" -eq $((2 * runs)) -a "$runs" -eq 70
{ printf 'program /bin/true\nthreads 1\n'; head -c 1500000 /dev/zero | tr '\0' '#' | fold -w 100; echo; } >"$T/d9big.sgx"
msg=$("$SG" run "$T/d9big.sgx" -o "$T/d9big.exp" 2>&1)
rc=$?
check defect9-spec-size-limit "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/d9big.exp" -a \
	"${msg#*a spec may have at most 1048576}" != "$msg"
"$SG" run --threads 1 --no-trace --no-analyze -o "$T/d9v.exp" -- /bin/true >/dev/null 2>&1
q "$T/d9v.exp" "update meta set value = '999' where key = 'schema_version'"
m1=$("$SG" run --threads 1 --no-trace --no-analyze -o "$T/d9v.exp" -- /bin/true 2>&1)
r1=$?
m2=$("$SG" report "$T/d9v.exp" 2>&1)
r2=$?
check defect9-schema-version-999 "run rc=$r1: $m1; report rc=$r2: $m2; version now $(q "$T/d9v.exp" "select value from meta where key = 'schema_version'")" \
	test $r1 -eq 1 -a $r2 -ne 0 -a "${m1#*schema version 999 is newer}" != "$m1" -a \
	"${m2#*schema version 999 is newer}" != "$m2" -a \
	"$(q "$T/d9v.exp" "select value from meta where key = 'schema_version'")" = 999
c200=$(printf 'p%.0s' $(seq 1 200))
long="$T/$c200/$c200/$c200.exp"   # about 640 characters: within PATH_MAX, beyond SQLite's 512
msg=$("$SG" run --threads 1 --no-trace --no-analyze -o "$long" -- /bin/true 2>&1)
rc=$?
check defect9-long-experiment-path "rc=$rc: $msg" test $rc -eq 1 -a \
	"${msg#*SQLite opens databases of at most}" != "$msg"

# --- defect 10: errors that say what and where --------------------------------------------------
mkdir -p "$T/d10.exp"
head -c 4096 /dev/urandom >"$T/d10.exp/experiment.db"
msg=$("$SG" report "$T/d10.exp" 2>&1)
rc=$?
check defect10-damaged-store-message "rc=$rc: $msg" test $rc -ne 0 -a \
	"${msg%experiment.db: }" = "$msg" -a "${msg#*experiment.db: }" != "$msg"
{ printf 'program /bin/echo '; head -c 9000 /dev/zero | tr '\0' x; printf '\nthreads 1\n'; } >"$T/d10long.sgx"
msg=$("$SG" run "$T/d10long.sgx" -o "$T/d10long.exp" 2>&1)
rc=$?
check defect10-long-line-spec "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/d10long.exp" -a \
	"${msg#"$T/d10long.sgx:1:"*error: ?*}" != "$msg"
printf 'program /bin/echo {n} {N}\nthreads 1 2\nparam n 5\nmethod dz n=1/(N-2)\n' >"$T/d10dz.sgx"
msg=$("$SG" run "$T/d10dz.sgx" -o "$T/d10dz.exp" 2>&1)
rc=$?
check defect10-eval-error-located "rc=$rc: $msg" test $rc -eq 1 -a ! -e "$T/d10dz.exp" -a \
	"$msg" = "$T/d10dz.sgx:4:14: error: method dz at N = 2: division by zero"
mkdir -p "$T/d10dir.sgx"
msg=$("$SG" run "$T/d10dir.sgx" -o "$T/d10dir.exp" 2>&1)
rc=$?
check defect10-directory-as-spec "rc=$rc: $msg" test $rc -eq 1 -a \
	"$msg" = "$T/d10dir.sgx: error: a directory, not a spec file"
"$SG" run --threads 1 --no-trace --no-analyze -o "$T/d10m.exp" -- /bin/true >/dev/null 2>&1
q "$T/d10m.exp" "drop table metrics"
msg=$("$SG" report "$T/d10m.exp" 2>&1)
w1=$(grep -o 'cached figures not read: .*' <<<"$msg")
w2=$(grep -o 'metrics not written: .*' <<<"$msg")
check defect10-empty-warnings "'$w1' '$w2'" test -n "${w1#cached figures not read: }" -a \
	-n "${w2#metrics not written: }"
# the sanitizer build of the collector compiles (it failed on -Werror=format-truncation)
if [ -f collector/series.c ] && command -v make >/dev/null; then
	out=$(make -s B="$T/asan" OPT='-O1 -g -fsanitize=address,undefined' \
		"$T/asan/obj/collector/series.o" "$T/asan/obj/collector/spec.o" \
		"$T/asan/obj/collector/store.o" "$T/asan/obj/collector/runner.o" 2>&1)
	rc=$?
	check defect10-asan-build-format-truncation "rc=$rc: $(grep -m3 error <<<"$out")" test $rc -eq 0
else
	echo "SKIP: defect10-asan-build-format-truncation: not run from the source tree"
fi

# --- issue 20, item 13: a damaged store is read without a word -----------------------------------
# 48 damaged copies of a real store (8 runs, analyzed: every table and index has pages): one
# byte flipped in a leaf page of 6 tables (runs, points, point_runs, meta, metrics,
# run_counters) and of 6 indexes (the autoindexes of runs, points, point_runs and meta,
# metrics_by_point, metrics_by_run), at 4 places each: the page type, the first cell pointer,
# the first cell's header, and the cell count (tables) or a byte of the key (indexes, which
# only an index-to-row match sees). `scalegraph report` must refuse each, naming the file and
# SQLite's finding; none may be read as if whole. (A flipped byte inside a value no index
# covers is a different valid value: SQLite keeps no checksums, no check can see it;
# docs/store-schema.md, "Damage".)
printf 'program %s --threads {N} --balls {balls} --steps 2\nthreads 1 2\nrepeat 2\nparam balls 16\nmethod fixed balls=16\nmethod balls balls=16*N\n' \
	"$TRACED" >"$T/d20.sgx"
"$SG" run "$T/d20.sgx" -o "$T/d20.exp" >"$T/d20.out" 2>&1
rc=$?
sqlite3 "$T/d20.exp/experiment.db" "pragma wal_checkpoint(truncate)" >/dev/null
mkdir -p "$T/d20dmg"
python3 - "$T/d20.exp/experiment.db" "$T/d20dmg" >"$T/d20dmg.list" 2>&1 <<'EOPY'
import sqlite3, struct, sys
src, out = sys.argv[1], sys.argv[2]
con = sqlite3.connect('file:%s?mode=ro' % src, uri=True)
leaf = {}
for name, pageno, ptype in con.execute("select name, pageno, pagetype from dbstat order by pageno"):
    if ptype == 'leaf':
        leaf.setdefault(name, pageno)
ps = con.execute("pragma page_size").fetchone()[0]
con.close()
data = open(src, 'rb').read()
tables = ['runs', 'points', 'point_runs', 'meta', 'metrics', 'run_counters']
indexes = ['sqlite_autoindex_runs_1', 'sqlite_autoindex_points_1',
           'sqlite_autoindex_point_runs_1', 'sqlite_autoindex_meta_1', 'metrics_by_point',
           'metrics_by_run']
for name in tables + indexes:
    p = leaf[name]
    base = (p - 1) * ps
    hdr = base + (100 if p == 1 else 0)
    cell = base + struct.unpack('>H', data[hdr + 8:hdr + 10])[0]
    places = [('type', hdr), ('cellptr', hdr + 9), ('cellhdr', cell),
              ('ncells', hdr + 4) if name in tables else ('key', cell + 6)]
    for what, off in places:
        d = bytearray(data)
        d[off] ^= 0x5a
        tag = '%s.p%d.%s' % (name, p, what)
        open('%s/%s.db' % (out, tag), 'wb').write(d)
        print(tag)
EOPY
n_var=$(wc -l <"$T/d20dmg.list")
silent="" unnamed="" n_ok=0
for tag in $(cat "$T/d20dmg.list"); do
	d="$T/d20dmg/$tag.exp"
	mkdir -p "$d"
	cp -r "$T/d20.exp/runs" "$d/"
	cp "$T/d20dmg/$tag.db" "$d/experiment.db"
	msg=$("$SG" report "$d" 2>&1 >/dev/null)
	r=$?
	if [ $r -eq 0 ]; then
		silent="$silent $tag"
	elif ! grep -Eq "$d/experiment.db: (the store is damaged \(PRAGMA (integrity|quick)_check: .+\)|database disk image is malformed)" <<<"$msg"; then
		unnamed="$unnamed $tag: $(head -c 200 <<<"$msg");"
	else
		n_ok=$((n_ok + 1))
	fi
done
check defect20-damaged-store-variants "store rc=$rc; $n_ok of $n_var variants reported; read without a word:$silent; reported without naming the file and the damage:$(cut -c1-600 <<<"$unnamed")" \
	test $rc -eq 0 -a "$n_var" -eq 48 -a $n_ok -eq 48
# a runner resuming into a damaged store refuses, and writes nothing into it
bad=""
for tag in runs.p*.cellhdr sqlite_autoindex_runs_1.p*.key metrics_by_run.p*.key point_runs.p*.type; do
	d=$(echo "$T/d20dmg/"$tag.exp)
	[ -d "$d" ] || { bad="$bad $tag: no such variant;"; continue; }
	sum=$(md5sum <"$d/experiment.db")
	n_dirs=$(ls "$d/runs" | wc -l)
	msg=$("$SG" run "$T/d20.sgx" --no-analyze -o "$d" 2>&1)
	r=$?
	[ $r -eq 1 ] && grep -q "$d/experiment.db: .*nothing is written into it\|$d/experiment.db: database disk image is malformed" <<<"$msg" &&
		[ "$(md5sum <"$d/experiment.db")" = "$sum" ] && [ "$(ls "$d/runs" | wc -l)" = "$n_dirs" ] &&
		[ ! -s "$d/experiment.db-wal" ] || bad="$bad $tag: rc=$r $(head -c 300 <<<"$msg");"
done
check defect20-damaged-store-run-refused "$bad" test -z "$bad"
