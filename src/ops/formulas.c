/*
** The formulas of the op model, one function per op family, and the rule
** table built from ops.def; the matrix families' formulas (linear, GEMMs,
** convolution) are in formulas_gemm.c.  Each function reads the op's arguments from
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

#include "ops/formulas_int.h"
#include "ops/opdefs.h"
#include "util/fmt.h"

/* ---- shared helpers ---- */

/* Element count of the numpy broadcast of every tensor argument. */
static double broadcast_numel(const struct gp_opctx *c)
{
	int64_t out[GP_MAX_DIMS] = {0};
	int nd = 0;
	double n = 1;

	for (uint32_t j = 0; j < c->nargs; j++) {
		const struct gp_arg *a = &c->args[j];
		if (a->type != GP_ARG_TENSOR)
			continue;
		int ad = a->ndim > GP_MAX_DIMS ? GP_MAX_DIMS : a->ndim;
		if (ad > nd) {
			/* shift what we have right-aligned into the wider shape */
			int sh = ad - nd;
			for (int i = nd - 1; i >= 0; i--)
				out[i + sh] = out[i];
			for (int i = 0; i < sh; i++)
				out[i] = 1;
			nd = ad;
		}
		for (int i = 0; i < ad; i++) {
			int64_t d = a->shape[i];
			int64_t *o = &out[nd - ad + i];
			if (*o == 1 || (d != 1 && d > *o))
				*o = d;
		}
	}
	for (int i = 0; i < nd; i++)
		n *= out[i] > 0 ? (double)out[i] : 0;
	return n;
}

/* Bytes of every tensor argument. */
static double tensor_bytes(const struct gp_opctx *c)
{
	double b = 0;

	for (uint32_t j = 0; j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_TENSOR)
			b += gp_numel(&c->args[j]) * gp_opsize(gp_opdtype(c, &c->args[j]));
	return b;
}

static double tensor_elems(const struct gp_opctx *c)
{
	double n = 0;

	for (uint32_t j = 0; j < c->nargs; j++)
		n += gp_numel(&c->args[j]);
	return n;
}

/* Value i of an int-or-list argument (a single int applies to every dim);
** def when the argument is missing. */
int64_t gp_opival(const struct gp_arg *a, int i, int64_t def)
{
	if (!a)
		return def;
	if (a->type == GP_ARG_INT || a->type == GP_ARG_FLOAT)
		return (int64_t)a->value;
	if (a->type == GP_ARG_LIST && a->ndim > 0)
		return a->shape[i < a->ndim ? i : a->ndim - 1];
	return def;
}

/* The argument named name, else positional argument pos (-1: none). */
const struct gp_arg *gp_oparg_or(const struct gp_opctx *c, const char *name, int pos)
{
	const struct gp_arg *a = gp_opnamed(c, name);

	if (!a && pos >= 0) {
		a = gp_oparg(c, (uint32_t)pos);
		if (a && a->name)
			a = NULL;    /* positional slot taken by a keyword argument */
	}
	return a;
}

void gp_pp_tensors(struct gp_opctx *c, const char *key)
{
	char buf[300];

	if (gp_opshapes(c, buf, sizeof(buf)) < sizeof(buf))
		gp_pp(c, key, "%s", buf);
}

/* ---- pooling ---- */

/*
** max/avg pool 1-3d: (input, kernel_size, stride = kernel_size, padding,
** dilation, ceil_mode); avg pools have no dilation (padding, ceil_mode,
** count_include_pad); adaptive: (input, output_size).  Backward ops take
** (grad_output, input, <the same>); adaptive backward ones only (grad_output,
** input): the output size is grad_output's.  k1 = number of
** spatial dims (0: from the input rank), k2 = 1 for adaptive.  FLOPs one
** compare/add per window element per output; bytes s (in + out); bprop
** reads grad out, writes grad in.
*/
static bool f_pool(struct gp_opctx *c)
{
	/* backward ops: (grad_output, self, <the forward's arguments>) */
	bool bw = strstr(c->op, "backward") != NULL;
	const struct gp_arg *x = gp_optensor(c, bw ? 1 : 0), *gout = bw ? gp_optensor(c, 0) : NULL;
	int at = bw ? 2 : 1;    /* position of the first argument after the input */
	/* avg pools have no dilation: (..., padding, ceil_mode, count_include_pad, ...) */
	bool avg = strstr(c->op, "avg") != NULL;
	int sd = (int)c->rule->k1;

	if (!x || x->ndim < 2)
		return false;
	if (sd == 0 || sd > x->ndim - 1)
		sd = x->ndim - 2 > 0 ? x->ndim - 2 : 1;
	double lead = 1, in = 1, out = 1, win = 1;
	for (int i = 0; i < x->ndim - sd; i++)
		lead *= (double)x->shape[i];
	if (c->rule->k2) {
		/* a backward op has no output_size: grad_output's spatial dims are it */
		const struct gp_arg *os = bw ? NULL : gp_oparg_or(c, "output_size", 1);
		for (int i = 0; i < sd; i++) {
			int64_t I = x->shape[x->ndim - sd + i];
			int64_t O = gout && gout->ndim == x->ndim ? gout->shape[gout->ndim - sd + i] : gp_opival(os, i, 1);
			if (O < 1)
				O = 1;
			in *= (double)I;
			out *= (double)O;
			win *= (double)((I + O - 1) / O);
		}
	} else {
		const struct gp_arg *ks = gp_oparg_or(c, "kernel_size", at), *st = gp_oparg_or(c, "stride", at + 1);
		const struct gp_arg *pd = gp_oparg_or(c, "padding", at + 2);
		const struct gp_arg *dl = avg ? NULL : gp_oparg_or(c, "dilation", at + 3);
		const struct gp_arg *cm = gp_oparg_or(c, "ceil_mode", avg ? at + 3 : at + 4);
		if (!ks)
			return false;
		for (int i = 0; i < sd; i++) {
			int64_t I = x->shape[x->ndim - sd + i], R = gp_opival(ks, i, 1);
			int64_t S = st && (st->type != GP_ARG_LIST || st->ndim) ? gp_opival(st, i, R) : R;
			int64_t P = gp_opival(pd, i, 0), Dl = gp_opival(dl, i, 1);
			if (S < 1)
				S = 1;
			int64_t span = I + 2 * P - Dl * (R - 1) - 1;
			int64_t O = (cm && cm->type == GP_ARG_BOOL && cm->value ? span + S - 1 : span) / S + 1;
			if (O < 0)
				O = 0;
			in *= (double)I;
			out *= (double)O;
			win *= (double)R;
		}
	}
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt);
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp(c, "win", "%.0f", win);
	gp_pp_type(c, dt);
	c->flops = lead * out * win;
	c->bytes = s * lead * (in + out);
	return true;
}

/* ---- elementwise ---- */

/* Arithmetic binary ops whose backward has no FLOPs (the gradient is a
** copy).  Exact names: addcmul/addcdiv start with "add" but are not adds. */
static bool is_addsub(const char *op)
{
	static const char *const names[] = {
		"add", "add_", "__add__", "__iadd__", "__radd__", "sub", "sub_", "__sub__", "__isub__",
		"__rsub__", "rsub", NULL
	};
	for (const char *const *n = names; *n; n++)
		if (strcmp(op, *n) == 0)
			return true;
	return false;
}

/*
** Unary and activation ops: k1 FLOPs per element, fprop k2 x B, bprop
** k3 x B (B = bytes of the first tensor).  PyProf pointwise.py /
** activation.py.
*/
static bool f_unary(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);

	if (!x)
		return false;
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), B = n * gp_opsize(dt);
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	c->flops = c->rule->k1 * n;
	c->bytes = (c->dir == GP_DIR_BPROP ? c->rule->k3 : c->rule->k2) * B;
	return true;
}

/*
** Binary, comparison and n-ary pointwise ops with numpy broadcasting; the
** element size is the first non-bool tensor's (where's condition is bool).
** fprop: k1 FLOPs per output element (x2 for add/sub with a scalar alpha:
** an axpy), bytes = every tensor input + the output (k2 = 1: the output is
** bool, 1 byte).  bprop: add/sub 0 FLOPs and 2 B(out); others k1 n(out)
** and (tensors + 1) B(out).
*/
static bool f_binary(struct gp_opctx *c)
{
	/* the values' dtype, not a leading bool condition's (where(cond, x, y)) */
	const struct gp_arg *x = gp_optensor(c, 0);
	for (uint32_t i = 1; x && x->dtype == GP_DT_BOOL && gp_optensor(c, i); i++)
		if (gp_optensor(c, i)->dtype != GP_DT_BOOL) {
			x = gp_optensor(c, i);
			break;
		}

	if (!x)
		return false;
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt);
	double n = broadcast_numel(c);
	uint32_t nt = gp_opntensors(c);
	c->dtype = dt;
	gp_pp_tensors(c, "T");
	gp_pp_type(c, dt);
	if (c->dir == GP_DIR_BPROP) {
		if (is_addsub(c->op)) {
			c->flops = 0;
			c->bytes = 2 * n * s;
		} else {
			c->flops = c->rule->k1 * n;
			c->bytes = (nt + 1) * n * s;
		}
		return true;
	}
	double per = c->rule->k1;
	if (is_addsub(c->op) && nt >= 2) {
		const struct gp_arg *al = gp_opnamed(c, "alpha");
		for (uint32_t j = 1; !al && j < c->nargs; j++)
			if (c->args[j].type == GP_ARG_INT || c->args[j].type == GP_ARG_FLOAT)
				al = &c->args[j];
		if (al && al->value != 1)
			per *= 2;
	}
	c->flops = per * n;
	c->bytes = tensor_bytes(c) + n * (c->rule->k2 ? 1 : s);
	return true;
}

/* ---- softmax, normalization, dropout, reductions ---- */

int gp_scalar_type_size(double code)
{
	switch ((int)code) {
	case 5: case 15: return 2;   /* Half, BFloat16 */
	case 6: return 4;            /* Float */
	case 7: return 8;            /* Double */
	case 23: case 24: case 25: case 26: return 1;   /* Float8_e5m2, _e4m3fn, _e5m2fnuz, _e4m3fnuz */
	default: return 0;
	}
}

/*
** softmax / log_softmax / softmin, k1 FLOPs per element.  The kernels
** (softmax_warp_*, cunn_SoftMax*, cunn_SpatialSoftMax*) keep a row on chip
** or re-read it from L2, so DRAM sees each tensor once: fprop reads x and
** writes y (in fp32 when half_to_float, the third argument, is true): 2
** passes; bprop (_softmax_backward_data(grad_output, output, dim,
** input_dtype)) reads dy and y and writes dx (of input_dtype): 3 passes.
** PyProf counted 3 and 5, more than the kernels move (a warp softmax then
** ran above the GPU's bandwidth).
*/
static bool f_softmax(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);

	if (!x)
		return false;
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), s = gp_opsize(dt);
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	c->flops = c->rule->k1 * n;
	if (c->dir == GP_DIR_BPROP) {
		const struct gp_arg *y = gp_optensor(c, 1), *in = gp_oparg_or(c, "input_dtype", 3);
		int sx = in && in->type == GP_ARG_INT ? gp_scalar_type_size(in->value) : 0;
		double sy = y && gp_numel(y) == n ? gp_opsize(gp_opdtype(c, y)) : s;
		c->bytes = n * (s + sy + (sx ? sx : s));
		return true;
	}
	const struct gp_arg *h = gp_oparg_or(c, "half_to_float", 2);
	bool to_float = h && h->type == GP_ARG_BOOL && h->value != 0;
	c->bytes = n * (s + (to_float ? 4 : s));
	return true;
}

/* Which normalization (the rule's k1). */
enum norm_kind { NK_LAYER, NK_RMS, NK_GROUP, NK_BATCH };

/* What one kernel of a normalization op does:
**   FUSED  statistics and normalization in one kernel: fprop reads x and
**          writes y, bprop reads dy and x and writes dx;
**   STATS  a reduction: reads x (bprop: dy and x), writes per-row or
**          per-channel values;
**   APPLY  the normalization pass after a STATS kernel: as FUSED;
**   PARAMS works on per-row or per-channel arrays only (the statistics,
**          the weights, partial sums), not on the tensor;
**   REDUCE a TensorIterator reduction (reduce_kernel): reads one tensor;
**   ELEMENTWISE  a TensorIterator kernel: APPLY or PARAMS by the op. */
enum norm_role { NR_FUSED, NR_STATS, NR_APPLY, NR_PARAMS, NR_REDUCE, NR_ELEMENTWISE };

/* Kernel names (a substring; first match wins) and what they do; a name
** none matches is FUSED (vectorized_layer_norm_kernel,
** layer_norm_grad_input_kernel, batch_norm_backward_kernel, cuDNN's
** bn_fw_* / bn_bw_*, MIOpenBatchNormFwdTrainSpatial, MIOpenBatchNormBwdSpatial). */
static const struct {
	const char *sub;
	uint8_t role;
} norm_kernels[] = {
	{"FinalMeanVariance", NR_PARAMS},       /* MIOpen: partial sums -> mean, variance */
	{"FusedParams", NR_PARAMS},             /* Compute{,Gradient,Backward}FusedParamsCUDAKernel */
	{"cuComputeGradGammaBeta", NR_PARAMS},  /* 2nd stage of dgamma over partial sums */
	{"RowwiseMoments", NR_STATS},
	{"collect_statistics", NR_STATS},
	{"MeanVariance", NR_STATS},             /* MIOpen ...SpatialMeanVariance */
	{"elford", NR_STATS},
	{"ComputeInternalGradients", NR_STATS},
	{"backward_reduce", NR_STATS},
	{"reduce_kernel", NR_REDUCE},
	{"GammaBeta", NR_STATS},                /* dgamma, dbeta from dy and x (group norm: PARAMS) */
	{"DScaleDBias", NR_STATS},
	{"transform_input", NR_APPLY},
	{"backward_elemt", NR_APPLY},
	{"SpatialNorm", NR_APPLY},              /* MIOpenBatchNormFwdTrainSpatialNorm */
	{"SpatialDX", NR_APPLY},
	{"LayerNormForward", NR_APPLY},
	{"LayerNormBackward", NR_APPLY},
	{"elementwise", NR_ELEMENTWISE},
};

static enum norm_role norm_role(const struct gp_opctx *c, enum norm_kind kind)
{
	enum norm_role role = NR_FUSED;

	for (size_t i = 0; i < sizeof(norm_kernels) / sizeof(norm_kernels[0]); i++)
		if (strstr(c->kshort, norm_kernels[i].sub)) {
			role = norm_kernels[i].role;
			break;
		}
	/* group norm's GammaBetaBackwardCUDAKernel1/2 sum the per-(N, C)
	** values ComputeInternalGradients wrote */
	if (role == NR_STATS && kind == NK_GROUP && strstr(c->kshort, "GammaBeta"))
		return NR_PARAMS;
	if (role != NR_ELEMENTWISE)
		return role;
	if (kind == NK_BATCH) {
		/* training: the running-statistics update over C values (the
		** normalization has its own kernel); eval: the normalization */
		const struct gp_arg *tr = gp_oparg_or(c, "training", 5);
		bool training = tr && tr->type == GP_ARG_BOOL ? tr->value != 0 : c->sub > 0;
		return training && c->dir != GP_DIR_BPROP ? NR_PARAMS : NR_APPLY;
	}
	if (kind == NK_GROUP && c->dir == GP_DIR_BPROP && c->sub == 1) {
		/* with a weight (5th argument), the kernel after
		** ComputeInternalGradients is c1 = rstd * gamma over N x C */
		const struct gp_arg *w = gp_oparg(c, 4);
		if (w && w->type == GP_ARG_TENSOR)
			return NR_PARAMS;
	}
	return NR_APPLY;
}

/* The number of per-row or per-channel values a PARAMS kernel works on:
** layer/RMS norm: rows (elements over the normalized size: the
** normalized_shape list, else the last dim) + the normalized size (the
** weights' gradients); group norm: N x C; batch norm: C. */
static double norm_stats(const struct gp_opctx *c, enum norm_kind kind, const struct gp_arg *x)
{
	if (kind == NK_GROUP)
		return x->ndim >= 2 ? (double)x->shape[0] * (double)x->shape[1] : 1;
	if (kind == NK_BATCH)
		return x->ndim >= 2 ? (double)x->shape[1] : 1;
	const struct gp_arg *ns = gp_opnamed(c, "normalized_shape");
	for (uint32_t j = 0; !ns && j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_LIST)
			ns = &c->args[j];
	double per = 1;
	if (ns && ns->type == GP_ARG_LIST && ns->ndim > 0)
		for (int i = 0; i < ns->ndim; i++)
			per *= ns->shape[i] > 0 ? (double)ns->shape[i] : 1;
	else if (x->ndim > 0 && x->shape[x->ndim - 1] > 0)
		per = (double)x->shape[x->ndim - 1];
	return gp_numel(x) / per + per;
}

/*
** layer_norm, rms_norm, group_norm, batch_norm (k1: enum norm_kind), fprop
** and bprop, per kernel by what it does (norm_role): FUSED and APPLY move
** 2B (fprop: x read, y written) or 3B (bprop: dy and x read, dx written);
** STATS B (fprop) or 2B (bprop); REDUCE n FLOPs, B; PARAMS 16 S bytes and 4 S FLOPs (about
** four fp32 arrays of S per-row or per-channel values, norm_stats).  The
** saved statistics and the weights the tensor passes also read are
** arrays of that size and are left out (under 1/N of the traffic).
** FLOPs: FUSED and APPLY 5n fprop, 8n bprop (batch norm, PyProf's 8n for
** the op: FUSED 8n, its split path STATS 3n + APPLY 5n); STATS 3n (RMS 2n).
** PyProf counted batch norm as 4B fprop and 5B bprop on the op's first
** kernel (0 on the rest), more than any kernel reads or writes.
*/
static bool f_norm(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, c->dir == GP_DIR_BPROP && strstr(c->op, "backward") ? 1 : 0);

	if (!x)
		return false;
	enum norm_kind kind = (enum norm_kind)c->rule->k1;
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), B = n * gp_opsize(dt);
	bool bp = c->dir == GP_DIR_BPROP;
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	switch (norm_role(c, kind)) {
	case NR_STATS:
		c->flops = (kind == NK_RMS ? 2 : 3) * n;
		c->bytes = bp ? 2 * B : B;
		break;
	case NR_REDUCE:
		c->flops = n;
		c->bytes = B;
		break;
	case NR_PARAMS:
		c->flops = 4 * norm_stats(c, kind, x);
		c->bytes = 16 * norm_stats(c, kind, x);
		break;
	case NR_APPLY:
		c->flops = (kind == NK_BATCH ? 5 : bp ? 8 : 5) * n;
		c->bytes = bp ? 3 * B : 2 * B;
		break;
	default:
		c->flops = (kind == NK_BATCH || bp ? 8 : 5) * n;
		c->bytes = bp ? 3 * B : 2 * B;
		break;
	}
	/* k2: a residual add fused in (vLLM's fused_add_rms_norm: residual +=
	** x, x = norm(residual)): the residual read and written, n adds */
	if (c->rule->k2) {
		c->flops += n;
		c->bytes += 2 * B;
	}
	return true;
}

/*
** Reductions (PyProf reduction.py): k1 FLOPs per element plus k2, bytes n s
** (+ s when k3 > 0: the mean's division writes one value).  NVIDIA
** PyProf zeroes mean/norm kernels with sub > 0; apex PyProf (whose output
** we check against) does not, and such kernels are separate calls (grad
** clipping norms share one seq), so every kernel counts.  max/min with two
** tensors are pointwise.
*/
static bool f_reduce(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);

	if (!x)
		return false;
	if (gp_opntensors(c) >= 2 && (strcmp(c->op, "max") == 0 || strcmp(c->op, "min") == 0))
		return f_binary(c);
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), s = gp_opsize(dt);
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	c->flops = c->rule->k1 * n + c->rule->k2;
	c->bytes = n * s + (c->rule->k3 ? s : 0);
	return true;
}

/* ---- embedding, losses ---- */

/* The integer-typed (index) tensor and the floating one among the first two. */
static void idx_and_weight(const struct gp_opctx *c, const struct gp_arg **idx, const struct gp_arg **w)
{
	const struct gp_arg *a = gp_optensor(c, 0), *b = gp_optensor(c, 1);
	bool a_int = a && (a->dtype == GP_DT_INT64 || a->dtype == GP_DT_INT32);

	*idx = a_int ? a : b;
	*w = a_int ? b : a;
}

/*
** embedding (PyProf): 0 FLOPs; fprop B(idx) + 2 n(idx) D s; bprop
** 3 n(idx) D s on the first kernel, 0 after.  embedding_bag (k1 = 1): sums
** n(idx) rows of D into bags: n(idx) D FLOPs, B(idx) + n(idx) D s + bags D s.
*/
static bool f_embedding(struct gp_opctx *c)
{
	const struct gp_arg *idx, *w;

	idx_and_weight(c, &idx, &w);
	if (!idx || !w || w->ndim != 2)
		return false;
	enum gp_dtype dt = gp_opdtype(c, w);
	double s = gp_opsize(dt), ni = gp_numel(idx), D = (double)w->shape[1];
	double bi = ni * gp_opsize(idx->dtype ? (enum gp_dtype)idx->dtype : GP_DT_INT64);
	c->dtype = dt;
	gp_pp_shape(c, "I", idx);
	gp_pp_shape(c, "W", w);
	gp_pp_type(c, dt);
	if (c->rule->k1) {
		const struct gp_arg *off = gp_optensor(c, 2);
		double bags = off ? gp_numel(off) : 1;
		c->flops = ni * D;
		c->bytes = bi + ni * D * s + bags * D * s;
		return true;
	}
	c->flops = 0;
	if (c->dir == GP_DIR_BPROP)
		c->bytes = c->sub > 0 ? 0 : 3 * ni * D * s;
	else
		c->bytes = bi + 2 * ni * D * s;
	return true;
}

/*
** mse_loss (PyProf loss.py): 2e + 1 FLOPs, e s bytes with e = n x (fprop:
** 3 for reduction none, else 2; bprop 4 or 3).  Other elementwise losses
** (l1, smooth_l1, huber, bce, kl_div...) use the same shape with k1 e + 1
** FLOPs (k1 = 2 for mse).
*/
static bool f_mse(struct gp_opctx *c)
{
	/* backward ops: (grad_output, self, target, ...); grad_output is 0-d
	** when the loss was reduced */
	const struct gp_arg *x = gp_optensor(c, strstr(c->op, "backward") ? 1 : 0);

	if (!x)
		return false;
	/* reduction: named, else the string PyProf records, else aten's
	** positional Reduction enum, the op's only int argument */
	const struct gp_arg *red = gp_oparg_or(c, "reduction", -1);
	bool none = false;
	for (uint32_t j = 0; !red && j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_STR)
			red = &c->args[j];
	for (uint32_t j = 0; !red && j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_INT && !c->args[j].name)
			red = &c->args[j];
	if (red && red->type == GP_ARG_STR)
		none = strcmp(gp_s(c->t, red->sval), "none") == 0;
	else if (red && red->type == GP_ARG_INT)
		none = red->value == 0;      /* aten: Reduction::None = 0 */
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), s = gp_opsize(dt);
	double e = n * (c->dir == GP_DIR_BPROP ? (none ? 4 : 3) : (none ? 3 : 2));
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	gp_pp(c, "red", "%s", none ? "none" : red && red->type == GP_ARG_STR ? gp_s(c->t, red->sval)
			      : red && red->type == GP_ARG_INT && red->value == 2 ? "sum" : "mean");
	c->flops = c->rule->k1 * e + 1;
	c->bytes = e * s;
	return true;
}

/*
** cross_entropy / nll_loss over logits [N, C] (or [N, C, d...]) with class
** targets (backward ops: grad_output first, then the logits): softmax
** kernels get log_softmax's cost over the logits (f_softmax: 21n FLOPs,
** 2B fprop, 3B bprop); NLL kernels touch one
** element per row both ways: rows FLOPs, 8 rows (targets) + rows s + s
** bytes (fprop reads one logit per row and writes the loss, bprop reads
** grad_output and writes one gradient per row); the zero fill of the dense
** gradient before it writes it: 0 FLOPs, n s.
*/
static bool f_xent(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, strstr(c->op, "backward") ? 1 : 0);

	if (!x || x->ndim < 1)
		return false;
	enum gp_dtype dt = gp_opdtype(c, x);
	double n = gp_numel(x), s = gp_opsize(dt);
	double rows = x->ndim >= 2 ? n / (double)(x->shape[1] > 0 ? x->shape[1] : 1) : 1;
	bool bp = c->dir == GP_DIR_BPROP;
	c->dtype = dt;
	gp_pp_shape(c, "T", x);
	gp_pp_type(c, dt);
	if (strcmp(c->op, "cross_entropy") == 0 && (strstr(c->kfull, "oftMax") || strstr(c->kfull, "oftmax"))) {
		c->flops = 21 * n;
		c->bytes = (bp ? 3 : 2) * n * s;
		return true;
	}
	if (strstr(c->kfull, "Fill") || strstr(c->kfull, "fill") || strstr(c->kfull, "zero")) {
		c->flops = 0;
		c->bytes = n * s;
		return true;
	}
	c->flops = rows;
	c->bytes = 8 * rows + rows * s + s;
	return true;
}

/* ---- dropout, attention ---- */

/* dropout (PyProf): 5n FLOPs, 2B both ways. */
#define f_dropout f_unary

/*
** Scaled-dot-product / flash / memory-efficient attention, fprop and
** bprop.  q [B,H,L,E], k [B,H,S,E], v [B,H,S,Ev] (k1 = 1: flash layout
** [B,L,H,E]; k2 = 1: a backward op whose first tensor is grad_out; k3:
** position of is_causal).  fprop FLOPs 2BHLS(E + Ev) (QK^T and PV),
** halved when causal (only the scores on or below the diagonal); bytes
** s (Q + K + V + O).  bprop: 2.5x the FLOPs (five matmuls instead of two),
** bytes s (2Q + 2K + 2V + 2O).  In the unfused (math) path a GEMM kernel
** does one of the two matmuls (half the FLOPs) and other kernels are the
** softmax over BHLS scores: 5 BHLS FLOPs, scores read and written (2 s
** BHLS; a softmax backward kernel reads dy and y: 3 s BHLS).
*/
static bool f_attention(struct gp_opctx *c)
{
	uint32_t t0 = c->rule->k2 ? 1 : 0;
	const struct gp_arg *q = gp_optensor(c, t0), *k = gp_optensor(c, t0 + 1), *v = gp_optensor(c, t0 + 2);

	if (!q || !k || !v || q->ndim < 3 || k->ndim != q->ndim || v->ndim != q->ndim)
		return false;
	int nd = q->ndim;
	double E = (double)q->shape[nd - 1], Ev = (double)v->shape[nd - 1];
	double L = (double)q->shape[c->rule->k1 ? nd - 3 : nd - 2];
	double S = (double)k->shape[c->rule->k1 ? nd - 3 : nd - 2];
	double BH = gp_numel(q) / (L * E > 0 ? L * E : 1);
	/* by name (PyProf dict markers; flash-attn calls it causal), else at
	** the op's position k3 (Kineto records arguments by position) */
	const struct gp_arg *causal = gp_opnamed(c, "causal");
	if (!causal)
		causal = gp_opnamed(c, "custom_mask_type");
	if (!causal)
		causal = gp_oparg_or(c, "is_causal", (int)c->rule->k3);
	/* custom_mask_type: 0 none, 1 causal from the top left, 2 from the bottom right */
	bool is_causal = causal && (causal->type == GP_ARG_BOOL || causal->type == GP_ARG_INT) &&
			 causal->value != 0;
	enum gp_dtype dt = gp_opdtype(c, q);
	double s = gp_opsize(dt);
	bool bp = c->dir == GP_DIR_BPROP || c->rule->k2;
	double f = 2 * BH * L * S * (E + Ev) * (is_causal ? 0.5 : 1);
	double io = s * (gp_numel(q) + gp_numel(k) + gp_numel(v) + BH * L * Ev);

	c->dtype = dt;
	gp_pp(c, "BH", "%.0f", BH);
	gp_pp(c, "L", "%.0f", L);
	gp_pp(c, "S", "%.0f", S);
	gp_pp(c, "E", "%.0f", E);
	if (Ev != E)
		gp_pp(c, "Ev", "%.0f", Ev);
	if (is_causal)
		gp_pp(c, "causal", "1");
	gp_pp_type(c, dt);
	bool fused = c->kn->family == GP_KF_ATTENTION || strstr(c->kfull, "flash") || strstr(c->kfull, "fmha") ||
		     strstr(c->kfull, "attention") || strstr(c->kfull, "sdpa") || strstr(c->kfull, "Attention");
	if (fused) {
		c->tc = gp_optc_matrix(c);
		c->flops = bp ? 2.5 * f : f;
		c->bytes = bp ? 2 * io : io;
	} else if (c->kn->gemm_like) {
		c->tc = gp_optc_matrix(c);
		c->flops = f / 2;
		c->bytes = s * (gp_numel(q) + gp_numel(k) + BH * L * S);
	} else {
		c->tc = GP_TC_NOT_APPLICABLE;
		c->flops = 5 * BH * L * S;
		c->bytes = (bp && strstr(c->kshort, "oftmax") ? 3 : 2) * s * BH * L * S;
	}
	return true;
}

/* ---- RNN cells ---- */

/*
** LSTM/GRU/RNN cells: k1 = gates (4 LSTM, 3 GRU, 1 RNN).  x [B,X], h [B,H]
** (the first other 2-D tensor with B rows).  PyProf recurrentCell.py:
** GEMM kernels alternate layer (K = X) and recurrent (K = H) GEMMs of
** M = gates H, N = B; elementwise kernels 0 FLOPs and s (2 gates H B +
** 3 H B) bytes.
*/
static bool f_rnncell(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0), *h = NULL;

	if (!x || x->ndim != 2)
		return false;
	for (uint32_t i = 1; (h = gp_optensor(c, i)); i++)
		if (h->ndim == 2 && h->shape[0] == x->shape[0])
			break;
	if (!h)
		return false;
	double m = c->rule->k1, B = (double)x->shape[0], X = (double)x->shape[1], H = (double)h->shape[1];
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt);
	c->dtype = dt;
	if (c->kn->gemm_like) {
		double K = c->sub % 2 == 0 ? X : H;
		gp_pp(c, "cell", "%s", m == 4 ? "LSTM" : m == 3 ? "GRU" : "RNN");
		return gp_opgemm(c, 1, m * H, B, K, dt);
	}
	gp_pp(c, "cell", "%s", m == 4 ? "LSTM" : m == 3 ? "GRU" : "RNN");
	gp_pp(c, "X", "%.0f", X);
	gp_pp(c, "H", "%.0f", H);
	gp_pp(c, "B", "%.0f", B);
	gp_pp_type(c, dt);
	c->flops = 0;
	c->bytes = s * (2 * m * H * B + 3 * H * B);
	return true;
}

/* ---- optimizers ---- */

/*
** PyProf's apex fused adam: 0 FLOPs, 6 n s_w + n s_g (+ n s_g more with
** mixed precision), 0 for sub > 0.
*/
static bool f_adam(struct gp_opctx *c)
{
	const struct gp_arg *w = gp_optensor(c, 0), *g = gp_optensor(c, 1);

	if (!w)
		return false;
	enum gp_dtype wt = gp_opdtype(c, w), gt = g ? gp_opdtype(c, g) : wt;
	double n = gp_numel(w);
	c->dtype = wt;
	gp_pp_shape(c, "T", w);
	gp_pp(c, "wtype", "%s", gp_dtype_short(wt));
	gp_pp(c, "gtype", "%s", gp_dtype_short(gt));
	c->flops = 0;
	c->bytes = c->sub > 0 ? 0 : 6 * n * gp_opsize(wt) + n * gp_opsize(gt) * (wt != gt ? 2 : 1);
	return true;
}

/*
** Fused and foreach optimizers and multi-tensor ops: every tensor argument
** is read once and k2 of them written back; k1 FLOPs per element read.
** (_fused_adam_: p, g, m, v read, p, m, v written: k2 = 0.75, 12 FLOPs
** per parameter = 3 per element read.)
*/
static bool f_multi(struct gp_opctx *c)
{
	double b = tensor_bytes(c), n = tensor_elems(c);

	if (n <= 0)
		return false;
	const struct gp_arg *x = gp_optensor(c, 0);
	enum gp_dtype dt = gp_opdtype(c, x);
	c->dtype = dt;
	gp_pp(c, "tensors", "%u", gp_opntensors(c));
	gp_pp(c, "elems", "%.0f", n);
	gp_pp_type(c, dt);
	c->flops = c->rule->k1 * n;
	c->bytes = b * (1 + c->rule->k2);
	return true;
}

/* ---- conversions and data movement ---- */

/* The dtype a conversion op produces: from its name (half, float...),
** else a dtype argument ("torch.float16"), else the input's. */
static enum gp_dtype convert_to(const struct gp_opctx *c, enum gp_dtype in)
{
	static const struct {
		const char *op;
		enum gp_dtype dt;
	} names[] = {
		{"half", GP_DT_FP16}, {"float", GP_DT_FP32}, {"double", GP_DT_FP64}, {"bfloat16", GP_DT_BF16},
		{"int", GP_DT_INT32}, {"long", GP_DT_INT64}, {"short", GP_DT_INT16}, {"char", GP_DT_INT8},
		{"byte", GP_DT_UINT8}, {"bool", GP_DT_BOOL},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(c->op, names[i].op) == 0)
			return names[i].dt;
	for (uint32_t j = 0; j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_STR) {
			enum gp_dtype dt = gp_dtype_parse(gp_s(c->t, c->args[j].sval));
			if (dt != GP_DT_UNKNOWN)
				return dt;
		}
	return in;
}

/* Conversions (PyProf convert.py): 0 FLOPs, B(in) + n s(out). */
static bool f_convert(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);

	if (!x)
		return false;
	enum gp_dtype in = gp_opdtype(c, x), out = convert_to(c, in);
	double n = gp_numel(x);
	c->dtype = in;
	gp_pp_shape(c, "T", x);
	gp_pp(c, "stype", "%s", gp_dtype_short(in));
	gp_pp(c, "dtype", "%s", gp_dtype_short(out));
	c->flops = 0;
	c->bytes = n * (gp_opsize(in) + gp_opsize(out));
	return true;
}

/* copy_(dst, src): n (s_src + s_dst). */
static bool f_copy(struct gp_opctx *c)
{
	const struct gp_arg *d = gp_optensor(c, 0), *sr = gp_optensor(c, 1);

	if (!d)
		return false;
	if (!sr)
		sr = d;
	enum gp_dtype dd = gp_opdtype(c, d), sd = gp_opdtype(c, sr);
	c->dtype = dd;
	gp_pp_tensors(c, "T");
	gp_pp(c, "dtype", "%s", gp_dtype_short(dd));
	gp_pp(c, "stype", "%s", gp_dtype_short(sd));
	c->flops = 0;
	c->bytes = gp_numel(d) * (gp_opsize(dd) + gp_opsize(sd));
	return true;
}

/*
** Data movement: 0 FLOPs (k1 > 0: k1 per element, e.g. randperm),
** bytes = k2 x the bytes of the tensor arguments (first tensor only when
** k3 = 1) + a fixed 8 n per element for index outputs (k3 = 2, nonzero).
** clone, contiguous, cat, stack, gather, flip...: read + write = 2B;
** fill/zero: B (write only); view/reshape: no kernel of their own (0).
*/
static bool f_move(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);
	double b, n;

	if (!x) {
		/* zeros/ones/full/randperm from a size list */
		const struct gp_arg *sz = gp_oparg(c, 0);
		if (!sz || (sz->type != GP_ARG_LIST && sz->type != GP_ARG_INT))
			return false;
		n = 1;
		if (sz->type == GP_ARG_INT)
			n = sz->value;
		for (int i = 0; sz->type == GP_ARG_LIST && i < sz->ndim; i++)
			n *= (double)sz->shape[i];
		b = n * 4;
		gp_pp(c, "N", "%.0f", n);
		c->dtype = GP_DT_UNKNOWN;
	} else {
		enum gp_dtype dt = gp_opdtype(c, x);
		c->dtype = dt;
		n = c->rule->k3 >= 1 ? gp_numel(x) : tensor_elems(c);
		b = c->rule->k3 >= 1 ? gp_numel(x) * gp_opsize(dt) : tensor_bytes(c);
		gp_pp_tensors(c, "T");
		gp_pp_type(c, dt);
	}
	c->flops = c->rule->k1 * n;
	c->bytes = c->rule->k2 * b + (c->rule->k3 == 2 ? 8 * n * (x ? x->ndim : 1) : 0);
	return true;
}

/*
** index_select(self, dim, index), gather(self, dim, index), take(self,
** index), take_along_dim(self, indices, dim): they read only what they
** select, not the whole source (an embedding table of 30522 rows read for
** 141 tokens).  out = n(index) elements (k1 = 1, index_select: n(index)
** slices of self along dim); 0 FLOPs, bytes 2 s out + B(index).
*/
static bool f_gather(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0), *idx = gp_optensor(c, 1);

	if (!x || !idx)
		return false;
	double out = gp_numel(idx);
	if (c->rule->k1) {
		const struct gp_arg *dim = gp_oparg_or(c, "dim", 1);
		int64_t d = dim && dim->type == GP_ARG_INT ? (int64_t)dim->value : 0;
		if (d < 0)
			d += x->ndim;
		if (d < 0 || d >= x->ndim || x->shape[d] <= 0)
			return false;
		out *= gp_numel(x) / (double)x->shape[d];
	}
	enum gp_dtype dt = gp_opdtype(c, x);
	enum gp_dtype it = idx->dtype ? (enum gp_dtype)idx->dtype : GP_DT_INT64;
	c->dtype = dt;
	gp_pp_tensors(c, "T");
	gp_pp_type(c, dt);
	c->flops = 0;
	c->bytes = 2 * out * gp_opsize(dt) + gp_numel(idx) * gp_opsize(it);
	return true;
}

/* ---- collectives ---- */

/*
** NCCL collectives: bytes moved per rank for a message of S bytes (the
** first tensor): all-reduce 2S (ring: 2(n-1)/n S, ranks unknown), all-gather
** and reduce-scatter S (the larger side), broadcast/send/recv/all-to-all S.
** The collective comes from the kernel name when the op is generic
** (record_param_comms).  All-reduce and reduce-scatter count one add per
** element.  Family "comm": no compute/memory roofline.
*/
static bool f_comm(struct gp_opctx *c)
{
	const struct gp_arg *x = gp_optensor(c, 0);

	if (!x)
		return false;
	enum gp_dtype dt = gp_opdtype(c, x);
	double s = gp_opsize(dt), n = gp_numel(x);
	const char *k = c->kfull, *op = c->op;
	const char *coll = "other";
	double factor = 1, fl = 0;

	for (uint32_t j = 1; (x = gp_optensor(c, j)); j++)
		if (gp_numel(x) > n)
			n = gp_numel(x);     /* all-gather output / reduce-scatter input */
	if (strstr(k, "AllReduce") || strstr(op, "all_reduce") || strstr(op, "allreduce")) {
		coll = "all_reduce";
		factor = 2;
		fl = n;
	} else if (strstr(k, "AllGather") || strstr(op, "all_gather") || strstr(op, "allgather")) {
		coll = "all_gather";
	} else if (strstr(k, "ReduceScatter") || strstr(op, "reduce_scatter")) {
		coll = "reduce_scatter";
		fl = n;
	} else if (strstr(k, "Broadcast") || strstr(op, "broadcast")) {
		coll = "broadcast";
	} else if (strstr(k, "SendRecv") || strstr(k, "AllToAll") || strstr(op, "all_to_all") ||
		   strstr(op, "alltoall")) {
		coll = "all_to_all";
	} else if (strstr(k, "Send") || strstr(k, "Recv") || strstr(op, "send") || strstr(op, "recv")) {
		coll = "send_recv";
	}
	c->dtype = dt;
	gp_pp(c, "coll", "%s", coll);
	gp_pp(c, "S", "%.0f", n * s);
	gp_pp_type(c, dt);
	c->flops = fl;
	c->bytes = factor * n * s;
	return true;
}

/* ---- the table ---- */

#define GP_OP(names, family, fn, k1, k2, k3, ref) {names, family, fn, k1, k2, k3, ref, NULL},
const struct gp_oprule gp_oprules[] = {
#include "ops/ops.def"
};
#undef GP_OP
const size_t gp_noprules = sizeof(gp_oprules) / sizeof(gp_oprules[0]);

/* Every family ops.def's rows name (tests/unit/test_ops_rules.c checks
** it), the ones a user's rule may name. */
const char *const gp_op_families[] = {
	"gemm", "conv", "attention", "rnn", "pooling", "norm", "softmax", "dropout", "loss", "embedding",
	"reduction", "pointwise", "activation", "optimizer", "convert", "copy", "movement", "comm", NULL
};

int gp_op_family_index(const char *name, size_t len)
{
	for (int i = 0; gp_op_families[i]; i++)
		if (strlen(gp_op_families[i]) == len && strncmp(name, gp_op_families[i], len) == 0)
			return i;
	return -1;
}

/* The formulas by the names a user's ops file may give them: the
** functions above without their f_. */
static const struct {
	const char *name;
	gp_opfn fn;
} formulas[] = {
	{"linear", f_linear}, {"mm", f_mm}, {"matmul", f_matmul}, {"grouped_mm", f_grouped_mm}, {"conv", f_conv}, {"attention", f_attention},
	{"rnncell", f_rnncell}, {"pool", f_pool}, {"norm", f_norm}, {"softmax", f_softmax}, {"dropout", f_dropout},
	{"mse", f_mse}, {"xent", f_xent}, {"embedding", f_embedding}, {"reduce", f_reduce}, {"unary", f_unary},
	{"binary", f_binary}, {"adam", f_adam}, {"multi", f_multi}, {"convert", f_convert}, {"copy", f_copy},
	{"move", f_move}, {"gather", f_gather}, {"comm", f_comm},
};

gp_opfn gp_opformula_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(formulas) / sizeof(formulas[0]); i++)
		if (strlen(formulas[i].name) == len && strncmp(name, formulas[i].name, len) == 0)
			return formulas[i].fn;
	return NULL;
}
