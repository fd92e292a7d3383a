# gpuprof build.  `make help` lists the targets and options.
#
# Layout of the outputs:
#   build/gpuprof            the CLI
#   build/libgpuprof.so/.a   the instrumentation library (lib/)
#   build/tests/             unit-test binaries
# ASAN=1 builds everything with AddressSanitizer + UndefinedBehaviorSanitizer
# into build/asan/ so both builds can coexist.

CC      ?= cc
PREFIX  ?= /usr/local
ASAN    ?= 0
DEBUG   ?= 0
V       ?= 0

ifeq ($(ASAN),1)
BUILD   ?= build/asan
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD   ?= build
SANFLAGS =
endif

ifeq ($(DEBUG),1)
OPT = -O0 -g3
else
OPT = -O2 -g
endif

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -Isrc -Iinclude -D_GNU_SOURCE
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SANFLAGS) -fPIC
LDFLAGS  += $(SANFLAGS)
LDLIBS   += -lsqlite3 -lz -lyajl -liberty -lm -lpthread

ifeq ($(V),1)
Q =
else
Q = @
endif

# Every .c under src/ except main.c is part of the analyzer core, which the
# unit tests and fuzz targets link against.
CORE_SRCS := $(filter-out src/main.c,$(wildcard src/*.c src/*/*.c))
CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ  := $(BUILD)/obj/src/main.o

LIB_SRCS  := $(wildcard lib/*.c)
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_REPLAY := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/tests/%_replay)

DEPS_OK := build/.deps-ok

.PHONY: all clean check unit cli-test fuzz-replay fuzz demo bench install help lib

all: $(BUILD)/gpuprof lib

$(DEPS_OK): scripts/check-deps.sh scripts/install-deps.sh
	$(Q)mkdir -p build
	$(Q)CC="$(CC)" scripts/check-deps.sh
	$(Q)touch $@

$(BUILD)/obj/%.o: %.c $(DEPS_OK)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/gpuprof: $(MAIN_OBJ) $(CORE_OBJS)
	@[ "$(V)" = 1 ] || echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/test_%: tests/unit/test_%.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  TEST    $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(CORE_OBJS) $(LDLIBS) -lcmocka

# Fuzz targets are also built with a small driver that replays files, so
# `make check` runs them over the test corpus without needing libFuzzer.
$(BUILD)/tests/fuzz_%_replay: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c tests/fuzz/fuzz_file.h $(CORE_OBJS)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  FUZZ    $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay_main.c $(CORE_OBJS) $(LDLIBS)

# Real libFuzzer binaries (clang only): make fuzz; then build/fuzz/fuzz_X corpus/
fuzz: $(DEPS_OK)
	$(Q)mkdir -p build/fuzz
	$(Q)for f in $(FUZZ_SRCS); do n=$$(basename $$f .c); \
	  clang $(CPPFLAGS) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o build/fuzz/$$n $$f \
	    $(CORE_SRCS) $(LDLIBS) || exit 1; echo "  built build/fuzz/$$n"; done

include lib/lib.mk

unit: $(UNIT_BINS)
	$(Q)tests/run-unit.sh $(UNIT_BINS) || [ $$? = 77 ]   # 77: skipped (no testdata)

check: all $(UNIT_BINS) $(FUZZ_REPLAY)
	$(Q)GPUPROF=$(BUILD)/gpuprof BUILD=$(BUILD) tests/run.sh

demo: $(BUILD)/gpuprof
	$(Q)scripts/demo.sh $(BUILD)/gpuprof

bench: $(BUILD)/gpuprof
	$(Q)bench/run.sh $(BUILD)/gpuprof

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/gpuprof $(DESTDIR)$(PREFIX)/bin/gpuprof

clean:
	rm -rf build

help:
	@echo "Targets:"
	@echo "  all (default)  build build/gpuprof and libgpuprof"
	@echo "  demo           build, then run report and summary on a generated example trace"
	@echo "  check          build and run every test (unit, CLI, fuzz-corpus replay)"
	@echo "  bench          run the benchmarks in bench/ (see docs/PERFORMANCE.md)"
	@echo "  fuzz           build libFuzzer targets with clang into build/fuzz/"
	@echo "  install        install into PREFIX (default /usr/local)"
	@echo "  clean          remove build/"
	@echo "Options:"
	@echo "  ASAN=1         AddressSanitizer + UBSan build into build/asan/"
	@echo "  DEBUG=1        -O0 -g3"
	@echo "  V=1            show full commands"
	@echo "  CC=clang       another compiler"

-include $(CORE_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(LIB_OBJS:.o=.d)
