# Build settings shared by every module.mk. Override on the command line: make CC=clang.
CC      ?= cc
PREFIX  ?= /usr/local
B       := build
OPT     ?= -O2 -g
WARN    := -Wall -Wextra -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes \
           -Wmissing-prototypes -Wformat=2 -Wundef -Wvla -Wno-unused-parameter
CSTD    := -std=c11 -D_GNU_SOURCE
CFLAGS  ?= $(OPT)
ALL_CFLAGS = $(CSTD) $(WARN) $(CFLAGS) -MMD -MP -I$(B)/include -Itracelib
LDLIBS_THREAD := -pthread

# The build tree mirrors the install tree, so tools find each other the same way in both:
#   $(B)/bin/scalegraph, $(B)/libexec/scalegraph/scalegraph-<cmd>, $(B)/lib, $(B)/include
BIN     := $(B)/bin
LIBEXEC := $(B)/libexec/scalegraph
LIBDIR  := $(B)/lib
INCDIR  := $(B)/include
OBJ     := $(B)/obj

# A sanitizer build (make check-sanitize, or OPT='… -fsanitize=…'): programs linked with its
# libsgtrace need the same runtime. `scalegraph cc` adds these at link time; test scripts that
# link by hand add $SG_SAN_FLAGS (exported to every recipe, so to the tests).
SAN_FLAGS := $(filter -fsanitize% -fno-sanitize%,$(OPT) $(CFLAGS))
export SG_SAN_FLAGS := $(SAN_FLAGS)
