# The CUPTI collector of `gpuprof record` (collector/, docs/collector.md),
# included from the Makefile.  Built only where the CUDA toolkit's CUPTI
# headers are (CUDA_HOME, default /usr/local/cuda); elsewhere `gpuprof
# record` says the collector is missing and the rest of the build is the
# same.  Nothing links CUPTI: the injection library dlopen's it at run
# time; only the decoder's unit test links it (cuptiActivityGetNextRecord
# on buffers the test builds, no GPU needed).
#
#   $(BUILD)/libgpuprof-inject.so          CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH
#   $(BUILD)/tests/collector/test_decode   decoder unit test (run by t1501)
#   $(BUILD)/tests/collector/nvtx_app      an NVTX3 program for t1510
#   $(BUILD)/tests/collector/fake_cuinit   cuInit's call of InitializeInjection, for t1511

CUDA_HOME ?= /usr/local/cuda
CUPTI_INC := $(firstword $(wildcard $(CUDA_HOME)/include/cupti.h $(CUDA_HOME)/extras/CUPTI/include/cupti.h))
# The decoder reads CUDA 12.4+/13 record structs (CUpti_ActivityKernel10...):
# an older toolkit counts as none.
ifneq ($(CUPTI_INC),)
ifeq ($(shell grep -l 'CUpti_ActivityKernel10;' $(dir $(CUPTI_INC))cupti_activity.h 2>/dev/null),)
CUPTI_INC :=
endif
endif
CUPTI_LIBDIR := $(firstword $(dir $(wildcard $(CUDA_HOME)/lib64/libcupti.so $(CUDA_HOME)/extras/CUPTI/lib64/libcupti.so)))

ifneq ($(CUPTI_INC),)
COLLECTOR_SRCS := $(wildcard collector/*.c)
COLLECTOR_OBJS := $(COLLECTOR_SRCS:%.c=$(BUILD)/obj/%.o)
COLLECTOR_SO   := $(BUILD)/libgpuprof-inject.so
COLLECTOR_TESTS := $(BUILD)/tests/collector/test_decode $(BUILD)/tests/collector/nvtx_app \
	$(BUILD)/tests/collector/fake_cuinit

$(COLLECTOR_OBJS): CPPFLAGS += -isystem $(dir $(CUPTI_INC)) -DGPC_CUPTI_LIBDIR='"$(CUPTI_LIBDIR:%/=%)"'
$(COLLECTOR_OBJS): CFLAGS += -fvisibility=hidden
# Loaded into any program (sh, python): never with the sanitizers' runtime,
# which must come first in a process.
$(COLLECTOR_OBJS) $(COLLECTOR_SO): SANFLAGS =

$(COLLECTOR_SO): $(COLLECTOR_OBJS)
	@[ "$(V)" = 1 ] || echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-z,defs -o $@ $(COLLECTOR_OBJS) -lpthread -ldl

# The decoder test links the decoder, the analyzer core (it reads back
# what it wrote) and the toolkit's CUPTI.
$(BUILD)/tests/collector/test_decode: tests/collector/test_decode.c $(BUILD)/obj/collector/decode.o \
		$(BUILD)/obj/collector/buf.o $(CORE_OBJS)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  TEST    $@"
	$(Q)$(CC) $(CPPFLAGS) -isystem $(dir $(CUPTI_INC)) -Icollector $(CFLAGS) $(LDFLAGS) -o $@ $^ \
		-L$(CUPTI_LIBDIR) -Wl,-rpath,$(CUPTI_LIBDIR) -lcupti $(LDLIBS) -lcmocka

$(BUILD)/tests/collector/nvtx_app: tests/collector/nvtx_app.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) -isystem $(CUDA_HOME)/include $(CFLAGS) $(LDFLAGS) -o $@ $< -ldl -lpthread

$(BUILD)/tests/collector/fake_cuinit: tests/collector/fake_cuinit.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< -ldl

all: $(COLLECTOR_SO)
check: $(COLLECTOR_TESTS)

# make bench-record: an NVTX push/pop pair with no tool, then under
# `gpuprof record --trace nvtx` (docs/PERFORMANCE.md; needs no GPU).
$(BUILD)/bench/record_nvtx_cost: bench/record_nvtx_cost.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) -isystem $(CUDA_HOME)/include $(CFLAGS) $(LDFLAGS) -o $@ $< -ldl

.PHONY: bench-record
bench-record: $(BUILD)/gpuprof $(COLLECTOR_SO) $(BUILD)/bench/record_nvtx_cost
	$(Q)echo "no NVTX tool:        $$($(BUILD)/bench/record_nvtx_cost 2000000)"
	$(Q)echo "gpuprof record nvtx: $$($(BUILD)/gpuprof record -q --trace nvtx \
		-o $(BUILD)/bench/nvtx-cost.gprec -- $(BUILD)/bench/record_nvtx_cost 2000000)"
	$(Q)rm -f $(BUILD)/bench/nvtx-cost.gprec

install: install-collector
.PHONY: install-collector
install-collector: $(COLLECTOR_SO)
	install -d $(DESTDIR)$(PREFIX)/lib/gpuprof
	install -m 755 $(COLLECTOR_SO) $(DESTDIR)$(PREFIX)/lib/gpuprof/libgpuprof-inject.so
endif

-include $(COLLECTOR_OBJS:.o=.d)
