/*
** advise's tensor-core and precision rules: tc-not-used (eligible ops off
** the tensor cores, and which dimension to pad), fp32-gemm (fp32 GEMMs
** that TF32 or mixed precision would speed up), fp32-unshaped (the same
** without shapes in the trace: how to record them).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"

/* "pad K=1001 to 1008, N=700 is fine": the dims of a GEMM/conv's params
** that are not multiples of mult.  A convolution (conv true) runs as an
** implicit GEMM of M = N*P*Q, N = K, K = C*R*S: only its channels C and K
** are the GEMM's to pad; its batch N never is (a batch of 1 is fine). */
static void pad_advice(const char *params, bool conv, int mult, char *out, size_t size)
{
	static const char *const gemm_keys[] = {"M", "N", "K", "C", NULL};
	static const char *const conv_keys[] = {"C", "K", NULL};
	const char *const *keys = conv ? conv_keys : gemm_keys;
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; keys[i] && len < size; i++) {
		double v = gp_adv_param(params, keys[i]);
		if (v <= 0 || fmod(v, mult) == 0)
			continue;
		double to = ceil(v / mult) * mult;
		int w = snprintf(out + len, size - len, "%s%s=%.0f to %.0f", len ? ", " : "", keys[i], v, to);
		if (w > 0)
			len += (size_t)w;
	}
}

/* The kernels of a precision rule: every kernel pick() takes claims half
** its wall time (tensor cores, TF32 or mixed precision would at least
** halve it); their time and count go to *total and *n, their ops into a
** (gp_adv_agg_init'ed here).  Returns whether they hold the rules' share
** of GPU time. */
static bool claim_half(const struct gp_adv_in *in, bool (*pick)(const struct gp_adv_in *in, size_t k),
		       struct gp_adv_agg *a, double *total, size_t *n)
{
	const gp_trace *t = in->t;

	*total = 0;
	*n = 0;
	gp_adv_agg_init(a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!pick(in, k))
			continue;
		*total += gp_adv_dur(&t->kernels.v[k]);
		(*n)++;
		gp_adv_claim(in, k, in->dur[k] / 2);
		gp_adv_agg_add(a, gp_adv_group_key(t, in->r, k), gp_adv_dur(&t->kernels.v[k]), k);
	}
	return *n && *total >= gp_adv_lim.min_share * in->f->gpu_ns;
}

/* A tensor-core-eligible op's kernel that ran on CUDA cores. */
static bool eligible_off_tc(const struct gp_adv_in *in, size_t k)
{
	return in->r[k].tc_eligible && in->r[k].tc == GP_TC_NO;
}

/* tc-not-used: tensor-core-eligible ops that did not run on tensor cores. */
bool gp_rule_tc_not_used(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total;
	size_t n;
	bool found = claim_half(in, eligible_off_tc, &a, &total, &n);

	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		enum gp_dtype dt = (enum gp_dtype)r[s].dtype;
		int mult = gp_adv_tc_multiple(dt);
		char pad[200];
		const char *fam = gp_opres_family(&r[s]);
		pad_advice(gp_s(t, r[s].params), fam && strcmp(fam, "conv") == 0, mult, pad, sizeof(pad));
		snprintf(x->title, sizeof(x->title), TC_TITLE, n, gp_dtype_short(dt));
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (pad[0])
			snprintf(x->change, sizeof(x->change), TC_CHANGE_PAD, mult, gp_dtype_short(dt), pad);
		else
			snprintf(x->change, sizeof(x->change), TC_CHANGE_LAYOUT, mult);
	}
	gp_adv_agg_free(&a);
	return found;
}

/* Whether a GPU has a TF32 rate in the peak table (Ampere on; AMD rows
** hold the FP32-matrix rate there on CDNA2/4). */
static bool has_tf32(const struct gp_gpu *g)
{
	return g && g->tf32 > 0;
}

/* An fp32 GEMM, convolution, attention or RNN kernel with modelled work
** on CUDA cores. */
static bool fp32_gemm(const struct gp_adv_in *in, size_t k)
{
	const struct gp_opres *r = &in->r[k];
	const char *fam = gp_opres_family(r);
	/* trial runs and kernels whose modelled work exceeds the peak have no
	** trusted FLOPs but are fp32 GEMMs all the same; helpers (0 FLOPs)
	** are not */
	bool work = (r->known && r->flops > 0) || r->trial || r->overpeak;

	return fam && r->dtype == GP_DT_FP32 && r->tc == GP_TC_NO && work &&
	       (!strcmp(fam, "gemm") || !strcmp(fam, "conv") || !strcmp(fam, "attention") || !strcmp(fam, "rnn"));
}

/* fp32-gemm: fp32 GEMMs, convolutions and attention on CUDA cores. */
bool gp_rule_fp32_gemm(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total;
	size_t n;
	bool found = claim_half(in, fp32_gemm, &a, &total, &n);

	if (found) {
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32_TITLE, n);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (has_tf32(in->gpu))
			snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, FP32_CHANGE_TF32));
		else
			snprintf(x->change, sizeof(x->change), gp_adv_say(in->t, FP32_CHANGE_AMP), in->gpu ? "" : FP32_UNKNOWN_GPU);
	}
	gp_adv_agg_free(&a);
	return found;
}

/* Whether a GPU has tensor cores: the peak table gives it an fp16
** tensor-core rate. */
static bool has_tensor_cores(const struct gp_gpu *g)
{
	return g && g->fp16 > 0;
}

/* An fp32 GEMM/conv kernel (by its op's family or its name) on CUDA cores
** whose op has no shapes: no params, no FLOPs. */
static bool fp32_unshaped(const struct gp_adv_in *in, size_t k)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = &in->r[k];
	const char *name = gp_s(t, gp_kernel_long_name_of(t, &t->kernels.v[k]));
	const char *fam = gp_opres_family(r);

	if (r->tc != GP_TC_NO || r->params || (r->known && r->flops > 0) || gp_op_is_comm(r))
		return false;
	enum gp_dtype dt = r->dtype != GP_DT_UNKNOWN ? (enum gp_dtype)r->dtype : gp_kernel_dtype(name);
	bool gemm = fam && (!strcmp(fam, "gemm") || !strcmp(fam, "conv") || !strcmp(fam, "rnn"));
	return dt == GP_DT_FP32 && (gemm || gp_kernel_is_gemm_like(name));
}

/* fp32-unshaped: fp32 GEMM/conv kernels on CUDA cores of a GPU with tensor
** cores, whose op has no shapes in the trace (fp32-gemm takes those with
** shapes and FLOPs). */
bool gp_rule_fp32_unshaped(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total;
	size_t n;
	bool found;

	if (!has_tensor_cores(in->gpu))
		return false;
	found = claim_half(in, fp32_unshaped, &a, &total, &n);
	if (found) {
		char amp[400];      /* the precision advice, then why to record shapes */
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32NS_TITLE, n);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s", FP32NS_EVIDENCE);
		if (has_tf32(in->gpu))
			snprintf(amp, sizeof(amp), "%s", gp_adv_say(in->t, FP32_CHANGE_TF32));
		else
			snprintf(amp, sizeof(amp), gp_adv_say(in->t, FP32_CHANGE_AMP), "");
		snprintf(x->change, sizeof(x->change), gp_adv_say(in->t, FP32NS_CHANGE), amp);
	}
	gp_adv_agg_free(&a);
	return found;
}
