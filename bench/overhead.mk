# bench/overhead.mk — what tracing costs call-heavy programs, and that overhead control costs
# nothing where it does not act (issue 14): bench/callheavy.sh, bench/hotpath.sh. Both build
# their programs themselves with `scalegraph cc`; bench/bench-lib.sh builds the "before" tree.
BENCHES += bench/callheavy.sh bench/hotpath.sh
bench/callheavy.sh bench/hotpath.sh: $(BIN)/scalegraph $(LIBEXEC)/scalegraph-cc $(LIBDIR)/libsgtrace.a
