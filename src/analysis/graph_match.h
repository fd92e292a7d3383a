/*
** Replayed graphs matched to capture traces: the part of the graph source
** (attr_graph.h) that reads t->captures.  Private to attr_graph.c and
** graph_match.c.
**
** Ownership: gp_graph_match_captures() adds strings and args to t and
** gives each capture trace the kernels and attributions its correlation
** needs; it keeps nothing after it returns.
*/
#ifndef GP_GRAPH_MATCH_H
#define GP_GRAPH_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"

/* Whether an API call of this name launches a graph (cudaGraphLaunch,
** cuGraphLaunch, hipGraphLaunch, their _ptsz forms). */
bool gp_graph_launch_name(const char *name);

/* For every replayed kernel of t still GP_GRAPH_NO_CAPTURE whose graph
** launch t holds: the captured graph its replay matches and its launch in
** it, whose attribution it takes (GP_GRAPH_CAPTURED), or why none
** (GP_GRAPH_NO_MATCH, GP_GRAPH_AMBIGUOUS, GP_GRAPH_NOT_CAPTURED).
** Correlates each capture trace of t->captures first (once: a trace
** correlated before keeps its attributions).  Never fails. */
void gp_graph_match_captures(gp_trace *t);

/* How many graphs were captured in trace c (*StreamBeginCapture calls). */
size_t gp_graph_capture_count(const gp_trace *c);

#endif
