/*
** advise's rules about work replayed from CUDA/HIP graphs (docs/op-model.md,
** "advise"): graph-unattributed (replayed GPU time whose ops nothing
** recorded: a notice of what to record, first), graph-host-bound (the GPU
** idle before each replay while the host prepares and launches it: the
** chain's causes of those gaps), graph-gaps (idle inside replays, with
** each graph's replays, kernels per replay, GPU time and gaps).
**
** Every gap is one family's: where it ends (gp_adv_gap_graphs) gives the
** gaps before eager work to the idle rules (advise_idle.c) and the gaps
** before and inside replays to these, so no gap's time is told twice and
** no finding suggests CUDA graphs to work already replayed from them.  The
** changes these rules state touch the replays' units one by one
** (gp_adv_loosen): the global latency changes of the idle rules leave
** replays as recorded (whatif.h, keep_graphs).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/attr_graph.h"
#include "analysis/critpath.h"
#include "util/u64map.h"

/* Per unit of d: the first start of the graph replay it belongs to (the
** replayed units of one launching call; a replayed unit whose launch the
** trace lacks is a replay of its own), 0 for eager units; NULL (nothing
** allocated) when no unit was replayed. */
static gp_ns *replay_firsts(const gp_deps *d)
{
	const gp_trace *t = d->t;
	gp_ns *first = NULL;
	gp_u64map at = {0};     /* launching call -> a unit of its replay */

	for (size_t u = 0; u < d->n; u++) {
		if (!gp_unit_replayed(d, u))
			continue;
		if (!first)
			first = gp_xcalloc(d->n, sizeof(*first));
		first[u] = gp_unit_start(t, u);
		if (d->call[u] < 0)
			continue;
		int32_t j = gp_u64map_add(&at, (uint64_t)d->call[u], (int32_t)u);
		if (first[u] < first[j])
			first[j] = first[u];
	}
	/* every unit of a replay takes its earliest start */
	for (size_t u = 0; first && u < d->n; u++)
		if (d->call[u] >= 0 && gp_unit_replayed(d, u))
			first[u] = first[gp_u64map_get(&at, (uint64_t)d->call[u])];
	gp_u64map_free(&at);
	return first;
}

uint8_t *gp_adv_gap_graphs(const struct gp_adv_in *in)
{
	const gp_deps *d = in->deps;
	gp_ns *first = replay_firsts(d);
	uint8_t *where;

	if (!first)
		return NULL;
	where = gp_xcalloc(in->gaps.n ? in->gaps.n : 1, 1);
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct gp_bd_gap_cause *g = in->gaps.v[i].c;
		if (g->unit < 0 || (size_t)g->unit >= d->n || !gp_unit_replayed(d, (size_t)g->unit))
			continue;   /* eager */
		where[i] = g->start >= first[g->unit] ? GP_ADV_GAP_IN_REPLAY : GP_ADV_GAP_BEFORE_REPLAY;
	}
	free(first);
	return where;
}

/* graph-unattributed: replayed kernels without op, by why (gp_attr.graph).
** A notice, said first: no change re-times it, and until the capture is
** recorded no op-level finding sees their time. */
bool gp_rule_graph_unattributed(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0, by_state[GP_GRAPH__COUNT] = {0};
	size_t n = 0, cnt[GP_GRAPH__COUNT] = {0};
	char d1[32];

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		double d = gp_adv_dur(&t->kernels.v[k]);
		if (a->graph == GP_GRAPH_NONE || a->op || a->marker || a->graph >= GP_GRAPH__COUNT)
			continue;
		ns += d;
		n++;
		by_state[a->graph] += d;
		cnt[a->graph]++;
	}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns)
		return false;
	gp_adv_involved(x, ns, n);
	snprintf(x->title, sizeof(x->title), GRAPH_UNATTR_TITLE,
		 in->f->gpu_ns > 0 ? 100 * ns / in->f->gpu_ns : 0.0, gp_fmt_duration(ns, d1, sizeof(d1)), n);
	/* the states, most time first */
	size_t len = 0;
	bool used[GP_GRAPH__COUNT] = {0};
	for (;;) {
		int best = -1;
		for (int s = 0; s < GP_GRAPH__COUNT; s++)
			if (!used[s] && cnt[s] && (best < 0 || by_state[s] > by_state[best]))
				best = s;
		if (best < 0 || len >= sizeof(x->evidence))
			break;
		used[best] = true;
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, GRAPH_UNATTR_EVIDENCE,
					len ? "; " : "", gp_graph_state_name(best),
					gp_fmt_duration(by_state[best], d1, sizeof(d1)), cnt[best],
					best == GP_GRAPH_CAPTURED || best == GP_GRAPH_ANNOTATED
						? GRAPH_UNATTR_NO_OP_OPEN : gp_graph_state_why(best));
	}
	snprintf(x->change, sizeof(x->change), "%s", GRAPH_UNATTR_CHANGE);
	x->first = true;
	return true;
}

/* Every cause idle time can have (bits of enum gp_cause). */
static uint32_t idle_causes(void)
{
	uint32_t m = 0;

	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		if (gp_cause_is_idle(c))
			m |= 1u << c;
	return m;
}

/* graph-host-bound: the GPU idle before a replay's first unit: the host
** preparing inputs, sampling, scheduling, then launching the graph; the
** dependency chain says which (its causes lead the evidence).  The change:
** each such replay no longer waits for its launch (the host prepared it
** while the one before ran), which the re-timed trace bounds by the work
** before it on its stream. */
bool gp_rule_graph_host_bound(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_deps *d = in->deps;
	const gp_trace *t = in->t;
	double by_cause[GP_CAUSE__COUNT] = {0};
	char lead[256], d1[32];
	size_t len;

	if (!gp_adv_cause_finding(in, x, idle_causes(), GP_ADV_GAP_BEFORE_REPLAY, GRAPH_HOST_WHAT,
				  GRAPH_HOST_CHANGE))
		return false;
	uint8_t *launch = gp_xcalloc(t->apis.n ? t->apis.n : 1, 1);   /* the replays' calls */
	for (size_t i = 0; i < in->gaps.n; i++) {
		int32_t u = in->gaps.v[i].c->unit;
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_BEFORE_REPLAY)
			continue;
		for (int c = 0; c < GP_CAUSE__COUNT; c++)
			by_cause[c] += gp_adv_gap_cause_ns(in, i, c);
		if (d->call[u] >= 0)
			launch[d->call[u]] = 1;
		else
			gp_adv_loosen(in, (size_t)u, GP_WI_UNIT_UNLAUNCHED);
	}
	for (size_t u = 0; u < d->n; u++)
		if (d->call[u] >= 0 && launch[d->call[u]] && gp_unit_replayed(d, u))
			gp_adv_loosen(in, u, GP_WI_UNIT_UNLAUNCHED);
	free(launch);

	/* the lead: the average gap and its causes, most time first */
	len = (size_t)snprintf(lead, sizeof(lead), GRAPH_HOST_EVIDENCE, x->total_ns / (double)x->count / 1e3);
	for (int r = 0; r < 3 && len < sizeof(lead); r++) {
		int best = -1;
		for (int c = 0; c < GP_CAUSE__COUNT; c++)
			if (by_cause[c] > 0 && (best < 0 || by_cause[c] > by_cause[best]))
				best = c;
		if (best < 0)
			break;
		len += (size_t)snprintf(lead + len, sizeof(lead) - len, GRAPH_HOST_CAUSE, r ? ", " : "",
					gp_cause_name(best), gp_fmt_duration(by_cause[best], d1, sizeof(d1)));
		by_cause[best] = 0;
	}
	/* ahead of what the chain named, which is cut at the end if need be */
	size_t had = strlen(x->evidence), room = sizeof(x->evidence) - 1;
	if (had && len < sizeof(lead))
		len += (size_t)snprintf(lead + len, sizeof(lead) - len, "; ");
	len = len < sizeof(lead) ? len : sizeof(lead) - 1;
	had = had < room - len ? had : room - len;
	memmove(x->evidence + len, x->evidence, had);
	memcpy(x->evidence, lead, len);
	x->evidence[len + had] = '\0';
	return true;
}

/* One graph's replays, for graph-gaps' evidence. */
struct graph_sum {
	uint64_t key;           /* graph id, else the first kernel's def and the replay's size */
	size_t replays, kernels;
	double gpu_ns, gap_ns;
};
typedef GP_VEC(struct graph_sum) graph_sums_t;

/* The graphs of d's replayed kernels (a replay: the kernels of one
** launching call), each with its replays, kernels and GPU time; the idle
** inside replays is added by the caller.  by_launch maps a launching call
** to its graph's index. */
static graph_sums_t *graph_sums(const gp_deps *d, gp_u64map *by_launch, gp_u64map *by_key)
{
	const gp_trace *t = d->t;
	graph_sums_t *g = gp_xcalloc(1, sizeof(*g));
	gp_u64map nk = {0};     /* launch -> kernels in its replay */
	GP_VEC(uint32_t) counts = {0};

	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!gp_unit_replayed(d, k) || d->call[k] < 0)
			continue;
		int32_t i = gp_u64map_add(&nk, (uint64_t)d->call[k], (int32_t)counts.n);
		if ((size_t)i == counts.n)
			*gp_vec_push(counts) = 0;
		counts.v[i]++;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel_def *def = gp_kernel_def(t, &t->kernels.v[k]);
		if (!gp_unit_replayed(d, k) || d->call[k] < 0)
			continue;
		int32_t launch = gp_u64map_get(by_launch, (uint64_t)d->call[k]);
		if (launch < 0) {
			uint32_t size = counts.v[gp_u64map_get(&nk, (uint64_t)d->call[k])];
			uint64_t key = def->graph_id ? (uint64_t)def->graph_id << 32 | 1u << 31
						     : (uint64_t)t->kernels.v[k].def << 32 | size;
			launch = gp_u64map_add(by_key, key, (int32_t)g->n);
			if ((size_t)launch == g->n)
				*gp_vec_push(*g) = (struct graph_sum){.key = key};
			gp_u64map_put(by_launch, (uint64_t)d->call[k], launch);
			g->v[launch].replays++;
		}
		g->v[launch].kernels++;
		g->v[launch].gpu_ns += gp_adv_dur(&t->kernels.v[k]);
	}
	gp_vec_free(counts);
	gp_u64map_free(&nk);
	return g;
}

/* graph-gaps: the GPU idle inside graph replays (after a replay's first
** unit began, before the next of its units): the graph's own node latency
** and dependencies, which CUDA graphs do not remove.  The change: those
** units start right after the work before them on their stream (fewer,
** larger nodes); a unit held by another stream of its graph (an edge no
** trace records) keeps its start. */
bool gp_rule_graph_gaps(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_deps *d = in->deps;
	double total = 0;
	size_t n = 0;
	gp_u64map by_launch = {0}, by_key = {0};
	char d1[32], d2[32], d3[32];

	for (size_t i = 0; i < in->gaps.n; i++) {
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_IN_REPLAY)
			continue;
		total += in->gaps.v[i].ns;
		n++;
	}
	if (!n || total < gp_adv_lim.min_share * in->f->span_ns)
		return false;
	graph_sums_t *g = graph_sums(d, &by_launch, &by_key);
	for (size_t i = 0; i < in->gaps.n; i++) {
		int32_t u = in->gaps.v[i].c->unit;
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_IN_REPLAY)
			continue;
		gp_adv_loosen(in, (size_t)u, GP_WI_UNIT_NO_GAP);
		int32_t j = d->call[u] >= 0 ? gp_u64map_get(&by_launch, (uint64_t)d->call[u]) : -1;
		if (j >= 0)
			g->v[j].gap_ns += in->gaps.v[i].ns;
	}
	gp_adv_involved(x, total, n);
	snprintf(x->title, sizeof(x->title), IDLE_CAUSE_TITLE, GRAPH_GAPS_WHAT, gp_fmt_duration(total, d1, sizeof(d1)),
		 in->f->span_ns > 0 ? 100 * total / in->f->span_ns : 0.0, n);
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
					gp_fmt_duration(s->gpu_ns, d1, sizeof(d1)), gp_fmt_duration(s->gap_ns, d2, sizeof(d2)),
					gp_fmt_duration(s->gap_ns / (double)s->replays, d3, sizeof(d3)));
	}
	gp_adv_largest_gaps(in, -1, GP_ADV_GAP_IN_REPLAY, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", GRAPH_GAPS_CHANGE);
	free(used);
	gp_vec_free(*g);
	free(g);
	gp_u64map_free(&by_launch);
	gp_u64map_free(&by_key);
	return true;
}
