# collector/: the counter code linked into libsgtrace, `scalegraph calibrate`, `scalegraph run`
# and the experiment store library (libsgstore.a, header collector/store.h).

# Compiled into libsgtrace by tracelib/module.mk (hidden visibility); libsgtrace links -lpfm.
SGTRACE_COUNTER_SRCS := collector/counters.c collector/offcpu.c collector/swrec.c collector/pmu.c \
	collector/pmu_open.c
SGTRACE_COUNTER_LIBS := -lpfm

CFLAGS_collector := -Icollector

LIBS += $(LIBDIR)/libsgstore.a
$(LIBDIR)/libsgstore.a: $(OBJ)/collector/store.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

COLL_CALIB_OBJS := $(addprefix $(OBJ)/collector/,calib.o calib_record.o fsutil.o pmu.o pmu_open.o)
COLL_RUN_OBJS := $(addprefix $(OBJ)/collector/,run_main.o series.o search.o runner.o progress.o \
	tmeasure.o spec.o expr.o lookup.o) $(COLL_CALIB_OBJS)

PROGRAMS += $(LIBEXEC)/scalegraph-calibrate $(LIBEXEC)/scalegraph-run $(LIBEXEC)/sg-calib-probe

# The helper by which calibrate measures the cost of a trace record (calib_record.c): a
# program linked with libsgtrace as an instrumented one is. Not named scalegraph-*, so the
# dispatcher does not offer it as a command.
$(LIBEXEC)/sg-calib-probe: $(OBJ)/collector/calib_probe.o $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIBDIR)/libsgtrace.a $(SGTRACE_COUNTER_LIBS) $(LDLIBS_THREAD) -lm
$(OBJ)/collector/calib_probe.o: $(INCDIR)/sgtrace.h

$(LIBEXEC)/scalegraph-calibrate: $(OBJ)/collector/calibrate_main.o $(COLL_CALIB_OBJS) \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lpfm -pthread -lm

$(LIBEXEC)/scalegraph-run: $(COLL_RUN_OBJS) $(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(COLL_RUN_OBJS) $(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a \
		-lsqlite3 -lpfm -pthread -lm

# Test helpers and tests.
COLL_TEST_BIN := $(B)/collector-tests
$(COLL_TEST_BIN)/synth: $(OBJ)/collector/tests/synth.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^

COLL_CMOCKA := test_pmu test_spec test_spec_fuzz test_search test_store test_tmeasure
TESTS += $(addprefix $(COLL_TEST_BIN)/,$(COLL_CMOCKA)) collector/tests/test-calibrate.sh \
	collector/tests/test-run.sh collector/tests/test-counters.sh \
	collector/tests/test-billiards.sh collector/tests/test-integrity.sh \
	collector/tests/test-run-edges.sh collector/tests/test-run-outputs.sh \
	collector/tests/test-plain.sh

$(COLL_TEST_BIN)/test_pmu: $(OBJ)/collector/tests/test_pmu.o $(OBJ)/collector/pmu.o
$(COLL_TEST_BIN)/test_spec: $(OBJ)/collector/tests/test_spec.o $(OBJ)/collector/spec.o \
	$(OBJ)/collector/expr.o
$(COLL_TEST_BIN)/test_spec_fuzz: $(OBJ)/collector/tests/test_spec_fuzz.o $(OBJ)/collector/spec.o \
	$(OBJ)/collector/expr.o
$(COLL_TEST_BIN)/test_search: $(OBJ)/collector/tests/test_search.o $(OBJ)/collector/search.o
$(COLL_TEST_BIN)/test_store: $(OBJ)/collector/tests/test_store.o $(LIBDIR)/libsgstore.a
$(COLL_TEST_BIN)/test_tmeasure: $(OBJ)/collector/tests/test_tmeasure.o $(OBJ)/collector/tmeasure.o \
	$(LIBDIR)/libsgtread.a
$(addprefix $(COLL_TEST_BIN)/,$(COLL_CMOCKA)):
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka -lsqlite3 -lm

# The scripts need the programs and helpers built (the dispatcher, the billiards examples and
# scalegraph dump come from cli/, examples/ and tracelib/).
collector/tests/test-run.sh collector/tests/test-calibrate.sh collector/tests/test-counters.sh \
collector/tests/test-billiards.sh collector/tests/test-integrity.sh collector/tests/test-run-edges.sh \
collector/tests/test-run-outputs.sh: $(LIBEXEC)/scalegraph-run $(LIBEXEC)/scalegraph-calibrate $(LIBEXEC)/sg-calib-probe \
	$(COLL_TEST_BIN)/synth $(BIN)/scalegraph $(BIN)/billiards $(BIN)/billiards-seq \
	$(BIN)/billiards-traced $(LIBEXEC)/scalegraph-dump

# libFuzzer harnesses (clang) of the spec parser+evaluator and of the store's open path as the
# analyzer takes it: `make check` runs each for 15 s on a fresh corpus seeded from
# collector/tests/fuzz-corpus/NAME, `make fuzz` for FUZZ_SECONDS on $(B)/fuzz/corpus-NAME.
COLL_SGR_SRCS = $(patsubst $(OBJ)/%.o,%.c,$(SGR_OBJS))
COLL_FUZZ_CC := clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	$(CSTD) -I$(B)/include -Itracelib -Icollector -Ianalyzer
$(B)/fuzz/fuzz-spec: collector/tests/fuzz_spec.c collector/spec.c collector/expr.c collector/spec.h \
	collector/expr.h
	@mkdir -p $(@D)
	$(COLL_FUZZ_CC) -o $@ collector/tests/fuzz_spec.c collector/spec.c collector/expr.c -lm
$(B)/fuzz/fuzz-store: collector/tests/fuzz_store.c collector/store.c collector/store.h \
	$$(addprefix analyzer/,$$(AN_LIB_SRCS)) $$(COLL_SGR_SRCS) $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(COLL_FUZZ_CC) -o $@ collector/tests/fuzz_store.c collector/store.c \
		$(addprefix analyzer/,$(AN_LIB_SRCS)) $(COLL_SGR_SRCS) -lsqlite3 -lm -pthread
FUZZ_TESTS += collector/tests/test-fuzz-spec.sh collector/tests/test-fuzz-store.sh
collector/tests/test-fuzz-spec.sh: $(B)/fuzz/fuzz-spec
collector/tests/test-fuzz-store.sh: $(B)/fuzz/fuzz-store
fuzz:: $(B)/fuzz/fuzz-spec
	@B=$(B) collector/tests/test-fuzz-spec.sh $(FUZZ_SECONDS) $(B)/fuzz/corpus-spec
fuzz:: $(B)/fuzz/fuzz-store
	@B=$(B) collector/tests/test-fuzz-store.sh $(FUZZ_SECONDS) $(B)/fuzz/corpus-store
