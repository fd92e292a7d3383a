/*
** Attribution from NVTX ranges with PyProf's rules (nsys and nvprof
** traces): the interpreter that correlate.c calls for traces whose ranges
** are NVTX push/pop or start/end ranges (docs/correlation.md, "NVTX
** ranges: PyProf's rules").
**
** Every attribution source has this begin / kernel / end interface (as
** attr_ops.h): correlate.c links each kernel to its launching API call,
** collects the ranges open on that thread around the call, outermost first,
** and hands them to each source whose range kinds the trace holds, one
** kernel at a time in kernel (start) order.  A new source is one file with
** the three functions and a mask of the range kinds it reads.
**
** Ownership: the context returned by gp_nvtxattr_begin() is freed by
** gp_nvtxattr_end(); strings it makes are interned in the trace, args of
** argument markers go to t->args.
*/
#ifndef GP_ATTR_NVTX_H
#define GP_ATTR_NVTX_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* The range kinds this source interprets (bit 1 << enum gp_range_kind). */
#define GP_NVTXATTR_KINDS ((1u << GP_RANGE_PUSHPOP) | (1u << GP_RANGE_STARTEND))

typedef struct gp_nvtxattr gp_nvtxattr;

/* Numbers the iteration ranges ("iteration 12", "ProfilerStep#2", ...) and
** notes whether the trace has PyTorch 1.0's ", seq=N" markers.  Never fails. */
gp_nvtxattr *gp_nvtxattr_begin(gp_trace *t);

/* Fills a (layer, trace, mod, op, marker, args, dir, seq, sub, altseq,
** iter, fwd) for kernel k.  stack[0..n) are indices into t->ranges of the
** ranges enclosing the launching API call on its thread, outermost first
** (n == 0 when the launch was not captured: a->api == -1).  Must be called
** for every kernel in index order: PyProf's seq/sub state carries from one
** kernel to the next, and a backward kernel copies its forward kernel's
** fields from t->attrs. */
void gp_nvtxattr_kernel(gp_nvtxattr *ctx, gp_trace *t, size_t k, const int32_t *stack, int n,
			struct gp_attr *a);

/* Frees ctx (NULL is allowed).  NVTX attribution needs no final pass. */
void gp_nvtxattr_end(gp_nvtxattr *ctx, gp_trace *t);

#endif
