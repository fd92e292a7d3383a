/*
** Graph replays: which kernels were replayed, their capture points in the
** trace (nsys node events), the end pass (capture traces, annotations,
** what stays unknown) and the accounting.  See attr_graph.h and
** docs/correlation.md.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/graph_match.h"
#include "model/window.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* Longest chain of clones followed from a replayed node to its original
** (instantiation clones once; graph clones and updates add a few). */
#define MAX_CLONES 64

struct gp_graphattr {
	int32_t *point_of;      /* per kernel: its capture point, -1 */
	GP_VEC(struct gp_graph_point) points;
};

/* ---- capture points: nsys node events ---- */

static uint64_t node_key(uint32_t pid, uint64_t node)
{
	return node * 0x9E3779B97F4A7C15ull ^ ((uint64_t)pid << 17 | pid);
}

/* A capture point and its place before the sort. */
struct placed_point {
	struct gp_graph_point p;
	uint32_t old;
};

static int cmp_point(const void *pa, const void *pb)
{
	const struct gp_graph_point *a = &((const struct placed_point *)pa)->p;
	const struct gp_graph_point *b = &((const struct placed_point *)pb)->p;
	int c = gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);

	if (c)
		return c;
	return a->start < b->start ? -1 : a->start > b->start;
}

/*
** The capture point of every replayed kernel with a graph node: its node's
** creation event, resolved once per kernel def (the node is part of the
** def), one point per creation event.  Kernels whose chain leaves the
** trace (the graph was captured before the profile began) are
** GP_GRAPH_NODE_UNSEEN.
*/
void gp_graph_node_index(const gp_trace *t, gp_u64map *at)
{
	for (size_t i = 0; i < t->graph_nodes.n; i++) {
		const struct gp_graph_node *n = &t->graph_nodes.v[i];
		uint64_t key = node_key(n->pid, n->node);
		int32_t e = gp_u64map_add(at, key, (int32_t)i);
		const struct gp_graph_node *was = &t->graph_nodes.v[e];
		/* CUPTI reports a node cudaGraphInstantiate makes twice, made and
		** cloned (gpuprof record): the clone says where it came from */
		if (e != (int32_t)i && !was->original && n->original && was->node == n->node && was->pid == n->pid)
			gp_u64map_put(at, key, (int32_t)i);
	}
}

int32_t gp_graph_node_creation(const gp_trace *t, const gp_u64map *at, uint32_t pid, uint64_t node)
{
	for (int i = 0; node && i < MAX_CLONES; i++) {
		int32_t e = gp_u64map_get(at, node_key(pid, node));
		if (e < 0 || t->graph_nodes.v[e].node != node || t->graph_nodes.v[e].pid != pid)
			return -1;
		if (!t->graph_nodes.v[e].original)
			return e;
		node = t->graph_nodes.v[e].original;
	}
	return -1;
}

static void find_points(gp_graphattr *g, gp_trace *t)
{
	gp_u64map at = {0}, point_at = {0};
	int32_t *def_point = gp_xmalloc(t->kernel_defs.n * sizeof(*def_point));

	gp_graph_node_index(t, &at);
	for (size_t i = 0; i < t->kernel_defs.n; i++)
		def_point[i] = -2;   /* not resolved yet */
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_kernel_def *d = gp_kernel_def(t, kr);
		if (t->attrs[k].graph != GP_GRAPH_NO_CAPTURE || !d->graph_node)
			continue;
		if (def_point[kr->def] == -2) {
			int32_t e = gp_graph_node_creation(t, &at, d->pid, d->graph_node);
			def_point[kr->def] = e < 0 ? -1 : gp_u64map_add(&point_at, (uint64_t)e, (int32_t)g->points.n);
			if (e >= 0 && def_point[kr->def] == (int32_t)g->points.n) {
				const struct gp_graph_node *n = &t->graph_nodes.v[e];
				*gp_vec_push(g->points) = (struct gp_graph_point){n->start, n->end, n->pid, n->tid};
			}
		}
		g->point_of[k] = def_point[kr->def];
		t->attrs[k].graph = g->point_of[k] >= 0 ? GP_GRAPH_CAPTURED : GP_GRAPH_NODE_UNSEEN;
	}
	free(def_point);
	gp_u64map_free(&at);
	gp_u64map_free(&point_at);
}

/*
** The capture point of every replayed kernel still without one that the
** trace's own captures hold (gp_graph_match_self): its captured launch
** call, one point per call.
*/
static void self_points(gp_graphattr *g, gp_trace *t)
{
	int32_t *call_of = gp_xmalloc(t->kernels.n * sizeof(*call_of));
	gp_u64map point_at = {0};   /* call -> its point */

	gp_graph_match_self(t, call_of);
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t c = call_of[k];
		if (c < 0)
			continue;
		const struct gp_api *a = &t->apis.v[c];
		g->point_of[k] = gp_u64map_add(&point_at, (uint64_t)c, (int32_t)g->points.n);
		if (g->point_of[k] == (int32_t)g->points.n)
			*gp_vec_push(g->points) = (struct gp_graph_point){a->start, a->end, a->pid, a->tid};
	}
	gp_u64map_free(&point_at);
	free(call_of);
}

/* Sorts the points by thread and start, as the sweep visits them, and
** renumbers the kernels' references. */
static void sort_points(gp_graphattr *g, gp_trace *t)
{
	size_t np = g->points.n;
	uint32_t *perm;
	struct placed_point *sorted = gp_xmalloc((np ? np : 1) * sizeof(*sorted));
	perm = gp_xmalloc((np ? np : 1) * sizeof(*perm));
	for (size_t i = 0; i < np; i++)
		sorted[i] = (struct placed_point){g->points.v[i], (uint32_t)i};
	qsort(sorted, np, sizeof(*sorted), cmp_point);
	for (size_t i = 0; i < np; i++) {
		perm[sorted[i].old] = (uint32_t)i;
		g->points.v[i] = sorted[i].p;
	}
	for (size_t k = 0; k < t->kernels.n; k++)
		if (g->point_of[k] >= 0)
			g->point_of[k] = (int32_t)perm[g->point_of[k]];
	free(sorted);
	free(perm);
}

gp_graphattr *gp_graphattr_begin(gp_trace *t)
{
	uint8_t *launch_def = gp_xcalloc(t->api_defs.n ? t->api_defs.n : 1, 1);
	size_t replayed = 0;
	gp_graphattr *g;

	for (size_t i = 1; i < t->api_defs.n; i++)
		launch_def[i] = gp_graph_launch_name(gp_s(t, t->api_defs.v[i].name));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[k]);
		int32_t api = t->attrs[k].api;
		uint8_t st = GP_GRAPH_NONE;
		if (d->flags & GP_KDEF_WHOLE_GRAPH)
			st = GP_GRAPH_WHOLE;
		else if (d->graph_node || d->graph_id || (api >= 0 && launch_def[t->apis.v[api].def]))
			st = GP_GRAPH_NO_CAPTURE;
		t->attrs[k].graph = st;
		replayed += st != GP_GRAPH_NONE;
	}
	free(launch_def);
	if (!replayed)
		return NULL;
	t->graph_unknown_op = gp_intern(t, GP_GRAPH_UNKNOWN_OP);
	t->graph_unknown_layer = gp_intern(t, GP_GRAPH_UNKNOWN_LAYER);
	g = gp_xcalloc(1, sizeof(*g));
	g->point_of = gp_xmalloc(t->kernels.n * sizeof(*g->point_of));
	for (size_t k = 0; k < t->kernels.n; k++)
		g->point_of[k] = -1;
	if (t->graph_nodes.n)
		find_points(g, t);
	if (gp_graph_capture_count(t))
		self_points(g, t);
	sort_points(g, t);
	return g;
}

const struct gp_graph_point *gp_graphattr_points(const gp_graphattr *g, size_t *n)
{
	*n = g->points.n;
	return g->points.v;
}

int32_t gp_graphattr_point_of(const gp_graphattr *g, size_t k)
{
	return g->point_of[k];
}

bool gp_graphattr_iteration_range(const gp_trace *t, const struct gp_range *r)
{
	int64_t num;

	return (r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND ||
		r->kind == GP_RANGE_USER_ANNOTATION) &&
	       gp_iteration_text(gp_s(t, r->text), &num);
}

/* ---- the end pass ---- */

/*
** Kernels whose node carries an annotation (gp_node_annot) and that no
** capture attributed: the annotation's name is their op, its module path
** their layer, as an NVTX range of that name around their launch would.
*/
static void annotate(gp_trace *t)
{
	gp_u64map at = {0};

	for (size_t i = 0; i < t->node_annots.n; i++)
		gp_u64map_add(&at, t->node_annots.v[i].node * 0x9E3779B97F4A7C15ull ^ t->node_annots.v[i].graph,
			      (int32_t)i);
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_attr *a = &t->attrs[k];
		const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[k]);
		if (a->graph == GP_GRAPH_NONE || a->graph == GP_GRAPH_CAPTURED ||
		    a->graph == GP_GRAPH_CAPTURED_OPS || !d->graph_node)
			continue;
		int32_t i = gp_u64map_get(&at, d->graph_node * 0x9E3779B97F4A7C15ull ^ d->graph_id);
		if (i < 0 || t->node_annots.v[i].node != d->graph_node || t->node_annots.v[i].graph != d->graph_id)
			continue;
		const struct gp_node_annot *n = &t->node_annots.v[i];
		a->graph = GP_GRAPH_ANNOTATED;
		a->op = a->marker = n->name;
		a->mod = 0;
		a->args_count = 0;
		if (n->layer)
			a->layer = n->layer;
	}
	gp_u64map_free(&at);
}

/* What a replayed kernel's launch context cannot say: the op of the graph
** launch's surroundings is not the kernel's. */
static void forget_launch_op(struct gp_attr *a)
{
	a->op = a->mod = a->marker = 0;
	a->args_count = 0;
	a->seq = -1;
	a->seq_list = a->altseq_list = 0;
	a->seq_is_list = 0;
	a->sub = 0;
	a->fwd = -1;
}

void gp_graphattr_end(gp_graphattr *g, gp_trace *t)
{
	if (!g)
		return;
	if (t->captures.n)
		gp_graph_match_captures(t);
	if (t->node_annots.n)
		annotate(t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		uint8_t st = t->attrs[k].graph;
		if (st != GP_GRAPH_NONE && st != GP_GRAPH_CAPTURED && st != GP_GRAPH_CAPTURED_OPS &&
		    st != GP_GRAPH_ANNOTATED)
			forget_launch_op(&t->attrs[k]);
		/* captured by the trace itself, in a graph alike but for shapes */
		if (st == GP_GRAPH_CAPTURED_OPS && g->point_of[k] >= 0)
			t->attrs[k].args_count = 0;
	}
	free(g->point_of);
	gp_vec_free(g->points);
	free(g);
}

/* ---- accounting ---- */

const char *gp_graph_op_label(const struct gp_attr *a)
{
	return a->graph != GP_GRAPH_NONE && !a->op && !a->marker ? GP_GRAPH_UNKNOWN_OP : NULL;
}

gp_str gp_graph_op_group(const gp_trace *t, const struct gp_attr *a)
{
	return gp_graph_op_label(a) ? t->graph_unknown_op : 0;
}

const char *gp_graph_layer_label(const struct gp_attr *a)
{
	bool attributed = a->graph == GP_GRAPH_CAPTURED || a->graph == GP_GRAPH_CAPTURED_OPS ||
			  a->graph == GP_GRAPH_ANNOTATED;

	return a->graph != GP_GRAPH_NONE && !attributed && !a->layer ? GP_GRAPH_UNKNOWN_LAYER : NULL;
}

gp_str gp_graph_layer_group(const gp_trace *t, const struct gp_attr *a)
{
	return gp_graph_layer_label(a) ? t->graph_unknown_layer : 0;
}

void gp_graph_stats(const gp_trace *t, struct gp_graph_stats *s)
{
	gp_u64map calls = {0};

	memset(s, 0, sizeof(*s));
	s->kernels = t->kernels.n;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		gp_ns d = kr->end > kr->start ? kr->end - kr->start : 0;
		const struct gp_attr *a = t->attrs ? &t->attrs[k] : NULL;
		s->kernel_ns += d;
		if (!a || a->graph == GP_GRAPH_NONE || a->graph >= GP_GRAPH__COUNT)
			continue;
		s->replayed++;
		s->replayed_ns += d;
		s->state[a->graph]++;
		s->state_ns[a->graph] += d;
		if (a->op || a->marker) {
			s->attributed++;
			s->attributed_ns += d;
		} else if (a->graph == GP_GRAPH_CAPTURED || a->graph == GP_GRAPH_ANNOTATED) {
			s->bare++;
			s->bare_ns += d;
		}
		if (a->api >= 0 && gp_u64map_get(&calls, (uint64_t)a->api) < 0) {
			gp_u64map_put(&calls, (uint64_t)a->api, 1);
			s->launches++;
		}
	}
	gp_u64map_free(&calls);
	s->captures = t->captures.n;
	for (size_t i = 0; i < t->captures.n; i++)
		s->captured_graphs += gp_graph_capture_count(t->captures.v[i].t);
}

static const struct {
	const char *name, *why;
} states[GP_GRAPH__COUNT] = {
	[GP_GRAPH_NONE] = {"eager", "launched on their own"},
	[GP_GRAPH_CAPTURED] = {"captured", "attributed where their graph was captured"},
	[GP_GRAPH_CAPTURED_OPS] = {"captured-ops", "op and layer from their capture; several captures "
						   "(batch sizes) fit, so no shapes"},
	[GP_GRAPH_ANNOTATED] = {"annotated", "attributed by the annotations on the kernels"},
	[GP_GRAPH_WHOLE] = {"whole-graph", "whole graphs traced as one record each (nsys "
					   "--cuda-graph-trace=graph): profile with "
					   "--cuda-graph-trace=node to see their kernels and ops"},
	[GP_GRAPH_NO_CAPTURE] = {"no-capture", "nothing read records their capture: give the "
					       "capture traces (--capture; vLLM, SGLang write them), "
					       "profile with nsys --cuda-graph-trace=node around the "
					       "capture, or record with gpuprof record"},
	[GP_GRAPH_NODE_UNSEEN] = {"node-unseen", "their graph was captured before the profile "
						 "began: start it before the capture"},
	[GP_GRAPH_NO_MATCH] = {"no-match", "no captured graph has the kernels of their replay"},
	[GP_GRAPH_AMBIGUOUS] = {"ambiguous", "several captured graphs or launches fit and "
					     "they name different ops"},
	[GP_GRAPH_NOT_CAPTURED] = {"not-captured", "their graph matched a capture that has no "
						   "launch of theirs"},
};

const char *gp_graph_state_name(int state)
{
	return state >= 0 && state < GP_GRAPH__COUNT ? states[state].name : "unknown";
}

const char *gp_graph_state_why(int state)
{
	return state >= 0 && state < GP_GRAPH__COUNT ? states[state].why : "";
}
