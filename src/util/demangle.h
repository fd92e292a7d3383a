/*
** C++ kernel-name demangling (libiberty) and PyProf's short kernel name.
**
** Ownership: gp_demangle() returns a malloc'd string the caller frees;
** gp_kernel_short_name() writes into the caller's buffer.
*/
#ifndef GP_DEMANGLE_H
#define GP_DEMANGLE_H

#include <stddef.h>

/* The demangled form of a mangled (_Z...) name with parameters and
** templates; for one libiberty cannot read (a truncated name) the longest
** prefix that reads with its scopes closed, marked " [truncated]"
** ("void ck_tile::kentry<64, ck_tile::GemmKernel<> >() [truncated]"); NULL when name is not a mangled C++ name
** (cuBLAS/cuDNN kernels such as "volta_sgemm_128x64_tn" are plain C names)
** or not even its first identifier reads. */
char *gp_demangle(const char *name);

/* PyProf's short name of a (demangled) kernel name: cut at the first '<',
** remove every "void ", "at::", "cuda::", "native::" and
** "(anonymous namespace)::" in that order, then cut at the first '('.
** "void at::native::elementwise_kernel<128, 4, ...>(int, ...)" ->
** "elementwise_kernel".  Writes at most size-1 bytes into buf; returns buf. */
char *gp_kernel_short_name(const char *demangled, char *buf, size_t size);

#endif
