/*
** The formulas of the op model, one function per op family, and the rule
** table built from ops.def.  Each function reads the op's arguments from
** the context, writes the params string, FLOPs, bytes and (for GEMM-like
** ops) the tensor-core value.  PyProf's formulas are kept where they are
** right; every deliberate difference is listed in docs/op-model.md.
**
** Conventions: s is the element size, n an element count; FLOPs count an
** FMA as 2; bytes are DRAM reads + writes assuming each tensor is touched
** once.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/opsint.h"

/* Whether s contains any of the NULL-terminated needles. */
static bool has_any(const char *s, const char *const *needles)
{
	for (; *needles; needles++)
		if (strstr(s, *needles))
			return true;
	return false;
}

/* TC value of a GEMM-like kernel: 1 or 0. */
static int tc_gemm(const struct gp_opctx *c)
{
	return gp_tc_kernel(c->kfull) == GP_TC_YES ? GP_TC_YES : GP_TC_NO;
}

/* ---- linear ---- */

/* PyProf linear.py's kernel classes.  A GEMM name from the modern list
** (gp_kernel_is_gemm_like: nvjet, xmma...) also counts as a GEMM. */
static const char *const linear_gemm_kernels[] = {
	"gemm", "gemv", "dot_kernel", "splitKreduce_kernel", "reduce_1Block_kernel", "cutlass", NULL
};
/* Reduction helpers of a split-K GEMM: part of the GEMM, no FLOPs of their own. */
static const char *const gemm_reduce_kernels[] = {
	"splitKreduce_kernel", "reduce_1Block_kernel", NULL
};

/* Prints N as PyProf does: the leading dims of x, a tuple when there are
** several ("(35,20)"), the number when there is one. */
static void pp_lead(struct gp_opctx *c, const char *key, const struct gp_arg *x)
{
	char buf[160];
	size_t n = 0;
	int nd = x->ndim - 1;

	if (nd == 1 || nd == 0) {
		gp_pp(c, key, "%lld", nd ? (long long)x->shape[0] : 1LL);
		return;
	}
	n += (size_t)snprintf(buf, sizeof(buf), "(");
	for (int i = 0; i < nd && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%lld", i ? "," : "", (long long)x->shape[i]);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ")");
	gp_pp(c, key, "%s", buf);
}

/*
** F.linear(x[..., K], w[M, K], b[M]): a GEMM with M = out features,
** N = prod(leading dims of x), K = in features.  Kernels whose name is not
** a GEMM are the bias add (fprop) or the bias-gradient reduction (bprop)
** and show op "bias".  bprop: sub 0 = dgrad, sub 1 = wgrad (PyProf).
*/
static bool f_linear(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0), *w = gp_optensor(c, 1);

	if (!x || !w || w->ndim != 2 || x->ndim < 1)
		return false;
	double m = (double)w->shape[0];
	double k = (double)x->shape[x->ndim - 1];
	double n = k > 0 ? gp_numel(x) / k : 0;
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt);

	c->dtype = dt;
	if (!has_any(c->kshort, linear_gemm_kernels) && !gp_kernel_is_gemm_like(c->kfull)) {
		c->op_override = "bias";
		gp_pp(c, "M", "%.0f", m);
		pp_lead(c, "N", x);
		gp_pp_type(c, dt);
		c->flops = m * n;
		/* fprop: read MN + M, write MN (PyProf: 2MN).  bprop: the bias
		** gradient reads MN and writes M. */
		c->bytes = c->dir == GP_DIR_BPROP ? s * (m * n + m) : 2 * m * n * s;
		c->tc = GP_TC_NOT_APPLICABLE;
		return true;
	}
	c->tc = tc_gemm(c);
	if (has_any(c->kshort, gemm_reduce_kernels) || (c->dir == GP_DIR_BPROP && c->sub >= 2)) {
		/* PyProf: "additional kernels for reduction". */
		gp_pp_shape(c, "X", x);
		gp_pp_shape(c, "W", w);
		gp_pp_type(c, dt);
		c->flops = 0;
		c->bytes = 0;
		return true;
	}
	if (c->dir == GP_DIR_BPROP && c->sub == 0) {          /* dgrad */
		gp_pp(c, "M", "%.0f", k);
		pp_lead(c, "N", x);
		gp_pp(c, "K", "%.0f", m);
	} else if (c->dir == GP_DIR_BPROP) {                  /* wgrad */
		gp_pp(c, "M", "%.0f", k);
		gp_pp(c, "N", "%.0f", m);
		pp_lead(c, "K", x);
	} else {
		gp_pp(c, "M", "%.0f", m);
		pp_lead(c, "N", x);
		gp_pp(c, "K", "%.0f", k);
	}
	gp_pp_type(c, dt);
	c->flops = 2 * m * n * k;
	/* PyProf: MN + MK + NK*s (operator precedence); all three matrices
	** are s bytes per element. */
	c->bytes = s * (m * n + m * k + n * k);
	return true;
}

/* ---- the table ---- */

#define GP_OP(names, family, fn, k1, k2, k3, ref) {names, family, fn, k1, k2, k3, ref},
const struct gp_oprule gp_oprules[] = {
#include "ops/ops.def"
};
#undef GP_OP
const size_t gp_noprules = sizeof(gp_oprules) / sizeof(gp_oprules[0]);
