/*
** Graph replays per graph (docs/correlation.md, "Per graph"): each graph's
** replays (the replayed kernels of one launching call), kernels per replay,
** GPU time, the share of it attributed to an op, the capture its replays
** matched, and the idle inside its replays: the breakdown's gaps that end
** after a replay's first unit began, before the next of its units (the
** graph's own node latency and dependencies).  Where each gap ends is the
** one split that advise's idle rules and graph rules share
** (advise_graph.c): gaps before eager work, before a replay, inside one.
** A graph is its runtime graph id where the trace records one, else the
** first kernel and the size of its replays.
**
** Ownership: a gp_graph_table owns its rows (gp_graph_table_free).
*/
#ifndef GP_GRAPH_TABLE_H
#define GP_GRAPH_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/breakdown.h"
#include "analysis/deps.h"

/* Where a gap ends (gp_graph_gap_ends). */
enum { GP_GAP_AT_EAGER, GP_GAP_IN_REPLAY, GP_GAP_BEFORE_REPLAY };

/* Where each of gaps[0..n) (the breakdown's, d's unit numbering) ends,
** as a malloc()ed [n] array of GP_GAP_*; NULL (nothing allocated) when no
** unit of d was replayed. */
uint8_t *gp_graph_gap_ends(const gp_deps *d, const struct gp_bd_gap_cause *gaps, size_t n);

/* The batch size a graph's replays matched: none matched a capture of a
** stated batch size, several. */
#define GP_GRAPH_BATCH_NONE (-1)
#define GP_GRAPH_BATCH_SEVERAL (-2)

struct gp_graph_row {
	uint32_t graph_id;      /* the runtime's graph id, 0 = not recorded */
	int32_t first;          /* the first kernel of its first replay */
	uint32_t size;          /* kernels of that replay */
	int32_t batch;          /* of the captures its replays matched, or GP_GRAPH_BATCH_* */
	size_t replays, kernels;
	gp_ns gpu_ns;           /* its kernels' summed durations */
	gp_ns attributed_ns;    /* of those, kernels with an op */
	size_t gaps;            /* gaps inside its replays */
	gp_ns gap_ns;
};

struct gp_graph_table {
	GP_VEC(struct gp_graph_row) v;   /* most GPU time first */
};

/* The graphs of d's replayed kernels (d's trace correlated), with the
** idle of gaps[0..n) whose end `ends` (gp_graph_gap_ends; NULL: none
** inside replays) puts inside a replay.  Empty when nothing was
** replayed.  Never fails. */
void gp_graph_table_build(const gp_deps *d, const struct gp_bd_gap_cause *gaps, size_t n, const uint8_t *ends,
			  struct gp_graph_table *g);

void gp_graph_table_free(struct gp_graph_table *g);

#endif
