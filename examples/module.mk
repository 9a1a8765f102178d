# examples/: programs to measure — plain C11 + pthreads, no probes written in (the
# instrumenter adds them). Each parallel program has a sequential twin for T_seq, and all print
# a "checksum HEX" line that is identical across programs and thread counts.
EX_COMMON := $(OBJ)/examples/common/ex_cli.o $(OBJ)/examples/common/ex_threads.o
BIL_CORE  := $(OBJ)/examples/billiards/bil_sim.o $(OBJ)/examples/billiards/bil_queue.o \
             $(OBJ)/examples/billiards/bil_cli.o $(EX_COMMON)
JAC_CORE  := $(OBJ)/examples/jacobi/jac_grid.o $(OBJ)/examples/jacobi/jac_cli.o $(EX_COMMON)
FARM_CORE := $(OBJ)/examples/taskfarm/farm_task.o $(OBJ)/examples/taskfarm/farm_cli.o $(EX_COMMON)

EX_PROGRAMS := $(BIN)/billiards $(BIN)/billiards-seq $(BIN)/jacobi $(BIN)/jacobi-seq \
               $(BIN)/taskfarm $(BIN)/taskfarm-seq
PROGRAMS += $(EX_PROGRAMS)
TESTS    += examples/tests/test-examples.sh

CFLAGS_examples := -Iexamples/common

$(BIN)/billiards: $(OBJ)/examples/billiards/billiards_par.o $(BIL_CORE)
$(BIN)/billiards-seq: $(OBJ)/examples/billiards/billiards_seq.o $(BIL_CORE)
$(BIN)/jacobi: $(OBJ)/examples/jacobi/jacobi_par.o $(JAC_CORE)
$(BIN)/jacobi-seq: $(OBJ)/examples/jacobi/jacobi_seq.o $(JAC_CORE)
$(BIN)/taskfarm: $(OBJ)/examples/taskfarm/taskfarm_par.o $(FARM_CORE)
$(BIN)/taskfarm-seq: $(OBJ)/examples/taskfarm/taskfarm_seq.o $(FARM_CORE)

$(EX_PROGRAMS):
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS_THREAD) -lm

# billiards-traced: billiards built by `scalegraph cc` from the unmodified sources, as a user
# would (CC="scalegraph cc"): the default filter's function probes, the pthread calls renamed to
# libsgtrace's wrappers, SG_REGION_* markers on. What `make run` and the collector tests run.
# Linked with --sg-static so it carries libsgtrace (and needs no rpath into $(B)).
EX_TRACED_SRCS := examples/billiards/billiards_par.c examples/billiards/bil_sim.c \
                  examples/billiards/bil_queue.c examples/billiards/bil_cli.c \
                  examples/common/ex_cli.c examples/common/ex_threads.c
EX_TRACED_OBJS := $(patsubst examples/%.c,$(OBJ)/examples-traced/%.o,$(EX_TRACED_SRCS))
EX_SGCC := $(LIBEXEC)/scalegraph-cc
PROGRAMS += $(BIN)/billiards-traced

$(OBJ)/examples-traced/%.o: examples/%.c $(EX_SGCC) $(INCDIR)/sgtrace.h
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) $(ALL_CFLAGS) $(CFLAGS_examples) -c $< -o $@

$(BIN)/billiards-traced: $(EX_TRACED_OBJS) $(EX_SGCC) $(LIBDIR)/libsgtrace.a
	@mkdir -p $(@D)
	SG_CC="$(CC)" $(EX_SGCC) --sg-static $(ALL_CFLAGS) -o $@ $(EX_TRACED_OBJS) \
	  $(LDLIBS_THREAD) -lm

# Unit tests of the billiards core (cmocka).
TESTS += $(B)/tests/examples/test_bil_sim
CFLAGS_examples += -Iexamples/billiards
$(B)/tests/examples/test_bil_sim: $(OBJ)/examples/tests/test_bil_sim.o $(BIL_CORE)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -lcmocka $(LDLIBS_THREAD) -lm
