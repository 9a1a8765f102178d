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
BENCHES  :=
HEADERS  :=
CLEAN    :=

# Each stage's module.mk first (in pipeline order), then any further <stage>/*.mk fragments
# (e.g. bench/tracelib.mk, analyzer/export.mk) so that parts written separately own their rules.
MODULES := cli tracelib examples instrument collector analyzer gui bench
include $(wildcard $(addsuffix /module.mk,$(MODULES)))
include $(filter-out %/module.mk,$(wildcard $(addsuffix /*.mk,$(MODULES))))

# Compile rule shared by all modules: src/x/y.c -> build/obj/x/y.o
$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$(firstword $(subst /, ,$*))) -c $< -o $@

# Public headers are copied to build/include (the layout `scalegraph cc` expects).
$(INCDIR)/%.h: tracelib/%.h
	@mkdir -p $(@D)
	cp $< $@

.PHONY: all deps run check bench install clean fuzz
all: $(HEADERS) $(LIBS) $(PROGRAMS)

deps:
	@./scripts/deps.sh

run: deps
	@$(MAKE) --no-print-directory all
	@B=$(B) ./scripts/run-demo.sh

check: deps
	@$(MAKE) --no-print-directory all $(TESTS)
	@B=$(B) ./tests/run-tests.sh $(TESTS)

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
