/*
** C++ kernel-name demangling (libiberty) and the short kernel name every
** reader gives a kernel.
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

/* The short name of a (demangled) kernel name: the kernel function's own
** name, i.e. the last component of its qualified name, without return type,
** namespaces, template arguments and parameters, whatever the return type
** spells ("void ns::k<..>(..)", "std::enable_if<.., void>::type ns::k<..>(..)",
** "auto ..."), with "(anonymous namespace)" and "<unnamed>" components and
** operator names ("operator()") kept whole.  A name the profiler cut
** mid-template gives the name before the cut's template list; a plain C
** name ("volta_sgemm_128x64_tn") is itself.  Writes at most size-1 bytes
** into buf; returns buf. */
char *gp_kernel_short_name(const char *demangled, char *buf, size_t size);

#endif
