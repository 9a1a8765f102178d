#!/bin/bash
# test-fuzz-trace.sh [SECONDS [CORPUS]] — runs the libFuzzer target "trace" (fuzz_trace.c: the
# trace reader and the analyzer of `scalegraph report DIR` on archives of a trace directory's
# files; no crash, no sanitizer report, no hang, no empty message) for SECONDS (default 15,
# what `make check` uses; `make fuzz` passes FUZZ_SECONDS and a corpus it keeps). The corpus is
# seeded from analyzer/tests/fuzz-corpus/trace/ (small real and crafted traces packed with
# fuzz_trace_pack.py). Prints PASS:/FAIL:/SKIP: lines (tests/run-tests.sh), then the execs per
# second and the corpus size reached.
set -u
cd "$(dirname "$0")/../.." || exit 1
export SG_FUZZ_ARTIFACT_HINT="unpack: analyzer/tests/fuzz_trace_pack.py unpack FILE DIR"
exec tests/fuzz-run.sh trace analyzer/tests/fuzz-corpus/trace "${1:-15}" "${2:-}" -max_len=24576
