# tlib.sh — sourced by tracelib's test scripts: checks that the programs they run are built
# (one FAIL line and exit 1 when one is not), makes a scratch directory $work removed on exit,
# and defines ok() for the PASS/FAIL lines of tests/run-tests.sh.
#   . "$(dirname "$0")/tlib.sh" NAME PROGRAM...
tlib_name=$1
shift
for f in "$@"; do
	if [ ! -x "$f" ]; then
		echo "FAIL: $tlib_name: $f not built"
		exit 1
	fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/sgtest.$tlib_name.XXXXXX")
trap "${KEEP:+:} rm -rf $work" EXIT

# ok NAME COND-EXIT-STATUS WHY: one result line
ok() {
	if [ "$2" -eq 0 ]; then echo "PASS: $1"; else echo "FAIL: $1: $3"; fi
}
