#!/bin/bash
# instrument-throughput.sh — feeds bench/instrument_throughput.c two inputs of at least 20 MB:
#   foreign: C nobody here wrote — the flex/bison parsers generated in the build tree (giant
#            tables and switches) and the example sources Debian ships (zlib, libpng, libpfm4);
#   project: this project's own hand-written sources (dense: short lines, many identifiers).
# The DESIGN.md target (>= 50 MB/s) is stated for both; the first is the brief's input.
set -eu
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
foreign=$(ls "$B"/gen/*/*.c /usr/share/doc/zlib1g-dev/examples/*.c \
	/usr/share/doc/libpng-dev/examples/*.c /usr/share/doc/libpfm4-dev/examples/*.c 2>/dev/null)
project=$(ls */*.c */*/*.c 2>/dev/null | grep -v '\.expected\.c$')
echo "== foreign C (generated parsers, Debian examples)"
# shellcheck disable=SC2086
"$B/bench/instrument_throughput" --min-mb 20 $foreign
echo "== this project's sources"
# shellcheck disable=SC2086
"$B/bench/instrument_throughput" --min-mb 20 $project | sed 's/^instrument-/instrument-project-/'
