#!/bin/bash
# tracelib-record.sh — runs bench/tracelib_record.c with a temporary trace directory (the
# events it records are written, as in a real run) and removes it afterwards.
set -eu
B=${B:-build}
dir=$(mktemp -d "${TMPDIR:-/tmp}/sgbench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
SG_TRACE_DIR="$dir/trace" "$B/bench/tracelib_record" "$@"
