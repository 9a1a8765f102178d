#!/bin/bash
# test-fuzz-store.sh [SECONDS [CORPUS]] — runs the libFuzzer harness of the store's open path
# (fuzz_store.c: the input is experiment.db, opened as `scalegraph report` does) for SECONDS
# (default 15, `make check`; `make fuzz` passes FUZZ_SECONDS and $(B)/fuzz/corpus-store),
# seeded from collector/tests/fuzz-corpus/store (small real stores). Prints PASS:/FAIL:/SKIP:,
# then the execs per second and the corpus size.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec tests/fuzz-run.sh store collector/tests/fuzz-corpus/store "${1:-15}" "${2:-}" -max_len=262144
