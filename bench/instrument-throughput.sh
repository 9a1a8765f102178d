#!/bin/bash
# instrument-throughput.sh — feeds bench/instrument_throughput.c real C nobody here wrote plus
# our own: the flex/bison parsers generated in the build tree (giant tables and switches),
# the example sources Debian ships (zlib, libpng, libpfm4) and every .c file of this project,
# repeated to at least 20 MB.
set -eu
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
files=$(ls "$B"/gen/*/*.c /usr/share/doc/zlib1g-dev/examples/*.c \
	/usr/share/doc/libpng-dev/examples/*.c /usr/share/doc/libpfm4-dev/examples/*.c \
	*/*.c */*/*.c 2>/dev/null | grep -v '\.expected\.c$')
# shellcheck disable=SC2086
"$B/bench/instrument_throughput" --min-mb 20 $files
