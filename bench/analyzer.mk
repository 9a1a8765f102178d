# bench/analyzer.mk — the analyzer's speed (bench/analyzer_bench.c): a generated 100 M-event
# trace analyzed end to end beside the plain record scan; the program deletes its trace.
BENCHES += $(B)/bench/analyzer_bench

$(OBJ)/bench/analyzer_bench.o: bench/analyzer_bench.c analyzer/analyzer.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ianalyzer -c $< -o $@

$(B)/bench/analyzer_bench: $(OBJ)/bench/analyzer_bench.o $(LIBDIR)/libsganalyze.a \
		$(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(AN_LDLIBS)

# an_exp_open on a real store, every trace read again vs the figures cached in the store
# (bench/analyzer_open.c, run by bench/analyzer-open.sh on a billiards-small series or
# SG_BENCH_EXP).
BENCHES += bench/analyzer-open.sh
$(OBJ)/bench/analyzer_open.o: bench/analyzer_open.c analyzer/analyzer.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ianalyzer -c $< -o $@

$(B)/bench/analyzer_open: $(OBJ)/bench/analyzer_open.o $(LIBDIR)/libsganalyze.a \
		$(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(AN_LDLIBS)

bench/analyzer-open.sh: $(B)/bench/analyzer_open $(BIN)/scalegraph $(LIBEXEC)/scalegraph-run \
	$(BIN)/billiards-traced $(BIN)/billiards-seq
