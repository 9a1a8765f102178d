# tracelib/: libsgtrace (the recorder linked into measured programs), libsgtread (reader and
# writer of trace files), `scalegraph dump`, and their tests.
#
# The counter hooks of sg_counters_int.h come from $(SGTRACE_COUNTER_SRCS), which
# collector/module.mk sets (it is included after this file, hence the deferred `=` and the
# secondary expansion below); without it tracelib/counters_none.c is built in. Counter sources
# are compiled here, into $(OBJ)/sgtc/, with libsgtrace's flags (-fPIC, hidden visibility);
# extra link flags they need go in $(SGTRACE_COUNTER_LIBS).
CFLAGS_tracelib := -fPIC -fvisibility=hidden

SGF_OBJS := $(OBJ)/tracelib/sgf.o $(OBJ)/tracelib/sgf_names.o $(OBJ)/tracelib/sgt_io.o
SGT_CORE_OBJS := $(addprefix $(OBJ)/tracelib/,sgt_env.o sgt_clock.o sgt_registry.o sgt_throttle.o \
	sgt_thread.o sgt_core.o sgt_wrap.o sgt_probe.o sgt_sched.o sgt_end.o) $(SGF_OBJS)
SGT_COUNTER_OBJS = $(patsubst %.c,$(OBJ)/sgtc/%.o,$(or $(SGTRACE_COUNTER_SRCS),tracelib/counters_none.c))
# the trace root and process directory made safely, the open buffer files (kill, full disk)
SGT_CORE_OBJS += $(OBJ)/tracelib/sgt_dir.o $(OBJ)/tracelib/sgt_obuf.o
SGT_OBJS = $(SGT_CORE_OBJS) $(SGT_COUNTER_OBJS)
SGR_OBJS := $(addprefix $(OBJ)/tracelib/,sgr_open.o sgr_defs.o sgr_stream.o sgr_procs.o \
	sgw_write.o) \
	$(SGF_OBJS)
# what a stream's open buffer file says: a write error, a killed writer's last chunk
SGR_OBJS += $(OBJ)/tracelib/sgr_status.o
# The reader's files for opening trace files safely and for checking clock pairs.
SGR_OBJS += $(OBJ)/tracelib/sgr_file.o $(OBJ)/tracelib/sgr_clock.o
# call sites known by return address resolved through the program's line table (format 1.6)
SGR_OBJS += $(OBJ)/tracelib/sgr_resolve.o
# the JSON string writer every tool that writes JSON shares
SGR_OBJS += $(OBJ)/tracelib/sgr_json.o

LIBS     += $(LIBDIR)/libsgtrace.a $(LIBDIR)/libsgtrace.so $(LIBDIR)/libsgtread.a
HEADERS  += $(addprefix $(INCDIR)/,sgtrace.h sgtrace_format.h sgtrace_read.h sgtrace_write.h)
PROGRAMS += $(LIBEXEC)/scalegraph-dump

$(OBJ)/sgtc/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_tracelib) -c $< -o $@

# libsgtrace.a holds one object: every recorder object linked together (-r), with each hidden
# symbol made local, so that a program linked statically sees only the sg_* names, exactly as
# with libsgtrace.so (tracelib/tests/test-visibility.sh checks both).
OBJCOPY ?= objcopy
.SECONDEXPANSION:
$(OBJ)/tracelib/libsgtrace-all.o: $$(SGT_OBJS)
	$(CC) -nostdlib -r -o $@ $^
	$(OBJCOPY) --localize-hidden $@

$(LIBDIR)/libsgtrace.a: $(OBJ)/tracelib/libsgtrace-all.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBDIR)/libsgtrace.so: $$(SGT_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libsgtrace.so -o $@ $^ $(LDLIBS_THREAD) $(SGTRACE_COUNTER_LIBS)

$(LIBDIR)/libsgtread.a: $(SGR_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBEXEC)/scalegraph-dump: $(OBJ)/tracelib/dump.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD)

# Tests: cmocka programs in $(B)/tests/tracelib/, and scripts.
SGT_TESTDIR := $(B)/tests/tracelib
SGT_CMOCKA_TESTS := test_format test_rw test_env test_wrappers test_fork test_crash test_stress \
	test_hash test_compact
TESTS += $(addprefix $(SGT_TESTDIR)/,$(SGT_CMOCKA_TESTS)) \
	tracelib/tests/test-visibility.sh tracelib/tests/test-dump.sh tracelib/tests/test-env.sh \
	tracelib/tests/test-lost.sh tracelib/tests/test-compact.sh
# Helpers the tests run.
SGT_TEST_HELPERS := $(SGT_TESTDIR)/crashee $(SGT_TESTDIR)/mktrace $(SGT_TESTDIR)/failee \
	$(SGT_TESTDIR)/throttlee
TESTS_DEPS_tracelib := $(SGT_TEST_HELPERS) $(LIBEXEC)/scalegraph-dump $(LIBDIR)/libsgtrace.so

# Programs that record link the static libsgtrace; tools link only libsgtread. test_env calls
# the (hidden) environment parser, so it links that object itself.
SGT_TEST_RECORDS := test_wrappers test_fork test_stress test_hash crashee failee throttlee
$(SGT_TESTDIR)/test_env: $(OBJ)/tracelib/sgt_env.o
$(addprefix $(SGT_TESTDIR)/,$(SGT_CMOCKA_TESTS) crashee mktrace failee throttlee): $(SGT_TESTDIR)/%: \
		$(OBJ)/tracelib/tests/%.o $(OBJ)/tracelib/tests/tutil.o $(LIBDIR)/libsgtread.a \
		$(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) \
	  $(if $(filter $*,$(SGT_TEST_RECORDS)),$(LIBDIR)/libsgtrace.a $(SGTRACE_COUNTER_LIBS)) \
	  $(LIBDIR)/libsgtread.a -lcmocka $(LDLIBS_THREAD)

# Every tracelib test needs the helpers and the dump tool built first.
$(addprefix $(SGT_TESTDIR)/,$(SGT_CMOCKA_TESTS)): | $(TESTS_DEPS_tracelib)
tracelib/tests/test-visibility.sh tracelib/tests/test-dump.sh tracelib/tests/test-env.sh \
	tracelib/tests/test-lost.sh tracelib/tests/test-compact.sh: $(TESTS_DEPS_tracelib)

# Issue 13's writer defects, each a test named after it: planted links and foreign trace roots
# (2), a full disk (7), a SIGKILL with unflushed buffers (11).
SGT_DEFECT_TESTS := tracelib/tests/test-defect2-symlink.sh tracelib/tests/test-defect7-full-disk.sh \
	tracelib/tests/test-defect11-kill.sh
TESTS += $(SGT_DEFECT_TESTS)
$(SGT_DEFECT_TESTS): $(TESTS_DEPS_tracelib)
# The reader made total (issue 13): regression tests on traces damaged in ways their checksums
# cannot see (mkbad.c crafts them with the writer API), FIFOs and directories in place of
# files, duplicated chunks, streams of killed writers.
$(SGT_TESTDIR)/mkbad: $(OBJ)/tracelib/tests/mkbad.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD)
TESTS += tracelib/tests/test-reader-defects.sh
tracelib/tests/test-reader-defects.sh: $(SGT_TESTDIR)/mkbad $(SGT_TESTDIR)/mktrace \
	$(LIBEXEC)/scalegraph-dump $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-export \
	$(BIN)/scalegraph
# Issue 14: function probes under overhead control (the rule, the budget) and a quiet library.
SGT_ISSUE14_TESTS := tracelib/tests/test-throttle.sh tracelib/tests/test-quiet.sh
TESTS += $(SGT_ISSUE14_TESTS)
$(SGT_ISSUE14_TESTS): $(TESTS_DEPS_tracelib)
# mkbig.c: a large synthetic trace at many threads, for measuring the readers by hand
# (docs/tracelib.md "Reading traces").
$(SGT_TESTDIR)/mkbig: $(OBJ)/tracelib/tests/mkbig.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD)
# Issue 15: call sites of sync calls, end to end (sitee.c built by the script with scalegraph cc).
TESTS += tracelib/tests/test-sites.sh
tracelib/tests/test-sites.sh: $(TESTS_DEPS_tracelib) $(LIBEXEC)/scalegraph-cc $(LIBDIR)/libsgtrace.a \
	$(INCDIR)/sgtrace.h
# Issue 20: programs that end their own way (main's pthread_exit, _exit, _Exit, exec, a forked
# child's _exit; endee.c built by the script with scalegraph cc, and run under scalegraph run
# too), and outputs nobody else can redirect (a set-uid copy, links in SG_TRACE_DIR).
SGT_ISSUE20_TESTS := tracelib/tests/test-defect20-ends.sh tracelib/tests/test-defect20-outputs.sh
TESTS += $(SGT_ISSUE20_TESTS)
$(SGT_ISSUE20_TESTS): $(TESTS_DEPS_tracelib) $(LIBEXEC)/scalegraph-cc $(LIBDIR)/libsgtrace.a \
	$(INCDIR)/sgtrace.h $(BIN)/scalegraph $(LIBEXEC)/scalegraph-run \
	$(LIBEXEC)/scalegraph-calibrate $(LIBEXEC)/sg-calib-probe
