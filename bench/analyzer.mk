# bench/analyzer.mk — the analyzer's speed: bench/analyzer_bench.c analyzes a generated 100 M-event
# trace end to end beside the plain record scan (the program deletes its trace), and
# bench/analyzer_open.c times an_exp_open on a real store, every trace read again vs the figures
# cached in the store (run by bench/analyzer-open.sh on a billiards-small series or SG_BENCH_EXP).
BENCHES += $(B)/bench/analyzer_bench bench/analyzer-open.sh
AN_BENCH_PROGS := $(B)/bench/analyzer_bench $(B)/bench/analyzer_open

$(OBJ)/bench/analyzer_%.o: bench/analyzer_%.c analyzer/analyzer.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ianalyzer -c $< -o $@

$(AN_BENCH_PROGS): $(B)/bench/%: $(OBJ)/bench/%.o $(LIBDIR)/libsganalyze.a \
		$(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(AN_LDLIBS)

bench/analyzer-open.sh: $(B)/bench/analyzer_open $(BIN)/scalegraph $(LIBEXEC)/scalegraph-run \
	$(BIN)/billiards-traced $(BIN)/billiards-seq
