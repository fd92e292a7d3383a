/*
** What the formula files share and only they: formulas.c (most op
** families, the argument helpers below, the rule table built from ops.def)
** and formulas_gemm.c (linear, the GEMMs, convolution).  The table names
** every formula, so the ones defined in formulas_gemm.c are declared here.
**
** Ownership: the helpers read the op's arguments in a gp_opctx (opsint.h),
** which borrows from the trace; they allocate nothing.
*/
#ifndef GP_FORMULAS_INT_H
#define GP_FORMULAS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "ops/opsint.h"

struct gp_arg;

/* Value i of an int-or-list argument a (a single int applies to every
** dim); def when a is NULL or neither. */
int64_t gp_opival(const struct gp_arg *a, int i, int64_t def);

/* The argument named name, else positional argument pos (-1: none; a
** positional slot a keyword argument takes is none).  NULL when neither. */
const struct gp_arg *gp_oparg_or(const struct gp_opctx *c, const char *name, int pos);

/* Adds the shapes of c's tensor arguments to its params under key, unless
** they do not fit in 300 bytes. */
void gp_pp_tensors(struct gp_opctx *c, const char *key);

/* Element size of a c10::ScalarType code (what Kineto records for an
** argument such as _softmax_backward_data's input_dtype or _scaled_mm's
** out_dtype), 0 if not a floating type. */
int gp_scalar_type_size(double code);

/* The matrix formulas (formulas_gemm.c; what each computes is its comment
** there): nn.Linear, mm and its kin, matmul, convolution. */
bool f_linear(struct gp_opctx *c);
bool f_mm(struct gp_opctx *c);
bool f_matmul(struct gp_opctx *c);
bool f_grouped_mm(struct gp_opctx *c);
bool f_conv(struct gp_opctx *c);

#endif
