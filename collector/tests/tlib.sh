# tlib.sh — sourced by the collector's test scripts: a scratch directory removed on exit (in $T,
# also the calibration cache of the test), and the PASS/FAIL lines of tests/run-tests.sh.
#   . "$(dirname "$0")/tlib.sh" NAME
T=$(mktemp -d "/tmp/sg-test-$1.XXXXXX")
trap 'rm -rf "$T"' EXIT
export XDG_CACHE_HOME="$T/cache"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
# check NAME WHY COMMAND...: PASS when the command succeeds, else FAIL with WHY
check() { local n=$1 why=$2; shift 2; if "$@"; then pass "$n"; else fail "$n" "$why"; fi; }
