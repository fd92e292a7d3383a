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

/* GPUs without TF32 (pre-Ampere), by substring of the peak table's name. */
static const char *const no_tf32_gpus[] = {"V100", "T4", "TITAN V", "RTX 20", "GP100", NULL};

/* The value of key in a params string ("M=200,N=(35,20),K=200"), tuples
** multiplied out; -1 if absent. */
static double param_val(const char *params, const char *key)
{
	size_t kl = strlen(key);
	const char *p = params;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
			p += kl + 1;
			if (*p == '(') {
				double v = 1;
				for (p++; *p && *p != ')';) {
					char *e;
					double x = strtod(p, &e);
					if (e == p)
						break;
					v *= x;
					p = *e == ',' ? e + 1 : e;
				}
				return v;
			}
			char *e;
			double v = strtod(p, &e);
			return e == p ? -1 : v;
		}
		/* next key: skip to the next ',' outside parentheses */
		int depth = 0;
		for (; *p && (depth || *p != ','); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (*p)
			p++;
	}
	return -1;
}

/* "pad K=1001 to 1008, N=700 is fine": the dims of a GEMM/conv's params
** that are not multiples of mult. */
static void pad_advice(const char *params, int mult, char *out, size_t size)
{
	static const char *const keys[] = {"M", "N", "K", "C", NULL};
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; keys[i] && len < size; i++) {
		double v = param_val(params, keys[i]);
		if (v <= 0 || fmod(v, mult) == 0)
			continue;
		double to = ceil(v / mult) * mult;
		int w = snprintf(out + len, size - len, "%s%s=%.0f to %.0f", len ? ", " : "", keys[i], v, to);
		if (w > 0)
			len += (size_t)w;
	}
}

static int tc_multiple(enum gp_dtype dt)
{
	switch (dt) {
	case GP_DT_FP8_E4M3: case GP_DT_FP8_E5M2: case GP_DT_INT8: return 16;
	case GP_DT_TF32: return 4;
	default: return 8;
	}
}

/* tc-not-used: tensor-core-eligible ops that did not run on tensor cores. */
bool gp_rule_tc_not_used(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!r[k].tc_eligible || r[k].tc != GP_TC_NO)
			continue;
		total += gp_adv_dur(&t->kernels.v[k]);
		n++;
		gp_adv_claim(in, k, in->wall[k] / 2);
		gp_adv_agg_add(&a, gp_adv_group_key(t, r, k), gp_adv_dur(&t->kernels.v[k]), k);
	}
	found = n && total >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		enum gp_dtype dt = (enum gp_dtype)r[s].dtype;
		int mult = tc_multiple(dt);
		char pad[200];
		pad_advice(gp_s(t, r[s].params), mult, pad, sizeof(pad));
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

static bool has_tf32(const char *gpu)
{
	for (int i = 0; no_tf32_gpus[i]; i++)
		if (strstr(gpu, no_tf32_gpus[i]))
			return false;
	return true;
}

/* fp32-gemm: fp32 GEMMs, convolutions and attention on CUDA cores. */
bool gp_rule_fp32_gemm(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const char *fam = gp_opres_family(&r[k]);
		/* trial runs and kernels whose modelled work exceeds the
		** peak have no trusted FLOPs but are fp32 GEMMs all the same;
		** helpers (0 FLOPs) are not */
		bool work = (r[k].known && r[k].flops > 0) || r[k].trial || r[k].overpeak;
		if (!fam || r[k].dtype != GP_DT_FP32 || r[k].tc != GP_TC_NO || !work ||
		    (strcmp(fam, "gemm") && strcmp(fam, "conv") && strcmp(fam, "attention") && strcmp(fam, "rnn")))
			continue;
		total += gp_adv_dur(&t->kernels.v[k]);
		n++;
		gp_adv_claim(in, k, in->wall[k] / 2);
		gp_adv_agg_add(&a, gp_adv_group_key(t, r, k), gp_adv_dur(&t->kernels.v[k]), k);
	}
	found = n && total >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		const char *gpu = in->f->gpu;
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32_TITLE, n);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (gpu && has_tf32(gpu))
			snprintf(x->change, sizeof(x->change), "%s", FP32_CHANGE_TF32);
		else
			snprintf(x->change, sizeof(x->change), FP32_CHANGE_AMP, gpu ? "" : FP32_UNKNOWN_GPU);
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

/* fp32-unshaped: fp32 GEMM/conv kernels on CUDA cores of a GPU with tensor
** cores, whose op has no shapes in the trace (fp32-gemm takes those with
** shapes and FLOPs). */
bool gp_rule_fp32_unshaped(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	if (!has_tensor_cores(in->gpu))
		return false;
	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const char *name = gp_s(t, gp_kernel_long_name_of(t, kr));
		const char *fam = gp_opres_family(&r[k]);
		if (r[k].tc != GP_TC_NO || r[k].params || (r[k].known && r[k].flops > 0) || gp_op_is_comm(&r[k]))
			continue;
		enum gp_dtype dt = r[k].dtype != GP_DT_UNKNOWN ? (enum gp_dtype)r[k].dtype : gp_kernel_dtype(name);
		bool gemm = fam && (!strcmp(fam, "gemm") || !strcmp(fam, "conv") || !strcmp(fam, "rnn"));
		if (dt != GP_DT_FP32 || !(gemm || gp_kernel_is_gemm_like(name)))
			continue;
		total += gp_adv_dur(kr);
		n++;
		gp_adv_claim(in, k, in->wall[k] / 2);
		gp_adv_agg_add(&a, gp_adv_group_key(t, r, k), gp_adv_dur(kr), k);
	}
	found = n && total >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		char amp[400];      /* the precision advice, then why to record shapes */
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32NS_TITLE, n);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s", FP32NS_EVIDENCE);
		if (has_tf32(in->gpu->name))
			snprintf(amp, sizeof(amp), "%s", FP32_CHANGE_TF32);
		else
			snprintf(amp, sizeof(amp), FP32_CHANGE_AMP, "");
		snprintf(x->change, sizeof(x->change), FP32NS_CHANGE, amp);
	}
	gp_adv_agg_free(&a);
	return found;
}
