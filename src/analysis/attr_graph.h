/*
** Attribution of kernels replayed from CUDA/HIP graphs (docs/correlation.md,
** "Graph replays").  A replayed kernel's launching call is the graph launch,
** which no op encloses; what launched it is where its node was captured:
**
**   nsys       its graphNodeId leads through the node's clones
**              (CUDA_GRAPH_NODE_EVENTS, gp_graph_node) to the node's
**              creation, whose time and thread are a capture point: the
**              sweep in correlate.c visits it like a launch, and the other
**              sources read the ranges open there, with the iteration ranges
**              of the real launch;
**   Kineto     capture traces (src/readers/captures.h): each replayed graph
**              is matched to a captured one and each kernel to its captured
**              launch (graph_match.c), whose attribution in the capture
**              trace it takes; when the trace holds the captures itself,
**              the captured launch call is the kernel's capture point;
**   annotated  PyTorch's graph kernel annotations on the kernel events
**              (gp_node_annot) name an op and a layer where nothing else does.
**
** Every replayed kernel's gp_attr.graph says which, or why none applies; a
** replayed kernel without capture attribution keeps its launch's layer,
** call site, iteration and direction, and no op (its launch context holds
** the whole graph, not its op).  Same begin / end frame as the other
** sources, with the capture points in between.
**
** Ownership: the context from gp_graphattr_begin() is freed by
** gp_graphattr_end(); what it adds to the trace (strings, args) stays there.
*/
#ifndef GP_ATTR_GRAPH_H
#define GP_ATTR_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/u64map.h"

typedef struct gp_graphattr gp_graphattr;

/* Where a node was captured: a moment on a thread of the trace. */
struct gp_graph_point {
	gp_ns start, end;
	uint32_t pid, tid;
};

/* Marks every replayed kernel (gp_attr.graph; t->attrs filled by the
** launch link) and finds the capture points of those whose node's
** creation the trace holds, or whose launch the trace's own captures
** hold.  Returns NULL, having looked at each kernel
** once, when no kernel was replayed from a graph. */
gp_graphattr *gp_graphattr_begin(gp_trace *t);

/* Indexes t's graph node events by process and node into at (empty
** before): a node reported both made and cloned is its clone. */
void gp_graph_node_index(const gp_trace *t, gp_u64map *at);

/* The creation event (t->graph_nodes index, original == 0) that node of
** process pid was cloned from, through at most 64 clones (at: from
** gp_graph_node_index); -1 when the chain leaves the trace or loops, or
** node is 0. */
int32_t gp_graph_node_creation(const gp_trace *t, const gp_u64map *at, uint32_t pid, uint64_t node);

/* The capture points, sorted by thread (gp_thread_cmp) then start; *n of
** them. */
const struct gp_graph_point *gp_graphattr_points(const gp_graphattr *g, size_t *n);

/* The capture point of kernel k (an index into the points), or -1. */
int32_t gp_graphattr_point_of(const gp_graphattr *g, size_t k);

/* Whether range r marks an iteration ("iteration 3", "ProfilerStep#3":
** gp_iteration_text), which a replayed kernel takes from its real launch,
** not from its capture. */
bool gp_graphattr_iteration_range(const gp_trace *t, const struct gp_range *r);

/* After the other sources: replayed kernels matched to a capture trace take
** its attribution, annotated ones their annotation, and those left without
** lose the op their launch context gave them.  Frees g (NULL is allowed). */
void gp_graphattr_end(gp_graphattr *g, gp_trace *t);

/* ---- accounting: for info, and what groups ops by name ---- */

/* The group name of replayed kernels whose op is unknown, wherever kernels
** are grouped by op (docs/correlation.md). */
#define GP_GRAPH_UNKNOWN_OP "graph replay (op unknown)"

/* GP_GRAPH_UNKNOWN_OP for a replayed kernel without op, else NULL. */
const char *gp_graph_op_label(const struct gp_attr *a);

/* The same as a string of t (t->graph_unknown_op), else 0: the op group of
** a kernel wherever kernels are grouped by op (summary, html, diff). */
gp_str gp_graph_op_group(const gp_trace *t, const struct gp_attr *a);

/* The group name of replayed kernels whose layer is unknown because they
** were replayed: no capture attributed them (a captured kernel without a
** layer had none open at its capture, as an eager launch there would). */
#define GP_GRAPH_UNKNOWN_LAYER "graph replay (layer unknown)"

/* GP_GRAPH_UNKNOWN_LAYER for a replayed kernel without layer whose state
** is not CAPTURED, CAPTURED_OPS or ANNOTATED, else NULL. */
const char *gp_graph_layer_label(const struct gp_attr *a);

/* The same as a string of t (t->graph_unknown_layer), else 0: the layer
** group of a kernel wherever kernels are grouped by layer. */
gp_str gp_graph_layer_group(const gp_trace *t, const struct gp_attr *a);

struct gp_graph_stats {
	size_t kernels;                 /* every kernel (whole-graph records too) */
	gp_ns kernel_ns;                /* their GPU time */
	size_t replayed;                /* replayed from graphs */
	gp_ns replayed_ns;
	size_t attributed;              /* replayed, with an op */
	gp_ns attributed_ns;
	size_t bare;                    /* captured (or annotated), yet no op:
					** no op range was open at the capture */
	gp_ns bare_ns;
	size_t state[GP_GRAPH__COUNT];  /* by gp_attr.graph */
	gp_ns state_ns[GP_GRAPH__COUNT];
	size_t launches;                /* graph launch calls with replayed kernels */
	size_t captures;                /* capture traces read */
	size_t captured_graphs;         /* graphs captured in them */
};

/* Counts t's replayed kernels (t correlated; a window cut counts what it
** kept). */
void gp_graph_stats(const gp_trace *t, struct gp_graph_stats *s);

/* A state's name ("captured", "no-capture", ...) and what it means for the
** kernels in it, for info's lines. */
const char *gp_graph_state_name(int state);
const char *gp_graph_state_why(int state);

#endif
