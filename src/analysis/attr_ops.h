/*
** Attribution from framework-op ranges (Kineto cpu_op, user_annotation,
** python_function, gpu_user_annotation): the interpreter that correlate.c
** calls for traces whose ranges are framework ops rather than NVTX markers.
**
** correlate.c links each kernel to its launching API call and collects the
** ranges open on that thread around the call, outermost first; this module
** turns them into gp_attr fields (op, mod, layer, trace, dir, seq, iter,
** args).  It may also use other keys (External id) when the stack is empty.
** Same begin / kernel / end interface as every attribution source
** (attr_nvtx.h).
**
** Ownership: the context returned by gp_opattr_begin() is freed by
** gp_opattr_end(); args it adds go to t->args.
*/
#ifndef GP_ATTR_OPS_H
#define GP_ATTR_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* The range kinds this source interprets (bit 1 << enum gp_range_kind). */
#define GP_OPATTR_KINDS                                                              \
	((1u << GP_RANGE_CPU_OP) | (1u << GP_RANGE_USER_ANNOTATION) | (1u << GP_RANGE_PYTHON) | \
	 (1u << GP_RANGE_GPU_ANNOTATION))

typedef struct gp_opattr gp_opattr;

/* Builds whatever indexes the interpreter needs (External id -> op, ...). */
gp_opattr *gp_opattr_begin(gp_trace *t);

/* Fills a for kernel k.  stack[0..n) are indices into t->ranges of the
** ranges enclosing the launching API call on its thread, outermost first
** (n == 0 when the launch was not captured: a->api == -1). */
void gp_opattr_kernel(gp_opattr *ctx, gp_trace *t, size_t k, const int32_t *stack, int n,
		      struct gp_attr *a);

/* Final pass over all kernels (backward kernels inherit their forward op
** through the sequence number), then frees ctx. */
void gp_opattr_end(gp_opattr *ctx, gp_trace *t);

#endif
