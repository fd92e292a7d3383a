/*
** advise's kernel efficiency rules: below-roofline (kernels with a large
** share of GPU time far below their roofline, gp_op_roofline) and
** small-grid (long kernels with fewer blocks than the GPU has SMs).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/advise_int.h"

/* The change for a fused attention kernel s far below its roofline, from
** what its params and name say: the dims (head dim E, sequence lengths L
** and S) that are not multiples of what tensor cores tile in its dtype,
** and which backend ran (flash and cuDNN are the fastest SDPA has; the
** memory-efficient one's kernels are named fmha_cutlass*).  When both are
** right it says so instead of asking to check them; what the trace cannot
** tell (a backend by a name it does not know, no params: no shapes
** recorded) it asks to check. */
static void attention_change(const struct gp_adv_in *in, size_t s, char *out, size_t size)
{
	const gp_trace *t = in->t;
	const char *params = in->r[s].params ? gp_s(t, in->r[s].params) : NULL;
	const char *name = gp_s(t, gp_kernel_def(t, &t->kernels.v[s])->name);
	static const char *const dims[] = {"E", "L", "S", NULL};
	int mult = gp_adv_tc_multiple((enum gp_dtype)in->r[s].dtype);
	/* flash (FlashAttention, PyTorch's pytorch_flash, CK's FmhaFwdKernel) and
	** cuDNN's; the memory-efficient backend's CUTLASS kernels */
	bool fast = strstr(name, "flash") || strstr(name, "Flash") || strstr(name, "cudnn") || strstr(name, "Fmha");
	bool slow = !fast && (strstr(name, "fmha_cutlass") || strstr(name, "efficient_attention"));
	char pad[128] = "", have[128] = "";
	size_t lp = 0, lh = 0;

	if (!params || gp_adv_param(params, "E") <= 0) {
		snprintf(out, size, "%s", ROOF_CHANGE_FUSED_ATTENTION);
		return;
	}
	for (int i = 0; dims[i]; i++) {
		double v = gp_adv_param(params, dims[i]);
		if (v <= 0)
			continue;
		if (lh < sizeof(have))
			lh += (size_t)snprintf(have + lh, sizeof(have) - lh, "%s%s=%.0f", lh ? ", " : "", dims[i], v);
		if (fmod(v, mult) != 0 && lp < sizeof(pad))
			lp += (size_t)snprintf(pad + lp, sizeof(pad) - lp, "%s%s=%.0f to %.0f", lp ? ", " : "", dims[i], v,
					       ceil(v / mult) * mult);
	}
	if (!lp && fast) {
		snprintf(out, size, ROOF_CHANGE_ATTENTION_DONE, mult, have);
		return;
	}
	size_t len = 0;
	out[0] = '\0';
	if (lp)
		len += (size_t)snprintf(out, size, ROOF_CHANGE_ATTENTION_PAD, pad, mult);
	else if (!slow)
		len += (size_t)snprintf(out, size, ROOF_CHANGE_ATTENTION_ALIGNED, mult, have);
	if (slow && len < size)
		snprintf(out + len, size - len, "%s" ROOF_CHANGE_ATTENTION_BACKEND, len ? "  " : "", name);
}

/* below-roofline: kernels with a large share of GPU time far below their
** roofline. */
bool gp_rule_roofline(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct gp_adv_agg a, all;
	double stake = 0, total = 0;
	size_t n = 0;
	bool found;

	gp_adv_agg_init(&a, t);
	gp_adv_agg_init(&all, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		gp_adv_agg_add(&all, gp_kernel_def(t, &t->kernels.v[k])->name, gp_adv_dur(&t->kernels.v[k]), k);
	for (size_t k = 0; k < t->kernels.n; k++) {
		double d = gp_adv_dur(&t->kernels.v[k]);
		struct gp_roofline rl;
		if (!r[k].known || d < gp_adv_lim.tiny_ns || gp_op_is_comm(&r[k]))
			continue;     /* tiny kernels: the launch-bound rule */
		gp_str name = gp_kernel_def(t, &t->kernels.v[k])->name;
		if (name >= all.n || all.ns[name] < gp_adv_lim.roofline_name_share * in->f->gpu_ns)
			continue;
		gp_op_roofline(t, in->ops, k, &rl);
		if (rl.eff < 0 || rl.eff >= gp_adv_lim.low_eff)
			continue;
		double save = d - rl.ideal_ns / gp_adv_lim.achievable;
		if (save <= 0)
			continue;
		stake += save;
		total += d;
		n++;
		gp_adv_claim(in, k, in->dur[k] * save / d);
		gp_adv_agg_add(&a, gp_adv_kname(in, k), d, k);
	}
	found = n && stake >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		struct gp_roofline rl;
		gp_op_roofline(t, in->ops, (size_t)s, &rl);
		snprintf(x->title, sizeof(x->title), ROOF_TITLE, n, n == 1 ? "" : "s", n == 1 ? "s" : "", gp_adv_lim.low_eff * 100);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, ROOF_EVIDENCE,
			 gp_s(t, gp_adv_group_key(t, r, (size_t)s)),
			 gp_s(t, gp_adv_kname(in, (size_t)s)), rl.gflops, rl.gbps,
			 rl.eff * 100, rl.bound == 1 ? "compute" : "memory");
		const char *fam = gp_opres_family(&r[s]);
		if (fam && !strcmp(fam, "attention"))
			attention_change(in, (size_t)s, x->change, sizeof(x->change));
		else
			snprintf(x->change, sizeof(x->change), "%s",
				 rl.bound == 1 ? ROOF_CHANGE_COMPUTE : ROOF_CHANGE_MEMORY);
	}
	gp_adv_agg_free(&a);
	gp_adv_agg_free(&all);
	return found;
}

/* small-grid: long kernels whose grid has fewer blocks than the GPU has SMs. */
bool gp_rule_small_grid(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	int sms = in->f->sm_count;
	struct gp_adv_agg a;
	double stake = 0, total = 0;
	size_t n = 0;
	bool found;

	if (sms <= 0)
		return false;
	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const uint32_t *grid = gp_kernel_def(t, kr)->grid;
		double blocks = (double)grid[0] * grid[1] * grid[2], d = gp_adv_dur(kr);
		if (!blocks || blocks >= sms || d < gp_adv_lim.small_grid_min_ns)
			continue;
		if (gp_op_is_comm(&r[k]))
			continue;      /* NCCL kernels use few blocks by design */
		stake += d * (1 - blocks / sms) / 2;
		total += d;
		n++;
		gp_adv_claim(in, k, in->dur[k] * (1 - blocks / sms) / 2);
		gp_adv_agg_add(&a, gp_adv_kname(in, k), d, k);
	}
	found = n && stake >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		const uint32_t *s = gp_kernel_def(t, &t->kernels.v[a.sample[top[0]]])->grid;
		snprintf(x->title, sizeof(x->title), GRID_TITLE, n, n == 1 ? "" : "s", n == 1 ? "es" : "", sms);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, GRID_EVIDENCE, s[0], s[1], s[2],
			 s[0] * s[1] * s[2], s[0] * s[1] * s[2] == 1 ? "" : "s");
		snprintf(x->change, sizeof(x->change), "%s", GRID_CHANGE);
	}
	gp_adv_agg_free(&a);
	return found;
}
