# analyzer/fuzz.mk — the libFuzzer target "trace": the trace reader and the analyzer behind
# `scalegraph report DIR` on inputs that are archives of a trace directory's files
# (analyzer/tests/fuzz_trace.c). Built with clang from the sources themselves, with the fuzz
# flags, like instrument/module.mk's target; `make check` runs it for 15 s on a fresh corpus
# seeded from analyzer/tests/fuzz-corpus/trace/, `make fuzz` for FUZZ_SECONDS on a corpus kept
# in $(B)/fuzz/corpus-trace (analyzer/tests/test-fuzz-trace.sh does both).
FUZZ_TRACE := $(B)/fuzz/fuzz-trace
# The reader's sources are those of libsgtread.a (tracelib/module.mk's SGR_OBJS), so that a
# file added to the reader is fuzzed without a change here.
FUZZ_TRACE_SRCS := analyzer/tests/fuzz_trace.c $(addprefix analyzer/,$(AN_LIB_SRCS)) \
	collector/store.c $(patsubst $(OBJ)/%.o,%.c,$(SGR_OBJS))
FUZZ_SECONDS ?= 600

$(FUZZ_TRACE): $(FUZZ_TRACE_SRCS) $(wildcard analyzer/*.h tracelib/*.h collector/store.h)
	@mkdir -p $(@D)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(CSTD) \
	  -Ianalyzer -Icollector -Itracelib -o $@ $(FUZZ_TRACE_SRCS) \
	  -lsqlite3 -lm -pthread

FUZZ_TESTS += analyzer/tests/test-fuzz-trace.sh
analyzer/tests/test-fuzz-trace.sh: $(FUZZ_TRACE)

fuzz:: $(FUZZ_TRACE)
	@B=$(B) analyzer/tests/test-fuzz-trace.sh $(FUZZ_SECONDS) $(B)/fuzz/corpus-trace
