/*
** Graph replays per graph; see graph_table.h.  One pass over the kernels
** finds each replay's size, one more groups the replays by graph; the gaps
** inside replays are added by the launching call of the unit that ends
** them.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/graph_table.h"
#include "analysis/phases.h"
#include "util/u64map.h"

/* A row's batch before its first kernel with one. */
#define BATCH_UNSEEN (-3)

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

uint8_t *gp_graph_gap_ends(const gp_deps *d, const struct gp_bd_gap_cause *gaps, size_t n)
{
	gp_ns *first = replay_firsts(d);
	uint8_t *where;

	if (!first)
		return NULL;
	where = gp_xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++) {
		const struct gp_bd_gap_cause *g = &gaps[i];
		if (g->unit < 0 || (size_t)g->unit >= d->n || !gp_unit_replayed(d, (size_t)g->unit))
			continue;   /* eager */
		where[i] = g->start >= first[g->unit] ? GP_GAP_IN_REPLAY : GP_GAP_BEFORE_REPLAY;
	}
	free(first);
	return where;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct gp_graph_row *a = pa, *b = pb;

	if (a->gpu_ns != b->gpu_ns)
		return a->gpu_ns > b->gpu_ns ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

void gp_graph_table_build(const gp_deps *d, const struct gp_bd_gap_cause *gaps, size_t n, const uint8_t *ends,
			  struct gp_graph_table *g)
{
	const gp_trace *t = d->t;
	gp_u64map nk = {0};     /* launch -> kernels in its replay */
	gp_u64map by_launch = {0}, by_key = {0};
	GP_VEC(uint32_t) counts = {0};

	memset(g, 0, sizeof(*g));
	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!gp_unit_replayed(d, k) || d->call[k] < 0)
			continue;
		int32_t i = gp_u64map_add(&nk, (uint64_t)d->call[k], (int32_t)counts.n);
		if ((size_t)i == counts.n)
			*gp_vec_push(counts) = 0;
		counts.v[i]++;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_kernel_def *def = gp_kernel_def(t, kr);
		const struct gp_attr *a = &t->attrs[k];
		if (!gp_unit_replayed(d, k) || d->call[k] < 0)
			continue;
		int32_t row = gp_u64map_get(&by_launch, (uint64_t)d->call[k]);
		if (row < 0) {
			uint32_t size = counts.v[gp_u64map_get(&nk, (uint64_t)d->call[k])];
			uint64_t key = def->graph_id ? (uint64_t)def->graph_id << 32 | 1u << 31
						     : (uint64_t)kr->def << 32 | size;
			row = gp_u64map_add(&by_key, key, (int32_t)g->v.n);
			if ((size_t)row == g->v.n)
				*gp_vec_push(g->v) = (struct gp_graph_row){
					.graph_id = def->graph_id, .first = (int32_t)k, .size = size,
					.batch = BATCH_UNSEEN};
			gp_u64map_put(&by_launch, (uint64_t)d->call[k], row);
			g->v.v[row].replays++;
		}
		struct gp_graph_row *r = &g->v.v[row];
		gp_ns ns = kr->end > kr->start ? kr->end - kr->start : 0;
		int32_t b = gp_kernel_batch(t, k);
		r->kernels++;
		r->gpu_ns += ns;
		r->attributed_ns += a->op || a->marker ? ns : 0;
		if (b >= 0)
			r->batch = r->batch == BATCH_UNSEEN || r->batch == b ? b : GP_GRAPH_BATCH_SEVERAL;
	}
	for (size_t i = 0; i < g->v.n; i++)
		if (g->v.v[i].batch == BATCH_UNSEEN)
			g->v.v[i].batch = GP_GRAPH_BATCH_NONE;
	for (size_t i = 0; ends && i < n; i++) {
		int32_t u = gaps[i].unit;
		if (ends[i] != GP_GAP_IN_REPLAY || d->call[u] < 0)
			continue;
		int32_t row = gp_u64map_get(&by_launch, (uint64_t)d->call[u]);
		if (row >= 0) {
			g->v.v[row].gaps++;
			g->v.v[row].gap_ns += gaps[i].end - gaps[i].start;
		}
	}
	if (g->v.n > 1)
		qsort(g->v.v, g->v.n, sizeof(*g->v.v), cmp_row);
	gp_vec_free(counts);
	gp_u64map_free(&nk);
	gp_u64map_free(&by_launch);
	gp_u64map_free(&by_key);
}

void gp_graph_table_free(struct gp_graph_table *g)
{
	gp_vec_free(g->v);
}
