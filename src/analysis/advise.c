/*
** gpuprof advise's engine (advise.h): the facts every rule shares, the
** table of rules, and the settling of their claims.  The rules live by
** family in advise_*.c, their texts in advise_texts.h, their thresholds
** below (docs/op-model.md, "advise").
**
** Each rule scans the trace once (kernels are sorted by start), sums the
** time involved per group (op or kernel name, indexed by string id: no
** hashing), and emits at most one finding with the top groups as
** evidence.  "At stake" is an estimate of the time the change would save,
** so findings of different rules rank together:
**   tensor cores / TF32 / AMP: half the time of the kernels involved;
**   below roofline: measured - ideal / 0.8 (0.8: achievable fraction);
**   launch-bound, idle gaps, synchronization: the GPU idle time involved;
**   idle causes (host launch, short gaps; with synchronization, pageable
**   copies and the remaining idle gaps): each gap's time of that cause as
**   the time breakdown split it;
**   memcpy: the copy time; small grids: time x (1 - blocks / SMs) / 2;
**   fusion: each row of small ops but its longest kernel;
**   unfused attention: its softmax, scaling, mask and dropout kernels.
**
** Two rules can describe the same time (an idle gap before a tiny kernel
** is both launch overhead and idle time; a slow fp32 GEMM is both fp32 and
** below its roofline).  So a rule does not sum its time itself: it claims
** pieces of the timeline (a kernel, a copy, an idle gap of the breakdown)
** with the time at stake on each, measured in wall time (a kernel's own
** share of its device's busy time: concurrent kernels split it).
** gp_advise() then settles the claims largest finding first: each piece
** gives what is left of it, so the times at stake are disjoint and sum to
** at most the span x devices, and each finding says how much it shared
** and with which kinds.
**
** Adding a rule = one function in its family's file (declared in
** advise_int.h), one row in the table below, its texts in advise_texts.h
** and its limits in gp_adv_lim.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "model/classify.h"

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

void gp_adv_claim(const struct gp_adv_in *in, size_t u, double ns)
{
	if (ns <= 0 || u >= in->nunits)
		return;
	struct gp_adv_claim *c = gp_vec_push(*in->claims);
	c->unit = (uint32_t)u;
	c->ns = ns < in->wall[u] ? ns : in->wall[u];
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
	if (id >= a->n)
		return;
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

double gp_adv_dur(const struct gp_kernel *k)
{
	return k->end > k->start ? (double)(k->end - k->start) : 0;
}

const char *gp_adv_fmt_ms(double ns, char *buf, size_t size)
{
	if (ns >= 1e9)
		snprintf(buf, size, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, size, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, size, "%.1f us", ns / 1e3);
	return buf;
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
		/* long generic params (every tensor of a big op) are cut */
		int w = snprintf(out + len, size - len, "%s%s %s in %u %s%s%.100s%s%s", i ? "; " : "",
				 gp_s(t, top[i]), gp_adv_fmt_ms(a->ns[top[i]], d, sizeof(d)), a->cnt[top[i]], unit,
				 params ? " (" : "", params ? params : "",
				 params && strlen(params) > 100 ? "..." : "", params ? ")" : "");
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* A start or end of an activity, for the wall-time sweep. */
struct edge {
	gp_ns at;
	int32_t dev;
	uint32_t unit;
	bool end;
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (int)a->end - (int)b->end;      /* starts first: no negative count */
}

/* Fills wall[u] for the n activities a: each activity's own share of its
** device's busy time, where k activities running at once get 1/k of it
** each (so the walls of one device sum to its busy time).  One sorted
** sweep: S(x) = integral of 1/active up to x, wall = S(end) - S(start).
** Returns the number of devices with activity. */
static int activity_walls(const struct gp_activity *a, size_t n, double *wall)
{
	struct edge *e = gp_xmalloc((n ? 2 * n : 1) * sizeof(*e));
	int devices = 0;

	for (size_t i = 0; i < n; i++) {
		e[2 * i] = (struct edge){a[i].s, a[i].dev, a[i].unit, false};
		e[2 * i + 1] = (struct edge){a[i].e, a[i].dev, a[i].unit, true};
	}
	qsort(e, 2 * n, sizeof(*e), cmp_edge);
	double S = 0;
	size_t active = 0;
	for (size_t i = 0; i < 2 * n; i++) {
		if (!i || e[i].dev != e[i - 1].dev) {
			devices++;
			S = 0;
			active = 0;
		} else if (active) {
			S += (double)(e[i].at - e[i - 1].at) / (double)active;
		}
		if (e[i].end) {
			wall[e[i].unit] += S;
			active--;
		} else {
			wall[e[i].unit] = -S;
			active++;
		}
	}
	free(e);
	return devices;
}

/* Whether an API call holds the host until the GPU catches up: a call
** that waits or a blocking copy (model/classify.h). */
static bool holds_host(const gp_trace *t, const struct gp_api *a)
{
	return gp_api_sync_call(gp_s(t, gp_api_def(t, a)->name)) != GP_SYNC_CALL_NONE;
}

/* The API call whose span contains time x on any thread, preferring one
** that holds the host (holds_host); -1 if none.  apis are sorted by start. */
static int32_t api_at(const gp_trace *t, gp_ns x)
{
	int32_t best = -1;
	size_t lo = 0, hi = t->apis.n;

	while (lo < hi) {      /* first api with start > x */
		size_t mid = (lo + hi) / 2;
		if (t->apis.v[mid].start <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* calls are short; look back a bounded number for one covering x */
	for (size_t i = lo, steps = 0; i > 0 && steps < 256; i--, steps++) {
		const struct gp_api *a = &t->apis.v[i - 1];
		if (a->end >= x) {
			best = (int32_t)(i - 1);
			if (holds_host(t, a))
				return best;
		}
	}
	return best;
}

void gp_adv_largest_gaps(const struct gp_adv_in *in, int c, const bool *want, char *out, size_t size)
{
	struct gp_bd_gap top[3];
	double ns[3];
	size_t n = 0, len = strlen(out);
	char d[32];

	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = c >= 0 ? gp_adv_gap_cause_ns(in, i, c) : want[i] ? in->gaps.v[i].ns : 0;
		if (v <= 0 || (n == 3 && v <= ns[2]))
			continue;
		size_t at = n < 3 ? n++ : 2;
		while (at > 0 && ns[at - 1] < v) {
			top[at] = top[at - 1];
			ns[at] = ns[at - 1];
			at--;
		}
		const struct gp_adv_gap *g = &in->gaps.v[i];
		top[at] = (struct gp_bd_gap){.device = g->c->device, .start = g->c->start, .end = g->c->end};
		ns[at] = v;
	}
	if (!n)
		return;
	gp_bd_gap_contexts(in->t, top, n);
	if (len < size)
		len += (size_t)snprintf(out + len, size - len, LARGEST_GAPS);
	for (size_t i = 0; i < n; i++) {
		if (len < size)
			len += (size_t)snprintf(out + len, size - len, LARGEST_GAP, i ? ";" : "",
						gp_adv_fmt_ms(ns[i], d, sizeof(d)), (double)(top[i].start - in->first) / 1e9,
						top[i].context ? top[i].context : LARGEST_GAP_NO_CPU);
		free(top[i].context);
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
	{"idle-gaps", gp_rule_idle_gaps},
	{"sync-calls", gp_rule_sync_calls},
	{"host-launch", gp_rule_host_launch},
	{"short-gaps", gp_rule_short_gaps},
	{"tiny-kernels", gp_rule_tiny_kernels},
	{"pageable-memcpy", gp_rule_pageable_memcpy},
	{"sync-memcpy", gp_rule_sync_memcpy},
	{"small-grid", gp_rule_small_grid},
	{"fp32-unshaped", gp_rule_fp32_unshaped},
	{"fusion", gp_rule_fusion},
	{"unfused-attention", gp_rule_unfused_attention},
	{"alloc-churn", gp_rule_alloc_churn},
	{"exposed-comm", gp_rule_exposed_comm},
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* What finding i of the settling claims: its claims and what it got. */
struct pending {
	gp_adv_claims claims;
	double overlap[NRULES];  /* by finding index: time it shared with that one */
	bool settled;
};

/* The time at stake of claims c on what is left of each unit. */
static double unclaimed(const gp_adv_claims *c, const double *left)
{
	double ns = 0;

	for (size_t i = 0; i < c->n; i++)
		ns += c->v[i].ns < left[c->v[i].unit] ? c->v[i].ns : left[c->v[i].unit];
	return ns;
}

/* Writes "kind, kind" of the findings x overlapped, largest overlap first. */
static void name_overlaps(const struct gp_findings *f, const double *overlap, char *out, size_t size)
{
	bool used[NRULES] = {0};
	size_t len = 0;

	out[0] = 0;
	for (;;) {
		size_t best = NRULES;
		for (size_t j = 0; j < f->v.n; j++)
			if (!used[j] && overlap[j] > 0 && (best == NRULES || overlap[j] > overlap[best]))
				best = j;
		if (best == NRULES || len >= size)
			return;
		used[best] = true;
		int w = snprintf(out + len, size - len, "%s%s", len ? ", " : "", f->v.v[best].kind);
		if (w < 0)
			return;
		len += (size_t)w;
	}
}

/* Settles the claims p of the findings f (one per finding): the finding
** with the most unclaimed time at stake first, each taking what is left of
** its units; sets each finding's ns, overlap_ns and overlaps, and orders
** f by ns (largest first, the order they settled in). */
static void settle(struct gp_findings *f, struct pending *p, size_t nunits, const double *wall)
{
	double *left = gp_xmalloc((nunits ? nunits : 1) * sizeof(*left));
	int8_t *owner = gp_xmalloc(nunits ? nunits : 1);   /* last finding that took from a unit */
	size_t *order = gp_xmalloc((f->v.n ? f->v.n : 1) * sizeof(*order));
	struct gp_finding *sorted = gp_xmalloc((f->v.n ? f->v.n : 1) * sizeof(*sorted));

	memcpy(left, wall, nunits * sizeof(*left));
	memset(owner, -1, nunits);
	for (size_t round = 0; round < f->v.n; round++) {
		size_t best = f->v.n;
		double best_ns = -1;
		for (size_t i = 0; i < f->v.n; i++) {
			if (p[i].settled)
				continue;
			double ns = unclaimed(&p[i].claims, left);
			if (ns > best_ns) {
				best = i;
				best_ns = ns;
			}
		}
		struct pending *b = &p[best];
		struct gp_finding *x = &f->v.v[best];
		x->ns = 0;
		x->overlap_ns = 0;
		for (size_t c = 0; c < b->claims.n; c++) {
			uint32_t u = b->claims.v[c].unit;
			double want = b->claims.v[c].ns, take = want < left[u] ? want : left[u];
			if (want > take && owner[u] >= 0)
				b->overlap[owner[u]] += want - take;
			x->ns += take;
			x->overlap_ns += want - take;
			left[u] -= take;
			owner[u] = (int8_t)best;
		}
		b->settled = true;
		order[round] = best;
	}
	for (size_t i = 0; i < f->v.n; i++)
		name_overlaps(f, p[i].overlap, f->v.v[i].overlaps, sizeof(f->v.v[i].overlaps));
	for (size_t round = 0; round < f->v.n; round++)
		sorted[round] = f->v.v[order[round]];
	if (f->v.n)
		memcpy(f->v.v, sorted, f->v.n * sizeof(*sorted));
	free(sorted);
	free(order);
	free(owner);
	free(left);
}

/* The gaps of breakdown b as the rules see them: each with its length and,
** when long, the API call the CPU was in at its middle. */
static void gaps_of(struct gp_adv_in *in, const gp_breakdown *b)
{
	for (size_t i = 0; i < b->ngap_causes; i++) {
		const struct gp_bd_gap_cause *c = &b->gap_causes[i];
		struct gp_adv_gap *g = gp_vec_push(in->gaps);
		g->c = c;
		g->ns = (double)(c->end - c->start);
		g->api = g->ns >= gp_adv_lim.idle_gap_ns ? api_at(in->t, c->start + (gp_ns)(g->ns / 2)) : -1;
	}
}

/* Sums breakdown b's whole-trace windows over devices into in: the
** communication, its exposed part, the idle time and its causes. */
static void sums_of(struct gp_adv_in *in, const gp_breakdown *b)
{
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *w = &b->win[i];
		gp_ns hidden = w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] +
			       w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];
		if (w->iter >= 0)
			continue;
		in->comm_ns += (double)gp_bd_kind_time(w, GP_BD_COMM);
		in->comm_exposed_ns += (double)(gp_bd_kind_time(w, GP_BD_COMM) - hidden);
		in->idle_ns += (double)w->by_mask[0];
		for (int c = 0; c < GP_IDLE__COUNT; c++)
			in->idle_cause_ns[c] += (double)w->idle[c];
	}
}

void gp_advise(const gp_trace *t, const struct gp_ops *ops, const gp_breakdown *b, struct gp_findings *f)
{
	struct gp_adv_in in = {.t = t, .r = ops->r, .ops = ops, .b = b, .f = f};
	struct pending p[NRULES];
	gp_ns last = 0;
	const struct gp_gpu *g = ops->po.gpu;
	struct gp_gpu est;      /* a GPU the table lacks: its estimated peaks */

	memset(f, 0, sizeof(*f));
	memset(p, 0, sizeof(p));
	for (size_t k = 0; k < t->kernels.n; k++)
		f->gpu_ns += gp_adv_dur(&t->kernels.v[k]);
	if (gp_trace_span(t, &in.first, &last))
		f->span_ns = (double)(last - in.first);
	for (size_t i = 0; i < t->devices.n && !g; i++)
		g = gp_gpu_for_device(t, &t->devices.v[i], &est);
	for (size_t i = 0; i < t->devices.n && !f->sm_count; i++)
		f->sm_count = t->devices.v[i].sm_count;
	if (!f->sm_count && g)
		f->sm_count = g->sm_count;
	f->gpu = g ? g->name : NULL;
	in.gpu = g;
	sums_of(&in, b);
	gaps_of(&in, b);

	size_t na;
	struct gp_activity *acts = gp_trace_activities(t, &na);
	in.copy0 = t->kernels.n;
	in.set0 = in.copy0 + t->memcpys.n;
	in.gap0 = in.set0 + t->memsets.n;
	in.nunits = in.gap0 + in.gaps.n;
	in.wall = gp_xcalloc(in.nunits ? in.nunits : 1, sizeof(*in.wall));
	f->devices = activity_walls(acts, na, in.wall);
	for (size_t i = 0; i < in.gaps.n; i++)
		in.wall[in.gap0 + i] = in.gaps.v[i].ns;
	f->capacity_ns = f->span_ns * (f->devices > 1 ? f->devices : 1);
	free(acts);

	if (t->kernels.n && in.r && t->attrs) {
		for (size_t i = 0; i < NRULES; i++) {
			struct gp_finding x;
			memset(&x, 0, sizeof(x));
			in.claims = &p[f->v.n].claims;
			if (rules[i].fn(&in, &x)) {
				x.kind = rules[i].kind;
				*gp_vec_push(f->v) = x;
			} else {
				p[f->v.n].claims.n = 0;
			}
		}
		settle(f, p, in.nunits, in.wall);
	}
	for (size_t i = 0; i < NRULES; i++)
		gp_vec_free(p[i].claims);
	free(in.wall);
	gp_vec_free(in.gaps);
}

void gp_findings_free(struct gp_findings *f)
{
	gp_vec_free(f->v);
}
