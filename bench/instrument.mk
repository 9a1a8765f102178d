# bench/instrument.mk — the instrumenter's figures (DESIGN.md): throughput on a large C input
# (bench/instrument_throughput.c, fed by bench/instrument-throughput.sh) and the overhead of
# billiards built by `scalegraph cc` against the plain build (bench/instrument-overhead.sh).
BENCH_INST_TP := $(B)/bench/instrument_throughput
BENCHES += bench/instrument-throughput.sh bench/instrument-overhead.sh bench/instrument-overhead-grain.sh \
           bench/instrument-callheavy.sh

bench/instrument-throughput.sh: $(BENCH_INST_TP)
bench/instrument-overhead.sh bench/instrument-overhead-grain.sh bench/instrument-callheavy.sh: $(LIBEXEC)/scalegraph-cc $(BIN)/billiards $(LIBDIR)/libsgtrace.a $(BIN)/jacobi

# Its own compile rule: it needs instrument/'s header directory.
$(OBJ)/bench/instrument_throughput.o: bench/instrument_throughput.c instrument/instrument.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Iinstrument -c $< -o $@

$(BENCH_INST_TP): $(OBJ)/bench/instrument_throughput.o $(INST_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^
