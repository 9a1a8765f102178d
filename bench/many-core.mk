# bench/many-core.mk — issue 21 part 6: the bundled examples and a SPLASH-like synthetic
# (bench/splash_lu.c, blocked LU with barriers) at N = 1 .. the CPUs, each program's closure,
# measured overhead against its plain build, E and the analysis speed (bench/many-core.sh).
BENCHES += bench/many-core.sh
BENCH_LU := $(B)/bench/splash-lu
BENCH_LU_TRACED := $(B)/bench/splash-lu-traced

bench/many-core.sh: $(BIN)/scalegraph $(EX_PROGRAMS) $(EX_TRACED) $(BENCH_LU) $(BENCH_LU_TRACED)

$(BENCH_LU): bench/splash_lu.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS_THREAD)

# Built as a user would: `scalegraph cc` on the unmodified source, libsgtrace linked in. Compiled
# and linked in two steps: a one-step `scalegraph cc -MMD` names its temporary instrumented copy in
# the .d file, which make would then look for.
$(OBJ)/bench-traced/splash_lu.o: bench/splash_lu.c $(EX_SGCC) $(INCDIR)/sgtrace.h
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) $(ALL_CFLAGS) -c $< -o $@

$(BENCH_LU_TRACED): $(OBJ)/bench-traced/splash_lu.o $(EX_SGCC) $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) --sg-static $(ALL_CFLAGS) -o $@ $< $(LDLIBS_THREAD)
