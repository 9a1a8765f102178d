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
