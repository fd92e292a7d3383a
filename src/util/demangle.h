/*
** C++ kernel-name demangling (libiberty) and the short kernel name every
** reader gives a kernel.
**
** Ownership: gp_demangle() returns a malloc'd string the caller frees;
** gp_kernel_short_name() and gp_kernel_label() write into the caller's
** buffer.
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

/* The name a kernel is shown by: its short name with the one template
** argument that tells the kernels of a template apart, when it has one:
** the operation it runs ("elementwise_kernel<MulFunctor>" for
** "at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<
** at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<
** float> > >(..)::{lambda(int)#1}>(..)"), the function a lambda argument
** belongs to ("unrolled_elementwise_kernel<direct_copy_kernel_cuda>"), a
** CUTLASS kernel's configuration ("Kernel<cutlass_80_tensorop_...>").
** Numbers, element types, launch plumbing and tuning policies are not
** shown, nor are the arguments of the argument; a name with none of the
** rest is its short name ("CatArrayBatchedCopy", "volta_sgemm_128x64_tn").
** Writes at most size-1 bytes into buf; returns buf. */
char *gp_kernel_label(const char *demangled, char *buf, size_t size);

#endif
