# bench/load.mk — the analyzer and `dump` under load (bench/load.sh): the same number of events
# in 4, 256 and 1024 threads (bench/load_trace.c writes the traces), `scalegraph report` and
# `scalegraph dump --summary` timed on each, wall time and peak RSS, with the ratios to 4
# threads. `make bench` runs it on 4 M events; `bench/load.sh --events 100000000` is the full one.
BENCHES += bench/load.sh
LOAD_TRACE := $(B)/bench/load_trace

$(LOAD_TRACE): $(OBJ)/bench/load_trace.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^

bench/load.sh: $(LOAD_TRACE) $(BIN)/scalegraph $(LIBEXEC)/scalegraph-report \
	$(LIBEXEC)/scalegraph-dump
