# bench/layout.mk — issue 21 part 1: an instrumented build that costs nothing until it records.
# bench/layout-lu.sh builds bench/layout_lu.c (an LU-like kernel) plain, with `scalegraph cc`
# and with the call-site arguments of before, and times them interleaved at N = 1 and 2.
BENCHES += bench/layout-lu.sh
bench/layout-lu.sh: $(LIBEXEC)/scalegraph-cc $(LIBEXEC)/scalegraph-instrument \
	$(LIBEXEC)/scalegraph-layout $(LIBDIR)/libsgtrace.so
