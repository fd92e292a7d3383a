/*
** Unit tests: serving phases (analysis/phases.c): what --phase accepts,
** the group labels, and a replayed kernel's batch size through the graph
** matcher's tables (t->replay_graph, t->captured_graphs, t->captures).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/phases.h"
#include "analysis/serving.h"

static void selection(void **state)
{
	struct gp_phase_sel s;

	assert_int_equal(gp_phase_sel_parse("decode", &s), 0);
	assert_int_equal(s.phase, GP_PHASE_DECODE);
	assert_int_equal(s.batch, -1);
	assert_int_equal(gp_phase_sel_parse("bs=8", &s), 0);
	assert_int_equal(s.phase, GP_PHASE_NONE);
	assert_int_equal(s.batch, 8);
	assert_int_equal(gp_phase_sel_parse("mixed bs=8192", &s), 0);
	assert_int_equal(s.phase, GP_PHASE_MIXED);
	assert_int_equal(s.batch, 8192);
	/* none of these */
	const char *bad[] = {"", "idle", "bs=", "bs=x", "bs=8 ", "decodebs=8", "decode  bs=8", "decod bs=1",
			     "bs=-1", "prefill bs=1x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(gp_phase_sel_parse(bad[i], &s), -1);
}

static void labels(void **state)
{
	char buf[64];

	assert_string_equal(gp_phase_label(GP_PHASE_DECODE, 8, buf, sizeof(buf)), "decode bs=8");
	assert_string_equal(gp_phase_label(GP_PHASE_NONE, 8, buf, sizeof(buf)), "bs=8");
	assert_string_equal(gp_phase_label(GP_PHASE_PREFILL, -1, buf, sizeof(buf)), "prefill");
	assert_string_equal(gp_phase_label(GP_PHASE_NONE, -1, buf, sizeof(buf)), "");
}

/* Two kernels: one replayed from the graph of a capture of batch size 32,
** one eager; a graph of a capture without a batch size gives none. */
static void kernel_batch(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	for (int i = 0; i < 3; i++)
		gp_vec_push(t.kernels)->def = 0;
	*gp_vec_push(t.captures) = (struct gp_capture){.batch = 32, .rank = -1};
	*gp_vec_push(t.captures) = (struct gp_capture){.batch = -1, .rank = -1};
	*gp_vec_push(t.captured_graphs) = (struct gp_captured_graph){.capture = 0};
	*gp_vec_push(t.captured_graphs) = (struct gp_captured_graph){.capture = 1};
	assert_int_equal(gp_kernel_batch(&t, 0), -1);   /* no table: nothing matched */
	assert_null(gp_phase_batches(&t, NULL));
	t.replay_graph = gp_xmalloc(3 * sizeof(*t.replay_graph));
	t.replay_graph[0] = 0;
	t.replay_graph[1] = -1;
	t.replay_graph[2] = 1;
	assert_int_equal(gp_kernel_batch(&t, 0), 32);
	assert_int_equal(gp_kernel_batch(&t, 1), -1);
	assert_int_equal(gp_kernel_batch(&t, 2), -1);
	int32_t *b = gp_phase_batches(&t, NULL);
	assert_non_null(b);
	assert_int_equal(b[0], 32);
	assert_int_equal(b[1], -1);
	struct gp_phase_sel s = {GP_PHASE_NONE, 32};
	uint8_t *keep = gp_phase_sel_kernels(t.kernels.n, NULL, b, &s);
	assert_int_equal(keep[0] + 2 * keep[1] + 4 * keep[2], 1);
	free(keep);
	free(b);
	t.captures.n = 0;   /* the captures are stand-ins: no traces to free */
	gp_trace_free(&t);
}

/* Step marker texts: their phase, and the requests and tokens they
** record (serving.h), as the real vLLM and SGLang traces write them. */
static void markers(void **state)
{
	static const struct {
		const char *text;
		int phase;
		int32_t requests;
		int64_t tokens;
	} m[] = {
		{"execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)", GP_PHASE_DECODE, 32, 32},
		{"execute_8192_context_9(sq8155sk8430)_generation_37(sq37sk34489)", GP_PHASE_MIXED, 46, 8192},
		{"execute_context_1(888_788544)_generation_0(0)", GP_PHASE_PREFILL, 1, 888},
		{"execute_context_0(0)_generation_32(32)", GP_PHASE_DECODE, 32, 32},
		{"execute_context_2(100)_generation_3(3)", GP_PHASE_MIXED, 5, 103},
		{"step[DECODE bs=32]", GP_PHASE_DECODE, 32, -1},
		{"step[EXTEND bs=15 toks=15360]", GP_PHASE_PREFILL, 15, 15360},
		{"step[EXTEND]", GP_PHASE_PREFILL, -1, -1},
		{"step[DECODEX]", GP_PHASE_NONE, -1, -1},
		{"step[IDLE bs=0]", GP_PHASE_NONE, 0, -1},   /* no step, but it records 0 */
		{"execute_context_(0)_generation_1(1)", GP_PHASE_NONE, -1, -1},
		{"execute_context_0(0)_generation_0(0)", GP_PHASE_NONE, 0, 0},
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct gp_serving_marker sm;
		assert_int_equal(gp_phase_of_text(m[i].text), m[i].phase);
		gp_serving_marker(m[i].text, &sm);
		assert_int_equal(sm.requests, m[i].requests);
		assert_int_equal(sm.tokens, m[i].tokens);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(selection),
		cmocka_unit_test(labels),
		cmocka_unit_test(kernel_batch),
		cmocka_unit_test(markers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
