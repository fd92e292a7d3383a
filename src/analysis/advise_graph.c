/*
** advise's rules about work replayed from CUDA/HIP graphs (docs/op-model.md,
** "advise"): graph-unattributed (replayed GPU time whose ops nothing
** recorded: what to record, first), graph-host-bound (the GPU idle between
** replays while the host prepares the next one), graph-gaps (idle inside
** replays, with each graph's replays, kernels per replay, GPU time and
** gaps).  The eager idle rules (advise_idle.c) leave the gaps of replays to
** these, so no finding suggests CUDA graphs to work already replayed from
** them.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/attr_graph.h"
#include "util/u64map.h"

static bool replayed(const struct gp_attr *a)
{
	return a->graph != GP_GRAPH_NONE;
}

int gp_adv_gap_graph(const struct gp_adv_in *in, size_t i)
{
	int32_t next = in->gaps.v[i].c->next;

	if (!in->replay_first || next < 0 || (size_t)next >= in->t->kernels.n || !replayed(&in->t->attrs[next]))
		return GP_ADV_GAP_EAGER;
	return in->gaps.v[i].c->start >= in->replay_first[next] ? GP_ADV_GAP_IN_REPLAY : GP_ADV_GAP_BEFORE_REPLAY;
}

gp_ns *gp_adv_replay_first(const gp_trace *t)
{
	gp_ns *first = NULL;
	gp_u64map at = {0};     /* launching call -> a kernel of its replay */

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		if (!replayed(a))
			continue;
		if (!first)
			first = gp_xcalloc(t->kernels.n, sizeof(*first));
		first[k] = t->kernels.v[k].start;
		if (a->api < 0)
			continue;   /* no launch found: a replay of its own */
		int32_t j = gp_u64map_add(&at, (uint64_t)a->api, (int32_t)k);
		if (first[k] < first[j])
			first[j] = first[k];
	}
	/* every kernel of a replay takes its earliest start */
	for (size_t k = 0; first && k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		if (replayed(a) && a->api >= 0)
			first[k] = first[gp_u64map_get(&at, (uint64_t)a->api)];
	}
	gp_u64map_free(&at);
	return first;
}

/* graph-unattributed: replayed kernels without op.  Said first: until the
** capture is recorded, no op-level finding sees their time. */
bool gp_rule_graph_unattributed(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0, by_state[GP_GRAPH__COUNT] = {0};
	size_t n = 0, cnt[GP_GRAPH__COUNT] = {0};
	char d1[32];

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		double d = gp_adv_dur(&t->kernels.v[k]);
		if (!replayed(a) || a->op || a->marker || a->graph >= GP_GRAPH__COUNT)
			continue;
		ns += d;
		n++;
		by_state[a->graph] += d;
		cnt[a->graph]++;
		gp_adv_claim(in, k, in->wall[k]);
	}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns)
		return false;
	gp_adv_involved(x, ns, n);
	snprintf(x->title, sizeof(x->title), GRAPH_UNATTR_TITLE,
		 in->f->gpu_ns > 0 ? 100 * ns / in->f->gpu_ns : 0.0, gp_adv_fmt_ms(ns, d1, sizeof(d1)), n);
	/* the states, most time first; the largest one's remedy leads */
	size_t len = 0;
	int top = -1;
	bool used[GP_GRAPH__COUNT] = {0};
	for (;;) {
		int best = -1;
		for (int s = 0; s < GP_GRAPH__COUNT; s++)
			if (!used[s] && cnt[s] && (best < 0 || by_state[s] > by_state[best]))
				best = s;
		if (best < 0 || len >= sizeof(x->evidence))
			break;
		used[best] = true;
		if (top < 0)
			top = best;
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, GRAPH_UNATTR_EVIDENCE,
					len ? "; " : "", gp_graph_state_name(best),
					gp_adv_fmt_ms(by_state[best], d1, sizeof(d1)), cnt[best],
					best == GP_GRAPH_CAPTURED || best == GP_GRAPH_ANNOTATED
						? GRAPH_UNATTR_NO_OP_OPEN : gp_graph_state_why(best));
	}
	snprintf(x->change, sizeof(x->change), "%s", GRAPH_UNATTR_CHANGE);
	return true;
}

/* graph-host-bound: the GPU idle before a replay's first kernel (the host
** preparing inputs, sampling, scheduling, then launching the graph). */
bool gp_rule_graph_host_bound(const struct gp_adv_in *in, struct gp_finding *x)
{
	double total = 0, host = 0, cap = in->f->capacity_ns;
	size_t n = 0;
	bool *want = gp_xcalloc(in->gaps.n ? in->gaps.n : 1, sizeof(*want));
	char d1[32];
	bool found;

	for (size_t i = 0; i < in->gaps.n; i++) {
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_BEFORE_REPLAY)
			continue;
		want[i] = true;
		total += in->gaps.v[i].ns;
		host += gp_adv_gap_cause_ns(in, i, GP_IDLE_HOST_LAUNCH);
		n++;
		gp_adv_claim(in, in->gap0 + i, in->gaps.v[i].ns);
	}
	found = n && total >= gp_adv_lim.min_share * in->f->span_ns;
	if (found) {
		gp_adv_involved(x, total, n);
		snprintf(x->title, sizeof(x->title), GRAPH_HOST_TITLE, gp_adv_fmt_ms(total, d1, sizeof(d1)),
			 cap > 0 ? 100 * total / cap : 0.0, n);
		snprintf(x->evidence, sizeof(x->evidence), GRAPH_HOST_EVIDENCE, total / (double)n / 1e3,
			 total > 0 ? 100 * host / total : 0.0);
		gp_adv_largest_gaps(in, -1, want, x->evidence, sizeof(x->evidence));
		snprintf(x->change, sizeof(x->change), "%s", GRAPH_HOST_CHANGE);
	}
	free(want);
	return found;
}

/* One graph's replays, for graph-gaps' evidence. */
struct graph_sum {
	uint64_t key;           /* graph id, else the first kernel's def and the replay's size */
	size_t replays, kernels;
	double gpu_ns, gap_ns;
};
typedef GP_VEC(struct graph_sum) graph_sums_t;

/* The graphs of t's replays (kernels by launching call), each with its
** replays, kernels, GPU time; the idle inside replays is added by the
** caller.  by_launch maps a launching call to its graph's index. */
static graph_sums_t *graph_sums(const gp_trace *t, gp_u64map *by_launch, gp_u64map *by_key)
{
	graph_sums_t *g = gp_xcalloc(1, sizeof(*g));
	gp_u64map nk = {0};     /* launch -> kernels in its replay */
	GP_VEC(uint32_t) counts = {0};

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		if (!replayed(a) || a->api < 0)
			continue;
		int32_t i = gp_u64map_add(&nk, (uint64_t)a->api, (int32_t)counts.n);
		if ((size_t)i == counts.n)
			*gp_vec_push(counts) = 0;
		counts.v[i]++;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[k]);
		if (!replayed(a) || a->api < 0)
			continue;
		int32_t launch = gp_u64map_get(by_launch, (uint64_t)a->api);
		if (launch < 0) {
			uint32_t size = counts.v[gp_u64map_get(&nk, (uint64_t)a->api)];
			uint64_t key = d->graph_id ? (uint64_t)d->graph_id << 32 | 1u << 31
						   : (uint64_t)t->kernels.v[k].def << 32 | size;
			launch = gp_u64map_add(by_key, key, (int32_t)g->n);
			if ((size_t)launch == g->n)
				*gp_vec_push(*g) = (struct graph_sum){.key = key};
			gp_u64map_put(by_launch, (uint64_t)a->api, launch);
			g->v[launch].replays++;
		}
		g->v[launch].kernels++;
		g->v[launch].gpu_ns += gp_adv_dur(&t->kernels.v[k]);
	}
	gp_vec_free(counts);
	gp_u64map_free(&nk);
	return g;
}

/* graph-gaps: the GPU idle inside graph replays (between a replay's first
** kernel and the next of its kernels): the graph's own node latency and
** dependencies, which CUDA graphs do not remove. */
bool gp_rule_graph_gaps(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double total = 0, cap = in->f->capacity_ns;
	size_t n = 0;
	gp_u64map by_launch = {0}, by_key = {0};
	char d1[32], d2[32], d3[32];
	bool found;

	for (size_t i = 0; i < in->gaps.n; i++) {
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_IN_REPLAY)
			continue;
		total += in->gaps.v[i].ns;
		n++;
		gp_adv_claim(in, in->gap0 + i, in->gaps.v[i].ns);
	}
	found = n && total >= gp_adv_lim.min_share * in->f->span_ns;
	if (!found)
		return false;
	graph_sums_t *g = graph_sums(t, &by_launch, &by_key);
	for (size_t i = 0; i < in->gaps.n; i++) {
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_IN_REPLAY)
			continue;
		int32_t j = gp_u64map_get(&by_launch, (uint64_t)t->attrs[in->gaps.v[i].c->next].api);
		if (j >= 0)
			g->v[j].gap_ns += in->gaps.v[i].ns;
	}
	gp_adv_involved(x, total, n);
	snprintf(x->title, sizeof(x->title), GRAPH_GAPS_TITLE, gp_adv_fmt_ms(total, d1, sizeof(d1)),
		 cap > 0 ? 100 * total / cap : 0.0, n);
	/* the three graphs with the most idle inside their replays */
	size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), "%s", GRAPH_GAPS_EVIDENCE);
	bool *used = gp_xcalloc(g->n ? g->n : 1, sizeof(*used));
	for (int r = 0; r < 3 && len < sizeof(x->evidence); r++) {
		size_t best = g->n;
		for (size_t i = 0; i < g->n; i++)
			if (!used[i] && g->v[i].gap_ns > 0 && (best == g->n || g->v[i].gap_ns > g->v[best].gap_ns))
				best = i;
		if (best == g->n)
			break;
		used[best] = true;
		const struct graph_sum *s = &g->v[best];
		char name[64];
		if (s->key & 1u << 31)
			snprintf(name, sizeof(name), "graph %u", (unsigned)(s->key >> 32));
		else
			snprintf(name, sizeof(name), "a graph of %u kernels", (unsigned)(s->key & 0x7fffffffu));
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, GRAPH_GAPS_GRAPH, r ? ";" : "",
					name, s->replays, (double)s->kernels / (double)s->replays,
					gp_adv_fmt_ms(s->gpu_ns, d1, sizeof(d1)), gp_adv_fmt_ms(s->gap_ns, d2, sizeof(d2)),
					gp_adv_fmt_ms(s->gap_ns / (double)s->replays, d3, sizeof(d3)));
	}
	snprintf(x->change, sizeof(x->change), "%s", GRAPH_GAPS_CHANGE);
	free(used);
	gp_vec_free(*g);
	free(g);
	gp_u64map_free(&by_launch);
	gp_u64map_free(&by_key);
	return true;
}
