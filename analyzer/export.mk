# analyzer/export.mk: `scalegraph export --otf2 | --chrome` (included by the top Makefile after
# every module.mk). The exporters need only the trace reader libsgtread.a and libotf2.
EXPORT_OTF2_LIBS := $(shell pkg-config --libs otf2 2>/dev/null || echo -lotf2)
EXPORT_LIB_OBJS := $(addprefix $(OBJ)/analyzer/,export_walk.o export_map.o export_locate.o \
	export_chrome.o export_otf2.o)
EXPORT_LIB := $(OBJ)/analyzer/libsgexport.a
# What a program using export.h links after its objects.
EXPORT_LINK := $(EXPORT_LIB) $(LIBDIR)/libsgtread.a $(EXPORT_OTF2_LIBS)

PROGRAMS += $(LIBEXEC)/scalegraph-export

$(EXPORT_LIB): $(EXPORT_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBEXEC)/scalegraph-export: $(OBJ)/analyzer/export_main.o $(EXPORT_LIB) $(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXPORT_LINK)
# Tests: a cmocka program (walk, map, locate on synthetic traces) and a script that checks the
# files with otf2-print and python3's json module against `scalegraph dump --summary`.
EXPORT_TESTDIR := $(B)/tests/export
TESTS += $(EXPORT_TESTDIR)/test_export analyzer/tests/test-export.sh

$(EXPORT_TESTDIR)/test_export: $(OBJ)/analyzer/tests/test_export.o $(EXPORT_LIB) \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(EXPORT_LINK) -lcmocka

$(EXPORT_TESTDIR)/test_export_mktrace: $(OBJ)/analyzer/tests/test_export_mktrace.o \
		$(LIBDIR)/libsgtread.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^

analyzer/tests/test-export.sh: $(LIBEXEC)/scalegraph-export analyzer/tests/test_export_check.py \
	analyzer/tests/test_export_check_12.py $(LIBEXEC)/scalegraph-dump \
	$(EXPORT_TESTDIR)/test_export_mktrace $(BIN)/scalegraph $(BIN)/billiards-traced \
	$(BIN)/billiards-seq $(LIBEXEC)/scalegraph-run $(LIBEXEC)/scalegraph-cc $(LIBDIR)/libsgtrace.a \
	$(INCDIR)/sgtrace.h
$(EXPORT_TESTDIR)/test_export: | $(EXPORT_TESTDIR)/test_export_mktrace
