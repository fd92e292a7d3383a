/*
** advise's kernel efficiency rules: below-roofline (kernels with a large
** share of GPU time far below their roofline, gp_op_roofline) and
** small-grid (long kernels with fewer blocks than the GPU has SMs).
*/
#include <stdio.h>
#include <string.h>

#include "analysis/advise_int.h"

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
		gp_adv_agg_add(&a, name, d, k);
	}
	found = n && stake >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		struct gp_roofline rl;
		gp_op_roofline(t, in->ops, (size_t)s, &rl);
		snprintf(x->title, sizeof(x->title), ROOF_TITLE, n, gp_adv_lim.low_eff * 100);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, ROOF_EVIDENCE,
			 gp_s(t, gp_adv_group_key(t, r, (size_t)s)),
			 gp_s(t, gp_kernel_def(t, &t->kernels.v[s])->name), rl.gflops, rl.gbps,
			 rl.eff * 100, rl.bound == 1 ? "compute" : "memory");
		const char *fam = gp_opres_family(&r[s]);
		snprintf(x->change, sizeof(x->change), "%s",
			 fam && !strcmp(fam, "attention") ? ROOF_CHANGE_FUSED_ATTENTION
			 : rl.bound == 1 ? ROOF_CHANGE_COMPUTE : ROOF_CHANGE_MEMORY);
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
		gp_adv_agg_add(&a, gp_kernel_def(t, kr)->name, d, k);
	}
	found = n && stake >= gp_adv_lim.min_share * in->f->gpu_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		gp_str top[1];
		gp_adv_agg_top(&a, top, 1);
		const uint32_t *s = gp_kernel_def(t, &t->kernels.v[a.sample[top[0]]])->grid;
		snprintf(x->title, sizeof(x->title), GRID_TITLE, n, sms);
		gp_adv_evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, GRID_EVIDENCE, s[0], s[1], s[2],
			 s[0] * s[1] * s[2]);
		snprintf(x->change, sizeof(x->change), "%s", GRID_CHANGE);
	}
	gp_adv_agg_free(&a);
	return found;
}
