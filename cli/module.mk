# cli/: the `scalegraph` dispatcher.
PROGRAMS += $(BIN)/scalegraph
TESTS    += cli/tests/test-dispatch.sh cli/tests/test-demo.sh cli/tests/test-demo-story.sh \
            cli/tests/test-trace-fuzz.sh cli/tests/test-help-env.sh

$(BIN)/scalegraph: $(OBJ)/cli/scalegraph.o $(OBJ)/cli/help_env.o
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^
