/*
** The op model: for each kernel, the params string, FLOPs, bytes and
** tensor-core use of the op that launched it (PyProf's prof stage, fixed
** and extended).  Formulas live as data in src/ops/ (docs/op-model.md).
**
** Ownership: gp_ops_run() returns an array the caller frees with free().
*/
#ifndef GP_OPS_H
#define GP_OPS_H

#include "core/trace.h"

enum gp_tc { GP_TC_NA = -2, GP_TC_NOT_APPLICABLE = -1, GP_TC_NO = 0, GP_TC_YES = 1 };

struct gp_opres {
	gp_str op;          /* op name to show, overriding attr.op (PyProf's "bias"); 0 = keep */
	gp_str params;      /* "M=600,N=700,K=200,type=fp32"; 0 = na */
	double flops;       /* < 0 = unknown */
	double bytes;       /* < 0 = unknown */
	int8_t tc;          /* enum gp_tc */
};

/* Computes one gp_opres per kernel; t->attrs must be filled. */
struct gp_opres *gp_ops_run(gp_trace *t);

#endif
