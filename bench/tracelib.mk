# bench/tracelib.mk — libsgtrace's recording cost (bench/tracelib_record.c), run through
# bench/tracelib-record.sh, which gives it a temporary trace directory.
BENCH_TRACELIB := $(B)/bench/tracelib_record
BENCHES += bench/tracelib-record.sh

bench/tracelib-record.sh: $(BENCH_TRACELIB)

# Linked like an instrumented program: the static libsgtrace and its counter libraries.
$(BENCH_TRACELIB): $(OBJ)/bench/tracelib_record.o $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(SGTRACE_COUNTER_LIBS) $(LDLIBS_THREAD)

# What the off-CPU record costs per context switch and on the hot path (bench/offcpu-cost.sh).
BENCHES += bench/offcpu-cost.sh
$(B)/bench/switch_cost: $(OBJ)/bench/switch_cost.o $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(SGTRACE_COUNTER_LIBS) $(LDLIBS_THREAD)
bench/offcpu-cost.sh: $(B)/bench/switch_cost $(BENCH_TRACELIB) $(B)/bench/analyzer_bench \
	$(BIN)/billiards-traced

# Bytes per event of the trace format beside the recording cost (bench/tracelib-compact.sh):
# billiards and a SPLASH-like lock/barrier-heavy program (bench/lock_heavy.c) written with
# 16-byte records (SG_TRACE_COMPACT=0) and compact (format 1.6).
BENCHES += bench/tracelib-compact.sh
$(B)/bench/lock_heavy: $(OBJ)/bench/lock_heavy.o $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(SGTRACE_COUNTER_LIBS) $(LDLIBS_THREAD)
bench/tracelib-compact.sh: $(B)/bench/lock_heavy $(BENCH_TRACELIB) $(BIN)/billiards-traced \
	$(LIBEXEC)/scalegraph-dump
# The encoding alone on a given trace: bytes/event, encode and decode ns/event.
$(B)/bench/compact_codec: $(OBJ)/bench/compact_codec.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD)
bench/tracelib-compact.sh: $(B)/bench/compact_codec
# The recording cost timed with the thread's CPU clock (robust on a shared machine).
$(B)/bench/record_cost: $(OBJ)/bench/record_cost.o $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(SGTRACE_COUNTER_LIBS) $(LDLIBS_THREAD)
bench/tracelib-compact.sh: $(B)/bench/record_cost
