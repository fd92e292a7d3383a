/*
** Unit tests: the Python-literal parser (pylit.c) and NVTX marker
** classification/extraction (markers.c), on hand-written strings, real
** markers from the test data, and malformed input.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/markers.h"
#include "analysis/pylit.h"

/* ---- pylit ---- */

static uint32_t parse(gp_pyl_doc *d, const char *s)
{
	gp_pyl_reset(d);
	return gp_pyl_parse(d, s, strlen(s), NULL);
}

static void pylit_scalars(void **state)
{
	gp_pyl_doc d;
	char buf[64];
	uint32_t v;

	gp_pyl_init(&d, NULL, 0);
	v = parse(&d, " 42 ");
	assert_int_equal(d.nodes[v].type, GP_PYL_INT);
	assert_int_equal(d.nodes[v].v.i, 42);
	v = parse(&d, "-20");
	assert_int_equal(d.nodes[v].v.i, -20);
	v = parse(&d, "-9223372036854775808");
	assert_true(d.nodes[v].v.i == INT64_MIN);
	assert_int_equal(d.nodes[v].flags & GP_PYL_OVERFLOW, 0);
	v = parse(&d, "123456789012345678901234567890");
	assert_true(d.nodes[v].v.i == INT64_MAX);
	assert_true(d.nodes[v].flags & GP_PYL_OVERFLOW);
	v = parse(&d, "-99999999999999999999");
	assert_true(d.nodes[v].v.i == INT64_MIN);
	assert_true(d.nodes[v].flags & GP_PYL_OVERFLOW);
	v = parse(&d, "1e-05");
	assert_int_equal(d.nodes[v].type, GP_PYL_FLOAT);
	assert_true(d.nodes[v].v.f == 1e-05);
	v = parse(&d, "0.1525744008826264");
	assert_true(d.nodes[v].v.f == 0.1525744008826264);
	v = parse(&d, "-2.5E+3");
	assert_true(d.nodes[v].v.f == -2500.0);
	v = parse(&d, "-inf");
	assert_true(isinf(d.nodes[v].v.f) && d.nodes[v].v.f < 0);
	v = parse(&d, "nan");
	assert_true(isnan(d.nodes[v].v.f));
	v = parse(&d, "True");
	assert_int_equal(d.nodes[v].type, GP_PYL_BOOL);
	assert_int_equal(d.nodes[v].v.i, 1);
	v = parse(&d, "False");
	assert_int_equal(d.nodes[v].v.i, 0);
	v = parse(&d, "None");
	assert_int_equal(d.nodes[v].type, GP_PYL_NONE);

	v = parse(&d, "'it\\'s \"x\" \\\\ \\n\\x41\\u00e9\\U0001F600\\101'");
	assert_int_equal(d.nodes[v].type, GP_PYL_STR);
	assert_true(d.nodes[v].flags & GP_PYL_ESCAPED);
	size_t n = gp_pyl_str(&d, v, buf, sizeof(buf));
	assert_string_equal(buf, "it's \"x\" \\ \nA\xc3\xa9\xf0\x9f\x98\x80" "A");
	assert_int_equal(n, strlen(buf));
	assert_true(n <= d.nodes[v].len);
	/* truncation keeps the full length as the return value */
	assert_int_equal(gp_pyl_str(&d, v, buf, 4), n);
	assert_string_equal(buf, "it'");
	v = parse(&d, "\"don't\"");
	assert_true(gp_pyl_str_is(&d, v, "don't"));
	v = parse(&d, "'a\\qb'");   /* unknown escape keeps the backslash */
	gp_pyl_str(&d, v, buf, sizeof(buf));
	assert_string_equal(buf, "a\\qb");
	gp_pyl_free(&d);
}

static void pylit_containers(void **state)
{
	struct gp_pyl stack[4];   /* small on purpose: forces growth */
	gp_pyl_doc d;
	uint32_t v, k;

	gp_pyl_init(&d, stack, 4);
	v = parse(&d, "{'shape': (35, 20, 200), 'e': (), 'one': (3,), 'p': (7), 'l': [1, [2, 3],], }");
	assert_int_equal(d.nodes[v].type, GP_PYL_DICT);
	assert_int_equal(d.nodes[v].len, 10);
	k = gp_pyl_get(&d, v, "shape");
	assert_int_equal(d.nodes[k].type, GP_PYL_TUPLE);
	assert_int_equal(d.nodes[k].len, 3);
	assert_int_equal(d.nodes[d.nodes[k].first].v.i, 35);
	k = gp_pyl_get(&d, v, "e");
	assert_int_equal(d.nodes[k].type, GP_PYL_TUPLE);
	assert_int_equal(d.nodes[k].len, 0);
	assert_int_equal(d.nodes[k].first, 0);
	k = gp_pyl_get(&d, v, "one");
	assert_int_equal(d.nodes[k].type, GP_PYL_TUPLE);
	assert_int_equal(d.nodes[k].len, 1);
	k = gp_pyl_get(&d, v, "p");   /* (7) is just 7 */
	assert_int_equal(d.nodes[k].type, GP_PYL_INT);
	assert_int_equal(d.nodes[k].v.i, 7);
	k = gp_pyl_get(&d, v, "l");
	assert_int_equal(d.nodes[k].type, GP_PYL_LIST);
	assert_int_equal(d.nodes[k].len, 2);
	assert_int_equal(gp_pyl_get(&d, v, "missing"), 0);
	assert_int_equal(gp_pyl_get(&d, k, "l"), 0);   /* not a dict */
	assert_true(d.heap);

	/* prefix mode stops after the value */
	size_t end;
	const char *s = "[[32, 3], []], input_op_ids = [(1,0)]";
	gp_pyl_reset(&d);
	v = gp_pyl_parse(&d, s, strlen(s), &end);
	assert_int_not_equal(v, 0);
	assert_int_equal(end, 13);
	gp_pyl_free(&d);
}

static void expect_error(const char *s, size_t len, size_t off, const char *msg)
{
	gp_pyl_doc d;

	gp_pyl_init(&d, NULL, 0);
	assert_int_equal(gp_pyl_parse(&d, s, len, NULL), 0);
	assert_non_null(d.err);
	if (msg)
		assert_string_equal(d.err, msg);
	assert_int_equal(d.err_off, off);
	gp_pyl_free(&d);
}

static void pylit_errors(void **state)
{
	expect_error("{'a': 'unterminated", 19, 6, "unterminated string");
	expect_error("'abc\\", 5, 0, "unterminated string");
	expect_error("'\\x4", 4, 1, "truncated escape");
	expect_error("'\\x4'", 5, 1, "bad hex escape");
	expect_error("'\\xZZ'", 6, 1, "bad hex escape");
	expect_error("{'a' 1}", 7, 5, "expected ':' in dict");
	expect_error("[1 2]", 5, 3, "expected ',' or closing bracket");
	expect_error("[1, 2", 5, 0, "unterminated container");
	expect_error("1 2", 3, 2, "unexpected text after the value");
	expect_error("12abc", 5, 2, "bad character in number");
	expect_error("tensor(1)", 9, 0, "unexpected word");
	expect_error("@", 1, 0, "unexpected character");
	expect_error("", 0, 0, "expected a value");
	expect_error("-", 1, 0, "expected a number");
	expect_error("1e", 2, 0, "malformed number");
	/* the text is not NUL-terminated: a quote just past len is not seen */
	expect_error("'ab'", 3, 0, "unterminated string");

	/* 10000 levels: rejected at the depth limit, no deep recursion */
	size_t n = 10000;
	char *deep = malloc(2 * n);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	expect_error(deep, 2 * n, GP_PYL_MAX_DEPTH, "nesting too deep");
	memset(deep, '(', n);
	expect_error(deep, n, GP_PYL_MAX_DEPTH, "nesting too deep");
	free(deep);

	/* exactly at the limit parses */
	char ok[2 * GP_PYL_MAX_DEPTH];
	memset(ok, '[', GP_PYL_MAX_DEPTH);
	memset(ok + GP_PYL_MAX_DEPTH, ']', GP_PYL_MAX_DEPTH);
	gp_pyl_doc d;
	gp_pyl_init(&d, NULL, 0);
	assert_int_not_equal(gp_pyl_parse(&d, ok, sizeof(ok), NULL), 0);
	gp_pyl_free(&d);
}

/* ---- markers ---- */

struct fx {
	gp_trace t;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	gp_trace_init(&f->t);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	gp_trace_free(&f->t);
	free(f);
	return 0;
}

static int mparse(gp_trace *t, const char *s, struct gp_marker *m)
{
	return gp_marker_parse(t, s, strlen(s), m);
}

static const struct gp_arg *arg(gp_trace *t, const struct gp_marker *m, uint32_t i)
{
	assert_true(i < m->args_count);
	return &t->args.v[m->args_first + i];
}

static void marker_pyprof(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	struct gp_marker m;
	const struct gp_arg *a;

	/* real, from pyprof_lm_v100/net_da6bcc3.sql */
	assert_int_equal(mparse(t, "{'mod': 'Tensor', 'op': 'add_', 'args': [{'name': '', 'type': 'tensor', "
	    "'shape': (200,), 'dtype': 'float32'}, {'name': '', 'type': 'int', 'value': -20}, "
	    "{'name': '', 'type': 'tensor', 'shape': (200,), 'dtype': 'float32'}]}", &m), 0);
	assert_int_equal(m.kind, GP_MK_PYPROF);
	assert_int_equal(m.pyprof_kind, GP_MK_PYPROF);
	assert_string_equal(gp_s(t, m.mod), "Tensor");
	assert_string_equal(gp_s(t, m.op), "add_");
	assert_int_equal(m.args_count, 3);
	assert_false(m.lossy);
	a = arg(t, &m, 0);
	assert_int_equal(a->type, GP_ARG_TENSOR);
	assert_int_equal(a->dtype, GP_DT_FP32);
	assert_int_equal(a->ndim, 1);
	assert_int_equal(a->shape[0], 200);
	assert_int_equal(a->name, 0);
	a = arg(t, &m, 1);
	assert_int_equal(a->type, GP_ARG_INT);
	assert_true(a->value == -20);

	/* real, from mmagic_vsr_a100_2024.2: keyword args, str, None, float, bool */
	assert_int_equal(mparse(t, "{'mod': 'torch.nn.functional', 'op': 'interpolate', 'args': [{'name': '', "
	    "'type': 'tensor', 'shape': (1, 144, 16, 16), 'dtype': 'float32'}, {'name': '', 'type': "
	    "'NoneType', 'value': None}, {'name': '', 'type': 'float', 'value': 2.0}, {'name': '', "
	    "'type': 'str', 'value': 'bilinear'}, {'name': '', 'type': 'bool', 'value': False}, "
	    "{'name': 'recompute_scale_factor', 'type': 'NoneType', 'value': None}]}", &m), 0);
	assert_int_equal(m.kind, GP_MK_PYPROF);
	assert_string_equal(gp_s(t, m.mod), "torch.nn.functional");
	assert_int_equal(m.args_count, 6);
	a = arg(t, &m, 0);
	assert_int_equal(a->ndim, 4);
	assert_int_equal(a->shape[1], 144);
	assert_int_equal(arg(t, &m, 1)->type, GP_ARG_NULL);
	assert_int_equal(arg(t, &m, 2)->type, GP_ARG_FLOAT);
	assert_true(arg(t, &m, 2)->value == 2.0);
	assert_int_equal(arg(t, &m, 3)->type, GP_ARG_STR);
	assert_string_equal(gp_s(t, arg(t, &m, 3)->sval), "bilinear");
	assert_int_equal(arg(t, &m, 4)->type, GP_ARG_BOOL);
	assert_true(arg(t, &m, 4)->value == 0);
	assert_string_equal(gp_s(t, arg(t, &m, 5)->name), "recompute_scale_factor");

	/* lists/tuples of numbers, non-finite floats as strings, fp16 */
	assert_int_equal(mparse(t, "{'mod': 'torch', 'op': 'x', 'args': [{'name': 'stride', 'type': 'tuple', "
	    "'value': (3, 3)}, {'name': '', 'type': 'list', 'value': [1, 64, 32, 32]}, "
	    "{'name': '', 'type': 'float', 'value': '-inf'}, {'name': '', 'type': 'tuple', 'value': ()}, "
	    "{'name': '', 'type': 'tensor', 'shape': (8, 8), 'dtype': 'float16'}]}", &m), 0);
	assert_int_equal(m.args_count, 5);
	a = arg(t, &m, 0);
	assert_int_equal(a->type, GP_ARG_LIST);
	assert_int_equal(a->ndim, 2);
	assert_int_equal(a->shape[1], 3);
	assert_string_equal(gp_s(t, a->name), "stride");
	assert_int_equal(arg(t, &m, 1)->ndim, 4);
	assert_true(isinf(arg(t, &m, 2)->value) && arg(t, &m, 2)->value < 0);
	assert_int_equal(arg(t, &m, 3)->type, GP_ARG_LIST);
	assert_int_equal(arg(t, &m, 3)->ndim, 0);
	assert_int_equal(arg(t, &m, 4)->dtype, GP_DT_FP16);
	assert_false(m.lossy);

	/* empty args: no "type" substring, so PyProf bins it OTHER */
	assert_int_equal(mparse(t, "{'mod': 'torch', 'op': 'are_deterministic_algorithms_enabled', 'args': []}", &m), 0);
	assert_int_equal(m.kind, GP_MK_PYPROF);
	assert_int_equal(m.pyprof_kind, GP_MK_OTHER);
	assert_int_equal(m.args_count, 0);

	/* lossy: 9 dims, a huge int, a float list, an unknown type */
	size_t before = t->args.n;
	assert_int_equal(mparse(t, "{'mod': 'Tensor', 'op': 'y', 'args': [{'name': '', 'type': 'tensor', "
	    "'shape': (1, 2, 3, 4, 5, 6, 7, 8, 9), 'dtype': 'float32'}]}", &m), 0);
	assert_true(m.lossy);
	assert_int_equal(arg(t, &m, 0)->ndim, GP_MAX_DIMS);
	assert_int_equal(mparse(t, "{'mod': 'torch', 'op': 'y', 'args': [{'name': '', 'type': 'int', "
	    "'value': 123456789012345678901234567890}]}", &m), 0);
	assert_true(m.lossy);
	assert_int_equal(mparse(t, "{'mod': 'torch', 'op': 'y', 'args': [{'name': '', 'type': 'list', "
	    "'value': [0.5, 2]}, 7, {'name': '', 'type': 'device', 'value': 'cuda'}]}", &m), 0);
	assert_true(m.lossy);
	assert_int_equal(m.args_count, 2);
	assert_int_equal(arg(t, &m, 1)->type, GP_ARG_NONE);
	assert_string_equal(gp_s(t, arg(t, &m, 1)->sval), "device");
	assert_true(t->args.n == before + 4);
}

static void marker_trace_repr_layer(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	struct gp_marker m;
	/* real, from net_da6bcc3.sql */
	const char *tm = "{'traceMarker': ['profile2.py:314', 'profile2.py:259', "
	    "'/home/ubuntu/josiah/lib/python3.6/site-packages/torch/nn/utils/clip_grad.py:32', "
	    "'/home/ubuntu/josiah/lib/python3.6/site-packages/apex/pyprof/nvtx/nvmarker.py:95', "
	    "'/home/ubuntu/josiah/lib/python3.6/site-packages/torch/tensor.py:339']}";

	assert_int_equal(mparse(t, tm, &m), 0);
	assert_int_equal(m.kind, GP_MK_TRACE);
	assert_int_equal(m.nframes, 5);
	assert_string_equal(gp_s(t, m.trace),
	    "/home/ubuntu/josiah/lib/python3.6/site-packages/torch/nn/utils/clip_grad.py:32");
	assert_string_equal(gp_s(t, m.trace_raw),
	    "/home/ubuntu/josiah/lib/python3.6/site-packages/torch/tensor.py:339");
	assert_string_equal(gp_s(t, m.trace_list), "profile2.py:314\nprofile2.py:259\n"
	    "/home/ubuntu/josiah/lib/python3.6/site-packages/torch/nn/utils/clip_grad.py:32");
	assert_int_equal(m.func_stack, 0);

	gp_str fr[8];
	assert_int_equal(gp_marker_trace_frames(t, tm, strlen(tm), false, fr, 8), 5);
	assert_string_equal(gp_s(t, fr[0]), "profile2.py:314");
	assert_int_equal(gp_marker_trace_frames(t, tm, strlen(tm), true, fr, 2), 3);
	assert_string_equal(gp_s(t, fr[1]), "profile2.py:259");
	assert_int_equal(gp_marker_trace_frames(t, "{'x': 1}", 8, true, fr, 2), -1);
	assert_true(gp_marker_frame_hidden("/opt/conda/lib/python3.10/site-packages/pyprof/nvtx/nvmarker.py:405"));
	assert_true(gp_marker_frame_hidden("/x/torch/optim/adam.py:3"));
	assert_false(gp_marker_frame_hidden("/x/torch/nn/utils/clip_grad.py:32"));

	/* real DLProf form with funcStack, from dlprof_rtx2070_2022.1 */
	assert_int_equal(mparse(t, "{'traceMarker': ['dummy_network.py:35'], 'funcStack': '/<module>/randn'}", &m), 0);
	assert_int_equal(m.kind, GP_MK_TRACE);
	assert_string_equal(gp_s(t, m.trace), "dummy_network.py:35");
	assert_string_equal(gp_s(t, m.func_stack), "/<module>/randn");

	/* every frame hidden */
	assert_int_equal(mparse(t, "{'traceMarker': ['/a/torch/optim/sgd.py:1']}", &m), 0);
	assert_int_equal(m.trace, 0);
	assert_int_equal(m.trace_list, 0);
	assert_string_equal(gp_s(t, m.trace_raw), "/a/torch/optim/sgd.py:1");

	assert_int_equal(mparse(t, "{'mod': 'LSTMCell', 'strRepr': '10, 20, bias=True'}", &m), 0);
	assert_int_equal(m.kind, GP_MK_REPR);
	assert_int_equal(m.pyprof_kind, GP_MK_REPR);
	assert_string_equal(gp_s(t, m.mod), "LSTMCell");
	assert_string_equal(gp_s(t, m.repr), "10, 20, bias=True");

	assert_int_equal(mparse(t, "layer:Bottleneck_1", &m), 0);
	assert_int_equal(m.kind, GP_MK_LAYER);
	assert_string_equal(gp_s(t, m.layer), "Bottleneck_1");
	assert_string_equal(gp_s(t, m.name), "Bottleneck_1");
	/* PyProf keeps m.split(":")[1] */
	assert_int_equal(mparse(t, "layer:a:b", &m), 0);
	assert_string_equal(gp_s(t, m.layer), "a");
	assert_string_equal(gp_s(t, m.name), "a:b");
	assert_int_equal(mparse(t, "x:y layer:Conv1", &m), 0);
	assert_string_equal(gp_s(t, m.layer), "y layer");
	assert_string_equal(gp_s(t, m.name), "Conv1");
	assert_int_equal(mparse(t, "layer:", &m), 0);
	assert_int_equal(m.layer, 0);

	assert_int_equal(mparse(t, "CheckpointFunctionBackward, seq = 3", &m), 0);
	assert_int_equal(m.kind, GP_MK_SKIP);
	assert_int_equal(mparse(t, "torch::autograd::AccumulateGrad", &m), 0);
	assert_int_equal(m.kind, GP_MK_OTHER);
	assert_string_equal(gp_s(t, m.name), "torch::autograd::AccumulateGrad");
	assert_int_equal(mparse(t, "", &m), 0);
	assert_int_equal(m.kind, GP_MK_OTHER);
	/* a dict of no known shape is OTHER, not an error */
	assert_int_equal(mparse(t, "{'model_config': {'amp': True}}", &m), 0);
	assert_int_equal(m.kind, GP_MK_OTHER);
}

static void marker_seq(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	struct gp_marker m;

	assert_int_equal(mparse(t, "mm, seq = 120", &m), 0);
	assert_int_equal(m.kind, GP_MK_SEQ);
	assert_int_equal(m.pyprof_kind, GP_MK_SEQ);
	assert_int_equal(m.seq_form, GP_SEQ_MODERN);
	assert_string_equal(gp_s(t, m.name), "mm");
	assert_int_equal(m.seq, 120);
	assert_int_equal(m.op_id, -1);
	assert_false(m.bwd);
	assert_int_equal(m.fwd_op, 0);

	assert_int_equal(mparse(t, "AddmmBackward0, seq = 12", &m), 0);
	assert_true(m.bwd && m.pyprof_bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "Addmm");
	/* Backward1 is backward too; PyProf misses it */
	assert_int_equal(mparse(t, "AddmmBackward1, seq = 12", &m), 0);
	assert_true(m.bwd);
	assert_false(m.pyprof_bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "Addmm");
	assert_int_equal(mparse(t, "torch::autograd::CopyBackwards, seq = 192", &m), 0);
	assert_true(m.bwd);
	assert_false(m.pyprof_bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "Copy");
	assert_int_equal(mparse(t, "threshold_backward, seq = 0", &m), 0);
	assert_true(m.bwd && m.pyprof_bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "threshold");
	assert_int_equal(mparse(t, "_softmax_backward_data, seq = 0", &m), 0);
	assert_true(m.bwd);
	assert_false(m.pyprof_bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "_softmax_data");
	assert_int_equal(mparse(t, "aten::threshold_backward, seq = 4, op_id = 9", &m), 0);
	assert_true(m.bwd);
	assert_string_equal(gp_s(t, m.fwd_op), "threshold");

	/* modern: every field, PyTorch's order */
	assert_int_equal(mparse(t, "aten::conv2d, seq = 12, op_id = 55, sizes = [[32, 3, 224, 224], "
	    "[64, 3, 7, 7], [], [2]], input_op_ids = [(3,0), (4,0)]", &m), 0);
	assert_int_equal(m.kind, GP_MK_SEQ);
	assert_string_equal(gp_s(t, m.name), "aten::conv2d");
	assert_int_equal(m.seq, 12);
	assert_int_equal(m.op_id, 55);
	assert_int_equal(m.n_input_op_ids, 2);
	assert_int_equal(m.args_count, 4);
	assert_int_equal(arg(t, &m, 0)->type, GP_ARG_TENSOR);
	assert_int_equal(arg(t, &m, 0)->dtype, GP_DT_UNKNOWN);
	assert_int_equal(arg(t, &m, 0)->ndim, 4);
	assert_int_equal(arg(t, &m, 0)->shape[3], 224);
	assert_int_equal(arg(t, &m, 2)->type, GP_ARG_NONE);
	assert_int_equal(arg(t, &m, 3)->shape[0], 2);

	/* any order, no seq */
	assert_int_equal(mparse(t, "aten::empty, sizes = [[2, 2]], op_id = 3", &m), 0);
	assert_int_equal(m.kind, GP_MK_SEQ);
	assert_int_equal(m.pyprof_kind, GP_MK_OTHER);
	assert_int_equal(m.seq_form, GP_SEQ_NONE);
	assert_int_equal(m.seq, -1);
	assert_int_equal(m.op_id, 3);
	assert_int_equal(m.args_count, 1);
	assert_int_equal(mparse(t, "aten::add, input_op_ids = [], seq = 7", &m), 0);
	assert_int_equal(m.seq, 7);
	assert_int_equal(m.n_input_op_ids, 0);

	/* legacy PyTorch 1.0 */
	assert_int_equal(mparse(t, "add, seq=5", &m), 0);
	assert_int_equal(m.kind, GP_MK_SEQ);
	assert_int_equal(m.pyprof_kind, GP_MK_OTHER);
	assert_int_equal(m.seq_form, GP_SEQ_LEGACY);
	assert_int_equal(m.seq, 5);
	assert_int_equal(mparse(t, "MulBackward, stashed seq=4", &m), 0);
	assert_int_equal(m.seq_form, GP_SEQ_STASHED);
	assert_int_equal(m.seq, 4);
	assert_string_equal(gp_s(t, m.name), "MulBackward");
	assert_true(m.bwd);

	/* malformed: partial fields kept, error located */
	assert_int_equal(mparse(t, "conv2d, seq = 1, sizes = [[3, 4", &m), -1);
	assert_int_equal(m.kind, GP_MK_SEQ);
	assert_int_equal(m.seq, 1);
	assert_string_equal(m.err, "unterminated container");
	assert_int_equal(m.err_off, 26);
	assert_int_equal(mparse(t, "x, seq = 12 trailing", &m), -1);
	assert_int_equal(m.err_off, 11);
	assert_int_equal(mparse(t, "x, seq = abc", &m), -1);
	assert_int_equal(m.seq, -1);
	assert_int_equal(mparse(t, "x, seq = 1.5", &m), -1);
	assert_string_equal(m.err, "expected an integer");
	assert_int_equal(m.err_off, 9);
	assert_int_equal(mparse(t, "x, seq = 99999999999999999999999", &m), 0);
	assert_true(m.lossy);
	assert_true(m.seq == INT64_MAX);
	assert_int_equal(mparse(t, "x, sizes = 3", &m), -1);
	assert_string_equal(m.err, "expected a list");
	/* numbers: plain digits (read without the literal parser up to 18
	** digits) and every other form read as the literal parser reads them */
	assert_int_equal(mparse(t, "x, seq = 123456789012345678, op_id = 1234567890123456789", &m), 0);
	assert_true(m.seq == 123456789012345678 && m.op_id == 1234567890123456789 && !m.lossy);
	assert_int_equal(mparse(t, "x, seq = 007, op_id = 08", &m), 0);
	assert_true(m.seq == 7 && m.op_id == 8);
	assert_int_equal(mparse(t, "x, seq =  -5", &m), 0);
	assert_true(m.seq == -5);
	assert_int_equal(mparse(t, "x, seq = 5abc", &m), -1);
	assert_string_equal(m.err, "bad character in number");
	assert_int_equal(m.err_off, 10);
	assert_int_equal(mparse(t, "x, seq = 5_0", &m), -1);
	assert_int_equal(m.err_off, 10);
	assert_int_equal(mparse(t, "x, seq = 12e3", &m), -1);
	assert_string_equal(m.err, "expected an integer");
	assert_int_equal(m.err_off, 9);
	/* plain commas are part of the name */
	assert_int_equal(mparse(t, "a, b, seq = 2", &m), 0);
	assert_string_equal(gp_s(t, m.name), "a, b");
}

#define FWD(name, buf, size) gp_marker_fwd_op(name, strlen(name), buf, size)
#define BWD(name) gp_marker_is_backward(name, strlen(name))

/* Short names for listings (gpuprof ranges): one per kind, and whether the
** marker is one of PyProf's per-op markers. */
static void marker_labels(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	static const struct {
		const char *text, *label;   /* label NULL: the text is its own name */
		bool per_op;
	} cases[] = {
		{"{'mod': 'torch.nn.functional', 'op': 'conv2d', 'args': [{'name': '', 'type': 'tensor', "
		 "'shape': (1, 128, 16, 16), 'dtype': 'float32'}]}", "torch.nn.functional.conv2d", true},
		{"{'mod': 'Tensor', 'op': 'cuda', 'args': []}", "Tensor.cuda", true},
		{"{'traceMarker': ['/workspace/mmagic/editors/d2dunet/multiscale_arch.py:148', "
		 "'/opt/conda/lib/python3.10/site-packages/pyprof/nvtx/nvmarker.py:405']}",
		 "trace multiscale_arch.py:148", true},
		{"{'traceMarker': ['/x/pyprof/nvtx/nvmarker.py:405']}", "trace nvmarker.py:405", true},
		{"{'mod': 'LSTMCell', 'strRepr': '10, 20'}", "LSTMCell(10, 20)", true},
		{"{'mod': 'Net', 'strRepr': 'in_features=1024, out_features=1024, bias=True, "
		 "something_else=a_long_value, more=1'}", "Net(...)", true},
		{"aten::conv2d, seq = 12, op_id = 3, sizes = [[1, 3, 224, 224], [64, 3, 7, 7]]", "aten::conv2d", false},
		{"AddmmBackward0, seq = 7", "AddmmBackward0", false},
		{"layer:Encoder", NULL, false},
		{"forward", NULL, false},
		{"{'mod': 'torch', 'op': ", NULL, false},   /* broken: OTHER */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool per_op = !cases[i].per_op;
		size_t nargs = t->args.n;
		gp_str l = gp_marker_label(t, cases[i].text, strlen(cases[i].text), &per_op);
		assert_int_equal(t->args.n, nargs);   /* the args parsed are dropped */
		if (cases[i].label)
			assert_string_equal(gp_s(t, l), cases[i].label);
		else
			assert_int_equal(l, 0);
		assert_int_equal(per_op, cases[i].per_op);
	}
}

static void marker_helpers(void **state)
{
	char buf[64];

	assert_true(BWD("AddmmBackward"));
	assert_true(BWD("AddmmBackward12"));
	assert_true(BWD("backward"));
	assert_true(BWD("torch::autograd::CopyBackwards"));
	assert_false(BWD("Backwardx"));
	assert_false(BWD("aten::mm"));
	assert_false(BWD("Backward::mm"));
	assert_false(BWD(""));
	assert_string_equal(FWD("torch::jit::(anonymous namespace)::DifferentiableGraphBackward", buf, sizeof(buf)),
	                    "DifferentiableGraph");
	assert_string_equal(FWD("NativeLayerNormBackward", buf, sizeof(buf)), "NativeLayerNorm");
	assert_string_equal(FWD("aten::mm", buf, sizeof(buf)), "mm");
	assert_string_equal(FWD("AddmmBackward0", buf, 4), "Add");
	assert_string_equal(gp_marker_kind_name(GP_MK_SEQ), "SEQ");
	assert_string_equal(gp_marker_kind_name(99), "?");
}

static void marker_seq_sort_prune(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	const char *in[] = {
		"relu, seq = 9", "add_, seq = 12", "add, seq = 12", "relu, seq = 9",
		"aten::relu, seq = 9", "mm, seq = 12", "threshold, seq = 9",
	};
	struct gp_marker ms[7];
	size_t n = sizeof(in) / sizeof(in[0]);

	for (size_t i = 0; i < n; i++)
		assert_int_equal(mparse(t, in[i], &ms[i]), 0);
	n = gp_marker_seq_sort(t, ms, n);
	/* key str(seq)+name+", seq": "12add, seq" < "12add_, seq" < "12mm, seq"
	** < "9aten::relu, seq" < "9relu, seq" < "9threshold, seq" */
	assert_int_equal(n, 6);
	const char *want[] = {"add", "add_", "mm", "aten::relu", "relu", "threshold"};
	for (size_t i = 0; i < n; i++)
		assert_string_equal(gp_s(t, ms[i].name), want[i]);
	/* add_ contains add (same seq) -> dropped; relu is in aten::relu -> dropped */
	n = gp_marker_seq_prune(t, ms, n);
	assert_int_equal(n, 4);
	const char *kept[] = {"add", "mm", "aten::relu", "threshold"};
	for (size_t i = 0; i < n; i++)
		assert_string_equal(gp_s(t, ms[i].name), kept[i]);

	/* prune compares with the previous input element even if dropped:
	** a, ab (dropped: contains a), b (in ab) -> dropped too */
	struct gp_marker p[3];
	assert_int_equal(mparse(t, "a, seq = 1", &p[0]), 0);
	assert_int_equal(mparse(t, "ab, seq = 1", &p[1]), 0);
	assert_int_equal(mparse(t, "b, seq = 1", &p[2]), 0);
	assert_int_equal(gp_marker_seq_prune(t, p, 3), 1);
	assert_int_equal(gp_marker_seq_prune(t, p, 0), 0);
	assert_int_equal(gp_marker_seq_sort(t, p, 0), 0);
}

/* Every prefix of real markers: an error or a classification, never a
** crash (ASan build checks the reads). */
static void marker_truncated(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	const char *real[] = {
		"{'mod': 'torch.nn.functional', 'op': 'dropout', 'args': [{'name': '', 'type': 'tensor', "
		"'shape': (35, 20, 200), 'dtype': 'float32'}, {'name': '', 'type': 'float', 'value': 0.2}, "
		"{'name': '', 'type': 'bool', 'value': True}, {'name': '', 'type': 'bool', 'value': False}]}",
		("{'traceMarker': ['dummy_network.py:41', '/home/m/.local/lib/python3.6/site-packages/torch/nn/"
		 "modules/module.py:1102', 'dummy_network.py:27'], 'funcStack': '/<module>/dummy_network::_call_impl'}"),
		"aten::conv2d, seq = 12, op_id = 55, sizes = [[32, 3, 224, 224], [], [2]], input_op_ids = [(3,0)]",
		"{'mod': 'x', 'op': 'y', 'args': [{'name': 'k', 'type': 'str', 'value': 'a\\'b\\x41\\u00e9'}]}",
	};
	struct gp_marker m;

	for (size_t r = 0; r < sizeof(real) / sizeof(real[0]); r++) {
		size_t len = strlen(real[r]);
		for (size_t n = 0; n <= len; n++) {
			/* exact-size heap copy so ASan sees any read past n */
			char *s = malloc(n ? n : 1);
			memcpy(s, real[r], n);
			int rc = gp_marker_parse(t, s, n, &m);
			assert_true(rc == 0 || rc == -1);
			if (rc)
				assert_non_null(m.err);
			assert_true(m.kind < GP_MK__COUNT);
			if (n == len)
				assert_int_equal(rc, 0);
			else if (real[r][0] == '{' && m.pyprof_kind != GP_MK_OTHER)
				assert_int_equal(rc, -1);   /* a cut dict is never accepted */
			free(s);
		}
	}
}

/* ---- every marker of the real traces ---- */

static const char *testdata(void)
{
	const char *d = getenv("TESTDATA");
	return d && *d ? d : NULL;
}

/* Runs sql (one text column) and parses each row; counts[kind]++.  Returns
** rows, or -1 if the file is missing. */
static long parse_all(gp_trace *t, const char *rel, const char *sql, long counts[GP_MK__COUNT],
                      long *errors, long *other_not_aten)
{
	char path[1024];
	sqlite3 *db;
	sqlite3_stmt *st;
	long rows = 0;

	if (!testdata())
		return -1;
	snprintf(path, sizeof(path), "%s/%s", testdata(), rel);
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);
		int n = sqlite3_column_bytes(st, 0);
		struct gp_marker m;
		if (gp_marker_parse(t, s ? s : "", (size_t)n, &m))
			(*errors)++;
		counts[m.kind]++;
		/* pyprof_kind must be PyProf's bin; ours differs only for args-less dicts */
		if (m.kind != m.pyprof_kind)
			assert_true(m.kind == GP_MK_PYPROF && m.pyprof_kind == GP_MK_OTHER && m.args_count == 0);
		if (m.kind == GP_MK_OTHER && strncmp(s, "aten::", 6) &&
		    strcmp(s, "torch::autograd::AccumulateGrad") &&
		    strncmp(s, "{\"model_config\"", 15))
			(*other_not_aten)++;
		rows++;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return rows;
}

static long count_sql(const char *rel, const char *sql)
{
	char path[1024];
	sqlite3 *db;
	sqlite3_stmt *st;
	long n = -1;

	snprintf(path, sizeof(path), "%s/%s", testdata(), rel);
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

#define LM "nvprof/pyprof_lm_v100/net_da6bcc3.sql"
#define LM_MARKERS "from CUPTI_ACTIVITY_KIND_MARKER m join StringTable s on s._id_ = m.name where m.flags = 2"

static void real_nvprof_all_markers(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	long c[GP_MK__COUNT] = {0}, errors = 0, odd = 0;
	long rows = parse_all(t, LM, "select s.value " LM_MARKERS, c, &errors, &odd);

	if (rows < 0) {
		printf("SKIP: " LM " not found (test data: ../shared/testdata beside the checkout, or TESTDATA=DIR)\n");
		skip();
	}
	/* counts from `sqlite3 net_da6bcc3.sql "select s.value ..." | grep -c`:
	** 1195 rows; 243 "{'mod'", 243 "{'traceMarker'", 681 ", seq = ",
	** 28 "torch::autograd::AccumulateGrad" */
	assert_int_equal(rows, 1195);
	assert_int_equal(errors, 0);
	assert_int_equal(odd, 0);
	assert_int_equal(c[GP_MK_PYPROF], 243);
	assert_int_equal(c[GP_MK_TRACE], 243);
	assert_int_equal(c[GP_MK_SEQ], 681);
	assert_int_equal(c[GP_MK_OTHER], 28);
	assert_int_equal(c[GP_MK_LAYER] + c[GP_MK_REPR] + c[GP_MK_SKIP], 0);
	/* and the same independently through SQL */
	assert_int_equal(c[GP_MK_PYPROF], count_sql(LM, "select count(*) " LM_MARKERS
	    " and s.value like '{''mod'': %''op'': %''args'': [%'"));
	assert_int_equal(c[GP_MK_TRACE], count_sql(LM, "select count(*) " LM_MARKERS
	    " and s.value like '{''traceMarker'': [%'"));
	assert_int_equal(c[GP_MK_SEQ], count_sql(LM, "select count(*) " LM_MARKERS
	    " and s.value like '%, seq = %'"));
	assert_int_equal(c[GP_MK_OTHER], count_sql(LM, "select count(*) " LM_MARKERS
	    " and s.value = 'torch::autograd::AccumulateGrad'"));
}

static void real_nsys_all_markers(void **state)
{
	gp_trace *t = &((struct fx *)*state)->t;
	long c[GP_MK__COUNT] = {0}, errors = 0, odd = 0;
	const char *vsr = "nsys/mmagic_vsr_a100_2024.2/net.sqlite";
	const char *dl = "nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite";
	long rows = parse_all(t, vsr, "select text from NVTX_EVENTS", c, &errors, &odd);

	if (rows < 0) {
		printf("SKIP: %s not found (test data: ../shared/testdata beside the checkout, or TESTDATA=DIR)\n", vsr);
		skip();
	}
	/* 1956 events: 978 "{'mod'" (12 of them with 'args': []), 978 traceMarker */
	assert_int_equal(rows, 1956);
	assert_int_equal(errors, 0);
	assert_int_equal(c[GP_MK_PYPROF], 978);
	assert_int_equal(c[GP_MK_TRACE], 978);
	assert_int_equal(c[GP_MK_PYPROF], count_sql(vsr, "select count(*) from NVTX_EVENTS where text like '{''mod''%'"));

	memset(c, 0, sizeof(c));
	rows = parse_all(t, dl, "select text from NVTX_EVENTS", c, &errors, &odd);
	assert_int_equal(rows, 82);
	assert_int_equal(errors, 0);
	assert_int_equal(odd, 0);
	/* 27 dicts with mod, 27 traceMarker (+funcStack), 19 ", seq = ", 8 aten::
	** without seq and one DLProf JSON range {"model_config": {"emit_nvtx": true}} */
	assert_int_equal(c[GP_MK_PYPROF], 27);
	assert_int_equal(c[GP_MK_TRACE], 27);
	assert_int_equal(c[GP_MK_SEQ], 19);
	assert_int_equal(c[GP_MK_OTHER], 9);
	assert_int_equal(c[GP_MK_SEQ], count_sql(dl, "select count(*) from NVTX_EVENTS where text like '%, seq = %'"));
}

/* PyProf's binning as PyProf writes it: a substring test each, first match
** wins.  The oracle for gp_marker_parse's one-pass binning. */
static int ref_bin(const char *s)
{
#define HAS(p) (strstr(s, p) != NULL)
	if (HAS("CheckpointFunctionBackward"))
		return GP_MK_SKIP;
	if (HAS("mod") && HAS("op") && HAS("args") && HAS("type"))
		return GP_MK_PYPROF;
	if (HAS("layer:"))
		return GP_MK_LAYER;
	if (HAS("traceMarker"))
		return GP_MK_TRACE;
	if (HAS("strRepr"))
		return GP_MK_REPR;
	if (HAS(", seq = "))
		return GP_MK_SEQ;
	return GP_MK_OTHER;
#undef HAS
}

/* ", sizes = [[..], ..]" in emit_nvtx's own spelling (read without the
** literal parser where it can be) gives the args, flags, fields after it
** and errors that the literal parser gives for the same list spelled
** otherwise ("[ " opening it, which only the parser reads).  Random lists
** of plain, long, fractional and odd items, up to 10 dims, cut short. */
static void sizes_match_parser(void **state)
{
	static const char *const items[] = {"0", "7", "2048", "007", "123456789012345678",
					    "1234567890123456789", "99999999999999999999", "1.0", "1.5",
					    "-3", "True", "x", "(2, 3)", "[]"};
	gp_trace *t = &((struct fx *)*state)->t;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char a[512], b[520];

	for (int round = 0; round < 20000; round++) {
		size_t n = (size_t)snprintf(a, sizeof(a), "aten::mm, seq = 3, sizes = [");
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int lists = (int)(x % 5);
		for (int l = 0; l < lists; l++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			int dims = (int)(x % 11);
			n += (size_t)snprintf(a + n, sizeof(a) - n, "%s[", l ? ", " : "");
			for (int d = 0; d < dims; d++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				/* mostly plain ints, as emit_nvtx writes */
				const char *it = x % 8 ? items[x % 3 + 1] : items[(x >> 8) % (sizeof(items) / sizeof(items[0]))];
				n += (size_t)snprintf(a + n, sizeof(a) - n, "%s%s", d ? ", " : "", it);
			}
			n += (size_t)snprintf(a + n, sizeof(a) - n, "]");
		}
		n += (size_t)snprintf(a + n, sizeof(a) - n, "], op_id = 9");
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (x % 10 == 0)   /* cut anywhere */
			n = (size_t)(x >> 8) % (n + 1);
		a[n] = '\0';
		const char *open = strstr(a, "sizes = [");
		size_t at = open ? (size_t)(open - a) + 9 : n;   /* after its '[' */
		memcpy(b, a, at);
		b[at] = ' ';
		memcpy(b + at + 1, a + at, n - at + 1);

		struct gp_marker ma, mb;
		int ra = gp_marker_parse(t, a, n, &ma);
		int rb = gp_marker_parse(t, b, n + (open ? 1 : 0), &mb);
		if (ra != rb || ma.args_count != mb.args_count || ma.lossy != mb.lossy || ma.op_id != mb.op_id ||
		    ma.kind != mb.kind || (ma.err == NULL) != (mb.err == NULL) ||
		    (ma.err && strcmp(ma.err, mb.err)))
			fail_msg("\"%s\": %d %u lossy %d op_id %lld; spelled otherwise %d %u lossy %d op_id %lld", a,
				 ra, ma.args_count, ma.lossy, (long long)ma.op_id, rb, mb.args_count, mb.lossy,
				 (long long)mb.op_id);
		if (ma.err && ma.err_off + (open && ma.err_off >= at ? 1 : 0) != mb.err_off)
			fail_msg("\"%s\": error at %u, spelled otherwise at %u", a, ma.err_off, mb.err_off);
		for (uint32_t i = 0; i < ma.args_count; i++) {
			const struct gp_arg *x1 = &t->args.v[ma.args_first + i], *x2 = &t->args.v[mb.args_first + i];
			if (x1->type != x2->type || x1->ndim != x2->ndim ||
			    memcmp(x1->shape, x2->shape, sizeof(x1->shape)))
				fail_msg("\"%s\": arg %u differs", a, i);
		}
	}
}

/* Texts glued at random from pieces of the binning's substrings (whole,
** cut and overlapping: "typ", "mo", "layer", "traceMarke", "strRep", ", seq =",
** "CheckpointFunctionBackwar") bin as the substring tests bin them. */
static void binning_matches_substring_tests(void **state)
{
	static const char *const pieces[] = {
		"CheckpointFunctionBackward", "CheckpointFunctionBackwar", "mod", "mo", "op", "o", "args",
		"arg", "type", "typ", "layer:", "layer", "traceMarker", "traceMarke", "strRepr", "strRep",
		", seq = ", ", seq =", ",", " ", "s", "t", "{", "'", "aten::mm", "x", "Backward",
		"backward", "Backward0", "ackward", "3", ", op_id = 4",
	};
	uint64_t x = 0x2545f4914f6cdd1dull;
	gp_trace t;
	char text[256];
	int seq_texts = 0, bwd_texts = 0;

	(void)state;
	gp_trace_init(&t);
	for (int round = 0; round < 50000; round++) {
		size_t len = 0;
		text[0] = '\0';
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		int npieces = (int)(x % 7);
		for (int j = 0; j < npieces; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			const char *p = pieces[x % (sizeof(pieces) / sizeof(pieces[0]))];
			size_t pl = strlen(p);
			if (len + pl >= sizeof(text))
				break;
			memcpy(text + len, p, pl + 1);
			len += pl;
		}
		struct gp_marker m;
		gp_marker_parse(&t, text, len, &m);
		if (m.pyprof_kind != ref_bin(text))
			fail_msg("\"%s\": binned %d, the substring tests say %d", text, m.pyprof_kind, ref_bin(text));
		bool bwd = strstr(text, "Backward, seq = ") || strstr(text, "backward, seq = ") ||
			   strstr(text, "Backward0, seq = ");
		if (m.kind == GP_MK_SEQ && m.pyprof_bwd != bwd)
			fail_msg("\"%s\": PyProf backward %d, the substring tests say %d", text, m.pyprof_bwd, bwd);
		seq_texts += m.kind == GP_MK_SEQ;
		bwd_texts += m.kind == GP_MK_SEQ && bwd;
		t.args.n = 0;
	}
	/* the backward test saw both answers on texts parsed as emit_nvtx */
	assert_true(seq_texts > 1000 && bwd_texts > 100 && bwd_texts < seq_texts);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pylit_scalars),
		cmocka_unit_test(binning_matches_substring_tests),
		cmocka_unit_test(pylit_containers),
		cmocka_unit_test(pylit_errors),
		cmocka_unit_test_setup_teardown(marker_pyprof, setup, teardown),
		cmocka_unit_test_setup_teardown(marker_trace_repr_layer, setup, teardown),
		cmocka_unit_test_setup_teardown(marker_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(marker_labels, setup, teardown),
		cmocka_unit_test(marker_helpers),
		cmocka_unit_test_setup_teardown(marker_seq_sort_prune, setup, teardown),
		cmocka_unit_test_setup_teardown(marker_truncated, setup, teardown),
		cmocka_unit_test_setup_teardown(sizes_match_parser, setup, teardown),
		cmocka_unit_test_setup_teardown(real_nvprof_all_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(real_nsys_all_markers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
