# analyzer/: libsganalyze.a (the metric engine, header analyzer/analyzer.h, no X), and
# `scalegraph report`. Sources are listed explicitly: analyzer/export*.c and analyzer/export.mk
# belong to the exporters and are built by their own fragment.
CFLAGS_analyzer := -Ianalyzer -Icollector

AN_LIB_SRCS := an_metric.c an_run.c an_procs.c an_scan.c an_join.c an_sync.c an_budget.c an_objects.c an_source.c \
	an_timeline.c an_exp.c \
	an_exp_runs.c an_cache.c an_overhead.c \
	an_matrix.c an_sites.c an_report_text.c an_report_data.c
AN_LIB_OBJS := $(addprefix $(OBJ)/analyzer/,$(AN_LIB_SRCS:.c=.o))
AN_LDLIBS := $(LIBDIR)/libsganalyze.a $(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a \
	-lsqlite3 -lm $(LDLIBS_THREAD)

LIBS += $(LIBDIR)/libsganalyze.a
$(LIBDIR)/libsganalyze.a: $(AN_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

PROGRAMS += $(LIBEXEC)/scalegraph-report
$(LIBEXEC)/scalegraph-report: $(OBJ)/analyzer/report_main.o $(LIBDIR)/libsganalyze.a \
		$(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(AN_LDLIBS)

# Tests: cmocka programs on synthetic traces written with sgtrace_write.h.
AN_TESTDIR := $(B)/tests/analyzer
AN_CMOCKA := test_an_run test_an_budget test_an_exp test_an_throttle test_an_sites test_an_procs
TESTS += $(addprefix $(AN_TESTDIR)/,$(AN_CMOCKA))

$(addprefix $(AN_TESTDIR)/,$(AN_CMOCKA)): $(AN_TESTDIR)/%: $(OBJ)/analyzer/tests/%.o \
		$(OBJ)/analyzer/tests/an_synth.o $(LIBDIR)/libsganalyze.a $(LIBDIR)/libsgstore.a \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(AN_LDLIBS) -lcmocka

# The script needs the runner, the dispatcher and the traced billiards (collector/, cli/,
# examples/).
TESTS += analyzer/tests/test-report.sh
analyzer/tests/test-report.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-run \
	$(BIN)/scalegraph $(BIN)/billiards-traced $(BIN)/billiards-seq

# Runs without a measurement (failed, timed out) named with their reasons and stderr, and the
# tracing cost per point, on a real series (issue 14).
TESTS += analyzer/tests/test-failed-runs.sh
analyzer/tests/test-failed-runs.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-run \
	$(BIN)/scalegraph $(BIN)/billiards-traced

# The time budget on real programs with known budgets (analyzer/tests/programs/), built with
# scalegraph cc; and the books of every run of the demo store (make run's series).
TESTS += analyzer/tests/test-budget.sh analyzer/tests/test-books.sh
analyzer/tests/test-budget.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-cc \
	$(LIBEXEC)/scalegraph-dump $(BIN)/scalegraph $(LIBDIR)/libsgtrace.a $(LIBDIR)/libsgtrace.so \
	$(INCDIR)/sgtrace.h
analyzer/tests/test-books.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-run \
	$(BIN)/scalegraph $(BIN)/billiards-traced $(BIN)/billiards-seq

# The defects of issue 13 on damaged traces (analyzer/tests/an_mkbad.c writes each exact case):
# bounded time and memory whatever the ids, messages that say what is wrong, no undefined
# behaviour (the sanitizer build of the suite runs the same script).
TESTS += analyzer/tests/test-defects.sh
$(AN_TESTDIR)/an_mkbad: $(OBJ)/analyzer/tests/an_mkbad.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^
analyzer/tests/test-defects.sh: $(AN_TESTDIR)/an_mkbad $(LIBEXEC)/scalegraph-report $(BIN)/scalegraph

# Call sites per source (format 1.4) in the report, on a synthetic store whose waits are known
# per site (analyzer/tests/an_mksites.c writes it; the GUI's sites pane test uses it too).
TESTS += analyzer/tests/test-sites-report.sh
$(AN_TESTDIR)/an_mksites: $(OBJ)/analyzer/tests/an_mksites.o $(LIBDIR)/libsgstore.a \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lsqlite3 -lm $(LDLIBS_THREAD)
analyzer/tests/test-sites-report.sh: $(AN_TESTDIR)/an_mksites $(LIBEXEC)/scalegraph-report \
	$(BIN)/scalegraph

# Call sites end to end: a program whose waits per site are known by construction, built with
# scalegraph cc and run as a series (analyzer/tests/programs/sites_prog.c).
TESTS += analyzer/tests/test-sites-e2e.sh
analyzer/tests/test-sites-e2e.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-cc \
	$(LIBEXEC)/scalegraph-run $(BIN)/scalegraph $(LIBDIR)/libsgtrace.a $(LIBDIR)/libsgtrace.so \
	$(INCDIR)/sgtrace.h

# Every JSON string the tools write is valid UTF-8 (issue 20, item 11): a trace whose names and
# directory hold bytes that are not UTF-8 (analyzer/tests/an_mkname.c), through report --json
# and export --chrome, parsed by python3's strict json.
TESTS += analyzer/tests/test-json-utf8.sh
$(AN_TESTDIR)/an_mkname: $(OBJ)/analyzer/tests/an_mkname.o $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^
analyzer/tests/test-json-utf8.sh: $(AN_TESTDIR)/an_mkname $(AN_TESTDIR)/an_mksites \
	$(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-export \
	$(BIN)/scalegraph

# The run's N on real programs (issue 20, item 6): a serial main phase before 4 workers, and
# threads the trace does not record (analyzer/tests/programs/serial_main.c, untraced_*.c).
TESTS += analyzer/tests/test-n-choice.sh
analyzer/tests/test-n-choice.sh: $(LIBEXEC)/scalegraph-report $(LIBEXEC)/scalegraph-cc \
	$(BIN)/scalegraph $(LIBDIR)/libsgtrace.a $(LIBDIR)/libsgtrace.so $(INCDIR)/sgtrace.h

# The experiment's figures on the "N = 1 runs as T_seq" basis (issue 20, item 7): a synthetic
# store whose L, U, L(W,1) and checks are known by hand (analyzer/tests/an_mkn1.c).
TESTS += analyzer/tests/test-n1-identity.sh
$(AN_TESTDIR)/an_mkn1: $(OBJ)/analyzer/tests/an_mkn1.o $(LIBDIR)/libsgstore.a \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lsqlite3 -lm $(LDLIBS_THREAD)
analyzer/tests/test-n1-identity.sh: $(AN_TESTDIR)/an_mkn1 $(LIBEXEC)/scalegraph-report \
	$(BIN)/scalegraph

# Reports byte-identical on committed traces (issue 21: the analysis got faster, its figures
# did not move): analyzer/tests/golden/NAME/ and NAME.out, printed by an_golden as on 2 CPUs.
TESTS += analyzer/tests/test-golden.sh
$(AN_TESTDIR)/an_golden: $(OBJ)/analyzer/tests/an_golden.o $(LIBDIR)/libsganalyze.a \
		$(LIBDIR)/libsgstore.a $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(AN_LDLIBS)
analyzer/tests/test-golden.sh: $(AN_TESTDIR)/an_golden
