# bench/export.mk: speed of `scalegraph export` (Chrome JSON and OTF2) on a generated 10 M-event
# trace, both in one run; the program deletes what it writes. Link flags from analyzer/export.mk.
BENCHES += $(B)/bench/export_bench

$(B)/bench/export_bench: $(OBJ)/bench/export_bench.o $(EXPORT_LIB) $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXPORT_LINK)

# bench/otf2_read.c: the OTF2 library's global event reader with empty callbacks, the yardstick of
# the analyzer's speed (bench/analyzer-vs-otf2.sh times it beside `scalegraph report`).
BENCHES += bench/analyzer-vs-otf2.sh
$(B)/bench/otf2_read: $(OBJ)/bench/otf2_read.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXPORT_OTF2_LIBS)

bench/analyzer-vs-otf2.sh: $(B)/bench/otf2_read $(BIN)/scalegraph $(LIBEXEC)/scalegraph-report \
	$(LIBEXEC)/scalegraph-export $(BIN)/billiards-traced
