/*
** Unit tests: the attribution of graph-replayed kernels (attr_graph.c) on
** synthetic traces built in C: nsys capture points through clone chains,
** the iteration of the real launch, chains that leave the trace or loop,
** whole-graph records, kernel annotations, and the accounting.  The
** capture-trace matching is tested end to end (tests/cli/t1700-t1703).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/correlate.h"

#define PID 7
#define TID 9

static void api(gp_trace *t, gp_ns s, gp_ns e, uint64_t corr, const char *name)
{
	struct gp_api *a = gp_vec_push(t->apis);
	a->pid = PID;
	a->tid = TID;
	a->start = s;
	a->end = e;
	a->corr = corr;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, name), .cbid = -1});
}

static void kernel(gp_trace *t, gp_ns s, uint64_t corr, uint64_t node, uint32_t flags)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	k->start = s;
	k->end = s + 10;
	k->corr = corr;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, "k"), .pid = PID,
							       .graph_node = node, .graph_id = node || flags ? 1 : 0,
							       .flags = flags});
}

static void range(gp_trace *t, gp_ns s, gp_ns e, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	r->pid = PID;
	r->tid = TID;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = GP_RANGE_PUSHPOP;
	r->parent = -1;
}

static void node(gp_trace *t, gp_ns s, uint64_t id, uint64_t original)
{
	*gp_vec_push(t->graph_nodes) = (struct gp_graph_node){s, s + 1, id, original, PID, TID};
}

static void correlate(gp_trace *t)
{
	struct gp_correlate_opts o = {0};
	gp_error err = {0};

	gp_trace_finish(t);
	assert_int_equal(gp_correlate(t, &o, &err), GP_OK);
}

/*
** A graph captured in iteration 0 (nodes 1 and 2 created inside op ranges
** under layer:L), instantiated (clones 11, 12), then cloned again (21 from
** 11), replayed in iteration 3: its kernels take the capture's op and layer
** and the launch's iteration; a node whose chain leaves the trace, or
** loops, is node-unseen and has no op.
*/
static void nsys_points(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	range(&t, 0, 1000, "iteration 0");
	range(&t, 10, 500, "layer:L");
	range(&t, 20, 100, "aten::mm, op_id = 1, sizes = [[8, 16], [16, 32]]");
	node(&t, 50, 1, 0);
	range(&t, 200, 300, "aten::relu, op_id = 2, sizes = [[8, 32]]");
	node(&t, 250, 2, 0);
	node(&t, 600, 11, 1);
	node(&t, 610, 12, 2);
	node(&t, 700, 21, 11);
	node(&t, 710, 31, 32);      /* a loop: 31 -> 32 -> 31 */
	node(&t, 720, 32, 31);
	range(&t, 2000, 3000, "iteration 3");
	range(&t, 2010, 2100, "decode_step");
	api(&t, 2020, 2030, 5, "cudaGraphLaunch");
	kernel(&t, 2500, 5, 21, 0);
	kernel(&t, 2520, 5, 12, 0);
	kernel(&t, 2540, 5, 99, 0);   /* no such node */
	kernel(&t, 2560, 5, 31, 0);
	api(&t, 2040, 2050, 6, "cudaLaunchKernel");
	kernel(&t, 2600, 6, 0, 0);    /* eager, inside decode_step */
	correlate(&t);

	assert_int_equal(t.attrs[0].graph, GP_GRAPH_CAPTURED);
	assert_string_equal(gp_s(&t, t.attrs[0].op), "aten::mm");
	assert_string_equal(gp_s(&t, t.attrs[0].layer), "L");
	assert_int_equal(t.attrs[0].iter, 3);
	assert_int_equal(t.attrs[0].args_count, 2);
	assert_int_equal(t.attrs[1].graph, GP_GRAPH_CAPTURED);
	assert_string_equal(gp_s(&t, t.attrs[1].op), "aten::relu");
	assert_int_equal(t.attrs[1].iter, 3);
	for (int k = 2; k < 4; k++) {
		assert_int_equal(t.attrs[k].graph, GP_GRAPH_NODE_UNSEEN);
		assert_int_equal(t.attrs[k].op, 0);   /* not decode_step's */
		assert_string_equal(gp_graph_op_label(&t.attrs[k]), GP_GRAPH_UNKNOWN_OP);
	}
	assert_int_equal(t.attrs[4].graph, GP_GRAPH_NONE);
	assert_string_equal(gp_s(&t, t.attrs[4].op), "decode_step");
	assert_null(gp_graph_op_label(&t.attrs[4]));

	struct gp_graph_stats s;
	gp_graph_stats(&t, &s);
	assert_int_equal(s.kernels, 5);
	assert_int_equal(s.replayed, 4);
	assert_int_equal(s.replayed_ns, 40);
	assert_int_equal(s.attributed, 2);
	assert_int_equal(s.launches, 1);
	assert_int_equal(s.state[GP_GRAPH_CAPTURED], 2);
	assert_int_equal(s.state[GP_GRAPH_NODE_UNSEEN], 2);
	gp_trace_free(&t);
}

/* Whole-graph records and replays without any capture record: replayed,
** no op (their launch context's op is forgotten), the layer kept. */
static void whole_and_unknown(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	range(&t, 0, 100, "layer:Decoder");
	range(&t, 5, 90, "run_graph");
	api(&t, 10, 20, 1, "cudaGraphLaunch");
	kernel(&t, 50, 1, 0, GP_KDEF_WHOLE_GRAPH);
	api(&t, 30, 40, 2, "hipGraphLaunch");
	kernel(&t, 70, 2, 0, 0);      /* AMD: no node id, only the launch says */
	correlate(&t);

	assert_int_equal(t.attrs[0].graph, GP_GRAPH_WHOLE);
	assert_int_equal(t.attrs[1].graph, GP_GRAPH_NO_CAPTURE);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(t.attrs[k].op, 0);
		assert_string_equal(gp_s(&t, t.attrs[k].layer), "Decoder");
	}
	gp_trace_free(&t);
}

/* A trace without graphs: every kernel GP_GRAPH_NONE, nothing replayed. */
static void no_graphs(void **state)
{
	gp_trace t;
	struct gp_graph_stats s;

	gp_trace_init(&t);
	range(&t, 0, 100, "aten::add");
	api(&t, 10, 20, 1, "cudaLaunchKernel");
	kernel(&t, 50, 1, 0, 0);
	correlate(&t);
	assert_int_equal(t.attrs[0].graph, GP_GRAPH_NONE);
	gp_graph_stats(&t, &s);
	assert_int_equal(s.replayed, 0);
	assert_int_equal(s.launches, 0);
	gp_trace_free(&t);
}

/* PyTorch's graph kernel annotations: the annotated node's kernels take
** the annotation's name as op and its module path as layer. */
static void annotations(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	api(&t, 10, 20, 1, "cudaGraphLaunch");
	kernel(&t, 50, 1, 4, 0);
	kernel(&t, 70, 1, 5, 0);
	*gp_vec_push(t.node_annots) = (struct gp_node_annot){.node = 4, .graph = 1,
		.name = gp_intern(&t, "linear_fwd"), .layer = gp_intern(&t, "layers.0.attention.wq")};
	correlate(&t);
	assert_int_equal(t.attrs[0].graph, GP_GRAPH_ANNOTATED);
	assert_string_equal(gp_s(&t, t.attrs[0].op), "linear_fwd");
	assert_string_equal(gp_s(&t, t.attrs[0].layer), "layers.0.attention.wq");
	assert_int_equal(t.attrs[1].graph, GP_GRAPH_NO_CAPTURE);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nsys_points),
		cmocka_unit_test(whole_and_unknown),
		cmocka_unit_test(no_graphs),
		cmocka_unit_test(annotations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
