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
#include "analysis/graph_table.h"

uint8_t *gp_adv_gap_graphs(const struct gp_adv_in *in)
{
	return gp_graph_gap_ends(in->deps, in->gaps, in->ngaps);
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

/* Every cause idle time can have but the one-time ones (bits of enum
** gp_cause): a capture before the first replay, or compiling, is no
** host work between replays (the one-time rules report it). */
static uint32_t idle_causes(void)
{
	uint32_t m = 0;

	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		if (gp_cause_is_idle(c) && !gp_cause_one_time(c))
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
	for (size_t i = 0; i < in->ngaps; i++) {
		int32_t u = in->gaps[i].unit;
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
	struct gp_graph_table tab;
	char d1[32], d2[32], d3[32];

	for (size_t i = 0; i < in->ngaps; i++) {
		if (gp_adv_gap_graph(in, i) != GP_ADV_GAP_IN_REPLAY)
			continue;
		total += gp_adv_gap_ns(in, i);
		n++;
	}
	if (!n || total < gp_adv_lim.min_share * in->f->span_ns)
		return false;
	gp_graph_table_build(d, in->gaps, in->ngaps, in->gap_graph, &tab);
	for (size_t i = 0; i < in->ngaps; i++)
		if (gp_adv_gap_graph(in, i) == GP_ADV_GAP_IN_REPLAY)
			gp_adv_loosen(in, (size_t)in->gaps[i].unit, GP_WI_UNIT_NO_GAP);
	gp_adv_involved(x, total, n);
	x->idle = true;
	snprintf(x->title, sizeof(x->title), IDLE_CAUSE_TITLE, GRAPH_GAPS_WHAT, gp_fmt_duration(total, d1, sizeof(d1)),
		 gp_adv_span_pct(in, total), n, n == 1 ? "" : "s");
	/* the three graphs with the most idle inside their replays */
	size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), "%s", GRAPH_GAPS_EVIDENCE);
	bool *used = gp_xcalloc(tab.v.n ? tab.v.n : 1, sizeof(*used));
	for (int r = 0; r < 3 && len < sizeof(x->evidence); r++) {
		size_t best = tab.v.n;
		for (size_t i = 0; i < tab.v.n; i++)
			if (!used[i] && tab.v.v[i].gap_ns > 0 &&
			    (best == tab.v.n || tab.v.v[i].gap_ns > tab.v.v[best].gap_ns))
				best = i;
		if (best == tab.v.n)
			break;
		used[best] = true;
		const struct gp_graph_row *s = &tab.v.v[best];
		char name[64];
		if (s->graph_id)
			snprintf(name, sizeof(name), "graph %u", (unsigned)s->graph_id);
		else
			snprintf(name, sizeof(name), "a graph of %u kernels", (unsigned)s->size);
		len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, GRAPH_GAPS_GRAPH, r ? ";" : "",
					name, s->replays, (double)s->kernels / (double)s->replays,
					gp_fmt_duration((double)s->gpu_ns, d1, sizeof(d1)),
					gp_fmt_duration((double)s->gap_ns, d2, sizeof(d2)),
					gp_fmt_duration((double)s->gap_ns / (double)s->replays, d3, sizeof(d3)));
	}
	gp_adv_largest_gaps(in, -1, GP_ADV_GAP_IN_REPLAY, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, GRAPH_GAPS_CHANGE));
	free(used);
	gp_graph_table_free(&tab);
	return true;
}
