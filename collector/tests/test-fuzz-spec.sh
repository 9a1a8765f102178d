#!/bin/bash
# test-fuzz-spec.sh [SECONDS [CORPUS]] — runs the libFuzzer harness of the spec parser and
# evaluator (fuzz_spec.c) for SECONDS (default 15, what `make check` uses; `make fuzz` passes
# FUZZ_SECONDS and the corpus it keeps, $(B)/fuzz/corpus-spec), seeded from
# collector/tests/fuzz-corpus/spec. Prints PASS:/FAIL:/SKIP: (tests/run-tests.sh), then the
# execs per second and the corpus size.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec tests/fuzz-run.sh spec collector/tests/fuzz-corpus/spec "${1:-15}" "${2:-}" -max_len=4096 -dict=collector/tests/fuzz_spec.dict
