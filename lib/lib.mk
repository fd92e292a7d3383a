# libgpuprof build rules (owned by the lib/ work; included from the Makefile).
#
#   make lib        $(BUILD)/libgpuprof.so (+ .so.0 link), libgpuprof.a, gpuprof.pc
#   make install    also installs the library, headers, pkg-config file, man page
#   make bench-lib  the cost of a push/pop pair and of a scoped timer
# The library links no CUDA: NVTX3 is header-only (NVTX_INC), the CUDA
# runtime is dlopen'ed.  Without the NVTX headers it builds with GP_NO_NVTX.

LIB_VERSION := 0.1.0
LIB_SONAME  := libgpuprof.so.0
NVTX_INC    ?= /usr/local/cuda/include
ifneq ($(wildcard $(NVTX_INC)/nvtx3/nvToolsExt.h),)
LIB_NVTX_FLAGS := -isystem $(NVTX_INC)
else
LIB_NVTX_FLAGS := -DGP_NO_NVTX
endif

$(LIB_OBJS): CPPFLAGS += $(LIB_NVTX_FLAGS)
$(LIB_OBJS): CFLAGS += -fvisibility=hidden

LIB_SO  := $(BUILD)/libgpuprof.so
LIB_A   := $(BUILD)/libgpuprof.a
LIB_PC  := $(BUILD)/gpuprof.pc
LIB_LIBS := -lpthread -ldl -lm

LIB_TEST_SRCS := $(wildcard tests/lib/test_*.c)
LIB_TEST_BINS := $(LIB_TEST_SRCS:tests/lib/%.c=$(BUILD)/tests/lib/%)

lib: $(LIB_SO) $(LIB_A) $(LIB_PC)

$(LIB_SO): $(LIB_OBJS) lib/libgpuprof.map
	@[ "$(V)" = 1 ] || echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libgpuprof.map \
		-Wl,-z,defs -o $@ $(LIB_OBJS) $(LIB_LIBS)
	$(Q)ln -sf libgpuprof.so $(BUILD)/$(LIB_SONAME)

$(LIB_A): $(LIB_OBJS)
	@[ "$(V)" = 1 ] || echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $(LIB_OBJS)

$(LIB_PC): lib/gpuprof.pc.in lib/lib.mk
	$(Q)mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

# Unit tests of the library link its archive, not the analyzer core.
$(BUILD)/tests/lib/test_%: tests/lib/test_%.c $(LIB_A)
	@mkdir -p $(dir $@)
	@[ "$(V)" = 1 ] || echo "  TEST    $@"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Ilib $(LDFLAGS) -o $@ $< $(LIB_A) -lcmocka $(LIB_LIBS)

# A minimal NVTX tool the CLI test injects to see the ranges reach NVTX.
ifeq ($(LIB_NVTX_FLAGS),-DGP_NO_NVTX)
LIB_NVTX_TOOL :=
else
LIB_NVTX_TOOL := $(BUILD)/tests/lib/nvtx_inject.so
endif
$(BUILD)/tests/lib/nvtx_inject.so: tests/lib/nvtx_inject.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(LIB_NVTX_FLAGS) $(CFLAGS) $(LDFLAGS) -shared -o $@ $<

check: $(LIB_TEST_BINS) $(LIB_NVTX_TOOL)

$(BUILD)/bench/lib_overhead: bench/lib_overhead.c $(LIB_A)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_A) $(LIB_LIBS)

.PHONY: bench-lib install-lib
bench-lib: $(BUILD)/bench/lib_overhead
	$(Q)$(BUILD)/bench/lib_overhead

install: install-lib

install-lib: lib
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/gpuprof \
		$(DESTDIR)$(PREFIX)/share/man/man3
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libgpuprof.so.$(LIB_VERSION)
	ln -sf libgpuprof.so.$(LIB_VERSION) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/libgpuprof.so
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/libgpuprof.a
	install -m 644 include/gpuprof/gpuprof.h include/gpuprof/record-format.h \
		$(DESTDIR)$(PREFIX)/include/gpuprof/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIB_VERSION)|' lib/gpuprof.pc.in \
		> $(DESTDIR)$(PREFIX)/lib/pkgconfig/gpuprof.pc
	install -m 644 man/libgpuprof.3 $(DESTDIR)$(PREFIX)/share/man/man3/libgpuprof.3
