# scalegraph — non-recursive GNU make. Each stage adds its targets in <stage>/module.mk:
#   PROGRAMS  += binaries built by `all`
#   TESTS     += test programs/scripts run by `make check` (tests/run-tests.sh protocol)
#   BENCHES   += bench programs/scripts run by `make bench`
# Generated sources and objects go to build/ (never committed).
.DEFAULT_GOAL := all
include config.mk

PROGRAMS :=
LIBS     :=
TESTS    :=
FUZZ_TESTS :=
BENCHES  :=
HEADERS  :=
CLEAN    :=

# Each stage's module.mk first (in pipeline order), then any further <stage>/*.mk fragments
# (e.g. bench/tracelib.mk, analyzer/export.mk) so that parts written separately own their rules.
MODULES := cli tracelib examples instrument collector analyzer gui bench
include $(wildcard $(addsuffix /module.mk,$(MODULES)))
include $(filter-out %/module.mk,$(wildcard $(addsuffix /*.mk,$(MODULES))))

# The libFuzzer targets (FUZZ_TESTS: each briefly on its seed corpus) are built by their own
# clang rules with ASan and UBSan whatever the build, so the sanitizer stage does not run them a
# second time (it had: 2 minutes of the same fuzzing).
ifeq ($(SAN_FLAGS),)
TESTS += $(FUZZ_TESTS)
endif
# The call-heavy program of issue 14: what overhead control throttles, sync events complete.
TESTS += tests/test-callheavy.sh
# Last: the whole suite again under AddressSanitizer and UBSan (check-sanitize, below).
TESTS += tests/test-sanitize.sh

# Compile rule shared by all modules: src/x/y.c -> build/obj/x/y.o
$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$*))) -c $< -o $@

# Public headers are copied to build/include (the layout `scalegraph cc` expects).
$(INCDIR)/%.h: tracelib/%.h
	@mkdir -p $(@D)
	cp $< $@

.PHONY: all deps run check check-sanitize bench install clean fuzz
all: $(HEADERS) $(LIBS) $(PROGRAMS)

deps:
	@./scripts/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	@B=$(B) ./scripts/run-demo.sh

check: deps
	@$(MAKE) --no-print-directory all $(TESTS)
	@B=$(B) ./tests/run-tests.sh $(TESTS)

# The whole suite again, built with AddressSanitizer and UBSan (any report fails its test) in a
# build tree of its own. tests/sanitize.supp lists the leaks of system libraries it ignores;
# fatal signals are left to the programs (libsgtrace's flush-on-crash handlers are under test).
SAN_B   := $(B)-san
SAN_OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined
check-sanitize: deps
	@ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_abort=0:allocator_may_return_null=1 \
	 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/sanitize.supp:print_suppressions=0 \
	 UBSAN_OPTIONS=print_stacktrace=1 \
	 $(MAKE) --no-print-directory B=$(SAN_B) OPT='$(SAN_OPT)' check

bench: deps
	@$(MAKE) --no-print-directory all $(BENCHES)
	@B=$(B) ./bench/run-bench.sh $(BENCHES)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/libexec/scalegraph
	install -m 755 $(BIN)/* $(DESTDIR)$(PREFIX)/bin/
	if [ -n "$$(ls $(LIBEXEC) 2>/dev/null)" ]; then install -m 755 $(LIBEXEC)/* $(DESTDIR)$(PREFIX)/libexec/scalegraph/; fi
	cp -P $(LIBDIR)/lib* $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(INCDIR)/*.h $(DESTDIR)$(PREFIX)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|g' tracelib/sgtrace.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sgtrace.pc

clean:
	rm -rf $(B) $(CLEAN)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
