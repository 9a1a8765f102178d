# examples/: programs to measure — plain C11 + pthreads, no probes written in (the
# instrumenter adds them). Each parallel program has a sequential twin for T_seq, and all print
# a "checksum HEX" line that is identical across programs and thread counts.
EX_COMMON := $(OBJ)/examples/common/ex_cli.o $(OBJ)/examples/common/ex_threads.o
BIL_CORE  := $(OBJ)/examples/billiards/bil_sim.o $(OBJ)/examples/billiards/bil_queue.o \
             $(OBJ)/examples/billiards/bil_coarse.o \
             $(OBJ)/examples/billiards/bil_cli.o $(EX_COMMON)
JAC_CORE  := $(OBJ)/examples/jacobi/jac_grid.o $(OBJ)/examples/jacobi/jac_cli.o $(EX_COMMON)
FARM_CORE := $(OBJ)/examples/taskfarm/farm_task.o $(OBJ)/examples/taskfarm/farm_cli.o $(EX_COMMON)

# The parallel programs are plain builds here (their traced builds are below); the sequential
# twins are traced builds only, so that T_seq is measured exactly like T_para: the same region
# markers, the same clock, the same probes in the shared code (docs/analyzer.md).
EX_PROGRAMS := $(BIN)/billiards $(BIN)/jacobi $(BIN)/taskfarm
PROGRAMS += $(EX_PROGRAMS)
TESTS    += examples/tests/test-examples.sh

CFLAGS_examples := -Iexamples/common

$(BIN)/billiards: $(OBJ)/examples/billiards/billiards_par.o $(BIL_CORE)
$(BIN)/jacobi: $(OBJ)/examples/jacobi/jacobi_par.o $(JAC_CORE)
$(BIN)/taskfarm: $(OBJ)/examples/taskfarm/taskfarm_par.o $(FARM_CORE)

$(EX_PROGRAMS):
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD) -lm

# billiards-traced: billiards built by `scalegraph cc` from the unmodified sources, as a user
# would (CC="scalegraph cc"): the default filter's function probes, the pthread calls renamed to
# libsgtrace's wrappers, SG_REGION_* markers on. What `make run` and the collector tests run.
# Linked with --sg-static so it carries libsgtrace (and needs no rpath into $(B)).
# billiards-seq, jacobi-seq, taskfarm-seq: the sequential twins, built the same way;
# jacobi-traced, taskfarm-traced: the other two parallel programs, for their specs.
EX_T := $(OBJ)/examples-traced
EX_T_COMMON := $(EX_T)/common/ex_cli.o $(EX_T)/common/ex_threads.o
EX_T_BIL := $(addprefix $(EX_T)/billiards/,bil_sim.o bil_queue.o bil_coarse.o bil_cli.o) \
            $(EX_T_COMMON)
EX_T_JAC := $(addprefix $(EX_T)/jacobi/,jac_grid.o jac_cli.o) $(EX_T_COMMON)
EX_T_FARM := $(addprefix $(EX_T)/taskfarm/,farm_task.o farm_cli.o) $(EX_T_COMMON)
EX_SGCC := $(LIBEXEC)/scalegraph-cc
EX_TRACED := $(BIN)/billiards-traced $(BIN)/billiards-seq $(BIN)/jacobi-seq $(BIN)/taskfarm-seq \
             $(BIN)/jacobi-traced $(BIN)/taskfarm-traced
PROGRAMS += $(EX_TRACED)

$(EX_T)/%.o: examples/%.c $(EX_SGCC) $(INCDIR)/sgtrace.h
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) $(ALL_CFLAGS) $(CFLAGS_examples) -c $< -o $@

$(BIN)/billiards-traced: $(EX_T)/billiards/billiards_par.o $(EX_T_BIL)
$(BIN)/billiards-seq: $(EX_T)/billiards/billiards_seq.o $(EX_T_BIL)
$(BIN)/jacobi-seq: $(EX_T)/jacobi/jacobi_seq.o $(EX_T_JAC)
$(BIN)/taskfarm-seq: $(EX_T)/taskfarm/taskfarm_seq.o $(EX_T_FARM)
$(BIN)/jacobi-traced: $(EX_T)/jacobi/jacobi_par.o $(EX_T_JAC)
$(BIN)/taskfarm-traced: $(EX_T)/taskfarm/taskfarm_par.o $(EX_T_FARM)
$(EX_TRACED): $(EX_SGCC) $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) --sg-static $(ALL_CFLAGS) -o $@ $(filter %.o,$^) \
	  $(LDLIBS_THREAD) -lm

# Unit tests of the billiards core (cmocka).
TESTS += $(B)/tests/examples/test_bil_sim
CFLAGS_examples += -Iexamples/billiards
$(B)/tests/examples/test_bil_sim: $(OBJ)/examples/tests/test_bil_sim.o $(BIL_CORE)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka $(LDLIBS_THREAD) -lm
