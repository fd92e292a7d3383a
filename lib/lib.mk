# libgpuprof build rules (owned by the lib/ work; included from the Makefile).
lib:
