# bench/export.mk: speed of `scalegraph export` (Chrome JSON and OTF2) on a generated 10 M-event
# trace, both in one run; the program deletes what it writes. Link flags from analyzer/export.mk.
BENCHES += $(B)/bench/export_bench

$(B)/bench/export_bench: $(OBJ)/bench/export_bench.o $(EXPORT_LIB) $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXPORT_LINK)
