# cli/: the `scalegraph` dispatcher.
PROGRAMS += $(BIN)/scalegraph
TESTS    += cli/tests/test-dispatch.sh cli/tests/test-demo.sh \
            cli/tests/test-trace-fuzz.sh

$(BIN)/scalegraph: $(OBJ)/cli/scalegraph.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^
