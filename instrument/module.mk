# instrument/: the Flex/Bison source instrumenter and the `scalegraph cc` compiler wrapper.
# Generated scanner/parser sources go to $(B)/gen/instrument (bison's two outputs made by one
# run: a grouped target). The generated files compile with a few warnings relaxed (flex/bison
# skeleton code); our own sources use the strict list.
INST_GEN  := $(B)/gen/instrument
INST_SRCS := instrument/inst_tree.c instrument/inst_directive.c instrument/inst_edit.c \
             instrument/inst_select.c \
             instrument/inst_probe.c instrument/inst_filter.c instrument/inst_file.c \
             instrument/inst_live.c instrument/inst_cpp.c
INST_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(INST_SRCS)) \
             $(OBJ)/instrument/gen/inst_parser.o $(OBJ)/instrument/gen/inst_lexer.o
INST_LIB  := $(OBJ)/instrument/libinstrument.a
CFLAGS_instrument := -I$(INST_GEN) -Iinstrument -DSG_LIB_LINK_FLAGS='"$(SAN_FLAGS)"'
INST_GEN_CFLAGS := -Wno-sign-compare -Wno-unused-function -Wno-missing-prototypes \
                   -Wno-unused-but-set-variable -Wno-unused-parameter -Wno-redundant-decls

PROGRAMS += $(LIBEXEC)/scalegraph-instrument $(LIBEXEC)/scalegraph-cc $(LIBEXEC)/scalegraph-layout
TESTS    += $(B)/tests/instrument/test-inst-unit instrument/tests/test-golden.sh \
            instrument/tests/test-cc.sh instrument/tests/test-robust.sh \
            instrument/tests/test-examples.sh instrument/tests/test-layout.sh
FUZZ_TESTS += instrument/tests/test-fuzz.sh
CLEAN    +=

$(INST_GEN)/inst_parser.c $(INST_GEN)/inst_parser.h &: instrument/inst_parser.y
	@mkdir -p $(INST_GEN)
	bison -Wall -Werror --defines=$(INST_GEN)/inst_parser.h -o $(INST_GEN)/inst_parser.c $<

$(INST_GEN)/inst_lexer.c $(INST_GEN)/inst_lexer.h &: instrument/inst_lexer.l
	@mkdir -p $(INST_GEN)
	flex --header-file=$(INST_GEN)/inst_lexer.h -o $(INST_GEN)/inst_lexer.c $<

$(OBJ)/instrument/gen/%.o: $(INST_GEN)/%.c $(INST_GEN)/inst_parser.h $(INST_GEN)/inst_lexer.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_instrument) $(INST_GEN_CFLAGS) -c $< -o $@

$(INST_LIB): $(INST_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(LIBEXEC)/scalegraph-instrument: $(OBJ)/instrument/instrument_main.o $(INST_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^

$(LIBEXEC)/scalegraph-cc: $(OBJ)/instrument/cc_main.o $(OBJ)/instrument/cc_args.o \
                          $(OBJ)/instrument/cc_diag.o $(OBJ)/instrument/cc_sidecar.o \
                          $(OBJ)/instrument/cc_settle.o $(INST_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^

# `scalegraph layout PLAIN INSTRUMENTED`: which functions changed size (nm -S), a script
$(LIBEXEC)/scalegraph-layout: instrument/scalegraph-layout.sh
	@mkdir -p $(@D)
	install -m 755 $< $@

instrument/tests/test-layout.sh: $(LIBEXEC)/scalegraph-layout $(LIBEXEC)/scalegraph-cc \
	$(LIBDIR)/libsgtrace.so

$(B)/tests/instrument/test-inst-unit: $(OBJ)/instrument/tests/test_inst_unit.o $(INST_LIB)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka

# libFuzzer harness (clang): `make fuzz` runs it for FUZZ_SECONDS (default 600) on a corpus kept
# in $(B)/fuzz/corpus, seeded with the golden cases; `make check` runs it for 30 s on a fresh one
# (instrument/tests/test-fuzz.sh does both, then compiles the corpus inputs that are valid C).
INST_FUZZ := $(B)/fuzz/fuzz-instrument
FUZZ_SECONDS ?= 600
$(INST_FUZZ): instrument/tests/fuzz_instrument.c $(INST_SRCS) $(INST_GEN)/inst_parser.c \
              $(INST_GEN)/inst_lexer.c $(INST_GEN)/inst_parser.h $(INST_GEN)/inst_lexer.h \
              instrument/inst_int.h instrument/instrument.h
	@mkdir -p $(@D)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(CSTD) \
	  -I$(INST_GEN) -Iinstrument -o $@ instrument/tests/fuzz_instrument.c $(INST_SRCS) \
	  $(INST_GEN)/inst_parser.c $(INST_GEN)/inst_lexer.c
instrument/tests/test-fuzz.sh: $(INST_FUZZ)

# Every fuzz target adds its own `fuzz::` recipe (double-colon: one per target, all run).
fuzz:: $(INST_FUZZ) $(LIBEXEC)/scalegraph-instrument
	@B=$(B) instrument/tests/test-fuzz.sh $(FUZZ_SECONDS) $(B)/fuzz/corpus
