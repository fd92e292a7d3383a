/*
** The matrix formulas of the op model: linear, the GEMMs (mm, addmm, bmm,
** baddbmm, matmul, ...) and convolution, with the GEMM params, FLOPs and
** bytes and the TC value of a matrix kernel that attention, RNN cells and
** users' rules share (gp_opgemm, gp_optc_matrix: opsint.h).  The rule
** table that names them is formulas.c's; the conventions are its too: s is
** the element size, n an element count; FLOPs count an FMA as 2; bytes
** are DRAM reads + writes assuming each tensor is touched once.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/formulas_int.h"
#include "ops/opdefs.h"
#include "util/fmt.h"

/* Whether s contains any of the NULL-terminated needles. */
static bool has_any(const char *s, const char *const *needles)
{
	for (; *needles; needles++)
		if (strstr(s, *needles))
			return true;
	return false;
}

int gp_optc_matrix(const struct gp_opctx *c)
{
	return c->kn->tc == GP_TC_YES ? GP_TC_YES : c->kn->tc == GP_TC_NA ? GP_TC_NA : GP_TC_NO;
}

/* ---- linear ---- */

/* PyProf linear.py's kernel classes.  A GEMM name from the modern list
** (gp_kernel_is_gemm_like: nvjet, xmma...) also counts as a GEMM. */
static const char *const linear_gemm_kernels[] = {
	"gemm", "gemv", "dot_kernel", "splitKreduce_kernel", "reduce_1Block_kernel", "cutlass", NULL
};

/* Prints N as PyProf does: the leading dims of x, a tuple when there are
** several ("(35,20)"), the number when there is one. */
static void pp_lead(struct gp_opctx *c, const char *key, const struct gp_arg *x)
{
	char buf[160];
	int nd = x->ndim - 1;

	if (nd == 1 || nd == 0) {
		gp_pp(c, key, "%lld", nd ? (long long)x->shape[0] : 1LL);
		return;
	}
	gp_fmt_shape(buf, sizeof(buf), x->shape, nd > 0 ? (size_t)nd : 0);
	gp_pp(c, key, "%s", buf);
}

/*
** F.linear(x[..., K], w[M, K], b[M]): a GEMM with M = out features,
** N = prod(leading dims of x), K = in features.  Kernels whose name is not
** a GEMM are the bias add (fprop) or the bias-gradient reduction (bprop)
** and show op "bias".  bprop: sub 0 = dgrad, sub 1 = wgrad (PyProf).
*/
bool f_linear(struct gp_opctx *c)
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
	if (!has_any(c->kshort, linear_gemm_kernels) && !c->kn->gemm_like) {
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
	c->tc = gp_optc_matrix(c);
	if (c->dir == GP_DIR_BPROP && c->sub >= 2) {
		/* PyProf: "additional kernels for reduction" (split-K reduce
		** kernels are helpers: ops.c gives them 0 FLOPs). */
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

/* ---- a GEMM's params, FLOPs and bytes ---- */

/* A non-GEMM kernel inside a GEMM op: the bias add / bias gradient over an
** MN output (PyProf's "bias" op). */
static bool gemm_side_kernel(struct gp_opctx *c, double m, double n, enum gp_dtype dt)
{
	double s = gp_opsize(dt);

	c->op_override = "bias";
	gp_pp(c, "M", "%.0f", m);
	gp_pp(c, "N", "%.0f", n);
	gp_pp_type(c, dt);
	c->flops = m * n;
	c->bytes = c->dir == GP_DIR_BPROP ? s * (m * n + m) : 2 * m * n * s;
	c->tc = GP_TC_NOT_APPLICABLE;
	return true;
}

bool gp_opgemm(struct gp_opctx *c, double b, double m, double n, double k, enum gp_dtype dt)
{
	double s = gp_opsize(dt);

	if (b != 1)
		gp_pp(c, "B", "%.0f", b);
	gp_pp(c, "M", "%.0f", m);
	gp_pp(c, "N", "%.0f", n);
	gp_pp(c, "K", "%.0f", k);
	gp_pp_type(c, dt);
	c->dtype = dt;
	c->tc = gp_optc_matrix(c);
	c->flops = 2 * b * m * n * k;
	c->bytes = s * b * (m * n + m * k + n * k);
	return true;
}

/* ---- GEMMs: mm, addmm, bmm, baddbmm, matmul ---- */

/*
** mm(A[n,k], B[k,m]), addmm(C, A, B), bmm(A[b,n,k], B[b,k,m]),
** baddbmm(C, A, B), addbmm, _scaled_mm; mv(A[n,k], x[k]) and addmv(y, A, x)
** with M = 1.  k1 = index of the first matrix
** argument among the tensors (1 when a bias/input C comes first).  Params
** print M = columns of B and N = rows of A, as PyProf does.
*/
bool f_mm(struct gp_opctx *c)
{
	const struct gp_arg *a = gp_optensor(c, (uint32_t)c->rule->k1);
	const struct gp_arg *b = gp_optensor(c, (uint32_t)c->rule->k1 + 1);

	/* mv/addmv: the second operand is a vector, M = 1 */
	bool vec = a && b && a->ndim == 2 && b->ndim == 1;
	if (!a || !b || a->ndim < 2 || (b->ndim != a->ndim && !vec) || a->ndim > 3)
		return false;
	double bt = a->ndim == 3 ? (double)a->shape[0] : 1;
	double n = (double)a->shape[a->ndim - 2], k = (double)a->shape[a->ndim - 1];
	double m = vec ? 1 : (double)b->shape[b->ndim - 1];
	enum gp_dtype dt = gp_opdtype(c, a);

	/* helpers (split-K reduce) keep the GEMM's params; ops.c zeroes their FLOPs */
	if (!c->kn->gemm_like && c->kn->tc != GP_TC_YES && !c->kn->helper) {
		c->dtype = dt;
		return gemm_side_kernel(c, m, bt * n, dt);
	}
	if (c->rule->k2 <= 0)
		return gp_opgemm(c, bt, m, n, k, dt);
	/* _scaled_mm(a, b, scale_a, scale_b, bias, scale_result, out_dtype):
	** k2 is out_dtype's position.  PyTorch packs two FP4 values a byte
	** (float4_e2m1fn_x2), so its shapes count K in pairs; each operand is
	** read in its own type, the output written in out_dtype (absent: the
	** input's, PyTorch's default) */
	enum gp_dtype db = gp_opdtype(c, b);
	const struct gp_arg *od = gp_oparg_or(c, "out_dtype", (int)c->rule->k2);
	int so = od && od->type == GP_ARG_INT ? gp_scalar_type_size(od->value) : 0;
	if (dt == GP_DT_FP4 && db == GP_DT_FP4)
		k *= 2;
	gp_opgemm(c, bt, m, n, k, dt);
	c->bytes = gp_numel(a) * gp_opsize(dt) + gp_numel(b) * gp_opsize(db) + bt * m * n * (so ? so : gp_opsize(dt));
	return true;
}

/* The size of dimension i of tensor a, 0 when a has no such dimension. */
static double dim(const struct gp_arg *a, int i)
{
	return i < a->ndim && a->shape[i] > 0 ? (double)a->shape[i] : 0;
}

/*
** Grouped GEMMs (MoE experts): _grouped_mm(x, w, offs, bias, out_dtype),
** _scaled_grouped_mm(x, w, scale_a, scale_b, offs, bias, scale_result,
** out_dtype, ...), FBGEMM's {f8f8bf16_rowwise,bf16bf16bf16}_grouped_stacked
** (X, W, ..., M_sizes).  k1: position of offs among the tensors (its
** length is the group count G); k2: out_dtype's position (-1: the output
** is bf16, FBGEMM's); k3 = 1: W is [G, N, K] (FBGEMM), else [G, K, N].
** A trace holds the offsets' shape, not their values, but the groups
** tile the stacked dimension, so the sum over groups of 2 m_i n k is:
**   2-D x 3-D (x[M_total, K], w[G, K, N]: MoE forward)  2 M_total N K
**   3-D x 2-D (x[G, M, K], w[K, N_total])               2 M N_total K
**   2-D x 2-D (x[M, K_total], w[K_total, N]: weight gradient, out [G, M, N])  2 M N K_total
**   3-D x 3-D (batched: x[G, M, K], w[G, K, N])          2 G M N K
** Rows past the last offset (padding) count as work.  Bytes: x, w and
** scales read once each in their types, the output written once.
*/
bool f_grouped_mm(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0), *w = gp_optensor(c, 1);
	const struct gp_arg *offs = c->rule->k1 > 0 ? gp_optensor(c, (uint32_t)c->rule->k1) : NULL;

	if (!x || !w || x->ndim < 2 || x->ndim > 3 || w->ndim < 2 || w->ndim > 3 || (c->rule->k3 && w->ndim != 3))
		return false;
	enum gp_dtype dt = gp_opdtype(c, x), dw = gp_opdtype(c, w);
	bool fp4 = dt == GP_DT_FP4 && dw == GP_DT_FP4;
	double g, m, n, k, out;
	if (c->rule->k3) {              /* FBGEMM stacked: x[M_total, K], w[G, N, K] */
		g = dim(w, 0), m = dim(x, 0), n = dim(w, 1), k = dim(x, 1);
		out = m * n;
	} else if (x->ndim == 2 && w->ndim == 3) {
		g = dim(w, 0), m = dim(x, 0), k = dim(x, 1), n = dim(w, 2);
		out = m * n;
	} else if (x->ndim == 3 && w->ndim == 2) {
		g = dim(x, 0), m = dim(x, 1), k = dim(x, 2), n = dim(w, 1);
		out = m * n;
	} else if (x->ndim == 2) {      /* ragged K: one [M, N] output per group */
		g = offs && offs->ndim == 1 ? dim(offs, 0) : 0;
		m = dim(x, 0), k = dim(x, 1), n = dim(w, 1);
		out = (g > 0 ? g : 1) * m * n;
	} else {
		g = dim(x, 0), m = dim(x, 1), k = dim(x, 2), n = dim(w, 2);
		m *= g;                 /* the batch folded into M */
		out = m * n;
	}
	if (m <= 0 || n <= 0 || k <= 0)
		return false;
	if (fp4)
		k *= 2;
	int so = 0;
	if (c->rule->k2 > 0) {
		const struct gp_arg *od = gp_oparg_or(c, "out_dtype", (int)c->rule->k2);
		so = od && od->type == GP_ARG_INT ? gp_scalar_type_size(od->value) : 0;
	} else if (c->rule->k2 < 0) {
		so = 2;
	}
	if (!so)                        /* _grouped_mm: the input's type; scaled: bf16 */
		so = gp_dtype_size(dt) == 1 ? 2 : gp_opsize(dt);
	if (g > 0)
		gp_pp(c, "G", "%.0f", g);
	gp_pp(c, "M", "%.0f", m);
	gp_pp(c, "N", "%.0f", n);
	gp_pp(c, "K", "%.0f", k);
	gp_pp_type(c, dt);
	c->dtype = dt;
	c->tc = gp_optc_matrix(c);
	if (!c->kn->gemm_like && c->kn->tc != GP_TC_YES && !c->kn->helper) {
		/* a side kernel (a zero fill of the output, a scale): no GEMM work */
		c->flops = 0;
		c->bytes = out * so;
		c->tc = GP_TC_NOT_APPLICABLE;
		return true;
	}
	c->flops = 2 * m * n * k;
	c->bytes = 0;
	for (uint32_t i = 0; i < c->nargs; i++)
		if (c->args[i].type == GP_ARG_TENSOR && &c->args[i] != offs)
			c->bytes += gp_numel(&c->args[i]) * gp_opsize(gp_opdtype(c, &c->args[i]));
	c->bytes += out * so;
	return true;
}

/* matmul / __matmul__ / einsum-free broadcasting matmul: 1-D.1-D (dot),
** mat.vec, vec.mat, N-D.2-D (batch folded into N), batched with broadcast
** batch dims.  Non-GEMM kernels are copies to contiguous (PyProf: 0 FLOPs,
** 2 s n(A) bytes). */
bool f_matmul(struct gp_opctx *c)
{
	const struct gp_arg *a = gp_optensor(c, 0), *b = gp_optensor(c, 1);

	if (!a || !b || a->ndim < 1 || b->ndim < 1)
		return false;
	enum gp_dtype dt = gp_opdtype(c, a);
	c->dtype = dt;
	if (!c->kn->gemm_like && c->kn->tc != GP_TC_YES && !c->kn->helper) {
		gp_pp_tensors(c, "T");
		gp_pp_type(c, dt);
		c->flops = 0;
		c->bytes = 2.0 * gp_opsize(dt) * gp_numel(a);
		c->tc = GP_TC_NOT_APPLICABLE;
		return true;
	}
	double k = (double)a->shape[a->ndim - 1];
	double n = a->ndim >= 2 ? (double)a->shape[a->ndim - 2] : 1;
	double m = b->ndim >= 2 ? (double)b->shape[b->ndim - 1] : 1;
	double batch = 1;
	if (b->ndim <= 2) {
		/* fold a's batch dims into N: one GEMM */
		for (int i = 0; i < a->ndim - 2; i++)
			n *= (double)a->shape[i];
	} else {
		int nb = (a->ndim > b->ndim ? a->ndim : b->ndim) - 2;
		for (int i = 0; i < nb; i++) {
			int ia = a->ndim - 3 - i, ib = b->ndim - 3 - i;
			double da = ia >= 0 ? (double)a->shape[ia] : 1, db = ib >= 0 ? (double)b->shape[ib] : 1;
			batch *= da > db ? da : db;
		}
	}
	return gp_opgemm(c, batch, m, n, k, dt);
}

/* ---- convolution ---- */

/*
** conv1d/2d/3d, conv_transpose1d/2d/3d and aten::convolution and friends,
** forward and backward.  k1: 0 = F.convN layout (input, weight, bias,
** stride, padding, dilation, groups); 1 = aten::convolution (..., dilation,
** transposed, output_padding, groups); 2 = F.conv_transposeN (input,
** weight, bias, stride, padding, output_padding, groups, dilation);
** 3 = convolution_backward (grad_out, input, weight, bias_sizes, stride,
** padding, dilation, transposed, output_padding, groups).
** FLOPs 2 N K prod(out) (C/g) prod(R) for each of fprop, dgrad and wgrad;
** bytes s (input + weight + output).  Non-GEMM kernels: bias add/gradient
** (name with "bias" or an elementwise/reduce kernel) N K prod(out) FLOPs;
** layout and helper kernels 0 (as PyProf).
*/
bool f_conv(struct gp_opctx *c)
{
	int lay = (int)c->rule->k1;
	int t0 = lay == 3 ? 1 : 0;
	const struct gp_arg *x = gp_optensor(c, (uint32_t)t0), *w = gp_optensor(c, (uint32_t)t0 + 1);

	if (!x || !w || x->ndim < 3 || x->ndim > 5 || w->ndim != x->ndim)
		return false;
	int sd = x->ndim - 2;
	/* positional index of the first argument after the tensors */
	int base = lay == 3 ? 4 : 3;
	const struct gp_arg *st = gp_oparg_or(c, "stride", base);
	const struct gp_arg *pd = gp_oparg_or(c, "padding", base + 1);
	const struct gp_arg *dl = NULL, *gr = NULL, *tr = NULL, *op = NULL;
	bool transposed = strstr(c->op, "transpose") != NULL;
	switch (lay) {
	case 0:
		dl = gp_oparg_or(c, "dilation", base + 2);
		gr = gp_oparg_or(c, "groups", base + 3);
		break;
	case 2:
		op = gp_oparg_or(c, "output_padding", base + 2);
		gr = gp_oparg_or(c, "groups", base + 3);
		dl = gp_oparg_or(c, "dilation", base + 4);
		transposed = true;
		break;
	default:
		dl = gp_oparg_or(c, "dilation", base + 2);
		tr = gp_oparg_or(c, "transposed", base + 3);
		op = gp_oparg_or(c, "output_padding", base + 4);
		gr = gp_oparg_or(c, "groups", base + 5);
		if (tr && tr->type == GP_ARG_BOOL)
			transposed = tr->value != 0;
		break;
	}
	double N = (double)x->shape[0], C = (double)x->shape[1], g = (double)gp_opival(gr, 0, 1);
	double K = transposed ? (double)w->shape[1] * g : (double)w->shape[0];
	double in = 1, out = 1, rs = 1;
	int64_t O[3], I[3], R[3], S[3], P[3], Dl[3];
	bool same = pd && pd->type == GP_ARG_STR && strcmp(gp_s(c->t, pd->sval), "same") == 0;
	if (g < 1)
		g = 1;
	for (int i = 0; i < sd; i++) {
		I[i] = x->shape[2 + i];
		R[i] = w->shape[2 + i];
		S[i] = gp_opival(st, i, 1);
		P[i] = pd && pd->type == GP_ARG_STR ? 0 : gp_opival(pd, i, 0);
		Dl[i] = gp_opival(dl, i, 1);
		if (S[i] < 1)
			S[i] = 1;
		if (transposed)
			O[i] = (I[i] - 1) * S[i] - 2 * P[i] + Dl[i] * (R[i] - 1) + gp_opival(op, i, 0) + 1;
		else if (same)
			O[i] = I[i];
		else
			O[i] = (I[i] + 2 * P[i] - Dl[i] * (R[i] - 1) - 1) / S[i] + 1;
		if (O[i] < 0)
			O[i] = 0;
		in *= (double)I[i];
		out *= (double)O[i];
		rs *= (double)R[i];
	}
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt);
	c->dtype = dt;

	/* params: PyProf's N,C,H,W,K,P,Q,R,S,ph,pw,U,V,dh,dw,g,type (1-D: H=P=R=1) */
	static const char *const in_k[] = {"D", "H", "W"}, *const out_k[] = {"Z", "P", "Q"},
			 *const f_k[] = {"T", "R", "S"}, *const p_k[] = {"pd", "ph", "pw"},
			 *const s_k[] = {"sd", "U", "V"}, *const d_k[] = {"dd", "dh", "dw"};
	int off = 3 - (sd < 2 ? 2 : sd);    /* 1-D prints H=1..., 2-D from H, 3-D from D */
	gp_pp(c, "N", "%.0f", N);
	gp_pp(c, "C", "%.0f", C);
#define CONV_PP(keys, arr, one) \
	for (int i = off; i < 3; i++) { \
		int j = i - (3 - sd); \
		if (j < 0) gp_pp(c, keys[i], "%d", one); else gp_pp(c, keys[i], "%lld", (long long)arr[j]); \
	}
	CONV_PP(in_k, I, 1)
	gp_pp(c, "K", "%.0f", K);
	CONV_PP(out_k, O, 1)
	CONV_PP(f_k, R, 1)
	CONV_PP(p_k, P, 0)
	CONV_PP(s_k, S, 1)
	CONV_PP(d_k, Dl, 1)
#undef CONV_PP
	gp_pp(c, "g", "%.0f", g);
	if (transposed)
		gp_pp(c, "transposed", "1");
	gp_pp_type(c, dt);

	/* the direct (non-transposed) problem: transposed conv is the dgrad of
	** a conv from its output to its input */
	double xin = N * C * in, yout = N * K * out;
	double macs = transposed ? N * C * in * (K / g) * rs : N * K * out * (C / g) * rs;
	double wsz = K * (C / g) * rs;
	bool gemm = c->kn->gemm_like || c->kn->tc == GP_TC_YES ||
		    strstr(c->kfull, "depthwise") || strstr(c->kfull, "Depthwise");
	if (gemm && !strstr(c->kshort, "bias")) {
		c->tc = gp_optc_matrix(c);
		c->flops = 2 * macs;
		c->bytes = s * (xin + wsz + yout);
		return true;
	}
	c->tc = GP_TC_NOT_APPLICABLE;
	if (strstr(c->kshort, "bias") || strstr(c->kshort, "elementwise") || strstr(c->kshort, "reduce") ||
	    strstr(c->kshort, "Reduce")) {
		c->op_override = "bias";
		c->flops = yout;
		c->bytes = 2 * yout * s;
		return true;
	}
	c->flops = 0;      /* layout, winograd or FFT helper kernels */
	c->bytes = -1;
	c->helper = true;
	return true;
}
