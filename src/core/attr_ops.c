/*
** Attribution from framework-op ranges.  (Stub: attributes nothing.)
*/
#include "core/attr_ops.h"

gp_opattr *gp_opattr_begin(gp_trace *t)
{
	return NULL;
}

void gp_opattr_kernel(gp_opattr *ctx, gp_trace *t, size_t k, const int32_t *stack, int n,
		      struct gp_attr *a)
{
}

void gp_opattr_end(gp_opattr *ctx, gp_trace *t)
{
}
