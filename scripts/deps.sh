#!/bin/sh
# Installs the Debian packages of deps.txt that are missing. Runs apt-get as root, through sudo
# otherwise, and says clearly what to do when neither is possible. Idempotent and quiet when
# everything is there: `make run` and `make check` call it every time.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
pkgs=$(grep -v '^[[:space:]]*#' "$here/deps.txt" | grep -v '^[[:space:]]*$')
missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
if [ "$(id -u)" = 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO="sudo -n"
else
	echo "deps: error: missing packages:$missing" >&2
	echo "deps: error: not root and no password-less sudo; install them with:" >&2
	echo "  sudo apt-get install --no-install-recommends$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { echo "deps: error: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/tmp/scalegraph-deps.log 2>&1 || {
	tail -20 /tmp/scalegraph-deps.log >&2
	echo "deps: error: apt-get install failed (log: /tmp/scalegraph-deps.log)" >&2
	exit 1
}
echo "deps: done"
