/*
** gpuprof advise's engine (advise.h): the facts every rule shares, the
** table of rules, and the savings.  The rules live by family in
** advise_*.c, their texts in advise_texts.h, their thresholds below
** (docs/op-model.md, "advise").
**
** Each rule scans the trace once, sums the time involved per group (op,
** kernel or call name, indexed by string id: no hashing), and emits at most
** one finding with the top groups as evidence and the change it advises,
** stated as a change to the timeline: time taken off kernels and copies
** (a 2x faster GEMM, a fused elementwise row), CPU time of a cause removed
** (data loading, allocator calls), syncs or launches no longer waited for,
** a graph replay's own latencies gone.  The global latency changes leave
** graph replays as recorded (gp_whatif_spec.keep_graphs): the gaps before
** and inside replays are the graph rules' (advise_graph.c), which change
** the replays' units one by one.
** The engine then re-times the trace's dependency graph with each change
** (whatif.h): what the span would be after it is the finding's saving
** alone.  The findings are then ranked greedily on the same replay: each
** position takes the change that, added to those above it, saves most,
** and a finding keeps what it saves beyond them.  So the savings printed
** add up to the replay of all the changes together, and are the replays'
** own figures: two findings that change the same work (a slow fp32 GEMM is
** both fp32 and below its roofline) do not count its saving twice, a
** change that only pays once another is made (idle behind a gap another
** finding closes) says so, and the model, not a rule of thumb, says how
** much they share.
**
** Adding a rule = one function in its family's file (declared in
** advise_int.h), one row in the table below, its texts in advise_texts.h
** and its limits in gp_adv_lim.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/critpath.h"
#include "model/classify.h"
#include "util/fmt.h"

const struct gp_adv_limits gp_adv_lim = {
	.min_share = 0.01,
	.copy_share_div = 10,
	.tiny_ns = 10000.0,
	.launch_gap_ns = 1000000.0,
	.tiny_min_count = 100,
	.tiny_min_part = 2,
	.idle_gap_ns = 100000.0,
	.low_eff = 0.3,
	.roofline_name_share = 0.05,
	.achievable = 0.8,
	.small_grid_min_ns = 20000.0,
	.fusion_small_ns = 50000.0,
	.fusion_min_run = 3,
	.fusion_min_share = 0.05,
	.attn_max_between = 8,
	.churn_min_events = 2,
};

void gp_adv_involved(struct gp_finding *x, double total_ns, size_t count)
{
	x->total_ns = total_ns;
	x->count = count;
}

double gp_adv_span_pct(const struct gp_adv_in *in, double ns)
{
	double span = in->f->span_ns * (in->f->devices > 1 ? in->f->devices : 1);

	return span > 0 ? 100 * ns / span : 0.0;
}

void gp_adv_claim(const struct gp_adv_in *in, size_t u, double ns)
{
	if (ns <= 0 || u >= in->nunits || in->dur[u] <= 0)
		return;
	/* the change runs it (dur - ns) / dur as long; a unit two changes
	** speed up keeps the larger saving (they are alternatives) */
	float f = (float)(ns >= in->dur[u] ? 0 : (in->dur[u] - ns) / in->dur[u]);
	if (f < in->factors[u])
		in->factors[u] = f;
	in->spec->unit_factor = in->factors;
}

void gp_adv_pin(const struct gp_adv_in *in, size_t u)
{
	if (u >= in->nunits)
		return;
	in->pinned[u] = 1;
	in->spec->unit_pinned = in->pinned;
}

void gp_adv_loosen(const struct gp_adv_in *in, size_t u, uint8_t bits)
{
	if (u >= in->nunits)
		return;
	in->loose[u] |= bits;
	in->spec->unit_loose = in->loose;
}

double gp_adv_gap_mask_ns(const struct gp_adv_in *in, size_t i, uint32_t mask, int where)
{
	double v = 0;

	if (where != GP_ADV_GAP_ANY && gp_adv_gap_graph(in, i) != where)
		return 0;
	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		if (mask & (1u << c))
			v += gp_adv_gap_cause_ns(in, i, c);
	return v;
}

void gp_adv_agg_init(struct gp_adv_agg *a, const gp_trace *t)
{
	a->n = t->strs.n + 1;
	a->ns = gp_xcalloc(a->n, sizeof(*a->ns));
	a->cnt = gp_xcalloc(a->n, sizeof(*a->cnt));
	a->sample = gp_xcalloc(a->n, sizeof(*a->sample));
}

void gp_adv_agg_free(struct gp_adv_agg *a)
{
	free(a->ns);
	free(a->cnt);
	free(a->sample);
}

void gp_adv_agg_add(struct gp_adv_agg *a, gp_str id, double ns, size_t k)
{
	if (id >= a->n) {   /* a name interned since (a marker's label: gp_deps_text) */
		size_t n = (size_t)id + 1 + a->n / 4;
		a->ns = gp_xrealloc(a->ns, n * sizeof(*a->ns));
		a->cnt = gp_xrealloc(a->cnt, n * sizeof(*a->cnt));
		a->sample = gp_xrealloc(a->sample, n * sizeof(*a->sample));
		memset(a->ns + a->n, 0, (n - a->n) * sizeof(*a->ns));
		memset(a->cnt + a->n, 0, (n - a->n) * sizeof(*a->cnt));
		memset(a->sample + a->n, 0, (n - a->n) * sizeof(*a->sample));
		a->n = n;
	}
	/* keep the longest kernel as the sample */
	if (!a->cnt[id] || ns > a->ns[id] / a->cnt[id])
		a->sample[id] = (int32_t)k;
	a->ns[id] += ns;
	a->cnt[id]++;
}

int gp_adv_agg_top(const struct gp_adv_agg *a, gp_str *top, int ntop)
{
	int n = 0;

	for (size_t id = 0; id < a->n; id++) {
		if (!a->cnt[id])
			continue;
		int i = n < ntop ? n++ : ntop;
		if (i == ntop && a->ns[id] <= a->ns[top[ntop - 1]])
			continue;
		if (i == ntop)
			i = ntop - 1;
		while (i > 0 && a->ns[top[i - 1]] < a->ns[id]) {
			top[i] = top[i - 1];
			i--;
		}
		top[i] = (gp_str)id;
	}
	return n;
}

double gp_adv_param(const char *params, const char *key)
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

int gp_adv_tc_multiple(enum gp_dtype dt)
{
	switch (dt) {
	case GP_DT_FP8_E4M3: case GP_DT_FP8_E5M2: case GP_DT_INT8: return 16;
	case GP_DT_TF32: return 4;
	default: return 8;
	}
}

double gp_adv_dur(const struct gp_kernel *k)
{
	return k->end > k->start ? (double)(k->end - k->start) : 0;
}


gp_str gp_adv_group_key(const gp_trace *t, const struct gp_opres *r, size_t k)
{
	if (r[k].op)
		return r[k].op;
	if (t->attrs && t->attrs[k].op)
		return t->attrs[k].op;
	return gp_kernel_def(t, &t->kernels.v[k])->name;
}

void gp_adv_evidence(const gp_trace *t, const struct gp_opres *r, const struct gp_adv_agg *a, char *out,
		     size_t size, const char *unit)
{
	gp_str top[3];
	int n = gp_adv_agg_top(a, top, 3);
	size_t len = 0;
	char d[32];

	out[0] = 0;
	for (int i = 0; i < n && len < size; i++) {
		int32_t s = a->sample[top[i]];
		const char *params = r && r[s].params ? gp_s(t, r[s].params) : NULL;
		/* unit is a plural ("kernels"): one is "1 kernel" */
		int ulen = (int)strlen(unit) - (a->cnt[top[i]] == 1 && *unit && unit[strlen(unit) - 1] == 's');
		/* long generic params (every tensor of a big op) are cut */
		int w = snprintf(out + len, size - len, "%s%s %s in %u %.*s%s%.100s%s%s", i ? "; " : "",
				 gp_s(t, top[i]), gp_fmt_duration(a->ns[top[i]], d, sizeof(d)), a->cnt[top[i]], ulen, unit,
				 params ? " (" : "", params ? params : "",
				 params && strlen(params) > 100 ? "..." : "", params ? ")" : "");
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

void gp_adv_largest_gaps(const struct gp_adv_in *in, int c, int where, char *out, size_t size)
{
	size_t top[3];
	double ns[3];
	size_t n = 0, len = strlen(out);
	char d[32], when[32], story[512];

	for (size_t i = 0; i < in->ngaps; i++) {
		double v = c >= 0 ? gp_adv_gap_cause_ns(in, i, c) : gp_adv_gap_ns(in, i);
		/* a gap the cause holds a small part of tells little about it */
		if ((where != GP_ADV_GAP_ANY && gp_adv_gap_graph(in, i) != where) || v <= 0 || (n == 3 && v <= ns[2]) || (n && v < 0.1 * gp_adv_gap_ns(in, i)))
			continue;
		size_t at = n < 3 ? n++ : 2;
		while (at > 0 && ns[at - 1] < v) {
			top[at] = top[at - 1];
			ns[at] = ns[at - 1];
			at--;
		}
		top[at] = i;
		ns[at] = v;
	}
	if (!n)
		return;
	if (len < size)
		len += (size_t)snprintf(out + len, size - len, "%s", len ? "; " LARGEST_GAPS : LARGEST_GAPS);
	for (size_t i = 0; i < n && len < size; i++) {
		const struct gp_bd_gap_cause *g = &in->gaps[top[i]];
		gp_gap_story(in->deps, g->unit, g->start, g->end, story, sizeof(story));
		len += (size_t)snprintf(out + len, size - len, LARGEST_GAP, i ? ";" : "",
					gp_fmt_duration((double)(g->end - g->start), d, sizeof(d)),
					gp_fmt_duration((double)(g->start - in->origin), when, sizeof(when)),
					*story ? story : LARGEST_GAP_UNKNOWN);
	}
}

/* The rules, in the order their findings are collected (then ranked by
** the time at stake). */
static const struct {
	const char *kind;       /* stable id, in JSON/CSV output and docs */
	gp_adv_rule fn;
} rules[] = {
	{"tc-not-used", gp_rule_tc_not_used},
	{"fp32-gemm", gp_rule_fp32_gemm},
	{"below-roofline", gp_rule_roofline},
	/* the findings about one cause of idle time take its name (critpath.h) */
	{"cpu_op", gp_rule_cpu_bound},
	{"launch", gp_rule_launch_latency},
	{"sync", gp_rule_sync_calls},
	{"dataloader", gp_rule_dataloader},
	{"python", gp_rule_python},
	{"comm_wait", gp_rule_comm_wait},
	{"annotation", gp_rule_annotation},
	{"allocator", gp_rule_allocator},
	{"first_alloc", gp_rule_first_alloc},
	{"jit", gp_rule_jit},
	{"autotune", gp_rule_autotune},
	{"module_load", gp_rule_module_load},
	{"capture", gp_rule_capture},
	{"cuda_api", gp_rule_cuda_api},
	{"event_wait", gp_rule_event_wait},
	{"untraced", gp_rule_untraced},
	{"tiny-kernels", gp_rule_tiny_kernels},
	{"pageable_copy", gp_rule_pageable_memcpy},
	{"host-sync-copies", gp_rule_sync_copies},
	{"sync-memcpy", gp_rule_sync_memcpy},
	{"small-grid", gp_rule_small_grid},
	{"fp32-unshaped", gp_rule_fp32_unshaped},
	{"fusion", gp_rule_fusion},
	{"unfused-attention", gp_rule_unfused_attention},
	{"alloc-churn", gp_rule_alloc_churn},
	{"exposed-comm", gp_rule_exposed_comm},
	{"graph-unattributed", gp_rule_graph_unattributed},
	{"graph-host-bound", gp_rule_graph_host_bound},
	{"graph-gaps", gp_rule_graph_gaps},
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* A fired finding's change, kept until its saving is known: the spec, the
** units it speeds up, the copies it issues without waiting and the units
** it loosens (sparse: most findings touch few). */
struct change {
	struct gp_whatif_spec spec;
	GP_VEC(uint32_t) units;
	GP_VEC(float) factors;
	GP_VEC(uint32_t) pinned;
	GP_VEC(uint32_t) loosened;
	GP_VEC(uint8_t) loose;
};

static void change_free(struct change *c)
{
	gp_vec_free(c->units);
	gp_vec_free(c->factors);
	gp_vec_free(c->pinned);
	gp_vec_free(c->loosened);
	gp_vec_free(c->loose);
}

/* Copies the running rule's change out of in (and resets in for the next). */
static void keep_change(struct gp_adv_in *in, struct change *c)
{
	memset(c, 0, sizeof(*c));
	c->spec = *in->spec;
	c->spec.unit_factor = NULL;
	c->spec.unit_pinned = NULL;
	c->spec.unit_loose = NULL;
	for (size_t u = 0; u < in->nunits; u++) {
		if (in->factors[u] < 1) {
			*gp_vec_push(c->units) = (uint32_t)u;
			*gp_vec_push(c->factors) = in->factors[u];
			in->factors[u] = 1;
		}
		if (in->pinned[u]) {
			*gp_vec_push(c->pinned) = (uint32_t)u;
			in->pinned[u] = 0;
		}
		if (in->loose[u]) {
			*gp_vec_push(c->loosened) = (uint32_t)u;
			*gp_vec_push(c->loose) = in->loose[u];
			in->loose[u] = 0;
		}
	}
	memset(in->spec, 0, sizeof(*in->spec));
}

/* Adds change c to spec (factors, pinned, loose: the arrays spec points to
** when units change). */
static void apply_change(const struct change *c, struct gp_whatif_spec *spec, float *factors, uint8_t *pinned,
			 uint8_t *loose)
{
	spec->remove_cpu |= c->spec.remove_cpu;
	spec->no_launch_latency |= c->spec.no_launch_latency;
	spec->no_gpu_gaps |= c->spec.no_gpu_gaps;
	spec->pinned_copies |= c->spec.pinned_copies;
	spec->no_staging |= c->spec.no_staging;
	spec->no_syncs |= c->spec.no_syncs;
	spec->no_launch_waits |= c->spec.no_launch_waits;
	for (size_t i = 0; i < c->units.n; i++)
		if (c->factors.v[i] < factors[c->units.v[i]])
			factors[c->units.v[i]] = c->factors.v[i];
	if (c->units.n)
		spec->unit_factor = factors;
	for (size_t i = 0; i < c->pinned.n; i++)
		pinned[c->pinned.v[i]] = 1;
	if (c->pinned.n)
		spec->unit_pinned = pinned;
	for (size_t i = 0; i < c->loosened.n; i++)
		loose[c->loosened.v[i]] |= c->loose.v[i];
	if (c->loosened.n)
		spec->unit_loose = loose;
}

/* Whether sorted lists a and b of n and m entries share one. */
static bool sorted_share(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
	for (size_t i = 0, j = 0; i < n && j < m;) {
		if (a[i] == b[j])
			return true;
		if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return false;
}

/* Whether changes a and b touch the same work: a unit both speed up, a
** copy both pin, a unit both loosen, a CPU cause both remove, a wait both
** drop. */
static bool changes_share(const struct change *a, const struct change *b)
{
	const struct gp_whatif_spec *x = &a->spec, *y = &b->spec;

	if ((x->remove_cpu & y->remove_cpu) || (x->no_launch_latency && y->no_launch_latency) ||
	    (x->no_gpu_gaps && y->no_gpu_gaps) || (x->pinned_copies && y->pinned_copies) ||
	    (x->no_staging && y->no_staging) || (x->no_syncs && y->no_syncs) || (x->no_launch_waits && y->no_launch_waits))
		return true;
	return sorted_share(a->units.v, a->units.n, b->units.v, b->units.n) ||
	       sorted_share(a->pinned.v, a->pinned.n, b->pinned.v, b->pinned.n) ||
	       sorted_share(a->loosened.v, a->loosened.n, b->loosened.v, b->loosened.n);
}

/* What the change spec saves: how much shorter replay r makes the GPU span
** of the process whose work ends last (its whole span when it ran no GPU
** work), the denominator every finding's share is of. */
static double saving(struct gp_replay *r, const struct gp_whatif_spec *spec)
{
	struct gp_whatif_result res;
	double saved;

	gp_replay_run(r, spec, &res);
	saved = res.gpu_before > 0 ? (double)(res.gpu_before - res.gpu_after)
				   : (double)(res.span_before - res.span_after);
	gp_whatif_result_free(&res);
	return saved;
}

/* Into spec: base (base_*: its factors, pinned copies and loosened units)
** with change c added, its arrays the copies in scratch f, p, l of
** nunits. */
static void spec_with(const struct gp_whatif_spec *base, const float *base_f, const uint8_t *base_p,
		      const uint8_t *base_l, const struct change *c, float *f, uint8_t *p, uint8_t *l, size_t nunits,
		      struct gp_whatif_spec *spec)
{
	*spec = *base;
	memcpy(f, base_f, nunits * sizeof(*f));
	memcpy(p, base_p, nunits);
	memcpy(l, base_l, nunits);
	if (spec->unit_factor)
		spec->unit_factor = f;
	if (spec->unit_pinned)
		spec->unit_pinned = p;
	if (spec->unit_loose)
		spec->unit_loose = l;
	apply_change(c, spec, f, p, l);
}

/* The replay of spec over the changes in ch picked so far (base_*: their
** factors, pinned copies and loosened units) with change c added: what
** they save together.  Scratch arrays f, p, l of nunits receive the copy. */
static double saving_with(struct gp_replay *r, const struct gp_whatif_spec *base, const float *base_f,
			  const uint8_t *base_p, const uint8_t *base_l, const struct change *c, float *f, uint8_t *p,
			  uint8_t *l, size_t nunits)
{
	struct gp_whatif_spec spec;

	spec_with(base, base_f, base_p, base_l, c, f, p, l, nunits, &spec);
	return saving(r, &spec);
}

/* Whether finding a goes before b among candidates that save the same:
** notices first, then the larger saving alone, the more time involved,
** the rule table's order. */
static bool before_tie(const struct gp_finding *f, size_t a, size_t b)
{
	if (f[a].alone_ns != f[b].alone_ns)
		return f[a].alone_ns > f[b].alone_ns;
	if (f[a].total_ns != f[b].total_ns)
		return f[a].total_ns > f[b].total_ns;
	return a < b;
}

/* Replays spec on r and writes where it puts the collective kernels
** (units cu[0..ncoll)) and the GPU work's first start and last end into
** out (GP_MOVES_STRIDE(ncoll) entries, advise.h). */
static void moved(struct gp_replay *r, const struct gp_whatif_spec *spec, const int32_t *cu, size_t ncoll,
		  gp_ns *out)
{
	struct gp_whatif_result res;

	gp_replay_run(r, spec, &res);
	for (size_t k = 0; k < ncoll; k++)
		gp_replay_unit(r, (size_t)cu[k], &out[2 * k], &out[2 * k + 1]);
	out[2 * ncoll] = res.gpu_first_after;
	out[2 * ncoll + 1] = res.gpu_first_after + res.gpu_after;
	gp_whatif_result_free(&res);
}

/* f->moves (advise.h) of the n ranked findings x with their changes ch:
** the replay unchanged, then each one's change alone and the changes of
** the findings up to it together (a notice's: unchanged).  2n + 1 replays
** on r. */
static void moves_of(struct gp_replay *r, struct gp_findings *f, const struct gp_finding *x,
		     const struct change *ch, size_t n, const int32_t *cu, size_t ncoll, size_t nunits)
{
	size_t stride = GP_MOVES_STRIDE(ncoll), nu = nunits ? nunits : 1;
	float *one = gp_xmalloc(nu * sizeof(*one)), *sum = gp_xmalloc(nu * sizeof(*sum));
	float *sf = gp_xmalloc(nu * sizeof(*sf));
	uint8_t *zp = gp_xcalloc(nu, 1), *zl = gp_xcalloc(nu, 1), *pp = gp_xcalloc(nu, 1), *pl = gp_xcalloc(nu, 1);
	uint8_t *sp = gp_xcalloc(nu, 1), *sl = gp_xcalloc(nu, 1);
	struct gp_whatif_spec none = {.keep_graphs = true}, all = none, spec;

	for (size_t u = 0; u < nunits; u++)
		one[u] = sum[u] = 1;
	f->ncoll = ncoll;
	f->moves = gp_xmalloc((1 + 2 * n) * stride * sizeof(*f->moves));
	moved(r, &none, cu, ncoll, f->moves);
	for (size_t i = 0; i < n; i++) {
		gp_ns *alone = f->moves + (1 + 2 * i) * stride, *cum = alone + stride;
		if (x[i].first) {
			memcpy(alone, f->moves, stride * sizeof(*alone));
			memcpy(cum, f->moves, stride * sizeof(*cum));
			continue;
		}
		spec_with(&none, one, zp, zl, &ch[i], sf, sp, sl, nunits, &spec);
		moved(r, &spec, cu, ncoll, alone);
		apply_change(&ch[i], &all, sum, pp, pl);
		moved(r, &all, cu, ncoll, cum);
	}
	free(one);
	free(sum);
	free(sf);
	free(zp);
	free(zl);
	free(pp);
	free(pl);
	free(sp);
	free(sl);
}

/* Re-times the trace with each finding's change alone (alone_ns), drops
** the findings that save nothing measurable alone (a thousandth of the
** span) unless they are notices or one-time costs, then ranks the rest
** greedily, the one-time costs before the others: each position takes the
** finding (of its group) whose change, added to the changes above it,
** saves most; its ns is what it adds (the replay of the changes up to it,
** cum_ns, less the one above).  So the savings as printed add up to the
** replay of every printed change together, and none claims more than the
** replay gives it.  n alone replays and n(n+1)/2 for the ranking, each
** O(points) on the replay prepared once.  Every replay keeps the graph
** replays' latencies but where a change loosens their units (keep_graphs).
** cu (NULL: none) lists the units of the trace's ncoll collectives: the
** moves of every kept finding (moves_of) are then kept too. */
static void rank_by_saving(struct gp_findings *f, struct change *ch, gp_deps *d, size_t nunits, const int32_t *cu,
			   size_t ncoll)
{
	struct gp_replay *r = gp_replay_new(d);
	size_t n = f->v.n, nu = nunits ? nunits : 1;
	size_t *left = gp_xmalloc((n ? n : 1) * sizeof(*left)), nleft = 0;
	float *factors = gp_xmalloc(nu * sizeof(*factors)), *sf = gp_xmalloc(nu * sizeof(*sf));
	uint8_t *pinned = gp_xcalloc(nu, 1), *sp = gp_xcalloc(nu, 1);
	uint8_t *loose = gp_xcalloc(nu, 1), *sl = gp_xcalloc(nu, 1);
	struct gp_finding *sorted = gp_xmalloc((n ? n : 1) * sizeof(*sorted));
	struct change *sorted_ch = gp_xmalloc((n ? n : 1) * sizeof(*sorted_ch));
	struct gp_whatif_spec all = {.keep_graphs = true};
	double before = 0;
	size_t kept = 0, picked = 0;

	for (size_t u = 0; u < nunits; u++)
		factors[u] = 1;
	for (size_t i = 0; i < n; i++) {
		struct gp_finding *x = &f->v.v[i];
		x->alone_ns = r && !x->first ? saving_with(r, &all, factors, pinned, loose, &ch[i], sf, sp, sl, nunits)
					     : 0;
		if (x->first) {   /* notices go first, in the rules' order */
			sorted[kept] = *x;
			sorted_ch[kept++] = ch[i];
		} else if (!x->one_time && x->alone_ns < 1e-3 * f->span_ns) {
			/* a one-time cost is told for the idle time it took,
			** whatever its removal saves (a module loaded on the
			** GPU side of a launch moves no CPU time) */
			change_free(&ch[i]);
		} else {
			left[nleft++] = i;
		}
	}
	while (nleft) {
		size_t best = SIZE_MAX;
		double best_ns = 0;
		/* one-time costs first: a step's findings are judged on the run
		** without them (what a later step would cost), so no per-step
		** saving absorbs a capture's, compile's or load's time */
		bool one_time_left = false;
		for (size_t k = 0; k < nleft; k++)
			one_time_left |= f->v.v[left[k]].one_time;
		for (size_t k = 0; k < nleft; k++) {
			if (one_time_left && !f->v.v[left[k]].one_time)
				continue;
			/* the first pick is the largest saving alone: no replay */
			double v = !picked ? f->v.v[left[k]].alone_ns
				   : saving_with(r, &all, factors, pinned, loose, &ch[left[k]], sf, sp, sl, nunits);
			if (best == SIZE_MAX || v > best_ns || (v == best_ns && before_tie(f->v.v, left[k], left[best]))) {
				best = k;
				best_ns = v;
			}
		}
		size_t i = left[best];
		struct gp_finding *x = &f->v.v[i];
		left[best] = left[--nleft];
		picked++;
		apply_change(&ch[i], &all, factors, pinned, loose);
		x->cum_ns = best_ns;
		x->ns = best_ns - before;
		before = best_ns;
		x->overlap_ns = x->alone_ns > x->ns ? x->alone_ns - x->ns : 0;
		/* the findings above it that change the same work */
		size_t len = 0;
		x->overlaps[0] = '\0';
		for (size_t j = 0; j < kept && x->overlap_ns > 0; j++)
			if (!sorted[j].first && changes_share(&sorted_ch[j], &ch[i]) && len < sizeof(x->overlaps)) {
				int w = snprintf(x->overlaps + len, sizeof(x->overlaps) - len, "%s%s", len ? ", " : "",
						 sorted[j].kind);
				len = w < 0 ? len : len + (size_t)w;
			}
		sorted[kept] = *x;
		sorted_ch[kept++] = ch[i];
	}
	f->all_ns = before;
	if (cu && r)
		moves_of(r, f, sorted, sorted_ch, kept, cu, ncoll, nunits);
	for (size_t k = 0; k < kept; k++)
		change_free(&sorted_ch[k]);
	if (kept)
		memcpy(f->v.v, sorted, kept * sizeof(*sorted));
	f->v.n = kept;
	free(sorted);
	free(sorted_ch);
	free(factors);
	free(pinned);
	free(loose);
	free(sf);
	free(sp);
	free(sl);
	free(left);
	gp_replay_free(r);
}

/* The gaps of breakdown b as the rules see them, and the idle time and
** gaps of each cause. */
static void gaps_of(struct gp_adv_in *in, const gp_breakdown *b)
{
	in->gaps = b->gap_causes;
	in->ngaps = b->ngap_causes;
	for (size_t i = 0; i < b->ngap_causes; i++) {
		const struct gp_bd_gap_cause *c = &b->gap_causes[i];
		for (uint64_t k = c->part; k < c->part + c->nparts; k++)
			if (b->gap_part_ns[k] > 0)
				in->idle_cause_gaps[b->gap_part_cause[k]]++;
	}
}

/* Where each gap of in ends (in->gap_graph, which *owned receives to free)
** and the idle time of each cause in the gaps before eager work. */
static void gap_ends_of(struct gp_adv_in *in, uint8_t **owned)
{
	*owned = gp_adv_gap_graphs(in);
	in->gap_graph = *owned;
	memcpy(in->eager_cause_ns, in->idle_cause_ns, sizeof(in->eager_cause_ns));
	for (size_t i = 0; i < in->ngaps; i++)
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_EAGER)
			for (int c = 0; c < GP_IDLE__COUNT; c++)
				in->eager_cause_ns[c] -= gp_adv_gap_cause_ns(in, i, c);
}

/* Sums breakdown b's whole-trace windows over devices into in and f: the
** communication, its exposed part, the busy and idle time and its causes. */
static void sums_of(struct gp_adv_in *in, const gp_breakdown *b, struct gp_findings *f)
{
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *w = &b->win[i];
		gp_ns hidden = w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] +
			       w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];
		if (w->iter >= 0)
			continue;
		f->devices++;
		f->busy_ns += (double)gp_bd_busy(w);
		in->comm_ns += (double)gp_bd_kind_time(w, GP_BD_COMM);
		in->comm_exposed_ns += (double)(gp_bd_kind_time(w, GP_BD_COMM) - hidden);
		in->idle_ns += (double)w->by_mask[0];
		for (int c = 0; c < GP_IDLE__COUNT; c++)
			in->idle_cause_ns[c] += (double)w->idle[c];
	}
}

/* The GPU span of breakdown b's whole-trace windows (first GPU work on any
** device to the last) into f->span_ns, when there is GPU work. */
static void gpu_span_of(const gp_breakdown *b, struct gp_findings *f)
{
	gp_ns first = INT64_MAX, last = INT64_MIN;

	for (size_t i = 0; i < b->nwin; i++)
		if (b->win[i].iter < 0 && b->win[i].end > b->win[i].start) {
			first = b->win[i].start < first ? b->win[i].start : first;
			last = b->win[i].end > last ? b->win[i].end : last;
		}
	if (last > first)
		f->span_ns = (double)(last - first);
}

/* The share of GPU time or of idle time a trace must leave unexplained
** before advise says so first. */
#define COVERAGE_MIN 0.25

/* The notice of what the trace cannot tell (never "no findings" when it
** cannot): GPU time with no known op (work launched before the trace,
** launches outside any op; graph replays without capture information are
** graph-unattributed's notice) and idle time with no known cause; fires
** when either is COVERAGE_MIN of its whole. */
static bool coverage(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double nolaunch = 0, noop = 0, unknown, untraced, d;
	char what[128], d1[32], d2[32], d3[32];
	size_t len = 0, n = 0;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		if (a->op || a->marker || gp_unit_replayed(in->deps, k))
			continue;
		d = gp_adv_dur(&t->kernels.v[k]);
		n++;
		if (a->api < 0)
			nolaunch += d;
		else
			noop += d;
	}
	unknown = in->idle_cause_ns[GP_CAUSE_UNKNOWN];
	untraced = in->idle_cause_ns[GP_CAUSE_UNTRACED];
	bool ops = in->f->gpu_ns > 0 && nolaunch + noop >= COVERAGE_MIN * in->f->gpu_ns;
	bool idle = in->idle_ns >= 0.05 * in->f->span_ns && unknown + untraced >= COVERAGE_MIN * in->idle_ns;
	if (!ops && !idle)
		return false;
	what[0] = '\0';
	if (ops)
		len += (size_t)snprintf(what, sizeof(what), COVER_OPS, 100 * (nolaunch + noop) / in->f->gpu_ns);
	if (idle)
		snprintf(what + len, sizeof(what) - len, "%s" COVER_IDLE, ops ? " and " : "",
			 100 * (unknown + untraced) / in->idle_ns);
	snprintf(x->title, sizeof(x->title), COVER_TITLE, what);
	gp_adv_involved(x, nolaunch + noop + unknown + untraced, n);
	len = 0;
	const struct {
		double ns;
		const char *fmt;
	} parts[] = {{nolaunch, COVER_EVIDENCE_NOLAUNCH}, {noop, COVER_EVIDENCE_NOOP}};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].ns <= 0 || len >= sizeof(x->evidence))
			continue;
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s", len ? "; " : "");
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, parts[i].fmt,
					gp_fmt_duration(parts[i].ns, d1, sizeof(d1)));
	}
	if (unknown + untraced > 0 && len < sizeof(x->evidence))
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s" COVER_EVIDENCE_IDLE, len ? "; " : "",
			 gp_fmt_duration(unknown + untraced, d1, sizeof(d1)), gp_fmt_duration(unknown, d2, sizeof(d2)),
			 gp_fmt_duration(untraced, d3, sizeof(d3)));
	bool no_capture = false;
	for (size_t k = 0; k < t->kernels.n && !no_capture; k++)
		no_capture = t->attrs[k].graph == GP_GRAPH_NO_CAPTURE;
	snprintf(x->change, sizeof(x->change), gp_adv_say(in->t, COVER_CHANGE), no_capture ? COVER_CHANGE_GRAPH : "");
	x->first = true;
	return true;
}

/* graph-unattributed goes first, before the other notices: it says what to
** record so that the other findings can see the replayed time. */
static void first_what_to_record(struct gp_findings *f)
{
	for (size_t i = 1; i < f->v.n; i++)
		if (strcmp(f->v.v[i].kind, "graph-unattributed") == 0) {
			struct gp_finding x = f->v.v[i];
			memmove(&f->v.v[1], &f->v.v[0], i * sizeof(x));
			f->v.v[0] = x;
			return;
		}
}

/* The units of coll's collectives (the trace's communication kernels in
** order, gp_coll_extract), malloc'd; NULL when coll is NULL or not t's. */
static int32_t *coll_units(const gp_trace *t, const gp_deps *d, const struct gp_coll_rank *coll)
{
	int32_t *cu;
	size_t k = 0;

	if (!coll)
		return NULL;
	cu = gp_xmalloc((coll->n + 1) * sizeof(*cu));
	for (size_t u = 0; u < d->n && u < t->kernels.n; u++)
		if (gp_kernel_is_comm(t, &t->kernels.v[u]) && k++ < coll->n)
			cu[k - 1] = (int32_t)u;
	if (k != coll->n) {
		free(cu);
		return NULL;
	}
	return cu;
}

void gp_advise(gp_trace *t, const struct gp_ops *ops, const struct gp_gpu *gpu, const gp_breakdown *b,
	       gp_deps *d, const struct gp_steps *steps, const struct gp_coll_rank *coll, struct gp_findings *f)
{
	/* the kernels' labels, interned before any rule sizes its tables */
	gp_str *label = gp_xcalloc(t->kernel_defs.n + 1, sizeof(*label));
	for (size_t k = 0; k < t->kernels.n; k++)
		gp_kernel_label_of(t, &t->kernels.v[k], label);
	struct gp_whatif_spec spec = {0};
	struct gp_adv_in in = {.t = t, .label = label, .r = ops->r, .ops = ops, .b = b, .deps = d, .f = f,
			       .spec = &spec};
	struct change ch[NRULES + 1];   /* the rules' and the coverage notice's (none) */
	gp_ns last = 0;
	double *dur;
	uint8_t *gap_graph;

	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < t->kernels.n; k++)
		f->gpu_ns += gp_adv_dur(&t->kernels.v[k]);
	gp_ns first;
	if (gp_trace_span(t, &first, &last))
		f->span_ns = (double)(last - first);
	in.origin = gp_trace_start(t);
	gpu_span_of(b, f);
	for (size_t i = 0; i < t->devices.n && !f->sm_count; i++)
		f->sm_count = t->devices.v[i].sm_count;
	if (!f->sm_count && gpu)
		f->sm_count = gpu->sm_count;
	f->gpu = gpu ? gpu->name : NULL;
	in.gpu = gpu;
	sums_of(&in, b, f);
	gaps_of(&in, b);
	gap_ends_of(&in, &gap_graph);
	f->steps = steps->n;
	f->step_ns = (double)steps->median;
	f->step_gpu_ns = (double)steps->gpu_median;

	in.nunits = d->n;
	dur = gp_xmalloc((in.nunits ? in.nunits : 1) * sizeof(*dur));
	in.factors = gp_xmalloc((in.nunits ? in.nunits : 1) * sizeof(*in.factors));
	in.pinned = gp_xcalloc(in.nunits ? in.nunits : 1, 1);
	in.loose = gp_xcalloc(in.nunits ? in.nunits : 1, 1);
	for (size_t u = 0; u < in.nunits; u++) {
		gp_ns s = gp_unit_start(t, u), e = gp_unit_end(t, u);
		dur[u] = e > s ? (double)(e - s) : 0;
		in.factors[u] = 1;
	}
	in.dur = dur;

	if (t->kernels.n && in.r && t->attrs) {
		for (size_t i = 0; i < NRULES; i++) {
			struct gp_finding x;
			memset(&x, 0, sizeof(x));
			if (rules[i].fn(&in, &x)) {
				x.kind = rules[i].kind;
				keep_change(&in, &ch[f->v.n]);
				*gp_vec_push(f->v) = x;
			} else {
				struct change drop;
				keep_change(&in, &drop);   /* resets in for the next rule */
				change_free(&drop);
			}
		}
		struct gp_finding x;
		memset(&x, 0, sizeof(x));
		if (coverage(&in, &x)) {
			x.kind = "coverage";
			memset(&ch[f->v.n], 0, sizeof(ch[f->v.n]));
			*gp_vec_push(f->v) = x;
		}
		int32_t *cu = coll_units(t, d, coll);
		rank_by_saving(f, ch, d, in.nunits, cu, coll ? coll->n : 0);
		free(cu);
		first_what_to_record(f);
	}
	free(dur);
	free(in.factors);
	free(in.pinned);
	free(in.loose);
	free(gap_graph);
	free(label);
}

const char *gp_advise_kind(const char *name)
{
	/* the notices no rule makes: the op model's coverage, the runner's
	** audit of kernels of unknown family (analysis.c) */
	static const char *const notices[] = {"coverage", "unknown-kernels"};

	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].kind, name) == 0)
			return rules[i].kind;
	for (size_t i = 0; i < sizeof(notices) / sizeof(notices[0]); i++)
		if (strcmp(notices[i], name) == 0)
			return notices[i];
	return NULL;
}

void gp_findings_free(struct gp_findings *f)
{
	gp_vec_free(f->v);
	free(f->moves);
	f->moves = NULL;
	f->ncoll = 0;
}
